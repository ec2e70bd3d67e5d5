/**
 * GIF to full RGBA frames with omggif's LZW decoder, behind termsight's own bounds. The block
 * structure is walked here first (truncation, missing colour tables, frames outside the screen),
 * every frame that will be decoded is checked against what its data can hold (a bound from its
 * byte count, then an LZW dry run) before a pixel buffer is allocated, and omggif is handed only
 * the frames that will be shown. Frames are composited onto a canvas the way browsers do:
 * transparency, and disposal 1 (keep), 2 (clear to transparent) and 3 (restore the previous
 * picture). See docs/decode.md#gif.
 */
import omggif from 'omggif';
import { u16le } from '../core/bytes.js';
import { DecodeError, reasonOf } from './error.js';
import { checkGifLzw, lzwPixelBound } from './gif-lzw.js';
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
  /** Offset of the LZW minimum code size byte (the sub-blocks follow). */
  readonly dataOffset: number;
  /** Bytes of LZW data in the frame's sub-blocks (without their length bytes). */
  readonly dataBytes: number;
  /** Offset just past the frame (after its block terminator). */
  readonly end: number;
}

/** The logical screen and frames of a GIF, from a walk over its blocks. */
export interface GifLayout {
  readonly width: number;
  readonly height: number;
  /** The first `maxFrames` frames (all of them by default). */
  readonly frames: readonly GifFrameInfo[];
  /** How many frames the file has (counted, also past `maxFrames`). */
  readonly frameCount: number;
  /** How many times it plays: 0 forever; the NETSCAPE2.0 loop count n plays n+1 times, as browsers do; none: once. */
  readonly plays: number;
}

/**
 * Walks the blocks of a GIF without decoding pixels; throws `DecodeError` when cut short or
 * malformed. Only the first `maxFrames` frames are kept (the others are counted), so a file of
 * millions of tiny frames costs no memory for frames that will not be shown.
 */
