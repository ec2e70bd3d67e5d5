/** How far a colour channel stands out from the background's: braille's dots, blocks' and symbols' glyph-only forms. */

/**
 * How far channel value `v` stands out from the background's `b`, 0..255: the distance as a
 * share of the farthest any value can be from `b`, so that on a dark grey background pure red
 * stands out fully, as it does on black (on black and white this is the plain distance). A
 * pixel's level is the largest of its three.
 *
 * @example channelLevel(255, 40) // 255; channelLevel(128, 0) // 128
 */
export function channelLevel(v: number, b: number): number {
  return Math.round((Math.abs(v - b) * 255) / Math.max(b, 255 - b));
}
