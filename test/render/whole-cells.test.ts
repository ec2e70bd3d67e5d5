/**
 * `wholeCells`: a sixel sized to whole cells of `cellPixels`, for tmux 3.4+ drawing sixel itself
 * (it rounds a picture up to whole cells and fills the margin with register 0), and `wholeBands`:
 * a sixel whose height is whole bands of six rows, for a terminal that paints the rest of a short
 * last band (Konsole, foot). Named rows; the drawn pixels decoded by the npm `sixel` decoder.
 */
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { draw, layout } from '../../src/render/backend.js';
import type { RenderOptions } from '../../src/render/options.js';

const XTERM = { width: 8, height: 17 };
const KONSOLE = { width: 8, height: 15 };

describe('layout with wholeCells', () => {
  it.each<{
    name: string;
    source: { width: number; height: number };
    options: RenderOptions;
    units: [number, number];
    cells: [number, number];
  }>([
    {
      name: '96x96 in 8x17 cells: whole cells and whole bands (tmux adds no cell), 2% off square (not 96x102, 6%)',
      source: { width: 96, height: 96 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true },
      units: [104, 102],
      cells: [13, 6],
    },
    {
      name: '100x90 in 8x17 cells: none within 1% near its size, the least off (1.2%, not 104x85: 10%)',
      source: { width: 100, height: 90 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true },
      units: [112, 102],
      cells: [14, 6],
    },
    {
      name: 'a 3 px picture still takes one cell',
      source: { width: 3, height: 3 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true },
      units: [8, 17],
      cells: [1, 1],
    },
    {
      name: 'never past the box',
      source: { width: 160, height: 100 },
      options: { cellPixels: XTERM, columns: 20, rows: 5, wholeCells: true },
      units: [136, 85],
      cells: [17, 5],
    },
    {
      name: 'off: the picture keeps its size',
      source: { width: 96, height: 96 },
      options: { cellPixels: XTERM, columns: 20, rows: 22 },
      units: [96, 96],
      cells: [12, 6],
    },
    {
      name: 'a fractional cell has no whole multiple: unchanged',
      source: { width: 96, height: 96 },
      options: { cellPixels: { width: 8.5, height: 17 }, columns: 20, rows: 22, wholeCells: true },
      units: [96, 96],
      cells: [12, 6],
    },
    {
      name: 'no cell size: unchanged',
      source: { width: 96, height: 96 },
      options: { columns: 20, rows: 22, wholeCells: true },
      units: [96, 96],
      cells: [10, 5],
    },
  ])('$name', ({ source, options, units, cells }) => {
    const lay = layout(source, 'sixel', options);
    expect([lay.units.width, lay.units.height]).toEqual(units);
    expect([lay.columns, lay.rows]).toEqual(cells);
  });

  it('only sixel: kitty in the same cells is not rounded', () => {
    const lay = layout({ width: 96, height: 96 }, 'kitty', {
      cellPixels: XTERM,
      columns: 20,
      rows: 22,
      wholeCells: true,
    });
    expect(lay.units).toEqual({ width: 96, height: 96 });
  });
});

const WHITE = [255, 255, 255] as const;