export function readGifLayout(bytes: Uint8Array, maxFrames = Number.POSITIVE_INFINITY): GifLayout {
  const end = bytes.length;
  const truncated = (): never => {
    throw new DecodeError('truncated', 'truncated GIF: the file ends before its trailer');
  };
  if (end < 13) truncated();
  const width = u16le(bytes, 6);
  const height = u16le(bytes, 8);
  const screenFlags = bytes[10] as number;
  const hasGlobalPalette = (screenFlags & 0x80) !== 0;
  let p = 13 + (hasGlobalPalette ? 3 * (2 << (screenFlags & 7)) : 0);
  /** Steps over a chain of sub-blocks; returns the bytes of data they hold. */
  const skipSubBlocks = (): number => {
    let total = 0;
    for (;;) {
      if (p >= end) truncated();
      const size = bytes[p++] as number;
      if (size === 0) return total;
      total += size;
      p += size;
    }
  };
  const frames: GifFrameInfo[] = [];
  let frameCount = 0;
  let delay = 0;
  let disposal = 0;
  let plays = 1;
  for (;;) {
    if (p >= end) truncated();
    const block = bytes[p++] as number;
    if (block === 0x3b) break;
    if (block === 0x21) {
      if (p >= end) truncated();
      const label = bytes[p++] as number;
      if (label === 0xf9) {
        if (p + 5 > end) truncated();
        if (bytes[p] !== 4) throw new DecodeError('corrupt', 'corrupt GIF: bad graphic control extension');
        disposal = ((bytes[p + 1] as number) >> 2) & 7;
        delay = u16le(bytes, p + 2);
        p += 5;
      } else if (label === 0xff && p + 16 <= end && bytes[p] === 11 && bytes[p + 12] === 3 && bytes[p + 13] === 1) {
        // The looping extension (NETSCAPE2.0, or ANIMEXTS1.0 which says the same): a 16-bit count.
        const id = String.fromCharCode(...bytes.subarray(p + 1, p + 12));
        if (id === 'NETSCAPE2.0' || id === 'ANIMEXTS1.0') {
          const loops = u16le(bytes, p + 14);
          plays = loops === 0 ? 0 : loops + 1;
        }
      }
      skipSubBlocks();
      continue;
    }
    if (block === 0x2c) {
      if (p + 9 > end) truncated();
      const x = u16le(bytes, p);
      const y = u16le(bytes, p + 2);
      const frameWidth = u16le(bytes, p + 4);
      const frameHeight = u16le(bytes, p + 6);
      const flags = bytes[p + 8] as number;
      p += 9;
      if (flags & 0x80) p += 3 * (2 << (flags & 7));
      else if (!hasGlobalPalette) throw new DecodeError('corrupt', 'corrupt GIF: a frame has no colour table');
      const dataOffset = p;
      p += 1; // LZW minimum code size
      const dataBytes = skipSubBlocks();
      if (p > end) truncated();
      if (frames.length < maxFrames)
        frames.push({ x, y, width: frameWidth, height: frameHeight, delay, disposal, dataOffset, dataBytes, end: p });
      frameCount++;
      delay = 0;
      disposal = 0;
      continue;
    }
    throw new DecodeError(
      'corrupt',
      `corrupt GIF: unknown block 0x${block.toString(16).padStart(2, '0')} at byte ${p - 1}`,
    );
  }
  if (frameCount === 0) throw new DecodeError('corrupt', 'corrupt GIF: it holds no image');
  return { width, height, frames, frameCount, plays };
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
 * Why a frame cannot give its pixels, or null when its data can: first the bound from its byte
 * count (no bit is read), then the dry run (every code followed, nothing allocated).
 */
export function gifFrameProblem(bytes: Uint8Array, frame: GifFrameInfo): string | null {
  const pixels = frame.width * frame.height;
  if (pixels === 0) return null;
  const minCodeSize = bytes[frame.dataOffset] as number;
  const bound = lzwPixelBound(frame.dataBytes, minCodeSize);
  if (bound < pixels)
    return `a ${frame.width}x${frame.height} frame with ${frame.dataBytes} bytes of image data, which can hold at most ${bound} pixels`;
  const lzw = checkGifLzw(bytes, frame.dataOffset, pixels);
  if (!lzw.ok) return lzw.reason;
  if (lzw.pixels < pixels) return 'the image data is shorter than its size';
  return null;
}

/**
 * Decodes a GIF to full-size RGBA frames (all of them, or only the first). Only the frames within
 * `limits.maxAnimationPixels` are looked at; of those, decoding stops at the first whose data
 * cannot give its pixels. A first frame that is damaged is an error. Every bound is checked
 * before the canvas is allocated.
 */
export function decodeGifFrames(
  bytes: Uint8Array,
  which: 'first' | 'all' = 'all',
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): { width: number; height: number; frames: DecodedFrame[]; frameCount: number; plays: number } {
  const head = readGifLayout(bytes, 1);
  checkDimensions(head.width, head.height, limits, 'gif');
  const screen = head.width * head.height;
  // Every decoded frame is a full screen; frames past the budget would be dropped, so they are
  // not even walked into memory. At least one frame is always decoded.
  const budgetFrames = Math.max(1, Math.floor(limits.maxAnimationPixels / screen));
  const layout = which === 'first' ? head : readGifLayout(bytes, budgetFrames);
  const { width, height, frameCount, plays } = layout;

  let reach = { width, height };
  for (const f of layout.frames)
    reach = { width: Math.max(reach.width, f.x + f.width), height: Math.max(reach.height, f.y + f.height) };
  checkDimensions(reach.width, reach.height, limits, 'gif');

  const kept: GifFrameInfo[] = [];
  for (const [i, f] of layout.frames.entries()) {
    const problem = gifFrameProblem(bytes, f);
    if (problem === null) {
      kept.push(f);
      continue;
    }
    if (i === 0) throw new DecodeError('corrupt', `corrupt GIF: ${problem}`);
    break; // keep the frames that decode whole
  }

  // omggif blits with the screen width as stride, so a frame reaching past the screen would wrap
  // into the next rows. Decode onto a canvas that covers every frame, then crop to the screen.
  let canvasWidth = width;
  let canvasHeight = height;
  for (const f of kept) {
    canvasWidth = Math.max(canvasWidth, f.x + f.width);
    canvasHeight = Math.max(canvasHeight, f.y + f.height);
  }
  const source = omggifSource(bytes, kept, canvasWidth, canvasHeight, frameCount);

  let reader: omggif.GifReader;
  try {
    reader = new omggif.GifReader(source);
  } catch (error) {
    throw new DecodeError('corrupt', `corrupt GIF: ${reasonOf(error)}`, { cause: error });
  }
  const canvas = new Uint8Array(canvasWidth * canvasHeight * 4);
  const frames: DecodedFrame[] = [];
  let saved: Uint8Array | null = null;
  for (let i = 0; i < kept.length; i++) {
    const info = reader.frameInfo(i);
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
    if (info.disposal === 2) clearRect(canvas, canvasWidth, info);
    else if (info.disposal === 3 && saved) canvas.set(saved);
  }
  return { width, height, frames, frameCount, plays };
}

/**
 * The bytes omggif gets: the file up to the last frame that will be decoded, then a trailer (so
 * it indexes no frame that is not shown), with the screen enlarged to the canvas when a frame
 * reaches past it. The file itself when nothing needs changing.
 */
function omggifSource(
  bytes: Uint8Array,
  kept: readonly GifFrameInfo[],
  canvasWidth: number,
  canvasHeight: number,
  frameCount: number,
): Uint8Array {
  const last = kept[kept.length - 1];
  const resized = canvasWidth !== u16le(bytes, 6) || canvasHeight !== u16le(bytes, 8);
  if (!resized && (last === undefined || kept.length === frameCount)) return bytes;
  const end = last ? last.end : bytes.length;
  const source = new Uint8Array(end + 1);
  source.set(bytes.subarray(0, end));
  source[end] = 0x3b;
  source[6] = canvasWidth & 0xff;
  source[7] = canvasWidth >> 8;
  source[8] = canvasHeight & 0xff;
  source[9] = canvasHeight >> 8;
  return source;
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
