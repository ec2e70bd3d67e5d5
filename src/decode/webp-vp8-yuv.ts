/**
 * From VP8's Y'CbCr 4:2:0 planes to RGBA, as libwebp's default output does (dwebp without
 * `-nofancy`): chroma is upsampled "fancily", each output pixel mixing the four nearest chroma
 * samples 9:3:3:1 (the frame's edges repeat their samples), and converted with BT.601 limited-range
 * coefficients in 14-bit fixed point. The integer steps (two roundings in the upsampler, the
 * fixed-point products) are libwebp's, so the bytes match dwebp's.
 */

/** (v * coefficient) >> 8: the high half of a 16-bit product, as libwebp computes it. */
function productTable(coefficient: number): Int32Array {
  const t = new Int32Array(256);
  for (let v = 0; v < 256; v++) t[v] = (v * coefficient) >> 8;
  return t;
}

/** libwebp's fixed-point products of the conversion: luma scale, V to red, U and V to green, U to blue (exported for webp-vp8-reduce.ts's clipping bound). */
export const Y_SCALE = productTable(19077);
export const V_TO_R = productTable(26149);
export const U_TO_G = productTable(6419);
export const V_TO_G = productTable(13320);
export const U_TO_B = productTable(33050);

/** 14-bit fixed point to 0..255. */
function clip(v: number): number {
  return (v & ~16383) === 0 ? v >> 6 : v < 0 ? 0 : 255;
}

/** The planes of a decoded frame: `y` is `yStride` wide, `u` and `v` are `uvStride` wide, each at least (width + 1) / 2. */
export interface Planes {
  readonly y: Uint8Array;
  readonly u: Uint8Array;
  readonly v: Uint8Array;
  readonly yStride: number;
  readonly uvStride: number;
}

/**
 * Upsamples one row of chroma for output row `row` into `outU`/`outV` (one sample per pixel):
 * `near` is the chroma row closest to it, `far` the other one it mixes in.
 */
export function upsampleRow(src: Uint8Array, near: number, far: number, width: number, out: Int32Array): void {
  // Column 0 (and the last column of an even width) mixes vertically only.
  let n0 = src[near];
  let f0 = src[far];
  out[0] = (3 * n0 + f0 + 2) >> 2;
  const pairs = (width - 1) >> 1;
  for (let x = 1; x <= pairs; x++) {
    const n1 = src[near + x];
    const f1 = src[far + x];
    const sum = n0 + n1 + f0 + f1 + 8;
    const diagonal12 = (sum + 2 * (n1 + f0)) >> 3;
    const diagonal03 = (sum + 2 * (n0 + f1)) >> 3;
    out[2 * x - 1] = (diagonal12 + n0) >> 1;
    out[2 * x] = (diagonal03 + n1) >> 1;
    n0 = n1;
    f0 = f1;
  }
  if ((width & 1) === 0) out[width - 1] = (3 * n0 + f0 + 2) >> 2;
}

/** One pixel's Y, U, V (chroma already upsampled) to R, G, B in `out[0..2]`, as `yuvToRgba` converts it. */
export function convertPixel(luma: number, cu: number, cv: number, out: Uint8Array): void {
  const l = Y_SCALE[luma] as number;
  out[0] = clip(l + (V_TO_R[cv] as number) - 14234);
  out[1] = clip(l - (U_TO_G[cu] as number) - (V_TO_G[cv] as number) + 8708);
  out[2] = clip(l + (U_TO_B[cu] as number) - 17685);
}

/** One row of pixels into 32-bit little-endian RGBA words from `out[at]`. */
function convertRow(
  y: Uint8Array,
  yRow: number,
  rowU: Int32Array,
  rowV: Int32Array,
  width: number,
  out: Uint32Array,
  at: number,
): void {
  for (let x = 0; x < width; x++) {
    const luma = Y_SCALE[y[yRow + x]];
    const cu = rowU[x];
    const cv = rowV[x];
    const r = clip(luma + V_TO_R[cv] - 14234);
    const g = clip(luma - U_TO_G[cu] - V_TO_G[cv] + 8708);
    const b = clip(luma + U_TO_B[cu] - 17685);
    out[at + x] = 0xff000000 | (b << 16) | (g << 8) | r;
  }
}

/** Whether a Uint32Array stores its words little-endian (every platform Node runs on, but checked). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** Converts the planes of a `width` x `height` frame into RGBA (alpha 255). */
export function yuvToRgba(planes: Planes, width: number, height: number): Uint8Array {
  const { y, u, v, yStride, uvStride } = planes;
  const out = new Uint8Array(width * height * 4);
  // One 32-bit store a pixel: R in the low byte of a little-endian word.
  const words = LITTLE_ENDIAN ? new Uint32Array(out.buffer) : null;
  const rowU = new Int32Array(width + 1);
  const rowV = new Int32Array(width + 1);
  const chromaRows = (height + 1) >> 1;
  for (let row = 0; row < height; row++) {
    // Row 2k-1 leans on chroma row k-1 and mixes in row k; row 2k the other way round.
    let near: number;
    let far: number;
    if (row === 0) {
      near = 0;
      far = 0;
    } else if (row & 1) {
      near = (row - 1) >> 1;
      far = Math.min((row + 1) >> 1, chromaRows - 1);
    } else {
      near = row >> 1;
      far = near - 1;
    }
    upsampleRow(u, near * uvStride, far * uvStride, width, rowU);
    upsampleRow(v, near * uvStride, far * uvStride, width, rowV);
    const yRow = row * yStride;
    const first = row * width;
    if (words) convertRow(y, yRow, rowU, rowV, width, words, first);
    else {
      for (let x = 0; x < width; x++) {
        const luma = Y_SCALE[y[yRow + x]];
        const o = (first + x) * 4;
        out[o] = clip(luma + V_TO_R[rowV[x]] - 14234);
        out[o + 1] = clip(luma - U_TO_G[rowU[x]] - V_TO_G[rowV[x]] + 8708);
        out[o + 2] = clip(luma + U_TO_B[rowU[x]] - 17685);
        out[o + 3] = 255;
      }
    }
  }
  return out;
}
