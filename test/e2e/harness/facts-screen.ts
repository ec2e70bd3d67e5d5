/**
 * The screen that shows a terminal's text-picture and sixel facts (issue 11), and how a screenshot
 * of it is judged. Pure: bytes out, pixels in, verdicts out.
 *
 * The screen, on the suite's white background with black text:
 * - row 0 blue (background colour) across all 80 columns and column 0 blue down to row 9: the
 *   cell grid, measured from colour fills (always exactly the cell, whoever draws the glyphs);
 * - row 2: the 60 sextants (U+1FB00…), from column 2;
 * - rows 4-7: the 230 octants (U+1CD00…), 76 a row, from column 2;
 * - rows 10-15, columns 2-61: green background; on it two 48x48 sixel pictures whose left half is
 *   red and whose right half no sixel touches, at row 11: P2=1 from column 4, P2=0 from column 32.
 *   Where the terminal honours P2=1 the untouched half of the first shows the green under it; P2=0
 *   fills it (with colour register 0 or the terminal's background), so the second shows no green.
 */
import { octantCodePoint, sextantCodePoint } from '../../../src/render/text/symbols-glyphs.js';
import type { Box, RgbImage } from './pixels.js';
import { classify } from './pixels.js';

/** Where the screen's parts are, in cells (0-based). */
export const LAYOUT = {
  /** Rows of column 0 painted blue, from row 0: the grid's height is measured over them. */
  calibrationRows: 10,
  sextantRow: 2,
  octantRow: 4,
  octantsPerRow: 76,
  glyphColumn: 2,
  backdrop: { top: 10, bottom: 16, left: 2, right: 62 },
  sixelRow: 11,
  sixelColumns: { transparent: 4, painted: 32 },
  /** The sixel pictures' size in pixels: the red half is the left `width / 2`. */
  sixel: { width: 48, height: 48 },
} as const;

/** A glyph set the screen shows. */
export type GlyphSetShown = 'sextants' | 'octants';

/** One glyph the screen shows: its character, the cell it sits in, and which parts are lit. */
export interface ShownGlyph {
  readonly char: string;
  readonly column: number;
  readonly row: number;
  /** Parts per row and rows of parts: 2x3 for sextants, 2x4 for octants. */
  readonly rows: number;
  /** Bit `2 * row + column` set: that part is lit (the numbering of the Unicode names). */
  readonly pattern: number;
}

/** The glyphs of a set in screen order, each with its cell and pattern. */
export function shownGlyphs(set: GlyphSetShown): ShownGlyph[] {
  const out: ShownGlyph[] = [];
  if (set === 'sextants') {
    for (let pattern = 1; pattern < 63; pattern++) {
      const code = sextantCodePoint(pattern);
      if (code === undefined) continue;
      out.push({
        char: String.fromCodePoint(code),
        column: LAYOUT.glyphColumn + out.length,
        row: LAYOUT.sextantRow,
        rows: 3,
        pattern,
      });
    }
    return out;
  }
  for (let pattern = 0; pattern < 256; pattern++) {
    const code = octantCodePoint(pattern);
    if (code === undefined) continue;
    const index = out.length;
    out.push({
      char: String.fromCodePoint(code),
      column: LAYOUT.glyphColumn + (index % LAYOUT.octantsPerRow),
      row: LAYOUT.octantRow + Math.floor(index / LAYOUT.octantsPerRow),
      rows: 4,
      pattern,
    });
  }
  return out;
}

/** A sixel picture of LAYOUT.sixel's size: the left half red (register 1), the right half never touched. */
export function halfSixel(p2: 0 | 1): string {
  const { width, height } = LAYOUT.sixel;
  const band = `#1!${width / 2}~`;
  const bands = Array.from({ length: height / 6 }, () => band).join('-');
  return `\x1bP0;${p2};0q"1;1;${width};${height}#1;2;100;0;0${bands}\x1b\\`;
}

const cup = (row: number, column: number) => `\x1b[${row + 1};${column + 1}H`;

