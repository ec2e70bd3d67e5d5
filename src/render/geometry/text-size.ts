/**
 * How large a symbols picture is drawn when nothing asks for a size: the rule that enlarges small
 * pictures (`TEXT_CELL_DOTS` also names braille's and blocks' dots; see `enlargesText`). A text cell is coarse (it resolves a few source pixels, not
 * the 10x20 of a pixel picture), so a picture drawn at its own size in cells is a smudge (a 70x46
 * icon would be 7x3 cells). Rule: a text picture is enlarged, aspect kept, until each source pixel
 * has one dot of the renderer (`TEXT_CELL_DOTS`), or until it fills the box, whichever comes
 * first; without a box, up to `TEXT_DEFAULT_COLUMNS` columns. It is never made smaller than the
 * usual fit, and `upscale` (the CLI's explicit `--width`/`--height`) fills the box regardless.
 * Pure code. Reasoning: docs/render.md, "Size in cells".
 */
import type { Size } from './resize.js';
import { fitPixels } from './resize.js';

/** The text protocols. */
export type TextProtocol = 'braille' | 'blocks' | 'symbols';

/**
 * Source pixels one cell of each text picture resolves: braille 2x4 dots; blocks 1x2 half
 * cells; symbols 2x2 (the quadrants of the block set: eighths resolve finer along one axis only,
 * so 2x2 is what holds in both).
 */
export const TEXT_CELL_DOTS: Readonly<Record<TextProtocol, Size>> = Object.freeze({
  braille: Object.freeze({ width: 2, height: 4 }),
  blocks: Object.freeze({ width: 1, height: 2 }),
  symbols: Object.freeze({ width: 2, height: 2 }),
});

/** Without a box, a text picture is enlarged to at most this many columns (the classic terminal width). */
export const TEXT_DEFAULT_COLUMNS = 80;

/**
 * Whether the rule enlarges pictures of `protocol`: symbols, the text picture `show` and
 * `toTerminal` choose. Braille and blocks, drawn only when asked for by name, keep their own size
 * in cells (never enlarged unless `upscale`), as they always have: callers size them themselves.
 */
export function enlargesText(protocol: string): protocol is 'symbols' {
  return protocol === 'symbols';
}

/**
 * The size, in the renderer's units, of a text picture of `source` pixels (`inUnits`: the source
 * measured in those units at the cell's shape; `unit`: units a cell) within `box` (units; a side
 * of `Infinity` is unbounded): the usual fit, enlarged by the rule above.
 *
 * @example enlargedTextUnits('symbols', { width: 70, height: 46 }, { width: 56, height: 18.4 }, { width: 8, height: 8 }, { width: 640, height: 192 }) // 35 columns of 8
 */
export function enlargedTextUnits(protocol: TextProtocol, source: Size, inUnits: Size, unit: Size, box: Size): Size {
  const fitted = fitPixels(inUnits, box, false);
  const dots = TEXT_CELL_DOTS[protocol];
  // One dot a source pixel: the picture's natural size in this renderer's units.
  const natural = {
    width: (source.width / dots.width) * unit.width,
    height: (source.height / dots.height) * unit.height,
  };
  const limit = { width: Math.min(box.width, natural.width), height: Math.min(box.height, natural.height) };
  if (!(limit.width >= 1 && limit.height >= 1)) return fitted;
  const enlarged = fitPixels(inUnits, limit, true);
  return enlarged.width > fitted.width || enlarged.height > fitted.height ? enlarged : fitted;
}
