/**
 * Resampling a raster to another size, and fitting a size into a box.
 *
 * Downscaling averages every source pixel a destination pixel covers, weighted by the exact
 * area of coverage (a box filter), which keeps fine detail from aliasing into moiré. Upscaling
 * interpolates linearly between the nearest source pixels. Both run separably (rows, then
 * columns) on premultiplied alpha, so a transparent neighbour contributes no colour and the
 * edge of a half-transparent shape does not darken.
 */
import { positiveInteger } from '../../core/positive-integer.js';
import type { Raster } from '../../core/raster.js';
import { isOpaque, validateRaster } from '../../core/raster.js';
import { MAX_PIXELS, MAX_SIDE } from './limits.js';

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

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
export interface AxisWeights {
  /** First contributing source index of each destination index. */
  readonly first: Int32Array;
  /** Offset into `weights` of each destination index; `offset[i+1] - offset[i]` contributors. */
  readonly offset: Int32Array;
  /** Weights, summing to 1 for every destination index. */
  readonly weights: Float64Array;
}

/**
 * For one axis: box filter over exact coverage when shrinking, linear interpolation when enlarging
 * (also used by symbols-resample.ts, which resamples rows first with the same weights).
 */
export function axisWeights(src: number, dst: number): AxisWeights {
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
  const xw = axisWeights(sw, width);
  const yw = axisWeights(sh, height);
  // Shrinking across on a little-endian machine with 4-byte aligned data: whole pixels read as
  // one 32-bit word each, summed as integers and weighted once (see acrossOpaqueWords). That
  // pass reads every pixel, so it checks the alpha as it goes instead of a scan of its own: an
  // opaque picture (every JPEG) is read once, and one that is not is resampled again from the
  // start with premultiplied alpha (having wasted at most the rows read before the first pixel
  // that is not opaque).
  if (width < sw && LITTLE_ENDIAN && (src.byteOffset & 3) === 0) {
    const words = new Uint32Array(src.buffer, src.byteOffset, sw * sh);
    const opaque = resample(raster, width, height, xw, yw, true, words);
    if (opaque) return opaque;
  }
  return resample(raster, width, height, xw, yw, isOpaque(raster), null) as Raster;
}

/**
 * `resize` once the weights are known: `opaque` says every alpha is 255 (no premultiplying, RGB
 * rows in between); `words` (opaque, shrinking across) reads pixels as 32-bit words and returns
 * null as soon as one is not opaque after all.
 */
function resample(
  raster: Raster,
  width: number,
  height: number,
  xw: AxisWeights,
  yw: AxisWeights,
  opaque: boolean,
  words: Uint32Array | null,
): Raster | null {
  const sw = raster.width;
  const src = raster.data;
  const n = width * (opaque ? 3 : 4);

  // Enlarging across an opaque picture: every destination pixel mixes at most two source pixels.
  const pairs = opaque && width >= sw ? linearPairs(xw, width, 4) : null;

  // Separable: each source row is resampled across once (into a small ring of rows, not a
  // whole intermediate picture), then the rows each output row covers are summed down.
  let taps = 0;
  for (let y = 0; y < height; y++) taps = Math.max(taps, yw.offset[y + 1] - yw.offset[y]);
  const slots = taps + 1;
  const ring = new Float32Array(n * slots);
  const held = new Int32Array(slots).fill(-1);
  const acc = new Float64Array(n);
  const rowAt = new Int32Array(slots);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const k0 = yw.offset[y];
    const end = yw.offset[y + 1];
    for (let k = k0, s = yw.first[y]; k < end; k++, s++) {
      const slot = s % slots;
      if (held[slot] !== s) {
        const row = slot * n;
        if (words) {
          if (acrossOpaqueWords(words, s * sw, xw, width, ring, row) >>> 24 !== 255) return null;
        } else if (pairs) acrossOpaquePairs(src, s * sw * 4, pairs, width, ring, row);
        else if (opaque) acrossOpaque(src, s * sw * 4, xw, width, ring, row);
        else acrossPremultiplied(src, s * sw * 4, xw, width, ring, row);
        held[slot] = s;
      }
    }
    const first = yw.first[y];
    if (opaque && end - k0 <= 3) {
      // Up to three rows (every enlargement, and shrinking by less than 2): summed and written in
      // one pass, without the accumulator row; the same sums in the same order, so the same bytes.
      const w = yw.weights;
      const a = (first % slots) * n;
      const b = end - k0 > 1 ? ((first + 1) % slots) * n : a;
      const c = end - k0 > 2 ? ((first + 2) % slots) * n : a;
      downOpaque(
        ring,
        a,
        w[k0],
        b,
        end - k0 > 1 ? w[k0 + 1] : 0,
        c,
        end - k0 > 2 ? w[k0 + 2] : 0,
        data,
        y * width * 4,
        width,
      );
      continue;
    }
    if (opaque) {
      // Four rows or more: summed pixel by pixel in one function (one to optimise, where three
      // small ones took longer to warm up), in the same order as row by row, so the same bytes.
      for (let t = 0; t < end - k0; t++) rowAt[t] = ((first + t) % slots) * n;
      downOpaqueMany(ring, rowAt, yw.weights, k0, end - k0, data, y * width * 4, width);
      continue;
    }
    acc.fill(0);
    for (let k = k0, s = first; k < end; k++, s++) addScaled(acc, ring, (s % slots) * n, n, yw.weights[k]);
    writeUnpremultiplied(acc, data, y * width * 4, width);
  }
  return { width, height, data };
}

