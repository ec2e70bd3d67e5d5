/**
 * Every frame of an APNG (https://wiki.mozilla.org/APNG_Specification), composited to full RGBA
 * frames the way browsers do: each fcTL names a rectangle of the canvas, its image (IDAT for the
 * first frame when the fcTL comes before it, else fdAT) is drawn there replacing the pixels
 * (blend op 0, SOURCE) or over them (1, OVER), and afterwards the rectangle is left (dispose op
 * 0), cleared to transparent (1) or restored to what it was (2; on the first frame, cleared).
 * Bounds as the GIF decoder's: only the frames within `maxAnimationPixels` and
 * `maxAnimationFrames` are kept (frame-budget.ts), each frame's
 * data inflates to at most its declared size, and a frame that cannot be decoded ends the
 * animation there (the first one is an error). See docs/decode.md#apng.
 */
import { u16be, u32be } from '../core/bytes.js';
import { DecodeError } from './error.js';
import { animationFrameLimit } from './frame-budget.js';
import { DEFAULT_DECODE_LIMITS, type DecodedFrame, type DecodeLimits } from './image.js';
import { pngPixels } from './png.js';
import { type ApngFrameChunks, readPngChunks } from './png-chunks.js';

/** One fcTL: where the frame goes, how long it stays, how it is drawn and disposed of. */
export interface ApngFrameControl {
  readonly width: number;
  readonly height: number;
  readonly x: number;
  readonly y: number;
  readonly delayMs: number;
  /** 0 none, 1 background (clear to transparent), 2 previous (restore). */
  readonly dispose: number;
  /** 0 source (replace), 1 over (alpha-composite). */
  readonly blend: number;
}

/**
 * A frame's display time from fcTL's fraction of a second (a denominator of 0 means 100), with the
 * browsers' rule for GIF delays: 10 ms or less is shown as 100 ms.
 *
 * @example apngDelayMs(1, 10) // 100
 */
export function apngDelayMs(numerator: number, denominator: number): number {
  const ms = (numerator * 1000) / (denominator === 0 ? 100 : denominator);
  return ms <= 10 ? 100 : Math.round(ms);
}

/** Reads an fcTL body (26 bytes: sequence, width, height, x, y, delay num/den, dispose, blend). */
export function readFrameControl(body: Uint8Array): ApngFrameControl {
  return {
    width: u32be(body, 4),
    height: u32be(body, 8),
    x: u32be(body, 12),
    y: u32be(body, 16),
    delayMs: apngDelayMs(u16be(body, 20), u16be(body, 22)),
    dispose: body[24] as number,
    blend: body[25] as number,
  };
}

/** Why a frame cannot be drawn on a `width` x `height` canvas, or null. */
function frameProblem(
  c: ApngFrameControl,
  width: number,
  height: number,
  data: ApngFrameChunks['data'],
): string | null {
  if (c.width === 0 || c.height === 0) return `a frame of ${c.width}x${c.height}`;
  if (c.x + c.width > width || c.y + c.height > height)
    return `a ${c.width}x${c.height} frame at ${c.x},${c.y} reaches outside the ${width}x${height} image`;
  if (c.dispose > 2 || c.blend > 1) return `dispose op ${c.dispose} / blend op ${c.blend} do not exist`;
  if (data.length === 0) return 'a frame without image data';
  return null;
}

/**
 * Decodes every frame of an APNG (as many as the animation budget allows, frame-budget.ts) to full-size
 * RGBA frames, with the file's play count (0: forever) and its frame count. The size must already
 * have been checked against the limits (decodeImage does).
 */
