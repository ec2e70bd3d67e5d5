/**
 * The WebAssembly JPEG decoder as the tests of it use it: the module `npm run build` makes of
 * wasm/jpeg-decoder.ts (built first where it is missing or stale), compiled once, and fresh
 * instances of it, through the same loader functions decodeJpeg uses.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { JpegWasm } from '../../../src/decode/jpeg-entropy-wasm.js';
import { compileJpegWasm, instantiateJpegWasm } from '../../../src/decode/jpeg-wasm-load.js';
import { ensureBuilt } from '../../support/build.js';

/** The shipped module's path in this repository's build. */
export const SHIPPED_WASM = join(import.meta.dirname, '..', '..', '..', 'dist', 'wasm', 'jpeg-decoder.wasm');

/** The shipped module, compiled (the build is made first if needed); throws where it does not compile. */
export function shippedModule(): object {
  ensureBuilt();
  const module = compileJpegWasm(pathToFileURL(SHIPPED_WASM));
  if (!module) throw new Error(`${SHIPPED_WASM} is missing or does not compile`);
  return module;
}

/** A fresh instance of `module`; throws where it lacks the decoder's exports. */
export function freshInstance(module: object): JpegWasm {
  const exports = instantiateJpegWasm(module);
  if (!exports) throw new Error('the module lacks the decoder’s exports');
  return exports;
}
