/**
 * Drawing a picture once in the flow of text (`flow`), and again in the same place, for redraws
 * and animation (`frame`). Where the cursor ends, why tmux needs an anchor before each
 * passed-through sequence, and how each protocol redraws and clears: docs/render.md#flow-and-frame.
 */

import { positiveInteger } from '../core/positive-integer.js';
import type { Wrap } from '../core/primitives.js';
import type { Raster } from '../core/raster.js';
import { validateRaster } from '../core/raster.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import {
  cursorForward,
  draw,
  drawsExactPixels,
  fittedRaster,
  indentLines,
  layout,
  reachRows,
  usesPlaceholders,
} from './backend.js';
import { MAX_CELLS } from './geometry/limits.js';
import { type RenderOptions, wrapOf } from './options.js';
import { kittyDelete, kittyImageId, kittyPlace, kittySequences } from './pixels/kitty.js';

/** What `frame` remembers between frames. */
export interface FrameHandle {
  readonly protocol: Protocol;
  readonly columns: number;
  readonly rows: number;
  /** kitty: the image id every frame uses. */
  readonly imageId?: number;
  /** kitty with placements: fingerprint of the stored pixels. */
  readonly stored?: number;
  readonly placeholders: boolean;
  /** The multiplexer every sequence was wrapped for (`RenderOptions.wrap`); absent: none. */
  readonly wrap?: Wrap;
  /** @deprecated The old name of `wrap` (read when `wrap` is absent). */
  readonly multiplexer?: Wrap;
  /** Columns from where the first frame started to the picture's left edge (`align`). Default 0. */
  readonly offset?: number;
}

/** Options for `frame`. */
export interface FrameOptions extends RenderOptions {
  /** The handle the previous frame returned; absent for the first frame. */
  readonly previous?: FrameHandle | undefined;
  /** First frame only: make room with newlines first. Default true; false draws at the cursor as it is. */
  readonly reserve?: boolean;
}

/** A frame's bytes and the handle for the next one. */
export interface FrameResult {
  readonly output: string;
  readonly handle: FrameHandle;
}

const SAVE = '\x1b7';
const RESTORE = '\x1b8';
const SYNC_ON = '\x1b[?2026h';
const SYNC_OFF = '\x1b[?2026l';
/**
 * Inside tmux, before each passed-through sequence: erase one character at the cursor, which tmux
 * must carry out on the outer terminal at once, leaving its cursor at the pane's (module notes).
 */
export const TMUX_ANCHOR = '\x1b[1X';
/** Default background for the anchor's erase (tmux would write a space on a terminal without bce). */
const DEFAULT_BACKGROUND = '\x1b[49m';
/** Placement id used for frames, so each placement replaces the last. */
const FRAME_PLACEMENT = 1;

/** FNV-1a over the size and pixels: tells whether a frame repeats the stored one. */
function fingerprint(raster: Raster): number {
  let h = 0x811c9dc5 ^ raster.width;
  h = Math.imul(h, 0x01000193) ^ raster.height;
  const d = raster.data;
  if (d.byteOffset % 4 === 0) {
    const words = new Uint32Array(d.buffer, d.byteOffset, d.length >>> 2);
    for (let i = 0; i < words.length; i++) h = Math.imul(h ^ words[i], 0x01000193);
  } else {
    for (let i = 0; i < d.length; i++) h = Math.imul(h ^ d[i], 0x01000193);
  }
  return h >>> 0;
}

/**
 * Sequences wrapped for the multiplexer, to be drawn at the cursor: inside tmux each one after
 * `TMUX_ANCHOR` (background reset first; the caller restores the cursor and attributes after).
 * Inside GNU screen the outer terminal's own cursor is saved and restored inside the packets too:
 * screen never sees the picture move it, so its own restore would not move it back (measured:
 * the text after a sixel landed the picture's height too low).
 */
