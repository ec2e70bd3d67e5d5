/**
 * `termsight/ink` in a real pty: a small Ink app (fixtures/ink-app.mjs) under node-pty, its output
 * fed into a real terminal engine (@xterm/headless), and a scripted terminal that answers the
 * probe with kitty's recorded replies while the user types between them. xterm.js has no APC hook,
 * so the test scans the byte stream for kitty's APCs and reads the engine's cursor when each one
 * arrives (everything before it written and parsed). Asserts: the placement lands at the picture's
 * cell, the text around it is intact, the keys reach useInput and no reply does, and unmounting
 * deletes the image by its id.
 */
import { join } from 'node:path';
import { Terminal } from '@xterm/headless';
import * as pty from 'node-pty';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { answerFor, escapeSequences, isSentinel, loadTerminal, repoRoot, sleep } from '../pty/harness.js';
import { ensureDist } from './dist.js';

beforeAll(() => ensureDist(), 120_000);

const app = join(repoRoot, 'test', 'ink', 'fixtures', 'ink-app.mjs');
const useInk = join(repoRoot, 'test', 'ink', 'fixtures', 'use-ink.mjs');
const nodeMajor = Number(process.versions.node.split('.')[0]);

/** One kitty APC and where the terminal's cursor was when it arrived. */
interface Apc {
  readonly body: string;
  readonly x: number;
  readonly y: number;
}

/** The app in a pty, its output parsed by xterm headless, kitty APCs logged with the cursor. */
class Session {
  readonly term = new Terminal({ cols: 80, rows: 24, allowProposedApi: true });
  readonly apcs: Apc[] = [];
  output = '';
  private fed = 0;
  private atOnce: { query: string; reply: string } | null = null;
  feeding: Promise<void> = Promise.resolve();
  readonly proc: pty.IPty;
  readonly exited: Promise<number>;

  constructor(env: Record<string, string>, argv: readonly string[] = [app]) {
    this.proc = pty.spawn(process.execPath, [...argv], {
      cols: 80,
      rows: 24,
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ...env },
    });
    this.proc.onData((d) => {
      this.output += d;
      const at = this.atOnce;
      if (at && this.output.includes(at.query)) {
        this.atOnce = null;
        this.proc.write(at.reply);
      }
      this.feeding = this.feeding.then(() => this.feed());
    });
    this.exited = new Promise((r) => this.proc.onExit((e) => r(e.exitCode)));
  }

  private write(text: string): Promise<void> {
    return new Promise((r) => this.term.write(text, r));
  }

  /** Feeds the engine up to each complete APC, logs the cursor there, and goes on. */
  private async feed(): Promise<void> {
    for (;;) {
      const start = this.output.indexOf('\x1b_G', this.fed);
      if (start < 0) {
        // Keep a trailing ESC back: it may begin an APC.
        const upto = this.output.endsWith('\x1b') ? this.output.length - 1 : this.output.length;
        await this.write(this.output.slice(this.fed, upto));
        this.fed = upto;
        return;
      }
      const end = this.output.indexOf('\x1b\\', start);
      if (end < 0) {
        await this.write(this.output.slice(this.fed, start));
        this.fed = start;
        return;
      }
      await this.write(this.output.slice(this.fed, start));
      const buffer = this.term.buffer.active;
      this.apcs.push({ body: this.output.slice(start + 3, end), x: buffer.cursorX, y: buffer.cursorY });
      await this.write(this.output.slice(start, end + 2));
      this.fed = end + 2;
    }
  }

  /** The screen's lines as text. */
  lines(): string[] {
    const buffer = this.term.buffer.active;
    return Array.from({ length: this.term.rows }, (_, y) => buffer.getLine(y)?.translateToString(true) ?? '');
  }

  async until(test: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const end = performance.now() + timeoutMs;
    while (!test()) {
      if (performance.now() > end)
        throw new Error(`timed out waiting for ${what}; screen:\n${this.lines().join('\n')}`);
      await sleep(20);
    }
    await this.feeding;
  }

  /** Answers `query` with `reply` the moment the app writes it (once). */
  answerAtOnce(query: string, reply: string): void {
    this.atOnce = { query, reply };
  }

  kill(): void {
    try {
      this.proc.kill();
    } catch {
      // Already gone.
    }
  }
}

