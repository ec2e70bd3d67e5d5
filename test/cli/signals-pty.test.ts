/**
 * Every way out leaves the terminal clean, in real ptys: termsight is sent SIGTERM, SIGHUP or
 * SIGQUIT while it probes (the scripted terminal does not answer yet), while a big picture is
 * written to a terminal that has stopped reading (so the signal lands mid-sequence), and while an
 * animation plays; Ctrl-C is typed while it probes. Afterwards: exit code 128+n, the tty mode as
 * before (`stty -g`, read inside the pty by the wrapper), the wrapper's marker visible as plain
 * text on an independent terminal's screen (no open sequence swallowed it, SGR reset), the cursor
 * shown and synchronized output off. And `show big.png | head -c 100` ends quietly.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import * as pty from 'node-pty';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { repoRoot } from '../pty/harness.js';
import { ensureBuilt } from '../support/build.js';
import { scratchDir, writePng } from './show-support.js';
import { catchesSignal, MARKER, PtySession, screenState, writeGif, writeWrapper } from './signals-support.js';

// TERMSIGHT_MAIN runs the same cases against another build (to measure one without these fixes).
const MAIN = process.env.TERMSIGHT_MAIN ?? join(repoRoot, 'dist', 'cli', 'main.js');
let dir = '';
let wrapper = '';
let big = '';
let gif = '';
let bigGif = '';
let slow = '';
let slower = '';
let sessions: PtySession[] = [];

beforeAll(() => {
  ensureBuilt();
  if (!existsSync(MAIN)) throw new Error('dist/cli/main.js was not built');
  dir = scratchDir();
  wrapper = writeWrapper(dir);
  big = writePng(dir, 'big.png', 1600, 1000, 7);
  gif = writeGif(dir, 'anim.gif', 160, 80, 24, 4);
  // 24 frames of 600x400: tens of megabytes of kitty frames, far more than a pty holds.
  bigGif = writeGif(dir, 'big.gif', 600, 400, 24, 4);
  // Six megapixels of noise: decoding takes a good part of a second (450 ms here, unloaded).
  slow = writePng(dir, 'slow.png', 3000, 2000, 11);
  // Twelve megapixels of noise for the Ctrl-C typed during the decode: the decode must outlast
  // the probe's window and the wait after it by a wide margin, on a fast machine too (six
  // megapixels decoded in about 200 ms once text pictures were decoded at the size drawn).
  slower = writePng(dir, 'slower.png', 4000, 3000, 13);
}, 120_000);

afterEach(() => {
  for (const s of sessions) s.kill();
  sessions = [];
});

// Each wait below has its own 15 s limit and says what it waited for; the test's limit is above them.
vi.setConfig({ testTimeout: 60_000 });

let runs = 0;
function start(args: string[], env: Record<string, string> = {}): PtySession {
  const session = new PtySession(wrapper, join(dir, `run${runs++}`), [process.execPath, MAIN, ...args], repoRoot, env);
  sessions.push(session);
  return session;
}

/** Every check of a clean exit, on the session's whole output. */
async function expectClean(session: PtySession, code: number): Promise<string> {
  const { rc, before, after } = await session.finish();
  expect(rc).toBe(code);
  expect(after).toBe(before);
  const screen = await screenState(session.output, session.cols, session.rows);
  expect(screen.markerLine).toContain(`rc=${code} ${MARKER}`);
  expect(screen.markerPlain).toBe(true);
  expect(screen.cursorVisible).toBe(true);
  expect(screen.synchronizedOutput).toBe(false);
  return screen.text;
}

const SIGNALS = [
  { name: 'SIGTERM (the default of kill)', signal: 'SIGTERM', code: 143 },
  { name: 'SIGHUP (the terminal closed)', signal: 'SIGHUP', code: 129 },
  { name: 'SIGQUIT (Ctrl-\\)', signal: 'SIGQUIT', code: 131 },
] as const;

/** Ctrl-C: not in SIGNALS, which the probe's own tests cover apart. */
const SIGINT = { name: 'SIGINT (Ctrl-C)', signal: 'SIGINT', code: 130 } as const;

