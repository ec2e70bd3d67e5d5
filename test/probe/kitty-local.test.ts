/** The local-transfer query: its bytes, where it is sent, and how its answer is read. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import type { ProbeAction } from '../../src/probe/events.js';
import {
  KITTY_LOCAL_ID,
  kittyLocalAsked,
  kittyLocalLater,
  kittyLocalMayAsk,
  kittyLocalQuery,
  withKittyLocal,
} from '../../src/probe/kitty-local.js';
import { planQuery, QUERIES, queryBytes } from '../../src/probe/query.js';
import { createProbe, probeResult } from '../../src/probe/reducer.js';
import { summarize, trace } from './trace.js';

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

describe('the local-transfer query in the guarded round (a terminal named by its replies alone)', () => {
  /** What `env -i`, `sudo` or a container leaves: a TERM that names no terminal. */
  const SCRUBBED = { TERM: 'xterm-256color', HOME: '/home/user', PATH: '/usr/bin:/bin' };
  const DA1_62 = '\x1b[?62;c';
  const esc = (s: string) => escapeBytes(s);
  const local = esc(LOCAL);
  const kittyQuery = esc(QUERIES.kittyGraphics);
  const da1 = esc(QUERIES.da1);
  const decrqm = esc(QUERIES.synchronizedOutput);
  /** The guarded round with every held-back query (an unknown terminal, Konsole) and the local query after kitty's. */
  const HELD_WITH_LOCAL = `${kittyQuery}${local}${decrqm}${da1}`;
  const summary = (action: ProbeAction) => summarize(action, { write: 'bytes', owed: false });
  /** The second write of a trace line (`in …: write X`), or null when there is no second round. */
  const guardedWrite = (lines: readonly string[]) => {
    const line = lines.find((l, i) => i > 0 && l.includes(': write '));
    return line === undefined ? null : line.slice(line.indexOf(': write ') + ': write '.length);
  };

  const ROWS: readonly {
    name: string;
    env: Record<string, string>;
    /** The first round's replies (ending with a DA1). */
    replies: string;
    /** The guarded round's bytes (escaped), or null: no guarded round. */
    guarded: string | null;
    /** With no probe file (the caller's `kittyLocal: false`): the guarded round's bytes. */
    without: string | null;
  }[] = [
    {
      name: 'kitty named by its XTVERSION: the kitty query and the local query, then a DA1',
      env: SCRUBBED,
      replies: `\x1bP>|kitty(0.41.1)\x1b\\\x1b[>1;4000;41c${DA1_62}`,
      guarded: `${kittyQuery}${local}${da1}`,
      without: null,
    },
    {
      name: 'kitty named by its DA2 fingerprint alone (no XTVERSION): the same round',
      env: SCRUBBED,
      replies: `\x1b[>1;4000;26c${DA1_62}`,
      guarded: `${kittyQuery}${local}${da1}`,
      without: null,
    },
    {
      name: 'Ghostty named by its XTVERSION: the same round',
      env: SCRUBBED,
      replies: `\x1bP>|ghostty 1.1.0\x1b\\${DA1_62}`,
      guarded: `${kittyQuery}${local}${da1}`,
      without: null,
    },
    {
      name: 'Konsole (its name does not decide kitty): every held-back query, the local one after kitty',
      env: SCRUBBED,
      replies: `\x1bP>|Konsole 25.04.2\x1b\\\x1b[?62;4c`,
      guarded: HELD_WITH_LOCAL,
      without: `${kittyQuery}${decrqm}${da1}`,
    },
    {
      name: 'a terminal the database does not know (its XTVERSION shows it parses DCS): every held-back query and the local one',
      env: SCRUBBED,
      replies: `\x1bP>|newterm(1.0)\x1b\\${DA1_62}`,
      guarded: HELD_WITH_LOCAL,
      without: `${kittyQuery}${decrqm}${da1}`,
    },
    {
      name: 'over ssh with a scrubbed TERM (SSH_CONNECTION kept): no local query, and no round for kitty',
      env: { ...SCRUBBED, SSH_CONNECTION: '10.0.0.1 5 10.0.0.2 22' },
      replies: `\x1bP>|kitty(0.41.1)\x1b\\${DA1_62}`,
      guarded: null,
      without: null,
    },
    {
      name: 'over ssh, a terminal nobody knows: the held-back queries without the local one',
      env: { ...SCRUBBED, SSH_TTY: '/dev/pts/3' },
      replies: `\x1bP>|newterm(1.0)\x1b\\${DA1_62}`,
      guarded: `${kittyQuery}${decrqm}${da1}`,
      without: `${kittyQuery}${decrqm}${da1}`,
    },
    {
      name: 'Zellij named by its XTVERSION (a multiplexer that draws kitty itself): its kitty query, no local one',
      env: SCRUBBED,
      replies: `\x1bP>|Zellij(4500)\x1b\\${DA1_62}`,
      guarded: `${kittyQuery}${decrqm}${da1}`,
      without: `${kittyQuery}${decrqm}${da1}`,
    },
    {
      name: 'xterm named by its XTVERSION (draws no kitty): no round',
      env: SCRUBBED,
      replies: `\x1bP>|XTerm(398)\x1b\\\x1b[?64;1;2;4;6;9;15;16;17;18;21;22;28c`,
      guarded: null,
      without: null,
    },
    {
      name: 'a VT100-class DA1 (nothing shows it parses APC): no round',
      env: SCRUBBED,
      replies: '\x1b[?1;2c',
      guarded: null,
      without: null,
    },
  ];

  it.each(ROWS)('$name', ({ env, replies, guarded, without }) => {
    const steps = ['start', ['in', replies], 1] as const;
    const withFile = trace(rt(env), { kittyLocalPath: PATH }, steps, summary).lines;
    expect(guardedWrite(withFile)).toBe(guarded);
    // The first batch never carries it: the kitty query was held back there.
    expect(withFile[0]).not.toContain('t=t');
    expect(guardedWrite(trace(rt(env), {}, steps, summary).lines)).toBe(without);
  });

  it('a scrubbed tmux (it names itself): the wrapped round is the extra one, never the local query', () => {
    const steps = ['start', ['in', '\x1bP>|tmux 3.5a\x1b\\\x1b[>84;0;0c\x1b[?1;2c'], 1, ['in', DA1_62], 2] as const;
    const lines = trace(rt(SCRUBBED), { kittyLocalPath: PATH }, steps, summary).lines;
    expect(lines.join('\n')).not.toContain('t=t');
    expect(lines.join('\n')).not.toContain(Buffer.from(PATH).toString('base64'));
  });

  it("kitty's OK to the guarded round's local query is the probe's answer", () => {
    const steps = [
      'start',
      ['in', `\x1bP>|kitty(0.41.1)\x1b\\${DA1_62}`],
      1,
      ['in', `\x1b_Gi=31;OK\x1b\\\x1b_Gi=32;OK\x1b\\${DA1_62}`],
      2,
    ] as const;
    const { state } = trace(rt(SCRUBBED), { kittyLocalPath: PATH }, steps, summary);
    expect(probeResult(state)).toMatchObject({ sentinel: true, kittyGraphics: { ok: true }, kittyLocal: { ok: true } });
  });

  const MAY: readonly { name: string; env: Record<string, string>; multiplexer?: 'tmux' | null; may: boolean }[] = [
    { name: 'kitty named by its environment (first batch)', env: KITTY_ENV, may: true },
    { name: 'a scrubbed environment (guarded round)', env: SCRUBBED, may: true },
    { name: 'a scrubbed environment over ssh', env: { ...SCRUBBED, SSH_CLIENT: '1 2 3' }, may: false },
    { name: 'a known tmux', env: { TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0' }, may: false },
    {
      name: 'xterm named by its environment (no kitty query at all)',
      env: { TERM: 'xterm', XTERM_VERSION: 'XTerm(398)' },
      may: true,
    },
    { name: 'rxvt-unicode (prints the kitty query)', env: { TERM: 'rxvt-unicode-256color' }, may: false },
  ];
  it.each(MAY)('the driver makes a probe file: $name', ({ env, may }) => {
    const plan = planQuery({ runtime: rt(env) });
    expect(kittyLocalMayAsk(plan, env)).toBe(may);
    expect(kittyLocalLater(plan, env)).toBe(may && !kittyLocalAsked(plan, env));
  });
});