function passedThrough(sequences: readonly string[], multiplexer: Wrap): string {
  if (multiplexer === 'screen' && sequences.length > 0)
    return wrapForMultiplexer([SAVE, ...sequences, RESTORE], multiplexer);
  if (multiplexer !== 'tmux' || sequences.length === 0) return wrapForMultiplexer(sequences, multiplexer);
  return (
    DEFAULT_BACKGROUND + sequences.map((sequence) => TMUX_ANCHOR + wrapForMultiplexer(sequence, multiplexer)).join('')
  );
}

/** Lines written one under another from the saved cursor position. */
function linesInPlace(lines: readonly string[]): string {
  let out = '';
  for (let r = 0; r < lines.length; r++) out += (r === 0 ? '' : `${RESTORE}\x1b[${r}B`) + lines[r];
  return out;
}

/**
 * One frame: the bytes that draw `raster` at the picture's place, and the handle to pass as
 * `previous` next time. A change of protocol or size clears the previous picture first.
 *
 * @example
 * let handle; for (const r of rasters) { const f = frame(r, 'kitty', { placements: true, previous: handle }); write(f.output); handle = f.handle }
 * write(endFrame(handle))
 */
export function frame(raster: Raster, protocol: Protocol, options: FrameOptions = {}): FrameResult {
  const multiplexer = wrapOf(options);
  let previous = options.previous;
  const placeholders = usesPlaceholders(protocol, options);
  const imageId = options.imageId ?? previous?.imageId;
  const base: RenderOptions = { ...options, imageId, keepCursor: true };
  let out = '';

  let body: string;
  let handle: FrameHandle;
  if (protocol === 'kitty' && options.placements === true && !placeholders) {
    validateRaster(raster);
    const lay = layout(raster, protocol, base);
    const fitted = fittedRaster(raster, lay);
    const id = imageId ?? kittyImageId();
    const print = fingerprint(fitted);
    const cells = { columns: lay.columns, rows: lay.rows };
    if (
      previous &&
      (previous.protocol !== protocol || previous.columns !== cells.columns || previous.rows !== cells.rows)
    ) {
      out += clearFrame(previous);
      previous = undefined;
    }
    const sequences: string[] = [];
    if (previous?.stored !== print || previous.imageId !== id)
      sequences.push(
        ...kittySequences(
          fitted,
          {
            imageId: id,
            ...(options.kittyFile ? { file: options.kittyFile } : {}),
            ...(options.kittyShortLived ? { shortLived: true } : {}),
          },
          't',
        ),
      );
    const exact = drawsExactPixels(protocol, base);
    sequences.push(kittyPlace(id, { placementId: FRAME_PLACEMENT, ...(exact ? {} : cells), keepCursor: true }));
    body = passedThrough(sequences, multiplexer);
    handle = {
      protocol,
      ...cells,
      imageId: id,
      stored: print,
      placeholders: false,
      wrap: multiplexer,
      ...(lay.offset ? { offset: lay.offset } : {}),
    };
  } else {
    const d = draw(raster, protocol, base);
    const cells = { columns: d.layout.columns, rows: reachRows(d.layout, protocol, options) };
    if (
      previous &&
      (previous.protocol !== protocol || previous.columns !== cells.columns || previous.rows !== cells.rows)
    ) {
      out += clearFrame(previous);
      previous = undefined;
    }
    // Kitty's placeholder upload (`U=1`) is placed by the cells that follow, not at the cursor.
    body =
      (placeholders ? wrapForMultiplexer(d.sequences, multiplexer) : passedThrough(d.sequences, multiplexer)) +
      linesInPlace(d.lines);
    handle = {
      protocol,
      ...cells,
      ...(d.imageId !== undefined ? { imageId: d.imageId } : {}),
      placeholders,
      wrap: multiplexer,
      ...(d.layout.offset ? { offset: d.layout.offset } : {}),
    };
  }

  const started = options.previous !== undefined;
  if (!previous && options.reserve !== false) out += `\r${'\n'.repeat(handle.rows)}\x1b[${handle.rows}A`;
  // The cursor is at the previous picture's left edge (or where the first frame started): move to this one's.
  const shift = (handle.offset ?? 0) - (started ? (options.previous?.offset ?? 0) : 0);
  out += shift > 0 ? cursorForward(shift) : shift < 0 ? `\x1b[${-shift}D` : '';
  const framed = SAVE + body + RESTORE;
  out += options.synchronizedOutput ? SYNC_ON + framed + SYNC_OFF : framed;
  return { output: out, handle };
}

