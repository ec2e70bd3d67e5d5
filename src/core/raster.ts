import { positiveInteger } from './positive-integer.js';

/** An RGBA image, row-major, 4 bytes a pixel, not premultiplied. */
export interface Raster {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** The largest raster termsight accepts (pixels); far beyond any screen, small enough to be safe. */
export const MAX_RASTER_PIXELS = 100_000_000;

/**
 * Checks a raster and returns what was checked; throws an error that says what is wrong: a
 * `RangeError` for dimensions that are not positive integers or are too large, a `TypeError` for
 * anything not shaped like a raster (not an object, data not bytes or of the wrong length). Its
 * fields are read once: a raster whose getters answer differently later (a caller's object, or
 * a hostile one) is returned as a plain object of the values validated, so whoever uses the
 * result draws the size that was checked.
 */
export function validateRaster(raster: Raster): Raster {
  if (raster === null || typeof raster !== 'object') {
    throw new TypeError('raster must be an object { width, height, data }');
  }
  const { width, height, data } = raster;
  positiveInteger(width, 'raster width');
  positiveInteger(height, 'raster height');
  if (width * height > MAX_RASTER_PIXELS) {
    throw new RangeError(`raster ${width}x${height} is larger than ${MAX_RASTER_PIXELS} pixels`);
  }
  if (!((data as unknown) instanceof Uint8Array) && !((data as unknown) instanceof Uint8ClampedArray)) {
    throw new TypeError('raster data must be a Uint8Array of RGBA bytes');
  }
  if (data.length !== width * height * 4) {
    throw new TypeError(`raster data has ${data.length} bytes; ${width}x${height} RGBA needs ${width * height * 4}`);
  }
  return isPlainRaster(raster, width, height, data) ? raster : { width, height, data };
}

/** A plain object whose own data fields hold exactly these values (no getters): safe to keep as is. */
function isPlainRaster(raster: Raster, width: number, height: number, data: Uint8Array): boolean {
  if (Object.getPrototypeOf(raster) !== Object.prototype) return false;
  for (const key of ['width', 'height', 'data'] as const)
    if (!('value' in (Object.getOwnPropertyDescriptor(raster, key) ?? {}))) return false;
  return raster.width === width && raster.height === height && raster.data === data;
}

/** Whether every pixel is fully opaque. */
export function isOpaque(raster: Raster): boolean {
  const { data } = raster;
  const pixels = data.length >>> 2;
  // Aligned data on a little-endian machine: a pixel is one 32-bit word with alpha on top, so
  // eight pixels are ANDed a step. Span by span, so that the small loop is optimised after a few
  // calls rather than by on-stack replacement, and a picture that is not opaque stops early.
  if (LITTLE_ENDIAN && (data.byteOffset & 3) === 0) {
    const words = new Uint32Array(data.buffer, data.byteOffset, pixels);
    for (let at = 0; at < pixels; at += OPAQUE_SPAN)
      if (!opaqueWords(words, at, Math.min(pixels, at + OPAQUE_SPAN))) return false;
    return true;
  }
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
const OPAQUE_SPAN = 8192;

/** Whether words[from..to) all have 255 in their top byte (alpha, little-endian). */
function opaqueWords(words: Uint32Array, from: number, to: number): boolean {
  let all = -1;
  let i = from;
  for (const end = to - 7; i < end; i += 8)
    all &=
      words[i] & words[i + 1] & words[i + 2] & words[i + 3] & words[i + 4] & words[i + 5] & words[i + 6] & words[i + 7];
  for (; i < to; i++) all &= words[i];
  return all >>> 24 === 255;
}

/** RGBA pixels without their alpha: packed RGB, 3 bytes a pixel (kitty's `f=24`, PNG colour type 2). */
export function rgbBytes(rgba: Uint8Array | Uint8ClampedArray): Uint8Array {
  const n = rgba.length >>> 2;
  const out = new Uint8Array(n * 3);
  for (let i = 0, j = 0, p = 0; i < n; i++, j += 3, p += 4) {
    out[j] = rgba[p];
    out[j + 1] = rgba[p + 1];
    out[j + 2] = rgba[p + 2];
  }
  return out;
}
