import { describe, expect, it } from 'vitest';
import { capability, supports } from '../../src/capability/capability.js';
import { matchesWhen, validateWhen } from '../../src/capability/when.js';
import type { Env, Runtime } from '../../src/env/runtime.js';

const at = (env: Env, tty = true): Runtime => ({ env, isTTY: { stdout: tty } });

// The founding truth table (examples/supports.mjs), one row per line of its output.
const FOUNDING: [string, Env, boolean, boolean][] = [
  ['TERM_PROGRAM=iTerm.app', { TERM_PROGRAM: 'iTerm.app' }, true, true],
  ['VTE_VERSION=7600', { VTE_VERSION: '7600' }, true, true],
  ['WT_SESSION=x', { WT_SESSION: 'x' }, true, true],
  ['iTerm.app but stdout is not a TTY', { TERM_PROGRAM: 'iTerm.app' }, false, false],
  ['iTerm.app with TERM=dumb', { TERM_PROGRAM: 'iTerm.app', TERM: 'dumb' }, true, false],
  ['empty environment', {}, true, false],
];

describe('the founding link capability', () => {
  it('its when clause, as JSON, is the founding line', () => {
    expect(JSON.stringify(capability('link').when)).toBe(
      '{"tty":true,"termProgram":["iTerm.app","WezTerm","ghostty","vscode","Hyper","Apple_Terminal"],"envAny":["VTE_VERSION","WT_SESSION"]}',
    );
  });
  it.each(FOUNDING)('%s → %s', (_name, env, tty, expected) => {
    expect(supports(at(env, tty), capability('link'))).toBe(expected);
    expect(supports(at(env, tty), 'link')).toBe(expected);
  });
});

describe('when clause semantics', () => {
  const ROWS: [string, unknown, Env, boolean, boolean][] = [
    ['{} matches a TTY', {}, {}, true, true],
    ['{} matches a non-TTY too', {}, {}, false, true],
    ['tty:true needs a TTY', { tty: true }, {}, false, false],
    ['tty:false asks nothing', { tty: false }, {}, false, true],
    ['term exact', { term: 'xterm-kitty' }, { TERM: 'xterm-kitty' }, true, true],
    ['term is not a prefix', { term: 'xterm' }, { TERM: 'xterm-kitty' }, true, false],
    ['term is case-sensitive', { term: 'xterm-kitty' }, { TERM: 'XTERM-KITTY' }, true, false],
    [
      'term and termProgram both needed',
      { term: 'tmux-256color', termProgram: ['ghostty'] },
      { TERM: 'tmux-256color' },
      true,
      false,
    ],
    ['termProgram one of', { termProgram: ['a', 'b'] }, { TERM_PROGRAM: 'b' }, true, true],
    ['termProgram none of', { termProgram: ['a', 'b'] }, { TERM_PROGRAM: 'c' }, true, false],
    ['envAny any set', { envAny: ['A', 'B'] }, { B: '1' }, true, true],
    ['envAny exported empty is unset', { envAny: ['A'] }, { A: '' }, true, false],
    ['TERM_PROGRAM exported empty is unset', { termProgram: [''] }, { TERM_PROGRAM: '' }, true, false],
    ['termProgram or envAny: envAny alone', { termProgram: ['x'], envAny: ['A'] }, { A: '1' }, true, true],
    [
      'termProgram or envAny: termProgram alone',
      { termProgram: ['x'], envAny: ['A'] },
      { TERM_PROGRAM: 'x' },
      true,
      true,
    ],
    ['termProgram or envAny: neither', { termProgram: ['x'], envAny: ['A'] }, { TERM_PROGRAM: 'y' }, true, false],
    ['empty envAny matches nothing', { envAny: [] }, { A: '1' }, true, false],
    ['TERM=dumb is always no, even for {}', {}, { TERM: 'dumb' }, true, false],
    ['TERM=dumb is always no, even when term asks for it', { term: 'dumb' }, { TERM: 'dumb' }, true, false],
    ['null is no', null, {}, true, false],
    ['a string is no', 'tty', {}, true, false],
    ['a number is no', 1, {}, true, false],
    ['undefined is no', undefined, {}, true, false],
    ['an array is no', [], {}, true, false],
    ['a malformed termProgram matches nothing', { termProgram: 'x' }, { TERM_PROGRAM: 'x' }, true, false],
    ['a malformed tty matches nothing', { tty: 'yes' }, {}, true, false],
  ];
  it.each(ROWS)('%s', (_name, when, env, tty, expected) => {
    expect(matchesWhen(at(env, tty), when)).toBe(expected);
    expect(
      supports(at(env, tty), { name: 'x', when: when as never, args: {}, sequence: () => 's', fallback: () => 'f' }),
    ).toBe(expected);
  });
});

describe('validateWhen', () => {
  it.each([
    [null, /when must be an object/],
    ['x', /when must be an object/],
    [{ tty: 1 }, /when\.tty must be a boolean/],
    [{ term: ['a'] }, /when\.term must be a string/],
    [{ termProgram: 'iTerm.app' }, /when\.termProgram must be an array of strings/],
    [{ envAny: [1] }, /when\.envAny must be an array of strings/],
    [{ termprogram: ['x'] }, /unknown when field 'termprogram'/],
  ])('%j is refused', (when, message) => {
    expect(() => validateWhen(when, 'cap')).toThrow(TypeError);
    expect(() => validateWhen(when, 'cap')).toThrow(message);
  });
  it('keeps the key order and freezes', () => {
    const when = validateWhen({ envAny: ['A'], tty: true }, 'cap');
    expect(JSON.stringify(when)).toBe('{"envAny":["A"],"tty":true}');
    expect(Object.isFrozen(when) && Object.isFrozen(when.envAny)).toBe(true);
  });
});
