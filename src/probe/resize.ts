/**
 * Following the terminal's size: a pure reducer, as the probe's. A resize or a font-size change
 * (SIGWINCH, or the terminal's in-band report while DECSET 2048 is on) leads to a new size in
 * cells and a re-read cell size in pixels (`CSI 16 t`, then `CSI 14 t` over the cells, with DA1 as
 * the sentinel), told to the application as a `resize` action when something changed. The
 * terminal's own answer wins over the window size the kernel holds (TIOCGWINSZ's pixels are 0
 * over some ssh servers and 640x480 for any window over Win32-OpenSSH); those pixels count only
 * when the terminal said nothing. Keys that arrive meanwhile come out as `keys`, in order; replies
 * never do. The Node side is resize-watch.ts. See docs/probe.md, "Following resizes".
 */
import { identify } from '../terminals/identify.js';
import { supports, terminalByReplyName } from '../terminals/lookup.js';
import { replyKey } from './asks.js';
import { CELL_PIXELS_RANGE } from './classify.js';
import { parseReply, type Reply } from './replies.js';
import { createScanner, flushScanner, holdsReply, releaseInput, type ScannerState, scanReplies } from './scanner.js';

/** A size in pixels. */
export interface PixelSize {
  readonly width: number;
  readonly height: number;
}

/** The terminal's size as the application should use it. */
export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
  /** One cell in pixels, or null when nothing said. */
  readonly cellPixels: PixelSize | null;
  /** What gave the cell size: the in-band report, a reply (`16 t`/`14 t`), the kernel's window pixels, or the size before. */
  readonly source: 'in-band' | 'reply' | 'window' | 'unchanged';
}

/** The window as the kernel holds it (TIOCGWINSZ): cells, and pixels when the platform gives them. */
export interface WindowSize {
  readonly columns: number;
  readonly rows: number;
  /** `ws_xpixel` x `ws_ypixel`; null or 0 when unknown (Node's own tty gives no pixels). */
  readonly pixels?: PixelSize | null;
}

/** What happens to the watch. */
export type ResizeEvent =
  /** Starts watching; `inBand`: turn on the terminal's in-band reports (DECSET 2048). */
  | {
      readonly type: 'start';
      readonly nowMs: number;
      readonly window: WindowSize;
      readonly cellPixels: PixelSize | null;
      readonly inBand: boolean;
    }
  /** SIGWINCH: the kernel's window size changed (cells, or only pixels: a font-size change). */
  | { readonly type: 'winch'; readonly nowMs: number; readonly window: WindowSize }
  /** Bytes from the terminal: replies, in-band reports and the user's keys, mixed. */
  | { readonly type: 'input'; readonly nowMs: number; readonly bytes: Uint8Array }
  /** Time passed (the reducer asked for it with `resizeNextTickAt`). */
  | { readonly type: 'clock'; readonly nowMs: number }
  /** Stops watching. */
  | { readonly type: 'stop'; readonly nowMs: number };

/** What the driver does. */
export type ResizeAction =
  | { readonly type: 'write'; readonly bytes: string }
  /** The user's keys, in order, for the application. */
  | { readonly type: 'keys'; readonly bytes: Uint8Array }
  /** The size changed: tell the application. */
  | { readonly type: 'resize'; readonly size: TerminalSize };

/** The reducer's state: an immutable value. */
export interface ResizeState {
  readonly scanner: ScannerState;
  readonly inBand: boolean;
  /** Whether the terminal has sent an in-band report (proof it has them: a SIGWINCH then needs no query). */
  readonly inBandSeen: boolean;
  /** The query in flight: when it went out and the replies so far; null when none. */
  readonly asking: { readonly sinceMs: number; readonly replies: readonly Reply[] } | null;
  /** A SIGWINCH came while asking: ask once more after this answer. */
  readonly again: boolean;
  readonly window: WindowSize;
  /** The size last told (or the starting one). */
  readonly size: TerminalSize;
  /** When a partial key sequence (a lone ESC) started being held, or null. */
  readonly heldSinceMs: number | null;
  /** A query given up on before its sentinel: its replies may still come until then (ms), or null. */
  readonly outstandingUntilMs: number | null;
  readonly stopped: boolean;
  readonly options: Required<ResizeOptions>;
}

