/**
 * GIF to full RGBA frames, with termsight's own LZW decoder (gif-lzw.ts). The block structure is
 * walked first (truncation, missing colour tables, frames outside the screen); every frame that
 * will be shown is checked against what its data can hold (a bound from its byte count) before a
 * pixel buffer is allocated, and its LZW stream is checked as it decodes. Frames are composited
 * onto the screen the way browsers do: transparency, interlacing, clipping at the screen's edges,
 * and disposal 1 (keep), 2 (clear to transparent) and 3 (restore the previous picture). See
 * docs/decode.md#gif.
 */
import { u16le } from '../core/bytes.js';
import { DecodeError } from './error.js';
import { animationFrameLimit } from './frame-budget.js';
import { decodeGifLzw, lzwPixelBound } from './gif-lzw.js';
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
  /** The palette index drawn as transparent (left as the canvas was), or -1. */
  readonly transparent: number;
  /** Rows stored in the four passes of GIF interlacing (0, 8, 16…; 4, 12…; 2, 6…; 1, 3…). */
  readonly interlaced: boolean;
  /** Offset of the frame's colour table (its own, else the global one) and its number of colours. */
  readonly paletteOffset: number;
  readonly paletteColors: number;
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
  let transparent = -1;
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
        const flags = bytes[p + 1] as number;
        disposal = (flags >> 2) & 7;
        delay = u16le(bytes, p + 2);
        transparent = flags & 1 ? (bytes[p + 4] as number) : -1;
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
      const paletteOffset = flags & 0x80 ? p : 13;
      const paletteColors = 2 << ((flags & 0x80 ? flags : screenFlags) & 7);
      if (flags & 0x80) p += 3 * paletteColors;
      else if (!hasGlobalPalette) throw new DecodeError('corrupt', 'corrupt GIF: a frame has no colour table');
      const dataOffset = p;
      p += 1; // LZW minimum code size
      const dataBytes = skipSubBlocks();
      if (p > end) truncated();
      if (frames.length < maxFrames)
        frames.push({
          x,
          y,
          width: frameWidth,
          height: frameHeight,
          delay,
          disposal,
          transparent,
          interlaced: (flags & 0x40) !== 0,
          paletteOffset,
          paletteColors,
          dataOffset,
          dataBytes,
          end: p,
        });
      frameCount++;
      // A graphic control extension applies to the one image that follows it (GIF89a, 23).
      delay = 0;
      disposal = 0;
      transparent = -1;
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
 * Why a frame's data cannot give its pixels, judged from its byte count alone (no bit is read), or
 * null when it may: checked before any buffer for the frame is allocated.
 */
export function gifFrameProblem(bytes: Uint8Array, frame: GifFrameInfo): string | null {
  const pixels = frame.width * frame.height;
  if (pixels === 0) return null;
  const minCodeSize = bytes[frame.dataOffset] as number;
  const bound = lzwPixelBound(frame.dataBytes, minCodeSize);
  if (bound < pixels)
    return `a ${frame.width}x${frame.height} frame with ${frame.dataBytes} bytes of image data, which can hold at most ${bound} pixels`;
  return null;
}

/**
 * Decodes a GIF to full-size RGBA frames (all of them, or only the first). Only the frames within
 * `limits.maxAnimationPixels` and `maxAnimationFrames` (frame-budget.ts) are looked at; of those, decoding stops at the first whose data
 * cannot give its pixels (it and the frames after it are dropped). A first frame that is damaged
 * is an error. A frame's byte-count bound is checked before anything is allocated for it.
 */
