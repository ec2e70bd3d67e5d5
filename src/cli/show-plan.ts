/**
 * The decisions of `termsight show` that need no I/O beyond the drawing plan (draw/plan.ts: which
 * protocol, which box, which options): which symbol sets the flag names, how a file name is shown,
 * how a failure reads, and what closes an interrupted picture.
 */

import type { Wrap } from '../core/primitives.js';
import { stripUnsafe } from '../core/sanitize.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import type { FrameHandle } from '../render/frame.js';
import { endFrame } from '../render/frame.js';
import { kittyDelete } from '../render/pixels/kitty.js';
import { isSymbolSetName, SYMBOL_SET_NAMES, type SymbolSetName } from '../render/text/symbols-glyphs.js';
import { UsageError } from './context.js';
import type { EscapeState } from './escape-state.js';

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
  /** The multiplexer the picture was wrapped for. */
  readonly wrap: Wrap;
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
  if (ctx.wrap && isGraphicsProtocol(ctx.protocol)) out += wrapForMultiplexer(ST, ctx.wrap);
  if (ctx.protocol === 'kitty') {
    // A chunked upload waits for its last chunk: send an empty one, then delete what arrived.
    out += wrapForMultiplexer('\x1b_Gm=0,q=2;\x1b\\', ctx.wrap);
    const imageId = ctx.handle?.imageId ?? ctx.imageId;
    if (imageId !== undefined) out += wrapForMultiplexer(kittyDelete(imageId), ctx.wrap);
    for (const id of ctx.imageIds ?? []) out += wrapForMultiplexer(kittyDelete(id), ctx.wrap);
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
