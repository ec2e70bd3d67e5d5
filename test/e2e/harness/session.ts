/**
 * One end-to-end session: start a terminal (and multiplexer) on the display, let it run the wrapper,
 * wait (bounded) for the wrapper's done-file, take a screenshot, read the screen's text, and collect
 * what the CLI wrote. Stopping is the caller's: everything runs in the `ProcessScope` it passes.
 */

import type { ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Readable } from 'node:stream';
import { childWindows, titleLines, type WindowTitles } from './garbage.js';
import { colourExtents, parsePpm, type RgbImage, terminalArea } from './pixels.js';
import type { ProcessScope } from './processes.js';
import { inSystem } from './system.js';
import {
  footConfig,
  footScript,
  GNOME_TERMINAL_SETTINGS,
  gnomeTerminalSettings,
  innerCommand,
  isTmux,
  konsoleSettings,
  konsoleText,
  MLTERM_FONTS,
  mltermFonts,
  moshScript,
  SCREEN_RC,
  SESSION_NAME,
  type SessionPaths,
  type Setup,
  terminalCommand,
  terminalEnv,
  textSource,
  xtermPrinterScript,
} from './terminals.js';
import { type Checkpoint, RESULT_FILES, type WrapperOptions, wrapperScript } from './wrapper.js';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What ran and what came out of one CLI command in the session. */
export interface CommandResult {
  readonly exitCode: number | null;
  readonly stdout: string | null;
  readonly stderr: string;
  /** Bytes found pending on the tty after the command ended (replies that leaked). */
  readonly leaked: Buffer;
}

/** What the harness saw at one moment: the screen, its text, the windows' titles, tmux's pane title. */
export interface Look {
  readonly screenshot: RgbImage;
  /** The screen's text, as the terminal or multiplexer itself reports it; null where it cannot. */
  readonly text: string | null;
  /** Every top-level X window's WM_NAME and _NET_WM_NAME. */
  readonly titles: WindowTitles;
  /** Inside tmux, `#{pane_title}`; else null. */
  readonly paneTitle: string | null;
}

/** Everything a session produced. */
export interface SessionResult {
  readonly paths: SessionPaths;
  /** The cleared screen before termsight ran, and the screen after `detect --json` (which printed nothing). */
  readonly looks: Readonly<Record<Checkpoint, Look>>;
  /** The window titles and pane title at the end, after `show`. */
  readonly finalTitles: WindowTitles;
  readonly finalPaneTitle: string | null;
  readonly detect: CommandResult;
  readonly show: CommandResult;
  readonly screenshot: RgbImage;
  /** The screen's text, as the terminal or multiplexer itself reports it; null where it cannot (GNU screen). */
  readonly text: string | null;
  /** Inside tmux: a second screenshot after `tmux refresh-client` redrew the whole pane; else null. */
  readonly refreshed: RgbImage | null;
  /**
   * With `movePane`: screenshots after a new pane was split off to the left of the picture's pane
   * (which moves right by `PANE_SHIFT` columns) and after the picture's pane was killed; else null.
   */
  readonly paneMoves: { readonly split: RgbImage; readonly killed: RgbImage } | null;
  /** From starting the terminal to the done-file. */
  readonly elapsedMs: number;
  /**
   * How long after the settling pause the end marker took to appear on the screen (0: at once),
   * null when it never did: a terminal or multiplexer that shows output late.
   */
  readonly lateMs: number | null;
}

/** How a session is run. */
export interface SessionOptions {
  readonly scope: ProcessScope;
  readonly display: string;
  readonly setup: Setup;
  /** A fresh directory for this session's files. */
  readonly dir: string;
  readonly cli: readonly string[];
  readonly image: string;
  readonly showArgs: readonly string[];
  readonly scrubbed: boolean;
  /** PATH for the terminal and the scrubbed CLI. */
  readonly path: string;
  /** How long the wrapper may take before the session fails. */
  readonly timeoutMs?: number;
  /** The root of the system whose programs run the terminal (system.ts); null: the machine's own. */
  readonly root?: string | null;
  /** Inside tmux: split a pane off to the left of the picture's pane, then kill the picture's pane (see `paneMoves`). */
  readonly movePane?: boolean;
}

