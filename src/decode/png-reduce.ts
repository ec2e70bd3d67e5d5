/**
 * Decoding a large opaque PNG no larger than it will be drawn: each block of `factor` x `factor`
 * pixels is averaged into one as the rows are expanded, so the full-size RGBA picture is never
 * held (a 4000x3000 photo drawn 1000 pixels wide needs 3 MB, not 48 MB) and the resize after it
 * starts from a quarter of the pixels. The PNG analogue of JPEG's DCT scaling; see docs/decode.md#png.
 */
import type { PngHeader } from './png-chunks.js';
import { makeRowExpander, paletteTable } from './png-pixels.js';
import { unfilterRow } from './png-unfilter.js';

/**
 * Adds the R, G, B of each pixel of one unfiltered row (`src` from `at`, `width` pixels) to the
 * sums of its block of `factor` pixels (`sums`: R, G, B per block).
 */
export type RowSummer = (src: Uint8Array, at: number, width: number, factor: number, sums: Uint32Array) => void;

/**
 * The row summer for an opaque PNG's header and palette. 8-bit RGB, grey and palette rows are
 * summed straight from their samples (a 4000x3000 RGB photo: 1.6x less CPU than expanding each
 * row to RGBA first); other depths are expanded to RGBA8, then summed.
 */
export function makeRowSummer(header: PngHeader, palette: Uint8Array | null): RowSummer {
  if (header.depth === 8 && header.colorType === 2) return sumRgbRow;
  if (header.depth === 8 && header.colorType === 0) return sumGreyRow;
  if (header.depth === 8 && header.colorType === 3) {
    const table = paletteTable(palette, null);
    return (src, at, width, factor, sums) => sumPaletteRow(src, at, width, factor, sums, table);
  }
  const expand = makeRowExpander(header, palette, null);
  const row = new Uint8Array(header.width * 4);
  return (src, at, width, factor, sums) => {
    expand(src, at, width, row, 0, 4);
    addRow(row, width, factor, sums);
  };
}

function sumRgbRow(src: Uint8Array, at: number, width: number, factor: number, sums: Uint32Array): void {
  for (let x = 0, o = 0, i = at; x < width; o += 3) {
    const end = Math.min(width, x + factor);
    let r = 0;
    let g = 0;
    let b = 0;
    for (; x < end; x++, i += 3) {
      r += src[i] as number;
      g += src[i + 1] as number;
      b += src[i + 2] as number;
    }
    sums[o] = (sums[o] as number) + r;
    sums[o + 1] = (sums[o + 1] as number) + g;
    sums[o + 2] = (sums[o + 2] as number) + b;
  }
}

function sumGreyRow(src: Uint8Array, at: number, width: number, factor: number, sums: Uint32Array): void {
  for (let x = 0, o = 0, i = at; x < width; o += 3) {
    const end = Math.min(width, x + factor);
    let v = 0;
    for (; x < end; x++, i++) v += src[i] as number;
    sums[o] = (sums[o] as number) + v;
    sums[o + 1] = (sums[o + 1] as number) + v;
    sums[o + 2] = (sums[o + 2] as number) + v;
  }
}

function sumPaletteRow(
  src: Uint8Array,
  at: number,
  width: number,
  factor: number,
  sums: Uint32Array,
  table: Uint8Array,
): void {
  for (let x = 0, o = 0, i = at; x < width; o += 3) {
    const end = Math.min(width, x + factor);
    let r = 0;
    let g = 0;
    let b = 0;
    for (; x < end; x++, i++) {
      const e = (src[i] as number) << 2;
      r += table[e] as number;
      g += table[e + 1] as number;
      b += table[e + 2] as number;
    }
    sums[o] = (sums[o] as number) + r;
    sums[o + 1] = (sums[o + 1] as number) + g;
    sums[o + 2] = (sums[o + 2] as number) + b;
  }
}

/**
 * Unfilters the `height` rows of `data` (each a filter byte then `rowBytes` bytes, from `start`;
 * `bpp` as unfilterRow takes it) and sums each into its blocks while it is in the cache, giving
 * an opaque RGBA picture `factor` times smaller on each side (rounded up; the last block of a row
 * or column averages the pixels it has).
 */
export function reducedPixels(
  data: Uint8Array,
  start: number,
  width: number,
  height: number,
  rowBytes: number,
  bpp: number,
  sum: RowSummer,
  factor: number,
): { width: number; height: number; data: Uint8Array } {
  const ow = Math.ceil(width / factor);
  const oh = Math.ceil(height / factor);
  const out = new Uint8Array(ow * oh * 4);
  const sums = new Uint32Array(ow * 3);
  for (let y = 0, at = start; y < height; y++, at += rowBytes + 1) {
    unfilterRow(data, at + 1, y, rowBytes, bpp);
    sum(data, at + 1, width, factor, sums);
    const oy = Math.floor(y / factor);
    if ((y + 1) % factor === 0 || y === height - 1) {
      writeAverages(sums, width, factor, y - oy * factor + 1, out, oy * ow * 4);
      sums.fill(0);
    }
  }
  return { width: ow, height: oh, data: out };
}

/** Adds each pixel's R, G, B of one expanded row to the sums of its block. */
function addRow(row: Uint8Array, width: number, factor: number, sums: Uint32Array): void {
  for (let x = 0, o = 0; x < width; o += 3) {
    const end = Math.min(width, x + factor);
    let r = 0;
    let g = 0;
    let b = 0;
    for (; x < end; x++) {
      const i = x << 2;
      r += row[i] as number;
      g += row[i + 1] as number;
      b += row[i + 2] as number;
    }
    sums[o] = (sums[o] as number) + r;
    sums[o + 1] = (sums[o + 1] as number) + g;
    sums[o + 2] = (sums[o + 2] as number) + b;
  }
}

/** Writes one output row: each block's sums over its pixel count, rounded, opaque. */
function writeAverages(
  sums: Uint32Array,
  width: number,
  factor: number,
  rows: number,
  out: Uint8Array,
  to: number,
): void {
  // A whole block of a power-of-two count (factors 2, 4, 8 on whole rows) is divided by a shift,
  // exact for these non-negative sums and cheaper than three divisions a pixel.
  const whole = factor * rows;
  const shift = (whole & (whole - 1)) === 0 ? 31 - Math.clz32(whole) : -1;
  const full = shift < 0 ? 0 : width - (width % factor);
  let x = 0;
  let o = 0;
  for (const half = whole >> 1; x < full; x += factor, o += 3, to += 4) {
    out[to] = ((sums[o] as number) + half) >>> shift;
    out[to + 1] = ((sums[o + 1] as number) + half) >>> shift;
    out[to + 2] = ((sums[o + 2] as number) + half) >>> shift;
    out[to + 3] = 255;
  }
  for (; x < width; x += factor, o += 3, to += 4) {
    const n = Math.min(factor, width - x) * rows;
    const half = n >> 1;
    out[to] = Math.floor(((sums[o] as number) + half) / n);
    out[to + 1] = Math.floor(((sums[o + 1] as number) + half) / n);
    out[to + 2] = Math.floor(((sums[o + 2] as number) + half) / n);
    out[to + 3] = 255;
  }
}
