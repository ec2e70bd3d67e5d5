/**
 * What an animation's frames cost, counted the same way by every animated decoder (GIF, APNG,
 * WebP): a frame costs its pixels, but never less than `FRAME_COST_FLOOR`, and there are at most
 * `maxAnimationFrames` of them. A frame of 0x0 or 1x1 is not free: its object, its raster and
 * its place in the list cost about 500 bytes, and a player draws each one at the box's size.
 * See docs/decode.md#limits.
 */
import { DEFAULT_DECODE_LIMITS, type DecodeLimits } from './image.js';

/**
 * The least a decoded frame counts against `maxAnimationPixels`, in pixels (16 KiB as RGBA),
 * however small it is: with the default 64 megapixels, at most 15625 frames of any size.
 */
export const FRAME_COST_FLOOR = 4096;

/** What a frame of `pixels` counts against the animation budget: its pixels, at least the floor. */
export function frameCost(pixels: number): number {
  return Math.max(pixels, FRAME_COST_FLOOR);
}

/**
 * How many frames of `framePixels` each (a composited frame is a full canvas) the limits let a
 * decoder keep: at most `maxAnimationFrames`, and their costs within `maxAnimationPixels`.
 * Always at least 1 (a picture has a first frame; its own size is checked by `maxPixels`).
 *
 * @example animationFrameLimit(DEFAULT_DECODE_LIMITS, 1) // 10000 (the frame count limit)
 */
export function animationFrameLimit(limits: DecodeLimits, framePixels: number): number {
  const byPixels = Math.floor(limits.maxAnimationPixels / frameCost(framePixels));
  return Math.max(1, Math.min(limits.maxAnimationFrames, byPixels));
}

/**
 * A running count of the frames a decoder keeps, for decoders whose frames differ in cost.
 * `admit(pixels)` says whether one more frame of `pixels` fits (and counts it when it does); the
 * first frame always fits.
 *
 * @example
 * const budget = new FrameBudget(limits);
 * for (const f of frames) { if (!budget.admit(canvasPixels)) break; decode(f); }
 */
export class FrameBudget {
  private count = 0;
  private spent = 0;

  constructor(private readonly limits: DecodeLimits = DEFAULT_DECODE_LIMITS) {}

  /** Counts one more frame of `pixels` if it fits; false (nothing counted) when it does not. */
  admit(pixels: number): boolean {
    const cost = frameCost(pixels);
    if (
      this.count > 0 &&
      (this.count >= this.limits.maxAnimationFrames || this.spent + cost > this.limits.maxAnimationPixels)
    )
      return false;
    this.count++;
    this.spent += cost;
    return true;
  }

  /** Frames admitted so far. */
  get frames(): number {
    return this.count;
  }

  /** Their cost so far, in pixels (each at least `FRAME_COST_FLOOR`). */
  get pixels(): number {
    return this.spent;
  }
}
