/**
 * The ALPH chunk: the alpha plane of a lossy (VP8) WebP, stored raw or as a header-less
 * lossless stream whose green channel is the alpha, then optionally filtered (each value a
 * difference from its left, upper or gradient prediction; RFC 9649 section 2.7.1.1).
 * Decoded exactly as libwebp does; the pre-processing flag (levels reduced by the encoder) only
 * asks for optional dithering, which dwebp does not do by default, so it changes nothing here.
 */
import { DecodeError } from './error.js';
import { decodeLosslessStream } from './webp-lossless.js';

/** The ALPH header's fields. */
export interface AlphaHeader {
  /** 0 raw, 1 lossless. */
  readonly compression: number;
  /** 0 none, 1 horizontal, 2 vertical, 3 gradient. */
  readonly filter: number;
  /** 0 none, 1 levels reduced. */
  readonly preprocessing: number;
}

function corrupt(what: string): DecodeError {
  return new DecodeError('corrupt', `corrupt WebP: ${what}`);
}

/** Reads the ALPH header byte; the reserved bits, a compression past 1 and pre-processing past 1 are refused, as libwebp does. */
export function readAlphaHeader(byte: number): AlphaHeader {
  const compression = byte & 3;
  const filter = (byte >>> 2) & 3;
  const preprocessing = (byte >>> 4) & 3;
  if (compression > 1 || preprocessing > 1 || byte >>> 6 !== 0)
    throw corrupt(`an ALPH chunk with header byte 0x${byte.toString(16).padStart(2, '0')}`);
  return { compression, filter, preprocessing };
}

/** The gradient predictor: left + top - top-left, clamped to 0..255. */
function gradient(left: number, top: number, topLeft: number): number {
  const v = left + top - topLeft;
  return v < 0 ? 0 : Math.min(v, 255);
}

/**
 * Undoes an alpha filter in place over `width` x `height` values. The first row of every filter
 * predicts from the left (its first value from 0); later rows: horizontal predicts the first
 * value from above and the rest from the left, vertical from above, gradient from
 * left + top - top-left (its first value from above).
 */
export function unfilterAlpha(plane: Uint8Array, width: number, height: number, filter: number): void {
  if (filter === 0) return;
  for (let x = 1; x < width; x++) plane[x] = ((plane[x] as number) + (plane[x - 1] as number)) & 0xff;
  for (let y = 1; y < height; y++) {
    const row = y * width;
    const up = row - width;
    if (filter === 1) {
      plane[row] = ((plane[row] as number) + (plane[up] as number)) & 0xff;
      for (let x = 1; x < width; x++)
        plane[row + x] = ((plane[row + x] as number) + (plane[row + x - 1] as number)) & 0xff;
    } else if (filter === 2) {
      for (let x = 0; x < width; x++) plane[row + x] = ((plane[row + x] as number) + (plane[up + x] as number)) & 0xff;
    } else {
      let left = plane[up] as number;
      let topLeft = left;
      for (let x = 0; x < width; x++) {
        const top = plane[up + x] as number;
        left = ((plane[row + x] as number) + gradient(left, top, topLeft)) & 0xff;
        topLeft = top;
        plane[row + x] = left;
      }
    }
  }
}

/**
 * The alpha plane (`width` x `height` bytes) of an ALPH chunk's body.
 *
 * @example decodeAlpha(alphBody, 64, 64) // Uint8Array(4096)
 */
export function decodeAlpha(body: Uint8Array, width: number, height: number): Uint8Array {
  if (body.length <= 1) throw new DecodeError('truncated', 'truncated WebP: an ALPH chunk without data');
  const header = readAlphaHeader(body[0] as number);
  const size = width * height;
  let plane: Uint8Array;
  if (header.compression === 0) {
    if (body.length - 1 < size)
      throw new DecodeError(
        'truncated',
        `truncated WebP: ${body.length - 1} bytes of raw alpha for ${width}x${height} pixels`,
      );
    plane = body.slice(1, 1 + size);
  } else {
    const argb = decodeLosslessStream(body.subarray(1), width, height);
    plane = new Uint8Array(size);
    for (let i = 0; i < size; i++) plane[i] = ((argb[i] as number) >>> 8) & 0xff;
  }
  unfilterAlpha(plane, width, height, header.filter);
  return plane;
}
