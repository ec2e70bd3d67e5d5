/**
 * Progressive scans entropy-decoded by the WebAssembly module (wasm/jpeg-baseline.ts
 * `progressiveScan`), decodeJpeg's default for progressive files, beside `decodeScan` (the
 * reference). The file and every component's coefficient store and block history live in the
 * module's memory for the whole decode, placed once before the first scan, so the TypeScript
 * decoder can take any scan the module does not (they share the store) and the inverse transform
 * reads the store where it is. See docs/decode.md, "WebAssembly".
 */

import { type ComponentState, type ScanPart, truncated } from './jpeg-entropy.js';
import type { ScanEnd } from './jpeg-entropy-wasm.js';
import { type JpegWasm, placeTable, TABLE, trapError } from './jpeg-entropy-wasm.js';
import type { ScanHeader } from './jpeg-segments.js';

/** A progressive decode's memory in the module: the file, a table area per scan part and kind. */
export interface WasmStore {
  readonly wasm: JpegWasm;
  readonly data: number;
  readonly length: number;
  /** Two table areas (DC, AC) for each of a scan's at most four parts. */
  readonly tables: readonly number[];
  /** Where each component's `coefs` and `last` are, by the component. */
  readonly places: ReadonlyMap<ComponentState, { coefs: number; last: number }>;
}

/**
 * Places `bytes` and the components' coefficient stores (`rows` block rows each, all zero) in the
 * module's memory, and makes each component's `coefs` and `last` views of them. Null, with no
 * component changed, where the memory cannot grow to hold them: the caller allocates the stores
 * itself and decodes with the reference.
 */
export function placeStores(
  wasm: JpegWasm,
  bytes: Uint8Array,
  components: readonly ComponentState[],
  rows: (c: ComponentState) => number,
): WasmStore | null {
  let data: number;
  let tables: number[];
  let at: { coefs: number; last: number; blocks: number }[];
  try {
    data = wasm.alloc(bytes.length);
    tables = Array.from({ length: 8 }, () => wasm.alloc(TABLE.size));
    at = components.map((c) => {
      const blocks = c.storeWide * rows(c);
      return { coefs: wasm.alloc(blocks * 128), last: wasm.alloc(blocks), blocks };
    });
  } catch {
    return null; // the allocator traps where memory.grow fails
  }
  // All allocations done: views now stay valid (a fresh instance's memory is zero).
  const buffer = wasm.memory.buffer;
  new Uint8Array(buffer, data, bytes.length).set(bytes);
  const places = new Map<ComponentState, { coefs: number; last: number }>();
  components.forEach((c, i) => {
    const a = at[i] as (typeof at)[number];
    c.coefs = new Int16Array(buffer, a.coefs, a.blocks * 64);
    c.last = new Uint8Array(buffer, a.last, a.blocks);
    places.set(c, a);
  });
  return { wasm, data, length: bytes.length, tables, places };
}

/**
 * `decodeScan` of a progressive scan into the store, kept (a segment whose data ran out at a
 * marker is left as it is), starting at byte `start` of the file: where the reader stopped.
 * Throws the DecodeError the reference throws (`truncated` where a row used zero bits past the
 * end).
 */
export function decodeProgressiveScanWasm(
  store: WasmStore,
  header: ScanHeader,
  parts: readonly ScanPart[],
  start: number,
  restartInterval: number,
  mcusWide: number,
  mcusHigh: number,
): ScanEnd {
  const { wasm } = store;
  const buffer = wasm.memory.buffer;
  wasm.begin(store.data, store.length, start, parts.length, mcusWide);
  wasm.setRestart(restartInterval);
  parts.forEach((part, i) => {
    const c = part.component;
    const place = store.places.get(c);
    if (!place) throw new Error('a component outside the store');
    const dc = store.tables[i * 2] as number;
    const ac = store.tables[i * 2 + 1] as number;
    if (part.dc) placeTable(buffer, dc, part.dc);
    if (part.ac) placeTable(buffer, ac, part.ac);
    wasm.component(i, c.h, c.v, c.storeWide, c.blocksWide, 63, 0, 0, dc, ac, place.coefs);
    wasm.history(i, place.last, c.blocksHigh);
  });
  let ended: number;
  try {
    ended = wasm.progressiveScan(header.start, header.end, header.high, header.low, mcusHigh, 1);
  } catch (error) {
    trapError(wasm, error);
  }
  if (ended !== 0) truncated();
  return { pos: wasm.readerPos(), stop: wasm.readerStop(), overrun: wasm.overrun() };
}
