/**
 * Half-block pictures: each cell shows two pixels, the top one as the foreground of '▀' (U+2580)
 * and the bottom one as its background. On a colour terminal without graphics this looks far
 * better than braille for photographs.
 *
 * SGR is written only when the foreground or background changes (and a cell may be drawn as
 * '▄' with the colours swapped when that saves a change); a cell whose two pixels are the same
 * colour is a space on that background. Pixels with alpha below 128 are transparent: they show
 * the terminal's default background (SGR 49), using '▄'/'▀' with only the opaque half coloured,
 * or a space, so they show whatever the terminal's background is, light or dark. Half-transparent
 * pixels are blended onto `background` (the terminal's, from the probe; default black). Every
 * line ends with an SGR reset. With `colorDepth: 'none'` the cells are ' ', '▀', '▄' or '█' drawn in
 * the terminal's foreground, so a half is drawn where its pixel stands out from the background
 * (level at least 128, as braille judges dots): bright pixels on a dark terminal, dark ones on a
 * light terminal, never transparent ones.
 */

import { blendChannelByte } from '../../core/blend.js';
import type { ColorDepth } from '../../core/primitives.js';
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import { channelLevel } from './channel-level.js';
import { nearest256, SGR_RESET } from './color.js';

/** Options for the blocks renderer. */
export interface BlocksOptions {
  /** Colour depth. Default 'truecolor'. */
  readonly colorDepth?: ColorDepth | undefined;
  /**
   * The terminal's background: half-transparent pixels are blended onto it, and without colour
   * a half is drawn where its pixel stands out from it. Default black.
   */
  readonly background?: readonly [number, number, number] | undefined;
}

/** Upper half block: top pixel in the foreground, bottom pixel in the background. */
export const UPPER_HALF = '\u2580';
/** Lower half block: used with the colours swapped, or for a transparent top pixel. */
export const LOWER_HALF = '\u2584';
/** Full block: both pixels in the foreground colour (when that colour is already set). */
export const FULL_BLOCK = '\u2588';

const TRANSPARENT = -1;
const DEFAULT = -2;

/** Packed 0xRRGGBB of pixel i blended onto the background, or TRANSPARENT. */
function pixelColor(data: Uint8Array, i: number, br: number, bg: number, bb: number): number {
  const p = i * 4;
  const a = data[p + 3];
  if (a < 128) return TRANSPARENT;
  if (a === 255) return (data[p] << 16) | (data[p + 1] << 8) | data[p + 2];
  return (
    (blendChannelByte(data[p], br, a) << 16) |
    (blendChannelByte(data[p + 1], bg, a) << 8) |
    blendChannelByte(data[p + 2], bb, a)
  );
}

function fgSgr(key: number, depth: ColorDepth): string {
  return depth === '256' ? `38;5;${key}` : `38;2;${key >>> 16};${(key >>> 8) & 255};${key & 255}`;
}

function bgSgr(key: number, depth: ColorDepth): string {
  if (key === DEFAULT) return '49';
  return depth === '256' ? `48;5;${key}` : `48;2;${key >>> 16};${(key >>> 8) & 255};${key & 255}`;
}

/**
 * The text lines of a half-block picture of `raster` (one cell per pixel column, two pixel rows
 * a cell: fit it first), without line breaks.
 */
export function blocksLines(raster: Raster, options: BlocksOptions = {}): string[] {
  validateRaster(raster);
  const depth = options.colorDepth ?? 'truecolor';
  const { width, height, data } = raster;
  // Whole channel values 0..255 (the probe's answer is exact; anything else is clamped).
  const [br, bgc, bb] = (options.background ?? [0, 0, 0]).map((v) => Math.min(255, Math.max(0, Math.round(v))));
  const lines: string[] = [];
  const key = (c: number): number => (c < 0 || depth !== '256' ? c : nearest256(c >>> 16, (c >>> 8) & 255, c & 255));
  for (let y = 0; y < height; y += 2) {
    let line = '';
    if (depth === 'none') {
      for (let x = 0; x < width; x++) {
        const t = isLit(pixelColor(data, y * width + x, br, bgc, bb), br, bgc, bb);
        const b = y + 1 < height && isLit(pixelColor(data, (y + 1) * width + x, br, bgc, bb), br, bgc, bb);
        line += t ? (b ? FULL_BLOCK : UPPER_HALF) : b ? LOWER_HALF : ' ';
      }
      lines.push(line);
      continue;
    }
    let fg = DEFAULT;
    let bg = DEFAULT;
    for (let x = 0; x < width; x++) {
      const top = key(pixelColor(data, y * width + x, br, bgc, bb));
      const bottom = y + 1 < height ? key(pixelColor(data, (y + 1) * width + x, br, bgc, bb)) : TRANSPARENT;
      let wantFg = fg;
      let wantBg: number;
      let ch: string;
      if (top === TRANSPARENT && bottom === TRANSPARENT) {
        wantBg = DEFAULT;
        ch = ' ';
      } else if (bottom === TRANSPARENT) {
        wantFg = top;
        wantBg = DEFAULT;
        ch = UPPER_HALF;
      } else if (top === TRANSPARENT) {
        wantFg = bottom;
        wantBg = DEFAULT;
        ch = LOWER_HALF;
      } else if (top === bottom) {
        if (bg === top) {
          wantBg = bg;
          ch = ' ';
        } else if (fg === top) {
          wantBg = bg;
          ch = FULL_BLOCK;
        } else {
          wantBg = top;
          ch = ' ';
        }
      } else if (fg === bottom || bg === top) {
        wantFg = bottom;
        wantBg = top;
        ch = LOWER_HALF;
      } else {
        wantFg = top;
        wantBg = bottom;
        ch = UPPER_HALF;
      }
      if (wantFg !== fg || wantBg !== bg) {
        const params: string[] = [];
        if (wantFg !== fg) params.push(fgSgr(wantFg, depth));
        if (wantBg !== bg) params.push(bgSgr(wantBg, depth));
        line += `\x1b[${params.join(';')}m`;
        fg = wantFg;
        bg = wantBg;
      }
      line += ch;
    }
    lines.push(line + SGR_RESET);
  }
  return lines;
}

/** Whether a pixel (packed colour from pixelColor) stands out from the background enough to draw. */
function isLit(c: number, br: number, bg: number, bb: number): boolean {
  if (c === TRANSPARENT) return false;
  return Math.max(channelLevel(c >>> 16, br), channelLevel((c >>> 8) & 255, bg), channelLevel(c & 255, bb)) >= 128;
}

/**
 * A half-block picture of `raster` (fit it first), lines joined by '\n'.
 *
 * @example process.stdout.write(encodeBlocks(raster, { colorDepth: 'truecolor' }) + '\n')
 */
export function encodeBlocks(raster: Raster, options: BlocksOptions = {}): string {
  return blocksLines(raster, options).join('\n');
}
