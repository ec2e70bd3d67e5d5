/**
 * termsight's PNG decoder: every colour type and bit depth (1, 2, 4, 8, 16), PLTE, tRNS and Adam7,
 * on node:zlib's native inflate with an output budget. The chunk walk (CRCs, order) comes first,
 * the IDAT stream is inflated to exactly the bytes the declared size needs, the filters are undone
 * in place, and the rows expanded to RGBA8. The colour chunks are handed back as they are
 * (`colour`); decodeImage converts to sRGB from them (colour.ts). Here an APNG gives its IDAT image (the first or default frame); apng.ts
 * gives all its frames. See docs/decode.md#png.
 */
import { swapsAxes } from '../core/orientation.js';
import { MAX_RASTER_PIXELS, type Raster } from '../core/raster.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import type { ColourInfo } from './image.js';
import { type PngHeader, readPngChunks } from './png-chunks.js';
import { pngColourInfo } from './png-colour.js';
import { inflatePngData } from './png-inflate.js';
import { makeRowExpander } from './png-pixels.js';
import { makeRowSummer, reducedPixels } from './png-reduce.js';
import { unfilterRow } from './png-unfilter.js';
import { wholeReduction } from './reduction.js';

/** A decoded PNG: the picture, and what the caller may still apply to it. */
export interface DecodedPng {
  readonly raster: Raster;
  /**
   * The eXIf chunk's TIFF structure, or null; `decodeImage` applies its orientation
   * (`exifOrientation`, the same parser as a JPEG's).
   */
  readonly exif: Uint8Array | null;
  /** The colour the file declares (colour chunks), for colour.ts to apply. */
  readonly colour: ColourInfo;
  /** Whether the file is an APNG (only its IDAT image, the first or default frame, is decoded). */
  readonly animated: boolean;
  /** The size the file declares (the raster is smaller when it was reduced for `maxSize`). */
  readonly sourceWidth: number;
  readonly sourceHeight: number;
}

/** One pass of a PNG image: the whole image, or one of Adam7's seven. */
interface Pass {
  readonly x0: number;
  readonly y0: number;
  readonly dx: number;
  readonly dy: number;
  readonly width: number;
  readonly height: number;
}

/** Adam7's passes as (x0, y0, dx, dy) (PNG spec section 8.2). */
const ADAM7: readonly (readonly [number, number, number, number])[] = [
  [0, 0, 8, 8],
  [4, 0, 8, 8],
  [0, 4, 4, 8],
  [2, 0, 4, 4],
  [0, 2, 2, 4],
  [1, 0, 2, 2],
  [0, 1, 1, 2],
];

/** The passes of an image, empty ones left out (a 1x1 Adam7 image has only the first). */
export function pngPasses(header: Pick<PngHeader, 'width' | 'height' | 'interlace'>): Pass[] {
  const { width, height } = header;
  if (header.interlace === 0) return [{ x0: 0, y0: 0, dx: 1, dy: 1, width, height }];
  return ADAM7.map(([x0, y0, dx, dy]) => ({
    x0,
    y0,
    dx,
    dy,
    width: Math.ceil((width - x0) / dx),
    height: Math.ceil((height - y0) / dy),
  })).filter((p) => p.width > 0 && p.height > 0);
}

/** Channels of each colour type. */
const CHANNELS: Readonly<Record<number, number>> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Bytes in one row of `width` pixels (without the filter byte). */
function rowBytesOf(header: PngHeader, width: number): number {
  return Math.ceil((width * (CHANNELS[header.colorType] as number) * header.depth) / 8);
}

/**
 * The inflated size a PNG's image data must have: a filter byte and the packed samples of every
 * row of every pass. This is the budget of the one inflate.
 *
 * @example pngDataSize({ width: 1, height: 1, depth: 8, colorType: 6, interlace: 0 }) // 5
 */
export function pngDataSize(header: PngHeader): number {
  let total = 0;
  for (const pass of pngPasses(header)) total += pass.height * (rowBytesOf(header, pass.width) + 1);
  return total;
}

/**
 * Decodes a PNG file (the IDAT image of an APNG) to RGBA8, with its eXIf block; throws a one-line
 * `DecodeError`. The declared size must already have been checked against the caller's limits
 * (decodeImage does); here it is only held under the raster's own ceiling.
 */
