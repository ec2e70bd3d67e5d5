/**
 * `termsight show --grid COLSxROWS`: several pictures as thumbnails side by side, each with its
 * file name under it (sanitized, cut to the thumbnail's width), as timg and chafa lay them out.
 * Pure: bytes out, no I/O. Text pictures are joined line by line (so a grid survives a pipe);
 * pixel pictures are drawn one by one at their column by cursor moves, each between save and
 * restore cursor (`frame` without reserving), after room for the whole row was made. See
 * docs/cli.md, "Grid".
 */
import type { Raster } from '../core/raster.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import { draw, layout, reachRows } from '../render/backend.js';
import { frame } from '../render/frame.js';
import { alignOffset } from '../render/geometry/fit.js';
import type { RenderOptions } from '../render/options.js';
import { displayName } from './show-plan.js';
import type { Grid } from './show-size.js';

/** Columns between two thumbnails. */
export const GRID_GAP = 1;

/** The cells of one thumbnail in a box of `box` cells: the columns shared out, one row of each kept for the name. */
export function gridCell(grid: Grid, box: { columns: number; rows: number }): { columns: number; rows: number } {
  const columns = Math.max(1, Math.floor((box.columns - (grid.columns - 1) * GRID_GAP) / grid.columns));
  const rows = Math.max(1, Math.floor(box.rows / grid.rows) - 1);
  return { columns, rows };
}

/** Characters that take no column (combining marks) or should not be shown at all (format characters: ZWJ, bidi, …). */
const ZERO_WIDTH = /\p{M}/u;
const FORMAT = /\p{Cf}/gu;
/** East Asian wide and fullwidth ranges and emoji: two columns each. */
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

/** Columns a character takes in a terminal (0, 1 or 2), by the usual wcwidth rules in brief. */
function columnsOf(ch: string): number {
  if (ZERO_WIDTH.test(ch)) return 0;
  return WIDE.test(ch) ? 2 : 1;
}

/**
 * A file name as a grid shows it: its last path component, made safe (`displayName`: no control or bidi character), format
 * characters removed, cut to `width` columns with `…` when longer. Returns the text and its width.
 *
 * @example gridName('holiday-photo-2026.jpg', 10) // { text: 'holiday-p…', columns: 10 }
 */
export function gridName(name: string, width: number): { text: string; columns: number } {
  // The file's own name, not its directories: a thumbnail has little room.
  const base = name === '-' ? name : (name.split('/').filter(Boolean).pop() ?? name);
  const clean = displayName(base).replace(FORMAT, '');
  const chars = Array.from(clean);
  const total = chars.reduce((sum, ch) => sum + columnsOf(ch), 0);
  if (total <= width) return { text: clean, columns: total };
  let text = '';
  let used = 0;
  for (const ch of chars) {
    const w = columnsOf(ch);
    if (used + w > width - 1) break;
    text += ch;
    used += w;
  }
  return width >= 1 ? { text: `${text}…`, columns: used + 1 } : { text: '', columns: 0 };
}

/** One thumbnail of a grid row. */
export interface GridPicture {
  readonly name: string;
  readonly raster: Raster;
}

/**
 * The bytes of one row of a grid: the pictures (at most `grid.columns`) side by side, each
 * centred in its cell unless `options.align` says otherwise, their names on the line below, the
 * cursor at the start of the line after that. kitty pictures' image ids are pushed to `imageIds`
 * (so an interrupted row can be deleted).
 */
export function gridRow(
  pictures: readonly GridPicture[],
  protocol: Protocol,
  options: RenderOptions,
  grid: Grid,
  box: { columns: number; rows: number },
  imageIds?: number[],
): string {
  const cell = gridCell(grid, box);
  const thumb: RenderOptions = { ...options, columns: cell.columns, rows: cell.rows, align: options.align ?? 'center' };
  const names = namesLine(pictures, cell.columns);
  if (!isGraphicsProtocol(protocol)) return `${textRow(pictures, protocol, thumb, cell.columns)}${names}\n`;
  // Room for the tallest thumbnail, then each drawn at its column from the row's top line.
  const height = Math.max(1, ...pictures.map((p) => reachRows(layout(p.raster, protocol, thumb), protocol, thumb)));
  let out = `\r${'\n'.repeat(height)}\x1b[${height}A`;
  for (const [i, picture] of pictures.entries()) {
    const x = i * (cell.columns + GRID_GAP);
    out += `\r${x > 0 ? `\x1b[${x}C` : ''}`;
    const drawn = frame(picture.raster, protocol, { ...thumb, reserve: false, synchronizedOutput: false });
    if (drawn.handle.imageId !== undefined) imageIds?.push(drawn.handle.imageId);
    out += drawn.output;
  }
  return `${out}\r\x1b[${height}B${names}\r\n`;
}

/** Text thumbnails joined line by line, each padded to its cell. */
function textRow(pictures: readonly GridPicture[], protocol: Protocol, thumb: RenderOptions, width: number): string {
  const drawn = pictures.map((p) => {
    const d = draw(p.raster, protocol, thumb);
    return { lines: d.lines, columns: d.layout.columns, offset: alignOffset(d.layout.columns, width, thumb.align) };
  });
  const height = Math.max(...drawn.map((d) => d.lines.length));
  let out = '';
  for (let r = 0; r < height; r++) {
    const parts = drawn.map((d) => {
      const line = d.lines[r];
      if (line === undefined) return ' '.repeat(width);
      return ' '.repeat(d.offset) + line + ' '.repeat(Math.max(0, width - d.offset - d.columns));
    });
    out += `${parts.join(' '.repeat(GRID_GAP)).trimEnd()}\n`;
  }
  return out;
}

/** The names under a row of thumbnails, each cut to its cell and centred like its picture. */
function namesLine(pictures: readonly GridPicture[], width: number): string {
  return pictures
    .map((p) => {
      const { text, columns } = gridName(p.name, width);
      const left = Math.floor((width - columns) / 2);
      return ' '.repeat(left) + text + ' '.repeat(width - columns - left);
    })
    .join(' '.repeat(GRID_GAP))
    .trimEnd();
}
