/**
 * Drawing in a real pty, the other end played by a scripted terminal (termsight/testing's scripts:
 * the repository's recordings, or rows of the terminal database where no recording exists, marked
 * `database`), with the environment each real terminal gives its programs, behind a scripted tmux
 * (test/fixtures/tmux/tmux) where it applies. The program is the README's first library example,
 * read from README.md (not a copy) and run as an application that installed the package would run
 * it (`npm pack`, unpacked into a fresh app's node_modules), or that package's `termsight show`.
 * For each case: the protocol is the one that terminal calls for; the picture's sequences are
 * well-formed and start at the cursor; kitty's Unicode placeholders are
 * exactly where the layer needs them (inside tmux, inside herdr) and nowhere else; kitty's
 * short-lived hint (`N=1`) only where the terminal takes it and the caller is one-shot; nothing
 * leaks: no reply on the screen (an independent terminal, xterm.js headless, replays the output),
 * the tty mode (`stty -g`) the same before and after, nothing left unread in the input.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import xterm from '@xterm/headless';
import omggif from 'omggif';
import ts from 'typescript';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drawn } from '../../src/testing/drawn.js';
import {
  answerRound,
  roundEnd,
  type ScriptedTerminalName,
  type TerminalScript,
  terminalScript,
} from '../../src/testing/terminal.js';
import { MARKER, PtySession, writeWrapper } from '../cli/signals-support.js';
import { ensureBuilt } from '../support/build.js';
import { codeLines, firstLibraryExample } from '../support/readme.js';
import { repoRoot } from './harness.js';

const README = readFileSync(join(repoRoot, 'README.md'), 'utf8');
const example = firstLibraryExample(README);
const PATH = process.env.PATH ?? '/usr/bin:/bin';
const scriptedTmuxDir = join(repoRoot, 'test', 'fixtures', 'tmux');

let app = '';
let wrapper = '';

/** A GIF of three frames: a 6x6 square moving over a transparent 24x12 field (index 0 is transparent). */
function transparentGif(): Uint8Array {
  const width = 24;
  const height = 12;
  const buffer = new Uint8Array(8192);
  const gif = new omggif.GifWriter(buffer, width, height, {
    palette: [0x000000, 0xff0000, 0x00ff00, 0x0000ff],
    loop: 0,
  });
  for (let f = 0; f < 3; f++) {
    const pixels = Array.from({ length: width * height }, (_, i) => {
      const x = i % width;
      const y = Math.floor(i / width);
      return x >= f * 8 && x < f * 8 + 6 && y >= 3 && y < 9 ? f + 1 : 0;
    });
    gif.addFrame(0, 0, width, height, pixels, { delay: 10, transparent: 0, disposal: 2 });
  }
  return buffer.subarray(0, gif.end());
}

