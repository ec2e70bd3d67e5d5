/**
 * The largest sizes the renderers accept or produce. A caller's size is a number the library
 * allocates from: 1e9 columns with `upscale` once meant billions of weights and a V8 fatal error
 * no `try` can catch, so options past these limits throw a `RangeError` naming the limit, and a
 * fitted picture is never resampled to more than `MAX_PIXELS`. See docs/cli.md, "Size limits".
 */

export { MAX_CELLS } from '../../core/primitives.js';

/** The largest cell side in pixels (an 8K screen with a huge font still has cells far smaller). */
export const MAX_CELL_PIXELS = 1_000;

/** The most pixels (or dots, or half-cells) a picture is resampled to: 16 megapixels, 4096x4096. */
export const MAX_PIXELS = 4096 * 4096;

/**
 * The most cells a text picture (braille, blocks) is drawn in: a million cells is already tens of
 * megabytes of text with colours.
 */
export const MAX_TEXT_CELLS = 1_000_000;

/** The longest side a picture is resampled to, in its units (sixel's own limit is the same). */
export const MAX_SIDE = 65_535;

/**
 * The size scaled down, keeping its aspect ratio, until it has at most `maxUnits` pixels (default
 * `MAX_PIXELS`) and neither side is over `MAX_SIDE`; unchanged when it already fits.
 *
 * @example withinPixelBudget({ width: 20000, height: 20000 }) // { width: 4096, height: 4096 }
 */
export function withinPixelBudget(
  size: { readonly width: number; readonly height: number },
  maxUnits = MAX_PIXELS,
): { width: number; height: number } {
  const { width, height } = size;
  const scale = Math.min(1, Math.sqrt(maxUnits / (width * height)), MAX_SIDE / width, MAX_SIDE / height);
  if (scale >= 1) return { width, height };
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}