export function decodePng(bytes: Uint8Array, options: PngDecodeOptions = {}): DecodedPng {
  const layout = readPngChunks(bytes, 0);
  const { header } = layout;
  const { width, height } = header;
  if (width === 0 || height === 0)
    throw new DecodeError('corrupt', `corrupt PNG: it declares a size of ${width}x${height}`);
  if (width * height > MAX_RASTER_PIXELS)
    throw new DecodeError('too-large', `PNG image too large to decode safely: ${width}x${height}`);
  // Reduced while expanded only where averaging is plain: no alpha to weigh, one image, no
  // interlace. The box describes the upright picture: turned when eXIf's orientation will turn it.
  const opaque = (header.colorType === 0 || header.colorType === 2 || header.colorType === 3) && !layout.transparency;
  const turned =
    options.orientation !== 'ignore' && layout.exif !== null && swapsAxes(exifOrientation(layout.exif) ?? 1);
  const box =
    options.maxSize && turned ? { width: options.maxSize.height, height: options.maxSize.width } : options.maxSize;
  const colour = pngColourInfo(layout.colour, header.colorType);
  const factor = opaque && header.interlace === 0 && !layout.animated ? wholeReduction(width, height, box) : 1;
  if (factor > 1) {
    const data = inflatePngData(layout.data, pngDataSize(header));
    const rowBytes = rowBytesOf(header, width);
    const summer = makeRowSummer(header, layout.palette);
    const raster = reducedPixels(data, 0, width, height, rowBytes, bppOf(header), summer, factor);
    return { raster, exif: layout.exif, colour, animated: false, sourceWidth: width, sourceHeight: height };
  }
  const out = pngPixels(header, layout.data, layout.palette, layout.transparency);
  return {
    raster: { width, height, data: out },
    exif: layout.exif,
    colour,
    animated: layout.animated,
    sourceWidth: width,
    sourceHeight: height,
  };
}

/** How to decode a PNG. */
export interface PngDecodeOptions {
  /**
   * The most pixels the caller will draw. An opaque, non-interlaced still picture at least twice
   * as large on both axes is averaged down by a whole factor while it is expanded (`wholeReduction`).
   */
  readonly maxSize?: { readonly width: number; readonly height: number } | undefined;
  /** `'ignore'` when the caller will not turn the picture by its eXIf orientation (then the box is not turned either). */
  readonly orientation?: 'apply' | 'ignore' | undefined;
}

/** Bytes a complete pixel takes, at least 1 (the filters' left neighbour). */
function bppOf(header: PngHeader): number {
  return Math.max(1, ((CHANNELS[header.colorType] as number) * header.depth) >> 3);
}

/**
 * The RGBA8 pixels of one image of `header`'s format from its zlib stream (split across `parts`):
 * inflated to exactly the bytes the size needs, each row unfiltered in place and expanded. An APNG frame is
 * such an image with its own width and height.
 */
export function pngPixels(
  header: PngHeader,
  parts: readonly Uint8Array[],
  palette: Uint8Array | null,
  transparency: Uint8Array | null,
): Uint8Array {
  const { width, height } = header;
  const data = inflatePngData(parts, pngDataSize(header));
  const bpp = bppOf(header);
  const expand = makeRowExpander(header, palette, transparency);
  const out = new Uint8Array(width * height * 4);
  let at = 0;
  for (const pass of pngPasses(header)) {
    const rowBytes = rowBytesOf(header, pass.width);
    for (let py = 0; py < pass.height; py++, at += rowBytes + 1) {
      // Each row expanded right after it is unfiltered, while it is still in the cache.
      unfilterRow(data, at + 1, py, rowBytes, bpp);
      const to = ((pass.y0 + py * pass.dy) * width + pass.x0) * 4;
      expand(data, at + 1, pass.width, out, to, pass.dx * 4);
    }
  }
  return out;
}

/** Decodes a PNG file to its RGBA8 raster; throws `DecodeError`. */
export function decodePngRaster(bytes: Uint8Array): Raster {
  return decodePng(bytes).raster;
}
