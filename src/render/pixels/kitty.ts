/**
 * The kitty graphics protocol (https://sw.kovidgoyal.net/kitty/graphics-protocol/): APC
 * sequences `ESC _G <keys> ; <base64 payload> ESC \`.
 *
 * - Pixels go as 24-bit RGB (`f=24`) when every pixel is opaque, else 32-bit RGBA (`f=32`).
 * - zlib (`o=z`) only when it makes the payload smaller; the level follows how compressible the
 *   picture is (a band of rows is compressed first): photographs at level 1, which is within a
 *   few percent of the default level at a fraction of the time, flat drawings at level 6, noise
 *   not at all; a photograph whose matches win little (fine grain, few flat runs) by Huffman
 *   coding alone (`Z_HUFFMAN_ONLY`, a standard zlib stream), half level 1's time at nearly its size.
 * - The base64 payload goes in chunks of at most 4096 bytes, each but the last a multiple of 4;
 *   every chunk but the last says `m=1`, and chunks after the first carry only `m` and `q`.
 * - `q=2` everywhere, so the terminal never answers: an answer could land in the program's input.
 * - The image id is random (24 bits, non-zero) unless given, so two programs drawing in the same
 *   terminal do not replace each other's pictures.
 * - `c=` and `r=` give the cells the picture covers, so it takes exactly the area `renderedCells`
 *   says even when the real cell size differs from the assumed one.
 * - `C=1` (option `keepCursor`) leaves the cursor where it was; by default it moves past the image
 *   like text would.
 * - Local transfer (option `file`, where the report says `kittyLocalFile`): the pixels go to a
 *   temporary file, uncompressed (zlib costs more than the pty it saves), at most
 *   `KITTY_FILE_MAX_BYTES`, and only its path goes through the pty (`t=t`, `S=` its size); when
 *   the file cannot be written the picture goes inline (`t=d`) as usual.
 */
import { nodeCrypto, nodeZlib } from '../../core/node-builtins.js';
import { positiveInteger } from '../../core/positive-integer.js';
import type { Raster } from '../../core/raster.js';
import { isOpaque, rgbBytes, validateRaster } from '../../core/raster.js';

/** The largest base64 chunk the protocol allows in one escape sequence. */
export const KITTY_CHUNK_BYTES = 4096;

/** The largest pixel file sent by local transfer: a `MAX_PIXELS` (4096x4096) RGBA picture. Larger goes inline. */
export const KITTY_FILE_MAX_BYTES = 4096 * 4096 * 4;

/**
 * Writes a picture's pixel bytes to a new temporary file the terminal may read and delete (its
 * name must contain `tty-graphics-protocol`), returning its path, or null when it cannot.
 */
export type KittyFileSink = (bytes: Uint8Array) => string | null;

/** Options for the kitty encoders. */
export interface KittyOptions {
  /** Image id, 1..4294967295. Default: `kittyImageId()` (random, 24 bits). */
  readonly imageId?: number;
  /** Placement id (`p=`), so placing again replaces this placement instead of adding one. */
  readonly placementId?: number;
  /** Cells the picture covers (`c=`, `r=`). Default: left to the terminal (the image's own pixel size). */
  readonly columns?: number;
  readonly rows?: number;
  /** `C=1`: do not move the cursor. Default false. */
  readonly keepCursor?: boolean;
  /** `U=1`: a virtual placement, shown where Unicode placeholders are written (see kitty-placeholder). */
  readonly virtual?: boolean;
  /** `x,y,w,h`: show only this rectangle of the image's pixels (a picture cropped by a viewport, crop.ts). */
  readonly source?: { readonly x: number; readonly y: number; readonly width: number; readonly height: number };
  /** Compression: 'auto' (default) decides by measuring; true always; false never. With `file`: default false. */
  readonly compress?: boolean | 'auto';
  /** Local transfer: send the pixels by a file this sink writes (`t=t`), falling back to inline when it returns null. */
  readonly file?: KittyFileSink;
  /**
   * `N=1`: the image is short-lived (a redrawn frame, a preview), so the terminal keeps it out of
   * its disk cache (kitty 0.48+, kitty#10090; Ghostty). Only where the terminal has the hint: an
   * older kitty ignores an unknown key. Default false.
   */
  readonly shortLived?: boolean;
}

/** A random image id: 24 bits (so it also fits a 24-bit placeholder colour), never 0. */
export function kittyImageId(): number {
  return nodeCrypto().randomInt(1, 0x1000000);
}

/** Ids are 32-bit unsigned in the protocol, and 0 means "none". */
export function checkId(value: number, what: string): number {
  return positiveInteger(value, `kitty ${what}`, 0xffffffff);
}

function checkCells(value: number | undefined, what: string): number | undefined {
  return value === undefined ? undefined : positiveInteger(value, `kitty ${what}`);
}

