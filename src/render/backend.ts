/**
 * From a raster to the bytes a terminal needs: fit into a box of cells, resample, encode with
 * the protocol's encoder, wrap for a multiplexer.
 *
 * Sizing: a cell is `cellPixels` (default 10x20 pixels: a common monospace cell at 1x scaling,
 * used when the probe could not measure it). kitty, iTerm2 and sixel fit into
 * `columns * cellWidth` x `rows * cellHeight` pixels; braille into 2x4 dots a cell and blocks
 * into 1x2 pixels a cell, each dot/pixel taken to have the cell's shape divided accordingly, so
 * the picture keeps its aspect ratio on screen whatever the renderer. Without `columns`/`rows`
 * the box is the raster's own size in cells; nothing is enlarged unless `upscale`, except symbols
 * pictures, enlarged by the rule of text-size.ts (one renderer dot a source pixel, within the box,
 * up to `TEXT_DEFAULT_COLUMNS` without one). A symbols picture is 8x8 sub-pixels a cell, whole cells.
 *
 * Limits (limits.ts, docs/cli.md "Size limits"): at most `MAX_CELLS` columns and rows (a
 * `RangeError` past it), and never resampled past `MAX_PIXELS` (graphics) or `MAX_TEXT_CELLS`.
 */

import { positiveInteger } from '../core/positive-integer.js';
import { DEFAULT_CELL_PIXELS } from '../core/primitives.js';
import type { Raster } from '../core/raster.js';
import { validateRaster } from '../core/raster.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import type { Protocol } from '../env/protocol.js';
import { isGraphicsProtocol, isProtocol, PROTOCOLS } from '../env/protocol.js';
import { alignOffset, coverCrop, cropRaster, type Rect } from './geometry/fit.js';
import { MAX_CELL_PIXELS, MAX_CELLS, MAX_PIXELS, MAX_TEXT_CELLS, withinPixelBudget } from './geometry/limits.js';
import { fitPixels, resize, type Size } from './geometry/resize.js';
import { enlargedTextUnits, enlargesText, TEXT_DEFAULT_COLUMNS } from './geometry/text-size.js';
import {
  cellRows,
  clampVisible,
  cropRows,
  type PixelRows,
  SIXEL_BAND,
  scaledRows,
  sixelRows,
  type VisibleRows,
  visibleLines,
} from './geometry/visible.js';
import { type RenderOptions, wrapOf } from './options.js';
import { iterm2Sequences } from './pixels/iterm2.js';
import { kittyImageId, kittySequences } from './pixels/kitty.js';
import { MAX_PLACEHOLDER_CELLS, placeholderImageId256, placeholderRows } from './pixels/kitty-placeholder.js';
import { encodePng } from './pixels/png.js';
import { encodeSixel, padRaster } from './pixels/sixel.js';
import { blocksLines } from './text/blocks.js';
import { brailleLines } from './text/braille.js';
import { symbolsLines } from './text/symbols.js';
import { CELL_GRID } from './text/symbols-glyphs.js';
import { resampleForSymbols } from './text/symbols-resample.js';

export { DEFAULT_CELL_PIXELS } from '../core/primitives.js';

/**
 * The smallest cell height (pixels) taken for granted when the terminal's is unknown, to bound
 * the rows a sixel picture can reach (xterm's smallest common font, 6x13 `fixed`, is 13 px tall).
 */
export const MIN_CELL_HEIGHT = 12;

/** Where a picture goes: the resampled size (in the renderer's own units) and the cells it covers. */
export interface Layout {
  /** Size to resample to: pixels for graphics, dots for braille, half-cells for blocks. */
  readonly units: Size;
  /** Cells covered on screen. */
  readonly columns: number;
  readonly rows: number;
  /** `fit: 'cover'`: the part of the source that is drawn (absent: all of it). */
  readonly crop?: Rect;
  /** Columns right of the cursor where the picture starts (`align` within the box's columns); absent: 0. */
  readonly offset?: number;
  /**
   * Sixel in whole cells (`wholeCells` with `background`): the picture's own size (or the largest
   * of its aspect that fits) inside `units`, drawn at their top-left, the rest painted in
   * `background`. Absent: the picture is `units`.
   */
  readonly picture?: Size;
}