/** How many columns the picture's pane moves right when `movePane` splits a pane off to its left: 39 and the border. */
export const PANE_SHIFT = 40;

/** Runs a program in the scope and collects its output, bounded by `timeoutMs`. */
export function runProgram(
  scope: ProcessScope,
  argv: readonly string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 10_000,
): Promise<{ code: number | null; stdout: Buffer; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = scope.spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    (child.stdout as Readable).on('data', (c: Buffer) => out.push(c));
    (child.stderr as Readable).on('data', (c: Buffer) => (err += c.toString()));
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // gone already
      }
      reject(new Error(`${argv.join(' ')} did not finish within ${timeoutMs} ms`));
    }, timeoutMs);
    child.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
  });
}

/** Takes a screenshot of the whole X screen and decodes it. */
export async function screenshot(scope: ProcessScope, display: string): Promise<RgbImage> {
  const shot = await runProgram(scope, ['import', '-display', display, '-window', 'root', '-depth', '8', 'ppm:-'], {
    ...process.env,
    DISPLAY: display,
  });
  if (shot.code !== 0) throw new Error(`import failed (${shot.code}): ${shot.stderr}`);
  return parsePpm(new Uint8Array(shot.stdout));
}

/**
 * A screenshot of a screen that has stopped changing: shots `stepMs` apart until two in a row are
 * the same (at most `tries`), so a terminal still painting (kitty's first frame, a sixel being
 * decoded, a loaded machine) is not mistaken for one that changed. Returns the last shot either way.
 */
export async function stableScreenshot(take: () => Promise<RgbImage>, stepMs = 300, tries = 8): Promise<RgbImage> {
  let last = await take();
  for (let i = 1; i < tries; i++) {
    await sleep(stepMs);
    const next = await take();
    if (
      Buffer.from(next.data.buffer, next.data.byteOffset, next.data.byteLength).equals(
        Buffer.from(last.data.buffer, last.data.byteOffset, last.data.byteLength),
      )
    )
      return next;
    last = next;
  }
  return last;
}

/**
 * A screenshot once `ready` holds (polled every 200 ms, at most `timeoutMs`) and the screen has
 * stopped changing: a terminal that paints late (kitty 0.41 starting on software OpenGL, a picture
 * tmux sends on later) is waited for, not judged half-drawn. Returns the shot and how long `ready`
 * took (null: it never held, and the last stable shot is returned for the judgement to fail on).
 */
export async function readyScreenshot(
  take: () => Promise<RgbImage>,
  ready: (image: RgbImage) => boolean,
  timeoutMs = 6000,
): Promise<{ image: RgbImage; waitedMs: number | null }> {
  const started = Date.now();
  for (let first = true; ; first = false) {
    const image = await take();
    if (ready(image)) return { image: await stableScreenshot(take), waitedMs: first ? 0 : Date.now() - started };
    if (Date.now() - started >= timeoutMs) return { image: await stableScreenshot(take), waitedMs: null };
    await sleep(200);
  }
}

/** Whether the terminal's white text area is on the screen. */
const terminalShown = (image: RgbImage) => terminalArea(image) !== null;

/** Whether the marker row the wrapper prints after `show` is on the screen (all that show printed came before it). */
const endMarkerShown = (image: RgbImage) => colourExtents(image).cyan.count > 0;

/** The file paths of a session in `dir`. */
export function sessionPaths(dir: string): SessionPaths {
  return {
    dir,
    wrapper: join(dir, 'wrapper.sh'),
    tmuxSocket: join(dir, 'tmux.sock'),
    screenDir: join(dir, 'screens'),
    screenRc: join(dir, 'screenrc'),
    xtermPrints: join(dir, 'xterm-prints'),
    xtermPrinter: join(dir, 'xterm-printer.sh'),
    kittySocket: join(dir, 'kitty.sock'),
    moshStarter: join(dir, 'mosh.sh'),
    alacrittySocket: join(dir, 'alacritty.sock'),
    footStarter: join(dir, 'foot.sh'),
    footConfig: join(dir, 'foot.ini'),
  };
}

