/**
 * The baseline entropy decoding of a scan and the inverse transform of its bands by the
 * WebAssembly module built from wasm/jpeg-decoder.ts (loaded by jpeg-wasm-load.ts; decodeJpeg's
 * default where it can take the scan), beside `decodeScan` and jpeg-idct.ts (the reference).
 * jpeg-wasm-harness.ts parses a file up to its scan for the tests and the bench. See docs/decode.md,
 * "WebAssembly".
 */
import { DecodeError } from './error.js';
import { BitReader } from './jpeg-bits.js';
import { YCBCR_TABLES } from './jpeg-color.js';
import { decodeScan, type ScanPart, truncated } from './jpeg-entropy.js';
import { type BlockSize, idctFor } from './jpeg-idct.js';
import type { FrameHeader, HuffmanTable, ScanHeader } from './jpeg-segments.js';

/** The module's exports (wasm/jpeg-decoder.ts). */
export interface JpegWasm {
  readonly memory: { readonly buffer: ArrayBuffer };
  /** Set before the module traps (this project's lib has no WebAssembly types: Node's objects fit these). */
  readonly errorKind: { readonly value: number };
  readonly errorPos: { readonly value: number };
  alloc(size: number): number;
  begin(ptr: number, length: number, start: number, n: number, mcusWide: number): void;
  component(
    c: number,
    h: number,
    v: number,
    storeWide: number,
    blocksWide: number,
    lastZigzag: number,
    natural: number,
    naturalLen: number,
    dc: number,
    ac: number,
    band: number,
  ): void;
  setRestart(mcus: number): void;
  decodeRow(): number;
  transform(c: number, size: number, q: number, plane: number, stride: number, blocksHigh: number): void;
  setCos4(ptr: number): void;
  setYcc(ptr: number): void;
  ycbcrRow(out: number, width: number, p0: number, m0: number, p1: number, m1: number, p2: number, m2: number): void;
  idctRow(my: number): void;
  readerPos(): number;
  readerStop(): number;
  overrun(): number;
  /** Progressive scans (jpeg-progressive-wasm.ts). */
  history(c: number, last: number, blocksHigh: number): void;
  progressiveScan(start: number, end: number, high: number, low: number, mcusHigh: number, kept: number): number;
}

/** A Huffman table's area in the module's memory: byte offsets of its arrays (wasm/jpeg-decoder.ts). */
export const TABLE = { fast: 0, maxCode: 1024, offset: 1096, symbols: 1168, fastAc: 1424, skipAc: 3472, size: 4496 };

/** Copies `t` into its area at `at` in the module's memory. */
export function placeTable(buffer: ArrayBuffer, at: number, t: HuffmanTable): void {
  new Uint16Array(buffer, at + TABLE.fast, 512).set(t.fast);
  new Int32Array(buffer, at + TABLE.maxCode, 18).set(t.maxCode);
  new Int32Array(buffer, at + TABLE.offset, 18).set(t.offset);
  new Uint8Array(buffer, at + TABLE.symbols, t.symbols.length).set(t.symbols);
  new Int32Array(buffer, at + TABLE.fastAc, 512).set(t.fastAc);
  new Uint16Array(buffer, at + TABLE.skipAc, 512).set(t.skipAc);
}

/** The reference's DecodeError for the module's trap (its cause in `errorKind`/`errorPos`); else the trap itself. */
export function trapError(wasm: JpegWasm, error: unknown): never {
  const kind = wasm.errorKind.value;
  const at = wasm.errorPos.value;
  if (kind === 2) throw new DecodeError('corrupt', `corrupt JPEG: DC difference of ${at} bits`);
  if (kind === 1) throw new DecodeError('corrupt', `corrupt JPEG: invalid Huffman code before byte ${at}`);
  throw error;
}

/** A scan part with what its inverse transform needs: block size and dequantizer. */
export interface TransformedPart extends ScanPart {
  readonly size: BlockSize;
  readonly q: Float64Array;
}

/** A file's first scan, parsed with the decoder's own parsers, ready for either entropy decoder. */
export interface BaselineScan {
  readonly bytes: Uint8Array;
  /** Where the entropy-coded data starts. */
  readonly start: number;
  readonly header: ScanHeader;
  readonly frame: FrameHeader;
  readonly parts: readonly TransformedPart[];
  readonly mcusWide: number;
  readonly mcusHigh: number;
  readonly restartInterval: number;
}

/** Where a scan's decoding ended, as the reader leaves it. */
export interface ScanEnd {
  readonly pos: number;
  readonly stop: number;
  readonly overrun: number;
}

/**
 * The reference: `decodeScan` over the scan in band mode (each MCU row into the same band), with
 * `onRow` called after each row as decodeJpeg's output is.
 */
export function decodeScanTs(scan: BaselineScan, onRow: (row: number) => void): ScanEnd {
  const reader = new BitReader(scan.bytes, scan.start);
  for (const part of scan.parts) part.component.firstRow = 0;
  decodeScan(reader, {
    header: scan.header,
    parts: scan.parts,
    restartInterval: scan.restartInterval,
    mcusWide: scan.mcusWide,
    mcusHigh: scan.mcusHigh,
    onRow: (row) => {
      onRow(row);
      for (const part of scan.parts) part.component.firstRow = (row + 1) * part.component.v;
    },
  });
  return { pos: reader.pos, stop: reader.stop, overrun: reader.overrun() };
}

