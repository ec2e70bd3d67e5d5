/**
 * JPEG XL through an optional peer: sharp when its libvips reads JPEG XL (sharp's prebuilt one
 * does not), else wasm-vips (libvips with libjxl, compiled to WebAssembly), else one line naming
 * the package to install. The codestream's size header is read first (jxl-header.ts) and checked
 * against the limits before either peer is loaded. This module is loaded only when a JPEG XL file
 * arrives, and it loads a peer only then. See docs/decode.md, "JPEG XL".
 */
import { type Orientation, orient } from '../core/orientation.js';
import type { Raster } from '../core/raster.js';
import { averageBlocks, type Samples } from './block-average.js';
import { applyColour } from './colour.js';
import { DecodeError, reasonOf } from './error.js';
import { checkDimensions } from './header.js';
import type { DecodedImage, DecodeLimits, DecodeOptions } from './image.js';
import { type JxlHeader, JxlHeaderError, readJxlHeader } from './jxl-header.js';
import { wholeReduction } from './reduction.js';
import { decodeWithSharp, loadSharpIfInstalled } from './sharp.js';

/** The one line for a JPEG XL file when no decoder for it is installed. */
export const JXL_MISSING = 'JPEG XL images need the optional package wasm-vips: npm install wasm-vips';

/** The part of wasm-vips (libvips's C++ API through embind) termsight uses; its types stay here. */
interface Vips {
  Image: { jxlloadBuffer(bytes: Uint8Array, options: { fail_on: string; access: string }): VipsImage };
  Cache: { max(n: number): void };
}

interface VipsImage {
  readonly width: number;
  readonly height: number;
  readonly bands: number;
  readonly format: string;
  readonly interpretation: string;
  getTypeof(name: string): number;
  getBlob(name: string): Uint8Array;
  getInt(name: string): number;
  colourspace(space: string): VipsImage;
  cast(format: string): VipsImage;
  writeToMemory(): Uint8Array | Uint16Array;
  delete(): void;
}

let wasmVips: Promise<Vips | null> | undefined;

/**
 * wasm-vips, instantiated once with only its JPEG XL module (its HEIF and SVG modules are not
 * loaded) and its printing turned off: nothing of it reaches the terminal. Null when it is not
 * installed; a `DecodeError` when it is installed but does not load.
 */
function loadWasmVips(): Promise<Vips | null> {
  wasmVips ??= (async () => {
    // Node hands its own flags to worker threads, and a worker started with --input-type fails
    // to load its file: wasm-vips's pthreads would never start and the decode would wait forever.
    if (process.execArgv.some((flag) => flag.startsWith('--input-type')))
      throw new DecodeError(
        'unsupported',
        'JPEG XL images cannot be decoded by wasm-vips in a Node started with --input-type (its worker threads would not start): run the code from a file',
      );
    let factory: (options: object) => Promise<Vips>;
    try {
      factory = (await import('wasm-vips')).default as unknown as typeof factory;
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') return null;
      throw installedButBroken(error);
    }
    const quiet = (): void => {};
    try {
      const vips = await factory({ dynamicLibraries: ['vips-jxl.wasm'], print: quiet, printErr: quiet });
      // libvips's operation cache would keep the last pictures (and their pixels) alive.
      vips.Cache.max(0);
      return vips;
    } catch (error) {
      throw installedButBroken(error);
    }
  })();
  wasmVips.catch(() => {
    wasmVips = undefined;
  });
  return wasmVips;
}

function installedButBroken(error: unknown): DecodeError {
  return new DecodeError(
    'unsupported',
    `JPEG XL images need wasm-vips, which is installed but did not load (${reasonOf(error)})`,
    { cause: error },
  );
}

/** Loads the JPEG XL decoders ahead of a decode (the CLI does it while the probe waits); never rejects. */
export async function preloadJxl(): Promise<void> {
  await Promise.all([loadSharpIfInstalled().catch(() => null), loadWasmVips().catch(() => null)]);
}

/**
 * Decodes a JPEG XL file's first frame (an animation's `frameCount` says how many it has): its size header read and checked against the limits
 * before a decoder is loaded; then sharp if its libvips reads JPEG XL, else wasm-vips. libjxl
 * turns the picture upright by the codestream's orientation (`orientation: 'ignore'` turns it
 * back); the colour space it decodes to, as an ICC profile, is converted to sRGB by colour.ts.
 */
export async function decodeJxl(
  bytes: Uint8Array,
  options: DecodeOptions,
  limits: DecodeLimits,
): Promise<DecodedImage> {
  const header = checkedHeader(bytes, limits);
  const sharp = await loadSharpIfInstalled().catch(() => null);
  const jxl = (sharp?.format as unknown as Record<string, { input?: { buffer?: boolean } }> | undefined)?.jxl;
  if (jxl?.input?.buffer === true) return decodeWithSharp(bytes, 'jxl', options, limits);
  const vips = await loadWasmVips();
  if (!vips) throw new DecodeError('unsupported', JXL_MISSING);
  let decoded: ReturnType<typeof decodeWithVips>;
  try {
    decoded = decodeWithVips(vips, bytes, header, limits, options.maxSize);
  } catch (error) {
    if (error instanceof DecodeError) throw error;
    throw vipsFailure(error);
  }
  const apply = options.orientation !== 'ignore';
  // libjxl has turned it upright; 6 and 8 undo each other, the other turns and flips themselves.
  const back = header.orientation === 6 ? 8 : header.orientation === 8 ? 6 : header.orientation;
  const raster = apply ? decoded.raster : orient(decoded.raster, back as Orientation);
  const frames = [{ raster, delayMs: 0 }];
  return {
    format: 'jxl',
    width: raster.width,
    height: raster.height,
    sourceWidth: header.width,
    sourceHeight: header.height,
    orientation: header.orientation,
    frames,
    frameCount: decoded.frames,
    colour: applyColour(
      frames,
      decoded.icc ? { icc: decoded.icc, model: decoded.grey ? 'grey' : 'rgb' } : {},
      decoded.grey ? 'grey' : 'rgb',
      options.colour,
    ),
  };
}

