/**
 * Resampling a raster to another size, and fitting a size into a box.
 *
 * Downscaling averages every source pixel a destination pixel covers, weighted by the exact
 * area of coverage (a box filter), which keeps fine detail from aliasing into moiré. Upscaling
 * interpolates linearly between the nearest source pixels. Both run separably (rows, then
 * columns) on premultiplied alpha, so a transparent neighbour contributes no colour and the
 * edge of a half-transparent shape does not darken.
 */
import { positiveInteger } from '../core/positive-integer.js';
import type { Raster } from '../core/raster.js';
import { validateRaster } from '../core/raster.js';
import { MAX_PIXELS, MAX_SIDE } from './limits.js';

/** A width and a height in pixels. */
export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * The largest size with the aspect ratio of `source` that fits in `box`; never larger than
 * `source` unless `upscale`, and at least 1x1 whatever the box.
 *
 * @example fitPixels({ width: 4000, height: 3000 }, { width: 800, height: 800 }) // { width: 800, height: 600 }
 */
export function fitPixels(source: Size, box: Size, upscale = false): Size {
  const sw = positive(source.width, 'source width');
  const sh = positive(source.height, 'source height');
  const bw = Math.max(1, Math.floor(positive(box.width, 'box width')));
  const bh = Math.max(1, Math.floor(positive(box.height, 'box height')));
  let scale = Math.min(bw / sw, bh / sh);
  if (!upscale) scale = Math.min(scale, 1);
  const width = Math.min(bw, Math.max(1, Math.round(sw * scale)));
  const height = Math.min(bh, Math.max(1, Math.round(sh * scale)));
  return { width, height };
}

function positive(value: number, what: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    throw new RangeError(`${what} must be a positive number, got ${String(value)}`);
  }
  return value;
}

/** For one axis: which source pixels feed each destination pixel, and how much. */
interface AxisWeights {
  /** First contributing source index of each destination index. */
  readonly first: Int32Array;
  /** Offset into `weights` of each destination index; `offset[i+1] - offset[i]` contributors. */
  readonly offset: Int32Array;
  /** Weights, summing to 1 for every destination index. */
  readonly weights: Float64Array;
}

/** Box filter over exact coverage when shrinking; linear interpolation when enlarging. */
function axisWeights(src: number, dst: number): AxisWeights {
  const first = new Int32Array(dst);
  const offset = new Int32Array(dst + 1);
  const list: number[] = [];
  if (dst < src) {
    const scale = src / dst;
    for (let i = 0; i < dst; i++) {
      const lo = i * scale;
      const hi = i === dst - 1 ? src : (i + 1) * scale;
      const s0 = Math.floor(lo);
      const s1 = Math.min(src, Math.ceil(hi));
      first[i] = s0;
      offset[i] = list.length;
      for (let s = s0; s < s1; s++) {
        const cover = Math.min(hi, s + 1) - Math.max(lo, s);
        list.push(cover / (hi - lo));
      }
    }
  } else {
    const scale = src / dst;
    for (let i = 0; i < dst; i++) {
      let x = (i + 0.5) * scale - 0.5;
      if (x < 0) x = 0;
      if (x > src - 1) x = src - 1;
      const s0 = Math.floor(x);
      const f = x - s0;
      first[i] = s0;
      offset[i] = list.length;
      if (f === 0 || s0 + 1 >= src) list.push(1);
      else list.push(1 - f, f);
    }
  }
  offset[dst] = list.length;
  return { first, offset, weights: Float64Array.from(list) };
}

/**
 * A new raster of `width` x `height` resampled from `raster` (area averaging when shrinking,
 * linear when enlarging, premultiplied alpha). Returns `raster` itself when the size is unchanged.
 * A target over `MAX_SIDE` a side or `MAX_PIXELS` in all throws a `RangeError` (see limits.ts).
 *
 * @example resize({ width: 2, height: 2, data }, 1, 1) // the average of the four pixels
 */
export function resize(raster: Raster, width: number, height: number): Raster {
  validateRaster(raster);
  positiveInteger(width, 'resize target width');
  positiveInteger(height, 'resize target height');
  if (width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS)
    throw new RangeError(
      `resize target must be at most ${MAX_SIDE} a side and ${MAX_PIXELS} pixels, got ${width}x${height}`,
    );
  const sw = raster.width;
  const sh = raster.height;
  if (sw === width && sh === height) return raster;
  const src = raster.data;

  // Pass 1: rows. Premultiply as we read; keep floats so the second pass loses nothing.
  const xw = axisWeights(sw, width);
  const mid = new Float32Array(width * sh * 4);
  for (let y = 0; y < sh; y++) {
    const row = y * sw * 4;
    const out = y * width * 4;
    for (let x = 0; x < width; x++) {
      let r = 0,
        g = 0,
        b = 0,
        a = 0;
      let p = row + xw.first[x] * 4;
      for (let k = xw.offset[x], end = xw.offset[x + 1]; k < end; k++, p += 4) {
        const wa = xw.weights[k] * src[p + 3];
        r += src[p] * wa;
        g += src[p + 1] * wa;
        b += src[p + 2] * wa;
        a += wa;
      }
      const o = out + x * 4;
      mid[o] = r;
      mid[o + 1] = g;
      mid[o + 2] = b;
      mid[o + 3] = a;
    }
  }

  // Pass 2: columns, accumulating whole rows so memory is read in order; then un-premultiply.
  const yw = axisWeights(sh, height);
  const data = new Uint8Array(width * height * 4);
  const acc = new Float64Array(width * 4);
  const n = width * 4;
  for (let y = 0; y < height; y++) {
    acc.fill(0);
    let base = yw.first[y] * n;
    for (let k = yw.offset[y], end = yw.offset[y + 1]; k < end; k++, base += n) {
      const w = yw.weights[k];
      for (let i = 0; i < n; i++) acc[i] += mid[base + i] * w;
    }
    const out = y * n;
    for (let i = 0; i < n; i += 4) {
      const a = acc[i + 3];
      if (a < 0.5) continue; // rounds to fully transparent: stays 0,0,0,0
      const inv = 1 / a;
      data[out + i] = clamp(acc[i] * inv);
      data[out + i + 1] = clamp(acc[i + 1] * inv);
      data[out + i + 2] = clamp(acc[i + 2] * inv);
      data[out + i + 3] = clamp(a);
    }
  }
  return { width, height, data };
}

function clamp(v: number): number {
  const r = Math.round(v);
  return r < 0 ? 0 : Math.min(r, 255);
}