export function decodeGifFrames(
  bytes: Uint8Array,
  which: 'first' | 'all' = 'all',
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): { width: number; height: number; frames: DecodedFrame[]; frameCount: number; plays: number } {
  const head = readGifLayout(bytes, 1);
  checkDimensions(head.width, head.height, limits, 'gif');
  const screen = head.width * head.height;
  // Every decoded frame is a full screen, counted at least FRAME_COST_FLOOR (a 0x0 screen is not
  // free); frames past the budget would be dropped, so they are not even walked into memory.
  const budgetFrames = animationFrameLimit(limits, screen);
  const layout = which === 'first' ? head : readGifLayout(bytes, budgetFrames);
  const { width, height, frameCount, plays } = layout;

  // A frame may reach past the screen (it is clipped), but its own pixels are held while it
  // decodes, so they are bounded like a picture's.
  let reach = { width, height };
  for (const f of layout.frames)
    reach = { width: Math.max(reach.width, f.x + f.width), height: Math.max(reach.height, f.y + f.height) };
  checkDimensions(reach.width, reach.height, limits, 'gif');

  let canvas: Uint8Array | null = null;
  let indices = new Uint8Array(0);
  const frames: DecodedFrame[] = [];
  for (const [i, f] of layout.frames.entries()) {
    const pixels = f.width * f.height;
    let problem = gifFrameProblem(bytes, f);
    if (problem === null && pixels > 0) {
      if (indices.length < pixels) indices = new Uint8Array(pixels);
      const lzw = decodeGifLzw(bytes, f.dataOffset, indices.subarray(0, pixels));
      if (!lzw.ok) problem = lzw.reason;
    }
    if (problem !== null) {
      if (i === 0) throw new DecodeError('corrupt', `corrupt GIF: ${problem}`);
      break; // keep the frames that decode whole
    }
    canvas ??= new Uint8Array(screen * 4);
    const last = i === layout.frames.length - 1;
    const saved: Uint8Array | null = f.disposal === 3 && !last ? canvas.slice() : null;
    blitFrame(canvas, width, height, bytes, f, indices.subarray(0, pixels));
    // The last frame hands over the canvas itself: nothing is drawn on it after.
    const data = last ? canvas : canvas.slice();
    frames.push({ raster: { width, height, data }, delayMs: frameCount > 1 ? gifDelayMs(f.delay) : 0 });
    if (last) break;
    if (f.disposal === 2) clearRect(canvas, width, height, f);
    else if (saved) canvas = saved;
  }
  return { width, height, frames, frameCount, plays };
}

/** The frame row each stored row goes to: in order, or in the four passes of interlacing. */
function rowOrder(height: number, interlaced: boolean): Int32Array {
  const rows = new Int32Array(height);
  if (!interlaced) {
    for (let r = 0; r < height; r++) rows[r] = r;
    return rows;
  }
  let r = 0;
  for (const [first, step] of INTERLACE_PASSES) for (let y = first; y < height; y += step) rows[r++] = y;
  return rows;
}
const INTERLACE_PASSES = [
  [0, 8],
  [4, 8],
  [2, 4],
  [1, 2],
] as const;

/**
 * Draws a frame's palette indices onto the screen-sized canvas: transparent pixels leave the
 * canvas as it was, the parts past the screen are clipped, colours past the colour table (a
 * broken file) are opaque black.
 */
function blitFrame(
  canvas: Uint8Array,
  width: number,
  height: number,
  bytes: Uint8Array,
  f: GifFrameInfo,
  indices: Uint8Array,
): void {
  const visible = Math.min(f.width, width - f.x);
  if (visible <= 0 || f.y >= height || indices.length === 0) return;
  // RGBA bytes laid out in memory, then read as 32-bit words: a copy of a word keeps the byte order.
  const paletteBytes = new Uint8Array(256 * 4);
  for (let c = 0; c < 256; c++) {
    const o = f.paletteOffset + c * 3;
    if (c < f.paletteColors) {
      paletteBytes[c * 4] = bytes[o] as number;
      paletteBytes[c * 4 + 1] = bytes[o + 1] as number;
      paletteBytes[c * 4 + 2] = bytes[o + 2] as number;
    }
    paletteBytes[c * 4 + 3] = 255;
  }
  const palette = new Uint32Array(paletteBytes.buffer);
  const pixels = new Uint32Array(canvas.buffer, canvas.byteOffset, width * height);
  const transparent = f.transparent;
  const rows = rowOrder(f.height, f.interlaced);
  for (let r = 0; r < f.height; r++) {
    const y = f.y + (rows[r] as number);
    if (y >= height) continue;
    const from = r * f.width;
    const to = y * width + f.x;
    if (transparent < 0) {
      for (let i = 0; i < visible; i++) pixels[to + i] = palette[indices[from + i] as number] as number;
    } else {
      for (let i = 0; i < visible; i++) {
        const index = indices[from + i] as number;
        if (index !== transparent) pixels[to + i] = palette[index] as number;
      }
    }
  }
}

/** Disposal 2: browsers clear to transparent rather than to the background colour. */
function clearRect(canvas: Uint8Array, width: number, height: number, f: GifFrameInfo): void {
  const right = Math.min(width, f.x + f.width);
  if (right <= f.x) return;
  for (let y = f.y; y < Math.min(height, f.y + f.height); y++)
    canvas.fill(0, (y * width + f.x) * 4, (y * width + right) * 4);
}
