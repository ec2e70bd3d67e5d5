import { describe, expect, it } from 'vitest';
import { notifyDialect } from '../../src/capability/builtins.js';
import { capability, emit, supports } from '../../src/capability/capability.js';
import type { Env, Runtime } from '../../src/env/runtime.js';

const tty = (env: Env): Runtime => ({ env, isTTY: { stdout: true } });
const pipe = (env: Env): Runtime => ({ env, isTTY: { stdout: false } });
const E = '\u001b';
const B = '\u0007';

// One row per capability and terminal: [capability, runtime, args, expected output].
const ROWS: [string, string, Runtime, object, string][] = [
  [
    'link in iTerm2',
    'link',
    tty({ TERM_PROGRAM: 'iTerm.app' }),
    { text: 'Docs', url: 'https://x.dev' },
    `${E}]8;;https://x.dev${B}Docs${E}]8;;${B}`,
  ],
  [
    'link into a pipe',
    'link',
    pipe({ TERM_PROGRAM: 'iTerm.app' }),
    { text: 'Docs', url: 'https://x.dev' },
    'Docs (https://x.dev)',
  ],
  ['link with an empty URL falls back', 'link', tty({ WT_SESSION: '1' }), { text: 'Docs', url: '' }, 'Docs ()'],
  ['title on any TTY', 'title', tty({ TERM: 'xterm-256color' }), { title: 'build: ok' }, `${E}]2;build: ok${B}`],
  ['title into a pipe writes nothing', 'title', pipe({}), { title: 'x' }, ''],
  ['title on TERM=dumb writes nothing', 'title', tty({ TERM: 'dumb' }), { title: 'x' }, ''],
  [
    'notify in iTerm2: OSC 9',
    'notify',
    tty({ TERM_PROGRAM: 'iTerm.app' }),
    { title: 'Build', body: 'done' },
    `${E}]9;Build: done${B}`,
  ],
  [
    'notify in WezTerm: OSC 9, title only',
    'notify',
    tty({ TERM_PROGRAM: 'WezTerm' }),
    { title: 'Build done' },
    `${E}]9;Build done${B}`,
  ],
  [
    'notify in ghostty: a message like "4;1" is not read as progress',
    'notify',
    tty({ TERM_PROGRAM: 'ghostty' }),
    { title: '4;1;50' },
    `${E}]9; 4;1;50${B}`,
  ],
  [
    'notify in kitty: OSC 99, title then body',
    'notify',
    tty({ KITTY_WINDOW_ID: '1' }),
    { title: 'Build', body: 'done' },
    `${E}]99;i=1:d=0;Build${E}\\${E}]99;i=1:d=1:p=body;done${E}\\`,
  ],
  [
    'notify in kitty: OSC 99, title only',
    'notify',
    tty({ KITTY_WINDOW_ID: '1' }),
    { title: 'Build' },
    `${E}]99;;Build${E}\\`,
  ],
  [
    'notify in a VTE terminal: OSC 777, ";" leaves the title',
    'notify',
    tty({ VTE_VERSION: '7600' }),
    { title: 'a;b', body: 'c;d' },
    `${E}]777;notify;a,b;c;d${B}`,
  ],
  [
    'notify elsewhere: "title: body"',
    'notify',
    tty({ TERM: 'xterm' }),
    { title: 'Build', body: 'done' },
    'Build: done',
  ],
  [
    'clipboard in WezTerm: OSC 52, base64',
    'clipboard',
    tty({ TERM_PROGRAM: 'WezTerm' }),
    { text: 'héllo\nworld' },
    `${E}]52;c;aMOpbGxvCndvcmxk${B}`,
  ],
  [
    'clipboard primary selection in kitty',
    'clipboard',
    tty({ KITTY_WINDOW_ID: '3' }),
    { text: 'x', target: 'primary' },
    `${E}]52;p;eA==${B}`,
  ],
  ['clipboard in Windows Terminal', 'clipboard', tty({ WT_SESSION: 'a' }), { text: '' }, `${E}]52;c;${B}`],
  ['clipboard in VTE writes nothing (no OSC 52)', 'clipboard', tty({ VTE_VERSION: '7600' }), { text: 'secret' }, ''],
  [
    'progress in Windows Terminal',
    'progress',
    tty({ WT_SESSION: 'a' }),
    { state: 'normal', percent: 42.4 },
    `${E}]9;4;1;42${B}`,
  ],
  [
    'progress clamps the percentage',
    'progress',
    tty({ ConEmuPID: '9' }),
    { state: 'error', percent: 140 },
    `${E}]9;4;2;100${B}`,
  ],
  [
    'progress indeterminate',
    'progress',
    tty({ TERM_PROGRAM: 'ghostty' }),
    { state: 'indeterminate', percent: 50 },
    `${E}]9;4;3;0${B}`,
  ],
  ['progress paused', 'progress', tty({ WT_SESSION: 'a' }), { state: 'paused', percent: 10 }, `${E}]9;4;4;10${B}`],
  ['progress removed', 'progress', tty({ WT_SESSION: 'a' }), { state: 'remove' }, `${E}]9;4;0;0${B}`],
  ['progress elsewhere writes nothing', 'progress', tty({ TERM: 'xterm' }), { state: 'normal', percent: 5 }, ''],
  ['sync begin in kitty', 'sync', tty({ KITTY_WINDOW_ID: '1' }), { phase: 'begin' }, `${E}[?2026h`],
  ['sync end in iTerm2', 'sync', tty({ TERM_PROGRAM: 'iTerm.app' }), { phase: 'end' }, `${E}[?2026l`],
  ['sync elsewhere writes nothing', 'sync', tty({ TERM: 'xterm' }), { phase: 'begin' }, ''],
];

