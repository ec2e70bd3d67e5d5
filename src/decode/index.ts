/**
 * `decodeImage`: bytes in, RGBA frames out, or one `DecodeError` with a one-line reason. The
 * format comes from the magic bytes and the size from the header, which is checked against the
 * limits before a single pixel is decoded.
 */
import { decodeApngFrames } from './apng.js';
import { decodeBmp } from './bmp.js';
import { bytesOf, checkedFormat, decodeFormat, limitsOf } from './decode-image.js';
import { decodeGifFrames } from './gif.js';
import { readHeifPrimary } from './heif-boxes.js';
import type { DecodedImage, DecodeOptions } from './image.js';
import { ALL_HEADER_READERS } from './image-header.js';
import { decodeJpeg } from './jpeg.js';
import { decodePng } from './png.js';
import { decodePnm } from './pnm.js';
import { decodeQoi } from './qoi.js';
import { decodeWebp } from './webp.js';

export { DecodeError, type DecodeFailure } from './error.js';
export { exifOrientation } from './exif.js';
export { checkDimensions, type ImageHeader } from './header.js';
export {
  type ColourHandling,
  type ColourInfo,
  DEFAULT_DECODE_LIMITS,
  type DecodedFrame,
  type DecodedImage,
  type DecodeLimits,
  type DecodeOptions,
  type ImageFormat,
  type OwnFormat,
  type PeerFormat,
} from './image.js';
export { readImageHeader } from './image-header.js';
export { decodeImageLoading } from './load.js';
export { sniffFormat } from './sniff.js';

/**
 * Decodes a PNG, JPEG, GIF, WebP, BMP, QOI or PNM (PBM, PGM, PPM, PAM) file to RGBA8 frames (one for a still image; every frame of an
 * animated GIF, APNG or WebP, composited to full size, unless `options.frames` is `'first'`).
 * Throws `DecodeError` (unknown format, truncated, corrupt, too large, unsupported); `TypeError`
 * when `bytes` is not a Uint8Array, Buffer, ArrayBuffer or DataView (a view is read as its bytes);
 * `RangeError` when a limit or `maxSize` is not a number of at least 1.
 *
 * @example
 * const image = decodeImage(await readFile('photo.png'));
 * process.stdout.write(toTerminal(image.frames[0].raster, 'kitty'));
 */
export function decodeImage(bytes: Uint8Array | ArrayBuffer | DataView, options: DecodeOptions = {}): DecodedImage {
  const data = bytesOf(bytes);
  const format = checkedFormat(data, limitsOf(options), ALL_HEADER_READERS, readHeifPrimary);
  return decodeFormat(data, format, options, ALL_DECODERS);
}

const ALL_DECODERS = {
  gif: decodeGifFrames,
  jpeg: decodeJpeg,
  png: decodePng,
  apng: decodeApngFrames,
  webp: decodeWebp,
  bmp: decodeBmp,
  qoi: decodeQoi,
  pnm: decodePnm,
};
