/**
 * A small, fast PNG encoder for RGBA rasters (8 bits a channel, RGB when every pixel is opaque).
 *
 * Speed comes from node:zlib's native deflate and from choosing once per image, not per row:
 * a few measured recipes (row filter + deflate level + strategy) each compress a band of rows,
 * and the smallest wins for the whole image. Filtering is where PNG's size is won; fast-png
 * writes unfiltered rows, which is why a filtered low-level deflate is both smaller and faster.
 */
import { crc32 } from '../../core/crc32.js';
import { nodeZlib } from '../../core/node-builtins.js';
import type { Raster } from '../../core/raster.js';
import { isOpaque, rgbBytes, validateRaster } from '../../core/raster.js';

/** PNG row filter types (PNG spec, section 9.2). */
export type PngFilter = 0 | 1 | 2 | 3 | 4;

/** Options for `encodePng`. */
export interface PngOptions {
  /** Force a deflate level 0-9 (with `filter`, default Paeth). Default: chosen per image with the filter. */
  readonly level?: number;
  /** Force one filter for every row (with `level`, default 4). Default: chosen per image from a band of rows. */
  readonly filter?: PngFilter;
  /** Keep the alpha channel even when every pixel is opaque. Default false. */
  readonly keepAlpha?: boolean;
}

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Writes a chunk (length, type, data, CRC) into `out` at `at`; returns the offset after it. */
function writeChunk(out: Uint8Array, at: number, type: string, data: Uint8Array): number {
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  view.setUint32(at, data.length);
  for (let i = 0; i < 4; i++) out[at + 4 + i] = type.charCodeAt(i);
  out.set(data, at + 8);
  view.setUint32(at + 8 + data.length, crc32(out.subarray(at + 4, at + 8 + data.length)));
  return at + 12 + data.length;
}

/** The raster's pixels as packed RGB or RGBA rows (no filter bytes yet). */
function packRows(raster: Raster, channels: 3 | 4): Uint8Array {
  const { data } = raster;
  if (channels === 4) return data instanceof Uint8Array ? data : new Uint8Array(data);
  return rgbBytes(data);
}

