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
import type { decodeBmp } from './bmp.js';
import { applyColour } from './colour.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import type { decodeGifFrames } from './gif.js';
import { checkDimensions, formatName, type HeaderReaders, readHeaderWith } from './header.js';
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
import type { decodePnm } from './pnm.js';
import type { decodeQoi } from './qoi.js';
import { describeOtherFormat, type HeifPrimaryReader, sniffFormat, sniffPeerFormat } from './sniff.js';
import type { decodeWebp } from './webp.js';

/** The decoder of each format (only the one of the file at hand is called). */
export interface FormatDecoders {
  readonly gif: typeof decodeGifFrames;
  readonly jpeg: typeof decodeJpeg;
  readonly png: typeof decodePng;
  /** An animated PNG's frames; needed only for an APNG when every frame is asked for. */
  readonly apng: typeof decodeApngFrames;
  readonly webp: typeof decodeWebp;
  readonly bmp: typeof decodeBmp;
  readonly qoi: typeof decodeQoi;
  readonly pnm: typeof decodePnm;
}

/**
 * The format of `bytes`, after the checks that need no decoder: not empty, a known format, a
 * declared size within `limits` (a BMP's or PNM's read by `readers`' reader, which must be there
 * for it). Throws `DecodeError` otherwise, naming a peer format (a HEIF's boxes read by
 * `readPrimary`, which must be there for it).
 */
export function checkedFormat(
  bytes: Uint8Array,
  limits: DecodeLimits,
  readers: HeaderReaders,
  readPrimary?: HeifPrimaryReader,
): OwnFormat {
  if (bytes.length === 0) throw new DecodeError('truncated', 'empty file');
  const format = sniffFormat(bytes);
  if (format === null) {
    const peer = sniffPeerFormat(bytes, readPrimary);
    if (peer)
      throw new DecodeError(
        'unsupported',
        `${formatName(peer)} images are decoded through the optional package ${PEER_PACKAGES[peer] ?? 'sharp'}, by decodeImageLoading (asynchronous)`,
      );
    const other = describeOtherFormat(bytes);
    throw new DecodeError(
      'unknown-format',
      other
        ? `${other} images are not supported (PNG, JPEG, GIF, WebP, BMP, QOI or PNM only)`
        : 'not a PNG, JPEG, GIF, WebP, BMP, QOI or PNM image',
    );
  }
  const header = readHeaderWith(bytes, format, readers);
  checkDimensions(header.width, header.height, limits, format);
  return format;
}

/** The optional packages that decode a peer format other than through sharp alone. */
const PEER_PACKAGES: Partial<Record<string, string>> = { heic: 'libheif-js or sharp', jxl: 'wasm-vips or sharp' };

/**
 * The limits `options` asks for, over the defaults. A limit that is not a number of at least 1
 * (NaN, 0, negative, a string) is a `RangeError` naming it: NaN compares false with everything,
 * so it would turn a bound into no bound, or into nothing decoded. Infinity lifts that limit.
 */
export function limitsOf(options: DecodeOptions): DecodeLimits {
  if (options === null || typeof options !== 'object')
    throw new TypeError(`decodeImage: options must be an object (got ${describeValue(options)})`);
  const limits = { ...DEFAULT_DECODE_LIMITS, ...options.limits };
  for (const key of Object.keys(DEFAULT_DECODE_LIMITS) as (keyof DecodeLimits)[]) {
    const value: unknown = limits[key];
    if (typeof value !== 'number' || !(value >= 1))
      throw new RangeError(`decodeImage: limits.${key} must be a number of at least 1 (got ${describeValue(value)})`);
  }
  const box = options.maxSize;
  if (box !== undefined)
    for (const side of ['width', 'height'] as const) {
      const value: unknown = box?.[side];
      if (typeof value !== 'number' || !(value >= 1) || value === Number.POSITIVE_INFINITY)
        throw new RangeError(
          `decodeImage: maxSize.${side} must be a finite number of at least 1 (got ${describeValue(value)})`,
        );
    }
  return limits;
}

/**
 * The bytes of what `decodeImage` was given: a `Uint8Array` (a Buffer is one) as is, an
 * `ArrayBuffer` or any view of one (`DataView`, other typed arrays) as its bytes; anything else
 * (a string, a path, null) is a `TypeError` naming the argument.
 */
export function bytesOf(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === 'function' && value instanceof SharedArrayBuffer))
    return new Uint8Array(value);
  const hint = typeof value === 'string' ? '; to decode a file, read it first: decodeImage(readFileSync(path))' : '';
  throw new TypeError(
    `decodeImage: bytes must be a Uint8Array, Buffer, ArrayBuffer or DataView (got ${describeValue(value)})${hint}`,
  );
}

/** A value named for an error message, without printing what may be large or untrusted. */
function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return `a string of ${value.length} characters`;
  const kind = typeof value === 'object' ? ((value as object).constructor?.name ?? 'object') : typeof value;
  return `${/^[aeiou]/i.test(kind) ? 'an' : 'a'} ${kind}`;
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
    // A still lossy WebP may be converted smaller for maxSize (webp-vp8-reduce.ts).
    const webp = decoder('webp')(bytes, {
      frames: options.frames ?? 'all',
      limits,
      maxSize: options.maxSize,
      orientation: options.orientation,
    });
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
  if (format === 'bmp' || format === 'qoi' || format === 'pnm') {
    // Small uncompressed-or-nearly formats: decoded whole, no orientation, resized by the caller.
    const { raster, colour = {} } = decoder(format)(bytes) as { raster: Raster; colour?: ColourInfo };
    return { image: still(format, raster, raster.width, raster.height, 1), colour };
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