/** Polls until `check` returns true or the time is up; returns whether it did. */
export async function waitFor(check: () => boolean, timeoutMs: number, stepMs = 50): Promise<boolean> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() >= until) return false;
    await sleep(stepMs);
  }
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function commandResult(dir: string, rc: string, err: string, leak: string, stdout: string | null): CommandResult {
  const code = readText(join(dir, rc));
  return {
    exitCode: code === null ? null : Number(code.trim()),
    stdout,
    stderr: readText(join(dir, err)) ?? '',
    leaked: existsSync(join(dir, leak)) ? readFileSync(join(dir, leak)) : Buffer.alloc(0),
  };
}

/**
 * Writes what the terminals and multiplexers of a session read (their settings under the session's
 * HOME, foot's and mosh's starters, screen's rc, xterm's printer script); returns that HOME.
 */
export function writeTerminalFiles(paths: SessionPaths): string {
  const home = join(paths.dir, 'home');
  mkdirSync(home, { recursive: true });
  mkdirSync(paths.screenDir, { recursive: true });
  mkdirSync(paths.xtermPrints, { recursive: true });
  writeFileSync(paths.xtermPrinter, xtermPrinterScript(paths.xtermPrints));
  chmodSync(paths.screenDir, 0o700); // screen refuses a socket directory others can read
  writeFileSync(paths.screenRc, SCREEN_RC);
  writeFileSync(paths.moshStarter, moshScript(paths.wrapper));
  const settings = {
    [GNOME_TERMINAL_SETTINGS]: gnomeTerminalSettings(),
    [MLTERM_FONTS]: mltermFonts(),
    ...konsoleSettings(),
  };
  for (const [file, content] of Object.entries(settings)) {
    mkdirSync(dirname(join(home, file)), { recursive: true });
    writeFileSync(join(home, file), content);
  }
  writeFileSync(paths.footConfig, footConfig());
  writeFileSync(paths.footStarter, footScript(paths));
  return home;
}

