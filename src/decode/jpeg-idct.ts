/**
 * The inverse DCT of one 8x8 block of quantized coefficients into samples, at full size or
 * reduced in the DCT domain to 4x4, 2x2 or 1x1 (libjpeg's `scale_denom` 2, 4, 8): an N-point
 * inverse transform of the lowest N x N coefficients gives the picture sampled at the centre of
 * each (8/N)-pixel cell, at a small fraction of the cost. See docs/decode.md, "JPEG > Scaled IDCT".
 */

/** Output block side: 8 (full), 4, 2 or 1 (the DC term alone). */
export type BlockSize = 8 | 4 | 2 | 1;

/** Natural index of the k-th coefficient in zigzag order (T.81 Figure A.6). */
export const ZIGZAG = Uint8Array.from([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

/** The coefficients the transform of one block size reads: the lowest `size` x `size`. */
export interface CoefficientsRead {
  /** Their natural indices (row * 8 + column). */
  readonly natural: Uint8Array;
  /** The highest zigzag position among them: a sequential block's later terms are never read. */
  readonly lastZigzag: number;
}

/** What the transform of each block size reads, [size]. */
const READ: Partial<Record<BlockSize, CoefficientsRead>> = {};

/**
 * The coefficients the `size`-point transform reads (see `CoefficientsRead`).
 *
 * @example coefficientsRead(2) // { natural: [0, 1, 8, 9], lastZigzag: 4 }
 */
export function coefficientsRead(size: BlockSize): CoefficientsRead {
  let read = READ[size];
  if (!read) {
    const natural: number[] = [];
    let lastZigzag = 0;
    for (let k = 0; k < 64; k++) {
      const n = ZIGZAG[k] as number;
      if ((n & 7) < size && n >> 3 < size) {
        natural.push(n);
        lastZigzag = k;
      }
    }
    read = { natural: Uint8Array.from(natural.sort((a, b) => a - b)), lastZigzag };
    READ[size] = read;
  }
  return read;
}

/** The 1-D weight of frequency u in T.81's inverse DCT: C(u)/2, with C(0) = 1/sqrt(2). */
function weight(u: number): number {
  return u === 0 ? Math.SQRT1_2 / 2 : 0.5;
}

/** AAN's per-frequency factors, folded into the table so the 8-point transform needs 5 multiplies. */
const AAN = Array.from({ length: 8 }, (_, u) => (u === 0 ? 1 : Math.cos((u * Math.PI) / 16) * Math.SQRT2));

/**
 * A quantization table (as stored, zigzag order) turned into the multipliers the transform of
 * `size` wants, in natural order: dequantization and the transform's constant factors in one.
 */
export function dequantizer(zigzag: Uint16Array, size: BlockSize): Float64Array {
  const out = new Float64Array(64);
  for (let k = 0; k < 64; k++) {
    const n = ZIGZAG[k] as number;
    const u = n & 7;
    const v = n >> 3;
    const q = zigzag[k] as number;
    out[n] = size === 8 ? (q * (AAN[u] as number) * (AAN[v] as number)) / 8 : q * weight(u) * weight(v);
  }
  return out;
}

/** cos((2k+1)uπ/2N) for the N-point transforms, [k * N + u]. */
function cosines(n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let k = 0; k < n; k++)
    for (let u = 0; u < n; u++) out[k * n + u] = Math.cos(((2 * k + 1) * u * Math.PI) / (2 * n));
  return out;
}
const COS4 = cosines(4);

const work = new Float64Array(64);

/**
 * Full 8x8 inverse DCT (Arai, Agui and Nakajima's factorization, floating point), columns then
 * rows, writing `sample + 128` into `out` (clamped by the array).
 */
export function idct8(
  coefs: Int16Array,
  at: number,
  q: Float64Array,
  out: Uint8ClampedArray,
  outAt: number,
  stride: number,
): void {
  const w = work;
  for (let c = 0; c < 8; c++) {
    const i = at + c;
    // A column with no AC energy is flat: the common case in compressed photos.
    if (
      coefs[i + 8] === 0 &&
      coefs[i + 16] === 0 &&
      coefs[i + 24] === 0 &&
      coefs[i + 32] === 0 &&
      coefs[i + 40] === 0 &&
      coefs[i + 48] === 0 &&
      coefs[i + 56] === 0
    ) {
      const dc = (coefs[i] as number) * (q[c] as number);
      for (let r = 0; r < 64; r += 8) w[r + c] = dc;
      continue;
    }
    transform8(
      w,
      c,
      8,
      (coefs[i] as number) * (q[c] as number),
      (coefs[i + 8] as number) * (q[c + 8] as number),
      (coefs[i + 16] as number) * (q[c + 16] as number),
      (coefs[i + 24] as number) * (q[c + 24] as number),
      (coefs[i + 32] as number) * (q[c + 32] as number),
      (coefs[i + 40] as number) * (q[c + 40] as number),
      (coefs[i + 48] as number) * (q[c + 48] as number),
      (coefs[i + 56] as number) * (q[c + 56] as number),
    );
  }
  for (let r = 0; r < 64; r += 8) {
    transform8(
      w,
      r,
      1,
      w[r] as number,
      w[r + 1] as number,
      w[r + 2] as number,
      w[r + 3] as number,
      w[r + 4] as number,
      w[r + 5] as number,
      w[r + 6] as number,
      w[r + 7] as number,
    );
    const o = outAt + (r >> 3) * stride;
    for (let x = 0; x < 8; x++) out[o + x] = (w[r + x] as number) + 128;
  }
}

/** One 8-point AAN inverse transform of d0..d7, written to w[at + k * step]. */
function transform8(
  w: Float64Array,
  at: number,
  step: number,
  d0: number,
  d1: number,
  d2: number,
  d3: number,
  d4: number,
  d5: number,
  d6: number,
  d7: number,
): void {
  // Even part.
  const e10 = d0 + d4;
  const e11 = d0 - d4;
  const e13 = d2 + d6;
  const e12 = (d2 - d6) * Math.SQRT2 - e13;
  const e0 = e10 + e13;
  const e3 = e10 - e13;
  const e1 = e11 + e12;
  const e2 = e11 - e12;
  // Odd part.
  const z13 = d5 + d3;
  const z10 = d5 - d3;
  const z11 = d1 + d7;
  const z12 = d1 - d7;
  const o7 = z11 + z13;
  const o11 = (z11 - z13) * Math.SQRT2;
  const z5 = (z10 + z12) * 1.8477590650225735; // 2 cos(π/8)
  const o10 = z5 - z12 * 1.0823922002923938; // 2 (cos(π/8) - cos(3π/8))
  const o12 = z5 - z10 * 2.613125929752753; // 2 (cos(π/8) + cos(3π/8))
  const o6 = o12 - o7;
  const o5 = o11 - o6;
  const o4 = o10 - o5;
  w[at] = e0 + o7;
  w[at + 7 * step] = e0 - o7;
  w[at + step] = e1 + o6;
  w[at + 6 * step] = e1 - o6;
  w[at + 2 * step] = e2 + o5;
  w[at + 5 * step] = e2 - o5;
  w[at + 3 * step] = e3 + o4;
  w[at + 4 * step] = e3 - o4;
}

/** 4x4 from the lowest 4x4 coefficients (scale 1/2). */
export function idct4(
  coefs: Int16Array,
  at: number,
  q: Float64Array,
  out: Uint8ClampedArray,
  outAt: number,
  stride: number,
): void {
  const w = work;
  // Columns: w[k * 4 + u] = sum over v of F(u, v) cos(k, v).
  for (let u = 0; u < 4; u++) {
    const f0 = (coefs[at + u] as number) * (q[u] as number);
    if (coefs[at + 8 + u] === 0 && coefs[at + 16 + u] === 0 && coefs[at + 24 + u] === 0) {
      // A flat column (the common case in chroma): the sums below would add zeros to f0.
      w[u] = f0;
      w[4 + u] = f0;
      w[8 + u] = f0;
      w[12 + u] = f0;
      continue;
    }
    const f1 = (coefs[at + 8 + u] as number) * (q[8 + u] as number);
    const f2 = (coefs[at + 16 + u] as number) * (q[16 + u] as number);
    const f3 = (coefs[at + 24 + u] as number) * (q[24 + u] as number);
    for (let k = 0; k < 4; k++) {
      const c = k * 4;
      w[c + u] = f0 + f1 * (COS4[c + 1] as number) + f2 * (COS4[c + 2] as number) + f3 * (COS4[c + 3] as number);
    }
  }
  for (let k = 0; k < 4; k++) {
    const r = k * 4;
    const g0 = w[r] as number;
    const g1 = w[r + 1] as number;
    const g2 = w[r + 2] as number;
    const g3 = w[r + 3] as number;
    const o = outAt + k * stride;
    if (g1 === 0 && g2 === 0 && g3 === 0) {
      const flat = g0 + 128;
      out[o] = flat;
      out[o + 1] = flat;
      out[o + 2] = flat;
      out[o + 3] = flat;
      continue;
    }
    for (let x = 0; x < 4; x++) {
      const c = x * 4;
      out[o + x] =
        g0 + g1 * (COS4[c + 1] as number) + g2 * (COS4[c + 2] as number) + g3 * (COS4[c + 3] as number) + 128;
    }
  }
}

/** 2x2 from the lowest 2x2 coefficients (scale 1/4). */
export function idct2(
  coefs: Int16Array,
  at: number,
  q: Float64Array,
  out: Uint8ClampedArray,
  outAt: number,
  stride: number,
): void {
  const c = Math.SQRT1_2; // cos(π/4) = cos(3π/4) negated
  const f00 = (coefs[at] as number) * (q[0] as number);
  const f01 = (coefs[at + 1] as number) * (q[1] as number) * c;
  const f10 = (coefs[at + 8] as number) * (q[8] as number) * c;
  const f11 = (coefs[at + 9] as number) * (q[9] as number) * 0.5;
  out[outAt] = f00 + f01 + f10 + f11 + 128;
  out[outAt + 1] = f00 - f01 + f10 - f11 + 128;
  out[outAt + stride] = f00 + f01 - f10 - f11 + 128;
  out[outAt + stride + 1] = f00 - f01 - f10 + f11 + 128;
}

/** 1x1: the block's mean, from the DC term alone (scale 1/8). */
export function idct1(
  coefs: Int16Array,
  at: number,
  q: Float64Array,
  out: Uint8ClampedArray,
  outAt: number,
  _stride: number,
): void {
  out[outAt] = (coefs[at] as number) * (q[0] as number) + 128;
}

/** The transform for a block size. */
export function idctFor(size: BlockSize): typeof idct8 {
  return size === 8 ? idct8 : size === 4 ? idct4 : size === 2 ? idct2 : idct1;
}
