/**
 * An image's declared size, read from its header without decoding a pixel, so that a file that
 * declares more pixels than is safe is refused before any memory is spent on it.
 */
import { ascii, u16be, u16le, u32be } from '../core/bytes.js';
import { DecodeError } from './error.js';
import { DEFAULT_DECODE_LIMITS, type DecodeLimits, type ImageFormat, type OwnFormat } from './image.js';

/** The size an image's header declares. */
export interface ImageHeader {
  readonly format: OwnFormat;
  readonly width: number;
  readonly height: number;
}

function pngHeader(bytes: Uint8Array): ImageHeader {
  // Signature (8), IHDR length (4) and type (4), then width and height (4 each).
  if (bytes.length < 24) throw new DecodeError('truncated', 'truncated PNG: the file ends inside its header');
  const type = ascii(bytes, 12, 16);
  if (type !== 'IHDR' || u32be(bytes, 8) !== 13)
    throw new DecodeError('corrupt', 'corrupt PNG: the first chunk is not a valid IHDR');
  return { format: 'png', width: u32be(bytes, 16), height: u32be(bytes, 20) };
}

/** The header's fields: the size, the channels (3 or 4, informative only) and the colour space. */
export interface QoiHeader {
  readonly width: number;
  readonly height: number;
  readonly channels: number;
  /** 0: sRGB with linear alpha; 1: every channel linear. */
  readonly colorspace: number;
}

/** A QOI's header is 14 bytes: `qoif`, width, height (32 bits each, most significant first), channels, colour space. */
export const QOI_HEADER = 14;
/** A QOI's header, checked. */
export function readQoiHeader(b: Uint8Array): QoiHeader {
  if (b.length < QOI_HEADER) throw new DecodeError('truncated', 'truncated QOI: the file ends inside its header');
  const header = { width: u32be(b, 4), height: u32be(b, 8), channels: b[12] as number, colorspace: b[13] as number };
  if (header.channels !== 3 && header.channels !== 4)
    throw new DecodeError('corrupt', `corrupt QOI: ${header.channels} channels (3 or 4 only)`);
  if (header.colorspace > 1)
    throw new DecodeError('corrupt', `corrupt QOI: colour space ${header.colorspace} (0 or 1 only)`);
  return header;
}

