/**
 * Text colours as SGR parameters: 24-bit (`38;2;r;g;b`) or the xterm 256-colour palette
 * (`38;5;n`). The 256-colour match uses only the 6x6x6 cube and the grey ramp (16-255),
 * because the first 16 colours are whatever the user's theme made them.
 */
import type { ColorDepth } from '../../core/primitives.js';

/** The six levels of each channel in the xterm colour cube (indices 16-231). */
export const CUBE_LEVELS: readonly number[] = [0, 95, 135, 175, 215, 255];

/** The RGB value xterm gives a palette index 16-255 (indices 0-15 are theme colours: null). */
export function xterm256ToRgb(index: number): [number, number, number] | null {
  if (!Number.isInteger(index) || index < 16 || index > 255) return null;
  if (index >= 232) {
    const v = 8 + (index - 232) * 10;
    return [v, v, v];
  }
  const i = index - 16;
  return [CUBE_LEVELS[Math.floor(i / 36)], CUBE_LEVELS[Math.floor(i / 6) % 6], CUBE_LEVELS[i % 6]];
}

/** The nearest cube level index (0-5) for a channel value; thresholds are the level midpoints. */
function cubeIndex(v: number): number {
  return v < 48 ? 0 : v < 115 ? 1 : v < 155 ? 2 : v < 195 ? 3 : v < 235 ? 4 : 5;
}

/**
 * The xterm 256-colour index (16-255) nearest to an RGB colour, comparing the best cube colour
 * with the best grey by squared distance.
 *
 * @example nearest256(255, 0, 0) // 196
 */
export function nearest256(r: number, g: number, b: number): number {
  const ri = cubeIndex(r),
    gi = cubeIndex(g),
    bi = cubeIndex(b);
  const cr = CUBE_LEVELS[ri],
    cg = CUBE_LEVELS[gi],
    cb = CUBE_LEVELS[bi];
  const cubeDist = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb);
  // grey ramp: 8, 18, ..., 238
  const mean = (r + g + b) / 3;
  let gray = Math.round((mean - 8) / 10);
  if (gray < 0) gray = 0;
  if (gray > 23) gray = 23;
  const gv = 8 + gray * 10;
  const grayDist = (r - gv) * (r - gv) + (g - gv) * (g - gv) + (b - gv) * (b - gv);
  return grayDist < cubeDist ? 232 + gray : 16 + 36 * ri + 6 * gi + bi;
}

/**
 * SGR parameters selecting a foreground colour at a depth (without `CSI` and `m`), or '' for
 * `none`.
 *
 * @example `\x1b[${fgParams(255, 128, 0, 'truecolor')}m` // '\x1b[38;2;255;128;0m'
 */
export function fgParams(r: number, g: number, b: number, depth: ColorDepth): string {
  if (depth === 'truecolor') return `38;2;${r};${g};${b}`;
  if (depth === '256') return `38;5;${nearest256(r, g, b)}`;
  return '';
}

/** SGR parameters selecting a background colour (as `fgParams`, with 48). */
export function bgParams(r: number, g: number, b: number, depth: ColorDepth): string {
  if (depth === 'truecolor') return `48;2;${r};${g};${b}`;
  if (depth === '256') return `48;5;${nearest256(r, g, b)}`;
  return '';
}

/** Resets every SGR attribute; the text renderers end each line with it. */
export const SGR_RESET = '\x1b[0m';
