/**
 * Mapping a raster onto a palette, with or without error diffusion. Pure code on typed arrays.
 */

import type { Raster } from '../../core/raster.js';
import { NearestColor, type Palette, TRANSPARENT } from './quantize.js';

/** How to spread the error of each mapped pixel: Floyd–Steinberg (serpentine), or not at all. */
export type DitherMethod = 'floyd-steinberg' | 'none';

/** Options for {@link ditherToPalette}. */
export interface DitherOptions {
  /** Default 'floyd-steinberg'. */
  readonly method?: DitherMethod;
  /** Pixels with alpha below this are left unpainted ({@link TRANSPARENT}). Default 128. */
  readonly alphaThreshold?: number;
  /**
   * Share of the error passed on, 0..1. Default 0.75: three quarters of it keeps
   * the grain down in flat areas while gradients still do not band.
   */
  readonly strength?: number | undefined;
}

/**
 * Maps every pixel of `raster` to a palette index (into `out`, one entry a pixel), spreading
 * the error to the neighbours with Floyd–Steinberg in serpentine order unless `method` is 'none'.
 * Unpainted pixels neither take nor pass on error.
 */
export function ditherToPalette(
  raster: Raster,
  palette: Palette,
  out: Uint16Array,
  options: DitherOptions = {},
  nearest: NearestColor = new NearestColor(palette),
): Uint16Array {
  const { width, height, data } = raster;
  const alphaThreshold = options.alphaThreshold ?? 128;
  const method = options.method ?? 'floyd-steinberg';
  const pal = palette.rgb;
  if (method === 'none') return mapNearest(data, alphaThreshold, nearest, out);
  // Error in 1/16ths of a level (FS weights are sixteenths), fixed point with 8 bits for strength.
  const share = options.strength !== undefined && Number.isFinite(options.strength) ? options.strength : 0.75;
  const strength = Math.round(Math.max(0, Math.min(1, share)) * 256);
  // Rows padded by one entry on each side so neighbours need no bounds checks.
  const stride = (width + 2) * 3;
  let cur = new Int32Array(stride);
  let next = new Int32Array(stride);
  // One call a row: a small function is optimised after a few rows, and for good; one loop over
  // the whole picture waits for on-stack replacement (docs/render.md#cold-start).
  for (let y = 0; y < height; y++) {
    diffuseRow(data, width, y, alphaThreshold, strength, pal, nearest, cur, next, out);
    const t = cur;
    cur = next;
    next = t;
    next.fill(0);
  }
  return out;
}

/**
 * Floyd–Steinberg for row `y`: left to right on even rows, right to left on odd ones; takes the
 * error in `cur` (this row's) and spreads it into `cur` and `next` (the next row's).
 */
function diffuseRow(
  data: Uint8Array,
  width: number,
  y: number,
  alphaThreshold: number,
  strength: number,
  pal: Uint8Array,
  nearest: NearestColor,
  cur: Int32Array,
  next: Int32Array,
  out: Uint16Array,
): void {
  const table = nearest.table;
  const ltr = (y & 1) === 0;
  const dir = ltr ? 1 : -1;
  const d3 = dir * 3;
  let x = ltr ? 0 : width - 1;
  const rowBase = y * width;
  for (let n = 0; n < width; n++, x += dir) {
    const p = rowBase + x;
    const i = p << 2;
    const e = (x + 1) * 3;
    if (data[i + 3] < alphaThreshold) {
      out[p] = TRANSPARENT;
      cur[e] = cur[e + 1] = cur[e + 2] = 0;
      continue;
    }
    let r = data[i] + ((cur[e] + 8) >> 4);
    let g = data[i + 1] + ((cur[e + 1] + 8) >> 4);
    let b = data[i + 2] + ((cur[e + 2] + 8) >> 4);
    cur[e] = cur[e + 1] = cur[e + 2] = 0;
    r = r < 0 ? 0 : Math.min(r, 255);
    g = g < 0 ? 0 : Math.min(g, 255);
    b = b < 0 ? 0 : Math.min(b, 255);
    const key = ((r >> 2) << 12) | ((g >> 2) << 6) | (b >> 2);
    let v = table[key];
    if (v < 0) v = nearest.fill(key);
    out[p] = v;
    const er = ((r - pal[v * 3]) * strength) >> 8;
    const eg = ((g - pal[v * 3 + 1]) * strength) >> 8;
    const eb = ((b - pal[v * 3 + 2]) * strength) >> 8;
    const ahead = e + d3;
    const behind = e - d3;
    cur[ahead] += er * 7;
    cur[ahead + 1] += eg * 7;
    cur[ahead + 2] += eb * 7;
    next[behind] += er * 3;
    next[behind + 1] += eg * 3;
    next[behind + 2] += eb * 3;
    next[e] += er * 5;
    next[e + 1] += eg * 5;
    next[e + 2] += eb * 5;
    next[ahead] += er;
    next[ahead + 1] += eg;
    next[ahead + 2] += eb;
  }
}

/** Each pixel's nearest palette index, no dithering; unpainted ones {@link TRANSPARENT}. */
function mapNearest(data: Uint8Array, alphaThreshold: number, nearest: NearestColor, out: Uint16Array): Uint16Array {
  const table = nearest.table;
  for (let p = 0, i = 0; i < data.length; p++, i += 4) {
    if (data[i + 3] < alphaThreshold) {
      out[p] = TRANSPARENT;
      continue;
    }
    const key = ((data[i] >> 2) << 12) | ((data[i + 1] >> 2) << 6) | (data[i + 2] >> 2);
    const v = table[key];
    out[p] = v >= 0 ? v : nearest.fill(key);
  }
  return out;
}
