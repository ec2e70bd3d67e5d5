/**
 * A perfect terminal for symbols pictures: reads text with SGR colours back into pixels, each
 * cell painted from its glyph's mask (8x8 sub-pixels) in the foreground colour over the
 * background. Used to check and measure symbols pictures (termsight's and other programs') without
 * a terminal. Pure code.
 *
 * It understands SGR 0, 7, 27, 39, 49, 30-37, 40-47, 90-97, 100-107, `38;5;n`, `48;5;n`,
 * `38;2;r;g;b` and `48;2;r;g;b`; REP (`CSI n b`, the last glyph again) and cursor forward
 * (`CSI n C`, cells left empty); other escape sequences are skipped. A character without a known
 * mask paints as a space and is counted in `unknown`.
 */
import type { Raster } from '../../core/raster.js';
import type { CellMask } from './symbols-glyphs.js';
import { CELL_GRID, EIGHTHS_GLYPHS, maskHas, SPACE, SYMBOL_SETS } from './symbols-glyphs.js';
import { keyRgb } from './symbols-palette.js';

/** Every glyph termsight knows a mask for, by character (U+2800, the empty braille cell, is a space). */
export const GLYPH_MASKS: ReadonlyMap<string, CellMask> = (() => {
  const map = new Map<string, CellMask>();
  for (const g of [...SYMBOL_SETS.all.glyphs, ...EIGHTHS_GLYPHS]) if (!map.has(g.char)) map.set(g.char, g.mask);
  for (const set of Object.values(SYMBOL_SETS))
    for (const g of set.glyphs) if (!map.has(g.char)) map.set(g.char, g.mask);
  map.set('\u2800', SPACE.mask);
  return map;
})();

/** Options for painting. */
export interface PaintOptions {
  /** The terminal's default background and foreground. Default black and white. */
  readonly background?: readonly [number, number, number];
  readonly foreground?: readonly [number, number, number];
  /**
   * Pixels a cell is painted with. Default 8x8 (one pixel per sub-pixel); a screen's cell size
   * (e.g. 10x20) paints what a terminal with that font would show, each pixel taking the mask
   * bit under its centre.
   */
  readonly cell?: { readonly width: number; readonly height: number };
}

/** The painted picture, and what could not be painted. */
export interface Painted {
  /** `cell` pixels a cell (default 8x8), opaque. */
  readonly raster: Raster;
  readonly columns: number;
  readonly rows: number;
  /** Characters with no known mask (painted as spaces). */
  readonly unknown: number;
}

interface Cell {
  readonly mask: CellMask;
  readonly fg: readonly number[];
  readonly bg: readonly number[];
}

/**
 * Paints `text` (lines separated by '\n'; empty lines at the end ignored).
 *
 * @example paintSymbols('\x1b[38;2;255;0;0;48;2;0;0;255m\u2580\x1b[0m').raster // 8x8: red over blue
 */
export function paintSymbols(text: string, options: PaintOptions = {}): Painted {
  const background = options.background ?? [0, 0, 0];
  const foreground = options.foreground ?? [255, 255, 255];
  const lines = text.split('\n');
  while (lines.length > 0 && visibleLength(lines[lines.length - 1]) === 0) lines.pop();
  let unknown = 0;
  const grid: Cell[][] = [];
  let fg: readonly number[] | null = null;
  let bg: readonly number[] | null = null;
  let inverse = false;
  for (const line of lines) {
    const row: Cell[] = [];
    let last: string | null = null;
    const put = (char: string): void => {
      const mask = GLYPH_MASKS.get(char);
      if (mask === undefined) unknown++;
      const f = fg ?? foreground;
      const b = bg ?? background;
      row.push({ mask: mask ?? SPACE.mask, fg: inverse ? b : f, bg: inverse ? f : b });
      last = char;
    };
    const re = /\x1b\[([0-9;?]*)([@-~])|\x1b[^[]|([^\x1b])/gsu;
    for (const m of line.matchAll(re)) {
      if (m[3] !== undefined) {
        if (m[3] !== '\r') put(m[3]);
        continue;
      }
      if (m[2] === undefined) continue;
      const params = m[1] ?? '';
      if (params.startsWith('?')) continue;
      if (m[2] === 'b') {
        const n = Number(params || '1');
        if (last !== null) for (let i = 0; i < n; i++) put(last);
        continue;
      }
      if (m[2] === 'C') {
        const n = Number(params || '1');
        for (let i = 0; i < n; i++) row.push({ mask: SPACE.mask, fg: foreground, bg: background });
        continue;
      }
      if (m[2] !== 'm') continue;
      const p = params === '' ? [0] : params.split(';').map((v) => Number(v || '0'));
      for (let i = 0; i < p.length; i++) {
        const v = p[i];
        if (v === 0) {
          fg = null;
          bg = null;
          inverse = false;
        } else if (v === 7) inverse = true;
        else if (v === 27) inverse = false;
        else if (v === 39) fg = null;
        else if (v === 49) bg = null;
        else if (v >= 30 && v <= 37) fg = indexed(v - 30);
        else if (v >= 90 && v <= 97) fg = indexed(v - 82);
        else if (v >= 40 && v <= 47) bg = indexed(v - 40);
        else if (v >= 100 && v <= 107) bg = indexed(v - 92);
        else if ((v === 38 || v === 48) && p[i + 1] === 5) {
          const c = indexed(p[i + 2] ?? 0);
          if (v === 38) fg = c;
          else bg = c;
          i += 2;
        } else if ((v === 38 || v === 48) && p[i + 1] === 2) {
          const c = [p[i + 2] ?? 0, p[i + 3] ?? 0, p[i + 4] ?? 0];
          if (v === 38) fg = c;
          else bg = c;
          i += 4;
        }
      }
    }
    grid.push(row);
  }
  const columns = Math.max(1, ...grid.map((r) => r.length));
  const rows = Math.max(1, grid.length);
  const cw = options.cell?.width ?? CELL_GRID;
  const ch = options.cell?.height ?? CELL_GRID;
  const width = columns * cw;
  const height = rows * ch;
  const data = new Uint8Array(width * height * 4);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      const cell = grid[cy]?.[cx] ?? { mask: SPACE.mask, fg: foreground, bg: background };
      for (let y = 0; y < ch; y++) {
        const my = Math.floor(((y + 0.5) * CELL_GRID) / ch);
        for (let x = 0; x < cw; x++) {
          const c = maskHas(cell.mask, Math.floor(((x + 0.5) * CELL_GRID) / cw), my) ? cell.fg : cell.bg;
          const o = ((cy * ch + y) * width + cx * cw + x) * 4;
          data[o] = c[0];
          data[o + 1] = c[1];
          data[o + 2] = c[2];
          data[o + 3] = 255;
        }
      }
    }
  }
  return { raster: { width, height, data }, columns, rows, unknown };
}

function indexed(n: number): number[] {
  return keyRgb(Math.max(0, Math.min(255, n)), n < 16 ? '16' : '256', [0, 0, 0]);
}

function visibleLength(line: string): number {
  return line.replace(/\x1b\[[0-9;?]*[@-~]/g, '').replace(/\r/g, '').length;
}