describe('layout with wholeCells and a background: the picture keeps its size, the cells are padded', () => {
  it.each<{
    name: string;
    source: { width: number; height: number };
    options: RenderOptions;
    units: [number, number];
    picture: [number, number] | null;
    cells: [number, number];
  }>([
    {
      name: '96x96 in 8x17 cells: 12x6 cells, 6 rows of background below',
      source: { width: 96, height: 96 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true, background: WHITE },
      units: [96, 102],
      picture: [96, 96],
      cells: [12, 6],
    },
    {
      name: '100x90: both sides padded up to whole cells',
      source: { width: 100, height: 90 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true, background: WHITE },
      units: [104, 102],
      picture: [100, 90],
      cells: [13, 6],
    },
    {
      name: 'already whole cells: no padding',
      source: { width: 96, height: 102 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true, background: WHITE },
      units: [96, 102],
      picture: null,
      cells: [12, 6],
    },
    {
      name: "100x100 (the end-to-end suite's picture): 13x6 cells, its own size at their top-left",
      source: { width: 100, height: 100 },
      options: { cellPixels: XTERM, columns: 40, rows: 40, wholeCells: true, background: WHITE },
      units: [104, 102],
      picture: [100, 100],
      cells: [13, 6],
    },
    {
      name: '137x101: whole cells both ways (18x6), its own size',
      source: { width: 137, height: 101 },
      options: { cellPixels: XTERM, columns: 40, rows: 40, wholeCells: true, background: WHITE },
      units: [144, 102],
      picture: [137, 101],
      cells: [18, 6],
    },
    {
      name: "100x100 in Konsole's 8x15 cells: 7 rows (105 px) are not whole bands, 8 (120 px) are: 13x8 cells, its own size",
      source: { width: 100, height: 100 },
      options: { cellPixels: KONSOLE, columns: 40, rows: 40, wholeCells: true, background: WHITE },
      units: [104, 120],
      picture: [100, 100],
      cells: [13, 8],
    },
    {
      name: '100x100 in 9x16 cells: 7 and 8 rows are not whole bands, 9 (144 px) are: 12x9 cells, its own size',
      source: { width: 100, height: 100 },
      options: { cellPixels: { width: 9, height: 16 }, columns: 40, rows: 40, wholeCells: true, background: WHITE },
      units: [108, 144],
      picture: [100, 100],
      cells: [12, 9],
    },
    {
      name: 'the row more is past the box (7 rows of 15 px): the nearest whole cells of whole bands, the picture square inside',
      source: { width: 100, height: 100 },
      options: { cellPixels: KONSOLE, columns: 40, rows: 7, wholeCells: true, background: WHITE },
      units: [88, 90],
      picture: [88, 88],
      cells: [11, 6],
    },
    {
      name: 'the cells it reaches (160 px: 10 rows, 170 px) are not whole bands, 12 rows (204 px) are: 20x12 cells, its own size',
      source: { width: 400, height: 400 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true, background: WHITE },
      units: [160, 204],
      picture: [160, 160],
      cells: [20, 12],
    },
    {
      name: 'the same in a box of 11 rows: the nearest whole cells (within 1%, 153 px is not whole bands), the picture square inside',
      source: { width: 400, height: 400 },
      options: { cellPixels: XTERM, columns: 20, rows: 11, wholeCells: true, background: WHITE },
      units: [152, 153],
      picture: [152, 152],
      cells: [19, 9],
    },
    {
      name: '120x120: its 8 rows (136 px) are not whole bands; 13x6 cells of whole bands, the picture square inside (not 104x102)',
      source: { width: 120, height: 120 },
      options: { cellPixels: XTERM, columns: 40, rows: 40, wholeCells: true, background: WHITE },
      units: [104, 102],
      picture: [102, 102],
      cells: [13, 6],
    },
    {
      name: 'a fractional cell has no whole multiple: unchanged',
      source: { width: 96, height: 96 },
      options: { cellPixels: { width: 8.5, height: 17 }, columns: 20, rows: 22, wholeCells: true, background: WHITE },
      units: [96, 96],
      picture: null,
      cells: [12, 6],
    },
  ])('$name', ({ source, options, units, picture, cells }) => {
    const lay = layout(source, 'sixel', options);
    expect([lay.units.width, lay.units.height]).toEqual(units);
    expect(lay.picture ? [lay.picture.width, lay.picture.height] : null).toEqual(picture);
    expect([lay.columns, lay.rows]).toEqual(cells);
  });

  it("keeps every picture's aspect within a pixel, in whole cells, never past its fitted size", () => {
    for (let w = 24; w <= 400; w += 11) {
      for (let h = 24; h <= 400; h += 13) {
        const options = { cellPixels: XTERM, columns: 40, rows: 30, wholeCells: true, background: WHITE } as const;
        const lay = layout({ width: w, height: h }, 'sixel', options);
        const fitted = layout({ width: w, height: h }, 'sixel', { ...options, wholeCells: false }).units;
        const shown = lay.picture ?? lay.units;
        expect([lay.units.width % 8, lay.units.height % 17], `${w}x${h}`).toEqual([0, 0]);
        // Fitted, then fitted into the cells: each side rounded twice, at most a pixel off.
        const pixel = 1 / shown.width + 1 / shown.height;
        expect(Math.abs(shown.width / shown.height / (w / h) - 1), `${w}x${h}`).toBeLessThanOrEqual(pixel);
        expect(shown.width <= fitted.width && shown.height <= fitted.height, `${w}x${h}`).toBe(true);
      }
    }
  });

  it('the drawn sixel is the picture at the top-left, unstretched, and background in the margin', () => {
    const red = solidRaster(96, 96, [255, 0, 0, 255]);
    const d = draw(red, 'sixel', {
      cellPixels: XTERM,
      columns: 20,
      rows: 22,
      wholeCells: true,
      background: WHITE,
      sixelTransparency: false,
    });
    const out = decodeSixel(d.sequences[0] as string);
    expect([out.width, out.height]).toEqual([96, 102]);
    expect(pixel(out, 95, 95)).toEqual([255, 0, 0]);
    expect(pixel(out, 0, 96)).toEqual([255, 255, 255]);
    expect(pixel(out, 95, 101)).toEqual([255, 255, 255]);
  });
});

