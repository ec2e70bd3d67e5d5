/**
 * A VP8 frame's planes to RGBA `factor` times smaller on each side, for a picture that will be
 * drawn that small: each block of `factor` x `factor` pixels becomes one, and the full-size
 * chroma upsampling and colour conversion are never done. The block's luma is averaged; its
 * chroma is the average of what libwebp's fancy upsampler would give its pixels, computed from
 * the chroma samples with the upsampler's own 9:3:3:1 weights (it is linear, so the average of
 * its output is a weighted sum of its input); the one colour conversion of those averages is the
 * full decode's. Two kinds of block are converted pixel by pixel instead, as the full decode
 * converts them: one whose alpha is neither all opaque nor all transparent (averaged with its
 * alpha as weight, as the renderer's resize is), and one whose ranges of luma and chroma could
 * make a pixel clip (the average of clipped values is not the clipped average). So the result is
 * the full decode averaged down, within the rounding of the averages (docs/decode.md, "WebP at
 * the size it is drawn").
 */
import { convertPixel, type Planes, U_TO_B, U_TO_G, upsampleRow, V_TO_G, V_TO_R, Y_SCALE } from './webp-vp8-yuv.js';

/**
 * For one axis of `size` pixels whose chroma has `(size + 1) >> 1` samples: each output index's
 * chroma samples (from `first[o]`, `count[o]` of them) and their weights in quarters, the sum
 * over the output's pixels of the upsampler's 3/4 for the nearest sample and 1/4 for the other
 * (pixel `p`: nearest `p >> 1`, other the one on the far side of `p`, clamped at the edges).
 */
function chromaWeights(size: number, factor: number): { first: Int32Array; count: Int32Array; weights: Int32Array } {
  const samples = (size + 1) >> 1;
  const outputs = Math.ceil(size / factor);
  const first = new Int32Array(outputs);
  const count = new Int32Array(outputs);
  // An output's pixels reach at most one sample beyond either end of the samples they lie on.
  const span = (factor >> 1) + 3;
  const weights = new Int32Array(outputs * span);
  for (let o = 0; o < outputs; o++) {
    const p0 = o * factor;
    const p1 = Math.min(size, p0 + factor);
    const lo = Math.max(0, (p0 >> 1) - 1);
    const hi = Math.min(samples - 1, ((p1 - 1) >> 1) + 1);
    first[o] = lo;
    count[o] = hi - lo + 1;
    for (let p = p0; p < p1; p++) {
      const near = p >> 1;
      const far = Math.min(samples - 1, Math.max(0, p & 1 ? near + 1 : near - 1));
      weights[o * span + near - lo] += 3;
      weights[o * span + far - lo] += 1;
    }
  }
  return { first, count, weights };
}

/**
 * Converts the planes of a `width` x `height` frame into RGBA `factor` times smaller on each side
 * (rounded up; the last block of a row or column averages the pixels it has). With `alpha` (the
 * frame's full-size alpha plane) a block's alpha is its average, and the colour of a block that
 * is partly transparent is weighted by it; a block with no alpha at all is 0, 0, 0, 0.
 */
