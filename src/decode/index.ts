/**
 * `decodeImage`: bytes in, RGBA frames out, or one `DecodeError` with a one-line reason. The
 * format comes from the magic bytes and the size from the header, which is checked against the
 * limits before a single pixel is decoded.
 */
import { type Orientation, orient } from '../core/orientation.js';
import type { Raster } from '../core/raster.js';
import { decodeApngFrames } from './apng.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import { decodeGifFrames } from './gif.js';
import { checkDimensions, readImageHeader } from './header.js';
import {
  DEFAULT_DECODE_LIMITS,
  type DecodedImage,
  type DecodeLimits,
  type DecodeOptions,
  type ImageFormat,
} from './image.js';
import { decodeJpeg } from './jpeg.js';
import { decodePng } from './png.js';
import { describeOtherFormat, sniffFormat } from './sniff.js';

export { DecodeError, type DecodeFailure } from './error.js';
export { exifOrientation } from './exif.js';
export { checkDimensions, type ImageHeader, readImageHeader } from './header.js';
export {
  DEFAULT_DECODE_LIMITS,
  type DecodedFrame,
  type DecodedImage,
  type DecodeLimits,
  type DecodeOptions,
  type ImageFormat,
} from './image.js';
export { sniffFormat } from './sniff.js';

/**
 * Decodes a PNG, JPEG or GIF file to RGBA8 frames (one for a still image; every frame of an
 * animated GIF, composited to full size, unless `options.frames` is `'first'`).
 * Throws `DecodeError` (unknown format, truncated, corrupt, too large, unsupported).
 *
 * @example
 * const image = decodeImage(await readFile('photo.png'));
 * process.stdout.write(toTerminal(image.frames[0].raster, 'kitty'));
 */
export function decodeImage(bytes: Uint8Array, options: DecodeOptions = {}): DecodedImage {
  const limits: DecodeLimits = { ...DEFAULT_DECODE_LIMITS, ...options.limits };
  if (bytes.length === 0) throw new DecodeError('truncated', 'empty file');
  const format = sniffFormat(bytes);
  if (format === null) {
    const other = describeOtherFormat(bytes);
    throw new DecodeError(
      'unknown-format',
      other ? `${other} images are not supported (PNG, JPEG or GIF only)` : 'not a PNG, JPEG or GIF image',
    );
  }
  const header = readImageHeader(bytes, format);
  checkDimensions(header.width, header.height, limits, format);
  if (format === 'gif') {
    const gif = decodeGifFrames(bytes, options.frames ?? 'all', limits);
    const size = { sourceWidth: gif.width, sourceHeight: gif.height, orientation: 1 as const };
    return {
      format,
      width: gif.width,
      height: gif.height,
      ...size,
      frames: gif.frames,
      frameCount: gif.frameCount,
      ...(gif.frameCount > 1 ? { plays: gif.plays } : {}),
    };
  }
  if (format === 'jpeg') {
    const jpeg = decodeJpeg(bytes, { limits, maxSize: options.maxSize, orientation: options.orientation });
    return still(format, jpeg.raster, jpeg.sourceWidth, jpeg.sourceHeight, jpeg.orientation);
  }
  const png = decodePng(bytes);
  // A PNG's eXIf chunk is the same TIFF block as a JPEG's APP1: turned upright the same way.
  const orientation = png.exif ? (exifOrientation(png.exif) ?? 1) : 1;
  const apply = options.orientation !== 'ignore' && orientation !== 1;
  const upright = (r: Raster): Raster => (apply ? orient(r, orientation) : r);
  if (png.animated && options.frames !== 'first') {
    // An APNG: every frame, composited (apng.ts); its first is checked whole above.
    const apng = decodeApngFrames(bytes, limits);
    const frames = apng.frames.map((f) => ({ raster: upright(f.raster), delayMs: f.delayMs }));
    const first = frames[0]?.raster ?? upright(png.raster);
    return {
      format,
      width: first.width,
      height: first.height,
      sourceWidth: apng.width,
      sourceHeight: apng.height,
      orientation,
      frames,
      frameCount: apng.frameCount,
      ...(apng.frameCount > 1 ? { plays: apng.plays } : {}),
    };
  }
  const raster = upright(png.raster);
  return still(format, raster, png.raster.width, png.raster.height, orientation);
}

/** A still picture: one frame shown with no delay, its decoded size and the file's own. */
function still(
  format: ImageFormat,
  raster: Raster,
  sourceWidth: number,
  sourceHeight: number,
  orientation: Orientation,
): DecodedImage {
  return {
    format,
    width: raster.width,
    height: raster.height,
    sourceWidth,
    sourceHeight,
    orientation,
    frames: [{ raster, delayMs: 0 }],
    frameCount: 1,
  };
}