beforeAll(() => {
  ensureBuilt();
  // A fresh application that installed the packed package (`npm pack`, unpacked where npm would
  // put it: termsight has no runtime dependency), with the picture the example names.
  app = mkdtempSync(join(tmpdir(), 'termsight-pty-draw-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'pty-draw-app', private: true, type: 'module' }));
  const installed = join(app, 'node_modules', 'termsight');
  mkdirSync(installed, { recursive: true });
  // --ignore-scripts: prepack would build again; ensureBuilt above did.
  const packed = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', app], {
    cwd: repoRoot,
    encoding: 'utf8',
  })
    .trim()
    .split('\n')
    .pop() as string;
  execFileSync('tar', ['-xzf', join(app, packed), '-C', installed, '--strip-components=1']);
  copyFileSync(join(repoRoot, 'test', 'fixtures', 'images', 'camera.png'), join(app, 'photo.png'));
  writeFileSync(join(app, 'anim.gif'), transparentGif());
  if (example) {
    const js = ts.transpileModule(example.code, {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    writeFileSync(join(app, 'example.mjs'), js);
  }
  wrapper = writeWrapper(app, { drainInput: true });
}, 120_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

let session: PtySession | null = null;
afterEach(() => {
  session?.kill();
  session = null;
});

/** What an application in tmux 3.3a sees, over `outer` (its variables inherited by tmux's server), tmux scripted to say `tmux`. */
function inTmux(
  outerEnv: Record<string, string>,
  tmux: { termtype: string; features: string },
): Record<string, string> {
  return {
    ...outerEnv,
    PATH: `${scriptedTmuxDir}:${PATH}`,
    TMUX: '/tmp/tmux-1000/default,4242,0',
    TMUX_PANE: '%1',
    TERM: 'tmux-256color',
    TERM_PROGRAM: 'tmux',
    TERM_PROGRAM_VERSION: '3.3a',
    SCRIPTED_TMUX_VERSION: '3.3a',
    SCRIPTED_TMUX_TERMTYPE: tmux.termtype,
    SCRIPTED_TMUX_FEATURES: tmux.features,
    SCRIPTED_TMUX_SIXEL: '',
    SCRIPTED_TMUX_PASSTHROUGH: 'on',
  };
}

/** tmux 3.3a's own recorded answers (passthrough on), the wrapped queries answered by `outer`. */
const tmuxOver = (outer: ScriptedTerminalName): TerminalScript => ({
  ...terminalScript('tmux-kitty'),
  outer: terminalScript(outer),
});

const KITTY_ENV = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1', KITTY_PID: '4242', COLORTERM: 'truecolor' };
const GHOSTTY_ENV = {
  TERM: 'xterm-ghostty',
  TERM_PROGRAM: 'ghostty',
  TERM_PROGRAM_VERSION: '1.1.0',
  GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty',
  COLORTERM: 'truecolor',
};
const ITERM2_ENV = {
  TERM: 'xterm-256color',
  TERM_PROGRAM: 'iTerm.app',
  TERM_PROGRAM_VERSION: '3.5.0',
  LC_TERMINAL: 'iTerm2',
  LC_TERMINAL_VERSION: '3.5.0',
  ITERM_SESSION_ID: 'w0t0p0:6D5A0C4E',
  COLORTERM: 'truecolor',
};
const FOOT_ENV = { TERM: 'foot', COLORTERM: 'truecolor' };
const VSCODE_ENV = {
  TERM: 'xterm-256color',
  TERM_PROGRAM: 'vscode',
  TERM_PROGRAM_VERSION: '1.96.2',
  COLORTERM: 'truecolor',
};
const KONSOLE_ENV = { TERM: 'xterm-256color', KONSOLE_VERSION: '230804', COLORTERM: 'truecolor' };
/** Over ssh: `env -i TERM=xterm-256color HOME PATH` (the session adds LANG). */
const SSH_ENV = { TERM: 'xterm-256color' };

type Program = 'example' | readonly string[];

interface Case {
  readonly name: string;
  readonly program: Program;
  readonly script: TerminalScript;
  readonly env: Record<string, string>;
  readonly expected: {
    readonly protocol: 'kitty' | 'iterm2' | 'sixel' | 'text';
    /** kitty's Unicode placeholders on the screen (and `U=1` in the bytes). */
    readonly placeholders?: boolean;
    /** The picture went through tmux's passthrough. */
    readonly wrapped?: boolean;
    /** kitty's short-lived hint `N=1`. */
    readonly shortLived?: boolean;
    /** A kitty animation the terminal plays (`a=f` frames), transparency kept. */
    readonly kittyAnimation?: boolean;
  };
}

/** `termsight show` as the application installed it. */
const show = (...args: string[]): readonly string[] => [
  'node_modules/termsight/dist/cli/main.js',
  'show',
  ...args,
  // A generous probe budget: the scripted terminal's answers may be late on a loaded machine.
  '--timeout',
  '1500',
];

/** Issue 21: the README's first example in the terminals it must draw right in. */
const EXAMPLE_CASES: readonly Case[] = [
  {
    name: 'kitty 0.26.5 (recorded)',
    program: 'example',
    script: terminalScript('kitty'),
    env: KITTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: false },
  },
  {
    name: 'Ghostty (database row)',
    program: 'example',
    script: terminalScript('ghostty'),
    env: GHOSTTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: false },
  },
  {
    name: 'iTerm2 (database row)',
    program: 'example',
    script: terminalScript('iterm2'),
    env: ITERM2_ENV,
    expected: { protocol: 'iterm2', placeholders: false, wrapped: false },
  },
  {
    name: 'foot (database row)',
    program: 'example',
    script: terminalScript('foot'),
    env: FOOT_ENV,
    expected: { protocol: 'sixel', placeholders: false, wrapped: false },
  },
  {
    name: "VS Code started from kitty (xterm.js recorded, kitty's variables inherited): text, never kitty",
    program: 'example',
    script: terminalScript('vscode'),
    env: { ...VSCODE_ENV, KITTY_WINDOW_ID: '1', KITTY_PID: '4242' },
    expected: { protocol: 'text', placeholders: false },
  },
  {
    name: 'kitty 0.26.5 inside tmux 3.3a (both recorded): no placeholders before kitty 0.28, so text',
    program: 'example',
    script: tmuxOver('kitty'),
    env: inTmux(KITTY_ENV, { termtype: 'kitty(0.26.5)', features: '256,RGB,title' }),
    expected: { protocol: 'text', placeholders: false },
  },
  {
    name: 'kitty 0.48 (database row) inside tmux 3.3a (recorded): placeholders, wrapped',
    program: 'example',
    script: tmuxOver('kitty-0.48'),
    env: inTmux(KITTY_ENV, { termtype: 'kitty(0.48.1)', features: '256,RGB,title' }),
    expected: { protocol: 'kitty', placeholders: true, wrapped: true, shortLived: false },
  },
  {
    name: 'Konsole (database row) inside tmux 3.3a (recorded): sixel wrapped, no placeholders',
    program: 'example',
    script: tmuxOver('konsole'),
    env: inTmux(KONSOLE_ENV, { termtype: 'Konsole 23.08.4', features: '256,RGB' }),
    expected: { protocol: 'sixel', placeholders: false, wrapped: true },
  },
];

/** Issue 24: the layers of late 2026, and kitty's version gates. */
const LAYER_CASES: readonly Case[] = [
  {
    name: 'herdr, kitty graphics off (database row): text, no kitty',
    program: 'example',
    script: terminalScript('herdr'),
    env: terminalScript('herdr').env,
    expected: { protocol: 'text', placeholders: false },
  },
  {
    name: 'herdr, kitty graphics on (database row): kitty as placeholders, unwrapped (herdr draws them)',
    program: 'example',
    script: terminalScript('herdr-kitty'),
    env: terminalScript('herdr-kitty').env,
    expected: { protocol: 'kitty', placeholders: true, wrapped: false, shortLived: false },
  },
  {
    name: 'herdr over ssh, kitty graphics off: text',
    program: 'example',
    script: terminalScript('herdr'),
    env: SSH_ENV,
    expected: { protocol: 'text', placeholders: false },
  },
  {
    name: 'herdr over ssh, kitty graphics on: its replies alone call for placeholders',
    program: 'example',
    script: terminalScript('herdr-kitty'),
    env: SSH_ENV,
    expected: { protocol: 'kitty', placeholders: true, wrapped: false },
  },
  {
    name: 'cmux (database rows): kitty placed directly',
    program: 'example',
    script: terminalScript('cmux'),
    env: terminalScript('cmux').env,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false },
  },
  {
    name: "VS Code's image addon with kitty graphics on: its sixel, never kitty placeholders",
    program: 'example',
    script: terminalScript('vscode-kitty'),
    env: VSCODE_ENV,
    expected: { protocol: 'sixel', placeholders: false, wrapped: false },
  },
  {
    name: "VS Code's image addon with kitty graphics on, inside tmux 3.3a: its sixel wrapped, never placeholders",
    program: 'example',
    script: tmuxOver('vscode-kitty'),
    env: inTmux(VSCODE_ENV, { termtype: '', features: '256,RGB' }),
    expected: { protocol: 'sixel', placeholders: false, wrapped: true },
  },
  {
    name: 'kitty 0.46 (database row), show --animate, a GIF with transparency: kitty plays it, alpha kept, no N=1 (0.48+)',
    program: show('anim.gif', '--animate', '--width', '12'),
    script: terminalScript('kitty-0.46'),
    env: KITTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: false, kittyAnimation: true },
  },
  {
    name: 'kitty 0.48 (database row), show --animate: kitty plays it, alpha kept, its frames not marked short-lived (they are the picture while it plays)',
    program: show('anim.gif', '--animate', '--width', '12'),
    script: terminalScript('kitty-0.48'),
    env: KITTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: false, kittyAnimation: true },
  },
  {
    name: 'kitty 0.48 (database row), show: a one-shot preview marked short-lived (N=1)',
    program: show('photo.png', '--width', '20'),
    script: terminalScript('kitty-0.48'),
    env: KITTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: true },
  },
  {
    name: 'kitty 0.48 (database row), the README example: the library keeps its picture, no N=1',
    program: 'example',
    script: terminalScript('kitty-0.48'),
    env: KITTY_ENV,
    expected: { protocol: 'kitty', placeholders: false, wrapped: false, shortLived: false },
  },
];