export function reducedYuvToRgba(
  planes: Planes,
  width: number,
  height: number,
  factor: number,
  alpha: Uint8Array | null = null,
): { width: number; height: number; data: Uint8Array } {
  const { y, u, v, yStride, uvStride } = planes;
  const ow = Math.ceil(width / factor);
  const oh = Math.ceil(height / factor);
  const out = new Uint8Array(ow * oh * 4);
  const across = chromaWeights(width, factor);
  const down = chromaWeights(height, factor);
  const spanX = (factor >> 1) + 3;
  const spanY = spanX;
  const ySums = new Float64Array(ow);
  const uSums = new Float64Array(ow);
  const vSums = new Float64Array(ow);
  const aSums = new Float64Array(ow);
  const rowU = new Int32Array(width + 1);
  const rowV = new Int32Array(width + 1);
  const pixel = new Uint8Array(4);
  const weighted = new Float64Array(ow * 4);
  // Per output pixel of the row: the block's luma range, its chroma samples' ranges (U, V).
  const yMin = new Uint8Array(ow);
  const yMax = new Uint8Array(ow);
  const cMin = new Uint8Array(ow * 2);
  const cMax = new Uint8Array(ow * 2);
  const perPixel = new Uint8Array(ow);
  for (let oy = 0; oy < oh; oy++) {
    const y0 = oy * factor;
    const y1 = Math.min(height, y0 + factor);
    ySums.fill(0);
    yMin.fill(255);
    yMax.fill(0);
    cMin.fill(255);
    cMax.fill(0);
    uSums.fill(0);
    vSums.fill(0);
    aSums.fill(0);
    for (let row = y0; row < y1; row++) {
      const at = row * yStride;
      for (let ox = 0, x = 0; ox < ow; ox++) {
        const end = Math.min(width, x + factor);
        let s = 0;
        let lo = yMin[ox] as number;
        let hi = yMax[ox] as number;
        for (; x < end; x++) {
          const l = y[at + x] as number;
          s += l;
          if (l < lo) lo = l;
          if (l > hi) hi = l;
        }
        ySums[ox] = (ySums[ox] as number) + s;
        yMin[ox] = lo;
        yMax[ox] = hi;
      }
      if (alpha) {
        const aAt = row * width;
        for (let ox = 0, x = 0; ox < ow; ox++) {
          const end = Math.min(width, x + factor);
          let s = 0;
          for (; x < end; x++) s += alpha[aAt + x] as number;
          aSums[ox] = (aSums[ox] as number) + s;
        }
      }
    }
    // Chroma: every sample row that reaches this output row, each weighted across and down.
    const rowFirst = down.first[oy] as number;
    for (let k = 0; k < (down.count[oy] as number); k++) {
      const wy = down.weights[oy * spanY + k] as number;
      if (wy === 0) continue;
      const cAt = (rowFirst + k) * uvStride;
      for (let ox = 0; ox < ow; ox++) {
        const c0 = cAt + (across.first[ox] as number);
        const wAt = ox * spanX;
        let su = 0;
        let sv = 0;
        let uLo = cMin[ox * 2] as number;
        let uHi = cMax[ox * 2] as number;
        let vLo = cMin[ox * 2 + 1] as number;
        let vHi = cMax[ox * 2 + 1] as number;
        for (let j = 0; j < (across.count[ox] as number); j++) {
          const wx = across.weights[wAt + j] as number;
          if (wx === 0) continue;
          const cu = u[c0 + j] as number;
          const cv = v[c0 + j] as number;
          su += wx * cu;
          sv += wx * cv;
          if (cu < uLo) uLo = cu;
          if (cu > uHi) uHi = cu;
          if (cv < vLo) vLo = cv;
          if (cv > vHi) vHi = cv;
        }
        cMin[ox * 2] = uLo;
        cMax[ox * 2] = uHi;
        cMin[ox * 2 + 1] = vLo;
        cMax[ox * 2 + 1] = vHi;
        uSums[ox] = (uSums[ox] as number) + wy * su;
        vSums[ox] = (vSums[ox] as number) + wy * sv;
      }
    }
    const rows = y1 - y0;
    let exact = false;
    for (let ox = 0; ox < ow; ox++) {
      const n = Math.min(factor, width - ox * factor) * rows;
      const o = (oy * ow + ox) * 4;
      const a = alpha ? (aSums[ox] as number) : 255 * n;
      const clips =
        a > 0 &&
        mayClip(
          yMin[ox] as number,
          yMax[ox] as number,
          cMin[ox * 2] as number,
          cMax[ox * 2] as number,
          cMin[ox * 2 + 1] as number,
          cMax[ox * 2 + 1] as number,
        );
      perPixel[ox] = clips || (a > 0 && a < 255 * n) ? 1 : 0;
      if (perPixel[ox] === 1) exact = true;
      else if (a === 255 * n) {
        const ym = Math.round((ySums[ox] as number) / n);
        const um = Math.round((uSums[ox] as number) / (16 * n));
        const vm = Math.round((vSums[ox] as number) / (16 * n));
        convertPixel(ym, um, vm, pixel);
        out[o] = pixel[0] as number;
        out[o + 1] = pixel[1] as number;
        out[o + 2] = pixel[2] as number;
        out[o + 3] = 255;
      }
      // else: nothing shows through the block; it stays 0, 0, 0, 0
    }
    if (exact) perPixelBlocks(planes, alpha, width, height, factor, oy, perPixel, out, rowU, rowV, weighted);
  }
  return { width: ow, height: oh, data: out };
}

