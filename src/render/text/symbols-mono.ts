/**
 * Symbols without colour (`colorDepth: 'none'`): each cell is the glyph whose ink best matches the
 * sub-pixels that stand out from the terminal's background, drawn in the terminal's own
 * foreground. A sub-pixel stands out where its level against the background (as braille judges
 * dots: the largest channel distance, scaled to the background's room) is at least 128;
 * transparent ones never do. The glyph is the one with the fewest sub-pixels wrong (ties: the
 * set's order, so an empty cell is a space). Pure code.
 */
import { blendChannel } from '../../core/blend.js';
import type { Raster } from '../../core/raster.js';
import { channelLevel } from './channel-level.js';
import type { SymbolSet } from './symbols-glyphs.js';
import { CELL_GRID, popcount32 } from './symbols-glyphs.js';

/**
 * The lines of a monochrome symbols picture of `raster` (8x8 sub-pixels a cell; a last partial
 * cell reads its missing sub-pixels as transparent).
 *
 * @example monoSymbolLines(raster, SYMBOL_SETS.block, [0, 0, 0])
 */
export function monoSymbolLines(
  raster: Raster,
  set: SymbolSet,
  background: readonly [number, number, number],
): string[] {
  const { width, height, data } = raster;
  const columns = Math.ceil(width / CELL_GRID);
  const rows = Math.ceil(height / CELL_GRID);
  const glyphs = set.glyphs;
  const lo = Int32Array.from(glyphs, (g) => g.mask.lo | 0);
  const hi = Int32Array.from(glyphs, (g) => g.mask.hi | 0);
  const [br, bgc, bb] = background;
  const lines: string[] = [];
  for (let cy = 0; cy < rows; cy++) {
    let line = '';
    for (let cx = 0; cx < columns; cx++) {
      let litLo = 0;
      let litHi = 0;
      for (let y = 0; y < CELL_GRID; y++) {
        const py = cy * CELL_GRID + y;
        if (py >= height) break;
        for (let x = 0; x < CELL_GRID; x++) {
          const px = cx * CELL_GRID + x;
          if (px >= width) break;
          const p = (py * width + px) * 4;
          const a = data[p + 3];
          if (a < 128) continue;
          const level = Math.max(
            channelLevel(blendChannel(data[p], br, a), br),
            channelLevel(blendChannel(data[p + 1], bgc, a), bgc),
            channelLevel(blendChannel(data[p + 2], bb, a), bb),
          );
          if (level < 128) continue;
          const bit = (y & 3) * 8 + x;
          if (y < 4) litLo |= 1 << bit;
          else litHi |= 1 << bit;
        }
      }
      let best = 0;
      let bestWrong = 65;
      for (let g = 0; g < glyphs.length; g++) {
        const wrong = popcount32(lo[g] ^ litLo) + popcount32(hi[g] ^ litHi);
        if (wrong < bestWrong) {
          bestWrong = wrong;
          best = g;
        }
      }
      line += glyphs[best].char;
    }
    lines.push(line);
  }
  return lines;
}
