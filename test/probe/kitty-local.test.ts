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

  const BAD: readonly [string, string][] = [
    ['empty', ''],
    ['no tty-graphics-protocol in the name (kitty would not read it)', '/dev/shm/termsight-probe'],
    ['an escape inside', '/dev/shm/tty-graphics-protocol\x1b]0;x\x07'],
    ['a newline inside', '/tmp/tty-graphics-protocol\n'],
  ];
  it.each(BAD)('refuses a path that is %s', (_, path) => {
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
  const ROWS: readonly [string, Record<string, string>, string, boolean][] = [
    ['kitty named by its environment', KITTY_ENV, 'linux', true],
    ['Ghostty named by its environment', { TERM: 'xterm-ghostty', TERM_PROGRAM: 'ghostty' }, 'linux', true],
    ['kitty over ssh (SSH_CONNECTION)', { ...KITTY_ENV, SSH_CONNECTION: '1 2 3 4' }, 'linux', false],
    ['kitty over ssh (SSH_TTY only)', { ...KITTY_ENV, SSH_TTY: '/dev/pts/1' }, 'linux', false],
    ['kitty behind tmux', { ...KITTY_ENV, TMUX: '/tmp/tmux-1/default,1,0', TERM: 'tmux-256color' }, 'linux', false],
    ['kitty behind screen', { ...KITTY_ENV, STY: '1.pts-0.host', TERM: 'screen' }, 'linux', false],
    ['a terminal nobody named (the kitty query is held back)', { TERM: 'xterm-256color' }, 'linux', false],
    ['a Windows console (prints APC)', { TERM: 'xterm-256color', WT_SESSION: 'x' }, 'win32', false],
    ['Apple Terminal (prints APC)', { TERM_PROGRAM: 'Apple_Terminal' }, 'darwin', false],
  ];
  it.each(ROWS)('%s', (_, env, platform, asked) => {
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
  const ROWS: readonly [string, string, { ok: boolean } | undefined, { ok: boolean } | undefined][] = [
    // Recorded from kitty 0.26.5 under Xvfb (this branch's manual run, docs/probe.md "Local transfer").
    ['both OK (kitty 0.26.5)', '\x1b_Gi=31;OK\x1b\\\x1b_Gi=32;OK\x1b\\', { ok: true }, { ok: true }],
    ['the file unreadable', '\x1b_Gi=31;OK\x1b\\\x1b_Gi=32;EBADF:Failed to read\x1b\\', { ok: true }, { ok: false }],
    ['the local answer alone is not the kitty answer', '\x1b_Gi=32;OK\x1b\\', undefined, { ok: true }],
    ['the kitty answer alone says nothing of files', '\x1b_Gi=31;OK\x1b\\', { ok: true }, undefined],
    [
      'an answer in the reverse order',
      '\x1b_Gi=32;ENOENT:no file\x1b\\\x1b_Gi=31;OK\x1b\\',
      { ok: true },
      { ok: false },
    ],
    ['no answers (silence)', '', undefined, undefined],
  ];
  it.each(ROWS)('%s', (_, replies, kitty, local) => {
    const facts = factsFromReplies(KITTY + replies + DA1);
    expect(facts.kittyGraphics?.ok).toBe(kitty?.ok);
    expect(facts.kittyLocal?.ok).toBe(local?.ok);
  });
});