export function decodeApngFrames(
  bytes: Uint8Array,
  limits: DecodeLimits = DEFAULT_DECODE_LIMITS,
): { width: number; height: number; frames: DecodedFrame[]; frameCount: number; plays: number } {
  // IHDR's size (bytes 16..23; the walk checks that IHDR is there) sets how many frames are kept,
  // so the chunks are walked once: a walk over 600,000 frames is most of such a file's cost.
  const declared = bytes.length >= 24 ? u32be(bytes, 16) * u32be(bytes, 20) : 0;
  const layout = readPngChunks(bytes, animationFrameLimit(limits, declared));
  const { width, height } = layout.header;
  const plays = layout.animation?.plays ?? 0;
  const canvas = new Uint8Array(width * height * 4);
  const frames: DecodedFrame[] = [];
  for (const [i, chunks] of layout.frames.entries()) {
    const control = readFrameControl(chunks.control);
    // The first frame's "previous" is the empty canvas: the spec reads it as background.
    const dispose = i === 0 && control.dispose === 2 ? 1 : control.dispose;
    const problem = frameProblem(control, width, height, chunks.data);
    let pixels: Uint8Array;
    try {
      if (problem) throw new DecodeError('corrupt', `corrupt APNG: frame ${i + 1}: ${problem}`);
      const header = { ...layout.header, width: control.width, height: control.height };
      pixels = pngPixels(header, chunks.data, layout.palette, layout.transparency);
    } catch (error) {
      if (i === 0) throw error;
      break; // keep the frames that decoded whole
    }
    const saved = dispose === 2 ? region(canvas, width, control) : null;
    draw(canvas, width, control, pixels);
    frames.push({ raster: { width, height, data: canvas.slice() }, delayMs: control.delayMs });
    if (dispose === 1) clear(canvas, width, control);
    else if (saved) put(canvas, width, control, saved);
  }
  if (frames.length === 0) throw new DecodeError('corrupt', 'corrupt APNG: it has no frames');
  return { width, height, frames, frameCount: layout.frameControls, plays };
}

/** The rectangle's pixels, copied. */
function region(canvas: Uint8Array, width: number, c: ApngFrameControl): Uint8Array {
  const out = new Uint8Array(c.width * c.height * 4);
  for (let y = 0; y < c.height; y++) {
    const from = ((c.y + y) * width + c.x) * 4;
    out.set(canvas.subarray(from, from + c.width * 4), y * c.width * 4);
  }
  return out;
}

function put(canvas: Uint8Array, width: number, c: ApngFrameControl, pixels: Uint8Array): void {
  for (let y = 0; y < c.height; y++)
    canvas.set(pixels.subarray(y * c.width * 4, (y + 1) * c.width * 4), ((c.y + y) * width + c.x) * 4);
}

function clear(canvas: Uint8Array, width: number, c: ApngFrameControl): void {
  for (let y = 0; y < c.height; y++)
    canvas.fill(0, ((c.y + y) * width + c.x) * 4, ((c.y + y) * width + c.x + c.width) * 4);
}

/** Draws the frame's pixels onto the canvas: replacing them (blend 0) or over them (blend 1, non-premultiplied "over"). */
function draw(canvas: Uint8Array, width: number, c: ApngFrameControl, pixels: Uint8Array): void {
  if (c.blend === 0) {
    put(canvas, width, c, pixels);
    return;
  }
  for (let y = 0; y < c.height; y++) {
    for (let x = 0; x < c.width; x++) {
      const s = (y * c.width + x) * 4;
      const d = ((c.y + y) * width + c.x + x) * 4;
      const sa = pixels[s + 3] as number;
      if (sa === 255) {
        canvas.set(pixels.subarray(s, s + 4), d);
        continue;
      }
      if (sa === 0) continue;
      const da = canvas[d + 3] as number;
      // out_a = sa + da (1 - sa); out_c = (sc sa + dc da (1 - sa)) / out_a, in 0..255 units.
      const keep = (da * (255 - sa)) / 255;
      const outA = sa + keep;
      for (let k = 0; k < 3; k++)
        canvas[d + k] = Math.round(((pixels[s + k] as number) * sa + (canvas[d + k] as number) * keep) / outA);
      canvas[d + 3] = Math.round(outA);
    }
  }
}
