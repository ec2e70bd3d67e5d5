import { describe, expect, it } from 'vitest';
import { notifyDialect } from '../../src/capability/builtins.js';
import { capability, emit, supports } from '../../src/capability/capability.js';
import type { Env, Runtime } from '../../src/env/runtime.js';

const tty = (env: Env): Runtime => ({ env, isTTY: { stdout: true } });
const pipe = (env: Env): Runtime => ({ env, isTTY: { stdout: false } });
const E = '\u001b';
const B = '\u0007';

// One row per capability and terminal: the output `emit` writes for those args.
const ROWS: { name: string; capability: string; runtime: Runtime; args: object; expected: string }[] = [
  {
    name: 'link in iTerm2',
    capability: 'link',
    runtime: tty({ TERM_PROGRAM: 'iTerm.app' }),
    args: { text: 'Docs', url: 'https://x.dev' },
    expected: `${E}]8;;https://x.dev${B}Docs${E}]8;;${B}`,
  },
  {
    name: 'link into a pipe',
    capability: 'link',
    runtime: pipe({ TERM_PROGRAM: 'iTerm.app' }),
    args: { text: 'Docs', url: 'https://x.dev' },
    expected: 'Docs (https://x.dev)',
  },
  {
    name: 'link with an empty URL falls back',
    capability: 'link',
    runtime: tty({ WT_SESSION: '1' }),
    args: { text: 'Docs', url: '' },
    expected: 'Docs ()',
  },
  {
    name: 'title on any TTY',
    capability: 'title',
    runtime: tty({ TERM: 'xterm-256color' }),
    args: { title: 'build: ok' },
    expected: `${E}]2;build: ok${B}`,
  },
  {
    name: 'title into a pipe writes nothing',
    capability: 'title',
    runtime: pipe({}),
    args: { title: 'x' },
    expected: '',
  },
  {
    name: 'title on TERM=dumb writes nothing',
    capability: 'title',
    runtime: tty({ TERM: 'dumb' }),
    args: { title: 'x' },
    expected: '',
  },
  {
    name: 'notify in iTerm2: OSC 9',
    capability: 'notify',
    runtime: tty({ TERM_PROGRAM: 'iTerm.app' }),
    args: { title: 'Build', body: 'done' },
    expected: `${E}]9;Build: done${B}`,
  },
  {
    name: 'notify in WezTerm: OSC 9, title only',
    capability: 'notify',
    runtime: tty({ TERM_PROGRAM: 'WezTerm' }),
    args: { title: 'Build done' },
    expected: `${E}]9;Build done${B}`,
  },
  {
    name: 'notify in ghostty: a message like "4;1" is not read as progress',
    capability: 'notify',
    runtime: tty({ TERM_PROGRAM: 'ghostty' }),
    args: { title: '4;1;50' },
    expected: `${E}]9; 4;1;50${B}`,
  },
  {
    name: 'notify in kitty: OSC 99, title then body',
    capability: 'notify',
    runtime: tty({ KITTY_WINDOW_ID: '1' }),
    args: { title: 'Build', body: 'done' },
    expected: `${E}]99;i=1:d=0;Build${E}\\${E}]99;i=1:d=1:p=body;done${E}\\`,
  },
  {
    name: 'notify in kitty: OSC 99, title only',
    capability: 'notify',
    runtime: tty({ KITTY_WINDOW_ID: '1' }),
    args: { title: 'Build' },
    expected: `${E}]99;;Build${E}\\`,
  },
  {
    name: 'notify in a VTE terminal: OSC 777, ";" leaves the title',
    capability: 'notify',
    runtime: tty({ VTE_VERSION: '7600' }),
    args: { title: 'a;b', body: 'c;d' },
    expected: `${E}]777;notify;a,b;c;d${B}`,
  },
  {
    name: 'notify elsewhere: "title: body"',
    capability: 'notify',
    runtime: tty({ TERM: 'xterm' }),
    args: { title: 'Build', body: 'done' },
    expected: 'Build: done',
  },
  {
    name: 'clipboard in WezTerm: OSC 52, base64',
    capability: 'clipboard',
    runtime: tty({ TERM_PROGRAM: 'WezTerm' }),
    args: { text: 'héllo\nworld' },
    expected: `${E}]52;c;aMOpbGxvCndvcmxk${B}`,
  },
  {
    name: 'clipboard primary selection in kitty',
    capability: 'clipboard',
    runtime: tty({ KITTY_WINDOW_ID: '3' }),
    args: { text: 'x', target: 'primary' },
    expected: `${E}]52;p;eA==${B}`,
  },
  {
    name: 'clipboard in Windows Terminal',
    capability: 'clipboard',
    runtime: tty({ WT_SESSION: 'a' }),
    args: { text: '' },
    expected: `${E}]52;c;${B}`,
  },
  {
    name: 'clipboard in VTE writes nothing (no OSC 52)',
    capability: 'clipboard',
    runtime: tty({ VTE_VERSION: '7600' }),
    args: { text: 'secret' },
    expected: '',
  },
  {
    name: 'progress in Windows Terminal',
    capability: 'progress',
    runtime: tty({ WT_SESSION: 'a' }),
    args: { state: 'normal', percent: 42.4 },
    expected: `${E}]9;4;1;42${B}`,
  },
  {
    name: 'progress clamps the percentage',
    capability: 'progress',
    runtime: tty({ ConEmuPID: '9' }),
    args: { state: 'error', percent: 140 },
    expected: `${E}]9;4;2;100${B}`,
  },
  {
    name: 'progress indeterminate',
    capability: 'progress',
    runtime: tty({ TERM_PROGRAM: 'ghostty' }),
    args: { state: 'indeterminate', percent: 50 },
    expected: `${E}]9;4;3;0${B}`,
  },
  {
    name: 'progress paused',
    capability: 'progress',
    runtime: tty({ WT_SESSION: 'a' }),
    args: { state: 'paused', percent: 10 },
    expected: `${E}]9;4;4;10${B}`,
  },
  {
    name: 'progress removed',
    capability: 'progress',
    runtime: tty({ WT_SESSION: 'a' }),
    args: { state: 'remove' },
    expected: `${E}]9;4;0;0${B}`,
  },
  {
    name: 'progress elsewhere writes nothing',
    capability: 'progress',
    runtime: tty({ TERM: 'xterm' }),
    args: { state: 'normal', percent: 5 },
    expected: '',
  },
  {
    name: 'sync begin in kitty',
    capability: 'sync',
    runtime: tty({ KITTY_WINDOW_ID: '1' }),
    args: { phase: 'begin' },
    expected: `${E}[?2026h`,
  },
  {
    name: 'sync end in iTerm2',
    capability: 'sync',
    runtime: tty({ TERM_PROGRAM: 'iTerm.app' }),
    args: { phase: 'end' },
    expected: `${E}[?2026l`,
  },
  {
    name: 'sync elsewhere writes nothing',
    capability: 'sync',
    runtime: tty({ TERM: 'xterm' }),
    args: { phase: 'begin' },
    expected: '',
  },
];

