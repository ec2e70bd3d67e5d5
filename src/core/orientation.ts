/**
 * EXIF orientation as a raster transform: the eight ways a camera can say its stored rows and
 * columns map onto the picture as seen (TIFF 6.0 / Exif 2.32 tag 0x0112). Decoders read the tag;
 * this turns the stored raster into the upright one. See docs/decode.md, "JPEG > EXIF orientation".
 */
import type { Raster } from './raster.js';

/**
 * The EXIF orientation values. 1 upright, 2 mirrored left-right, 3 rotated 180°, 4 mirrored
 * top-bottom, 5 transposed (mirrored along the main diagonal), 6 to be rotated 90° clockwise to
 * stand upright, 7 transversed (mirrored along the other diagonal), 8 to be rotated 90°
 * anticlockwise.
 */
export type Orientation = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;

/** Whether `value` is one of the eight EXIF orientations. */
export function isOrientation(value: number): value is Orientation {
  return Number.isInteger(value) && value >= 1 && value <= 8;
}

/** Whether an orientation swaps width and height (5 to 8: the picture is turned a quarter). */
export function swapsAxes(orientation: Orientation): boolean {
  return orientation >= 5;
}

/**
 * For each orientation, where output pixel (x, y) comes from in the stored raster of width W and
 * height H, as source = base + x * stepX + y * stepY (in pixels). Data, so one loop serves all.
 */
function walk(orientation: Orientation, w: number, h: number): { base: number; stepX: number; stepY: number } {
  const last = (h - 1) * w; // first pixel of the bottom row
  switch (orientation) {
    case 1:
      return { base: 0, stepX: 1, stepY: w };
    case 2:
      return { base: w - 1, stepX: -1, stepY: w };
    case 3:
      return { base: last + w - 1, stepX: -1, stepY: -w };
    case 4:
      return { base: last, stepX: 1, stepY: -w };
    case 5:
      return { base: 0, stepX: w, stepY: 1 };
    case 6:
      return { base: last, stepX: -w, stepY: 1 };
    case 7:
      return { base: last + w - 1, stepX: -w, stepY: -1 };
    case 8:
      return { base: w - 1, stepX: w, stepY: -1 };
  }
}

/**
 * The raster as it should be seen, given the orientation its file declares. Orientation 1 returns
 * the same raster (no copy); the others return a new one, with width and height swapped for 5-8.
 *
 * @example
 * // A phone held upright writes its sensor rows sideways and orientation 6.
 * const upright = orient(stored, 6); // upright.width === stored.height
 */
export function orient(raster: Raster, orientation: Orientation): Raster {
  if (orientation === 1) return raster;
  const { width: w, height: h, data } = raster;
  const outWidth = swapsAxes(orientation) ? h : w;
  const outHeight = swapsAxes(orientation) ? w : h;
  const out = new Uint8Array(w * h * 4);
  const { base, stepX, stepY } = walk(orientation, w, h);
  const aligned = data.byteOffset % 4 === 0;
  if (aligned) {
    // One 32-bit move a pixel; byte order does not matter for a copy.
    const src = new Uint32Array(data.buffer, data.byteOffset, w * h);
    const dst = new Uint32Array(out.buffer);
    for (let y = 0, o = 0; y < outHeight; y++) {
      let s = base + y * stepY;
      for (let x = 0; x < outWidth; x++, o++, s += stepX) dst[o] = src[s] as number;
    }
  } else {
    for (let y = 0, o = 0; y < outHeight; y++) {
      let s = base + y * stepY;
      for (let x = 0; x < outWidth; x++, o += 4, s += stepX) {
        const i = s * 4;
        out[o] = data[i] as number;
        out[o + 1] = data[i + 1] as number;
        out[o + 2] = data[i + 2] as number;
        out[o + 3] = data[i + 3] as number;
      }
    }
  }
  return { width: outWidth, height: outHeight, data: out };
}
