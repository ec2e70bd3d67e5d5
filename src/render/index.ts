/**
 * `termsight/render`: every encoder on its own, the sizing helpers and the multiplexer wrapping.
 * `toTerminal`, `flow`, `frame` and their types are on the front door. See
 * docs/render.md.
 */
export { isOpaque } from '../core/raster.js';
export { wrapForMultiplexer } from '../core/wrap.js';
export { MIN_CELL_HEIGHT, reachRows } from './backend.js';
export { encodeBlocks } from './blocks.js';
export { encodeBraille } from './braille.js';
export { encodeIterm2 } from './iterm2.js';
export { encodeKitty, kittyImageId, kittyPlace, kittyStore } from './kitty.js';
export { encodePng } from './png.js';
export { fitPixels, resize } from './resize.js';
export { encodeSixel } from './sixel.js';
export { encodeSymbols, type SymbolsOptions } from './symbols.js';
export { type Glyph, SYMBOL_SETS, type SymbolSet, type SymbolSetName } from './symbols-glyphs.js';
