/**
 * A report's answers as the options every renderer takes — shared by the terminal-image drop-in
 * and the Ink component, which both draw for an application from a probed report.
 */

import type { RenderOptions } from '../render/options.js';
import { kittyFileSink } from '../render/pixels/kitty-file.js';
import { inWholeCells, pictureWrap } from '../report/picture-wrap.js';
import type { Report } from '../report/types.js';

/**
 * The render options a report implies: cell size, sixel colour registers and transparency (whole cells where tmux draws sixel), placements, the
 * multiplexer to wrap for (only when its passthrough is proven), colour depth, background, and the
 * symbol sets safe on the terminal (for a symbols picture).
 *
 * @example renderOptionsFor(report).cellPixels // { width: 10, height: 19 }
 */
export function renderOptionsFor(report: Report): RenderOptions {
  return {
    cellPixels: report.cellPixels ?? undefined,
    sixelColors: report.sixelColors ?? undefined,
    ...(report.sixelTransparency ? {} : { sixelTransparency: false }),
    ...(inWholeCells(report.multiplexer) ? { wholeCells: true } : {}),
    ...(report.sixelWholeBands ? { wholeBands: true } : {}),
    placements: report.placements,
    ...(report.kittyLocalFile ? { kittyFile: kittyFileSink() } : {}),
    multiplexer: pictureWrap(report.multiplexer, true),
    colorDepth: report.truecolor ? 'truecolor' : '256',
    background: report.background?.rgb,
    symbols: report.symbols,
  };
}