/** The whole screen's bytes (the cursor hidden, the screen cleared first). */
export function factsScreen(): string {
  const blue = '\x1b[48;5;21m';
  const green = '\x1b[48;5;46m';
  const reset = '\x1b[0m';
  const parts: string[] = ['\x1b[?25l\x1b[H\x1b[2J', cup(0, 0), blue, ' '.repeat(80), reset];
  for (let row = 1; row < LAYOUT.calibrationRows; row++) parts.push(cup(row, 0), blue, ' ', reset);
  for (const set of ['sextants', 'octants'] as const) {
    let row = -1;
    for (const g of shownGlyphs(set)) {
      if (g.row !== row) {
        parts.push(cup(g.row, g.column));
        row = g.row;
      }
      parts.push(g.char);
    }
  }
  const { backdrop } = LAYOUT;
  for (let row = backdrop.top; row < backdrop.bottom; row++) {
    parts.push(cup(row, backdrop.left), green, ' '.repeat(backdrop.right - backdrop.left), reset);
  }
  parts.push(cup(LAYOUT.sixelRow, LAYOUT.sixelColumns.transparent), halfSixel(1));
  parts.push(cup(LAYOUT.sixelRow, LAYOUT.sixelColumns.painted), halfSixel(0));
  parts.push(cup(20, 0));
  return parts.join('');
}

/** The cell grid on a screenshot: the top-left corner of cell (0, 0) and a cell's size in pixels. */
export interface Grid {
  readonly left: number;
  readonly top: number;
  readonly cellWidth: number;
  readonly cellHeight: number;
}

const isBlue = (image: RgbImage, x: number, y: number) => {
  const i = (y * image.width + x) * 3;
  return classify(image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number) === 'blue';
};

/**
 * The grid from the blue fills: row 0's run of blue gives the left edge and 80 cells' width; column
 * 0's run gives the top and `calibrationRows` cells' height. Null when no blue row is found.
 */
export function findGrid(image: RgbImage): Grid | null {
  // The longest horizontal blue run on any line: row 0's fill.
  let best = { length: 0, left: 0, y: 0 };
  for (let y = 0; y < image.height; y++) {
    let run = 0;
    for (let x = 0; x <= image.width; x++) {
      if (x < image.width && isBlue(image, x, y)) run++;
      else {
        if (run > best.length) best = { length: run, left: x - run, y };
        run = 0;
      }
    }
  }
  if (best.length < 80) return null;
  let top = best.y;
  while (top > 0 && isBlue(image, best.left, top - 1)) top--;
  let bottom = best.y;
  while (bottom < image.height && isBlue(image, best.left, bottom)) bottom++;
  return {
    left: best.left,
    top,
    cellWidth: best.length / 80,
    cellHeight: (bottom - top) / LAYOUT.calibrationRows,
  };
}

/** The pixel box of a cell. */
export function cellBox(grid: Grid, column: number, row: number): Box {
  return {
    left: Math.round(grid.left + column * grid.cellWidth),
    top: Math.round(grid.top + row * grid.cellHeight),
    right: Math.round(grid.left + (column + 1) * grid.cellWidth),
    bottom: Math.round(grid.top + (row + 1) * grid.cellHeight),
  };
}

/** The share of dark pixels (luma under 100: ink on the white background) inside a box. */
function inkShare(image: RgbImage, box: Box): number {
  let ink = 0;
  let all = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const i = (y * image.width + x) * 3;
      const luma =
        0.299 * (image.data[i] as number) +
        0.587 * (image.data[i + 1] as number) +
        0.114 * (image.data[i + 2] as number);
      all++;
      if (luma < 100) ink++;
    }
  }
  return all === 0 ? 0 : ink / all;
}

/**
 * Whether a glyph is drawn as its pattern, part by part: each part's inside (one pixel in from
 * every edge, so rounding of part edges does not count) nearly all ink when lit (at least 80%)
 * and nearly none when dark (at most 20%). A replacement box, a question mark, a font's outline
 * or a shifted glyph fails.
 */