/** Units per cell of a protocol, for a cell size. */
function unitsPerCell(protocol: Protocol, cell: Size): Size {
  if (protocol === 'braille') return { width: 2, height: 4 };
  if (protocol === 'blocks') return { width: 1, height: 2 };
  if (protocol === 'symbols') return { width: CELL_GRID, height: CELL_GRID };
  return cell;
}

function cellSize(options: RenderOptions): Size {
  const cell = options.cellPixels ?? DEFAULT_CELL_PIXELS;
  const ok = (v: unknown): boolean => typeof v === 'number' && Number.isFinite(v) && v > 0;
  if (!ok(cell.width) || !ok(cell.height)) {
    throw new RangeError(`cellPixels must have positive width and height, got ${JSON.stringify(cell)}`);
  }
  if (cell.width > MAX_CELL_PIXELS || cell.height > MAX_CELL_PIXELS)
    throw new RangeError(`cellPixels must be at most ${MAX_CELL_PIXELS} a side, got ${cell.width}x${cell.height}`);
  return cell;
}

/**
 * The box in screen pixels (`columns` x `rows` cells of `cellPixels`) a picture is fitted into,
 * whatever the protocol: `layout` measures a source in screen pixels and never enlarges it unless
 * `upscale`, so a source at least this large in both directions draws exactly as the full-size one
 * would. Decoders use it to decode no larger (a JPEG's DCT scaling). Undefined without a box.
 *
 * @example boxPixels({ columns: 100, rows: 30, cellPixels: { width: 9, height: 18 } }) // { width: 900, height: 540 }
 */
export function boxPixels(options: RenderOptions): Size | undefined {
  const cell = cellSize(options);
  const columns = boxCells(options.columns, 'columns');
  const rows = boxCells(options.rows, 'rows');
  if (columns === undefined || rows === undefined) return undefined;
  return { width: Math.ceil(columns * cell.width), height: Math.ceil(rows * cell.height) };
}

/** Source pixels a text picture's unit is decoded from, at least, on each axis (see `decodeBox`). */
const TEXT_DECODE_PIXELS = 2;

/**
 * The box a decoder may shrink a picture to (JPEG's DCT scaling, PNG's averaging) before `layout`
 * resamples it for `protocol`, without losing detail: at least one source pixel for every unit the
 * layout resamples to, on both axes. A pixel picture, or a text picture not enlarged, is fitted in
 * screen pixels: `boxPixels`. A text picture with `upscale` (the CLI's `--width`/`--height`) fills
 * its box in the renderer's units (blocks 1x2 a cell, braille 2x4, symbols 8x8), whatever the
 * source's size, so a 4000-pixel photo drawn 100 columns wide in blocks needs 100 pixels across,
 * not 4000. The units of a cell need not have the pixel's shape (symbols: 8x8 in a 10x20 cell): the
 * side whose units are denser per pixel is asked for proportionally more, so the box holds for any
 * aspect, `fit` included (cover crops a part of the source: the same factor covers it). It asks
 * for `TEXT_DECODE_PIXELS` source pixels a unit: a text unit is an average of the pixels under it,
 * and a JPEG decoded at one pixel a unit samples rather than averages (34.8 dB against the full
 * decode resampled, on the committed Hubble photo as blocks 100 wide; 45.3 dB at two). A side
 * without a bound asks for one cell. Undefined when nothing bounds the picture.
 *
 * @example decodeBox('blocks', { columns: 100, upscale: true }) // { width: 200, height: 4 }
 */
