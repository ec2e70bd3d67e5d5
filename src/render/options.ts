/**
 * Options every renderer understands. Each is optional; a renderer documents its defaults.
 */

import type { CellSize, ColorDepth, Rgb, Wrap } from '../core/primitives.js';
import type { Align, FitMode } from './geometry/fit.js';
import type { VisibleRows } from './geometry/visible.js';
import type { KittyFileSink } from './pixels/kitty.js';
import type { SymbolSet, SymbolSetName } from './text/symbols-glyphs.js';

export type { ColorDepth } from '../core/primitives.js';

/** How to render a raster. */
export interface RenderOptions {
  /**
   * kitty: send the pixels by a temporary file the terminal reads (`t=t`) instead of through the
   * pty, written by this sink (`kittyFileSink()`); only where the report says `kittyLocalFile`.
   * Default: inline.
   */
  readonly kittyFile?: KittyFileSink | undefined;
  /** Box to fit into, in cells. Default: the raster's own size in cells (never upscaled unless `upscale`). */
  readonly columns?: number | undefined;
  readonly rows?: number | undefined;
  /** Allow enlarging a small raster to fill the box. Default false. */
  readonly upscale?: boolean;
  /**
   * How the picture takes the box: 'contain' (default: aspect kept, inside the box), 'cover'
   * (aspect kept, the box filled, the middle kept where it sticks out) or 'fill' (stretched to
   * the box). 'cover' and 'fill' enlarge as needed and need both `columns` and `rows`.
   */
  readonly fit?: FitMode;
  /** Where a picture narrower than `columns` sits: 'left' (default), 'center' or 'right'. */
  readonly align?: Align;
  /**
   * kitty and iTerm2: send exactly the pixels the picture occupies and let the terminal draw them
   * 1:1 (kitty without `c=`/`r=`, iTerm2 `width=Npx`), instead of asking it to scale the picture
   * to its cells (which blurs it where the real cell is fractional). Default: when `cellPixels` is
   * given (the probe measured the cell). Unicode placeholders always give cells.
   */
  readonly exactPixels?: boolean;
  /** One cell in pixels (the probe's `cellPixels`). Default {width: 10, height: 20}. */
  readonly cellPixels?: CellSize | undefined;
  /** Text renderers (braille, blocks, symbols): colour depth for foreground/background. Default 'truecolor'. */
  readonly colorDepth?: ColorDepth | undefined;
  /**
   * Symbols: the glyphs to draw with, a set or names of built-in sets (`SYMBOL_SETS`). Default
   * 'block' (half blocks, quadrants, eighths: what every terminal drawing block elements shows).
   */
  readonly symbols?: SymbolSet | readonly SymbolSetName[];
  /**
   * Sixel: make the picture whole cells of `cellPixels`, for a multiplexer that draws sixel itself
   * in its cells (tmux 3.4+), which otherwise fills the rest of the last cell row and column with
   * colour register 0. With `background` the picture keeps its aspect (and its size where the
   * cells it reaches, or a row or two more, are whole bands), the cells are padded with the
   * background and register 0 is the background; without, its size is rounded to the nearest
   * whole cells (a stretch of up to 3%). Needs `cellPixels`. Default false (docs/render.md, "No band").
   */
  readonly wholeCells?: boolean;
  /**
   * Sixel: make the picture's height whole bands of six pixel rows (rounded down, the width
   * following the aspect), for a terminal that paints the rest of a shorter last band (Konsole
   * with colour register 0, foot with black: the report's `sixelWholeBands`). Default false.
   */
  readonly wholeBands?: boolean;
  /** Sixel: colour registers the terminal has (the report's `sixelColors`). Default 256. */
  readonly sixelColors?: number | undefined;
  /**
   * Wrap every escape sequence for this multiplexer's passthrough (tmux, screen), to reach the
   * terminal outside it. Default none. (Not the report's `multiplexer`, which says who is in
   * between: `planDrawing` decides from it whether to wrap.)
   */
  readonly wrap?: Wrap | undefined;
  /** @deprecated The old name of `wrap` (read when `wrap` is absent). */
  readonly multiplexer?: Wrap | undefined;
  /** kitty: image id to use; default a random id unlikely to collide with another program's. */
  readonly imageId?: number | undefined;
  /** kitty: whether the terminal keeps images and places them again (the report's `placements`). */
  readonly placements?: boolean;
  /**
   * The terminal's background (the probe's OSC 11 answer). Text pictures blend transparent pixels
   * onto it (default black); sixel blends half-transparent pixels onto it and leaves transparent ones
   * unpainted (P2=1), so they show it (default: painted in their own colour).
   */
  readonly background?: Rgb | undefined;
  /**
   * sixel: whether the terminal honours P2=1 (leaves unpainted pixels alone). Default true. False:
   * transparent pixels are painted in `background` (default black) instead, see `SixelOptions.transparency`.
   */
  readonly sixelTransparency?: boolean | undefined;
  /**
   * kitty: mark the picture short-lived (`N=1`: kept out of the terminal's disk cache), for redrawn
   * frames and previews, where the terminal has the hint (kitty 0.48+, Ghostty; the database's
   * fact). Default false.
   */
  readonly kittyShortLived?: boolean;
  /** kitty: leave the cursor where it was (`C=1`) instead of moving it past the picture. Default false. */
  readonly keepCursor?: boolean;
  /** kitty: draw with Unicode placeholders (`U=1`). Default: only when `wrap` is 'tmux' or 'screen'. */
  readonly placeholders?: boolean;
  /**
   * Only these rows of the picture are drawn (from `top`, `rows` of them), starting at the cursor:
   * a picture partly scrolled out of a viewport. Default: every row. See crop.ts.
   */
  readonly visibleRows?: VisibleRows;
  /** `frame`: wrap each redraw in synchronized output (mode 2026), where the terminal has it. Default false. */
  readonly synchronizedOutput?: boolean;
}

/**
 * The multiplexer to wrap for: `wrap`, else the deprecated `multiplexer`, else none.
 *
 * @example wrapOf({ multiplexer: 'tmux' }) // 'tmux'
 */
export function wrapOf(options: Pick<RenderOptions, 'wrap' | 'multiplexer'>): Wrap {
  return options.wrap !== undefined ? options.wrap : (options.multiplexer ?? null);
}
