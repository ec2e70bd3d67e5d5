/**
 * `termsight/render`: every encoder on its own, the sizing helpers and the multiplexer wrapping.
 * `toTerminal`, `flow`, `frame` and their types are on the front door. See
 * docs/render.md.
 */
export { isOpaque } from '../core/raster.js';
export { wrapForMultiplexer } from '../core/wrap.js';
export { type AnimateOptions, type AnimationHandle, animate } from './animation.js';
export { MIN_CELL_HEIGHT, reachRows } from './backend.js';
export { encodeBlocks } from './blocks.js';
export { encodeBraille } from './braille.js';
export { ALIGNMENTS, type Align, FIT_MODES, type FitMode } from './fit.js';
export { encodeIterm2 } from './iterm2.js';
export { encodeKitty, type KittyFileSink, kittyImageId, kittyPlace, kittyStore } from './kitty.js';
export {
  type AnimationFrame,
  type KittyAnimation,
  type KittyAnimationOptions,
  kittyAnimation,
  kittyStopAnimation,
} from './kitty-animation.js';
export { KITTY_FILES_READ_MS, kittyFileSink, kittyFilesRead, removeKittyFiles } from './kitty-file.js';
export { encodePng } from './png.js';
export { fitPixels, resize } from './resize.js';
export { encodeSixel } from './sixel.js';
export { encodeSymbols, type SymbolsOptions } from './symbols.js';
export { type Glyph, SYMBOL_SETS, type SymbolSet, type SymbolSetName } from './symbols-glyphs.js';
