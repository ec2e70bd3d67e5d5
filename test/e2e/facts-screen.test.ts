/**
 * The facts screen's judges (harness/facts-screen.ts) on synthetic screenshots: a terminal that
 * draws every glyph and honours P2=1, and each way a terminal can fall short (replacement boxes,
 * one wrong part, parts a third of a cell off, a filled P2=1 picture, no picture). Runs everywhere.
 */
import { describe, expect, it } from 'vitest';
import {
  factsScreen,
  findGrid,
  type GlyphSetShown,
  halfSixel,
  judgeGlyphs,
  judgeSixel,
  LAYOUT,
  type ShownGlyph,
  shownGlyphs,
} from './harness/facts-screen.js';
import type { RgbImage } from './harness/pixels.js';

type Rgb = readonly [number, number, number];

/** How the synthetic terminal draws. */
interface Drawing {
  readonly cell: { readonly width: number; readonly height: number };
  /** How a glyph comes out: its pattern, a replacement box, or its parts moved down a third of a cell. */
  readonly glyphs: 'exact' | 'boxes' | 'shifted';
  /** A glyph whose one part is drawn wrong (its code point), if any. */
  readonly wrongGlyph?: number;
  /** What the half of a sixel picture no pixel touches shows: the green under it, or black (register 0); `none`: no sixel. */
  readonly p2one: 'transparent' | 'black' | 'none';
  readonly p2zero: 'transparent' | 'black' | 'none';
}

const ORIGIN = { left: 5, top: 7 };

function draw(d: Drawing): RgbImage {
  const width = ORIGIN.left + 80 * d.cell.width + 20;
  const height = ORIGIN.top + 24 * d.cell.height + 20;
  const data = new Uint8Array(width * height * 3).fill(255);
  const fill = (x0: number, y0: number, x1: number, y1: number, [r, g, b]: Rgb) => {
    for (let y = Math.round(y0); y < Math.round(y1); y++)
      for (let x = Math.round(x0); x < Math.round(x1); x++) data.set([r, g, b], (y * width + x) * 3);
  };
  const cellX = (c: number) => ORIGIN.left + c * d.cell.width;
  const cellY = (r: number) => ORIGIN.top + r * d.cell.height;
  const blue: Rgb = [0, 0, 255];
  fill(cellX(0), cellY(0), cellX(80), cellY(1), blue);
  fill(cellX(0), cellY(0), cellX(1), cellY(LAYOUT.calibrationRows), blue);
  const glyph = (g: ShownGlyph) => {
    const x = cellX(g.column);
    const y = cellY(g.row);
    if (d.glyphs === 'boxes') {
      fill(x + 1, y + 2, x + d.cell.width - 1, y + 3, [0, 0, 0]);
      fill(x + 1, y + d.cell.height - 3, x + d.cell.width - 1, y + d.cell.height - 2, [0, 0, 0]);
      fill(x + 1, y + 2, x + 2, y + d.cell.height - 2, [0, 0, 0]);
      fill(x + d.cell.width - 2, y + 2, x + d.cell.width - 1, y + d.cell.height - 2, [0, 0, 0]);
      return;
    }
    const pattern = g.char.codePointAt(0) === d.wrongGlyph ? g.pattern ^ 1 : g.pattern;
    const shift = d.glyphs === 'shifted' ? d.cell.height / 3 : 0;
    const partHeight = d.cell.height / g.rows;
    for (let row = 0; row < g.rows; row++)
      for (let column = 0; column < 2; column++) {
        if (!((pattern >> (2 * row + column)) & 1)) continue;
        const top = Math.min(y + row * partHeight + shift, y + d.cell.height);
        const bottom = Math.min(y + (row + 1) * partHeight + shift, y + d.cell.height);
        fill(x + (column * d.cell.width) / 2, top, x + ((column + 1) * d.cell.width) / 2, bottom, [0, 0, 0]);
      }
  };
  for (const set of ['sextants', 'octants'] as const) for (const g of shownGlyphs(set)) glyph(g);
  const { backdrop, sixel, sixelColumns } = LAYOUT;
  fill(cellX(backdrop.left), cellY(backdrop.top), cellX(backdrop.right), cellY(backdrop.bottom), [0, 255, 0]);
  const picture = (column: number, rest: Drawing['p2one']) => {
    if (rest === 'none') return;
    const x = cellX(column);
    const y = cellY(LAYOUT.sixelRow);
    fill(x, y, x + sixel.width / 2, y + sixel.height, [255, 0, 0]);
    if (rest === 'black') fill(x + sixel.width / 2, y, x + sixel.width, y + sixel.height, [0, 0, 0]);
  };
  picture(sixelColumns.transparent, d.p2one);
  picture(sixelColumns.painted, d.p2zero);
  return { width, height, data };
}

