import { describe, expect, it } from 'vitest';
import { type Condition, compareVersions, describeCondition, matches } from '../../src/env/condition.js';
import { multiplexerFromEnv } from '../../src/env/multiplexer.js';
import type { Env } from '../../src/env/runtime.js';

describe('matches', () => {
  it.each<{ name: string; condition: Condition; env: Env; expected: boolean }>([
    { name: 'set: a value', condition: { variable: 'A', test: 'set' }, env: { A: 'x' }, expected: true },
    { name: 'set: empty is not set', condition: { variable: 'A', test: 'set' }, env: { A: '' }, expected: false },
    {
      name: 'unset: empty counts as unset',
      condition: { variable: 'A', test: 'unset' },
      env: { A: '' },
      expected: true,
    },
    { name: 'unset: a value', condition: { variable: 'A', test: 'unset' }, env: { A: 'x' }, expected: false },
    {
      name: 'equals: same case',
      condition: { variable: 'A', test: 'equals', value: 'WezTerm' },
      env: { A: 'WezTerm' },
      expected: true,
    },
    {
      name: 'equals: case matters',
      condition: { variable: 'A', test: 'equals', value: 'WezTerm' },
      env: { A: 'wezterm' },
      expected: false,
    },
    {
      name: 'contains: any of the values, inside the text',
      condition: { variable: 'A', test: 'contains', values: ['kitty', 'ghostty'] },
      env: { A: 'xterm-ghostty' },
      expected: true,
    },
    {
      name: 'contains: none of the values',
      condition: { variable: 'A', test: 'contains', values: ['kitty'] },
      env: { A: 'xterm' },
      expected: false,
    },
    {
      name: 'contains: variable absent',
      condition: { variable: 'A', test: 'contains', values: ['kitty'] },
      env: {},
      expected: false,
    },
    {
      name: 'prefix: at the start',
      condition: { variable: 'A', test: 'prefix', value: 'screen' },
      env: { A: 'screen-256color' },
      expected: true,
    },
    {
      name: 'prefix: inside is not a prefix',
      condition: { variable: 'A', test: 'prefix', value: 'screen' },
      env: { A: 'xscreen' },
      expected: false,
    },
    {
      name: 'versionAtLeast: equal with a trailing .0',
      condition: { variable: 'A', test: 'versionAtLeast', value: '3.1' },
      env: { A: '3.1.0' },
      expected: true,
    },
    {
      name: 'versionAtLeast: 3.10 is after 3.1 (numbers, not text)',
      condition: { variable: 'A', test: 'versionAtLeast', value: '3.1' },
      env: { A: '3.10' },
      expected: true,
    },
    {
      name: 'versionAtLeast: older',
      condition: { variable: 'A', test: 'versionAtLeast', value: '3.1' },
      env: { A: '3.0.9' },
      expected: false,
    },
    {
      name: 'versionAtLeast: not a version',
      condition: { variable: 'A', test: 'versionAtLeast', value: '3.1' },
      env: { A: 'beta' },
      expected: false,
    },
    {
      name: 'versionAtLeast: variable absent',
      condition: { variable: 'A', test: 'versionAtLeast', value: '3.1' },
      env: {},
      expected: false,
    },
  ])('$name -> $expected', ({ condition, env, expected }) => {
    expect(matches(env, condition)).toBe(expected);
  });

  it.each([
    { name: 'a missing part is 0', a: '1.2', b: '1.2.0', expected: 0 },
    { name: 'parts compare as numbers', a: '1.10', b: '1.9', expected: 1 },
    { name: 'a leading v is ignored', a: 'v2', b: '1.99', expected: 1 },
    { name: 'the last part decides', a: '0.50.0', b: '0.50.1', expected: -1 },
    { name: 'not a version sorts before any version', a: 'x', b: '0', expected: -1 },
    { name: 'two non-versions are equal', a: 'x', b: 'y', expected: 0 },
  ] as const)('compareVersions: $name ($a, $b) = $expected', ({ a, b, expected }) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it('describes conditions in words', () => {
    expect(describeCondition({ variable: 'TERM', test: 'contains', values: ['kitty', 'ghostty'] })).toBe(
      'TERM contains "kitty" or "ghostty"',
    );
  });
});

describe('multiplexerFromEnv', () => {
  it.each<{ name: string; env: Env; expected: string | null }>([
    { name: 'TMUX set', env: { TMUX: '/tmp/tmux-0/default,1,0', TERM: 'screen-256color' }, expected: 'tmux' },
    { name: 'TERM_PROGRAM tmux', env: { TERM_PROGRAM: 'tmux' }, expected: 'tmux' },
    { name: 'TERM tmux-256color', env: { TERM: 'tmux-256color' }, expected: 'tmux' },
    { name: 'STY set', env: { STY: '123.pts-0.host', TERM: 'screen' }, expected: 'screen' },
    { name: 'TERM screen.xterm-256color', env: { TERM: 'screen.xterm-256color' }, expected: 'screen' },
    { name: 'TERM screen-256color without TMUX', env: { TERM: 'screen-256color' }, expected: 'screen' },
    { name: 'TERM xterm-256color', env: { TERM: 'xterm-256color' }, expected: null },
    { name: 'empty TMUX', env: { TMUX: '' }, expected: null },
    { name: 'empty environment', env: {}, expected: null },
  ])('$name -> $expected', ({ env, expected }) => {
    expect(multiplexerFromEnv(env)?.name ?? null).toBe(expected);
  });
});