/**
 * Runs `program` in a pty (through the wrapper: `stty -g` before and after, input drained) and
 * answers each round of queries as `script` does, until the program has exited.
 */
async function play(c: Case): Promise<{ output: string; rc: number; before: string; after: string }> {
  const argv =
    c.program === 'example' ? [process.execPath, join(app, 'example.mjs')] : [process.execPath, ...c.program];
  const s = new PtySession(wrapper, join(app, 'state'), argv, app, c.env);
  session = s;
  let answered = 0;
  const ended = (out: string) => out.includes(MARKER);
  const answering = (async () => {
    for (;;) {
      await s.until((out) => roundEnd(out.slice(answered)) >= 0 || ended(out), 'a query round or the end', 30_000);
      const end = roundEnd(s.output.slice(answered));
      if (end < 0) return;
      const round = s.output.slice(answered, answered + end);
      answered += end;
      const bytes = answerRound(c.script, round);
      if (bytes !== '') s.type(bytes);
    }
  })();
  // Its failure (no round and no end within the time) is the run's: reported by finish below.
  answering.catch(() => undefined);
  const { rc, before, after } = await s.finish(30_000);
  await answering;
  return { output: s.output, rc, before, after };
}

/** Where the picture starts in the output: its first pixel sequence, placeholder or text-picture glyph. */
function pictureStart(output: string, protocol: Case['expected']['protocol']): number {
  const afterPid = output.indexOf('\n', output.indexOf('PID=')) + 1;
  const rest = output.slice(afterPid);
  const patterns: Record<Case['expected']['protocol'], RegExp> = {
    // The first transmit-and-display or placement (not the probe's a=q), wrapped or not.
    kitty: /\x1bPtmux;\x1b\x1b_G[^\x1b]*a=[Tp]|\x1b_G[^\x1b]*a=[Tp]/,
    iterm2: /\x1b\]1337;(?:File|MultipartFile)=/,
    sixel: /\x1bPtmux;\x1b\x1bP[\d;]*q|\x1bP[\d;]*q/,
    text: /[\u2580-\u259f\u2800-\u28ff]|\ud83e[\udf00-\udfff]/,
  };
  // A text picture is text from its first cell (its first cells may be blank).
  if (protocol === 'text') return patterns.text.test(rest) ? afterPid : -1;
  const m = patterns[protocol].exec(rest);
  return m ? afterPid + m.index : -1;
}

