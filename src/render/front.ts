/**
 * What the front door (`termsight`) draws with: the synchronous drawing calls, in one module so
 * the build can load them on the first call instead of at import. In the package `npm run build`
 * turns this module into a CommonJS file that the front door `require`s the first time one of
 * these is called (a synchronous load on every Node, so the calls stay synchronous);
 * `import('termsight')` then compiles none of the encoders. `termsight/render` and the CLI import
 * the encoders directly. See docs/architecture.md, "Load cost".
 */
export { animate } from './animation.js';
export { backend, decodeBox, renderedCells, toTerminal } from './backend.js';
export { clearFrame, endFrame, flow, frame } from './frame.js';
export { kittyDelete } from './pixels/kitty.js';