/** The probe's sentinel (DA1) has gone out: the probe is waiting for the terminal's answers. */
const probing = (out: string) => out.includes('\x1b[c');

describe('a signal while the probe waits for the terminal', () => {
  it.each(SIGNALS)('$name: exit $code, raw mode undone, nothing drawn', async ({ signal, code }) => {
    const session = start(['show', big, '--protocol', 'braille', '--timeout', '30000']);
    const pid = await session.pid();
    await session.until(probing, 'the probe');
    process.kill(pid, signal);
    const text = await expectClean(session, code);
    expect(text).not.toMatch(/[\u2801-\u28ff]/); // no braille picture
  });

  it('Ctrl-C typed during the probe (raw mode: byte 0x03) stops it: exit 130, nothing drawn', async () => {
    const session = start(['show', big, '--protocol', 'braille', '--timeout', '30000']);
    await session.until(probing, 'the probe');
    session.type('\x03');
    const text = await expectClean(session, 130);
    expect(text).not.toMatch(/[\u2801-\u28ff]/);
  });

  it('Ctrl-C typed while the picture decodes after the probe is a real SIGINT: exit 130, nothing drawn', async () => {
    const session = start(['show', slower, '--protocol', 'braille', '--timeout', '20']);
    await session.until(probing, 'the probe');
    // The probe gives up after 20 ms and its late-reply window after 100 more; then the decode.
    // Typed then, Ctrl-C must reach the line discipline in cooked mode (raw mode would hold it
    // as a byte until the decode is over, and the picture would be drawn).
    await sleep(300);
    session.type('\x03');
    const text = await expectClean(session, 130);
    expect(text).not.toMatch(/[\u2801-\u28ff]/);
  });

  it('show - reading a terminal ends on Ctrl-C (not only Ctrl-D): exit 130', async () => {
    const session = start(['show', '-', '--no-probe', '--protocol', 'braille']);
    await session.pid();
    await sleep(500); // node has started and is reading the terminal
    session.type('\x03');
    await expectClean(session, 130);
  });

  // bash waits for the command and acts on a Ctrl-C only if the command died of SIGINT and bash got
  // one too; a command that exits 130 is taken to have handled it, and the loop goes on.
  it.each([
    {
      name: 'in cooked mode (a real SIGINT to the group): termsight dies by it',
      args: () => ['-', '--no-probe'],
      // Its guard listens: it adds SIGPIPE (13) after SIGINT, and Node alone ignores SIGPIPE
      // (Node's own SIGINT handler, there from the start, would end it by the signal anyway).
      ready: (_: string, pid: number) => catchesSignal(pid, 13),
    },
    {
      name: 'while the probe holds the terminal raw (byte 0x03): raised to the group, as cooked mode would',
      args: () => [big, '--protocol', 'braille', '--timeout', '30000'],
      ready: (out: string) => probing(out),
    },
  ])('Ctrl-C ends the shell loop show runs in, $name', async ({ args, ready }) => {
    const loop = 'for i in 1 2; do sh -c \'echo "PID=$$"; exec "$@"\' termsight "$@"; echo "NEXT-$i"; done';
    const child = pty.spawn('bash', ['-c', loop, 'bash', process.execPath, MAIN, 'show', ...args()], {
      cols: 80,
      rows: 24,
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', TERM: 'xterm-256color' },
    });
    let output = '';
    child.onData((d) => {
      output += d;
    });
    const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => child.onExit(resolve));
    try {
      const deadline = performance.now() + 15_000;
      let pid = 0;
      while (!(pid > 0 && ready(output, pid))) {
        if (performance.now() > deadline) throw new Error(`termsight never got ready: ${JSON.stringify(output)}`);
        pid = Number(/PID=(\d+)/.exec(output)?.[1] ?? 0);
        await sleep(20);
      }
      child.write('\x03');
      const exit = await Promise.race([exited, sleep(15_000).then(() => null)]);
      expect(exit).toEqual({ exitCode: 0, signal: 2 });
      expect(output).not.toContain('NEXT-');
    } finally {
      child.kill();
    }
  });

  it('detect: SIGTERM during the probe exits 143 with the mode restored', async () => {
    const session = start(['detect', '--timeout', '30000']);
    const pid = await session.pid();
    await session.until(probing, 'the probe');
    process.kill(pid, 'SIGTERM');
    await expectClean(session, 143);
  });
});