let session: Session | null = null;
afterEach(() => session?.kill());

/**
 * One row of the keys table: an Ink major, whether Ink asks its own kitty keyboard query
 * (`kittyKeyboard: { mode: 'auto' }`), when the terminal answers it, and whether termsight is in
 * the app at all. The user types `a` before any reply (inside Ink's 200 ms wait where Ink asked),
 * `b` between the replies, `c` after the probe's report is on the screen.
 */
interface KeysRow {
  readonly major: 6 | 7 | 8;
  readonly kittyKeyboard: boolean;
  /** `with the probe`: in order with termsight's replies (a slow terminal, ssh); `at once`: as soon as Ink asks. */
  readonly inkAnswer: 'with the probe' | 'at once' | null;
  /** false: Ink alone (no provider, no picture), to tell Ink's own behaviour from termsight's. */
  readonly termsight: boolean;
  /** What useInput saw, in order (control bytes in caret notation; Ink strips a sequence's ESC). */
  readonly keys: string;
}

const keysRows: (KeysRow & { name: string })[] = (
  [
    { major: 6, kittyKeyboard: false, inkAnswer: null, termsight: true, keys: 'abc' },
    { major: 7, kittyKeyboard: false, inkAnswer: null, termsight: true, keys: 'abc' },
    { major: 8, kittyKeyboard: false, inkAnswer: null, termsight: true, keys: 'abc' },
    { major: 6, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: true, keys: 'abc' },
    { major: 7, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: true, keys: 'abc' },
    { major: 8, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: true, keys: 'abc' },
    { major: 6, kittyKeyboard: true, inkAnswer: 'at once', termsight: true, keys: 'abc' },
    { major: 7, kittyKeyboard: true, inkAnswer: 'at once', termsight: true, keys: 'abc' },
    { major: 8, kittyKeyboard: true, inkAnswer: 'at once', termsight: true, keys: 'abc' },
    // Ink alone, its answer and two keys in one read while useInput reads: Ink 6.8 and 7 read their
    // answer through a 'data' listener beside useInput's read() and unshift what else it saw, so
    // useInput gets the answer as `[?0u` and the keys twice (Ink 8 reads it once, with the keys).
    { major: 6, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: false, keys: 'a[?0ubabc' },
    { major: 7, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: false, keys: 'a[?0ubabc' },
    { major: 8, kittyKeyboard: true, inkAnswer: 'with the probe', termsight: false, keys: 'abc' },
  ] satisfies KeysRow[]
).map((row) => ({
  ...row,
  name: `Ink ${row.major}${row.termsight ? ' with <Image>' : ' alone'}, kittyKeyboard ${row.kittyKeyboard ? `auto, answered ${row.inkAnswer}` : 'off'}`,
}));

// Each Ink major of the peer range the suite installs: Ink 7 and 8 need Node 22 (their engines).
describe("keys typed before, during and after the probe and Ink's own kitty keyboard query, in a pty answered as kitty", () => {
  for (const row of keysRows) {
    const runs = row.major === 6 || nodeMajor >= 22;
    const name = `${row.name}: useInput sees ${row.keys}${runs ? '' : ` (skipped: Ink ${row.major} needs Node 22 or later)`}`;
    it.skipIf(!runs)(name, () => keysInPty(row));
  }
});

