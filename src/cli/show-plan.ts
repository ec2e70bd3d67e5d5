/**
 * The decisions of `termsight show` that need no I/O: which protocol, which box, which render
 * options, how a file name is shown, how a failure reads, and what closes an interrupted picture.
 */
import { stripUnsafe } from '../core/sanitize.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import { overrideDecision } from '../env/override.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import { type Env, envValue } from '../env/runtime.js';
import { DEFAULT_CELL_PIXELS } from '../render/backend.js';
import type { FrameHandle } from '../render/frame.js';
import { endFrame } from '../render/frame.js';
import type { RenderOptions } from '../render/options.js';
import { kittyDelete } from '../render/pixels/kitty.js';
import { kittyFileSink } from '../render/pixels/kitty-file.js';
import { isSymbolSetName, SYMBOL_SET_NAMES, type SymbolSetName } from '../render/text/symbols-glyphs.js';
import { inWholeCells, pictureWrap } from '../report/picture-wrap.js';
import { choosePicture, textColor } from '../report/text-picture.js';
import type { Report } from '../report/types.js';
import { UsageError } from './context.js';
import type { EscapeState } from './picture-writer.js';
import { type Length, lengthInCells } from './show-size.js';

/** The protocol `show` uses, what decided it, and the symbol sets a symbols picture draws with. */
export interface ProtocolChoice {
  readonly protocol: Protocol;
  readonly because: 'flag' | 'override' | 'off' | 'not-a-tty' | 'report' | 'no-graphics';
  /** `--symbols`, else the sets the report found safe on this terminal (block elements by default). */
  readonly symbols: readonly SymbolSetName[];
}

/**
 * Picks the protocol: `--protocol` > `TERMSIGHT_GRAPHICS=<protocol>` > `TERMSIGHT_GRAPHICS=off`
 * (no pixel protocols: the text picture) > stdout not a terminal (braille, or symbols when
 * `--symbols` names sets: text that survives a pipe or a file) > the report's `graphics` (braille
 * there becomes symbols when `--symbols` names sets) > the text picture. The text picture is
 * `choosePicture`'s: symbols where text has colour, braille where it has none.
 *
 * @example chooseProtocol({ env: {}, stdoutIsTTY: false, report }).protocol // 'braille'
 */
export function chooseProtocol(input: {
  readonly flag?: Protocol | undefined;
  readonly env: Env;
  readonly stdoutIsTTY: boolean;
  readonly report: Pick<Report, 'graphics' | 'symbols' | 'truecolor'>;
  /** The sets `--symbols` named. */
  readonly symbols?: readonly SymbolSetName[];
}): ProtocolChoice {
  const asked = input.symbols !== undefined && input.symbols.length > 0;
  const symbols: readonly SymbolSetName[] = asked
    ? (input.symbols as readonly SymbolSetName[])
    : input.report.symbols.length > 0
      ? input.report.symbols
      : ['block'];
  const text = (because: ProtocolChoice['because']): ProtocolChoice => ({
    protocol: choosePicture({
      pixel: null,
      colorDepth: textColor(input.env, input.report.truecolor),
      terminalSymbols: symbols,
      ...(asked ? { askedSymbols: symbols } : {}),
    }).protocol,
    because,
    symbols,
  });
  if (input.flag) return { protocol: input.flag, because: 'flag', symbols };
  const decision = overrideDecision(input.env);
  if (decision.decides)
    return decision.protocol !== null ? { protocol: decision.protocol, because: 'override', symbols } : text('off');
  if (!input.stdoutIsTTY) return { protocol: asked ? 'symbols' : 'braille', because: 'not-a-tty', symbols };
  const graphics = input.report.graphics;
  if (graphics === 'braille' && asked) return { protocol: 'symbols', because: 'report', symbols };
  if (graphics) return { protocol: graphics, because: 'report', symbols };
  return text('no-graphics');
}

/**
 * The symbol sets `--symbols` names: comma-separated set names (case and spaces ignored), or
 * undefined when the flag is absent; anything else is a UsageError listing the names.
 *
 * @example parseSymbolSets('block, sextant') // ['block', 'sextant']
 */
export function parseSymbolSets(text: string | undefined): SymbolSetName[] | undefined {
  if (text === undefined) return undefined;
  const names = text
    .split(',')
    .map((n) => n.trim().toLowerCase())
    .filter((n) => n !== '');
  const bad = names.find((n) => !isSymbolSetName(n));
  if (names.length === 0 || bad !== undefined) {
    throw new UsageError(
      `--symbols takes a comma-separated list of ${SYMBOL_SET_NAMES.join(', ')}, got ${JSON.stringify(text)}`,
    );
  }
  return names as SymbolSetName[];
}

function positiveInt(text: string | undefined): number | undefined {
  if (text === undefined || !/^\d+$/.test(text.trim())) return undefined;
  const n = Number(text.trim());
  return n > 0 ? n : undefined;
}

/**
 * The box a picture is fitted into, in cells: `--width`/`--height` when given, else the
 * terminal's columns and its rows minus 2 (room for the name line and the prompt), from the
 * stream's size, else `COLUMNS`/`LINES`, else 80x24.
 *
 * @example pictureBox({ terminal: { columns: 120, rows: 40 }, env: {} }) // { columns: 120, rows: 38 }
 */