/**
 * acc[i] += from[at + i] x w for i < n. Its own small function, called for every row, so that it
 * is optimised early in a one-shot process rather than waiting for on-stack replacement inside
 * `resize`'s single call.
 */
function addScaled(acc: Float64Array, from: Float32Array, at: number, n: number, w: number): void {
  for (let i = 0; i < n; i++) acc[i] += from[at + i] * w;
}

/**
 * Linear interpolation across, as two element offsets and two weights a destination pixel (the
 * second 0 for one tap); `stride` is the elements a source pixel takes (4 for RGBA, 3 for the
 * symbols resampler's RGB rows).
 */
export interface LinearPairs {
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly leftWeight: Float64Array;
  readonly rightWeight: Float64Array;
}

/** The pairs for enlarging across to `width` pixels of `stride` elements each. */
export function linearPairs(xw: AxisWeights, width: number, stride: number): LinearPairs {
  const left = new Int32Array(width);
  const right = new Int32Array(width);
  const leftWeight = new Float64Array(width);
  const rightWeight = new Float64Array(width);
  for (let x = 0; x < width; x++) {
    const k = xw.offset[x];
    const two = xw.offset[x + 1] - k > 1;
    left[x] = xw.first[x] * stride;
    right[x] = (xw.first[x] + (two ? 1 : 0)) * stride;
    leftWeight[x] = xw.weights[k];
    rightWeight[x] = two ? xw.weights[k + 1] : 0;
  }
  return { left, right, leftWeight, rightWeight };
}

/**
 * As `acrossOpaque` when enlarging, without the loop over taps (measured: that loop was most of
 * the resize of a picture enlarged across). The same products in the same order, so the same values.
 */
function acrossOpaquePairs(
  src: Uint8Array,
  p0: number,
  pairs: LinearPairs,
  width: number,
  out: Float32Array,
  o: number,
): void {
  const { left, right, leftWeight, rightWeight } = pairs;
  for (let x = 0; x < width; x++, o += 3) {
    const p = p0 + left[x];
    const q = p0 + right[x];
    const wp = leftWeight[x];
    const wq = rightWeight[x];
    out[o] = src[p] * wp + src[q] * wq;
    out[o + 1] = src[p + 1] * wp + src[q + 1] * wq;
    out[o + 2] = src[p + 2] * wp + src[q + 2] * wq;
  }
}

/** One source row (from byte `p0`) resampled across to `width` RGB floats at `out[o]`. */
function acrossOpaque(src: Uint8Array, p0: number, xw: AxisWeights, width: number, out: Float32Array, o: number): void {
  const { first, offset, weights } = xw;
  for (let x = 0; x < width; x++, o += 3) {
    let r = 0,
      g = 0,
      b = 0;
    let p = p0 + first[x] * 4;
    for (let k = offset[x], end = offset[x + 1]; k < end; k++, p += 4) {
      const w = weights[k];
      r += src[p] * w;
      g += src[p + 1] * w;
      b += src[p + 2] * w;
    }
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
  }
}

/**
 * As `acrossOpaque` when shrinking, over 32-bit pixels (from pixel `i0`): a box filter gives
 * every source pixel strictly inside a destination pixel the same weight, so those are summed
 * as integers and weighted once; only the two edge pixels (partly covered) carry their own.
 * Returns the AND of every pixel of the row (its top byte is 255 when they are all opaque).
 */