/** The codestream's declared size, within the limits; a `DecodeError` otherwise. */
function checkedHeader(bytes: Uint8Array, limits: DecodeLimits): JxlHeader {
  let header: JxlHeader;
  try {
    header = readJxlHeader(bytes);
  } catch (error) {
    if (error instanceof JxlHeaderError)
      throw new DecodeError(error.kind, `${error.kind} JPEG XL: ${error.message}`, { cause: error });
    throw error;
  }
  checkDimensions(header.width, header.height, limits, 'jxl');
  return header;
}

/**
 * libvips's error as a `DecodeError`. wasm-vips's message is `unable to call jxlload_buffer`
 * then libvips's own lines; the last of those says what libjxl found.
 */
function vipsFailure(error: unknown): DecodeError {
  // A C++ exception arrives as a WebAssembly.Exception (no Error) whose message is [type, text].
  const message = (error as { message?: unknown } | null)?.message;
  const text = Array.isArray(message)
    ? String(message[1] ?? message[0])
    : typeof message === 'string'
      ? message
      : String(error);
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  const reason = lines.length > 1 ? (lines.at(-1) as string) : reasonOf(error);
  if (/memory|allocat|too large|out of bounds/i.test(reason))
    return new DecodeError('too-large', `JPEG XL image too large to decode safely (${reason})`, { cause: error });
  return new DecodeError('corrupt', `corrupt JPEG XL: ${reason.replace(/^jxlload_buffer: /, '')}`, { cause: error });
}

/**
 * The first frame through wasm-vips as RGBA8 (grey spread to RGB, opaque when it has no alpha),
 * averaged down by the largest whole factor that still covers `box` while it is made RGBA.
 */
function decodeWithVips(
  vips: Vips,
  bytes: Uint8Array,
  header: JxlHeader,
  limits: DecodeLimits,
  box: DecodeOptions['maxSize'],
): { raster: Raster; icc: Uint8Array | undefined; grey: boolean; frames: number } {
  const made: VipsImage[] = [];
  const keep = (image: VipsImage): VipsImage => {
    made.push(image);
    return image;
  };
  try {
    let image = keep(vips.Image.jxlloadBuffer(bytes, { fail_on: 'error', access: 'random' }));
    const { width, height, bands } = image;
    // Upright by the orientation: the stored size, or turned a quarter. Anything else the header did not say.
    const turned = header.orientation >= 5;
    if (width !== (turned ? header.height : header.width) || height !== (turned ? header.width : header.height))
      throw new DecodeError(
        'corrupt',
        `corrupt JPEG XL: it declares ${header.width}x${header.height} but decodes to ${width}x${height}`,
      );
    checkDimensions(width, height, limits, 'jxl');
    if (bands < 1 || bands > 4) throw new DecodeError('unsupported', `unsupported JPEG XL: ${bands} channels`);
    const icc = image.getTypeof('icc-profile-data') !== 0 ? image.getBlob('icc-profile-data').slice() : undefined;
    // Float samples (HDR, 32-bit) to 8 bits by libvips; 16-bit ones are scaled here, rounded as libjxl does.
    if (image.format !== 'uchar' && image.format !== 'ushort')
      image = keep(keep(image.colourspace(bands <= 2 ? 'b-w' : 'srgb')).cast('uchar'));
    // A copy out of its heap, typed by the sample format (Uint8Array, Uint16Array).
    const memory = image.writeToMemory() as ArrayBufferView;
    const wide = image.format === 'ushort';
    const samples: Uint8Array | Uint16Array =
      memory instanceof (wide ? Uint16Array : Uint8Array)
        ? (memory as Uint8Array | Uint16Array)
        : wide
          ? new Uint16Array(memory.buffer.slice(memory.byteOffset, memory.byteOffset + memory.byteLength))
          : new Uint8Array(memory.buffer, memory.byteOffset, memory.byteLength);
    if (samples.length < width * height * bands)
      throw new DecodeError('corrupt', 'corrupt JPEG XL: wasm-vips gave fewer samples than its size');
    const scale = wide ? 1 / 257 : 1;
    const raster = averageBlocks(
      { data: samples, width, height, bands: bands as Samples['bands'], stride: width * bands, scale },
      wholeReduction(width, height, box),
    );
    // An animation's frame count (only its first frame is decoded: `jxlload_buffer` loads page 0).
    const frames = image.getTypeof('n-pages') !== 0 ? Math.max(1, image.getInt('n-pages')) : 1;
    return { raster, icc, grey: bands <= 2, frames };
  } finally {
    for (const image of made) image.delete();
  }
}