/** The screen an independent terminal shows, and where its cursor was when the picture started. */
async function replay(output: string, start: number) {
  const term = new xterm.Terminal({ cols: 120, rows: 40, allowProposedApi: true });
  const write = (text: string) => new Promise<void>((r) => term.write(text, r));
  await write(output.slice(0, start));
  const buffer = term.buffer.active;
  const cursor = { x: buffer.cursorX, y: buffer.cursorY };
  await write(output.slice(start));
  const lines: string[] = [];
  const placeholderRows: { y: number; first: number; count: number }[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    lines.push(line.translateToString(true));
    const xs: number[] = [];
    for (let x = 0; x < term.cols; x++) if (line.getCell(x)?.getChars().startsWith('\u{10EEEE}')) xs.push(x);
    if (xs.length > 0) placeholderRows.push({ y, first: xs[0] as number, count: xs.length });
  }
  term.dispose();
  return { cursor, lines, placeholderRows };
}

/** The kitty commands of the output (tmux's wrapping undone), each with its keys and payload. */
function kittyCommands(output: string) {
  const text = output.replaceAll('\x1bPtmux;', '').replaceAll('\x1b\x1b', '\x1b');
  return [...text.matchAll(/\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\/g)].map((m) => ({
    keys: new Map((m[1] as string).split(',').map((kv) => kv.split('=', 2) as [string, string])),
    payload: m[2] ?? '',
  }));
}

/** Each kitty transmission (`a=T`/`t`/`f`): its first command's keys and its pixels (chunks joined). */
function kittyTransmissions(output: string) {
  const out: { keys: Map<string, string>; rgba: Uint8Array; chunks: number; lastMore: string | undefined }[] = [];
  for (const c of kittyCommands(output)) {
    const a = c.keys.get('a');
    if (c.keys.has('i') && (a === 'T' || a === 't' || a === 'f'))
      out.push({ keys: c.keys, rgba: new Uint8Array(), chunks: 0, lastMore: undefined });
    else if (a === 'q' || a === 'p' || a === 'a' || a === 'd' || out.length === 0) continue;
    const t = out[out.length - 1];
    if (!t) continue;
    const more = c.keys.get('m');
    t.chunks += 1;
    t.lastMore = more;
    t.rgba = Buffer.concat([t.rgba, Buffer.from(c.payload, 'base64')]);
  }
  return out.map((t) => ({ ...t, rgba: t.keys.get('o') === 'z' ? new Uint8Array(inflateSync(t.rgba)) : t.rgba }));
}

