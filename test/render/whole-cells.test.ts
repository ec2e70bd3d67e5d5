/**
 * `wholeCells`: a sixel sized to whole cells of `cellPixels`, for tmux 3.4+ drawing sixel itself
 * (it rounds a picture up to whole cells and fills the margin with register 0). Named rows.
 */
import { describe, expect, it } from 'vitest';
import { layout } from '../../src/render/backend.js';
import type { RenderOptions } from '../../src/render/options.js';

const XTERM = { width: 8, height: 17 };

describe('layout with wholeCells', () => {
  it.each<{
    name: string;
    source: { width: number; height: number };
    options: RenderOptions;
    units: [number, number];
    cells: [number, number];
  }>([
    {
      name: '96x96 in 8x17 cells: 6 rows, rounded up',
      source: { width: 96, height: 96 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true },
      units: [96, 102],
      cells: [12, 6],
    },
    {
      name: '100x90 in 8x17 cells: rounded to the nearest',
      source: { width: 100, height: 90 },
      options: { cellPixels: XTERM, columns: 20, rows: 22, wholeCells: true },
      units: [104, 85],
      cells: [13, 5],
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
