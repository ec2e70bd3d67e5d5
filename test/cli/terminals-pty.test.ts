/**
 * `termsight show` in a real pty whose other end answers as a given terminal (its recorded or
 * documented replies), behind a scripted tmux where it applies (test/fixtures/tmux/tmux on PATH,
 * answering tmux's format questions): the bytes of the picture are checked — the protocol used,
 * wrapped for tmux or not, and no kitty Unicode placeholders where the terminal has none.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { scratchDir, writePng } from './show-support.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const scriptedTmuxDir = join(root, 'test', 'fixtures', 'tmux');
let entry: string[] = [];
let picture = '';

beforeAll(() => {
  ensureBuilt();
  const main = join(root, 'dist', 'cli', 'main.js');
  if (spawnSync(process.execPath, [main, '--version'], { stdio: 'pipe' }).status !== 0) throw new Error('no dist CLI');
  entry = [main, 'show'];
  picture = writePng(scratchDir(), 'picture.png', 48, 32, 3);
}, 120_000);

const recorded = (name: string): string =>
  (
    JSON.parse(readFileSync(join(root, 'test', 'fixtures', 'replies', `${name}.json`), 'utf8')) as {
      batch: { reply: string };
    }
  ).batch.reply;

const ESC = '\x1b';
const xtversion = (body: string) => `${ESC}P>|${body}${ESC}\\`;
const csi = (body: string) => `${ESC}[${body}`;
/** An unwrapped DA1 query (the sentinel); inside a tmux wrapper its ESC is doubled. */
const SENTINEL = /(?<!\x1b)\x1b\[0?c/g;

interface Terminal {
  /** The replies to the first batch (ending with DA1); later sentinels get `da1` alone. */
  readonly replies: string;
  readonly da1: string;
}

/** Runs `show` in a pty answering as `terminal`; resolves with everything written and the exit code. */
function show(env: Record<string, string>, terminal: Terminal): Promise<{ output: string; exitCode: number }> {
  return new Promise((done, fail) => {
    const child = pty.spawn(process.execPath, [...entry, picture, '--width', '24', '--timeout', '1500'], {
      cols: 100,
      rows: 40,
      cwd: root,
      env: { HOME: process.env.HOME ?? '/', LANG: 'C.UTF-8', ...env },
    });
    let output = '';
    let answered = 0;
    const timer = setTimeout(() => {
      child.kill();
      fail(new Error(`no exit within 30 s; output ${JSON.stringify(output.slice(0, 400))}`));
    }, 30_000);
    child.onData((data) => {
      output += data;
      const seen = output.match(SENTINEL)?.length ?? 0;
      for (; answered < seen; answered++) child.write(answered === 0 ? terminal.replies : terminal.da1);
    });
    child.onExit(({ exitCode }) => {
      clearTimeout(timer);
      done({ output, exitCode });
    });
  });
}

/**
 * What the picture was drawn with, from its bytes: the probe's own queries (kitty's is `a=q`,
 * XTVERSION and the rest are no pictures) do not count. `wrapped`: the picture went through tmux
 * passthrough (`ESC Ptmux;` with the inner ESCs doubled).
 */
function protocolsIn(output: string) {
  const kittyDraw = /\x1b(\x1b)?_G[^\x1b]*a=[Tt]/;
  const sixelDraw = /\x1b(\x1b)?P[\d;]*q/;
  const itermDraw = /\x1b(\x1b)?]1337;File/;
  const wrapped = (draw: RegExp) => new RegExp(`\x1bPtmux;\x1b\x1b${draw.source.slice('\\x1b(\\x1b)?'.length)}`);
  return {
    kitty: kittyDraw.test(output),
    sixel: sixelDraw.test(output),
    iterm2: itermDraw.test(output),
    placeholders: output.includes('\u{10EEEE}'),
    wrapped: [kittyDraw, sixelDraw, itermDraw].some((draw) => wrapped(draw).test(output)),
    truecolor: /\x1b\[[\d;]*38;2;/.test(output),
    text: /[\u2800-\u28ff\u2580-\u259f\u{1FB00}-\u{1FBFF}]/u.test(output),
  };
}

const PATH = process.env.PATH ?? '/usr/bin:/bin';
const TMUX_35A: Terminal = {
  replies: xtversion('tmux 3.5a') + csi('>84;0;0c') + csi('?1;2;4c'),
  da1: csi('?1;2;4c'),
};
const TMUX_33A: Terminal = { replies: xtversion('tmux 3.3a') + csi('>84;0;0c') + csi('?1;2c'), da1: csi('?1;2c') };
const inTmux = (say: Record<string, string>) => ({
  PATH: `${scriptedTmuxDir}:${PATH}`,
  TMUX: '/tmp/tmux-0/default,1,0',
  TMUX_PANE: '%1',
  TERM: 'tmux-256color',
  TERM_PROGRAM: 'tmux',
  ...say,
});

type Expected = Partial<ReturnType<typeof protocolsIn>>;

const CASES: { name: string; env: Record<string, string>; terminal: Terminal; expect: Expected }[] = [
  {
    name: 'VS Code started from kitty, xterm.js without the image addon: a text picture, no kitty',
    env: { PATH, TERM: 'xterm-256color', TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '1', KITTY_PID: '42' },
    terminal: { replies: recorded('xtermjs'), da1: csi('?1;2c') },
    expect: { kitty: false, sixel: false, iterm2: false, text: true },
  },
  {
    name: 'VS Code started from iTerm2, xterm.js with the image addon: sixel, no kitty',
    env: { PATH, TERM: 'xterm-256color', TERM_PROGRAM: 'vscode', LC_TERMINAL: 'iTerm2', ITERM_SESSION_ID: 'w0' },
    terminal: { replies: recorded('xtermjs-image'), da1: csi('?62;4;9;22c') },
    expect: { kitty: false, sixel: true, iterm2: false, wrapped: false },
  },
  {
    name: 'Konsole in tmux 3.5a built with sixel, passthrough off: tmux draws the sixel, sent unwrapped',
    env: inTmux({
      KONSOLE_VERSION: '230804',
      SCRIPTED_TMUX_VERSION: '3.5a',
      SCRIPTED_TMUX_TERMTYPE: 'Konsole 23.08.4',
      SCRIPTED_TMUX_FEATURES: '256,RGB,clipboard,sixel,title',
      SCRIPTED_TMUX_SIXEL: '1',
      SCRIPTED_TMUX_PASSTHROUGH: 'off',
    }),
    terminal: TMUX_35A,
    expect: { sixel: true, wrapped: false, kitty: false, placeholders: false },
  },
  {
    name: 'kitty in tmux 3.5a, passthrough off: tmux claims sixel, kitty has none: text, no placeholders',
    env: inTmux({
      KITTY_WINDOW_ID: '1',
      SCRIPTED_TMUX_VERSION: '3.5a',
      SCRIPTED_TMUX_TERMTYPE: 'kitty(0.41.1)',
      SCRIPTED_TMUX_FEATURES: '256,RGB,clipboard,hyperlinks,sync,title',
      SCRIPTED_TMUX_SIXEL: '1',
      SCRIPTED_TMUX_PASSTHROUGH: 'off',
    }),
    terminal: TMUX_35A,
    expect: { sixel: false, kitty: false, placeholders: false, text: true },
  },
  {
    name: 'Konsole in tmux 3.3a, passthrough on: its sixel wrapped for tmux, never kitty placeholders',
    env: inTmux({
      KONSOLE_VERSION: '230804',
      SCRIPTED_TMUX_VERSION: '3.3a',
      SCRIPTED_TMUX_TERMTYPE: 'Konsole 23.08.4',
      SCRIPTED_TMUX_FEATURES: '256,RGB,sixel',
      SCRIPTED_TMUX_SIXEL: '',
      SCRIPTED_TMUX_PASSTHROUGH: 'on',
    }),
    terminal: TMUX_33A,
    expect: { sixel: true, wrapped: true, kitty: false, placeholders: false },
  },
  {
    name: 'kitty 0.41 in tmux 3.3a, passthrough on: kitty with Unicode placeholders, wrapped',
    env: inTmux({
      KITTY_WINDOW_ID: '1',
      SCRIPTED_TMUX_VERSION: '3.3a',
      SCRIPTED_TMUX_TERMTYPE: 'kitty(0.41.1)',
      SCRIPTED_TMUX_FEATURES: '256,RGB',
      SCRIPTED_TMUX_SIXEL: '',
      SCRIPTED_TMUX_PASSTHROUGH: 'on',
    }),
    terminal: TMUX_33A,
    expect: { kitty: true, placeholders: true, wrapped: true },
  },
  {
    name: 'Zellij 0.45 in kitty: kitty drawn by Zellij, unwrapped, no placeholders',
    env: { PATH, TERM: 'xterm-256color', ZELLIJ: '0', ZELLIJ_SESSION_NAME: 's', KITTY_WINDOW_ID: '1' },
    terminal: { replies: xtversion('Zellij(4500)') + csi('>0;4500;1c') + csi('?62;52c'), da1: csi('?62;52c') },
    expect: { kitty: true, placeholders: false, wrapped: false },
  },
  {
    name: 'GNU screen 4.09 with COLORTERM=truecolor: text in 256 colours, no 24-bit SGR',
    env: { PATH, TERM: 'screen', STY: '1.pts-0.host', COLORTERM: 'truecolor' },
    terminal: { replies: recorded('xterm+screen'), da1: csi('?1;2c') },
    expect: { truecolor: false, text: true, sixel: false, kitty: false },
  },
];

describe('show in a scripted terminal: the protocol its own answers call for', () => {
  it.each(CASES)(
    '$name',
    async ({ env, terminal, expect: expected }) => {
      const run = await show(env, terminal);
      expect(run.exitCode).toBe(0);
      const found = protocolsIn(run.output);
      for (const [key, value] of Object.entries(expected)) expect(found[key as keyof Expected], key).toBe(value);
    },
    40_000,
  );
});

// The probe's answers only, without the picture: the scripted tmux must be on PATH to matter.
describe('the scripted tmux is what decides', () => {
  it('without it on PATH, tmux 3.5a over Konsole with passthrough off gets no sixel', async () => {
    const env = inTmux({ KONSOLE_VERSION: '230804' });
    env.PATH = PATH.split(':')
      .filter((p) => !existsSync(join(p, 'tmux')))
      .join(':');
    const run = await show(env, TMUX_35A);
    expect(protocolsIn(run.output).sixel).toBe(false);
  }, 40_000);
});
