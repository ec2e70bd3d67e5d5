/**
 * GIF to full RGBA frames with omggif's LZW decoder. The block structure is walked here first
 * (truncation, missing colour tables, frames outside the screen), then every frame is composited
 * onto a canvas the way browsers do: transparency, and disposal 1 (keep), 2 (clear to transparent)
 * and 3 (restore the previous picture).
 */
import omggif from 'omggif';
import { DecodeError, reasonOf } from './error.js';
import { checkGifLzw } from './gif-lzw.js';
import { checkDimensions } from './header.js';
import { DEFAULT_DECODE_LIMITS, type DecodedFrame, type DecodeLimits } from './image.js';

/** One frame as the file describes it. */
export interface GifFrameInfo {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** Centiseconds, as stored. */
  readonly delay: number;
  /** 0 unspecified, 1 keep, 2 restore to background, 3 restore to previous. */
  readonly disposal: number;
}

/** The logical screen and frames of a GIF, from a walk over its blocks. */
export interface GifLayout {
  readonly width: number;
  readonly height: number;
  readonly frames: readonly GifFrameInfo[];
}

/** Walks the blocks of a GIF without decoding pixels; throws `DecodeError` when cut short or malformed. */
export function readGifLayout(bytes: Uint8Array): GifLayout {
  const end = bytes.length;
  const truncated = (): never => {
    throw new DecodeError('truncated', 'truncated GIF: the file ends before its trailer');
  };
  if (end < 13) truncated();
  const width = bytes[6]! | (bytes[7]! << 8);
  const height = bytes[8]! | (bytes[9]! << 8);
  const hasGlobalPalette = (bytes[10]! & 0x80) !== 0;
  let p = 13 + (hasGlobalPalette ? 3 * (2 << (bytes[10]! & 7)) : 0);
  const skipSubBlocks = (): void => {
    for (;;) {
      if (p >= end) truncated();
      const size = bytes[p++]!;
      if (size === 0) return;
      p += size;
    }
  };
  const frames: GifFrameInfo[] = [];
  let delay = 0;
  let disposal = 0;
  for (;;) {
    if (p >= end) truncated();
    const block = bytes[p++]!;
    if (block === 0x3b) break;
    if (block === 0x21) {
      if (p >= end) truncated();
      const label = bytes[p++]!;
      if (label === 0xf9) {
        if (p + 5 > end) truncated();
        if (bytes[p] !== 4) throw new DecodeError('corrupt', 'corrupt GIF: bad graphic control extension');
        disposal = (bytes[p + 1]! >> 2) & 7;
        delay = bytes[p + 2]! | (bytes[p + 3]! << 8);
        p += 5;
      }
      skipSubBlocks();
      continue;
    }
    if (block === 0x2c) {
      if (p + 9 > end) truncated();
      const frame = {
        x: bytes[p]! | (bytes[p + 1]! << 8),
        y: bytes[p + 2]! | (bytes[p + 3]! << 8),
        width: bytes[p + 4]! | (bytes[p + 5]! << 8),
        height: bytes[p + 6]! | (bytes[p + 7]! << 8),
        delay,
        disposal,
      };
      const flags = bytes[p + 8]!;
      p += 9;
      if (flags & 0x80) p += 3 * (2 << (flags & 7));
      else if (!hasGlobalPalette) throw new DecodeError('corrupt', 'corrupt GIF: a frame has no colour table');
      p += 1; // LZW minimum code size
      skipSubBlocks();
      if (p > end) truncated();
      frames.push(frame);
      delay = 0;
      disposal = 0;
      continue;
    }
    throw new DecodeError(
      'corrupt',
      `corrupt GIF: unknown block 0x${block.toString(16).padStart(2, '0')} at byte ${p - 1}`,
    );
  }
  if (frames.length === 0) throw new DecodeError('corrupt', 'corrupt GIF: it holds no image');
  return { width, height, frames };
}

/**
 * A frame's display time. Browsers show delays of 0 and 10 ms as 100 ms, because so many files
 * were written with them by mistake; animations look as intended only with the same rule.
 */
export function gifDelayMs(centiseconds: number): number {
  return centiseconds <= 1 ? 100 : centiseconds * 10;
}

/**
 * Runs `fn` with `console.log` captured: omggif reports a short or overlong LZW stream by
 * logging, which would land in the picture being written to stdout.
 */
