/**
 * The one file of the optional peer libheif-js that heic.ts loads, which ships no declarations of
 * its own: an Emscripten module factory (its shape is heic.ts's `Libheif`).
 */
declare module 'libheif-js/libheif-wasm/libheif-bundle.js' {
  const factory: (options: { print(text: string): void; printErr(text: string): void }) => unknown;
  export default factory;
}