/** Runs one session; throws (with what the terminal said) when the wrapper never finishes. */
export async function runSession(options: SessionOptions): Promise<SessionResult> {
  const { scope, setup, dir } = options;
  const paths = sessionPaths(dir);
  const home = writeTerminalFiles(paths);
  const root = options.root ?? null;
  /** A program of the cell's system (tmux, screen, kitty), with the terminal's environment. */
  const run = (argv: readonly string[], timeoutMs = 5000) => runProgram(scope, inSystem(root, argv), env, timeoutMs);
  const wrapper: WrapperOptions = {
    dir,
    cli: options.cli,
    image: options.image,
    showArgs: options.showArgs,
    printScreen: textSource(setup) === 'print',
    saveKonsoleBus: textSource(setup) === 'konsole',
    ...(options.scrubbed ? { scrubbedEnv: { TERM: 'xterm-256color', HOME: home, PATH: options.path } } : {}),
  };
  writeFileSync(paths.wrapper, wrapperScript(wrapper));

  const env = terminalEnv(setup, paths, { display: options.display, home, path: options.path });
  const argv = inSystem(root, terminalCommand(setup, paths, innerCommand(setup, paths)));
  const started = Date.now();
  const terminal: ChildProcess = scope.spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let terminalErr = '';
  (terminal.stderr as Readable).on('data', (c: Buffer) => (terminalErr = (terminalErr + c.toString()).slice(-4000)));
  let exited: number | null | undefined;
  terminal.once('exit', (code) => (exited = code));

  const tmux = isTmux(setup);
  const tmuxCommand = (...args: string[]) => run(['tmux', '-S', paths.tmuxSocket, ...args]);
  // Let the terminal finish painting (kitty renders on its own clock; tmux redraws after output).
  const settle = () => sleep(setup.terminal === 'kitty' ? 900 : 600);
  const reach = async (file: string, what: string): Promise<void> => {
    const path = join(dir, file);
    const finished = await waitFor(() => existsSync(path) || exited !== undefined, options.timeoutMs ?? 30_000);
    adoptSessionProcesses(scope, paths);
    if (!existsSync(path)) {
      const why = exited !== undefined ? `the terminal exited (${exited})` : finished ? 'unknown' : 'timed out';
      throw new Error(
        `${argv[0]}: the wrapper did not reach ${what} (${why}); terminal stderr: ${terminalErr.trim() || '(none)'}; files in ${dir}`,
      );
    }
  };
  const looks: Partial<Record<Checkpoint, Look>> = {};
  for (const [index, name] of (['baseline', 'detect'] as const).entries()) {
    await reach(`at-${name}`, `checkpoint ${name}`);
    if (index === 0 && tmux) {
      const pid = await tmuxCommand('display-message', '-p', '#{pid}');
      scope.adopt(Number(pid.stdout.toString().trim()));
    }
    await settle();
    const { image: shot } = await readyScreenshot(() => screenshot(scope, options.display), terminalShown);
    writeFileSync(join(dir, `screen-${name}.ppm`), encodePpm(shot));
    looks[name] = {
      screenshot: shot,
      text: await screenText(run, setup, paths, index),
      titles: await windowTitles(scope, options.display),
      paneTitle: tmux ? await paneTitle(tmuxCommand) : null,
    };
    writeFileSync(join(dir, `go-${name}`), '');
  }
  await reach(RESULT_FILES.done, 'its end');
  const elapsedMs = Date.now() - started;

  await settle();
  const painted = await readyScreenshot(() => screenshot(scope, options.display), endMarkerShown);
  const image = painted.image;
  writeFileSync(join(dir, 'screen.ppm'), encodePpm(image));
  const text = await screenText(run, setup, paths, 2);
  const finalTitles = await windowTitles(scope, options.display);
  const finalPaneTitle = tmux ? await paneTitle(tmuxCommand) : null;
  let refreshed: RgbImage | null = null;
  if (tmux) {
    // A full redraw, as when the user switches windows and back: what tmux does not know of is lost.
    await tmuxCommand('refresh-client');
    await sleep(setup.terminal === 'kitty' ? 900 : 600);
    refreshed = await screenshot(scope, options.display);
    writeFileSync(join(dir, 'refreshed.ppm'), encodePpm(refreshed));
  }
  let paneMoves: SessionResult['paneMoves'] = null;
  if (tmux && options.movePane) {
    // The picture's pane moves right: a new pane (running nothing that prints) takes the left half.
    const pane = (await tmuxCommand('display-message', '-p', '-t', SESSION_NAME, '#{pane_id}')).stdout
      .toString()
      .trim();
    const split = await tmuxCommand(
      'split-window',
      '-h',
      '-b',
      '-l',
      String(PANE_SHIFT - 1),
      '-t',
      pane,
      'exec sleep 600',
    );
    if (split.code !== 0) throw new Error(`tmux split-window failed (${split.code}): ${split.stderr}`);
    await settle();
    const moved = await stableScreenshot(() => screenshot(scope, options.display));
    writeFileSync(join(dir, 'split.ppm'), encodePpm(moved));
    const kill = await tmuxCommand('kill-pane', '-t', pane);
    if (kill.code !== 0) throw new Error(`tmux kill-pane failed (${kill.code}): ${kill.stderr}`);
    await settle();
    const killed = await stableScreenshot(() => screenshot(scope, options.display));
    writeFileSync(join(dir, 'killed.ppm'), encodePpm(killed));
    paneMoves = { split: moved, killed };
  }

  const detect = commandResult(
    dir,
    RESULT_FILES.detectRc,
    RESULT_FILES.detectErr,
    RESULT_FILES.detectLeak,
    readText(join(dir, RESULT_FILES.detectJson)),
  );
  const show = commandResult(dir, RESULT_FILES.showRc, RESULT_FILES.showErr, RESULT_FILES.showLeak, null);
  return {
    paths,
    looks: looks as Record<Checkpoint, Look>,
    finalTitles,
    finalPaneTitle,
    detect,
    show,
    screenshot: image,
    text,
    refreshed,
    paneMoves,
    elapsedMs,
    lateMs: painted.waitedMs,
  };
}

/** Every top-level window's title properties, read with xwininfo and xprop (x11-utils). */
export async function windowTitles(scope: ProcessScope, display: string): Promise<WindowTitles> {
  const env = { ...process.env, DISPLAY: display };
  const list = await runProgram(scope, ['xwininfo', '-display', display, '-root', '-children'], env, 5000);
  if (list.code !== 0) throw new Error(`xwininfo failed (${list.code}): ${list.stderr}`);
  const out: Record<string, string[]> = {};
  for (const id of childWindows(list.stdout.toString('utf8'))) {
    const props = await runProgram(
      scope,
      ['xprop', '-display', display, '-id', id, 'WM_NAME', '_NET_WM_NAME'],
      env,
      5000,
    );
    const lines = props.code === 0 ? titleLines(props.stdout.toString('utf8')) : [];
    if (lines.length > 0) out[id] = lines;
  }
  return out;
}

