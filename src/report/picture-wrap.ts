/** Where a picture's bytes must go through to reach whoever draws them. */
import type { MultiplexerInfo } from './types.js';

/**
 * How pictures must be wrapped to reach whoever draws them: the multiplexer's passthrough, or
 * null (no multiplexer, one that draws them itself, or one that passes nothing). With
 * `needProof`, tmux wraps only when passthrough is proven; without, unless it is known off.
 *
 * @example pictureWrap({ name: 'tmux', version: '3.5a', passthrough: true }) // 'tmux'
 */
export function pictureWrap(
  multiplexer: MultiplexerInfo | null | undefined,
  needProof = false,
): 'tmux' | 'screen' | null {
  if (!multiplexer || multiplexer.drawsItself) return null;
  if (multiplexer.name === 'screen') return needProof ? null : 'screen';
  if (multiplexer.name !== 'tmux') return null;
  return multiplexer.passthrough === true || (!needProof && multiplexer.passthrough !== false) ? 'tmux' : null;
}

/**
 * Whether pictures must be whole cells: tmux 3.4+ drawing sixel itself rounds a picture up to
 * whole cells of its client and fills the margin with colour register 0 (a band under the picture
 * in xterm as a VT340, test/e2e/findings/README.md `tmux-sixel-band`).
 *
 * @example inWholeCells({ name: 'tmux', version: '3.5a', passthrough: false, drawsItself: true }) // true
 */
export function inWholeCells(multiplexer: MultiplexerInfo | null | undefined): boolean {
  return multiplexer?.name === 'tmux' && multiplexer.drawsItself === true;
}
