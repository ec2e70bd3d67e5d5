/**
 * Alpha blending onto the terminal's background: what a pixel with alpha shows on a terminal that
 * draws no transparency. One formula for every renderer (sixel, braille, blocks, symbols), written
 * with the very double operations they used, so their output stays the same bit for bit.
 */

/**
 * One colour channel of a pixel with `alpha` (0..255) shown over `background`, not rounded:
 * value x a/255 + background x (1 - a/255). For renderers that keep fractions (symbols' fit).
 *
 * @example blendChannel(255, 0, 51) // 51
 */
export function blendChannel(value: number, background: number, alpha: number): number {
  const k = alpha / 255;
  return value * k + background * (1 - k);
}

/**
 * `blendChannel` rounded to the nearest byte. For whole-number inputs the exact blend is
 * n / 255 for a whole n, never halfway between two bytes, so rounding half up has no ties to
 * break and this equals the integer formula ⌊(v·a + b·(255 − a) + 127) / 255⌋ (tested for every
 * input).
 *
 * @example blendChannelByte(200, 100, 128) // 150
 */
export function blendChannelByte(value: number, background: number, alpha: number): number {
  return (blendChannel(value, background, alpha) + 0.5) | 0;
}