/** Runs a program of the cell's system and collects its output (see runProgram). */
type Run = (argv: readonly string[], timeoutMs?: number) => ReturnType<typeof runProgram>;

/** tmux's `#{pane_title}` of the session's pane. */
async function paneTitle(tmux: (...args: string[]) => ReturnType<Run>): Promise<string> {
  const r = await tmux('display-message', '-p', '-t', SESSION_NAME, '#{pane_title}');
  if (r.code !== 0) throw new Error(`tmux display-message failed (${r.code}): ${r.stderr}`);
  return r.stdout.toString('utf8').replace(/\n$/, '');
}

/** The wrapper, and screen's daemon, run outside the terminal's process group: take them over by pid. */
function adoptSessionProcesses(scope: ProcessScope, paths: SessionPaths): void {
  const pid = readText(join(paths.dir, RESULT_FILES.pid));
  if (pid !== null) scope.adopt(Number(pid.trim()));
  if (existsSync(paths.screenDir)) {
    for (const name of readdirSync(paths.screenDir)) {
      const match = /^(\d+)\./.exec(name);
      if (match) scope.adopt(Number(match[1]));
    }
  }
}

/**
 * The screen's text as the terminal (or the multiplexer in it) reports it. `index` counts the looks
 * (0 baseline, 1 after detect, 2 the end): xterm printed its screen once for each.
 */
async function screenText(run: Run, setup: Setup, paths: SessionPaths, index: number): Promise<string | null> {
  switch (textSource(setup)) {
    case 'tmux': {
      const r = await run(['tmux', '-S', paths.tmuxSocket, 'capture-pane', '-p', '-t', SESSION_NAME]);
      return r.code === 0 ? r.stdout.toString('utf8') : null;
    }
    case 'hardcopy': {
      // screen 4.09's hardcopy keeps only the low byte of each character (a braille cell U+28FF comes
      // out as 0xFF), so the text after show cannot be judged; kept for a person to read, the
      // screenshot judges. Before show the screen holds no braille, and its hardcopy is exact.
      const file = join(paths.dir, `screen-hardcopy-${index}.txt`);
      await run(['screen', '-S', SESSION_NAME, '-X', 'hardcopy', file]);
      if (index === 2) return null;
      await waitFor(() => existsSync(file), 2000);
      return readText(file);
    }
    case 'kitty': {
      const r = await run(
        ['kitty', '@', '--to', `unix:${paths.kittySocket}`, 'get-text', '--extent', 'screen'],
        10_000,
      );
      return r.code === 0 ? r.stdout.toString('utf8') : null;
    }
    case 'konsole': {
      // The bus, service and object path the wrapper saved from Konsole's variables.
      const saved = readText(join(paths.dir, RESULT_FILES.konsoleBus));
      const [bus, service, session] = (saved ?? '').split('\n');
      if (!bus || !service || !session) return null;
      const r = await run([
        'dbus-send',
        `--bus=${bus}`,
        '--print-reply=literal',
        `--dest=${service}`,
        session,
        'org.kde.konsole.Session.getAllDisplayedText',
        'boolean:false',
      ]);
      return r.code === 0 ? konsoleText(r.stdout.toString('utf8')) : null;
    }
    case 'print': {
      // The terminal printed its screen when the wrapper sent `CSI i`; the printer command may still be writing.
      const file = join(paths.xtermPrints, `${index}.txt`);
      await waitFor(() => existsSync(file) && statSync(file).size > 0, 2000);
      return readText(file);
    }
    case null:
      return null;
  }
}

/** Encodes an RGB image as a binary PPM (kept next to the session's files for a person to look at). */
export function encodePpm(image: RgbImage): Uint8Array {
  const header = Buffer.from(`P6\n${image.width} ${image.height}\n255\n`, 'latin1');
  return Buffer.concat([header, Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength)]);
}