export function decodeBox(protocol: Protocol, options: RenderOptions): Size | undefined {
  if (isGraphicsProtocol(protocol) || !options.upscale) return boxPixels(options);
  const cell = cellSize(options);
  const unit = unitsPerCell(protocol, cell);
  const columns = boxCells(options.columns, 'columns');
  const rows = boxCells(options.rows, 'rows');
  if (columns === undefined && rows === undefined) return undefined;
  // Units per screen pixel across and down; a side denser than the other needs more source pixels.
  const across = unit.width / cell.width;
  const down = unit.height / cell.height;
  const densest = Math.max(across, down) * TEXT_DECODE_PIXELS;
  // A side without a bound follows the aspect, but a symbols picture is at least a cell on it.
  return {
    width: Math.ceil(((columns ?? 1) * unit.width * densest) / across),
    height: Math.ceil(((rows ?? 1) * unit.height * densest) / down),
  };
}

function boxCells(value: number | undefined, what: string): number | undefined {
  return value === undefined ? undefined : positiveInteger(value, what, MAX_CELLS);
}

function checkProtocol(protocol: unknown): Protocol {
  if (!isProtocol(protocol)) {
    throw new TypeError(`unknown protocol ${JSON.stringify(protocol)}; expected one of ${PROTOCOLS.join(', ')}`);
  }
  return protocol;
}

/** Whether kitty output uses Unicode placeholders (explicitly, or by default inside tmux or screen, which know nothing of images at the cursor). */
export function usesPlaceholders(protocol: Protocol, options: RenderOptions): boolean {
  return protocol === 'kitty' && (options.placeholders ?? wrapOf(options) !== null);
}

/**
 * The size to resample a picture of `source` pixels to, and the cells it will cover.
 *
 * @example layout({ width: 1000, height: 600 }, 'braille', { columns: 50 }) // 100x60 dots, 50x15 cells
 */
export function layout(source: Size, protocol: Protocol, options: RenderOptions = {}): Layout {
  const placed = fittedLayout(source, protocol, options);
  const offset = alignOffset(placed.columns, options.columns, options.align);
  return offset > 0 ? { ...placed, offset } : placed;
}

function fittedLayout(source: Size, protocol: Protocol, options: RenderOptions): Layout {
  checkProtocol(protocol);
  const cell = cellSize(options);
  const unit = unitsPerCell(protocol, cell);
  let columns = boxCells(options.columns, 'columns');
  let rows = boxCells(options.rows, 'rows');
  const boxed = columns !== undefined && rows !== undefined;
  if (columns === undefined && rows === undefined) {
    columns = Math.max(1, Math.ceil(source.width / cell.width));
    rows = Math.max(1, Math.ceil(source.height / cell.height));
    // Text pictures: room to enlarge (text-size.ts), the height following the aspect.
    if (enlargesText(protocol) && !options.upscale && columns < TEXT_DEFAULT_COLUMNS) {
      columns = TEXT_DEFAULT_COLUMNS;
      rows = undefined;
    }
  }
  if (usesPlaceholders(protocol, options)) {
    columns = Math.min(columns ?? MAX_PLACEHOLDER_CELLS, MAX_PLACEHOLDER_CELLS);
    rows = Math.min(rows ?? MAX_PLACEHOLDER_CELLS, MAX_PLACEHOLDER_CELLS);
  }
  const unbounded = 1_000_000;
  // The source measured in units of this renderer (one unit is cell/unit screen pixels).
  const inUnits = {
    width: (source.width * unit.width) / cell.width,
    height: (source.height * unit.height) / cell.height,
  };
  const box = {
    width: (columns ?? unbounded) * unit.width,
    height: (rows ?? unbounded) * unit.height,
  };
  // A box of 10000 cells a side, upscaled into, would be billions of pixels: cap what is resampled.
  // Symbols resample 64 sub-pixels a cell: budgeted as pixels (16 megapixels is 250k cells, past any screen).
  const budget =
    isGraphicsProtocol(protocol) || protocol === 'symbols' ? MAX_PIXELS : MAX_TEXT_CELLS * unit.width * unit.height;
  const fit = options.fit ?? 'contain';
  if (fit !== 'contain' && boxed) {
    // cover and fill take the whole box (within the budget), cover from the middle of the source.
    let units = withinPixelBudget(box, budget);
    if (protocol === 'symbols') units = wholeCells(units);
    return {
      units,
      columns: Math.ceil(units.width / unit.width),
      rows: Math.ceil(units.height / unit.height),
      ...(fit === 'cover' ? { crop: coverCrop(source, inUnits, box) } : {}),
    };
  }
  const fitted =
    enlargesText(protocol) && !options.upscale
      ? enlargedTextUnits(protocol, source, inUnits, unit, box)
      : fitPixels(inUnits, box, options.upscale ?? false);
  const units = withinPixelBudget(fitted, budget);
  if (protocol === 'symbols') return symbolsLayout(box, units);
  const whole =
    protocol === 'sixel' && options.wholeCells
      ? options.background
        ? (paddedToCells(units, options.cellPixels, rows) ??
          keptInside(roundedToCells(units, options.cellPixels, columns, rows), units))
        : roundedToCells(units, options.cellPixels, columns, rows)
      : null;
  if (whole) return whole;
  if (protocol === 'sixel' && options.wholeBands) return wholeBandsLayout(units, unit);
  return {
    units,
    columns: Math.ceil(units.width / unit.width),
    rows: Math.ceil(units.height / unit.height),
  };
}

