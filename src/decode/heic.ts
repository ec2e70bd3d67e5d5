/**
 * HEIC (HEVC-coded HEIF, what iPhones write) through an optional peer: sharp when its libvips has
 * an HEVC decoder (sharp's prebuilt one has none; one built on a system libvips with libde265 has),
 * else libheif-js (libheif and libde265 compiled to WebAssembly), else one line naming the package
 * to install. The boxes are read first (heif-boxes.ts) and the sizes checked against the limits
 * before either peer is loaded. This module is loaded only when a HEIC file arrives, and it loads
 * a peer only then. See docs/decode.md, "HEIC".
 */
import { averageBlocks } from './block-average.js';
import { applyColour } from './colour.js';
import { DecodeError, reasonOf } from './error.js';
import { checkDimensions } from './header.js';
import { HeifBoxError, type HeifColour, type HeifPrimary, readHeifPrimary } from './heif-boxes.js';
import type { ColourInfo, DecodedImage, DecodeLimits, DecodeOptions } from './image.js';
import { wholeReduction } from './reduction.js';
import { decodeWithSharp, loadSharpIfInstalled } from './sharp.js';

/** The one line for a HEIC when no decoder for it is installed. */
export const HEIC_MISSING = 'HEIC images need the optional package libheif-js: npm install libheif-js';

/** The part of libheif-js's Emscripten module (libheif's C API through embind) termsight uses. */
interface Libheif {
  heif_get_version(): string;
  heif_context_alloc(): object;
  heif_context_free(context: object): void;
  heif_context_read_from_memory(context: object, bytes: Uint8Array): HeifError;
  heif_js_context_get_primary_image_handle(context: object): object | HeifError;
  heif_image_handle_get_width(handle: object): number;
  heif_image_handle_get_height(handle: object): number;
  heif_image_handle_release(handle: object): void;
  heif_js_decode_image2(handle: object, colorspace: unknown, chroma: unknown): DecodedHeif | HeifError | undefined;
  heif_image_release(image: unknown): void;
  heif_colorspace: { heif_colorspace_RGB: unknown };
  heif_chroma: { heif_chroma_interleaved_RGBA: unknown };
  heif_channel: { heif_channel_interleaved: { value: number } };
}

interface HeifError {
  code: { value: number };
  message: string;
}

interface DecodedHeif {
  image: unknown;
  channels: { id: { value: number }; width: number; height: number; stride: number; data: Uint8Array }[];
}

let libheif: Promise<Libheif | null> | undefined;

/**
 * libheif-js, instantiated once (its WebAssembly is inside its JavaScript, so this is synchronous
 * after the import), with its printing turned off: nothing of it reaches the terminal. Null when
 * it is not installed; a `DecodeError` when it is installed but does not load.
 */
function loadLibheif(): Promise<Libheif | null> {
  libheif ??= (async () => {
    let factory: (options: { print(text: string): void; printErr(text: string): void }) => unknown;
    try {
      // libheif-js's build with its WebAssembly inside (`wasm-bundle.js` is the same with printing on).
      factory = (await import('libheif-js/libheif-wasm/libheif-bundle.js')).default;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return null;
      throw new DecodeError(
        'unsupported',
        `HEIC images need libheif-js, which is installed but did not load (${reasonOf(error)})`,
        {
          cause: error,
        },
      );
    }
    const quiet = (): void => {};
    return factory({ print: quiet, printErr: quiet }) as Libheif;
  })();
  return libheif;
}

/** Loads the HEIC decoders ahead of a decode (the CLI does it while the probe waits); never rejects. */
export async function preloadHeic(): Promise<void> {
  await Promise.all([loadSharpIfInstalled().catch(() => null), loadLibheif().catch(() => null)]);
}

/**
 * Decodes a HEIC's primary picture: its boxes read and its sizes (the picture's, every item's,
 * and the pixels of all the tiles it is made of) checked against the limits before a decoder is
 * loaded; then sharp if its libvips decodes HEVC, else libheif-js. The picture's `irot`/`imir`
 * are applied by libheif (HEIF's own orientation: the EXIF orientation of a HEIF is not applied,
 * as libheif, browsers and sharp do); its `colr` (nclx or ICC) is converted to sRGB by colour.ts.
 */
export async function decodeHeic(
  bytes: Uint8Array,
  options: DecodeOptions,
  limits: DecodeLimits,
): Promise<DecodedImage> {
  const primary = checkedPrimary(bytes, limits);
  const sharp = await loadSharpIfInstalled().catch(() => null);
  if (sharp && readsHevc(sharp))
    try {
      return await decodeWithSharp(bytes, 'heic', options, limits);
    } catch (error) {
      // Its suffixes said HEVC but its libheif had no decoder after all: libheif-js may.
      if (!(error instanceof DecodeError && error.failure === 'unsupported')) throw error;
    }
  const lib = await loadLibheif();
  if (!lib) throw new DecodeError('unsupported', HEIC_MISSING);
  let raster: ReturnType<typeof decodeWithLibheif>;
  try {
    raster = decodeWithLibheif(lib, bytes, primary, limits, options.maxSize);
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    // The WebAssembly aborted (out of its 2 GiB, a trap): that instance is spent, a new one next time.
    libheif = undefined;
    throw new DecodeError('corrupt', `corrupt HEIC: libheif-js failed (${reasonOf(error)})`, { cause: error });
  }
  const frames = [{ raster, delayMs: 0 }];
  return {
    format: 'heic',
    width: raster.width,
    height: raster.height,
    sourceWidth: primary.width,
    sourceHeight: primary.height,
    orientation: 1,
    frames,
    frameCount: 1,
    colour: applyColour(frames, colourInfo(primary.colour), 'rgb', options.colour),
  };
}

