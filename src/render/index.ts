/**
 * `termsight/render`: every encoder on its own, the sizing helpers and the multiplexer wrapping.
 * `toTerminal`, `flow`, `frame` and their types are on the front door. See
 * docs/render.md.
 */
export { isOpaque } from '../core/raster.js';
export { wrapForMultiplexer } from '../core/wrap.js';
export { type AnimateOptions, type AnimationHandle, animate } from './animation.js';
export { MIN_CELL_HEIGHT, reachRows } from './backend.js';
export { ALIGNMENTS, type Align, FIT_MODES, type FitMode } from './geometry/fit.js';
export { fitPixels, resize } from './geometry/resize.js';
export { encodeIterm2 } from './pixels/iterm2.js';
export { encodeKitty, type KittyFileSink, kittyImageId, kittyPlace, kittyStore } from './pixels/kitty.js';
export {
  type AnimationFrame,
  type KittyAnimation,
  type KittyAnimationOptions,
  kittyAnimation,
  kittyStopAnimation,
} from './pixels/kitty-animation.js';
export { KITTY_FILES_READ_MS, kittyFileSink, kittyFilesRead, removeKittyFiles } from './pixels/kitty-file.js';
export { encodePng } from './pixels/png.js';
export { encodeSixel } from './pixels/sixel.js';
export { encodeBlocks } from './text/blocks.js';
export { encodeBraille } from './text/braille.js';
export { encodeSymbols, type SymbolsOptions } from './text/symbols.js';
export { type Glyph, SYMBOL_SETS, type SymbolSet, type SymbolSetName } from './text/symbols-glyphs.js';
