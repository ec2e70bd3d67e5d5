/**
 * Resampling a picture to the sub-pixels of a symbols picture, rows first. The symbol grid is
 * anisotropic (8x8 sub-pixels in a cell twice as tall as wide), so a photo is usually enlarged
 * across and shrunk down, or shrunk more down than across: summing the source rows an output row
 * covers first and resampling across only the output rows does far less work than resize.ts's
 * across-then-down (measured: docs/render.md, "Symbols", "Speed"). The same filters and
 * weights as `resize` (area averaging when shrinking, linear when enlarging) in double precision
 * throughout, so the result differs from `resize`'s (which keeps its rows in single precision)
 * only where a value lies within rounding of a half: by one level, in rare pixels. Only opaque
 * pictures, read as 32-bit words on a little-endian machine, take this path; anything else is
 * `resize` itself. Pure code.
 */
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import { MAX_PIXELS, MAX_SIDE } from '../geometry/limits.js';
import { type AxisWeights, axisWeights, type LinearPairs, linearPairs, resize } from '../geometry/resize.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * `raster` resampled to `width` x `height` for a symbols picture: the same filters as `resize`,
 * rows first (see the module comment). Throws as `resize` does for a bad target.
 *
 * @example resampleForSymbols(photo, 640, 320) // 80x40 cells of 8x8 sub-pixels
 */
export function resampleForSymbols(raster: Raster, width: number, height: number): Raster {
  validateRaster(raster);
  const sw = raster.width;
  const sh = raster.height;
  const src = raster.data;
  const fast =
    LITTLE_ENDIAN &&
    (src.byteOffset & 3) === 0 &&
    Number.isInteger(width) &&
    Number.isInteger(height) &&
    width > 0 &&
    height > 0 &&
    width <= MAX_SIDE &&
    height <= MAX_SIDE &&
    width * height <= MAX_PIXELS &&
    (width !== sw || height !== sh);
  // resize checks the target (with its errors) and returns an unchanged size as it is.
  if (!fast) return resize(raster, width, height);
  const words = new Uint32Array(src.buffer, src.byteOffset, sw * sh);
  const xw = axisWeights(sw, width);
  const yw = axisWeights(sh, height);
  const rows = new Float64Array(sw * 3);
  const out = new Uint32Array(width * height);
  const pairs = width >= sw ? linearPairs(xw, width, 3) : null;
  for (let y = 0; y < height; y++) {
    const k0 = yw.offset[y];
    const taps = yw.offset[y + 1] - k0;
    const i0 = yw.first[y] * sw;
    const w = yw.weights;
    let alpha: number;
    // Up to three rows (every enlargement, and shrinking by up to 2): summed in one pass, each
    // sum in the same order as row by row, so the same values.
    if (taps === 1) alpha = setRow(words, i0, sw, rows, w[k0]);
    else if (taps === 2) alpha = twoRows(words, i0, i0 + sw, sw, rows, w[k0], w[k0 + 1]);
    else if (taps === 3) alpha = threeRows(words, i0, sw, rows, w[k0], w[k0 + 1], w[k0 + 2]);
    else if (equalInterior(w, k0, taps)) {
      alpha = manyRows(words, i0, sw, taps, rows, w[k0], w[k0 + 1], w[k0 + taps - 1]);
    } else {
      alpha = setRow(words, i0, sw, rows, w[k0]);
      for (let k = k0 + 1, i = i0 + sw, end = k0 + taps; k < end; k++, i += sw)
        alpha &= addRow(words, i, sw, rows, w[k]);
    }
    // A pixel that is not opaque needs premultiplied alpha: resize does that.
    if (alpha >>> 24 !== 255) return resize(raster, width, height);
    if (pairs) acrossPairs(rows, pairs, width, out, y * width);
    else acrossBox(rows, xw, width, out, y * width);
  }
  return { width, height, data: new Uint8Array(out.buffer) };
}

/**
 * rows = source row (from pixel `i0`) x w, as RGB doubles; returns the AND of its pixels (their
 * alpha is its top byte). Small functions called per row, so that they are optimised early in a
 * one-shot process.
 */
function setRow(words: Uint32Array, i0: number, n: number, rows: Float64Array, w: number): number {
  let all = -1;
  for (let x = 0, o = 0; x < n; x++, o += 3) {
    const p = words[i0 + x];
    all &= p;
    rows[o] = (p & 255) * w;
    rows[o + 1] = ((p >>> 8) & 255) * w;
    rows[o + 2] = ((p >>> 16) & 255) * w;
  }
  return all;
}

/** rows += source row x w, as `setRow`. */
function addRow(words: Uint32Array, i0: number, n: number, rows: Float64Array, w: number): number {
  let all = -1;
  for (let x = 0, o = 0; x < n; x++, o += 3) {
    const p = words[i0 + x];
    all &= p;
    rows[o] += (p & 255) * w;
    rows[o + 1] += ((p >>> 8) & 255) * w;
    rows[o + 2] += ((p >>> 16) & 255) * w;
  }
  return all;
}