export function pictureBox(input: {
  readonly width?: number | Length | undefined;
  readonly height?: number | Length | undefined;
  readonly terminal?: { readonly columns?: number | undefined; readonly rows?: number | undefined };
  readonly env: Env;
  /** The cell size, for lengths in pixels (default 10x20). */
  readonly cellPixels?: { readonly width: number; readonly height: number };
}): { columns: number; rows: number } {
  const columns = input.terminal?.columns || positiveInt(envValue(input.env, 'COLUMNS')) || 80;
  const rows = input.terminal?.rows || positiveInt(envValue(input.env, 'LINES')) || 24;
  const cell = input.cellPixels ?? DEFAULT_CELL_PIXELS;
  // A percentage is of the whole terminal; pixels are whole cells of the (measured or assumed) cell.
  const along = (length: number | Length | undefined, whole: number, side: number, otherwise: number): number =>
    length === undefined ? otherwise : typeof length === 'number' ? length : lengthInCells(length, whole, side);
  return {
    columns: along(input.width, columns, cell.width, columns),
    rows: along(input.height, rows, cell.height, Math.max(1, rows - 2)),
  };
}

// Shared with the Ink component and terminal-image, so it lives in compat/.
export { ITERM2_GIF_LIMIT, type NativeAnimation, nativeAnimation } from '../compat/native-animation.js';

/**
 * Render options from the report: cell size, sixel colour registers and transparency (painted on the
 * background where P2=1 is not honoured; whole cells where tmux draws sixel), passthrough (when the
 * report does not say it is off), placements, background, synchronized output, and the text
 * colour depth (none under `NO_COLOR`, 24-bit where the terminal has it, else 256).
 */
export function renderOptionsFor(report: Report, box: { columns: number; rows: number }, env: Env): RenderOptions {
  const mux = pictureWrap(report.multiplexer);
  return {
    columns: box.columns,
    rows: box.rows,
    ...(report.cellPixels ? { cellPixels: report.cellPixels } : {}),
    ...(report.sixelColors ? { sixelColors: report.sixelColors } : {}),
    ...(report.sixelTransparency ? {} : { sixelTransparency: false }),
    ...(inWholeCells(report.multiplexer) ? { wholeCells: true } : {}),
    ...(report.sixelWholeBands ? { wholeBands: true } : {}),
    ...(report.background ? { background: report.background.rgb } : {}),
    colorDepth: textColor(env, report.truecolor),
    multiplexer: mux,
    placements: report.placements,
    synchronizedOutput: report.synchronizedOutput,
    ...(report.kittyLocalFile ? { kittyFile: kittyFileSink() } : {}),
  };
}

/**
 * A file name made safe to print: control characters (escape sequences' ESC, newlines, C1) and
 * bidi overrides removed; `-` reads as `(stdin)`.
 *
 * @example displayName('evil\x1b]0;pwned\x07.png') // 'evil]0;pwned.png'
 */
export function displayName(name: string): string {
  if (name === '-') return '(stdin)';
  const clean = stripUnsafe(name);
  return clean === '' ? '(unnamed)' : clean;
}

/** The one stderr line for a file that could not be shown. */
export function failureLine(name: string, reason: string): string {
  // Line breaks and tabs become spaces so the reason stays on its one line; other controls go.
  return `termsight: ${displayName(name)}: ${stripUnsafe(reason.replace(/[\t\n\r]+/g, ' '))}\n`;
}

/** What to undo after a picture was cut short. */
export interface InterruptContext {
  readonly protocol: Protocol;
  readonly multiplexer: 'tmux' | 'screen' | null;
  readonly synchronizedOutput: boolean;
  /** The picture's frame, when it was drawn with `frame` (the cursor goes back to it and below). */
  readonly handle?: FrameHandle;
  /** kitty: the image id, when no handle carries it (the picture is deleted). */
  readonly imageId?: number;
  /** kitty: more images to delete (a grid row cut short: its pictures, whole or not). */
  readonly imageIds?: readonly number[];
}

const ST = '\x1b\\';

/**
 * The bytes that leave the terminal clean after output stopped in `state`: the open string
 * closed (and, behind a multiplexer, the one inside its passthrough too), kitty's unfinished
 * upload ended and the image deleted, SGR reset, synchronized output ended, the cursor put below
 * what was drawn and shown again.
 */
export function interruptTail(state: EscapeState, ctx: InterruptContext): string {
  let out = '';
  const inString = state.mode === 'string' || state.mode === 'string-esc';
  // The writer never stops inside these, but a caller's own writes might: finish them harmlessly
  // (ESC then backslash is ST; a CSI ended by 'm' is an SGR that the reset below undoes).
  if (state.mode === 'esc') out += '\\';
  if (state.mode === 'csi') out += 'm';
  if (inString) out += ST;
  if (ctx.multiplexer && isGraphicsProtocol(ctx.protocol)) out += wrapForMultiplexer(ST, ctx.multiplexer);
  if (ctx.protocol === 'kitty') {
    // A chunked upload waits for its last chunk: send an empty one, then delete what arrived.
    out += wrapForMultiplexer('\x1b_Gm=0,q=2;\x1b\\', ctx.multiplexer);
    const imageId = ctx.handle?.imageId ?? ctx.imageId;
    if (imageId !== undefined) out += wrapForMultiplexer(kittyDelete(imageId), ctx.multiplexer);
    for (const id of ctx.imageIds ?? []) out += wrapForMultiplexer(kittyDelete(id), ctx.multiplexer);
  }
  out += '\x1b[0m';
  if (ctx.synchronizedOutput) out += '\x1b[?2026l';
  // With a frame, the cursor was saved at its top-left: back there, then below it by count.
  // Without, the terminal moved the cursor as it drew (a sixel cut short by ST is finished where
  // it stopped): a new line goes below whatever was drawn.
  out += ctx.handle ? `\x1b8${endFrame(ctx.handle)}` : '\r\n';
  out += '\x1b[?25h';
  return out;
}