/** A component's plane for one MCU row of samples, as jpeg.ts's Output holds it. */
function planeLength(part: TransformedPart): number {
  const c = part.component;
  return c.storeWide * part.size * c.v * part.size;
}

/** Planes for `decodeScanTs`'s `idctRowTs`. */
export function planesTs(scan: BaselineScan): Uint8ClampedArray[] {
  return scan.parts.map((part) => new Uint8ClampedArray(planeLength(part)));
}

/** jpeg.ts Output.row's transforms: MCU row `my` of every component's band into its plane. */
export function idctRowTs(scan: BaselineScan, planes: readonly Uint8ClampedArray[], my: number): void {
  scan.parts.forEach((part, i) => {
    const c = part.component;
    const size = part.size;
    const plane = planes[i] as Uint8ClampedArray;
    const stride = c.storeWide * size;
    const idct = idctFor(size);
    for (let v = 0; v < c.v; v++) {
      const blockRow = my * c.v + v;
      if (blockRow >= c.blocksHigh) break;
      const from = (blockRow - c.firstRow) * c.storeWide * 64;
      const to = v * size * stride;
      for (let bx = 0; bx < c.blocksWide; bx++) idct(c.coefs, from + bx * 64, part.q, plane, to + bx * size, stride);
    }
  });
}

/** cos((2k+1)uπ/8) as jpeg-idct.ts computes them, [k * 4 + u]. */
export function cosines4(): Float64Array {
  const out = new Float64Array(16);
  for (let k = 0; k < 4; k++)
    for (let u = 0; u < 4; u++) out[k * 4 + u] = Math.cos(((2 * k + 1) * u * Math.PI) / (2 * 4));
  return out;
}

/** Whether the module can decode `scan`: sequential, one or every component (restart intervals or not). */
export function wasmCanDecode(scan: BaselineScan): boolean {
  const { header, parts } = scan;
  const sequential = header.start === 0 && header.end === 63 && header.high === 0 && header.low === 0;
  const single = parts.length === 1 && (parts[0] as ScanPart).component.v === 1;
  return (
    sequential &&
    !scan.frame.progressive &&
    (single || parts.length === scan.frame.components.length) &&
    parts.every((p) => p.dc !== null && p.ac !== null)
  );
}

/**
 * A YCbCr picture's colour conversion and upsampling by the module (jpeg-color.ts `writeRows`
 * for 'ycbcr'), written into `out` row band by row band. By frame component (Y, Cb, Cr).
 */
export interface ColourJob {
  readonly out: Uint8ClampedArray;
  readonly width: number;
  readonly height: number;
  /** Output rows an MCU row covers (vmax x block size). */
  readonly rowsOf: number;
  /** Each component's `columnMap`. */
  readonly maps: readonly Int32Array[];
}

/**
 * `decodeScanTs` by the module: the file, the tables and the bands are placed in its memory, the
 * components' `coefs` become views of their bands there (valid until the module's memory grows),
 * and each row is decoded by one call. Throws the DecodeError the reference throws. Null, before
 * any row is decoded or any `coefs` replaced, where the module's memory cannot hold the file
 * (its growth failed): the caller decodes the scan with the reference instead.
 */