const CELL = { width: 8, height: 17 };
const KONSOLE_LIKE = { width: 9, height: 19 };
const SEXTANT_5 = 0x1fb04;

const ROWS: readonly {
  name: string;
  drawing: Drawing;
  drawn: Record<GlyphSetShown, number>;
  /** Green shares beside the P2=1 and P2=0 pictures (null: no picture found). */
  green: [number | null, number | null];
}[] = [
  {
    name: 'a terminal that draws every glyph and honours P2=1',
    drawing: { cell: CELL, glyphs: 'exact', p2one: 'transparent', p2zero: 'black' },
    drawn: { sextants: 60, octants: 230 },
    green: [1, 0],
  },
  {
    name: 'the same in a bigger cell (the grid is measured, not assumed)',
    drawing: { cell: KONSOLE_LIKE, glyphs: 'exact', p2one: 'transparent', p2zero: 'black' },
    drawn: { sextants: 60, octants: 230 },
    green: [1, 0],
  },
  {
    name: 'replacement boxes (a font without the glyphs) and P2=1 filled',
    drawing: { cell: CELL, glyphs: 'boxes', p2one: 'black', p2zero: 'black' },
    drawn: { sextants: 0, octants: 0 },
    green: [0, 0],
  },
  {
    name: 'one part of one sextant wrong',
    drawing: { cell: CELL, glyphs: 'exact', wrongGlyph: SEXTANT_5, p2one: 'transparent', p2zero: 'black' },
    drawn: { sextants: 59, octants: 230 },
    green: [1, 0],
  },
  {
    name: 'parts a third of a cell too low',
    drawing: { cell: CELL, glyphs: 'shifted', p2one: 'transparent', p2zero: 'transparent' },
    drawn: { sextants: 0, octants: 0 },
    green: [1, 1],
  },
  {
    name: 'no sixel drawn',
    drawing: { cell: CELL, glyphs: 'exact', p2one: 'none', p2zero: 'none' },
    drawn: { sextants: 60, octants: 230 },
    green: [null, null],
  },
];

describe('the facts screen judges', () => {
  it.each(ROWS)('$name', ({ drawing, drawn, green }) => {
    const image = draw(drawing);
    const grid = findGrid(image);
    expect(grid).toEqual({
      left: ORIGIN.left,
      top: ORIGIN.top,
      cellWidth: drawing.cell.width,
      cellHeight: drawing.cell.height,
    });
    if (grid === null) return;
    for (const set of ['sextants', 'octants'] as const)
      expect(judgeGlyphs(image, grid, set).drawn, set).toBe(drawn[set]);
    const sixel = judgeSixel(image, grid);
    const seen = [sixel.transparent, sixel.painted].map((h) =>
      h.red === null ? null : Math.round(h.green * 100) / 100,
    );
    expect(seen).toEqual(green);
  });

  it('names the wrong glyph', () => {
    const image = draw({ cell: CELL, glyphs: 'exact', wrongGlyph: SEXTANT_5, p2one: 'none', p2zero: 'none' });
    const grid = findGrid(image);
    expect(judgeGlyphs(image, grid as NonNullable<typeof grid>, 'sextants').wrong).toEqual(['U+1FB04']);
  });

  it('finds no grid without the blue row', () => {
    expect(findGrid({ width: 100, height: 50, data: new Uint8Array(100 * 50 * 3).fill(255) })).toBeNull();
  });
});

describe('the facts screen', () => {
  it('shows every sextant and octant once, each in its own cell', () => {
    const glyphs = [...shownGlyphs('sextants'), ...shownGlyphs('octants')];
    expect(shownGlyphs('sextants')).toHaveLength(60);
    expect(shownGlyphs('octants')).toHaveLength(230);
    expect(new Set(glyphs.map((g) => g.char)).size).toBe(290);
    expect(new Set(glyphs.map((g) => `${g.column},${g.row}`)).size).toBe(290);
    for (const g of glyphs) expect(g.column).toBeLessThan(80);
    expect(shownGlyphs('sextants')[0]?.char).toBe('\u{1FB00}');
    expect(shownGlyphs('octants').at(-1)?.char).toBe('\u{1CDE5}');
  });

  it('draws sixel with P2=1 and P2=0, the left half red, the right half untouched', () => {
    expect(halfSixel(1).startsWith('\x1bP0;1;0q"1;1;48;48#1;2;100;0;0#1!24~-')).toBe(true);
    expect(halfSixel(0).startsWith('\x1bP0;0;0q')).toBe(true);
    expect(halfSixel(1).split('-')).toHaveLength(8);
    const screen = factsScreen();
    expect(screen).toContain(halfSixel(1));
    expect(screen).toContain(halfSixel(0));
    // Nothing but the sixel pictures' DCS and plain CSI: no title, no query.
    expect(screen.replace(halfSixel(1), '').replace(halfSixel(0), '')).not.toMatch(/\x1b[P\]_^]/);
  });
});