/** Filters one row into `out` (after its filter byte). `prev` is null for the first row. */
function filterRow(
  filter: PngFilter,
  px: Uint8Array,
  row: number,
  prev: number,
  stride: number,
  bpp: number,
  out: Uint8Array,
  o: number,
): void {
  out[o++] = filter;
  const hasPrev = prev >= 0;
  switch (filter) {
    case 0:
      out.set(px.subarray(row, row + stride), o);
      return;
    case 1:
      for (let i = 0; i < bpp; i++) out[o + i] = px[row + i];
      for (let i = bpp; i < stride; i++) out[o + i] = px[row + i] - px[row + i - bpp];
      return;
    case 2:
      if (!hasPrev) {
        out.set(px.subarray(row, row + stride), o);
        return;
      }
      for (let i = 0; i < stride; i++) out[o + i] = px[row + i] - px[prev + i];
      return;
    case 3:
      if (!hasPrev) {
        for (let i = 0; i < bpp; i++) out[o + i] = px[row + i];
        for (let i = bpp; i < stride; i++) out[o + i] = px[row + i] - (px[row + i - bpp] >>> 1);
        return;
      }
      for (let i = 0; i < bpp; i++) out[o + i] = px[row + i] - (px[prev + i] >>> 1);
      for (let i = bpp; i < stride; i++) out[o + i] = px[row + i] - ((px[row + i - bpp] + px[prev + i]) >>> 1);
      return;
    case 4:
      if (!hasPrev) {
        // Paeth with no row above is Sub.
        for (let i = 0; i < bpp; i++) out[o + i] = px[row + i];
        for (let i = bpp; i < stride; i++) out[o + i] = px[row + i] - px[row + i - bpp];
        return;
      }
      for (let i = 0; i < bpp; i++) out[o + i] = px[row + i] - px[prev + i];
      for (let i = bpp; i < stride; i++) {
        const a = px[row + i - bpp],
          b = px[prev + i],
          c = px[prev + i - bpp];
        const p = b - c,
          q = a - c;
        const pa = p < 0 ? -p : p,
          pb = q < 0 ? -q : q,
          pcs = p + q,
          pc = pcs < 0 ? -pcs : pcs;
        out[o + i] = px[row + i] - (pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
      }
      return;
  }
}

/** One way to compress: a row filter for every row, and deflate settings. */
interface Recipe {
  readonly filter: PngFilter;
  readonly level: number;
  readonly strategy: number;
}

/** zlib's strategies (zlib.h; node:zlib's `constants`, which is loaded only when a PNG is made). */
const Z_DEFAULT_STRATEGY = 0;
const Z_FILTERED = 1;
const Z_RLE = 3;

/**
 * The recipes tried on each image. Measured on photographs, drawings, gradients and noise:
 * Up with run-length deflate is the fastest for photographs and still far smaller than
 * unfiltered output (Paeth is 5-10% smaller but costs more than the deflate itself); smooth
 * dithered gradients compress best unfiltered with ordinary matching; flat-coloured drawings
 * with Sub and Huffman-leaning matching.
 */
const RECIPES: readonly Recipe[] = [
  { filter: 2, level: 1, strategy: Z_RLE },
  { filter: 0, level: 4, strategy: Z_DEFAULT_STRATEGY },
  { filter: 1, level: 4, strategy: Z_FILTERED },
];

/** Rows `from`..`to` filtered (filter byte then residuals), using the row above `from` when there is one. */
function filterRows(
  px: Uint8Array,
  stride: number,
  bpp: number,
  filter: PngFilter,
  from: number,
  to: number,
): Uint8Array {
  const out = new Uint8Array((stride + 1) * (to - from));
  for (let y = from, o = 0; y < to; y++, o += stride + 1) {
    filterRow(filter, px, y * stride, y > 0 ? (y - 1) * stride : -1, stride, bpp, out, o);
  }
  return out;
}

function deflate(data: Uint8Array, recipe: Recipe): Buffer {
  return nodeZlib().deflateSync(data, { level: recipe.level, strategy: recipe.strategy, memLevel: 9 });
}

/** Below this many bytes of pixels every recipe is tried on the whole image. */
const SMALL_IMAGE_BYTES = 65_536;

/**
 * Picks the recipe that compresses a band of rows (a sixteenth of the image from its middle,
 * at least 16 rows) smallest; a whole small image is compressed each way and the smallest kept.
 */
function compress(px: Uint8Array, width: number, height: number, bpp: number, recipes: readonly Recipe[]): Buffer {
  const stride = width * bpp;
  if (recipes.length === 1) return deflate(filterRows(px, stride, bpp, recipes[0].filter, 0, height), recipes[0]);
  if (px.length <= SMALL_IMAGE_BYTES) {
    let best: Buffer | null = null;
    for (const r of recipes) {
      const z = deflate(filterRows(px, stride, bpp, r.filter, 0, height), r);
      if (best === null || z.length < best.length) best = z;
    }
    return best as Buffer;
  }
  const band = Math.min(height, Math.max(16, Math.ceil(height / 16), Math.ceil(16_384 / stride)));
  const from = Math.floor((height - band) / 2);
  let bestRecipe = recipes[0];
  let bestSize = Infinity;
  for (const r of recipes) {
    const size = deflate(filterRows(px, stride, bpp, r.filter, from, from + band), r).length;
    if (size < bestSize) {
      bestSize = size;
      bestRecipe = r;
    }
  }
  return deflate(filterRows(px, stride, bpp, bestRecipe.filter, 0, height), bestRecipe);
}

/**
 * A PNG file of the raster: colour type 2 (RGB) when every pixel is opaque, else 6 (RGBA),
 * 8 bits a channel, not interlaced, one IDAT chunk.
 *
 * @example writeFileSync('out.png', encodePng({ width: 1, height: 1, data: Uint8Array.of(255, 0, 0, 255) }))
 */
export function encodePng(raster: Raster, options: PngOptions = {}): Uint8Array {
  validateRaster(raster);
  const { width, height } = raster;
  const channels: 3 | 4 = !options.keepAlpha && isOpaque(raster) ? 3 : 4;
  const px = packRows(raster, channels);
  const recipes: readonly Recipe[] =
    options.filter === undefined && options.level === undefined
      ? RECIPES
      : [
          {
            filter: options.filter ?? 4,
            level: options.level ?? 4,
            strategy: (options.filter ?? 4) === 0 ? Z_DEFAULT_STRATEGY : Z_FILTERED,
          },
        ];
  const idat = compress(px, width, height, channels, recipes);
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 3 ? 2 : 6;
  // compression 0, filter method 0, no interlace
  const out = new Uint8Array(SIGNATURE.length + 25 + 12 + idat.length + 12);
  out.set(SIGNATURE, 0);
  let at = writeChunk(out, SIGNATURE.length, 'IHDR', ihdr);
  at = writeChunk(out, at, 'IDAT', idat);
  writeChunk(out, at, 'IEND', new Uint8Array(0));
  return out;
}