export function decodeScanWasm(
  wasm: JpegWasm,
  scan: BaselineScan,
  onRow: (row: number, planes: readonly Uint8ClampedArray[]) => void,
  idct = false,
  colour?: ColourJob,
): ScanEnd | null {
  if (!wasmCanDecode(scan)) throw new DecodeError('unsupported', 'the WebAssembly decoder takes baseline scans only');
  const { bytes, parts } = scan;
  let dataPtr: number;
  const tables = new Map<HuffmanTable, number>();
  const tablePtr = (t: HuffmanTable): number => {
    let at = tables.get(t);
    if (at === undefined) {
      at = wasm.alloc(TABLE.size);
      tables.set(t, at);
    }
    return at;
  };
  let placed: { dc: number; ac: number; natural: number; band: number; q: number; plane: number }[];
  let cos: number;
  let ycc = 0;
  let maps: number[] = [];
  let scratch = 0;
  try {
    dataPtr = wasm.alloc(bytes.length);
    placed = parts.map((part) => ({
      dc: tablePtr(part.dc as HuffmanTable),
      ac: tablePtr(part.ac as HuffmanTable),
      natural: wasm.alloc(part.read.natural.length),
      band: wasm.alloc(part.component.coefs.length * 2),
      q: idct ? wasm.alloc(64 * 8) : 0,
      plane: idct ? wasm.alloc(planeLength(part)) : 0,
    }));
    cos = idct ? wasm.alloc(16 * 8) : 0;
    if (colour) {
      ycc = wasm.alloc(4 * 256 * 4);
      maps = colour.maps.map((m) => wasm.alloc(m.length * 4));
      scratch = wasm.alloc(colour.rowsOf * colour.width * 4);
    }
  } catch {
    return null; // the allocator traps where memory.grow fails
  }
  // All allocations done: views now stay valid.
  const buffer = wasm.memory.buffer;
  new Uint8Array(buffer, dataPtr, bytes.length).set(bytes);
  for (const [t, at] of tables) placeTable(buffer, at, t);
  wasm.begin(dataPtr, bytes.length, scan.start, parts.length, scan.mcusWide);
  wasm.setRestart(scan.restartInterval);
  const planes: Uint8ClampedArray[] = [];
  if (idct) {
    new Float64Array(buffer, cos, 16).set(cosines4());
    wasm.setCos4(cos);
  }
  parts.forEach((part, i) => {
    const c = part.component;
    const at = placed[i] as (typeof placed)[number];
    new Uint8Array(buffer, at.natural, part.read.natural.length).set(part.read.natural);
    c.coefs = new Int16Array(buffer, at.band, c.coefs.length);
    c.firstRow = 0;
    wasm.component(
      i,
      c.h,
      c.v,
      c.storeWide,
      c.blocksWide,
      part.read.lastZigzag,
      at.natural,
      part.read.natural.length,
      at.dc,
      at.ac,
      at.band,
    );
    if (idct) {
      new Float64Array(buffer, at.q, 64).set(part.q);
      const stride = c.storeWide * part.size;
      wasm.transform(i, part.size, at.q, at.plane, stride, c.blocksHigh);
      planes.push(new Uint8ClampedArray(buffer, at.plane, planeLength(part)));
    }
  });
  // Colour: the parts (scan order) that hold Y, Cb and Cr (frame order), and where their rows start.
  let ycbcr: ((row: number) => void) | null = null;
  if (colour && idct) {
    YCBCR_TABLES.forEach((t, k) => {
      new Int32Array(buffer, ycc + k * 1024, 256).set(t);
    });
    wasm.setYcc(ycc);
    colour.maps.forEach((m, k) => {
      new Int32Array(buffer, maps[k] as number, m.length).set(m);
    });
    const byFrame = scan.header.components.map((c) => c.index);
    const partOf = [0, 1, 2].map((k) => byFrame.indexOf(k));
    const comp = partOf.map((i) => {
      const part = parts[i] as TransformedPart;
      const c = part.component;
      return { plane: (placed[i] as { plane: number }).plane, per: c.v * part.size, stride: c.storeWide * part.size };
    });
    const [c0, c1, c2] = comp as [(typeof comp)[0], (typeof comp)[0], (typeof comp)[0]];
    const [m0, m1, m2] = maps as [number, number, number];
    const { width, rowsOf, out } = colour;
    const band = new Uint8ClampedArray(buffer, scratch, rowsOf * width * 4);
    ycbcr = (row) => {
      const y0 = row * rowsOf;
      const y1 = Math.min(colour.height, y0 + rowsOf);
      for (let y = y0; y < y1; y++) {
        const at = (c: typeof c0) => c.plane + (Math.floor((y * c.per) / rowsOf) - row * c.per) * c.stride;
        wasm.ycbcrRow(scratch + (y - y0) * width * 4, width, at(c0), m0, at(c1), m1, at(c2), m2);
      }
      out.set(band.subarray(0, (y1 - y0) * width * 4), y0 * width * 4);
    };
  }
  const first = (parts[0] as ScanPart).component;
  const rows = parts.length === 1 ? first.blocksHigh : scan.mcusHigh;
  for (let row = 0; row < rows; row++) {
    let ended: number;
    try {
      ended = wasm.decodeRow();
    } catch (error) {
      trapError(wasm, error);
    }
    if (ended !== 0) truncated();
    if (idct) wasm.idctRow(row);
    if (ycbcr) ycbcr(row);
    onRow(row, planes);
    for (const part of parts) part.component.firstRow = (row + 1) * part.component.v;
  }
  return { pos: wasm.readerPos(), stop: wasm.readerStop(), overrun: wasm.overrun() };
}

/**
 * decodeJpeg's band decode by the module: the scan's entropy decoding and its inverse transforms
 * (every block size), `onRow` given each row's planes by frame component (`count` of them) and
 * whether the module also wrote its RGBA rows (`colour`: a YCbCr picture). Null
 * where the module's memory cannot hold the file (`decodeScanWasm`).
 */
export function decodeBandWasm(
  wasm: JpegWasm,
  scan: BaselineScan,
  count: number,
  onRow: (row: number, transformed: readonly Uint8ClampedArray[], coloured: boolean) => void,
  colour?: ColourJob,
): ScanEnd | null {
  const byFrame = scan.header.components.map((c) => c.index);
  const transformed: Uint8ClampedArray[] = new Array(count);
  return decodeScanWasm(
    wasm,
    scan,
    (row, planes) => {
      for (let i = 0; i < planes.length; i++) transformed[byFrame[i] as number] = planes[i] as Uint8ClampedArray;
      onRow(row, transformed, colour !== undefined);
    },
    true,
    colour,
  );
}