/** Tuning. */
export interface ResizeOptions {
  /** How long to wait for the query's sentinel before going on with what came (default 1000 ms). */
  readonly budgetMs?: number;
  /** How long a partial key sequence (a lone ESC) is held for its rest before it goes out as keys (default 25 ms). */
  readonly holdMs?: number;
}

/** The query: the cell in pixels, the text area in pixels, and DA1 as the sentinel. */
export const SIZE_QUERY = '\x1b[16t\x1b[14t\x1b[c';
/** In-band resize reports on and off (DECSET/DECRST 2048). */
export const IN_BAND_ON = '\x1b[?2048h';
export const IN_BAND_OFF = '\x1b[?2048l';

/**
 * Whether a terminal (the report's name and version) sends in-band resize reports, by the
 * database's `inBandResize` fact. Not behind a multiplexer: the caller passes null then.
 *
 * @example reportsSizeInBand('kitty', '0.36.0') // true
 */
export function reportsSizeInBand(name: string | null, version: string | null): boolean {
  if (name === null) return false;
  const row = terminalByReplyName(name) ?? identify({ env: { TERM_PROGRAM: name } })?.row;
  return row !== undefined && supports(row, 'inBandResize', version);
}

/**
 * Parses an in-band size report, `CSI 48 ; rows ; columns ; height px ; width px t` (sub-parameters
 * after `:` ignored, as the specification asks); null for anything else.
 *
 * @example parseSizeReport('\x1b[48;24;80;480;800t') // { rows: 24, columns: 80, pixels: { width: 800, height: 480 } }
 */