/** Where each protocol's picture starts, and how much of it must be out before the terminal stalls. */
// Text pictures are small (a cell is 2x4 dots or 1x2 pixels of a 10x20 px cell): they need the
// six-megapixel picture in a large box to be far bigger than what the pty holds (about 660 KB).
const PICTURES = [
  { protocol: 'kitty', start: '\x1b_G', text: false },
  { protocol: 'iterm2', start: '\x1b]1337;', text: false },
  { protocol: 'sixel', start: '\x1bP', text: false },
  { protocol: 'braille', start: '\u2800', text: true },
  { protocol: 'blocks', start: '\u2580', text: true },
] as const;

const ROWS = PICTURES.flatMap((p) => SIGNALS.map((s) => ({ ...p, ...s, name: `${p.protocol}, ${s.name}` })));

describe('a signal while a big picture is written to a terminal that stopped reading', () => {
  it.each(ROWS)('$name: sequence closed, exit $code', async ({ protocol, start: intro, text, signal, code }) => {
    const picture = text ? [slow, '--width', '400', '--height', '200'] : [big];
    const session = start(['show', ...picture, '--protocol', protocol, '--no-probe']);
    const pid = await session.pid();
    const begun = (out: string) => {
      const at = protocol === 'braille' ? out.search(/[\u2800-\u28ff]/) : out.indexOf(intro);
      return at >= 0 && out.length - at > 32 * 1024;
    };
    await session.until(begun, 'the picture');
    session.pause();
    process.kill(pid, signal);
    session.resume();
    await expectClean(session, code);
    if (protocol === 'kitty') expect(session.output).toMatch(/\x1b_Ga=d,d=I,i=\d+/); // the upload deleted
  });
});

describe('a signal in the middle of show --grid (a terminal that stopped reading)', () => {
  it.each([
    { ...SIGINT, name: `kitty, ${SIGINT.name}`, protocol: 'kitty', start: '\x1b_G' },
    { ...SIGNALS[0], name: `kitty, ${SIGNALS[0].name}`, protocol: 'kitty', start: '\x1b_G' },
    { ...SIGNALS[1], name: `sixel, ${SIGNALS[1].name}`, protocol: 'sixel', start: '\x1bP' },
    { ...SIGNALS[2], name: `symbols, ${SIGNALS[2].name}`, protocol: 'symbols', start: '\u2584' },
  ] as const)('$name: row cut short, terminal clean, exit $code', async ({ protocol, start: intro, signal, code }) => {
    // Two big pictures a row: the first row alone is far more than the pty holds (text pictures
    // in an 800x400 box).
    const files =
      protocol === 'symbols' ? [slow, slow, slow, slow, '--width', '800', '--height', '400'] : [big, big, big, big];
    const session = start(['show', ...files, '--grid', '2x2', '--protocol', protocol, '--no-probe']);
    const pid = await session.pid();
    // A whole row is decoded and encoded before its first byte: slow on a loaded machine.
    await session.until(
      (out) => {
        const at = out.indexOf(intro);
        return at >= 0 && out.length - at > 32 * 1024;
      },
      'the first row',
      40_000,
    );
    session.pause();
    process.kill(pid, signal);
    session.resume();
    await expectClean(session, code);
    if (protocol === 'kitty') {
      // Every image the cut row began uploading is deleted by its id.
      const uploaded = new Set([...session.output.matchAll(/\x1b_G[^;\x1b]*a=T[^;\x1b]*i=(\d+)/g)].map((m) => m[1]));
      const deleted = new Set([...session.output.matchAll(/\x1b_Ga=d,d=I,i=(\d+)/g)].map((m) => m[1]));
      expect(uploaded.size).toBeGreaterThan(0);
      for (const id of uploaded) expect(deleted).toContain(id);
    }
  });
});