/** The primary picture's description, its sizes within the limits; a `DecodeError` otherwise. */
function checkedPrimary(bytes: Uint8Array, limits: DecodeLimits): HeifPrimary {
  let primary: HeifPrimary;
  try {
    primary = readHeifPrimary(bytes);
  } catch (error) {
    if (error instanceof HeifBoxError)
      throw new DecodeError('corrupt', `corrupt HEIC: ${error.message}`, { cause: error });
    throw error;
  }
  if (primary.width === 0 || primary.height === 0)
    throw new DecodeError('corrupt', 'corrupt HEIC: its primary picture declares no size (ispe)');
  checkDimensions(primary.width, primary.height, limits, 'heic');
  for (const item of primary.itemSizes) checkDimensions(item.width, item.height, limits, 'heic');
  // A grid's tiles cover it with at most a tile's overhang on each side; many more pixels than
  // the limit (one tile item listed thousands of times) would be work without a picture.
  if (primary.codedPixels > 2 * limits.maxPixels)
    throw new DecodeError(
      'too-large',
      `HEIC image too large to decode safely: its tiles hold ${(primary.codedPixels / 1e6).toFixed(0)} megapixels; the limit is ${limits.maxPixels / 1e6} megapixels`,
    );
  return primary;
}

/** Whether sharp's libvips decodes HEVC: it lists `.heic` among its HEIF loader's suffixes only then. */
function readsHevc(sharp: Awaited<ReturnType<typeof loadSharpIfInstalled>>): boolean {
  const heif = (sharp?.format as unknown as Record<string, { input?: { buffer?: boolean; fileSuffix?: string[] } }>)
    ?.heif;
  return heif?.input?.buffer === true && (heif.input.fileSuffix ?? []).includes('.heic');
}

/**
 * The primary picture through libheif-js, as RGBA8 (alpha from its alpha item, else opaque),
 * averaged down by the largest whole factor that still covers `box` while it is copied out of the
 * WebAssembly memory, so the full-size picture is held once (there), not twice.
 */
function decodeWithLibheif(
  lib: Libheif,
  bytes: Uint8Array,
  primary: HeifPrimary,
  limits: DecodeLimits,
  box: DecodeOptions['maxSize'],
) {
  const context = lib.heif_context_alloc();
  let handle: object | undefined;
  let decoded: DecodedHeif | undefined;
  try {
    const read = lib.heif_context_read_from_memory(context, bytes);
    if (read.code.value !== 0) throw new DecodeError('corrupt', `corrupt HEIC: ${read.message}`);
    const got = lib.heif_js_context_get_primary_image_handle(context);
    if (isError(got)) throw new DecodeError('corrupt', `corrupt HEIC: ${got.message}`);
    handle = got;
    const result = lib.heif_js_decode_image2(
      handle,
      lib.heif_colorspace.heif_colorspace_RGB,
      lib.heif_chroma.heif_chroma_interleaved_RGBA,
    );
    if (!result || isError(result))
      throw new DecodeError('corrupt', `corrupt HEIC: ${result ? result.message : 'libheif decoded no picture'}`);
    decoded = result;
    const channel = decoded.channels.find((c) => c.id.value === lib.heif_channel.heif_channel_interleaved.value);
    if (!channel) throw new DecodeError('corrupt', 'corrupt HEIC: libheif gave no RGBA pixels');
    const { width, height, stride } = channel;
    // The size after irot: the stored one, or turned a quarter. Anything else the boxes did not say.
    const turned = width === primary.height && height === primary.width;
    if (!((width === primary.width && height === primary.height) || turned) || stride < width * 4)
      throw new DecodeError(
        'corrupt',
        `corrupt HEIC: it declares ${primary.width}x${primary.height} but decodes to ${width}x${height}`,
      );
    checkDimensions(width, height, limits, 'heic');
    // Copied out of the WebAssembly memory (its rows may be padded), averaged down on the way.
    const samples = { data: channel.data, width, height, bands: 4, stride, scale: 1 } as const;
    return averageBlocks(samples, wholeReduction(width, height, box));
  } finally {
    if (decoded) lib.heif_image_release(decoded.image);
    if (handle) lib.heif_image_handle_release(handle);
    lib.heif_context_free(context);
  }
}

function isError(value: object): value is HeifError {
  return 'code' in value && 'message' in value;
}

/**
 * The colour of a HEIC as colour.ts takes it. libheif has already turned YCbCr into RGB by the
 * nclx matrix and range, so the code points passed on are RGB and full range; unspecified (2)
 * primaries and transfer are sRGB's, as libheif and browsers take them.
 */
export function colourInfo(colour: HeifColour | undefined): ColourInfo {
  if (!colour) return {};
  if (colour.kind === 'icc') return { icc: colour.profile };
  const primaries = colour.primaries === 2 ? 1 : colour.primaries;
  const transfer = colour.transfer === 2 ? 13 : colour.transfer;
  return { cicp: { primaries, transfer, matrix: 0, fullRange: true, source: 'HEIF nclx' } };
}
