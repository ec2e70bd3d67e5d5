/**
 * Pictures partly scrolled out of a viewport (a list in a TUI): only the rows still visible are
 * drawn, so nothing overflows onto the text around the viewport. Each protocol crops its own way
 * (docs/render.md, "Cropped pictures"):
 * - kitty by a source rectangle (`x,y,w,h` in the image's pixels, `r=` the visible rows): the
 *   pixels stay whole, so a stored image is placed again with another rectangle, not re-sent;
 *   drawn 1:1 (the cell size known) it keeps its pixel size, so its rows are whole cells;
 * - sixel by whole bands: a sixel is drawn at its pixel size in bands of six rows, so the crop
 *   keeps only bands that end inside the last visible row (a band reaching past it would paint
 *   over the line below the viewport);
 * - iTerm2 by a cropped image (the protocol has no source rectangle);
 * - text pictures (and kitty's Unicode placeholders, which are text) by whole lines.
 * This file is the geometry of it (which rows, which pixels); backend.ts encodes them, in the one
 * place that dispatches to the encoders. Pure, no I/O.
 */
import type { Raster } from '../../core/raster.js';

/** The rows of a picture that are visible: from `top` (0: the picture's first row), `rows` of them. */
export interface VisibleRows {
  readonly top: number;
  readonly rows: number;
}

/** The pixel rows of a raster to draw: from `y`, `height` of them (0: nothing). */
export interface PixelRows {
  readonly y: number;
  readonly height: number;
}

/** The height of one sixel band in pixels. */
export const SIXEL_BAND = 6;

/**
 * `visible` clamped to a picture of `totalRows` rows (whole rows, never negative). A viewport may
 * say more than the picture has; what lies outside it is not drawn.
 *
 * @example clampVisible({ top: -2, rows: 10 }, 6) // { top: 0, rows: 6 }
 */
export function clampVisible(visible: VisibleRows, totalRows: number): VisibleRows {
  const first = Math.max(0, Math.min(totalRows, Math.floor(visible.top)));
  const end = Math.max(first, Math.min(totalRows, Math.floor(visible.top) + Math.floor(visible.rows)));
  return { top: first, rows: end - first };
}

/**
 * The pixel rows of a picture `height` pixels tall, scaled into `totalRows` cells (kitty's `r=`,
 * iTerm2's `height=`), that the visible rows show: the same scale as the whole picture, so the
 * visible part lines up with where it was.
 *
 * @example scaledRows(100, 5, { top: 1, rows: 2 }) // { y: 20, height: 40 }
 */
export function scaledRows(height: number, totalRows: number, visible: VisibleRows): PixelRows {
  const v = clampVisible(visible, totalRows);
  const y = Math.round((v.top * height) / totalRows);
  const end = Math.round(((v.top + v.rows) * height) / totalRows);
  return { y, height: Math.max(0, end - y) };
}

/**
 * A sixel's pixel rows for the visible rows: a sixel keeps its pixel size, so row `r` is pixels
 * `r * cellHeight` up to the next row. When the bottom is cut off, only whole bands of six pixels
 * are kept, so no band reaches below the last visible row.
 *
 * @example sixelRows(100, 20, { top: 1, rows: 2 }) // { y: 20, height: 36 }: 40 pixels, 6 whole bands
 */
export function sixelRows(height: number, cellHeight: number, visible: VisibleRows): PixelRows {
  const totalRows = Math.ceil(height / cellHeight);
  const v = clampVisible(visible, totalRows);
  const y = Math.min(height, v.top * cellHeight);
  const end = Math.min(height, (v.top + v.rows) * cellHeight);
  if (end <= y) return { y, height: 0 };
  // Not cut off at the bottom: the picture ends as it always did.
  if (end === height) return { y, height: end - y };
  return { y, height: Math.floor((end - y) / SIXEL_BAND) * SIXEL_BAND };
}

/**
 * The pixel rows of a picture drawn 1:1 (`height` pixels in cells `cellHeight` tall, as kitty and
 * iTerm2 draw it when the cell size is known) that the visible rows show: row `r` is pixels
 * `r * cellHeight` up to the next row, the last row as far as the picture goes.
 *
 * @example cellRows(48, 10, { top: 1, rows: 2 }) // { y: 10, height: 20 }
 */
export function cellRows(height: number, cellHeight: number, visible: VisibleRows): PixelRows {
  const v = clampVisible(visible, Math.ceil(height / cellHeight));
  const y = Math.min(height, v.top * cellHeight);
  const end = Math.min(height, (v.top + v.rows) * cellHeight);
  return { y, height: Math.max(0, end - y) };
}

/**
 * Rows `from` to `from + height` of a raster, as a raster of their own.
 *
 * @example cropRows(raster, { y: 20, height: 40 }).height // 40
 */
export function cropRows(raster: Raster, rows: PixelRows): Raster {
  const stride = raster.width * 4;
  const start = rows.y * stride;
  return { width: raster.width, height: rows.height, data: raster.data.slice(start, start + rows.height * stride) };
}

/** Text lines (or placeholder rows) of the visible rows. */
export function visibleLines(lines: readonly string[], visible: VisibleRows): string[] {
  const v = clampVisible(visible, lines.length);
  return lines.slice(v.top, v.top + v.rows);
}
