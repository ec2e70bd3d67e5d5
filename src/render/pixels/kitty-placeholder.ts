/**
 * kitty's Unicode placeholders: the picture is shown in cells holding U+10EEEE, whose
 * foreground colour names the image id and whose combining marks name the row and column of
 * the image each cell shows. Because the cells are ordinary text, a multiplexer (tmux) keeps,
 * scrolls, redraws and clears them with the pane; the image itself is sent once as a virtual
 * placement (`U=1`) through passthrough.
 *
 * Every cell carries both diacritics (kitty lets later cells inherit them from the cell to the
 * left, but tmux redraws parts of lines, and a part starting mid-row would lose its position).
 */

import { positiveInteger } from '../../core/positive-integer.js';

/** The placeholder character. */
export const PLACEHOLDER = '\u{10EEEE}';

/**
 * The row/column diacritics, in order: index n encodes row or column n. From kitty's
 * `rowcolumn-diacritics.txt` (combining class 230 marks of Unicode 6.0 without decompositions,
 * less those normalization may fuse); written here as runs of code points.
 */
const DIACRITIC_RUNS =
  '305 30D-30E 310 312 33D-33F 346 34A-34C 350-352 357 35B 363-36F 483-487 592-595 597-599 ' +
  '59C-5A1 5A8-5A9 5AB-5AC 5AF 5C4 610-617 657-65B 65D-65E 6D6-6DC 6DF-6E2 6E4 6E7-6E8 6EB-6EC ' +
  '730 732-733 735-736 73A 73D 73F-741 743 745 747 749-74A 7EB-7F1 7F3 816-819 81B-823 825-827 ' +
  '829-82D 951 953-954 F82-F83 F86-F87 135D-135F 17DD 193A 1A17 1A75-1A7C 1B6B 1B6D-1B73 ' +
  '1CD0-1CD2 1CDA-1CDB 1CE0 1DC0-1DC1 1DC3-1DC9 1DCB-1DCC 1DD1-1DE6 1DFE 20D0-20D1 20D4-20D7 ' +
  '20DB-20DC 20E1 20E7 20E9 20F0 2CEF-2CF1 2DE0-2DFF A66F A67C-A67D A6F0-A6F1 A8E0-A8F1 AAB0 ' +
  'AAB2-AAB3 AAB7-AAB8 AABE-AABF AAC1 FE20-FE26 10A0F 10A38 1D185-1D189 1D1AA-1D1AD 1D242-1D244';

function expandRuns(runs: string): number[] {
  const out: number[] = [];
  for (const run of runs.trim().split(/\s+/)) {
    const [a, b] = run.split('-').map((h) => parseInt(h, 16));
    for (let c = a; c <= (b ?? a); c++) out.push(c);
  }
  return out;
}

/** The 297 diacritic code points; index = row or column number. */
export const ROW_COLUMN_DIACRITICS: readonly number[] = Object.freeze(expandRuns(DIACRITIC_RUNS));

/** The most rows or columns a placeholder picture can address. */
export const MAX_PLACEHOLDER_CELLS = ROW_COLUMN_DIACRITICS.length;

const DIACRITIC_CHARS = ROW_COLUMN_DIACRITICS.map((c) => String.fromCodePoint(c));

/**
 * One placeholder cell: U+10EEEE, the row's diacritic, the column's, and a third naming the id's
 * top byte, written also when it is 0: kitty and Ghostty read an absent one as 0, iTerm2's 3.7
 * betas as -1 (sorokin-vladimir/tele#259), so the cell means the same id everywhere.
 *
 * @example placeholderCell(0, 1) // '\u{10EEEE}\u0305\u030D\u0305'
 */
export function placeholderCell(row: number, column: number, idHighByte = 0): string {
  if (!Number.isInteger(row) || row < 0 || row >= MAX_PLACEHOLDER_CELLS)
    throw new RangeError(`placeholder row must be 0..${MAX_PLACEHOLDER_CELLS - 1}, got ${row}`);
  if (!Number.isInteger(column) || column < 0 || column >= MAX_PLACEHOLDER_CELLS)
    throw new RangeError(`placeholder column must be 0..${MAX_PLACEHOLDER_CELLS - 1}, got ${column}`);
  return PLACEHOLDER + DIACRITIC_CHARS[row] + DIACRITIC_CHARS[column] + DIACRITIC_CHARS[idHighByte];
}

/**
 * The SGR parameters that make the foreground colour name an image id: 24-bit colour
 * `38;2;r;g;b` from the id's low 24 bits, or with `depth: '256'` the palette index (ids 1..255).
 */
export function placeholderColor(imageId: number, depth: 'truecolor' | '256' = 'truecolor'): string {
  positiveInteger(imageId, 'image id', 0xffffffff);
  if (depth === '256') {
    if (imageId > 255) throw new RangeError(`with 256 colours the image id must be 1..255, got ${imageId}`);
    return `38;5;${imageId}`;
  }
  return `38;2;${(imageId >>> 16) & 255};${(imageId >>> 8) & 255};${imageId & 255}`;
}

/**
 * The rows of placeholder text for a picture of `columns` x `rows` cells: each row sets the
 * id colour, writes its cells and resets the foreground (`SGR 39`). More than
 * `MAX_PLACEHOLDER_CELLS` columns or rows cannot be addressed: a `RangeError`.
 *
 * @example placeholderRows(0x123456, 2, 1) // ['\x1b[38;2;18;52;86m' + cell(0,0) + cell(0,1) + '\x1b[39m']
 */
export function placeholderRows(
  imageId: number,
  columns: number,
  rows: number,
  depth: 'truecolor' | '256' = 'truecolor',
): string[] {
  positiveInteger(columns, 'columns', MAX_PLACEHOLDER_CELLS);
  positiveInteger(rows, 'rows', MAX_PLACEHOLDER_CELLS);
  const sgr = `\x1b[${placeholderColor(imageId, depth)}m`;
  const high = depth === '256' ? 0 : imageId >>> 24;
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    let line = sgr;
    for (let c = 0; c < columns; c++) line += placeholderCell(r, c, high);
    lines.push(`${line}\x1b[39m`);
  }
  return lines;
}

/** A random image id that fits a 256-colour placeholder (1..255). */
export function placeholderImageId256(random: () => number = Math.random): number {
  return 1 + Math.floor(random() * 255);
}