export function parseSizeReport(text: string): { rows: number; columns: number; pixels: PixelSize } | null {
  const m = /^\x1b\[48;(\d{1,5})(?::[\d:]*)?;(\d{1,5})(?::[\d:]*)?;(\d{1,6})(?::[\d:]*)?;(\d{1,6})(?::[\d:]*)?t$/.exec(
    text,
  );
  if (!m) return null;
  return { rows: Number(m[1]), columns: Number(m[2]), pixels: { width: Number(m[4]), height: Number(m[3]) } };
}

function saneCell(cell: PixelSize): boolean {
  const { min, max } = CELL_PIXELS_RANGE;
  return cell.width >= min && cell.width <= max && cell.height >= min && cell.height <= max;
}

/** A cell from a text area's pixels over its cells, when both are known and the result is plausible. */
function cellOf(pixels: PixelSize | null | undefined, columns: number, rows: number): PixelSize | null {
  if (!pixels || columns <= 0 || rows <= 0 || pixels.width <= 0 || pixels.height <= 0) return null;
  const cell = { width: Math.floor(pixels.width / columns), height: Math.floor(pixels.height / rows) };
  return saneCell(cell) ? cell : null;
}

/** Win32-OpenSSH's TIOCGWINSZ pixels for any window: not a measurement. */
const WIN32_OPENSSH_PIXELS: PixelSize = { width: 640, height: 480 };

/**
 * The cell size after a resize, by precedence: the terminal's `16 t` reply, its `14 t` text area
 * over the window's cells, the kernel's window pixels (unless 0 or Win32-OpenSSH's fixed
 * 640x480), the size before. Exported for its table test.
 *
 * @example resizedCell([], { columns: 80, rows: 24, pixels: { width: 640, height: 480 } }, { width: 9, height: 18 }) // kept: { width: 9, height: 18 }, 'unchanged'
 */
export function resizedCell(
  replies: readonly Reply[],
  window: WindowSize,
  before: PixelSize | null,
): { cellPixels: PixelSize | null; source: TerminalSize['source'] } {
  const ops = replies.filter((r): r is Extract<Reply, { type: 'windowOps' }> => r.type === 'windowOps');
  const sixteen = [...ops].reverse().find((r) => r.code === 6);
  if (sixteen && saneCell({ width: sixteen.b, height: sixteen.a }))
    return { cellPixels: { width: sixteen.b, height: sixteen.a }, source: 'reply' };
  const fourteen = [...ops].reverse().find((r) => r.code === 4);
  const fromArea = fourteen ? cellOf({ width: fourteen.b, height: fourteen.a }, window.columns, window.rows) : null;
  if (fromArea) return { cellPixels: fromArea, source: 'reply' };
  const px = window.pixels;
  const fixed = px?.width === WIN32_OPENSSH_PIXELS.width && px?.height === WIN32_OPENSSH_PIXELS.height;
  const fromWindow = fixed ? null : cellOf(px, window.columns, window.rows);
  if (fromWindow) return { cellPixels: fromWindow, source: 'window' };
  return { cellPixels: before, source: 'unchanged' };
}

const DEFAULTS: Required<ResizeOptions> = { budgetMs: 1000, holdMs: 25 };

/**
 * A watch before its start event.
 *
 * @example let [state, actions] = stepResize(createResize(), { type: 'start', nowMs: 0, window, cellPixels, inBand: true })
 */
export function createResize(options: ResizeOptions = {}): ResizeState {
  return {
    scanner: createScanner(),
    inBand: false,
    inBandSeen: false,
    asking: null,
    again: false,
    window: { columns: 0, rows: 0 },
    size: { columns: 0, rows: 0, cellPixels: null, source: 'unchanged' },
    heldSinceMs: null,
    outstandingUntilMs: null,
    stopped: false,
    options: { ...DEFAULTS, ...options },
  };
}

/** When the reducer next needs a `clock` event (null: not until something happens). */
export function resizeNextTickAt(state: ResizeState): number | null {
  if (state.stopped) return null;
  const times = [
    state.asking ? state.asking.sinceMs + state.options.budgetMs : null,
    state.heldSinceMs !== null ? state.heldSinceMs + state.options.holdMs : null,
    state.outstandingUntilMs,
  ].filter((t): t is number => t !== null);
  return times.length === 0 ? null : Math.min(...times);
}

/**
 * Whether the watch needs the terminal's input now (raw mode, reading): while in-band reports are
 * on, while a query is out (or its replies may still come), while a partial key is held. The rest
 * of the time it leaves the input alone, so an idle watch neither holds raw mode nor keeps the
 * process alive.
 */
export function resizeNeedsInput(state: ResizeState): boolean {
  return (
    !state.stopped &&
    (state.inBand || state.asking !== null || state.outstandingUntilMs !== null || state.heldSinceMs !== null)
  );
}

function sameSize(a: TerminalSize, b: TerminalSize): boolean {
  return (
    a.columns === b.columns &&
    a.rows === b.rows &&
    a.cellPixels?.width === b.cellPixels?.width &&
    a.cellPixels?.height === b.cellPixels?.height
  );
}

/** A new size: told when it differs from the last one. */
function tell(state: ResizeState, size: TerminalSize, actions: ResizeAction[]): ResizeState {
  if (sameSize(state.size, size)) return state;
  actions.push({ type: 'resize', size });
  return { ...state, size };
}

function ask(state: ResizeState, nowMs: number, actions: ResizeAction[]): ResizeState {
  actions.push({ type: 'write', bytes: SIZE_QUERY });
  return { ...state, asking: { sinceMs: nowMs, replies: [] }, again: false };
}

/**
 * The query is answered (or its time is up: its replies may still come for another budget, and
 * are swallowed): the size from what came, then another query if one was wanted.
 */
function answered(state: ResizeState, nowMs: number, actions: ResizeAction[], timedOut: boolean): ResizeState {
  const replies = state.asking?.replies ?? [];
  const { cellPixels, source } = resizedCell(replies, state.window, state.size.cellPixels);
  const outstandingUntilMs = timedOut ? nowMs + state.options.budgetMs : null;
  let next = tell(
    { ...state, asking: null, outstandingUntilMs },
    { columns: state.window.columns, rows: state.window.rows, cellPixels, source },
    actions,
  );
  if (state.again) next = ask(next, nowMs, actions);
  return next;
}

function onReply(state: ResizeState, reply: Reply | null, text: string, nowMs: number, actions: ResizeAction[]) {
  const report = parseSizeReport(text);
  if (report) {
    // The terminal's own report: cells and pixels at once, no query needed.
    const window: WindowSize = { columns: report.columns, rows: report.rows, pixels: report.pixels };
    const cell = cellOf(report.pixels, report.columns, report.rows);
    return tell(
      { ...state, window, inBandSeen: true },
      {
        columns: report.columns,
        rows: report.rows,
        cellPixels: cell ?? state.size.cellPixels,
        source: cell ? 'in-band' : 'unchanged',
      },
      actions,
    );
  }
  // Not asking: a late reply (or someone else's), swallowed.
  if (reply?.type === 'da1' && !state.asking && state.outstandingUntilMs !== null)
    return { ...state, outstandingUntilMs: null };
  if (!state.asking || reply === null) return state;
  if (reply.type === 'da1') return answered(state, nowMs, actions, false);
  return { ...state, asking: { ...state.asking, replies: [...state.asking.replies, reply] } };
}

/** The answer keys of what the watch asks (`16 t`, `14 t`, DA1) and of the in-band report (`48 t`). */
const RESIZE_KEYS: ReadonlySet<string> = new Set(['t:6', 't:4', 'da1', 't:48']);

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += String.fromCharCode(b);
  return out;
}

