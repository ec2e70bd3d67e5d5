import { describe, expect, it } from 'vitest';
import { capability, supports } from '../../src/capability/capability.js';
import { matchesWhen, validateWhen } from '../../src/capability/when.js';
import type { Env, Runtime } from '../../src/env/runtime.js';

const at = (env: Env, tty = true): Runtime => ({ env, isTTY: { stdout: tty } });

// The founding truth table (examples/supports.mjs), one row per line of its output.
const FOUNDING: { name: string; env: Env; tty: boolean; expected: boolean }[] = [
  { name: 'TERM_PROGRAM=iTerm.app', env: { TERM_PROGRAM: 'iTerm.app' }, tty: true, expected: true },
  { name: 'VTE_VERSION=7600', env: { VTE_VERSION: '7600' }, tty: true, expected: true },
  { name: 'WT_SESSION=x', env: { WT_SESSION: 'x' }, tty: true, expected: true },
  { name: 'iTerm.app but stdout is not a TTY', env: { TERM_PROGRAM: 'iTerm.app' }, tty: false, expected: false },
  { name: 'iTerm.app with TERM=dumb', env: { TERM_PROGRAM: 'iTerm.app', TERM: 'dumb' }, tty: true, expected: false },
  { name: 'empty environment', env: {}, tty: true, expected: false },
];

describe('the founding link capability', () => {
  it('its when clause, as JSON, is the founding line', () => {
    expect(JSON.stringify(capability('link').when)).toBe(
      '{"tty":true,"termProgram":["iTerm.app","WezTerm","ghostty","vscode","Hyper","Apple_Terminal"],"envAny":["VTE_VERSION","WT_SESSION"]}',
    );
  });
  it.each(FOUNDING)('$name → $expected', ({ env, tty, expected }) => {
    expect(supports(at(env, tty), capability('link'))).toBe(expected);
    expect(supports(at(env, tty), 'link')).toBe(expected);
  });
});

describe('when clause semantics', () => {
  const ROWS: { name: string; when: unknown; env: Env; tty: boolean; expected: boolean }[] = [
    { name: '{} matches a TTY', when: {}, env: {}, tty: true, expected: true },
    { name: '{} matches a non-TTY too', when: {}, env: {}, tty: false, expected: true },
    { name: 'tty:true needs a TTY', when: { tty: true }, env: {}, tty: false, expected: false },
    { name: 'tty:false asks nothing', when: { tty: false }, env: {}, tty: false, expected: true },
    { name: 'term exact', when: { term: 'xterm-kitty' }, env: { TERM: 'xterm-kitty' }, tty: true, expected: true },
    { name: 'term is not a prefix', when: { term: 'xterm' }, env: { TERM: 'xterm-kitty' }, tty: true, expected: false },
    {
      name: 'term is case-sensitive',
      when: { term: 'xterm-kitty' },
      env: { TERM: 'XTERM-KITTY' },
      tty: true,
      expected: false,
    },
    {
      name: 'term and termProgram both needed',
      when: { term: 'tmux-256color', termProgram: ['ghostty'] },
      env: { TERM: 'tmux-256color' },
      tty: true,
      expected: false,
    },
    {
      name: 'termProgram one of',
      when: { termProgram: ['a', 'b'] },
      env: { TERM_PROGRAM: 'b' },
      tty: true,
      expected: true,
    },
    {
      name: 'termProgram none of',
      when: { termProgram: ['a', 'b'] },
      env: { TERM_PROGRAM: 'c' },
      tty: true,
      expected: false,
    },
    { name: 'envAny any set', when: { envAny: ['A', 'B'] }, env: { B: '1' }, tty: true, expected: true },
    { name: 'envAny exported empty is unset', when: { envAny: ['A'] }, env: { A: '' }, tty: true, expected: false },
    {
      name: 'TERM_PROGRAM exported empty is unset',
      when: { termProgram: [''] },
      env: { TERM_PROGRAM: '' },
      tty: true,
      expected: false,
    },
    {
      name: 'termProgram or envAny: envAny alone',
      when: { termProgram: ['x'], envAny: ['A'] },
      env: { A: '1' },
      tty: true,
      expected: true,
    },
    {
      name: 'termProgram or envAny: termProgram alone',
      when: { termProgram: ['x'], envAny: ['A'] },
      env: { TERM_PROGRAM: 'x' },
      tty: true,
      expected: true,
    },
    {
      name: 'termProgram or envAny: neither',
      when: { termProgram: ['x'], envAny: ['A'] },
      env: { TERM_PROGRAM: 'y' },
      tty: true,
      expected: false,
    },
    { name: 'empty envAny matches nothing', when: { envAny: [] }, env: { A: '1' }, tty: true, expected: false },
    { name: 'TERM=dumb is always no, even for {}', when: {}, env: { TERM: 'dumb' }, tty: true, expected: false },
    {
      name: 'TERM=dumb is always no, even when term asks for it',
      when: { term: 'dumb' },
      env: { TERM: 'dumb' },
      tty: true,
      expected: false,
    },
    { name: 'null is no', when: null, env: {}, tty: true, expected: false },
    { name: 'a string is no', when: 'tty', env: {}, tty: true, expected: false },
    { name: 'a number is no', when: 1, env: {}, tty: true, expected: false },
    { name: 'undefined is no', when: undefined, env: {}, tty: true, expected: false },
    { name: 'an array is no', when: [], env: {}, tty: true, expected: false },
    {
      name: 'a malformed termProgram matches nothing',
      when: { termProgram: 'x' },
      env: { TERM_PROGRAM: 'x' },
      tty: true,
      expected: false,
    },
    { name: 'a malformed tty matches nothing', when: { tty: 'yes' }, env: {}, tty: true, expected: false },
  ];
  it.each(ROWS)('$name', ({ when, env, tty, expected }) => {
    expect(matchesWhen(at(env, tty), when)).toBe(expected);
    expect(
      supports(at(env, tty), { name: 'x', when: when as never, args: {}, sequence: () => 's', fallback: () => 'f' }),
    ).toBe(expected);
  });
});

describe('validateWhen', () => {
  it.each([
    { name: 'null', when: null, message: /when must be an object/ },
    { name: 'a string', when: 'x', message: /when must be an object/ },
    { name: 'tty a number', when: { tty: 1 }, message: /when\.tty must be a boolean/ },
    { name: 'term a list', when: { term: ['a'] }, message: /when\.term must be a string/ },
    {
      name: 'termProgram a string, not a list',
      when: { termProgram: 'iTerm.app' },
      message: /when\.termProgram must be an array of strings/,
    },
    { name: 'envAny holding a number', when: { envAny: [1] }, message: /when\.envAny must be an array of strings/ },
    {
      name: 'a misspelt field (termprogram)',
      when: { termprogram: ['x'] },
      message: /unknown when field 'termprogram'/,
    },
  ])('$name is refused', ({ when, message }) => {
    expect(() => validateWhen(when, 'cap')).toThrow(TypeError);
    expect(() => validateWhen(when, 'cap')).toThrow(message);
  });
  it('keeps the key order and freezes', () => {
    const when = validateWhen({ envAny: ['A'], tty: true }, 'cap');
    expect(JSON.stringify(when)).toBe('{"envAny":["A"],"tty":true}');
    expect(Object.isFrozen(when) && Object.isFrozen(when.envAny)).toBe(true);
  });
});