describe('the README first example', () => {
  it('is there, under "## The library", at most 8 lines of code, importing termsight', () => {
    expect(example).toBeDefined();
    expect(codeLines(example?.code ?? '')).toBeLessThanOrEqual(8);
    expect(example?.code).toMatch(/from 'termsight'/);
  });
});

describe.each([
  { name: 'issue 21: the README first example', cases: EXAMPLE_CASES },
  { name: 'issue 24: the layers of late 2026', cases: LAYER_CASES },
])('$name in a pty played by a scripted terminal', ({ cases }) => {
  it.each(cases)(
    '$name',
    async (c) => {
      const { output, rc, before, after } = await play(c);
      const { expected } = c;
      expect(rc, output.slice(-400)).toBe(0);
      // The protocol the terminal calls for, read back from the bytes.
      const picture = drawn(output);
      expect(picture?.protocol).toBe(expected.protocol);
      if (expected.wrapped !== undefined && expected.protocol !== 'text')
        expect(picture?.wrapped).toBe(expected.wrapped);
      // Placeholders exactly where the layer needs them: in the bytes (U=1) and on the screen.
      const start = pictureStart(output, expected.protocol);
      expect(start).toBeGreaterThan(0);
      const screen = await replay(output, start);
      const placeholdersInBytes = picture?.placements.some((p) => p.placeholders) ?? false;
      expect(placeholdersInBytes).toBe(expected.placeholders ?? false);
      if (expected.placeholders) {
        // A rectangle from the cursor's cell: as many rows and columns as the virtual placement says.
        const placement = picture?.placements.find((p) => p.placeholders);
        expect(screen.placeholderRows.length).toBe(placement?.rows);
        screen.placeholderRows.forEach((row, i) => {
          expect(row).toEqual({ y: screen.cursor.y + i, first: screen.cursor.x, count: placement?.columns });
        });
      } else expect(screen.placeholderRows).toEqual([]);
      // At the cursor: the line after the wrapper's PID line, first column.
      const pidLine = screen.lines.findIndex((l) => l.startsWith('PID='));
      expect(screen.cursor).toEqual({ x: 0, y: pidLine + 1 });
      // Well-formed: every kitty transmission's chunks end with m=0 (or are one), its pixels whole.
      const transmissions = kittyTransmissions(output);
      for (const t of transmissions) {
        if (t.chunks > 1) expect(t.lastMore).toBe('0');
        const f = t.keys.get('f');
        if (f === '32' || f === '24')
          expect(t.rgba.length).toBe(Number(t.keys.get('s')) * Number(t.keys.get('v')) * (f === '32' ? 4 : 3));
      }
      if (expected.protocol === 'kitty') expect(transmissions.length).toBeGreaterThan(0);
      if (expected.protocol === 'sixel') expect(output).toMatch(/\x1bP[\d;]*q"1;1;\d+;\d+[^\x1b]*\x1b(?:\x1b)?\\/);
      if (expected.shortLived !== undefined) {
        const hinted = kittyCommands(output).filter((k) => k.keys.get('N') === '1');
        if (expected.shortLived) expect(hinted.length).toBeGreaterThan(0);
        else expect(hinted).toEqual([]);
      }
      if (expected.kittyAnimation) {
        // One upload, frames added with a=f (X=1 and, for kitty 0.45-0.48, C=1: replaced, not
        // blended), every frame RGBA with transparent pixels left transparent (no alpha flattened).
        const frames = transmissions.filter((t) => t.keys.get('a') === 'f');
        expect(frames.length).toBeGreaterThanOrEqual(2);
        for (const t of [transmissions[0], ...frames]) {
          expect(t?.keys.get('f')).toBe('32');
          const rgba = t?.rgba ?? new Uint8Array();
          const alpha = rgba.filter((_, i) => i % 4 === 3);
          expect(alpha.some((a) => a === 0)).toBe(true);
          expect(alpha.some((a) => a === 255)).toBe(true);
        }
        for (const f of frames) expect([f.keys.get('X'), f.keys.get('C')]).toEqual(['1', '1']);
        expect(kittyCommands(output).some((k) => k.keys.get('a') === 'a' && k.keys.get('s') === '3')).toBe(true);
      }
      // Nothing leaks: no reply text on the screen (only the PID line, the picture and the wrapper's lines).
      const visible = screen.lines.filter(
        (l, y) => y !== pidLine && !l.includes(MARKER) && !/^left=\[/.test(l) && l.trim() !== '',
      );
      for (const line of visible) expect(line).not.toMatch(/[\x21-\x7e]/);
      expect(output).toMatch(/left=\[\]/);
      expect(after).toBe(before);
    },
    60_000,
  );
});
