/**
 * Small types spelled out in many places, named once: what several layers pass around and that
 * knows nothing of terminals.
 */

/** A colour as red, green and blue, 0..255 each (the terminal's background, a palette entry). */
export type Rgb = readonly [number, number, number];

/** Whose passthrough escape sequences must be wrapped in to reach the outer terminal, or none. */
export type Wrap = 'tmux' | 'screen' | null;

/** One terminal cell in pixels. */
export interface CellSize {
  readonly width: number;
  readonly height: number;
}

/**
 * How many colours the terminal shows for text: none, 16 or 256 (indexed) or 24-bit. Only
 * symbols pictures draw with the 16 ANSI colours; braille and blocks draw '16' as '256'.
 */
export type ColorDepth = 'none' | '16' | '256' | 'truecolor';

/** The cell size assumed when the terminal's is unknown: 10x20 pixels. */
export const DEFAULT_CELL_PIXELS: CellSize = Object.freeze({ width: 10, height: 20 });

/** The most columns or rows a picture may be asked to cover (no terminal is wider or taller). */
export const MAX_CELLS = 10_000;
