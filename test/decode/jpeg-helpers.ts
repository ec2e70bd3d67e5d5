/**
 * Shared by the JPEG tests: the committed fixtures, picture comparisons (PSNR, area averaging)
 * and builders for EXIF segments and synthetic JPEGs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jpeg from 'jpeg-js';
import type { Raster } from '../../src/core/raster.js';

const here = dirname(fileURLToPath(import.meta.url));
export const IMAGES = join(here, '../fixtures/images');
export const VARIANTS = join(IMAGES, 'jpeg');

/** The bytes of a committed file under test/fixtures/images. */
export function fixture(path: string): Uint8Array {
  return new Uint8Array(readFileSync(join(IMAGES, path)));
}

/** The committed variants (test/fixtures/images/jpeg/*.jpg) by name. */
export function variantNames(): string[] {
  return readdirSync(VARIANTS)
    .filter((f) => f.endsWith('.jpg'))
    .sort();
}

/** Peak signal-to-noise ratio over the RGB channels of two RGBA buffers of one size (Infinity when equal). */
export function psnr(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`sizes differ: ${a.length} vs ${b.length}`);
  let se = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if ((i & 3) === 3) continue;
    const d = a[i]! - b[i]!;
    se += d * d;
    n++;
  }
  return se === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / (se / n));
}

/** Largest difference of one RGB channel between two RGBA buffers. */
export function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) if ((i & 3) !== 3) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

/** A raster reduced `d` times by averaging each d x d cell (partial cells at the edges average what they have). */
export function areaAverage(r: Raster, d: number): { width: number; height: number; data: Float64Array } {
  const width = Math.ceil(r.width / d);
  const height = Math.ceil(r.height / d);
  const data = new Float64Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      let n = 0;
      for (let yy = y * d; yy < Math.min(r.height, (y + 1) * d); yy++) {
        for (let xx = x * d; xx < Math.min(r.width, (x + 1) * d); xx++, n++) {
          for (let c = 0; c < 4; c++) sum[c]! += r.data[(yy * r.width + xx) * 4 + c]!;
        }
      }
      for (let c = 0; c < 4; c++) data[(y * width + x) * 4 + c] = sum[c]! / n;
    }
  }
  return { width, height, data };
}

/** A TIFF block (as EXIF holds it) with one IFD0 entry, the orientation, in either byte order. */
export function tiffWithOrientation(value: number, order: 'II' | 'MM' = 'MM', type = 3): Uint8Array {
  const b = new Uint8Array(26);
  const v = new DataView(b.buffer);
  const little = order === 'II';
  b[0] = b[1] = order.charCodeAt(0);
  v.setUint16(2, 42, little);
  v.setUint32(4, 8, little);
  v.setUint16(8, 1, little); // one entry
  v.setUint16(10, 0x0112, little);
  v.setUint16(12, type, little);
  v.setUint32(14, 1, little);
  if (type === 4) v.setUint32(18, value, little);
  else v.setUint16(18, value, little);
  v.setUint32(22, 0, little); // no next IFD
  return b;
}

/** A JPEG with an APP1 `Exif\0\0` segment holding `tiff` inserted right after SOI. */
export function withExif(jpegBytes: Uint8Array, tiff: Uint8Array): Uint8Array {
  const length = 2 + 6 + tiff.length;
  const segment = Uint8Array.of(0xff, 0xe1, length >> 8, length & 255, 0x45, 0x78, 0x69, 0x66, 0, 0, ...tiff);
  const out = new Uint8Array(jpegBytes.length + segment.length);
  out.set(jpegBytes.subarray(0, 2));
  out.set(segment, 2);
  out.set(jpegBytes.subarray(2), 2 + segment.length);
  return out;
}

/** The colours of the four quadrants of `quadrants()`: top-left, top-right, bottom-left, bottom-right. */
export const QUADRANT_COLOURS = [
  [230, 30, 30],
  [30, 200, 30],
  [30, 30, 230],
  [240, 240, 240],
] as const;

/** A `w` x `h` JPEG (jpeg-js's encoder, quality 95) of four flat quadrants. */
export function quadrants(w = 48, h = 32): Uint8Array {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const q = (y < h / 2 ? 0 : 2) + (x < w / 2 ? 0 : 1);
      data.set([...QUADRANT_COLOURS[q]!, 255], (y * w + x) * 4);
    }
  }
  return new Uint8Array(jpeg.encode({ width: w, height: h, data }, 95).data);
}

/** jpeg-js's decode of `bytes` as RGBA. */
export function jpegJs(bytes: Uint8Array): Raster {
  const image = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true });
  return { width: image.width, height: image.height, data: new Uint8Array(image.data) };
}

/** The index of the first segment with this marker (the byte after 0xFF), walking segments from SOI. */
export function segmentAt(bytes: Uint8Array, marker: number): number {
  let p = 2;
  while (p + 4 <= bytes.length) {
    if (bytes[p + 1] === marker) return p;
    if (bytes[p + 1] === 0xda) break;
    p += 2 + ((bytes[p + 2]! << 8) | bytes[p + 3]!);
  }
  throw new Error(`no marker 0x${marker.toString(16)} before the scan`);
}
