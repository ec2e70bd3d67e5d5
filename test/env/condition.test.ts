import { describe, expect, it } from 'vitest';
import { type Condition, compareVersions, describeCondition, matches } from '../../src/env/condition.js';
import { multiplexerFromEnv } from '../../src/env/multiplexer.js';
import type { Env } from '../../src/env/runtime.js';

describe('matches', () => {
  it.each<[Condition, Env, boolean]>([
    [{ variable: 'A', test: 'set' }, { A: 'x' }, true],
    [{ variable: 'A', test: 'set' }, { A: '' }, false],
    [{ variable: 'A', test: 'unset' }, { A: '' }, true],
    [{ variable: 'A', test: 'unset' }, { A: 'x' }, false],
    [{ variable: 'A', test: 'equals', value: 'WezTerm' }, { A: 'WezTerm' }, true],
    [{ variable: 'A', test: 'equals', value: 'WezTerm' }, { A: 'wezterm' }, false],
    [{ variable: 'A', test: 'contains', values: ['kitty', 'ghostty'] }, { A: 'xterm-ghostty' }, true],
    [{ variable: 'A', test: 'contains', values: ['kitty'] }, { A: 'xterm' }, false],
    [{ variable: 'A', test: 'contains', values: ['kitty'] }, {}, false],
    [{ variable: 'A', test: 'prefix', value: 'screen' }, { A: 'screen-256color' }, true],
    [{ variable: 'A', test: 'prefix', value: 'screen' }, { A: 'xscreen' }, false],
    [{ variable: 'A', test: 'versionAtLeast', value: '3.1' }, { A: '3.1.0' }, true],
    [{ variable: 'A', test: 'versionAtLeast', value: '3.1' }, { A: '3.10' }, true],
    [{ variable: 'A', test: 'versionAtLeast', value: '3.1' }, { A: '3.0.9' }, false],
    [{ variable: 'A', test: 'versionAtLeast', value: '3.1' }, { A: 'beta' }, false],
    [{ variable: 'A', test: 'versionAtLeast', value: '3.1' }, {}, false],
  ])('%j on %j -> %s', (condition, env, expected) => {
    expect(matches(env, condition)).toBe(expected);
  });

  it.each([
    ['1.2', '1.2.0', 0],
    ['1.10', '1.9', 1],
    ['v2', '1.99', 1],
    ['0.50.0', '0.50.1', -1],
    ['x', '0', -1],
    ['x', 'y', 0],
  ] as const)('compareVersions(%s, %s) = %d', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
  });

  it('describes conditions in words', () => {
    expect(describeCondition({ variable: 'TERM', test: 'contains', values: ['kitty', 'ghostty'] })).toBe(
      'TERM contains "kitty" or "ghostty"',
    );
  });
});

describe('multiplexerFromEnv', () => {
  it.each<[Env, string | null]>([
    [{ TMUX: '/tmp/tmux-0/default,1,0', TERM: 'screen-256color' }, 'tmux'],
    [{ TERM_PROGRAM: 'tmux' }, 'tmux'],
    [{ TERM: 'tmux-256color' }, 'tmux'],
    [{ STY: '123.pts-0.host', TERM: 'screen' }, 'screen'],
    [{ TERM: 'screen.xterm-256color' }, 'screen'],
    [{ TERM: 'screen-256color' }, 'screen'],
    [{ TERM: 'xterm-256color' }, null],
    [{ TMUX: '' }, null],
    [{}, null],
  ])('%j -> %s', (env, expected) => {
    expect(multiplexerFromEnv(env)?.name ?? null).toBe(expected);
  });
});
