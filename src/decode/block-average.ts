/**
 * Full-size samples from a peer (HEIC's libheif-js, JPEG XL's wasm-vips) as RGBA8, averaged down
 * by reduction.ts's whole factor. One rule for alpha, the one of webp-vp8-reduce.ts and the
 * renderer's resize: colour weighted by alpha, so the colour a transparent pixel happens to hold
 * does not bleed into an edge, and a block with no alpha at all is 0, 0, 0, 0. Loaded only with
 * the decoders that use it (docs/decode.md, "Reduced decoding").
 */
import type { Raster } from '../core/raster.js';

/** Interleaved samples of 1 to 4 bands: grey, grey + alpha, RGB, RGBA. */
export interface Samples {
  /** 8-bit or 16-bit samples. */
  readonly data: Uint8Array | Uint16Array;
  readonly width: number;
  readonly height: number;
  readonly bands: 1 | 2 | 3 | 4;
  /** Samples from the start of one row to the next (`width * bands` unless rows are padded). */
  readonly stride: number;
  /** What a sample is multiplied by to be 0..255: 1 for 8-bit, 1 / 257 for 16-bit. */
  readonly scale: number;
}

/**
 * `samples` as RGBA8 (grey spread to RGB, opaque without an alpha band), each `factor` x `factor`
 * block averaged into one pixel (the last block of a row or column averages the pixels it has):
 * its alpha the mean alpha, its colour the mean weighted by alpha, a wholly transparent block
 * 0, 0, 0, 0. At factor 1 there is no block: every pixel as stored, a transparent one's colour too.
 */
export function averageBlocks(samples: Samples, factor: number): Raster {
  const { data: src, width, height, bands, stride, scale } = samples;
  const ow = Math.ceil(width / factor);
  const oh = Math.ceil(height / factor);
  const data = new Uint8Array(ow * oh * 4);
  const grey = bands <= 2;
  const alphaAt = bands === 2 ? 1 : bands === 4 ? 3 : -1;
  if (factor === 1) {
    if (bands === 4 && scale === 1 && src instanceof Uint8Array) {
      for (let y = 0; y < height; y++) data.set(src.subarray(y * stride, y * stride + width * 4), y * width * 4);
      return { width, height, data };
    }
    for (let y = 0, d = 0; y < height; y++)
      for (let x = 0, s = y * stride; x < width; x++, s += bands, d += 4) {
        const r = src[s] as number;
        data[d] = Math.round(r * scale);
        data[d + 1] = Math.round((grey ? r : (src[s + 1] as number)) * scale);
        data[d + 2] = Math.round((grey ? r : (src[s + 2] as number)) * scale);
        data[d + 3] = alphaAt < 0 ? 255 : Math.round((src[s + alphaAt] as number) * scale);
      }
    return { width, height, data };
  }
  // Per block of the row: R, G, B times alpha, and alpha (1 a pixel without an alpha band). In
  // doubles: 16-bit colour times alpha passes 32 bits at the first pixel; exact up to 2^53.
  const sums = new Float64Array(ow * 4);
  for (let oy = 0; oy < oh; oy++) {
    sums.fill(0);
    const y0 = oy * factor;
    const y1 = Math.min(height, y0 + factor);
    for (let y = y0; y < y1; y++)
      for (let x = 0, s = y * stride; x < width; x++, s += bands) {
        const a = alphaAt < 0 ? 1 : (src[s + alphaAt] as number);
        const o = ((x / factor) | 0) * 4;
        const r = src[s] as number;
        sums[o] = (sums[o] as number) + r * a;
        sums[o + 1] = (sums[o + 1] as number) + (grey ? r : (src[s + 1] as number)) * a;
        sums[o + 2] = (sums[o + 2] as number) + (grey ? r : (src[s + 2] as number)) * a;
        sums[o + 3] = (sums[o + 3] as number) + a;
      }
    for (let ox = 0; ox < ow; ox++) {
      const o = ox * 4;
      const alpha = sums[o + 3] as number;
      if (alpha === 0) continue; // nothing shows through the block: it stays 0, 0, 0, 0
      const d = (oy * ow + ox) * 4;
      for (let c = 0; c < 3; c++) data[d + c] = Math.round(((sums[o + c] as number) / alpha) * scale);
      const n = (Math.min(width, (ox + 1) * factor) - ox * factor) * (y1 - y0);
      data[d + 3] = alphaAt < 0 ? 255 : Math.round((alpha / n) * scale);
    }
  }
  return { width: ow, height: oh, data };
}