/**
 * Whether some pixel of a block whose luma lies in `yLo..yHi` and chroma samples in the ranges
 * given may leave 0..255 in a channel (the conversion is monotone in each input, and an upsampled
 * chroma value lies between the samples it mixes). Such a block is converted pixel by pixel: the
 * average of clipped values is not the clipped average.
 */
function mayClip(yLo: number, yHi: number, uLo: number, uHi: number, vLo: number, vHi: number): boolean {
  const lo = Y_SCALE[yLo] as number;
  const hi = Y_SCALE[yHi] as number;
  if (lo + (V_TO_R[vLo] as number) - 14234 < 0 || hi + (V_TO_R[vHi] as number) - 14234 > 16383) return true;
  if (lo - (U_TO_G[uHi] as number) - (V_TO_G[vHi] as number) + 8708 < 0) return true;
  if (hi - (U_TO_G[uLo] as number) - (V_TO_G[vLo] as number) + 8708 > 16383) return true;
  return lo + (U_TO_B[uLo] as number) - 17685 < 0 || hi + (U_TO_B[uHi] as number) - 17685 > 16383;
}

/**
 * The blocks of output row `oy` marked in `perPixel` (partly transparent, or whose pixels may
 * clip): each pixel converted as the full decode converts it (fancy upsampling included), then
 * averaged with its alpha (255 without a plane) as weight.
 */
function perPixelBlocks(
  planes: Planes,
  alpha: Uint8Array | null,
  width: number,
  height: number,
  factor: number,
  oy: number,
  perPixel: Uint8Array,
  out: Uint8Array,
  rowU: Int32Array,
  rowV: Int32Array,
  weighted: Float64Array,
): void {
  const { y, u, v, yStride, uvStride } = planes;
  const ow = Math.ceil(width / factor);
  const y0 = oy * factor;
  const y1 = Math.min(height, y0 + factor);
  const chromaRows = (height + 1) >> 1;
  const pixel = new Uint8Array(4);
  weighted.fill(0);
  for (let row = y0; row < y1; row++) {
    // The same chroma rows as yuvToRgba's for this row.
    const near = row === 0 ? 0 : row & 1 ? (row - 1) >> 1 : row >> 1;
    const far = row === 0 ? 0 : row & 1 ? Math.min((row + 1) >> 1, chromaRows - 1) : near - 1;
    upsampleRow(u, near * uvStride, far * uvStride, width, rowU);
    upsampleRow(v, near * uvStride, far * uvStride, width, rowV);
    for (let ox = 0; ox < ow; ox++) {
      if (perPixel[ox] !== 1) continue;
      const end = Math.min(width, (ox + 1) * factor);
      const w = ox * 4;
      for (let x = ox * factor; x < end; x++) {
        const a = alpha ? (alpha[row * width + x] as number) : 255;
        if (a === 0) continue;
        convertPixel(y[row * yStride + x] as number, rowU[x] as number, rowV[x] as number, pixel);
        weighted[w] = (weighted[w] as number) + a * (pixel[0] as number);
        weighted[w + 1] = (weighted[w + 1] as number) + a * (pixel[1] as number);
        weighted[w + 2] = (weighted[w + 2] as number) + a * (pixel[2] as number);
        weighted[w + 3] = (weighted[w + 3] as number) + a;
      }
    }
  }
  for (let ox = 0; ox < ow; ox++) {
    if (perPixel[ox] !== 1) continue;
    const n = Math.min(factor, width - ox * factor) * (y1 - y0);
    const w = ox * 4;
    const a = weighted[w + 3] as number;
    if (a === 0) continue;
    const o = (oy * ow + ox) * 4;
    out[o] = Math.round((weighted[w] as number) / a);
    out[o + 1] = Math.round((weighted[w + 1] as number) / a);
    out[o + 2] = Math.round((weighted[w + 2] as number) / a);
    out[o + 3] = Math.round(a / n);
  }
}