export function glyphDrawn(image: RgbImage, grid: Grid, glyph: ShownGlyph): boolean {
  const cell = cellBox(grid, glyph.column, glyph.row);
  const partWidth = (cell.right - cell.left) / 2;
  const partHeight = (cell.bottom - cell.top) / glyph.rows;
  for (let row = 0; row < glyph.rows; row++) {
    for (let column = 0; column < 2; column++) {
      const part: Box = {
        left: Math.ceil(cell.left + column * partWidth) + 1,
        top: Math.ceil(cell.top + row * partHeight) + 1,
        right: Math.floor(cell.left + (column + 1) * partWidth) - 1,
        bottom: Math.floor(cell.top + (row + 1) * partHeight) - 1,
      };
      const share = inkShare(image, part);
      const lit = (glyph.pattern >> (2 * row + column)) & 1;
      if (lit ? share < 0.8 : share > 0.2) return false;
    }
  }
  return true;
}

/** How a set came out: the glyphs drawn as their patterns, and the first few that were not. */
export interface GlyphVerdict {
  readonly drawn: number;
  readonly total: number;
  readonly wrong: readonly string[];
}

/** Judges every glyph of a set on the screenshot. */
export function judgeGlyphs(image: RgbImage, grid: Grid, set: GlyphSetShown): GlyphVerdict {
  const glyphs = shownGlyphs(set);
  const wrong = glyphs.filter((g) => !glyphDrawn(image, grid, g));
  return {
    drawn: glyphs.length - wrong.length,
    total: glyphs.length,
    wrong: wrong.slice(0, 8).map((g) => `U+${(g.char.codePointAt(0) as number).toString(16).toUpperCase()}`),
  };
}

/** What one of the two sixel pictures shows: whether its red half is there, and the green share of its other half. */
export interface SixelHalf {
  /** The red half's box (null: no sixel was drawn there). */
  readonly red: Box | null;
  /** The share of green (the backdrop) in the half no sixel touched, inside by two pixels. */
  readonly green: number;
}

/** Both pictures: P2=1's and P2=0's. */
export interface SixelVerdict {
  readonly transparent: SixelHalf;
  readonly painted: SixelHalf;
}

function share(image: RgbImage, box: Box, colour: 'green' | 'red'): number {
  let hit = 0;
  let all = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) {
      const i = (y * image.width + x) * 3;
      all++;
      if (classify(image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number) === colour) hit++;
    }
  }
  return all === 0 ? 0 : hit / all;
}

/** The bounding box of red pixels in a region, or null when there are fewer than `min`. */
function redBox(image: RgbImage, region: Box, min: number): Box | null {
  let count = 0;
  let left = Infinity;
  let top = Infinity;
  let right = -1;
  let bottom = -1;
  for (let y = region.top; y < region.bottom; y++) {
    for (let x = region.left; x < region.right; x++) {
      const i = (y * image.width + x) * 3;
      if (classify(image.data[i] as number, image.data[i + 1] as number, image.data[i + 2] as number) !== 'red')
        continue;
      count++;
      left = Math.min(left, x);
      top = Math.min(top, y);
      right = Math.max(right, x + 1);
      bottom = Math.max(bottom, y + 1);
    }
  }
  return count < min ? null : { left, top, right, bottom };
}

/** Judges the two sixel pictures: where each one's red half is, and what shows beside it. */
export function judgeSixel(image: RgbImage, grid: Grid): SixelVerdict {
  const { backdrop, sixelColumns, sixel } = LAYOUT;
  const half = (from: number, to: number): SixelHalf => {
    const a = cellBox(grid, from, backdrop.top);
    const b = cellBox(grid, to - 1, backdrop.bottom - 1);
    const region = { left: a.left, top: a.top, right: b.right, bottom: b.bottom };
    const red = redBox(image, region, (sixel.width / 2) * sixel.height * 0.5);
    if (red === null) return { red: null, green: 0 };
    const width = red.right - red.left;
    const beside: Box = { left: red.right + 2, top: red.top + 2, right: red.right + width - 2, bottom: red.bottom - 2 };
    return { red, green: share(image, beside, 'green') };
  };
  return {
    transparent: half(sixelColumns.transparent - 1, sixelColumns.painted - 1),
    painted: half(sixelColumns.painted - 1, backdrop.right),
  };
}