function capturingLog<T>(fn: () => T): { result: T; logged: string[] } {
  const logged: string[] = [];
  const original = console.log;
  console.log = (...args: unknown[]) => {
    logged.push(args.map(String).join(' '));
  };
  try {
    return { result: fn(), logged };
  } finally {
    console.log = original;
  }
}

/**
 * Decodes a GIF to full-size RGBA frames (all of them, or only the first). Frames stop early when
 * their total pixels would pass `limits.maxAnimationPixels`, or at a later frame whose data is cut
 * short; a first frame that is damaged is an error.
 */
export function decodeGifFrames(
  bytes: Uint8Array,
  which: 'first' | 'all' = 'all',
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): { width: number; height: number; frames: DecodedFrame[]; frameCount: number } {
  const layout = readGifLayout(bytes);
  const { width, height } = layout;
  checkDimensions(width, height, limits, 'gif');
  // omggif blits with the screen width as stride, so a frame reaching past the screen would wrap
  // into the next rows. Decode onto a canvas that covers every frame, then crop to the screen.
  let canvasWidth = width;
  let canvasHeight = height;
  for (const f of layout.frames) {
    canvasWidth = Math.max(canvasWidth, f.x + f.width);
    canvasHeight = Math.max(canvasHeight, f.y + f.height);
  }
  checkDimensions(canvasWidth, canvasHeight, limits, 'gif');
  let source = bytes;
  if (canvasWidth !== width || canvasHeight !== height) {
    source = bytes.slice();
    source[6] = canvasWidth & 0xff;
    source[7] = canvasWidth >> 8;
    source[8] = canvasHeight & 0xff;
    source[9] = canvasHeight >> 8;
  }

  let reader: omggif.GifReader;
  try {
    reader = new omggif.GifReader(source);
  } catch (error) {
    throw new DecodeError('corrupt', `corrupt GIF: ${reasonOf(error)}`, { cause: error });
  }
  const frameCount = reader.numFrames();
  const wanted = which === 'first' ? 1 : frameCount;
  const canvas = new Uint8Array(canvasWidth * canvasHeight * 4);
  const frames: DecodedFrame[] = [];
  let saved: Uint8Array | null = null;
  let pixelsSpent = 0;
  for (let i = 0; i < wanted; i++) {
    if (i > 0 && pixelsSpent + width * height > limits.maxAnimationPixels) break;
    const info = reader.frameInfo(i);
    const pixelCount = info.width * info.height;
    const lzw = checkGifLzw(source, info.data_offset, pixelCount);
    if (!lzw.ok || lzw.pixels < pixelCount) {
      if (i === 0)
        throw new DecodeError(
          'corrupt',
          `corrupt GIF: ${lzw.ok ? 'the image data is shorter than its size' : lzw.reason}`,
        );
      break; // keep the frames that decoded whole
    }
    if (info.disposal === 3) saved = canvas.slice();
    const { logged } = capturingLog(() => {
      try {
        reader.decodeAndBlitFrameRGBA(i, canvas);
      } catch (error) {
        throw new DecodeError('corrupt', `corrupt GIF: frame ${i + 1}: ${reasonOf(error)}`, { cause: error });
      }
    });
    if (logged.length > 0) {
      if (i === 0) throw new DecodeError('corrupt', 'corrupt GIF: the image data does not match its size');
      break; // keep the frames that decoded whole
    }
    frames.push({
      raster: { width, height, data: crop(canvas, canvasWidth, width, height) },
      delayMs: frameCount > 1 ? gifDelayMs(info.delay) : 0,
    });
    pixelsSpent += width * height;
    if (info.disposal === 2) clearRect(canvas, canvasWidth, info);
    else if (info.disposal === 3 && saved) canvas.set(saved);
  }
  return { width, height, frames, frameCount };
}

function crop(canvas: Uint8Array, canvasWidth: number, width: number, height: number): Uint8Array {
  if (canvasWidth === width && canvas.length === width * height * 4) return canvas.slice();
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    out.set(canvas.subarray(y * canvasWidth * 4, (y * canvasWidth + width) * 4), y * width * 4);
  return out;
}

/** Disposal 2: browsers clear to transparent rather than to the background colour. */
function clearRect(
  canvas: Uint8Array,
  canvasWidth: number,
  f: { x: number; y: number; width: number; height: number },
): void {
  for (let y = f.y; y < f.y + f.height; y++)
    canvas.fill(0, (y * canvasWidth + f.x) * 4, (y * canvasWidth + f.x + f.width) * 4);
}