function onInput(state: ResizeState, bytes: Uint8Array, nowMs: number, actions: ResizeAction[]): ResizeState {
  const scanned = scanReplies(state.scanner, bytes);
  let next: ResizeState = { ...state, scanner: scanned.state };
  for (const token of scanned.tokens) {
    if (token.type === 'input') actions.push({ type: 'keys', bytes: token.bytes });
    else if (!RESIZE_KEYS.has(replyKey(token) ?? '')) {
      // A reply to a query the watch did not send (the application's own): on to the application.
      actions.push({ type: 'keys', bytes: token.bytes });
    } else next = onReply(next, parseReply(token), latin1(token.bytes), nowMs, actions);
  }
  const holding = next.scanner.held.length > 0 && !holdsReply(next.scanner);
  return { ...next, heldSinceMs: holding ? (state.heldSinceMs ?? nowMs) : null };
}

/**
 * One step: the next state and what to do.
 *
 * @example stepResize(state, { type: 'winch', nowMs: 5, window: { columns: 100, rows: 30 } })
 */
export function stepResize(state: ResizeState, event: ResizeEvent): [ResizeState, ResizeAction[]] {
  const actions: ResizeAction[] = [];
  if (state.stopped) return [state, actions];
  switch (event.type) {
    case 'start': {
      const size: TerminalSize = {
        columns: event.window.columns,
        rows: event.window.rows,
        cellPixels: event.cellPixels,
        source: 'unchanged',
      };
      // On DECSET 2048 the terminal reports its size at once: the cell size is fresh from the start.
      if (event.inBand) actions.push({ type: 'write', bytes: IN_BAND_ON });
      return [{ ...state, inBand: event.inBand, window: event.window, size }, actions];
    }
    case 'winch': {
      const next = { ...state, window: event.window };
      // A terminal that has shown it reports in band needs no question: its report is on its way.
      if (state.inBand && state.inBandSeen) return [next, actions];
      if (state.asking) return [{ ...next, again: true }, actions];
      return [ask(next, event.nowMs, actions), actions];
    }
    case 'input':
      return [onInput(state, event.bytes, event.nowMs, actions), actions];
    case 'clock': {
      let next = state;
      if (next.heldSinceMs !== null && event.nowMs >= next.heldSinceMs + next.options.holdMs) {
        const released = releaseInput(next.scanner);
        for (const token of released.tokens)
          if (token.type === 'input') actions.push({ type: 'keys', bytes: token.bytes });
        next = { ...next, scanner: released.state, heldSinceMs: null };
      }
      if (next.outstandingUntilMs !== null && event.nowMs >= next.outstandingUntilMs)
        next = { ...next, outstandingUntilMs: null };
      if (next.asking && event.nowMs >= next.asking.sinceMs + next.options.budgetMs)
        next = answered(next, event.nowMs, actions, true);
      return [next, actions];
    }
    case 'stop': {
      if (state.inBand) actions.push({ type: 'write', bytes: IN_BAND_OFF });
      const flushed = flushScanner(state.scanner);
      for (const token of flushed.tokens)
        if (token.type === 'input') actions.push({ type: 'keys', bytes: token.bytes });
      return [
        { ...state, scanner: flushed.state, stopped: true, asking: null, heldSinceMs: null, outstandingUntilMs: null },
        actions,
      ];
    }
  }
}