/**
 * A sixel layout of whole cells whose shape is the picture's within 1% where one is (without a
 * background to pad with, see `paddedToCells`), whole bands of six rows too where any height near
 * the picture's is both: of the whole-cell sizes within the box (or twice
 * the fitted size without one) whose aspect is within 1% of the picture's, the one nearest the
 * fitted size in area; where none is, the one of least aspect error (both at most twice or half
 * the fitted area, else the nearest whole cells). What a multiplexer drawing
 * sixel in its own cells shows without filling a margin with register 0, unstretched. Null for a
 * cell of fractional pixels, which has no whole-pixel multiple.
 */
function roundedToCells(
  units: Size,
  cell: Size | undefined,
  columns: number | undefined,
  rows: number | undefined,
): Layout | null {
  if (!cell || !Number.isInteger(cell.width) || !Number.isInteger(cell.height)) return null;
  const aspect = units.width / units.height;
  const maxColumns = columns ?? Math.max(1, Math.ceil((2 * units.width) / cell.width));
  const maxRows = rows ?? Math.max(1, Math.ceil((2 * units.height) / cell.height));
  // tmux reads a sixel's height in whole bands of six rows, then rounds that up to whole cells: a
  // height of whole cells that is not whole bands takes one cell more, filled with register 0. So
  // the tiers, best first: whole bands within 1% of the aspect, whole bands within 3%, any height
  // within 1%; then the least aspect error. Within a tier, the size nearest the fitted one.
  const tier = (banded: boolean, error: number): number =>
    banded && error <= ASPECT_TOLERANCE
      ? 0
      : banded && error <= 3 * ASPECT_TOLERANCE
        ? 1
        : error <= ASPECT_TOLERANCE
          ? 2
          : 3;
  let best: { across: number; down: number; error: number; distance: number; tier: number } | null = null;
  for (let down = 1; down <= maxRows; down++) {
    const across = Math.min(maxColumns, Math.max(1, Math.round((down * cell.height * aspect) / cell.width)));
    const error = Math.abs((across * cell.width) / (down * cell.height) / aspect - 1);
    const distance = Math.abs(Math.log((across * cell.width * down * cell.height) / (units.width * units.height)));
    // Never more than twice or half the fitted area: a tiny picture keeps its nearest cells.
    if (distance > Math.LN2) continue;
    const rank = tier((down * cell.height) % SIXEL_BAND === 0, error);
    const better =
      best === null ||
      rank < best.tier ||
      (rank === best.tier && (rank === 3 ? error < best.error : distance < best.distance));
    if (better) best = { across, down, error, distance, tier: rank };
  }
  const nearest = (length: number, side: number, most: number) =>
    Math.min(Math.max(1, Math.round(length / side)), most);
  const { across, down } = best ?? {
    across: nearest(units.width, cell.width, maxColumns),
    down: nearest(units.height, cell.height, maxRows),
  };
  return { units: { width: across * cell.width, height: down * cell.height }, columns: across, rows: down };
}

