/**
 * The reference model of the symbols fit, written to be read rather than to be fast: for one
 * cell, every glyph of the set is tried; its colours are the exact means of the sub-pixels inside
 * and outside its mask, its error the exact weighted sum of squared differences; the least error
 * wins (ties: the set's order). No pruning, no shared sums, no rounding. The fast fit
 * (symbols-fit.ts) is tested against it.
 */
import type { Raster } from '../../core/raster.js';
import { ERROR_WEIGHTS } from './symbols-fit.js';
import type { Glyph, SymbolSet } from './symbols-glyphs.js';
import { CELL_GRID, maskHas } from './symbols-glyphs.js';
import type { ChannelWeights } from './symbols-palette.js';

/** An RGB colour with real-valued channels. */
export type Rgb = readonly [number, number, number];

/** The reference's choice for one cell. */
export interface ReferenceChoice {
  readonly glyph: Glyph;
  /** The mean of the sub-pixels under the glyph's ink (null when it has none). */
  readonly fg: Rgb | null;
  /** The mean of the others (null when there are none). */
  readonly bg: Rgb | null;
  readonly error: number;
}

/**
 * The colour a pixel shows on a terminal with `background`: the background when alpha < 128,
 * itself when opaque, else blended onto the background by its alpha.
 */
export function shownPixel(data: Uint8Array, index: number, background: Rgb): Rgb {
  const p = index * 4;
  const a = data[p + 3];
  if (a < 128) return background;
  const k = a / 255;
  return [
    data[p] * k + background[0] * (1 - k),
    data[p + 1] * k + background[1] * (1 - k),
    data[p + 2] * k + background[2] * (1 - k),
  ];
}

function mean(pixels: readonly Rgb[]): Rgb | null {
  if (pixels.length === 0) return null;
  const s = [0, 0, 0];
  for (const p of pixels) for (let c = 0; c < 3; c++) s[c] += p[c];
  return [s[0] / pixels.length, s[1] / pixels.length, s[2] / pixels.length];
}

/** Weighted squared distance between two colours. */
export function weightedDistance(a: Rgb, b: Rgb, weights: ChannelWeights = ERROR_WEIGHTS): number {
  let d = 0;
  for (let c = 0; c < 3; c++) d += weights[c] * (a[c] - b[c]) ** 2;
  return d;
}

/**
 * The best glyph and colours for one cell of 64 sub-pixels (row by row, `pixels[y * 8 + x]`).
 *
 * @example referenceCell(pixels, SYMBOL_SETS.block).glyph.char
 */
export function referenceCell(
  pixels: readonly Rgb[],
  set: SymbolSet,
  weights: ChannelWeights = ERROR_WEIGHTS,
): ReferenceChoice {
  let best: ReferenceChoice | null = null;
  for (const glyph of set.glyphs) {
    const inside: Rgb[] = [];
    const outside: Rgb[] = [];
    pixels.forEach((p, i) => {
      (maskHas(glyph.mask, i % CELL_GRID, Math.floor(i / CELL_GRID)) ? inside : outside).push(p);
    });
    const fg = mean(inside);
    const bg = mean(outside);
    let error = 0;
    for (const p of inside) error += weightedDistance(p, fg ?? p, weights);
    for (const p of outside) error += weightedDistance(p, bg ?? p, weights);
    if (best === null || error < best.error) best = { glyph, fg, bg, error };
  }
  if (best === null) throw new TypeError(`symbol set ${set.name} has no glyphs`);
  return best;
}

/**
 * The reference choice for every cell of `raster` (8x8 sub-pixels a cell; its size must be a
 * multiple of 8), row by row; null for a cell whose pixels are all transparent.
 */
export function referenceFit(
  raster: Raster,
  set: SymbolSet,
  options: { readonly background?: Rgb; readonly weights?: ChannelWeights } = {},
): (ReferenceChoice | null)[][] {
  const background = options.background ?? [0, 0, 0];
  const rows: (ReferenceChoice | null)[][] = [];
  for (let cy = 0; cy < raster.height / CELL_GRID; cy++) {
    const row: (ReferenceChoice | null)[] = [];
    for (let cx = 0; cx < raster.width / CELL_GRID; cx++) {
      const pixels: Rgb[] = [];
      let transparent = 0;
      for (let y = 0; y < CELL_GRID; y++) {
        for (let x = 0; x < CELL_GRID; x++) {
          const index = (cy * CELL_GRID + y) * raster.width + cx * CELL_GRID + x;
          if (raster.data[index * 4 + 3] < 128) transparent++;
          pixels.push(shownPixel(raster.data, index, background));
        }
      }
      row.push(transparent === CELL_GRID * CELL_GRID ? null : referenceCell(pixels, set, options.weights));
    }
    rows.push(row);
  }
  return rows;
}
