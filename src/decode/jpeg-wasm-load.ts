/**
 * The WebAssembly JPEG decoder (wasm/jpeg-decoder.ts, built into dist/wasm/ by `npm run build`):
 * read and compiled on the first JPEG it can take, once per process, synchronously (9 KB: about
 * 2 ms), and instantiated afresh for each decode, so no memory or state is kept between decodes.
 * Where the file is missing (a bundler that did not copy it, a run from src/) or does not compile,
 * the answer is null and decodeJpeg uses the TypeScript decoder. docs/decode.md, "WebAssembly".
 */
import { readFileSync } from 'node:fs';
import type { JpegWasm } from './jpeg-entropy-wasm.js';

/** What is used of the WebAssembly global (this project's lib has no WebAssembly types). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}

const api = (): WasmApi | undefined => (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

/** The module's exports the decoder calls: a file of another build that lacks one is refused. */
const EXPORTS = [
  'alloc',
  'begin',
  'component',
  'setRestart',
  'decodeRow',
  'readerPos',
  'readerStop',
  'overrun',
  'history',
  'progressiveScan',
] as const;

/** The compiled module from `url`, or null where it is missing or does not compile. */
export function compileJpegWasm(url: URL): object | null {
  const wasm = api();
  if (!wasm) return null;
  try {
    return new wasm.Module(readFileSync(url));
  } catch {
    return null;
  }
}

/** A fresh instance of `module`, or null where it cannot be made or lacks the decoder's exports. */
export function instantiateJpegWasm(module: object | null): JpegWasm | null {
  const wasm = api();
  if (!module || !wasm) return null;
  try {
    const exports = new wasm.Instance(module).exports as Record<string, unknown>;
    return EXPORTS.every((name) => typeof exports[name] === 'function') ? (exports as unknown as JpegWasm) : null;
  } catch {
    return null;
  }
}

/** undefined until the first JPEG the module could take; then the module, or null. */
let compiled: object | null | undefined;

/**
 * A fresh instance of the shipped module, or null where there is none. dist/wasm/ is one folder
 * below dist/, as the bundle's chunks (dist/chunks/) and tsc's modules (dist/decode/) are, so the
 * one relative URL finds it from either.
 */
export function jpegWasm(): JpegWasm | null {
  if (compiled === undefined) compiled = compileJpegWasm(new URL('../wasm/jpeg-decoder.wasm', import.meta.url));
  return instantiateJpegWasm(compiled);
}