describe('layout with wholeBands', () => {
  it.each<{
    name: string;
    source: { width: number; height: number };
    options: RenderOptions;
    units: [number, number];
    cells: [number, number];
  }>([
    {
      name: '96x93: 90 rows (15 bands), the width follows',
      source: { width: 96, height: 93 },
      options: { cellPixels: XTERM, wholeBands: true },
      units: [93, 90],
      cells: [12, 6],
    },
    {
      name: '160x160 (Konsole, --width 20 of 8 px): 156x156',
      source: { width: 400, height: 400 },
      options: { cellPixels: { width: 8, height: 15 }, columns: 20, rows: 40, wholeBands: true },
      units: [156, 156],
      cells: [20, 11],
    },
    {
      name: 'already whole bands: unchanged',
      source: { width: 96, height: 96 },
      options: { cellPixels: XTERM, wholeBands: true },
      units: [96, 96],
      cells: [12, 6],
    },
    {
      name: 'under six rows: left as it is',
      source: { width: 20, height: 4 },
      options: { cellPixels: XTERM, wholeBands: true },
      units: [20, 4],
      cells: [3, 1],
    },
    {
      name: 'off: the picture keeps its height',
      source: { width: 96, height: 93 },
      options: { cellPixels: XTERM },
      units: [96, 93],
      cells: [12, 6],
    },
    {
      name: 'only sixel: kitty keeps its height',
      source: { width: 96, height: 93 },
      options: { cellPixels: XTERM, wholeBands: true },
      units: [96, 93],
      cells: [12, 6],
    },
  ])('$name', ({ name, source, options, units, cells }) => {
    const lay = layout(source, name.startsWith('only sixel') ? 'kitty' : 'sixel', options);
    expect([lay.units.width, lay.units.height]).toEqual(units);
    expect([lay.columns, lay.rows]).toEqual(cells);
  });

  it('keeps the aspect within 1% for every picture at least 50 px across', () => {
    for (let w = 50; w <= 400; w += 7) {
      for (let h = 6; h <= 400; h += 5) {
        const lay = layout({ width: w, height: h }, 'sixel', { cellPixels: XTERM, wholeBands: true });
        expect(lay.units.height % 6).toBe(0);
        const before = w / h;
        const after = lay.units.width / lay.units.height;
        if (lay.units.width >= 50) expect(Math.abs(after / before - 1), `${w}x${h}`).toBeLessThanOrEqual(0.01);
      }
    }
  });
});

function solidRaster(width: number, height: number, rgba: readonly number[]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

function decodeSixel(sequence: string): { width: number; height: number; data: Uint8Array } {
  const body = sequence.slice(sequence.indexOf('q') + 1, -2);
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(body);
  return { width: decoder.width, height: decoder.height, data: new Uint8Array(decoder.data8) };
}

function pixel(image: { width: number; data: Uint8Array }, x: number, y: number): number[] {
  const i = (y * image.width + x) * 4;
  return [image.data[i], image.data[i + 1], image.data[i + 2]] as number[];
}