describe('built-in capabilities', () => {
  it.each(ROWS)('$name', ({ capability: name, runtime, args, expected }) => {
    expect(emit(runtime, name, args)).toBe(expected);
  });

  it.each([
    { name: 'link' },
    { name: 'title' },
    { name: 'notify' },
    { name: 'clipboard' },
    { name: 'progress' },
    { name: 'sync' },
  ])('$name documents its when with sources and a summary', ({ name }) => {
    const cap = capability(name);
    expect(cap.summary).toMatch(/\S/);
    expect(cap.sources?.length).toBeGreaterThan(0);
    expect(cap.when.tty).toBe(true);
    expect(supports(pipe({ TERM_PROGRAM: 'iTerm.app', WT_SESSION: '1', KITTY_WINDOW_ID: '1' }), cap)).toBe(false);
  });

  it.each<{ name: string; env: Env; dialect: string }>([
    {
      name: 'iTerm2: OSC 9',
      env: { TERM_PROGRAM: 'iTerm.app' },
      dialect: 'osc9',
    },
    {
      name: 'ghostty, even with a kitty window id: OSC 9',
      env: { TERM_PROGRAM: 'ghostty', KITTY_WINDOW_ID: '1' },
      dialect: 'osc9',
    },
    { name: 'kitty by TERM: OSC 99', env: { TERM: 'xterm-kitty' }, dialect: 'osc99' },
    { name: 'a VTE terminal: OSC 777', env: { VTE_VERSION: '7600' }, dialect: 'osc777' },
    { name: 'foot: OSC 777', env: { TERM: 'foot' }, dialect: 'osc777' },
  ])('notify dialect in $name', ({ env, dialect }) => {
    expect(notifyDialect(tty(env))).toBe(dialect);
  });

  it.each<{ name: string; capability: string; args: object; message: RegExp }>([
    {
      name: 'progress with an unknown state',
      capability: 'progress',
      args: { state: 'done' },
      message: /state must be one of remove, normal, error, indeterminate, paused/,
    },
    {
      name: 'progress with a percentage that is NaN',
      capability: 'progress',
      args: { state: 'normal', percent: Number.NaN },
      message: /percent must be a finite number/,
    },
    {
      name: 'sync with an unknown phase',
      capability: 'sync',
      args: { phase: 'start' },
      message: /phase must be one of begin, end/,
    },
    {
      name: 'clipboard with an unknown target',
      capability: 'clipboard',
      args: { text: 'x', target: 'secondary' },
      message: /target must be one of clipboard, primary/,
    },
    {
      name: 'link without a URL',
      capability: 'link',
      args: { text: 'x' },
      message: /url must be a string/,
    },
    {
      name: 'title without a title',
      capability: 'title',
      args: {},
      message: /title must be a string/,
    },
  ])('$name is a TypeError on every terminal', ({ capability: name, args, message }) => {
    expect(() => emit(tty({ WT_SESSION: '1', KITTY_WINDOW_ID: '1' }), name, args)).toThrow(message);
    expect(() => emit(pipe({}), name, args)).toThrow(message);
  });
});