/** How far a picture in whole cells may be from its own aspect: 1% (issue 24). */
const ASPECT_TOLERANCE = 0.01;

/**
 * A sixel layout of whole cells with the picture's own aspect: the cells are those the fitted
 * picture reaches (rounded up, so within the box it was fitted to), a row or two more where that
 * makes them whole bands of six rows (cells of 15 px: 7 rows are 105 px, 8 are 120; of 16 px, 9
 * rows), the picture drawn at its fitted size at their top-left and the margin painted in the
 * terminal's background (`Layout.picture`), so tmux has no margin to fill with register 0 and
 * nothing is stretched. Null for a cell of fractional pixels, and where no such rows are within
 * two of those reached (cells of 17 px: only every sixth row is whole bands) and the box.
 */
function paddedToCells(units: Size, cell: Size | undefined, rows: number | undefined): Layout | null {
  if (!cell || !Number.isInteger(cell.width) || !Number.isInteger(cell.height)) return null;
  const across = Math.max(1, Math.ceil(units.width / cell.width));
  const reached = Math.max(1, Math.ceil(units.height / cell.height));
  // Whole bands too (see roundedToCells), else tmux takes one cell more and fills it with register 0.
  const down = [reached, reached + 1, reached + 2].find(
    (d) => (d * cell.height) % SIXEL_BAND === 0 && d <= (rows ?? d),
  );
  if (down === undefined) return null;
  const canvas = { width: across * cell.width, height: down * cell.height };
  const padded = canvas.width !== units.width || canvas.height !== units.height;
  return { units: canvas, columns: across, rows: down, ...(padded ? { picture: units } : {}) };
}

/**
 * With a background to pad with, a whole-cell layout (`roundedToCells`) whose shape is not quite
 * the picture's keeps the picture's aspect: the largest size of its aspect inside the cells (at
 * most a few pixels less on one side, at most its fitted size), drawn at their top-left, the rest
 * painted in the background (`Layout.picture`). Null stays null.
 */
function keptInside(lay: Layout | null, units: Size): Layout | null {
  if (!lay) return null;
  const scale = Math.min(lay.units.width / units.width, lay.units.height / units.height, 1);
  const side = (length: number, most: number) => Math.min(most, Math.max(1, Math.round(length * scale)));
  const picture = { width: side(units.width, lay.units.width), height: side(units.height, lay.units.height) };
  const padded = picture.width !== lay.units.width || picture.height !== lay.units.height;
  return padded ? { ...lay, picture } : lay;
}

/**
 * A sixel sized to whole bands of six pixel rows (docs/render.md, "No band"): the height rounded
 * down to a multiple of six, the width following the aspect (to the nearest pixel), so a terminal
 * that paints the rest of a last band shorter than six rows (Konsole with register 0, foot with
 * black) has nothing to paint. A picture under six rows is left as it is.
 */
function wholeBandsLayout(units: Size, unit: Size): Layout {
  const height = units.height >= SIXEL_BAND ? units.height - (units.height % SIXEL_BAND) : units.height;
  const width = Math.max(1, Math.round((units.width * height) / units.height));
  return {
    units: { width, height },
    columns: Math.ceil(width / unit.width),
    rows: Math.ceil(height / unit.height),
  };
}

/** A symbols size rounded down to whole cells of `CELL_GRID` sub-pixels (at least one). */
function wholeCells(units: Size): Size {
  return {
    width: Math.max(1, Math.floor(units.width / CELL_GRID)) * CELL_GRID,
    height: Math.max(1, Math.floor(units.height / CELL_GRID)) * CELL_GRID,
  };
}