/**
 * The bytes that remove a picture drawn by `frame` (the cursor at its top-left, as `frame`
 * leaves it): delete by id for kitty, erase the cells for everything else (and for kitty's
 * placeholder cells).
 *
 * @example write(clearFrame(handle))
 */
export function clearFrame(handle: FrameHandle): string {
  checkHandle(handle);
  let out = '';
  if (handle.protocol === 'kitty' && handle.imageId !== undefined)
    out += wrapForMultiplexer(kittyDelete(handle.imageId), wrapOf(handle));
  if (handle.protocol !== 'kitty' || handle.placeholders) {
    const erase = `\x1b[${handle.columns}X`;
    out += SAVE + linesInPlace(Array.from({ length: handle.rows }, () => erase)) + RESTORE;
  }
  return out;
}

/**
 * Moves the cursor from the picture's top-left to the start of the line below it, to go on
 * writing after an animation.
 *
 * @example write(endFrame(handle))
 */
export function endFrame(handle: FrameHandle): string {
  checkHandle(handle);
  return `${handle.rows > 1 ? `\x1b[${handle.rows - 1}B` : ''}\r\n`;
}

/** A handle is the caller's to keep: its sizes are checked before anything is built from them. */
function checkHandle(handle: FrameHandle): void {
  positiveInteger(handle.columns, 'handle columns', MAX_CELLS);
  positiveInteger(handle.rows, 'handle rows', MAX_CELLS);
}

/** What `flow` returns. */
export interface FlowResult {
  /** The bytes: the picture at the cursor, then the cursor at the start of the line below it. */
  readonly output: string;
  /**
   * Who moves the cursor past the picture: 'terminal' (the terminal, as it draws; text lines),
   * or 'counted' (rows counted, behind a multiplexer that does not see the picture).
   */
  readonly cursor: 'terminal' | 'counted';
  /** With 'counted': the frame drawn (the cursor is restored to its top-left and moved below by its rows). */
  readonly handle?: FrameHandle;
  /** The kitty image id used, if any (to delete the picture, or an upload cut short). */
  readonly imageId?: number;
}

/** A new line from wherever a picture left the cursor: CR too, as the cursor may be right of it. */
const NEXT_LINE = '\r\n';

/**
 * A picture drawn once at the cursor, the cursor left at the start of the line below its last
 * pixel row (see the module's notes for what each terminal does).
 *
 * @example process.stdout.write(flow(raster, 'sixel', { columns: 40, rows: 20 }).output + 'next line')
 */
export function flow(raster: Raster, protocol: Protocol, options: RenderOptions = {}): FlowResult {
  const multiplexer = wrapOf(options);
  if (multiplexer !== null && isGraphicsProtocol(protocol) && !usesPlaceholders(protocol, options)) {
    const drawn = frame(raster, protocol, { ...options, synchronizedOutput: false, reserve: true });
    return {
      output: drawn.output + endFrame(drawn.handle),
      cursor: 'counted',
      handle: drawn.handle,
      ...(drawn.handle.imageId !== undefined ? { imageId: drawn.handle.imageId } : {}),
    };
  }
  // kitty must move the cursor (no C=1); text rows end with LF as plain text does (a pipe gets no CR).
  const d = draw(raster, protocol, { ...options, keepCursor: false });
  // Pixel pictures start right of the cursor; text lines (and kitty's placeholder cells) are indented.
  const body =
    (d.lines.length === 0 ? cursorForward(d.layout.offset ?? 0) : '') + wrapForMultiplexer(d.sequences, multiplexer);
  const lines = indentLines(d.lines, d.layout.offset ?? 0);
  const output = lines.length > 0 ? body + lines.map((line) => `${line}\n`).join('') : body + NEXT_LINE;
  return { output, cursor: 'terminal', ...(d.imageId !== undefined ? { imageId: d.imageId } : {}) };
}