/** The pixel bytes as they go over the wire, before base64. */
export interface KittyPayload {
  /** 24 (RGB) or 32 (RGBA). */
  readonly format: 24 | 32;
  /** Whether `bytes` is zlib-compressed (`o=z`). */
  readonly compressed: boolean;
  readonly bytes: Uint8Array;
}

/** Compressing a band of rows first: below this ratio the picture is flat enough that level 6 costs little and wins much. */
const FLAT_RATIO = 0.08;
/** Above this ratio (noise) compression is not worth its time. */
const NOISE_RATIO = 0.92;
/**
 * Huffman coding alone when the band comes out at most this much larger than by level 1: string
 * matching then buys under 8% and costs half the time (measured on bench/'s photographs:
 * docs/render.md#kitty-compression).
 */
const HUFFMAN_SLACK = 1.08;

/**
 * The raster's pixels as kitty receives them: RGB when opaque, RGBA otherwise, zlib-compressed
 * when that is smaller (with `compress: 'auto'`).
 */
export function kittyPayload(raster: Raster, compress: boolean | 'auto' = 'auto'): KittyPayload {
  validateRaster(raster);
  const opaque = isOpaque(raster);
  const format = opaque ? 24 : 32;
  const raw = opaque
    ? rgbBytes(raster.data)
    : new Uint8Array(raster.data.buffer, raster.data.byteOffset, raster.data.length);
  if (compress === false) return { format, compressed: false, bytes: raw };
  const zlib = nodeZlib();
  let level = 6;
  let strategy: number = zlib.constants.Z_DEFAULT_STRATEGY;
  if (compress === 'auto') {
    // Measure a band from the middle (a 16th, at least 32 KiB, or everything) at the fastest
    // level. (At least 64 KiB cost up to a sixth of a small photograph's time and chose the same
    // on every picture of bench/.)
    const bpp = opaque ? 3 : 4;
    const stride = raster.width * bpp;
    const bandRows = Math.min(raster.height, Math.max(Math.ceil(raster.height / 16), Math.ceil(32_768 / stride)));
    const from = Math.floor((raster.height - bandRows) / 2) * stride;
    const band = raw.subarray(from, from + bandRows * stride);
    const matched = zlib.deflateSync(band, { level: 1 }).length;
    const ratio = matched / band.length;
    if (ratio > NOISE_RATIO) return { format, compressed: false, bytes: raw };
    level = ratio < FLAT_RATIO ? 6 : 1;
    if (
      level === 1 &&
      zlib.deflateSync(band, { level: 1, strategy: zlib.constants.Z_HUFFMAN_ONLY }).length <= matched * HUFFMAN_SLACK
    )
      strategy = zlib.constants.Z_HUFFMAN_ONLY;
  }
  const z = zlib.deflateSync(raw, { level, memLevel: 9, strategy });
  if (compress === 'auto' && z.length >= raw.length) return { format, compressed: false, bytes: raw };
  return { format, compressed: true, bytes: z };
}

/** Builds `ESC _G keys ; payload ESC \`. */
function apc(keys: string, payload = ''): string {
  return payload === '' ? `\x1b_G${keys}\x1b\\` : `\x1b_G${keys};${payload}\x1b\\`;
}

/**
 * Splits base64 text into the chunked APC sequences: the first with `firstKeys`, the rest with
 * only `m` and `q` (and `restKeys` before them: an animation frame's chunks all say `a=f`). Every
 * chunk but the last is exactly `KITTY_CHUNK_BYTES` (a multiple of 4).
 */
export function kittyChunks(firstKeys: string, base64: string, restKeys = ''): string[] {
  const out: string[] = [];
  const n = base64.length;
  if (n <= KITTY_CHUNK_BYTES) {
    out.push(apc(firstKeys, base64));
    return out;
  }
  for (let at = 0; at < n; at += KITTY_CHUNK_BYTES) {
    const last = at + KITTY_CHUNK_BYTES >= n;
    const chunk = base64.slice(at, at + KITTY_CHUNK_BYTES);
    const m = last ? 'm=0' : 'm=1';
    out.push(at === 0 ? apc(`${firstKeys},${m}`, chunk) : apc(`${restKeys}${m},q=2`, chunk));
  }
  return out;
}

/** Base64 of bytes (no copy). */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** The keys of a transmission: action, format, size, compression, id, and the placement keys for a=T. */
function transmitKeys(
  action: 'T' | 't',
  raster: Raster,
  payload: KittyPayload,
  id: number,
  options: KittyOptions,
): string {
  const keys = [`a=${action}`, `f=${payload.format}`, `s=${raster.width}`, `v=${raster.height}`];
  if (payload.compressed) keys.push('o=z');
  keys.push(`i=${id}`);
  if (options.shortLived) keys.push('N=1');
  if (action === 'T') keys.push(...placementKeys(options));
  keys.push('q=2');
  return keys.join(',');
}

