/**
 * An `<Image>`'s `src` as a raster: a path (read from disk), file bytes (decoded), or a raster as
 * it is. The one place the Ink component touches the file system.
 */
import { readFileSync } from 'node:fs';
import { gifLoopCount } from '../compat/image-size.js';
import type { Raster } from '../core/raster.js';
import { decodeImage } from '../decode/index.js';

/** What `src` may be. */
export type ImageSource = string | Uint8Array | Raster;

/** One frame of an animation and how long it shows. */
export interface SourceFrame {
  readonly raster: Raster;
  readonly delayMs: number;
}

/**
 * A loaded source: the raster (the first frame of an animation), with every frame and how many
 * times the animation plays (`Infinity`: forever) when it has more than one; or why there is none
 * (shown as the `alt` text).
 */
export type LoadedSource =
  | {
      readonly raster: Raster;
      readonly frames?: readonly SourceFrame[];
      readonly loops?: number;
      /** An animated GIF's file bytes (iTerm2 plays the file itself). */
      readonly gif?: Uint8Array;
    }
  | { readonly error: string };

/** Browsers' rule for a GIF frame delay under 20 ms (most write 0 meaning "as fast as you like"): 100 ms. */
export function frameDelay(delayMs: number): number {
  return delayMs < 20 ? 100 : delayMs;
}

function isRaster(value: unknown): value is Raster {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Uint8Array) &&
    'data' in value &&
    'width' in value &&
    'height' in value
  );
}

/**
 * Loads `src` (every frame of an animated GIF); never throws (a missing file or an undecodable
 * one is an `error`).
 *
 * @example loadSource('photo.png') // { raster } or { error: 'ENOENT: …' }
 */
export function loadSource(src: ImageSource): LoadedSource {
  try {
    if (isRaster(src)) return { raster: src };
    const bytes = typeof src === 'string' ? readFileSync(src) : src;
    const decoded = decodeImage(bytes, { frames: 'all' });
    const first = decoded.frames[0].raster;
    if (decoded.frames.length < 2) return { raster: first };
    const frames = decoded.frames.map((f) => ({ raster: f.raster, delayMs: frameDelay(f.delayMs) }));
    // NETSCAPE2.0 loop count: 0 forever, n: n more times; none: once (as browsers play it).
    const count = decoded.format === 'gif' ? gifLoopCount(bytes) : null;
    // A WebP's loop count is its plays (0 forever), from the decoder.
    const plays = decoded.format === 'webp' ? (decoded.plays ?? 1) : null;
    const loops =
      plays !== null
        ? plays === 0
          ? Number.POSITIVE_INFINITY
          : plays
        : count === 0
          ? Number.POSITIVE_INFINITY
          : (count ?? 0) + 1;
    return { raster: first, frames, loops, ...(decoded.format === 'gif' ? { gif: bytes } : {}) };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
