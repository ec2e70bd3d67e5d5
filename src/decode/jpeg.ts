/**
 * JPEG (baseline and progressive) to RGBA8 with jpeg-js, under its own resolution and memory
 * guards as a second line behind the header check.
 */
import jpeg from 'jpeg-js';
import type { Raster } from '../core/raster.js';
import { DecodeError, reasonOf } from './error.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from './image.js';

/**
 * Whether an end-of-image marker follows the first scan. Inside entropy-coded data every 0xFF is
 * followed by 0x00 or a restart marker, so FF D9 after the first SOS is the real end; an EOI inside
 * an Exif thumbnail comes before the SOS and is not counted.
 */
export function jpegHasEnd(bytes: Uint8Array): boolean {
  let p = 2;
  // Walk marker segments up to the first SOS.
  while (p + 4 <= bytes.length) {
    if (bytes[p] !== 0xff) return false;
    const marker = bytes[p + 1]!;
    if (marker === 0xff) {
      p++;
      continue;
    }
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xd9) return false;
    const length = (bytes[p + 2]! << 8) | bytes[p + 3]!;
    p += 2 + length;
    if (marker === 0xda) break;
  }
  for (let i = bytes.indexOf(0xff, p); i >= 0 && i + 1 < bytes.length; i = bytes.indexOf(0xff, i + 1)) {
    if (bytes[i + 1] === 0xd9) return true;
  }
  return false;
}

/** Decodes a JPEG file to RGBA8; throws `DecodeError`. */
export function decodeJpegRaster(bytes: Uint8Array, limits: DecodeLimits = DEFAULT_DECODE_LIMITS): Raster {
  if (!jpegHasEnd(bytes))
    throw new DecodeError('truncated', 'truncated JPEG: the file ends before its end-of-image marker');
  try {
    const image = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      // Real cameras write slightly broken files that every viewer shows; truncation is caught above.
      tolerantDecoding: true,
      maxResolutionInMP: limits.maxPixels / 1e6,
      maxMemoryUsageInMB: 1024,
    });
    // A plain Uint8Array view (jpeg-js may hand back a Buffer), no copy.
    const data = new Uint8Array(image.data.buffer, image.data.byteOffset, image.data.length);
    if (data.length !== image.width * image.height * 4) throw new Error('decoded data does not match the image size');
    return { width: image.width, height: image.height, data };
  } catch (error) {
    const reason = reasonOf(error);
    if (/limit exceeded/i.test(reason))
      throw new DecodeError('too-large', `JPEG image too large to decode safely: ${reason}`, { cause: error });
    if (/unsupported color mode/i.test(reason))
      throw new DecodeError('unsupported', `unsupported JPEG: ${reason}`, { cause: error });
    throw new DecodeError('corrupt', `corrupt JPEG: ${reason}`, { cause: error });
  }
}