describe('a signal during --animate', () => {
  it.each([
    { ...SIGNALS[0], name: `kitty, ${SIGNALS[0].name}`, protocol: 'kitty' },
    { ...SIGNALS[1], name: `blocks, ${SIGNALS[1].name}`, protocol: 'blocks' },
    { ...SIGNALS[2], name: `sixel, ${SIGNALS[2].name}`, protocol: 'sixel' },
  ])('$name: cursor shown again, exit $code', async ({ protocol, signal, code }) => {
    const session = start(['show', gif, '--animate', '--protocol', protocol, '--no-probe', '--width', '40']);
    const pid = await session.pid();
    // A few frames in: each frame is drawn between a cursor save and restore.
    await session.until((out) => out.includes('\x1b[?25l') && out.split('\x1b8').length > 6, 'frames');
    process.kill(pid, signal);
    await expectClean(session, code);
  });
});

describe('a GIF played by kitty itself (show --animate uploads it once)', () => {
  // TERM=xterm-kitty names kitty without a probe; its row says it plays animations.
  const kitty = { TERM: 'xterm-kitty' };

  it('not stopped: one upload, the animation run, nothing deleted, control returned (exit 0)', async () => {
    const session = start(['show', gif, '--animate', '--protocol', 'kitty', '--no-probe', '--width', '40'], kitty);
    await expectClean(session, 0);
    expect(session.output.match(/\x1b_G[^;\x1b]*a=T/g)).toHaveLength(1);
    expect(session.output).toMatch(/\x1b_G[^;\x1b]*a=f/);
    expect(session.output).toMatch(/\x1b_G[^;\x1b]*a=a[^;\x1b]*s=3/); // set running
    expect(session.output).not.toMatch(/\x1b_Ga=d/);
  });

  it.each([SIGINT, ...SIGNALS])(
    '$name during the upload (a terminal that stopped reading): the animation deleted by id, exit $code',
    async ({ signal, code }) => {
      const session = start(['show', bigGif, '--animate', '--protocol', 'kitty', '--no-probe'], kitty);
      const pid = await session.pid();
      await session.until((out) => {
        const at = out.indexOf('a=f');
        return at >= 0 && out.length - at > 32 * 1024;
      }, 'the frames');
      session.pause();
      process.kill(pid, signal);
      session.resume();
      await expectClean(session, code);
      const id = /\x1b_G[^;\x1b]*a=T[^;\x1b]*i=(\d+)/.exec(session.output)?.[1];
      expect(id).toBeDefined();
      expect(session.output).toContain(`\x1b_Ga=d,d=I,i=${id}`);
      expect(session.output).not.toMatch(/\x1b_G[^;\x1b]*a=a[^;\x1b]*s=3/); // never set running
    },
  );
});

describe('a closed pipe', () => {
  it.each([
    { name: 'a sixel picture', protocol: 'sixel' },
    { name: 'a kitty picture', protocol: 'kitty' },
    { name: 'a braille picture', protocol: 'braille' },
  ])(
    '$name: show big.png --protocol $protocol | head -c 100, quiet and non-zero',
    ({ protocol }) => {
      const result = spawnSync(
        '/bin/bash',
        [
          '-c',
          `"$0" "$1" show "$2" --no-probe --protocol ${protocol} --width 400 --height 200 | head -c 100 > /dev/null; echo "rc=\${PIPESTATUS[0]}"`,
          process.execPath,
          MAIN,
          big,
        ],
        {
          encoding: 'utf8',
          // A colour terminal: under TERM=dumb braille has no SGR and the whole picture (24 KB)
          // would fit in the pipe's buffer before head closes it.
          env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color' },
          // Not a socket on stdin: bash would take itself for an rsh session and read ~/.bashrc.
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 60_000,
        },
      );
      expect(result.stdout.trim()).toBe('rc=141');
      expect(result.stderr).toBe('');
    },
    60_000,
  );
});