/**
 * The raster a layout draws: its crop (`fit: 'cover'`) resampled to its units (by `resample`;
 * symbols pictures use symbols-resample.ts); with `picture`, resampled to that and padded to the
 * units with `background` (opaque).
 *
 * @example const pixels = fittedRaster(raster, layout(raster, 'kitty', options))
 */
export function fittedRaster(
  raster: Raster,
  lay: Pick<Layout, 'units' | 'crop' | 'picture'>,
  resample: (raster: Raster, width: number, height: number) => Raster = resize,
  background: readonly [number, number, number] = [0, 0, 0],
): Raster {
  const source = lay.crop ? cropRaster(raster, lay.crop) : raster;
  if (!lay.picture) return resample(source, lay.units.width, lay.units.height);
  return padRaster(resample(source, lay.picture.width, lay.picture.height), lay.units, background);
}

/**
 * Whether kitty and iTerm2 pictures go 1:1 (their pixels, no cell counts for the terminal to scale
 * to): `exactPixels`, by default when the cell size is known; never with Unicode placeholders.
 */
export function drawsExactPixels(protocol: Protocol, options: RenderOptions): boolean {
  if (protocol !== 'kitty' && protocol !== 'iterm2') return false;
  if (usesPlaceholders(protocol, options)) return false;
  return options.exactPixels ?? options.cellPixels !== undefined;
}

/** Symbols: rounded to whole cells of 8x8 sub-pixels (within the box), so no cell is partly empty. */
function symbolsLayout(box: Size, units: Size): Layout {
  const columns = Math.min(Math.max(1, Math.round(units.width / CELL_GRID)), Math.floor(box.width / CELL_GRID));
  const rows = Math.min(Math.max(1, Math.round(units.height / CELL_GRID)), Math.floor(box.height / CELL_GRID));
  return { units: { width: columns * CELL_GRID, height: rows * CELL_GRID }, columns, rows };
}

/**
 * How many columns and rows a picture of this size will take, so a caller can move the cursor.
 * For sixel without `cellPixels` the rows are those of the assumed 10x20 cell, a guess: a sixel
 * keeps its pixel size whatever the cell, so on smaller cells it takes more rows (`reachRows`
 * bounds them; `flow` lets the terminal move the cursor instead).
 *
 * @example renderedCells({ width: 800, height: 600 }, 'kitty', { columns: 40, rows: 40 }) // { columns: 40, rows: 15 }
 */
export function renderedCells(
  source: Size,
  protocol: Protocol,
  options: RenderOptions = {},
): { columns: number; rows: number } {
  const { columns, rows } = layout(source, protocol, options);
  return { columns, rows };
}

/**
 * The rows below the cursor a laid-out picture can reach, to make room for it and to move past
 * it by counting. kitty (`r=`) and iTerm2 (`height=` cells) are scaled into their cells and text
 * takes its lines, so this is `layout.rows`; a sixel keeps its pixel size, so when the cell size
 * is unknown its rows are counted with cells of `MIN_CELL_HEIGHT` (an upper bound: blank rows
 * below the picture rather than text drawn over its bottom).
 *
 * @example reachRows(layout({ width: 96, height: 96 }, 'sixel', {}), 'sixel', {}) // 8 (96 / 12), not 5 (96 / 20)
 */
export function reachRows(lay: Layout, protocol: Protocol, options: RenderOptions = {}): number {
  if (protocol !== 'sixel' || options.cellPixels) return lay.rows;
  return Math.max(lay.rows, Math.ceil(lay.units.height / MIN_CELL_HEIGHT));
}

/** What `draw` returns: escape sequences to wrap for passthrough, and text lines to write as they are. */
export interface Drawing {
  readonly layout: Layout;
  /** Escape sequences (each wrapped on its own for a multiplexer). */
  readonly sequences: readonly string[];
  /** Text lines (braille, blocks, kitty placeholders), written after the sequences. */
  readonly lines: readonly string[];
  /** The kitty image id used, if any. */
  readonly imageId?: number;
}

