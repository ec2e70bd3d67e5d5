/**
 * The one rule for decoding a picture no larger than it will be drawn by a whole factor (PNG's
 * rows, WebP's planes, HEIC's copy out of libheif); JPEG scales in the DCT domain instead
 * (`jpegScale`, jpeg.ts). Its own module so that a format loads no other format's decoder for it.
 */

/**
 * The largest whole factor by which a `width` x `height` picture can be reduced and still cover
 * `box` on both axes (1 when it cannot be reduced).
 *
 * @example wholeReduction(4000, 3000, { width: 1000, height: 440 }) // 4 (1000x750)
 */
export function wholeReduction(
  width: number,
  height: number,
  box: { readonly width: number; readonly height: number } | undefined,
): number {
  if (!box || box.width < 1 || box.height < 1) return 1;
  return Math.max(1, Math.min(Math.floor(width / box.width), Math.floor(height / box.height)));
}
