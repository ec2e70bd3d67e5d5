/**
 * The formats termsight does not decode itself (AVIF, HEIF, TIFF, JPEG XL, SVG, and HEIC when
 * sharp's libvips decodes HEVC: heic.ts decides), through the optional peer dependency sharp (libvips, prebuilt in its npm packages) when the application or
 * the user installed it. This module is loaded only when such a file arrives, and it loads sharp
 * only then; without sharp the file gets one line naming the package to install. sharp converts
 * the picture's colour to sRGB itself (libvips runs lcms on its ICC profile). See docs/decode.md,
 * "Other formats".
 */
import { DecodeError, reasonOf } from './error.js';
import { checkDimensions, formatName } from './header.js';
import type { DecodedImage, DecodeLimits, DecodeOptions, PeerFormat } from './image.js';

/** What termsight uses of sharp: its types stay here, so no public declaration names the package. */
type Sharp = typeof import('sharp').default;

/** The one line for a file of `format` when sharp is not installed. */
export function sharpMissing(format: PeerFormat): string {
  return `${formatName(format)} images need the optional package sharp: npm install sharp`;
}

/** sharp, or a `DecodeError` that says how to get it. */
async function loadSharp(format: PeerFormat): Promise<Sharp> {
  try {
    return (await import('sharp')).default;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      throw new DecodeError('unsupported', sharpMissing(format), { cause: error });
    // Installed, but its native part did not load (another platform's build, a broken install).
    throw new DecodeError(
      'unsupported',
      `${formatName(format)} images need sharp, which is installed but did not load (${reasonOf(error)})`,
      { cause: error },
    );
  }
}

/**
 * sharp when it is installed and loads, else null (a HEIC then goes to libheif-js). sharp's types
 * stay in this module.
 */
export async function loadSharpIfInstalled(): Promise<Sharp | null> {
  try {
    return (await import('sharp')).default;
  } catch {
    return null;
  }
}

/** Loads sharp ahead of a decode (the CLI does it while the probe waits); never rejects. */
export async function preloadSharp(): Promise<void> {
  try {
    await import('sharp');
  } catch {
    // Not installed or broken: the decode says so, with its line.
  }
}

/**
 * Decodes a file of a peer format through sharp: its size checked against the limits from the
 * header before any pixel, turned upright by its EXIF orientation, shrunk to cover `maxSize` on
 * load (an SVG is rendered at that size), first frame only, RGBA8 sRGB.
 */
export async function decodeWithSharp(
  bytes: Uint8Array,
  format: PeerFormat,
  options: DecodeOptions,
  limits: DecodeLimits,
): Promise<DecodedImage> {
  const sharp = await loadSharp(format);
  const name = formatName(format);
  // The formats this libvips reads (sharp's prebuilt one has no JPEG XL decoder).
  const loader = (sharp.format as unknown as Record<string, unknown>)[LOADERS[format]] as
    | { input?: { buffer?: boolean } }
    | undefined;
  if (loader?.input?.buffer !== true)
    throw new DecodeError(
      'unsupported',
      `unsupported ${name}: the libvips sharp uses was built without a ${name} decoder (sharp's prebuilt one has none; a sharp on a system libvips with one reads it)`,
    );
  const input = { limitInputPixels: limits.maxPixels, failOn: 'error' as const, pages: 1 };
  let metadata: Awaited<ReturnType<ReturnType<Sharp>['metadata']>>;
  try {
    metadata = await sharp(bytes, input).metadata();
  } catch (error) {
    throw failure(name, error);
  }
  const width = metadata.width ?? 0;
  const height = metadata.height ?? 0;
  if (width === 0 || height === 0) throw new DecodeError('corrupt', `corrupt ${name}: it declares no size`);
  checkDimensions(width, height, limits, format);
  const orientation = (metadata.orientation ?? 1) as DecodedImage['orientation'];
  const apply = options.orientation !== 'ignore';
  const turned = apply && orientation >= 5;
  const box =
    options.maxSize && turned ? { width: options.maxSize.height, height: options.maxSize.width } : options.maxSize;
  // An SVG is drawn at the density that makes it cover the box (72 dpi is its own size).
  const scale = box ? Math.max(box.width / width, box.height / height) : 1;
  const density =
    format === 'svg' && scale > 1 ? Math.min(72 * scale, 72 * (limits.maxSide / Math.max(width, height))) : undefined;
  let pipeline = sharp(bytes, { ...input, ...(density ? { density } : {}) });
  if (apply) pipeline = pipeline.rotate();
  if (box && format !== 'svg')
    pipeline = pipeline.resize({ width: box.width, height: box.height, fit: 'outside', withoutEnlargement: true });
  let out: { data: Buffer; info: { width: number; height: number; channels: number } };
  try {
    out = await pipeline
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
  } catch (error) {
    // A HEIF whose boxes did not say HEVC (heic.ts takes those) but whose pictures are.
    if (metadata.compression === 'hevc')
      throw new DecodeError(
        'unsupported',
        `unsupported ${name}: HEVC-coded, and the libvips sharp uses has no HEVC decoder (sharp's prebuilt one has none)`,
        { cause: error },
      );
    throw failure(name, error);
  }
  const { info } = out;
  if (info.channels !== 4)
    throw new DecodeError('unsupported', `unsupported ${name}: sharp gave ${info.channels} channels`);
  const raster = {
    width: info.width,
    height: info.height,
    data: new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.length),
  };
  const pages = metadata.pages ?? 1;
  return {
    format,
    width: raster.width,
    height: raster.height,
    sourceWidth: width,
    sourceHeight: height,
    orientation,
    frames: [{ raster, delayMs: 0 }],
    frameCount: pages,
    colour: metadata.icc
      ? { applied: 'converted', why: `${name} ICC profile: converted to sRGB by sharp (libvips, lcms)` }
      : { applied: 'as-is', why: `${name} decoded to sRGB by sharp (libvips)` },
  };
}

/** sharp's name (`sharp.format`) of the libvips loader of each format. */
const LOADERS: Readonly<Record<PeerFormat, 'heif' | 'tiff' | 'jxl' | 'svg'>> = {
  avif: 'heif',
  heic: 'heif',
  heif: 'heif',
  tiff: 'tiff',
  jxl: 'jxl',
  svg: 'svg',
};

/**
 * sharp's error as a `DecodeError`: its first line, after what the file is. The loader exists
 * (checked before), so a file it does not take is a broken file of that format.
 */
function failure(name: string, error: unknown): DecodeError {
  const reason = reasonOf(error);
  if (/pixel limit/i.test(reason))
    return new DecodeError('too-large', `${name} image too large to decode safely (${reason})`, { cause: error });
  return new DecodeError('corrupt', `corrupt ${name}: ${reason}`, { cause: error });
}
