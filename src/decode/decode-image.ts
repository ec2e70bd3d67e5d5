/**
 * What `decodeImage` does around the format's own decoder, with the decoders passed in: the
 * format from the magic bytes, the header's size checked against the limits before a pixel is
 * decoded, EXIF orientation for PNG and WebP, the colour the file declares converted to sRGB
 * (colour.ts), and one result shape. `decodeImage` (index.ts) passes every decoder; the CLI's
 * `decodeImageLoading` (load.ts) loads only the one a file needs.
 */
import { type Orientation, orient } from '../core/orientation.js';
import type { Raster } from '../core/raster.js';
import type { decodeApngFrames } from './apng.js';
import { applyColour } from './colour.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import type { decodeGifFrames } from './gif.js';
import { checkDimensions, formatName, readImageHeader } from './header.js';
import {
  type ColourInfo,
  DEFAULT_DECODE_LIMITS,
  type DecodedImage,
  type DecodeLimits,
  type DecodeOptions,
  type ImageFormat,
  type OwnFormat,
} from './image.js';
import type { decodeJpeg } from './jpeg.js';
import type { decodePng } from './png.js';
import { describeOtherFormat, sniffFormat, sniffPeerFormat } from './sniff.js';
import type { decodeWebp } from './webp.js';

/** The decoder of each format (only the one of the file at hand is called). */
export interface FormatDecoders {
  readonly gif: typeof decodeGifFrames;
  readonly jpeg: typeof decodeJpeg;
  readonly png: typeof decodePng;
  /** An animated PNG's frames; needed only for an APNG when every frame is asked for. */
  readonly apng: typeof decodeApngFrames;
  readonly webp: typeof decodeWebp;
}

/**
 * The format of `bytes`, after the checks that need no decoder: not empty, a known format, a
 * declared size within `limits`. Throws `DecodeError` otherwise.
 */
export function checkedFormat(bytes: Uint8Array, limits: DecodeLimits): OwnFormat {
  if (bytes.length === 0) throw new DecodeError('truncated', 'empty file');
  const format = sniffFormat(bytes);
  if (format === null) {
    const peer = sniffPeerFormat(bytes);
    if (peer)
      throw new DecodeError(
        'unsupported',
        `${formatName(peer)} images are decoded through the optional package sharp, by decodeImageLoading (asynchronous)`,
      );
    const other = describeOtherFormat(bytes);
    throw new DecodeError(
      'unknown-format',
      other ? `${other} images are not supported (PNG, JPEG, GIF or WebP only)` : 'not a PNG, JPEG, GIF or WebP image',
    );
  }
  const header = readImageHeader(bytes, format);
  checkDimensions(header.width, header.height, limits, format);
  return format;
}

/** The limits `options` asks for, over the defaults. */
export function limitsOf(options: DecodeOptions): DecodeLimits {
  return { ...DEFAULT_DECODE_LIMITS, ...options.limits };
}

/**
 * `decodeImage` of a file already known to be `format` (see `checkedFormat`), with `decoders`,
 * which must hold that format's decoder.
 */
export function decodeFormat(
  bytes: Uint8Array,
  format: ImageFormat,
  options: DecodeOptions,
  decoders: Partial<FormatDecoders>,
): DecodedImage {
  const { image, colour } = decodeUncoloured(bytes, format, options, decoders);
  // The one place colour is applied, for every format, before anything resizes or encodes.
  const { model = 'rgb' } = colour;
  return { ...image, colour: applyColour(image.frames, colour, model, options.colour) };
}

/** A format's decoder's picture, its colour not yet applied, and the colour it declares. */
function decodeUncoloured(
  bytes: Uint8Array,
  format: ImageFormat,
  options: DecodeOptions,
  decoders: Partial<FormatDecoders>,
): { image: Uncoloured; colour: ColourInfo } {
  const limits = limitsOf(options);
  const decoder = <F extends keyof FormatDecoders>(f: F): FormatDecoders[F] => {
    const d = decoders[f];
    if (!d) throw new Error(`no ${f} decoder given`);
    return d as FormatDecoders[F];
  };
  if (format === 'gif') {
    const gif = decoder('gif')(bytes, options.frames ?? 'all', limits);
    const size = { sourceWidth: gif.width, sourceHeight: gif.height, orientation: 1 as const };
    const image: Uncoloured = {
      format,
      width: gif.width,
      height: gif.height,
      ...size,
      frames: gif.frames,
      frameCount: gif.frameCount,
      ...(gif.frameCount > 1 ? { plays: gif.plays } : {}),
    };
    return { image, colour: {} };
  }
  if (format === 'webp') {
    const webp = decoder('webp')(bytes, { frames: options.frames ?? 'all', limits });
    // A WebP's EXIF chunk is the same TIFF block as a JPEG's APP1.
    const orientation = webp.exif ? (exifOrientation(webp.exif) ?? 1) : 1;
    const apply = options.orientation !== 'ignore' && orientation !== 1;
    const frames = apply
      ? webp.frames.map((f) => ({ raster: orient(f.raster, orientation), delayMs: f.delayMs }))
      : webp.frames;
    const first = (frames[0] as (typeof frames)[number]).raster;
    const image: Uncoloured = {
      format,
      width: first.width,
      height: first.height,
      sourceWidth: webp.width,
      sourceHeight: webp.height,
      orientation,
      frames,
      frameCount: webp.frameCount,
      ...(webp.plays !== undefined && webp.frameCount > 1 ? { plays: webp.plays } : {}),
    };
    return { image, colour: webp.colour ?? {} };
  }
  if (format === 'jpeg') {
    const jpeg = decoder('jpeg')(bytes, {
      limits,
      maxSize: options.maxSize,
      orientation: options.orientation,
    });
    return {
      image: still(format, jpeg.raster, jpeg.sourceWidth, jpeg.sourceHeight, jpeg.orientation),
      colour: jpeg.colour,
    };
  }
  // Drawn no larger than maxSize: a large still PNG may be averaged down while it is decoded
  // (not when every frame is asked for: an APNG's frames are composited at full size).
  const png = decoder('png')(
    bytes,
    options.frames === 'first' && options.maxSize ? { maxSize: options.maxSize, orientation: options.orientation } : {},
  );
  // A PNG's eXIf chunk is the same TIFF block as a JPEG's APP1: turned upright the same way.
  const orientation = png.exif ? (exifOrientation(png.exif) ?? 1) : 1;
  const apply = options.orientation !== 'ignore' && orientation !== 1;
  const upright = (r: Raster): Raster => (apply ? orient(r, orientation) : r);
  if (png.animated && options.frames !== 'first') {
    // An APNG: every frame, composited (apng.ts); its first is checked whole above.
    const apng = decoder('apng')(bytes, limits);
    const frames = apng.frames.map((f) => ({ raster: upright(f.raster), delayMs: f.delayMs }));
    const first = frames[0]?.raster ?? upright(png.raster);
    const image: Uncoloured = {
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
    return { image, colour: png.colour };
  }
  const raster = upright(png.raster);
  // The size the file declares, as stored (the raster may have been reduced for maxSize).
  return { image: still(format, raster, png.sourceWidth, png.sourceHeight, orientation), colour: png.colour };
}

/** A decoded picture before its colour is applied. */
type Uncoloured = Omit<DecodedImage, 'colour'>;

/** A still picture: one frame shown with no delay, its decoded size and the file's own. */
function still(
  format: ImageFormat,
  raster: Raster,
  sourceWidth: number,
  sourceHeight: number,
  orientation: Orientation,
): Uncoloured {
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
