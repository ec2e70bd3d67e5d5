/**
 * A plan as the options render's encoders take: the one place a plan becomes `RenderOptions`, and
 * with the plan the one way a report becomes options (there is no second mapper). Only the chosen
 * protocol's encoder options are set.
 */
import { writePictureFile } from '../core/graphics-file.js';
import type { RenderOptions } from '../render/options.js';
import type { KittyFileSink } from '../render/pixels/kitty.js';
import type { Plan } from './types.js';

/** Options a drawing call may add to a plan's: a kitty image id, the cursor kept, the rows shown. */
export type DrawOptions = Pick<RenderOptions, 'imageId' | 'keepCursor' | 'visibleRows'>;

/**
 * The render options a plan stands for (`toTerminal(raster, plan.protocol, renderOptionsOf(plan))`
 * draws what `toTerminal(raster, plan)` does). `fileSink` makes kitty's file sink where the plan
 * sends pixels by file (render's `kittyFileSink`; passed in, so this stays free of I/O).
 *
 * @example renderOptionsOf(planDrawing(report, { columns: 40 }), kittyFileSink).columns // 40
 */
export function renderOptionsOf(plan: Plan, fileSink?: () => KittyFileSink): RenderOptions {
  const e = plan.encoder;
  const base: RenderOptions = {
    ...(plan.columns !== undefined ? { columns: plan.columns } : {}),
    ...(plan.rows !== undefined ? { rows: plan.rows } : {}),
    ...(plan.upscale ? { upscale: true } : {}),
    ...(plan.fit !== 'contain' ? { fit: plan.fit } : {}),
    ...(plan.align !== 'left' ? { align: plan.align } : {}),
    ...(plan.cellPixels ? { cellPixels: plan.cellPixels } : {}),
    wrap: plan.wrap,
    synchronizedOutput: plan.synchronizedOutput,
  };
  switch (e.protocol) {
    case 'kitty':
      return {
        ...base,
        placements: e.placements,
        placeholders: e.placeholders,
        colorDepth: e.placeholderColors,
        ...(e.shortLived ? { kittyShortLived: true } : {}),
        ...(e.byFile && fileSink ? { kittyFile: fileSink() } : {}),
      };
    case 'iterm2':
      return base;
    case 'sixel':
      return {
        ...base,
        ...(e.colors !== null ? { sixelColors: e.colors } : {}),
        ...(e.transparency ? {} : { sixelTransparency: false }),
        ...(e.wholeCells ? { wholeCells: true } : {}),
        ...(e.wholeBands ? { wholeBands: true } : {}),
        ...(e.background ? { background: e.background } : {}),
      };
    case 'symbols':
      return {
        ...base,
        colorDepth: e.colorDepth,
        symbols: e.symbols,
        ...(e.background ? { background: e.background } : {}),
      };
    default:
      return { ...base, colorDepth: e.colorDepth, ...(e.background ? { background: e.background } : {}) };
  }
}

/**
 * The file sink the front door draws kitty-by-file with: each picture to a new file the terminal
 * reads and deletes (render's `kittyFileSink` without its disposer; core/graphics-file.ts).
 */
export function pictureFiles(): KittyFileSink {
  return writePictureFile;
}
