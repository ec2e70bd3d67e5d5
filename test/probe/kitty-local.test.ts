/** The local-transfer query: its bytes, where it is sent, and how its answer is read. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { KITTY_LOCAL_ID, kittyLocalAsked, kittyLocalQuery, withKittyLocal } from '../../src/probe/kitty-local.js';
import { planQuery, QUERIES, queryBytes } from '../../src/probe/query.js';
import { createProbe } from '../../src/probe/reducer.js';

const rt = (env: Record<string, string>, platform = 'linux'): Runtime => ({
  env,
  platform,
  isTTY: { stdin: true, stdout: true },
});
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');
const PATH = '/dev/shm/termsight-probe-tty-graphics-protocol-1-ab';
const LOCAL = kittyLocalQuery(PATH);
const KITTY_ENV = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };

describe('kittyLocalQuery', () => {
  it('is an a=q query with t=t, its own id and the path as base64', () => {
    expect(escapeBytes(LOCAL)).toBe(
      `\\e_Gi=${KITTY_LOCAL_ID},s=1,v=1,a=q,t=t,f=24;${Buffer.from(PATH).toString('base64')}\\e\\`,
    );
    expect(KITTY_LOCAL_ID).not.toBe(31);
  });

  const BAD: readonly { name: string; path: string }[] = [
    { name: 'empty', path: '' },
    { name: 'no tty-graphics-protocol in the name (kitty would not read it)', path: '/dev/shm/termsight-probe' },
    { name: 'an escape inside', path: '/dev/shm/tty-graphics-protocol\x1b]0;x\x07' },
    { name: 'a newline inside', path: '/tmp/tty-graphics-protocol\n' },
  ];
  it.each(BAD)('refuses a path that is $name', ({ path }) => {
    expect(() => kittyLocalQuery(path)).toThrow(TypeError);
  });

  it('carries any printable path whole (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (name) => {
        const path = `/tmp/tty-graphics-protocol-${name}`;
        if (/[\0-\x1f\x7f]/.test(path)) return;
        const query = kittyLocalQuery(path);
        const payload = query.slice(query.indexOf(';') + 1, -2);
        expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(path);
        expect(query.slice(2, -2)).not.toMatch(/[\0-\x1f\x7f]/);
      }),
    );
  });
});

describe('kittyLocalAsked: only where the kitty query goes straight to a local terminal', () => {
  const ROWS: readonly { name: string; env: Record<string, string>; platform: string; asked: boolean }[] = [
    { name: 'kitty named by its environment', env: KITTY_ENV, platform: 'linux', asked: true },
    {
      name: 'Ghostty named by its environment',
      env: { TERM: 'xterm-ghostty', TERM_PROGRAM: 'ghostty' },
      platform: 'linux',
      asked: true,
    },
    {
      name: 'kitty over ssh (SSH_CONNECTION)',
      env: { ...KITTY_ENV, SSH_CONNECTION: '1 2 3 4' },
      platform: 'linux',
      asked: false,
    },
    {
      name: 'kitty over ssh (SSH_TTY only)',
      env: { ...KITTY_ENV, SSH_TTY: '/dev/pts/1' },
      platform: 'linux',
      asked: false,
    },
    {
      name: 'kitty behind tmux',
      env: { ...KITTY_ENV, TMUX: '/tmp/tmux-1/default,1,0', TERM: 'tmux-256color' },
      platform: 'linux',
      asked: false,
    },
    {
      name: 'kitty behind screen',
      env: { ...KITTY_ENV, STY: '1.pts-0.host', TERM: 'screen' },
      platform: 'linux',
      asked: false,
    },
    {
      name: 'a terminal nobody named (the kitty query is held back)',
      env: { TERM: 'xterm-256color' },
      platform: 'linux',
      asked: false,
    },
    {
      name: 'a Windows console (prints APC)',
      env: { TERM: 'xterm-256color', WT_SESSION: 'x' },
      platform: 'win32',
      asked: false,
    },
    { name: 'Apple Terminal (prints APC)', env: { TERM_PROGRAM: 'Apple_Terminal' }, platform: 'darwin', asked: false },
  ];
  it.each(ROWS)('$name', ({ env, platform, asked }) => {
    const plan = planQuery({ runtime: rt(env, platform) });
    expect(kittyLocalAsked(plan, env)).toBe(asked);
    const bytes = text(withKittyLocal(plan, env, PATH));
    expect(bytes.includes(LOCAL)).toBe(asked);
    if (!asked) expect(bytes).toBe(text(queryBytes(plan)));
  });

  it('goes right after the kitty query, before the DA1 sentinel, in the same batch', () => {
    const plan = planQuery({ runtime: rt(KITTY_ENV) });
    const bytes = text(withKittyLocal(plan, KITTY_ENV, PATH));
    expect(bytes).toBe(text(queryBytes(plan)).replace(QUERIES.kittyGraphics, QUERIES.kittyGraphics + LOCAL));
    expect(bytes.endsWith(QUERIES.da1)).toBe(true);
  });

  it('the reducer writes it on start only when given a path', () => {
    const runtime = rt(KITTY_ENV);
    const withPath = text(createProbe(runtime, { kittyLocalPath: PATH }).setup.query);
    const without = text(createProbe(runtime).setup.query);
    expect(withPath).toContain(LOCAL);
    expect(without).not.toContain('t=t');
    const ssh = rt({ ...KITTY_ENV, SSH_CLIENT: '1 2 3' });
    expect(text(createProbe(ssh, { kittyLocalPath: PATH }).setup.query)).not.toContain('t=t');
  });
});

describe('the answer, by image id', () => {
  const KITTY = '\x1bP>|kitty(0.26.5)\x1b\\';
  const DA1 = '\x1b[?62;c';
  const ROWS: readonly { name: string; replies: string; kitty?: boolean; local?: boolean }[] = [
    // As kitty 0.26.5 answered under Xvfb (docs/probe.md, "Local transfer").
    { name: 'both OK (kitty 0.26.5)', replies: '\x1b_Gi=31;OK\x1b\\\x1b_Gi=32;OK\x1b\\', kitty: true, local: true },
    {
      name: 'the file unreadable',
      replies: '\x1b_Gi=31;OK\x1b\\\x1b_Gi=32;EBADF:Failed to read\x1b\\',
      kitty: true,
      local: false,
    },
    { name: 'the local answer alone is not the kitty answer', replies: '\x1b_Gi=32;OK\x1b\\', local: true },
    { name: 'the kitty answer alone says nothing of files', replies: '\x1b_Gi=31;OK\x1b\\', kitty: true },
    {
      name: 'answers in the reverse order',
      replies: '\x1b_Gi=32;ENOENT:no file\x1b\\\x1b_Gi=31;OK\x1b\\',
      kitty: true,
      local: false,
    },
    { name: 'no answers (silence)', replies: '' },
  ];
  it.each(ROWS)('$name', ({ replies, kitty, local }) => {
    const facts = factsFromReplies(KITTY + replies + DA1);
    expect(facts.kittyGraphics?.ok).toBe(kitty);
    expect(facts.kittyLocal?.ok).toBe(local);
  });
});
