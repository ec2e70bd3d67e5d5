/**
 * Progressive scans entropy-decoded by the WebAssembly module (wasm/jpeg-decoder.ts
 * `progressiveScan`), decodeJpeg's default for progressive files, beside `decodeScan` (the
 * reference). The file and every component's coefficient store and block history live in the
 * module's memory for the whole decode, placed once before the first scan, so the TypeScript
 * decoder can take any scan the module does not (they share the store) and the inverse transform
 * reads the store where it is. See docs/decode.md, "WebAssembly".
 */

import { YCBCR_TABLES } from './jpeg-color.js';
import { type ComponentState, type ScanPart, truncated } from './jpeg-entropy.js';
import type { ColourJob, ScanEnd } from './jpeg-entropy-wasm.js';
import { cosines4, type JpegWasm, placeTable, TABLE, trapError } from './jpeg-entropy-wasm.js';
import type { BlockSize } from './jpeg-idct.js';
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
  /** The areas of the inverse transform and colour conversion (`transformStoreWasm`), when asked for. */
  readonly transform: TransformAreas | null;
}

/** What the transform after the last scan needs, known at the frame header: by frame component. */
export interface TransformPlan {
  readonly sizes: readonly BlockSize[];
  /** The picture's width and the rows an MCU row covers (colour conversion). */
  readonly width: number;
  readonly rowsOf: number;
}

interface TransformAreas extends TransformPlan {
  readonly q: number[];
  readonly planes: number[];
  readonly planeLengths: number[];
  readonly cos: number;
  readonly ycc: number;
  readonly maps: number[];
  readonly scratch: number;
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
  plan?: TransformPlan,
): WasmStore | null {
  let data: number;
  let tables: number[];
  let at: { coefs: number; last: number; blocks: number }[];
  let transform: TransformAreas | null = null;
  try {
    data = wasm.alloc(bytes.length);
    tables = Array.from({ length: 8 }, () => wasm.alloc(TABLE.size));
    at = components.map((c) => {
      const blocks = c.storeWide * rows(c);
      return { coefs: wasm.alloc(blocks * 128), last: wasm.alloc(blocks), blocks };
    });
    if (plan) {
      const planeLengths = components.map((c, i) => {
        const size = plan.sizes[i] as number;
        return c.storeWide * size * c.v * size;
      });
      transform = {
        ...plan,
        q: components.map(() => wasm.alloc(64 * 8)),
        planeLengths,
        planes: planeLengths.map((n) => wasm.alloc(n)),
        cos: wasm.alloc(16 * 8),
        ycc: wasm.alloc(4 * 256 * 4),
        maps: components.map(() => wasm.alloc(plan.width * 4)),
        scratch: wasm.alloc(plan.rowsOf * plan.width * 4),
      };
    }
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
  return { wasm, data, length: bytes.length, tables, places, transform };
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

/**
 * After the last scan: every MCU row of the store inverse-transformed by the module (its
 * `idctRow`, the transforms of jpeg-idct.ts) into planes in its memory, and a YCbCr picture's
 * RGBA rows written by it too (`colour`, as for a sequential file); `onRow` is given each row's
 * planes by frame component and whether the module wrote its RGBA. `quant`: each component's
 * dequantizer.
 */
export function transformStoreWasm(
  store: WasmStore,
  components: readonly ComponentState[],
  quant: readonly Float64Array[],
  mcusWide: number,
  mcusHigh: number,
  colour: ColourJob | undefined,
  onRow: (row: number, transformed: readonly Uint8ClampedArray[], coloured: boolean) => void,
): void {
  const { wasm } = store;
  const t = store.transform as TransformAreas;
  const buffer = wasm.memory.buffer;
  new Float64Array(buffer, t.cos, 16).set(cosines4());
  wasm.setCos4(t.cos);
  wasm.begin(store.data, store.length, 0, components.length, mcusWide);
  const planes = components.map((c, i) => {
    const size = t.sizes[i] as BlockSize;
    new Float64Array(buffer, t.q[i] as number, 64).set(quant[i] as Float64Array);
    wasm.transform(i, size, t.q[i] as number, t.planes[i] as number, c.storeWide * size, c.blocksHigh);
    return new Uint8ClampedArray(buffer, t.planes[i] as number, t.planeLengths[i] as number);
  });
  let ycbcr: ((row: number) => void) | null = null;
  if (colour && components.length === 3) {
    YCBCR_TABLES.forEach((table, k) => {
      new Int32Array(buffer, t.ycc + k * 1024, 256).set(table);
    });
    wasm.setYcc(t.ycc);
    colour.maps.forEach((m, k) => {
      new Int32Array(buffer, t.maps[k] as number, m.length).set(m);
    });
    const comp = components.map((c, i) => {
      const size = t.sizes[i] as number;
      return { plane: t.planes[i] as number, per: c.v * size, stride: c.storeWide * size };
    });
    const [c0, c1, c2] = comp as [(typeof comp)[0], (typeof comp)[0], (typeof comp)[0]];
    const [m0, m1, m2] = t.maps as [number, number, number];
    const { width, rowsOf, out } = colour;
    const band = new Uint8ClampedArray(buffer, t.scratch, rowsOf * width * 4);
    ycbcr = (row) => {
      const y0 = row * rowsOf;
      const y1 = Math.min(colour.height, y0 + rowsOf);
      for (let y = y0; y < y1; y++) {
        const at = (c: typeof c0) => c.plane + (Math.floor((y * c.per) / rowsOf) - row * c.per) * c.stride;
        wasm.ycbcrRow(t.scratch + (y - y0) * width * 4, width, at(c0), m0, at(c1), m1, at(c2), m2);
      }
      out.set(band.subarray(0, (y1 - y0) * width * 4), y0 * width * 4);
    };
  }
  for (let row = 0; row < mcusHigh; row++) {
    components.forEach((c, i) => {
      const place = store.places.get(c) as { coefs: number };
      const band = place.coefs + row * c.v * c.storeWide * 128;
      wasm.component(i, c.h, c.v, c.storeWide, c.blocksWide, 63, 0, 0, 0, 0, band);
    });
    wasm.idctRow(row);
    if (ycbcr) ycbcr(row);
    onRow(row, planes, ycbcr !== null);
  }
}
