/**
 * Symbols pictures: text that draws a photograph with block elements (and, when asked, sextants,
 * octants or braille), each cell the glyph and the two colours that reproduce its 8x8
 * sub-pixels best. The raster is read as 8x8 sub-pixels a cell (`layout` resamples it so);
 * each cell is fitted (symbols-fit.ts), its colours named at the depth (24-bit, the 256-colour
 * palette, or the 16 ANSI colours after stretching the picture's contrast and colour), and the line written with
 * SGR only where a colour changes (symbols-writer.ts). With `colorDepth: 'none'` only glyphs are
 * written (symbols-mono.ts). Transparent pixels (alpha < 128) show `background` (default black)
 * and half-transparent ones are blended onto it; a cell with every pixel transparent is a space
 * on the terminal's own background. Design notes: docs/render.md, "Symbols".
 */

import type { ColorDepth } from '../../core/primitives.js';
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import { SymbolFitter, TRANSPARENT_CELL } from './symbols-fit.js';
import type { SymbolSet, SymbolSetName } from './symbols-glyphs.js';
import { CELL_GRID, resolveSymbolSet } from './symbols-glyphs.js';
import { monoSymbolLines } from './symbols-mono.js';
import type { ChannelWeights, SymbolColorDepth } from './symbols-palette.js';
import { enhanceForPalette } from './symbols-preprocess.js';
import { SymbolLineWriter } from './symbols-writer.js';

/** Options for the symbols renderer. */
export interface SymbolsOptions {
  /** Colour depth. Default 'truecolor'. */
  readonly colorDepth?: ColorDepth | undefined;
  /** The terminal's background: what transparent pixels show. Default black. */
  readonly background?: readonly [number, number, number] | undefined;
  /** The glyphs to draw with: a set, or names of built-in sets. Default 'block'. */
  readonly symbols?: SymbolSet | readonly SymbolSetName[];
  /** Channel weights of the error (for measuring other metrics). Default `ERROR_WEIGHTS`. */
  readonly weights?: ChannelWeights;
  /**
   * 16 colours: share of each cell's error passed on to the cells after it. Default 0 (off:
   * measured, it scores lower and draws checkerboards); `DIFFUSION_STRENGTH` is the tested strength.
   */
  readonly diffusion?: number;
  /**
   * 16 colours: stretch the picture's contrast and saturation first (`enhanceForPalette`), so the
   * far-apart ANSI colours keep its differences. Default true at 16 colours (ignored at other depths).
   */
  readonly preprocess?: boolean;
  /** How many of the best shapes are scored again with palette colours (see `FitterOptions.refit`). */
  readonly refit?: number;
}

/**
 * Share of a cell's colour error passed on to the cells after it at 16 colours when diffusion is
 * asked for (`diffusion`; Floyd–Steinberg weights between cells). Below 1 so flat areas do not
 * crawl with alternating colours.
 */
export const DIFFUSION_STRENGTH = 0.75;

/**
 * The largest error (per channel, 0-255 scale) a cell takes from the cells before it, at 16
 * colours. Unbounded, the error the palette cannot absorb grows from cell to cell into a
 * checkerboard of far colours (measured: docs/render.md, "Symbols").
 */
export const CARRY_LIMIT = 12;

function backgroundOf(options: SymbolsOptions): [number, number, number] {
  const [r, g, b] = options.background ?? [0, 0, 0];
  const c = (v: number): number => Math.min(255, Math.max(0, Math.round(Number.isFinite(v) ? v : 0)));
  return [c(r), c(g), c(b)];
}

/** The raster padded with transparent pixels to whole cells (itself when it already is). */
function wholeCells(raster: Raster): Raster {
  const width = Math.ceil(raster.width / CELL_GRID) * CELL_GRID;
  const height = Math.ceil(raster.height / CELL_GRID) * CELL_GRID;
  if (width === raster.width && height === raster.height) return raster;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < raster.height; y++) {
    data.set(raster.data.subarray(y * raster.width * 4, (y + 1) * raster.width * 4), y * width * 4);
  }
  return { width, height, data };
}

/**
 * The text lines of a symbols picture of `raster`, one cell per 8x8 sub-pixels (fit it first:
 * `layout(size, 'symbols', …)` gives that size), without line breaks.
 *
 * @example symbolsLines(raster, { colorDepth: '256', symbols: ['block', 'sextant'] })
 */
export function symbolsLines(raster: Raster, options: SymbolsOptions = {}): string[] {
  validateRaster(raster);
  const set = resolveSymbolSet(options.symbols);
  const background = backgroundOf(options);
  const color = options.colorDepth ?? 'truecolor';
  if (color === 'none') return monoSymbolLines(raster, set, background);
  const depth: SymbolColorDepth = color;
  const prepared = depth === '16' && options.preprocess !== false ? enhanceForPalette(raster) : raster;
  const padded = wholeCells(prepared);
  const { width, data } = padded;
  const columns = width / CELL_GRID;
  const rows = padded.height / CELL_GRID;
  const fitter = new SymbolFitter(set, {
    depth,
    background,
    ...(options.weights ? { weights: options.weights } : {}),
    ...(options.refit ? { refit: options.refit } : {}),
  });
  const shapes = fitter.plan.shapes;
  const writer = new SymbolLineWriter(depth);
  const strength = Math.max(0, Math.min(1, options.diffusion ?? 0));
  const diffuse = depth === '16' && strength > 0;
  // Error carried to each cell (3 channels), this row and the next, one cell of padding each side.
  let carry = new Float64Array((columns + 2) * 3);
  let next = new Float64Array((columns + 2) * 3);
  const offset = new Float64Array(3);
  const lines: string[] = [];
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      const e = (cx + 1) * 3;
      if (diffuse) {
        // Bounded: an error the palette cannot absorb would otherwise grow from cell to cell.
        offset[0] = Math.max(-CARRY_LIMIT, Math.min(CARRY_LIMIT, carry[e]));
        offset[1] = Math.max(-CARRY_LIMIT, Math.min(CARRY_LIMIT, carry[e + 1]));
        offset[2] = Math.max(-CARRY_LIMIT, Math.min(CARRY_LIMIT, carry[e + 2]));
      }
      const choice = fitter.fit(data, width, cx * CELL_GRID, cy * CELL_GRID, diffuse ? offset : undefined);
      if (choice.shape === TRANSPARENT_CELL) {
        writer.transparent();
        continue;
      }
      writer.cell(shapes[choice.shape], choice.inside, choice.outside);
      if (diffuse) {
        for (let c = 0; c < 3; c++) {
          const err = (choice.wantedMean[c] - choice.shownMean[c]) * strength;
          carry[e + 3 + c] += (err * 7) / 16;
          next[e - 3 + c] += (err * 3) / 16;
          next[e + c] += (err * 5) / 16;
          next[e + 3 + c] += err / 16;
        }
      }
    }
    lines.push(writer.end());
    if (diffuse) {
      const t = carry;
      carry = next;
      next = t;
      next.fill(0);
    }
  }
  return lines;
}

/**
 * A symbols picture of `raster` (fit it first), lines joined by '\n'.
 *
 * @example process.stdout.write(encodeSymbols(raster, { colorDepth: 'truecolor' }) + '\n')
 */
export function encodeSymbols(raster: Raster, options: SymbolsOptions = {}): string {
  return symbolsLines(raster, options).join('\n');
}