function acrossOpaqueWords(
  px: Uint32Array,
  i0: number,
  xw: AxisWeights,
  width: number,
  out: Float32Array,
  o: number,
): number {
  const { first, offset, weights } = xw;
  let all = -1;
  for (let x = 0; x < width; x++, o += 3) {
    const k0 = offset[x],
      last = offset[x + 1] - 1;
    const i = i0 + first[x];
    let p = px[i];
    all &= p;
    let w = weights[k0];
    let r = (p & 255) * w,
      g = ((p >>> 8) & 255) * w,
      b = ((p >>> 16) & 255) * w;
    if (last > k0) {
      let ir = 0,
        ig = 0,
        ib = 0;
      for (let j = i + 1, end = i + last - k0; j < end; j++) {
        p = px[j];
        all &= p;
        ir += p & 255;
        ig += (p >>> 8) & 255;
        ib += (p >>> 16) & 255;
      }
      if (last > k0 + 1) {
        w = weights[k0 + 1];
        r += ir * w;
        g += ig * w;
        b += ib * w;
      }
      p = px[i + last - k0];
      all &= p;
      w = weights[last];
      r += (p & 255) * w;
      g += ((p >>> 8) & 255) * w;
      b += ((p >>> 16) & 255) * w;
    }
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
  }
  return all;
}

/** As `acrossOpaque`, premultiplied by alpha: RGBA floats, colour x alpha. */
function acrossPremultiplied(
  src: Uint8Array,
  p0: number,
  xw: AxisWeights,
  width: number,
  out: Float32Array,
  o: number,
): void {
  const { first, offset, weights } = xw;
  for (let x = 0; x < width; x++, o += 4) {
    let r = 0,
      g = 0,
      b = 0,
      a = 0;
    let p = p0 + first[x] * 4;
    for (let k = offset[x], end = offset[x + 1]; k < end; k++, p += 4) {
      const wa = weights[k] * src[p + 3];
      r += src[p] * wa;
      g += src[p + 1] * wa;
      b += src[p + 2] * wa;
      a += wa;
    }
    out[o] = r;
    out[o + 1] = g;
    out[o + 2] = b;
    out[o + 3] = a;
  }
}

/** One output row of an opaque picture from up to three ring rows (`a`, `b`, `c`) and their weights. */
function downOpaque(
  ring: Float32Array,
  a: number,
  wa: number,
  b: number,
  wb: number,
  c: number,
  wc: number,
  data: Uint8Array,
  out: number,
  width: number,
): void {
  for (let x = 0, i = 0; x < width; x++, i += 3, out += 4) {
    data[out] = clamp(ring[a + i] * wa + ring[b + i] * wb + ring[c + i] * wc);
    data[out + 1] = clamp(ring[a + i + 1] * wa + ring[b + i + 1] * wb + ring[c + i + 1] * wc);
    data[out + 2] = clamp(ring[a + i + 2] * wa + ring[b + i + 2] * wb + ring[c + i + 2] * wc);
    data[out + 3] = 255;
  }
}

/**
 * One output row of an opaque picture from `taps` ring rows (at `rowAt`, weighted from
 * `weights[k0]`): each channel the first row's value x its weight, then the others added in
 * order, as setting and adding whole rows would, so the same values.
 */
function downOpaqueMany(
  ring: Float32Array,
  rowAt: Int32Array,
  weights: Float64Array,
  k0: number,
  taps: number,
  data: Uint8Array,
  out: number,
  width: number,
): void {
  const w0 = weights[k0];
  const a0 = rowAt[0];
  for (let x = 0, i = 0; x < width; x++, i += 3, out += 4) {
    let a = a0 + i;
    let r = ring[a] * w0,
      g = ring[a + 1] * w0,
      b = ring[a + 2] * w0;
    for (let t = 1; t < taps; t++) {
      a = rowAt[t] + i;
      const w = weights[k0 + t];
      r += ring[a] * w;
      g += ring[a + 1] * w;
      b += ring[a + 2] * w;
    }
    data[out] = clamp(r);
    data[out + 1] = clamp(g);
    data[out + 2] = clamp(b);
    data[out + 3] = 255;
  }
}

/** One output row from premultiplied RGBA sums: colour divided by alpha again. */
function writeUnpremultiplied(acc: Float64Array, data: Uint8Array, out: number, width: number): void {
  for (let i = 0, end = width * 4; i < end; i += 4) {
    const a = acc[i + 3];
    if (a < 0.5) continue; // rounds to fully transparent: stays 0,0,0,0
    const inv = 1 / a;
    data[out + i] = clamp(acc[i] * inv);
    data[out + i + 1] = clamp(acc[i + 1] * inv);
    data[out + i + 2] = clamp(acc[i + 2] * inv);
    data[out + i + 3] = clamp(a);
  }
}

/**
 * `v` rounded half up and clamped to a byte. `(v + 0.5) | 0` is Math.round for 0 <= v < 255.5
 * without its call, which was the largest single cost of writing a row (profiled).
 */
function clamp(v: number): number {
  return v < 0.5 ? 0 : v >= 254.5 ? 255 : (v + 0.5) | 0;
}