/** The placement keys (`p`, `c`, `r`, `U`, `C`) of a transmit-and-display or a place. */
export function placementKeys(options: KittyOptions): string[] {
  const keys: string[] = [];
  if (options.placementId !== undefined) keys.push(`p=${checkId(options.placementId, 'placement id')}`);
  const c = checkCells(options.columns, 'columns');
  const r = checkCells(options.rows, 'rows');
  if (options.source) keys.push(...sourceKeys(options.source));
  if (c !== undefined) keys.push(`c=${c}`);
  if (r !== undefined) keys.push(`r=${r}`);
  if (options.virtual) keys.push('U=1');
  if (options.keepCursor) keys.push('C=1');
  return keys;
}

function sourceKeys(rect: NonNullable<KittyOptions['source']>): string[] {
  // The corner may be 0: one more than it must be a positive integer.
  const x = positiveInteger(rect.x + 1, 'kitty source x + 1') - 1;
  const y = positiveInteger(rect.y + 1, 'kitty source y + 1') - 1;
  const width = positiveInteger(rect.width, 'kitty source width');
  const height = positiveInteger(rect.height, 'kitty source height');
  return [`x=${x}`, `y=${y}`, `w=${width}`, `h=${height}`];
}

/**
 * The sequences that transmit and display a raster (`a=T`), one string per escape sequence
 * (so a multiplexer wrapper can wrap each one).
 */
export function kittySequences(raster: Raster, options: KittyOptions = {}, action: 'T' | 't' = 'T'): string[] {
  const id = checkId(options.imageId ?? kittyImageId(), 'image id');
  if (options.file) {
    const payload = kittyPayload(raster, options.compress ?? false);
    const path = payload.bytes.length <= KITTY_FILE_MAX_BYTES ? options.file(payload.bytes) : null;
    // The path goes in one sequence (the spec chunks only direct data); a temporary path is far shorter.
    if (path !== null && Buffer.byteLength(path) * 4 <= KITTY_CHUNK_BYTES * 3)
      return [kittyFileSequence(transmitKeys(action, raster, payload, id, options), path, payload)];
    // Not written (or too large): inline, compressed as it would have been without a file.
    if (options.compress === undefined) {
      const inline = kittyPayload(raster, 'auto');
      return kittyChunks(transmitKeys(action, raster, inline, id, options), toBase64(inline.bytes));
    }
    return kittyChunks(transmitKeys(action, raster, payload, id, options), toBase64(payload.bytes));
  }
  const payload = kittyPayload(raster, options.compress ?? 'auto');
  return kittyChunks(transmitKeys(action, raster, payload, id, options), toBase64(payload.bytes));
}

/**
 * The one sequence of a local transfer: the transmission's keys with `t=t` (a temporary file the
 * terminal deletes after reading) and `S=` the file's size, and the file's path as base64. The
 * path is ours (a temporary folder and a name we made), never the user's input; it must still be
 * free of control characters, as everything inside a sequence.
 */
function kittyFileSequence(keys: string, path: string, payload: KittyPayload): string {
  if (path === '' || /[\0-\x1f\x7f]/.test(path))
    throw new TypeError('kitty file: the path must be non-empty, without control characters');
  const [head, ...rest] = keys.split(',');
  const withFile = [head, 't=t', `S=${payload.bytes.length}`, ...rest].join(',');
  return apc(withFile, Buffer.from(path, 'utf8').toString('base64'));
}

/**
 * Transmit and display (`a=T`): the picture appears at the cursor.
 *
 * @example process.stdout.write(encodeKitty(raster, { columns: 40, rows: 12 }))
 */
export function encodeKitty(raster: Raster, options: KittyOptions = {}): string {
  return kittySequences(raster, options, 'T').join('');
}

/**
 * Store under an id without showing it (`a=t`); show it with `kittyPlace`. Only for terminals
 * whose report says `placements` (a terminal that does not keep images shows nothing).
 *
 * @example const id = kittyImageId(); write(kittyStore(raster, { imageId: id }) + kittyPlace(id))
 */
export function kittyStore(raster: Raster, options: KittyOptions & { readonly imageId: number }): string {
  return kittySequences(raster, options, 't').join('');
}

/**
 * Place a stored image at the cursor (`a=p`); with the same `placementId` the placement moves
 * instead of being added again.
 *
 * @example kittyPlace(id, { placementId: 1, columns: 40, rows: 12, keepCursor: true })
 */
export function kittyPlace(imageId: number, options: Omit<KittyOptions, 'imageId' | 'compress'> = {}): string {
  return apc(['a=p', `i=${checkId(imageId, 'image id')}`, ...placementKeys(options), 'q=2'].join(','));
}

/**
 * Delete an image and every placement of it, freeing its data (`a=d,d=I`): how a program clears
 * a kitty picture (writing text over it does not).
 *
 * @example kittyDelete(id) // '\x1b_Ga=d,d=I,i=<id>,q=2\x1b\\'
 */
export function kittyDelete(imageId: number): string {
  return apc(`a=d,d=I,i=${checkId(imageId, 'image id')},q=2`);
}
