/**
 * iTerm2 inline images (https://iterm2.com/documentation-images.html): OSC 1337 `File=` with
 * the picture as a base64 PNG. An inline image is made of cells, so it scrolls, is overwritten
 * by text and goes away with the screen it was drawn on: clearing it means clearing those cells.
 *
 * A single sequence (`File=inline=1;…:<base64>` BEL) is used unless a multiplexer sits in
 * between or the base64 is longer than `ITERM2_SINGLE_LIMIT`; then the multipart form
 * (`MultipartFile=…` BEL, `FilePart=<chunk>` BEL…, `FileEnd` BEL, iTerm2 3.5+) keeps each
 * sequence small enough for tmux and screen to pass through.
 */

import { positiveInteger } from '../../core/positive-integer.js';
import type { Raster } from '../../core/raster.js';
import { stripControls } from '../../core/sanitize.js';
import { encodePng } from './png.js';

/** Base64 length above which the multipart form is used even without a multiplexer (1 MiB). */
export const ITERM2_SINGLE_LIMIT = 1 << 20;

/** Base64 characters in one `FilePart` (a multiple of 4, so every part decodes on its own). */
export const ITERM2_PART_BYTES = 4096;

/** Options for the iTerm2 encoder. */
export interface Iterm2Options {
  /** Width and height in cells (`width=N;height=N`); default: the image's own pixel size. */
  readonly columns?: number;
  readonly rows?: number;
  /**
   * Width and height in pixels (`width=Npx;height=Npx`), instead of cells: the picture drawn 1:1
   * when these are its own pixels. Default: cells.
   */
  readonly pixels?: { readonly width: number; readonly height: number };
  /** Use the multipart form: true, false, or 'auto' (default: when `multiplexer` or the payload is large). */
  readonly multipart?: boolean | 'auto';
  /** A multiplexer in between (makes 'auto' choose multipart). */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /** A file name to pass (`name=`), sanitized and base64-encoded; default none. */
  readonly name?: string;
}

/**
 * A file name made safe to send: control characters (C0, DEL, C1) and path separators removed,
 * at most 255 characters; '' when nothing is left.
 */
export function sanitizeName(name: string): string {
  const cleaned = stripControls(name).replace(/[/\\]/g, '').trim();
  return Array.from(cleaned).slice(0, 255).join('');
}

function cells(value: number | undefined, what: string): number | undefined {
  return value === undefined ? undefined : positiveInteger(value, `iTerm2 ${what}`);
}

/** The `key=value;…` arguments shared by both forms. */
function fileArgs(size: number, options: Iterm2Options): string {
  const args = ['inline=1', `size=${size}`];
  const name = options.name === undefined ? '' : sanitizeName(options.name);
  if (name !== '') args.push(`name=${Buffer.from(name, 'utf8').toString('base64')}`);
  if (options.pixels) {
    args.push(`width=${cells(options.pixels.width, 'pixel width')}px`);
    args.push(`height=${cells(options.pixels.height, 'pixel height')}px`);
  } else {
    const w = cells(options.columns, 'columns');
    const h = cells(options.rows, 'rows');
    if (w !== undefined) args.push(`width=${w}`);
    if (h !== undefined) args.push(`height=${h}`);
  }
  args.push('preserveAspectRatio=1');
  return args.join(';');
}

const OSC = '\x1b]1337;';
const BEL = '\x07';

/**
 * The sequences that show a PNG file inline, one string per escape sequence.
 *
 * @example iterm2Sequences(pngBytes, { columns: 20, rows: 10 })
 */
export function iterm2Sequences(png: Uint8Array, options: Iterm2Options = {}): string[] {
  const b64 = Buffer.from(png.buffer, png.byteOffset, png.byteLength).toString('base64');
  const args = fileArgs(png.length, options);
  const multipart =
    options.multipart === undefined || options.multipart === 'auto'
      ? (options.multiplexer !== undefined && options.multiplexer !== null) || b64.length > ITERM2_SINGLE_LIMIT
      : options.multipart;
  if (!multipart) return [`${OSC}File=${args}:${b64}${BEL}`];
  const out = [`${OSC}MultipartFile=${args}${BEL}`];
  for (let at = 0; at < b64.length; at += ITERM2_PART_BYTES) {
    out.push(`${OSC}FilePart=${b64.slice(at, at + ITERM2_PART_BYTES)}${BEL}`);
  }
  out.push(`${OSC}FileEnd${BEL}`);
  return out;
}

/**
 * A raster as an iTerm2 inline image (encoded as PNG by `encodePng`).
 *
 * @example process.stdout.write(encodeIterm2(raster, { columns: 40, rows: 12 }))
 */
export function encodeIterm2(raster: Raster, options: Iterm2Options = {}): string {
  return iterm2Sequences(encodePng(raster), options).join('');
}