/**
 * The parts of a picture (used by `toTerminal` and `frame`): the raster fitted, resampled and
 * encoded, not yet joined or wrapped. With `visibleRows`, only those rows (geometry/visible.ts);
 * `layout` stays the whole picture's. The one place that dispatches to the encoders.
 */
export function draw(given: Raster, protocol: Protocol, options: RenderOptions = {}): Drawing {
  const raster = validateRaster(given); // its size read once (a getter may change)
  checkProtocol(protocol);
  const visible = options.visibleRows;
  const lay = layout(raster, protocol, options);
  const cells = { columns: lay.columns, rows: lay.rows };
  if (protocol === 'kitty' && usesPlaceholders(protocol, options)) {
    const fitted = fittedRaster(raster, lay, resize, options.background);
    const depth = options.colorDepth === '256' ? '256' : 'truecolor';
    const imageId = options.imageId ?? (depth === '256' ? placeholderImageId256() : kittyImageId());
    const sequences = kittySequences(fitted, {
      imageId,
      ...cells,
      virtual: true,
      ...(options.kittyShortLived ? { shortLived: true } : {}),
    });
    const rows = placeholderRows(imageId, lay.columns, lay.rows, depth);
    return { layout: lay, sequences, lines: visible ? visibleLines(rows, visible) : rows, imageId };
  }
  if (protocol === 'kitty' || protocol === 'iterm2' || protocol === 'sixel') {
    // Cropped: the same pixels and scale as the whole picture (its `fit` crop, 1:1 or into cells), fewer rows.
    const fitted = fittedRaster(raster, lay, resize, options.background);
    return { layout: lay, lines: [], ...pixelSequences(fitted, lay, protocol, options, visible) };
  }
  const fitted = fittedRaster(raster, lay, protocol === 'symbols' ? resampleForSymbols : resize, options.background);
  const lines = textLines(fitted, protocol, options);
  return { layout: lay, sequences: [], lines: visible ? visibleLines(lines, visible) : lines };
}

/**
 * The escape sequences of a pixel picture already fitted (`fitted`, laid out as `lay`), or of its
 * visible rows only (`visible`), starting at the cell of the first of them: kitty transmits the
 * whole picture and shows a source rectangle of it; sixel and iTerm2 send only the rows shown.
 * Empty when no row is visible. Drawn 1:1 (`drawsExactPixels`) a picture's rows are whole cells
 * and no cell count is given.
 */
function pixelSequences(
  fitted: Raster,
  lay: Layout,
  protocol: 'kitty' | 'iterm2' | 'sixel',
  options: RenderOptions,
  visible: VisibleRows | undefined,
): { sequences: string[]; imageId?: number } {
  const exact = drawsExactPixels(protocol, options);
  let rows: PixelRows | undefined;
  let shown = lay.rows;
  if (visible !== undefined) {
    const v = clampVisible(visible, lay.rows);
    if (v.rows === 0) return { sequences: [] };
    const cellHeight = cellSize(options).height;
    rows =
      protocol === 'sixel'
        ? sixelRows(fitted.height, cellHeight, v)
        : exact
          ? cellRows(fitted.height, cellHeight, v)
          : scaledRows(fitted.height, lay.rows, v);
    if (rows.height === 0) return { sequences: [] };
    shown = v.rows;
  }
  // 1:1: the picture's own pixels, no cell counts for the terminal to scale it to.
  const cells = exact ? {} : { columns: lay.columns, rows: shown };
  switch (protocol) {
    case 'kitty': {
      const imageId = options.imageId ?? kittyImageId();
      const sequences = kittySequences(fitted, {
        imageId,
        ...cells,
        keepCursor: options.keepCursor ?? false,
        ...(rows ? { source: { x: 0, y: rows.y, width: fitted.width, height: rows.height } } : {}),
        ...(options.kittyFile ? { file: options.kittyFile } : {}),
        ...(options.kittyShortLived ? { shortLived: true } : {}),
      });
      return { sequences, imageId };
    }
    case 'iterm2': {
      const png = encodePng(rows ? cropRows(fitted, rows) : fitted);
      const size = exact ? { pixels: { width: fitted.width, height: rows?.height ?? fitted.height } } : cells;
      return { sequences: iterm2Sequences(png, { ...size, multiplexer: wrapOf(options) }) };
    }
    case 'sixel':
      // Half-transparent pixels blend onto the terminal's own background (the probe's OSC 11
      // answer); fully transparent ones stay unpainted (P2=1) and show it as it is, or, where the
      // terminal does not honour P2=1, are painted in that background.
      return {
        sequences: [
          encodeSixel(rows ? cropRows(fitted, rows) : fitted, {
            sixelColors: options.sixelColors,
            ...(options.background ? { background: options.background } : {}),
            ...(options.sixelTransparency === false ? { transparency: false } : {}),
            // tmux drawing the sixel itself fills what it adds below with register 0: the background.
            ...(options.wholeCells && options.background ? { registerZero: options.background } : {}),
          }),
        ],
      };
  }
}