/** JPEG markers that carry a frame header (SOF0..SOF15 without DHT C4, JPG C8 and DAC CC). */
function isStartOfFrame(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

function jpegHeader(bytes: Uint8Array): ImageHeader {
  const end = bytes.length;
  let p = 2; // after SOI
  for (;;) {
    if (p >= end) throw new DecodeError('truncated', 'truncated JPEG: the file ends before its frame header');
    if (bytes[p] !== 0xff) throw new DecodeError('corrupt', `corrupt JPEG: no marker at byte ${p}`);
    while (p < end && bytes[p] === 0xff) p++; // fill bytes
    if (p >= end) throw new DecodeError('truncated', 'truncated JPEG: the file ends before its frame header');
    const marker = bytes[p++] as number;
    // Markers without a length: TEM, RSTn, a repeated SOI.
    if (marker === 0x01 || marker === 0xd8 || (marker >= 0xd0 && marker <= 0xd7)) continue;
    if (marker === 0xd9) throw new DecodeError('corrupt', 'corrupt JPEG: the image ends before its frame header');
    if (marker === 0xda) throw new DecodeError('corrupt', 'corrupt JPEG: scan data before the frame header');
    if (p + 2 > end) throw new DecodeError('truncated', 'truncated JPEG: the file ends inside a marker');
    const length = u16be(bytes, p);
    if (length < 2) throw new DecodeError('corrupt', `corrupt JPEG: marker segment of length ${length}`);
    if (isStartOfFrame(marker)) {
      // length(2) precision(1) height(2) width(2)
      if (p + 7 > end) throw new DecodeError('truncated', 'truncated JPEG: the file ends inside its frame header');
      return { format: 'jpeg', width: u16be(bytes, p + 5), height: u16be(bytes, p + 3) };
    }
    p += length;
  }
}

function gifHeader(bytes: Uint8Array): ImageHeader {
  if (bytes.length < 13) throw new DecodeError('truncated', 'truncated GIF: the file ends inside its header');
  return { format: 'gif', width: u16le(bytes, 6), height: u16le(bytes, 8) };
}

function u24le(b: Uint8Array, at: number): number {
  return (b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16);
}

/**
 * A WebP's canvas from its first chunk alone: VP8X's canvas (24-bit sides minus one), else a
 * VP8L header's 14-bit sides minus one (after the 0x2f signature), else a VP8 key frame's 14-bit
 * sides (after the 3-byte tag and the start code 9d 01 2a). The rest is webp-riff.ts's to check.
 */
function webpHeader(bytes: Uint8Array): ImageHeader {
  const cut = (): DecodeError => new DecodeError('truncated', 'truncated WebP: the file ends inside its header');
  if (bytes.length < 20) throw cut();
  const fourcc = ascii(bytes, 12, 16);
  const b = bytes.subarray(20);
  if (fourcc === 'VP8X') {
    if (b.length < 10) throw cut();
    return { format: 'webp', width: 1 + u24le(b, 4), height: 1 + u24le(b, 7) };
  }
  if (fourcc === 'VP8L') {
    if (b.length < 5) throw cut();
    if (b[0] !== 0x2f)
      throw new DecodeError('corrupt', 'corrupt WebP: the VP8L chunk does not start with its signature byte');
    const bits = u24le(b, 1) | ((b[4] as number) << 24);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (fourcc === 'VP8 ') {
    if (b.length < 10) throw cut();
    if (b[3] !== 0x9d || b[4] !== 0x01 || b[5] !== 0x2a)
      throw new DecodeError('corrupt', 'corrupt WebP: no VP8 start code');
    return { format: 'webp', width: u16le(b, 6) & 0x3fff, height: u16le(b, 8) & 0x3fff };
  }
  throw new DecodeError('corrupt', 'corrupt WebP: the first chunk is not VP8, VP8L or VP8X');
}

/**
 * The header readers of BMP and PNM (bmp-header.ts, pnm-header.ts: longer than the others here),
 * passed in by whoever has loaded them (image-header.ts always, load.ts for a BMP or a PNM), so
 * that checking a PNG or a JPEG does not load them.
 */
export type HeaderReaders = {
  readonly [F in 'bmp' | 'pnm']?: (bytes: Uint8Array) => { readonly width: number; readonly height: number };
};

/**
 * `readImageHeader` (image-header.ts) with the BMP and PNM readers from `readers`; an `Error` when
 * the one `format` needs is not there (a caller's mistake, not the file's).
 */
export function readHeaderWith(bytes: Uint8Array, format: OwnFormat, readers: HeaderReaders): ImageHeader {
  const header: ImageHeader =
    format === 'bmp' || format === 'pnm'
      ? { format, ...sizeOf(readerOf(readers, format)(bytes)) }
      : format === 'qoi'
        ? { format, ...sizeOf(readQoiHeader(bytes)) }
        : format === 'png'
          ? pngHeader(bytes)
          : format === 'jpeg'
            ? jpegHeader(bytes)
            : format === 'webp'
              ? webpHeader(bytes)
              : gifHeader(bytes);
  if (header.width === 0 || header.height === 0) {
    throw new DecodeError(
      'corrupt',
      `corrupt ${formatName(format)}: it declares a size of ${header.width}x${header.height}`,
    );
  }
  return header;
}

function readerOf(readers: HeaderReaders, format: 'bmp' | 'pnm') {
  const reader = readers[format];
  if (!reader) throw new Error(`readHeaderWith: no header reader for ${format} was passed`);
  return reader;
}

function sizeOf(header: { readonly width: number; readonly height: number }): { width: number; height: number } {
  return { width: header.width, height: header.height };
}

/** Throws a `too-large` `DecodeError` when `width` x `height` is beyond the limits. */
export function checkDimensions(
  width: number,
  height: number,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
  format?: ImageFormat,
): void {
  const pixels = width * height;
  if (width > limits.maxSide || height > limits.maxSide || pixels > limits.maxPixels) {
    const what = format ? `${formatName(format)} ` : '';
    const mp = (pixels / 1e6).toFixed(pixels < 1e7 ? 1 : 0);
    throw new DecodeError(
      'too-large',
      `${what}image too large to decode safely: ${width}x${height} (${mp} megapixels); the limit is ${limits.maxPixels / 1e6} megapixels and ${limits.maxSide} pixels a side`,
    );
  }
}

/** The name of a format as people write it. */
export function formatName(format: ImageFormat): string {
  return FORMAT_NAMES[format];
}

const FORMAT_NAMES: Readonly<Record<ImageFormat, string>> = {
  png: 'PNG',
  jpeg: 'JPEG',
  gif: 'GIF',
  webp: 'WebP',
  bmp: 'BMP',
  qoi: 'QOI',
  pnm: 'PNM',
  avif: 'AVIF',
  heic: 'HEIC',
  heif: 'HEIF',
  tiff: 'TIFF',
  jxl: 'JPEG XL',
  svg: 'SVG',
};