/** rows = row at `i0` x a + row at `i1` x b, as `setRow` then `addRow` compute it. */
function twoRows(
  words: Uint32Array,
  i0: number,
  i1: number,
  n: number,
  rows: Float64Array,
  a: number,
  b: number,
): number {
  let all = -1;
  for (let x = 0, o = 0; x < n; x++, o += 3) {
    const p = words[i0 + x];
    const q = words[i1 + x];
    all &= p & q;
    rows[o] = (p & 255) * a + (q & 255) * b;
    rows[o + 1] = ((p >>> 8) & 255) * a + ((q >>> 8) & 255) * b;
    rows[o + 2] = ((p >>> 16) & 255) * a + ((q >>> 16) & 255) * b;
  }
  return all;
}

/** rows = three consecutive rows from `i0` (`n` pixels apart) weighted a, b, c, as `twoRows`. */
function threeRows(
  words: Uint32Array,
  i0: number,
  n: number,
  rows: Float64Array,
  a: number,
  b: number,
  c: number,
): number {
  let all = -1;
  for (let x = 0, o = 0, i = i0; x < n; x++, o += 3, i++) {
    const p = words[i];
    const q = words[i + n];
    const r = words[i + 2 * n];
    all &= p & q & r;
    rows[o] = (p & 255) * a + (q & 255) * b + (r & 255) * c;
    rows[o + 1] = ((p >>> 8) & 255) * a + ((q >>> 8) & 255) * b + ((r >>> 8) & 255) * c;
    rows[o + 2] = ((p >>> 16) & 255) * a + ((q >>> 16) & 255) * b + ((r >>> 16) & 255) * c;
  }
  return all;
}

/** Whether the rows between the first and the last of a tap list have one weight (shrinking: each is wholly covered). */
function equalInterior(w: Float64Array, k0: number, taps: number): boolean {
  for (let k = k0 + 2; k < k0 + taps - 1; k++) if (w[k] !== w[k0 + 1]) return false;
  return true;
}

/**
 * Four rows or more from `i0` (shrinking by more than 2): the whole rows between the first and
 * the last summed as integers and weighted once, pixel by pixel, so each sum is written once.
 */
function manyRows(
  words: Uint32Array,
  i0: number,
  n: number,
  taps: number,
  rows: Float64Array,
  first: number,
  inner: number,
  last: number,
): number {
  let all = -1;
  const lastRow = i0 + (taps - 1) * n;
  for (let x = 0, o = 0; x < n; x++, o += 3) {
    const p = words[i0 + x];
    const q = words[lastRow + x];
    all &= p & q;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let i = i0 + n + x; i < lastRow; i += n) {
      const v = words[i];
      all &= v;
      r += v & 255;
      g += (v >>> 8) & 255;
      b += (v >>> 16) & 255;
    }
    rows[o] = (p & 255) * first + r * inner + (q & 255) * last;
    rows[o + 1] = ((p >>> 8) & 255) * first + g * inner + ((q >>> 8) & 255) * last;
    rows[o + 2] = ((p >>> 16) & 255) * first + b * inner + ((q >>> 16) & 255) * last;
  }
  return all;
}

/** One output row (opaque RGBA words from `o`), enlarged across from the summed rows. */
function acrossPairs(rows: Float64Array, pairs: LinearPairs, width: number, out: Uint32Array, o: number): void {
  const { left, right, leftWeight, rightWeight } = pairs;
  for (let x = 0; x < width; x++, o++) {
    const p = left[x];
    const q = right[x];
    const a = leftWeight[x];
    const b = rightWeight[x];
    out[o] =
      clamp(rows[p] * a + rows[q] * b) |
      (clamp(rows[p + 1] * a + rows[q + 1] * b) << 8) |
      (clamp(rows[p + 2] * a + rows[q + 2] * b) << 16) |
      0xff000000;
  }
}

/** One output row, shrunk across from the summed rows (area averaging). */
function acrossBox(rows: Float64Array, xw: AxisWeights, width: number, out: Uint32Array, o: number): void {
  const { first, offset, weights } = xw;
  for (let x = 0; x < width; x++, o++) {
    let r = 0;
    let g = 0;
    let b = 0;
    let p = first[x] * 3;
    for (let k = offset[x], end = offset[x + 1]; k < end; k++, p += 3) {
      const w = weights[k];
      r += rows[p] * w;
      g += rows[p + 1] * w;
      b += rows[p + 2] * w;
    }
    out[o] = clamp(r) | (clamp(g) << 8) | (clamp(b) << 16) | 0xff000000;
  }
}

/**
 * `v` rounded half up to a byte, as resize.ts rounds. No clamping: every value here is a
 * weighted mean of bytes with positive weights summing to 1, so 0 <= v <= 255 (within 1e-12),
 * where this is resize's `clamp` exactly.
 */
function clamp(v: number): number {
  return (v + 0.5) | 0;
}