/** A text picture's lines. */
function textLines(fitted: Raster, protocol: 'braille' | 'blocks' | 'symbols', options: RenderOptions): string[] {
  switch (protocol) {
    case 'braille':
      return brailleLines(fitted, { colorDepth: legacyDepth(options.colorDepth), background: options.background });
    case 'blocks':
      return blocksLines(fitted, { colorDepth: legacyDepth(options.colorDepth), background: options.background });
    case 'symbols':
      return symbolsLines(fitted, {
        colorDepth: options.colorDepth,
        background: options.background,
        ...(options.symbols ? { symbols: options.symbols } : {}),
      });
  }
}

/** Braille and blocks know no 16-colour depth: they draw it with the 256-colour palette. */
function legacyDepth(color: RenderOptions['colorDepth']): RenderOptions['colorDepth'] {
  return color === '16' ? '256' : color;
}

/**
 * The bytes that show `raster` with `protocol` at the cursor: fitted into the box, resampled,
 * encoded and wrapped for `wrap` passthrough. Text pictures are lines joined by '\n'
 * (no newline after the last).
 *
 * @example process.stdout.write(toTerminal(raster, 'kitty', { columns: 40, rows: 12, cellPixels: { width: 9, height: 18 } }) + '\n')
 */
export function toTerminal(raster: Raster, protocol: Protocol, options: RenderOptions = {}): string {
  const d = draw(raster, protocol, options);
  const offset = d.layout.offset ?? 0;
  return (
    (d.lines.length === 0 ? cursorForward(offset) : '') +
    wrapForMultiplexer(d.sequences, wrapOf(options)) +
    indentLines(d.lines, offset).join('\n')
  );
}

/** Moves the cursor `columns` right (nothing for 0): where an aligned pixel picture starts. */
export function cursorForward(columns: number): string {
  return columns > 0 ? `\x1b[${columns}C` : '';
}

/** Text lines moved right by `columns` spaces (spaces, so an aligned text picture survives a pipe). */
export function indentLines(lines: readonly string[], columns: number): string[] {
  if (columns <= 0) return [...lines];
  const pad = ' '.repeat(columns);
  return lines.map((line) => pad + line);
}

/** A renderer for one protocol. */
export interface Backend {
  readonly protocol: Protocol;
  /** The bytes that draw `raster` (as `toTerminal` with this protocol). */
  render(raster: Raster, options?: RenderOptions): string;
}

/**
 * The backend for a protocol; throws a `TypeError` naming the accepted values for anything else.
 *
 * @example backend('braille').render(raster, { columns: 40 })
 */
export function backend(protocol: Protocol): Backend {
  const p = checkProtocol(protocol);
  return Object.freeze({
    protocol: p,
    render: (raster: Raster, options: RenderOptions = {}) => toTerminal(raster, p, options),
  });
}