async function keysInPty(row: KeysRow): Promise<void> {
  const kitty = loadTerminal('kitty');
  const inkQuery = '\x1b[?u';
  const inkAnswer = kitty.replies.get(inkQuery) ?? '';
  expect(inkAnswer).toBe('\x1b[?0u');
  // With the keyboard query, kitty names itself in the environment (Ink 6.8's auto mode asks only
  // such terminals); without, nothing says kitty (as over ssh): the replies must.
  const env = row.kittyKeyboard ? { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' } : { TERM: 'xterm-256color' };
  const argv = ['--import', useInk, app];
  if (row.kittyKeyboard) argv.push('--kitty-keyboard');
  if (!row.termsight) argv.push('--plain');
  const s = new Session({ ...env, TERMSIGHT_TEST_INK: String(row.major) }, argv);
  session = s;
  // Ink's query answered the moment it is written (no waiting on a poll: Ink waits 200 ms).
  if (row.inkAnswer === 'at once') s.answerAtOnce(inkQuery, inkAnswer);
  const keysLine = () => s.lines().find((l) => l.startsWith('keys:')) ?? '';

  if (!row.termsight) {
    // Once useInput reads: a key, Ink's answer and a key in one read, all inside Ink's wait.
    await s.until(() => keysLine().endsWith('graphics:plain'), 'useInput');
    expect(escapeSequences(s.output)).toContain(inkQuery);
    s.proc.write(`a${inkAnswer}b`);
    await s.until(() => s.output.includes('\x1b[>1u'), "Ink's kitty keyboard protocol turned on");
    s.proc.write('c');
    await s.until(() => keysLine().includes('c]'), 'the last key');
    expect(keysLine()).toBe(`keys:[${row.keys}] graphics:plain`);
    s.proc.write('q');
    expect(await s.exited).toBe(0);
    return;
  }

  await s.until(() => escapeSequences(s.output).some(isSentinel), 'the probe');
  const sequences = escapeSequences(s.output);
  const sentinel = sequences.findIndex(isSentinel);
  // Ink asks at render(), before termsight's batch; without kittyKeyboard it never asks.
  const asked = sequences.indexOf(inkQuery);
  if (row.kittyKeyboard) expect(asked >= 0 && asked < sentinel).toBe(true);
  else expect(asked).toBe(-1);
  const queries = sequences.slice(0, sentinel + 1).filter((q) => q !== inkQuery);
  const { replies } = answerFor(kitty, queries);
  expect(replies.length).toBeGreaterThan(2);
  // The terminal answers in the order asked (Ink's first), the user typing before and between.
  s.proc.write('a');
  s.proc.write((row.inkAnswer === 'with the probe' ? inkAnswer : '') + replies.slice(0, 2).join(''));
  s.proc.write('b');
  s.proc.write(replies.slice(2).join(''));
  s.proc.write(kitty.da1);
  await s.until(() => keysLine().endsWith('graphics:kitty'), 'the report');
  s.proc.write('c');
  await s.until(() => s.apcs.some((a) => a.body.startsWith('a=p')), 'the placement');
  await s.until(() => keysLine().includes('c]'), 'the last key');
  if (row.kittyKeyboard) await s.until(() => s.output.includes('\x1b[>1u'), "Ink's kitty keyboard protocol turned on");
  else expect(s.output).not.toContain('\x1b[>1u');

  const lines = s.lines();
  const row0 = lines.findIndex((l) => l.startsWith('left>'));
  expect(lines[row0 - 1]).toBe('TOP LINE');
  // The Box reserves the picture's cells: the label, 8 blank columns, the text after it.
  expect(lines[row0]).toBe(`left>${' '.repeat(8)}<right`);
  expect(lines[row0 + 4]).toBe(`keys:[${row.keys}] graphics:kitty`);
  // No reply on the screen (an echoed one shows without its ESC).
  for (const reply of [inkAnswer, ...replies, kitty.da1]) expect(lines.join('\n')).not.toContain(reply.slice(2, 8));

  const placements = s.apcs.filter((a) => a.body.startsWith('a=p'));
  for (const p of placements) expect({ x: p.x, y: p.y }).toEqual({ x: 5, y: row0 });
  const id = /i=(\d+)/.exec(placements[0].body)?.[1];
  expect(placements[0].body).toContain('c=8');
  expect(placements[0].body).toContain('r=4');
  const upload = s.apcs.find((a) => a.body.startsWith('a=t'));
  expect(upload?.body).toContain(`i=${id},`);

  s.proc.write('q');
  expect(await s.exited).toBe(0);
  await s.feeding;
  await s.feeding;
  expect(s.apcs.some((a) => a.body === `a=d,d=I,i=${id},q=2`)).toBe(true);
}

describe('an Ink app with <Image> that calls process.exit() in a pty, answered as kitty', () => {
  it.each([
    { name: 'a still picture', argv: [app] },
    { name: 'a GIF the terminal plays', argv: [app, '--gif'] },
  ])('$name: the kitty image is deleted by its id on the way out', async ({ argv }) => {
    const kitty = loadTerminal('kitty');
    const s = new Session({ TERM: 'xterm-256color' }, argv);
    session = s;
    await s.until(() => escapeSequences(s.output).some(isSentinel), 'the probe');
    const sequences = escapeSequences(s.output);
    const queries = sequences.slice(0, sequences.findIndex(isSentinel) + 1);
    s.proc.write(answerFor(kitty, queries).replies.join('') + kitty.da1);
    await s.until(() => s.apcs.some((a) => /^a=[pT],/.test(a.body)), 'the picture');
    const id = /(?:^|,)i=(\d+)/.exec(s.apcs.find((a) => /^a=[pT],/.test(a.body))?.body ?? '')?.[1];
    s.proc.write('e');
    expect(await s.exited).toBe(0);
    await s.feeding;
    await s.feeding;
    expect(s.apcs.some((a) => a.body === `a=d,d=I,i=${id},q=2`)).toBe(true);
  });
});

describe('an Ink app with a GIF in <Image> in a pty, answered as kitty', () => {
  it('uploads the animation once at its cell (a=T, a=f, a=a), places no frames, and deletes it on quit', async () => {
    const kitty = loadTerminal('kitty');
    const s = new Session({ TERM: 'xterm-256color' }, [app, '--gif']);
    session = s;
    await s.until(() => escapeSequences(s.output).some(isSentinel), 'the probe');
    const sequences = escapeSequences(s.output);
    const queries = sequences.slice(0, sequences.findIndex(isSentinel) + 1);
    s.proc.write(answerFor(kitty, queries).replies.join(''));
    s.proc.write(kitty.da1);
    await s.until(() => s.apcs.some((a) => a.body.startsWith('a=a') && a.body.includes('s=3')), 'the animation');
    // Several frames' delays (50 ms) pass: a redraw loop would upload or place again.
    await sleep(400);
    await s.feeding;
    const row = s.lines().findIndex((l) => l.startsWith('left>'));
    const roots = s.apcs.filter((a) => a.body.startsWith('a=T'));
    expect(roots).toHaveLength(1);
    expect({ x: roots[0].x, y: roots[0].y }).toEqual({ x: 5, y: row });
    const id = /i=(\d+)/.exec(roots[0].body)?.[1];
    expect(s.apcs.filter((a) => a.body.startsWith('a=f') && a.body.includes(`i=${id},`))).toHaveLength(1);
    expect(s.apcs.some((a) => a.body === `a=a,i=${id},s=3,v=1,q=2`)).toBe(true);
    expect(s.apcs.some((a) => /^a=[tp],/.test(a.body))).toBe(false);
    // The 8x8 GIF is not enlarged: its Box is blank cells between the texts, which stay intact.
    expect(s.lines()[row]).toMatch(/^left> +<right$/);

    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await s.feeding;
    await s.feeding;
    expect(s.apcs.some((a) => a.body === `a=d,d=I,i=${id},q=2`)).toBe(true);
  });
});

const gallery = join(repoRoot, 'examples', 'ink-gallery.mjs');
const images = join(repoRoot, 'test', 'fixtures', 'images');

/** The kitty APCs of one kind (`a=t` uploads, `a=p` placements, `a=d` deletes) after the nth seen. */
const apcsOf = (s: Session, action: string, from = 0) =>
  s.apcs.slice(from).filter((a) => a.body.startsWith(`a=${action}`));
const key = (body: string, k: string) => new RegExp(`(?:^|,)${k}=(\\d+)`).exec(body)?.[1];

describe('the example image browser (examples/ink-gallery.mjs) in a pty, answered as kitty', () => {
  it('moves with a key typed during the probe, places at the Box, follows a resize, deletes on quit', async () => {
    const kitty = loadTerminal('kitty');
    const s = new Session({ TERM: 'xterm-256color' }, [gallery, images]);
    session = s;
    await s.until(() => escapeSequences(s.output).some(isSentinel), 'the probe');
    const sequences = escapeSequences(s.output);
    const queries = sequences.slice(0, sequences.findIndex(isSentinel) + 1);
    const { replies } = answerFor(kitty, queries);
    // The right arrow, typed between the terminal's replies, must move to the second picture.
    s.proc.write(replies.slice(0, 3).join(''));
    s.proc.write('\x1b[C');
    s.proc.write(replies.slice(3).join(''));
    s.proc.write(kitty.da1);
    await s.until(() => s.lines().some((l) => l.includes('2/7  camera.png')), 'the second picture');
    await s.until(() => apcsOf(s, 'p').length > 0, 'the placement');

    // The frame: the round border, the title, the picture's Box, the footer naming the protocol.
    const lines = s.lines();
    expect(lines[0]?.startsWith('╭')).toBe(true);
    expect(lines[1]).toMatch(/^│ 2\/7 {2}camera\.png +│$/);
    const footer = lines.findIndex((l) => l.includes('q quit'));
    expect(lines[footer]).toMatch(/^│ ← → move · q quit · kitty +│$/);
    const first = apcsOf(s, 'p')[0];
    // Inside the border (column 0) and its padding (column 1), below the title: cell (2, 2).
    expect({ x: first.x, y: first.y }).toEqual({ x: 2, y: 2 });
    const rows = Number(key(first.body, 'r'));
    expect(footer).toBe(2 + rows);
    for (let y = 2; y < footer; y++) expect(lines[y]).toMatch(/^│ +│$/);
    const id = key(first.body, 'i');
    const upload = apcsOf(s, 't').find((a) => key(a.body, 'i') === id);
    expect(upload).toBeDefined();

    // kitty is known to report its size in band: the watch turns the reports on.
    await s.until(() => s.output.includes('\x1b[?2048h'), 'DECSET 2048');
    // A larger window with a larger font: the terminal says so in band (12x30 pixel cells).
    const seen = s.apcs.length;
    s.proc.resize(100, 30);
    s.term.resize(100, 30);
    s.proc.write('\x1b[48;30;100;900;1200t');
    await s.until(() => apcsOf(s, 't', seen).some((a) => key(a.body, 'i') === id), 'the upload for the new cell size');
    await s.until(() => apcsOf(s, 'p', seen).length > 0, 'the placement after the resize');
    const again = apcsOf(s, 't', seen).find((a) => key(a.body, 'i') === id);
    // Pixels for the new cell: the same picture box holds more pixels.
    expect(Number(key(again?.body ?? '', 's'))).toBeGreaterThan(Number(key(upload?.body ?? '', 's')));
    const placed = apcsOf(s, 'p', seen).at(-1);
    expect({ x: placed?.x, y: placed?.y }).toEqual({ x: 2, y: 2 });
    expect(s.lines()[1]).toMatch(/^│ 2\/7 {2}camera\.png +│$/);

    s.proc.write('q');
    expect(await s.exited).toBe(0);
    await s.feeding;
    await s.feeding;
    expect(s.apcs.some((a) => a.body === `a=d,d=I,i=${id},q=2`)).toBe(true);
    // In-band reports are turned off again on the way out.
    expect(s.output.lastIndexOf('\x1b[?2048l')).toBeGreaterThan(s.output.lastIndexOf('\x1b[?2048h'));
  });
});

describe('an Ink app that reads no input, with the provider following resizes', () => {
  it('ends on its own once the probe is answered: an idle resize watch holds neither raw mode nor stdin', async () => {
    const xterm = loadTerminal('xterm');
    const s = new Session({ TERM: 'xterm-256color' }, [join(repoRoot, 'test', 'ink', 'fixtures', 'ink-static.mjs')]);
    session = s;
    await s.until(() => escapeSequences(s.output).some(isSentinel), 'the probe');
    const sequences = escapeSequences(s.output);
    const queries = sequences.slice(0, sequences.findIndex(isSentinel) + 1);
    s.proc.write(answerFor(xterm, queries).replies.join('') + xterm.da1);
    expect(await s.exited).toBe(0);
    await s.feeding;
    expect(s.lines().some((l) => l.startsWith('graphics:'))).toBe(true);
    // xterm has no in-band reports: they were never turned on.
    expect(s.output).not.toContain('\x1b[?2048h');
  });
});