describe('built-in capabilities', () => {
  it.each(ROWS)('%s', (_label, name, runtime, args, expected) => {
    expect(emit(runtime, name, args)).toBe(expected);
  });

  it.each(['link', 'title', 'notify', 'clipboard', 'progress', 'sync'])(
    '%s documents its when with sources and a summary',
    (name) => {
      const cap = capability(name);
      expect(cap.summary).toMatch(/\S/);
      expect(cap.sources?.length).toBeGreaterThan(0);
      expect(cap.when.tty).toBe(true);
      expect(supports(pipe({ TERM_PROGRAM: 'iTerm.app', WT_SESSION: '1', KITTY_WINDOW_ID: '1' }), cap)).toBe(false);
    },
  );

  it.each<[Env, string]>([
    [{ TERM_PROGRAM: 'iTerm.app' }, 'osc9'],
    [{ TERM_PROGRAM: 'ghostty', KITTY_WINDOW_ID: '1' }, 'osc9'],
    [{ TERM: 'xterm-kitty' }, 'osc99'],
    [{ VTE_VERSION: '7600' }, 'osc777'],
    [{ TERM: 'foot' }, 'osc777'],
  ])('notify dialect for %j is %s', (env, dialect) => {
    expect(notifyDialect(tty(env))).toBe(dialect);
  });

  it.each<[string, object, RegExp]>([
    ['progress', { state: 'done' }, /state must be one of remove, normal, error, indeterminate, paused/],
    ['progress', { state: 'normal', percent: Number.NaN }, /percent must be a finite number/],
    ['sync', { phase: 'start' }, /phase must be one of begin, end/],
    ['clipboard', { text: 'x', target: 'secondary' }, /target must be one of clipboard, primary/],
    ['link', { text: 'x' }, /url must be a string/],
    ['title', {}, /title must be a string/],
  ])('%s with %j is a TypeError on every terminal', (name, args, message) => {
    expect(() => emit(tty({ WT_SESSION: '1', KITTY_WINDOW_ID: '1' }), name, args)).toThrow(message);
    expect(() => emit(pipe({}), name, args)).toThrow(message);
  });
});
