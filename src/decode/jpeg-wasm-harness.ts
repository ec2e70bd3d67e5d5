/**
 * Support for the WebAssembly decoder's tests and bench/jpeg-wasm.mjs (decodeJpeg does not use it):
 * a file parsed with the decoder's own segment parsers up to its first scan, laid out as
 * decodeJpeg's band mode does, and a progressive file's scans decoded into whole stores by either
 * decoder. See docs/decode.md, "WebAssembly".
 */
import { DecodeError } from './error.js';
import { componentBlockSize } from './jpeg.js';
import { BitReader, Stop } from './jpeg-bits.js';
import { type ComponentState, decodeScan, type ScanPart } from './jpeg-entropy.js';
import type { BaselineScan, JpegWasm, ScanEnd, TransformedPart } from './jpeg-entropy-wasm.js';
import { type BlockSize, coefficientsRead, dequantizer } from './jpeg-idct.js';
import { decodeProgressiveScanWasm, placeStores, type WasmStore } from './jpeg-progressive-wasm.js';
import {
  type FrameHeader,
  type HuffmanTable,
  isFrameMarker,
  isStandalone,
  Marker,
  parseFrameHeader,
  parseHuffmanTables,
  parseQuantTables,
  parseRestartInterval,
  parseScanHeader,
} from './jpeg-segments.js';

/**
 * Parses `bytes` up to its first scan and lays the components out as decodeJpeg's band mode does,
 * at block size `size` (each component at the size decodeJpeg gives it: `componentBlockSize`).
 */
export function firstScan(bytes: Uint8Array, size: BlockSize): BaselineScan {
  const dcTables: (HuffmanTable | null)[] = [null, null, null, null];
  const acTables: (HuffmanTable | null)[] = [null, null, null, null];
  const quantTables: (Uint16Array | null)[] = [null, null, null, null];
  let frame: FrameHeader | null = null;
  let restartInterval = 0;
  let p = 2;
  while (p < bytes.length) {
    while (bytes[p + 1] === 0xff) p++;
    const marker = bytes[p + 1] as number;
    p += 2;
    if (isStandalone(marker)) continue;
    const length = ((bytes[p] as number) << 8) | (bytes[p + 1] as number);
    const body = bytes.subarray(p + 2, p + length);
    p += length;
    if (isFrameMarker(marker)) frame = parseFrameHeader(marker, body);
    else if (marker === Marker.DHT)
      for (const t of parseHuffmanTables(body)) (t.tableClass === 0 ? dcTables : acTables)[t.id] = t.table;
    else if (marker === Marker.DQT) for (const t of parseQuantTables(body)) quantTables[t.id] = t.zigzag;
    else if (marker === Marker.DRI) restartInterval = parseRestartInterval(body);
    else if (marker === Marker.SOS) {
      if (!frame) break;
      const f = frame;
      const header = parseScanHeader(body, f);
      const hmax = Math.max(...f.components.map((c) => c.h));
      const vmax = Math.max(...f.components.map((c) => c.v));
      const mcusWide = Math.ceil(f.width / (8 * hmax));
      const mcusHigh = Math.ceil(f.height / (8 * vmax));
      const all = header.components.length === f.components.length;
      const parts = header.components.map((sc): TransformedPart => {
        const c = f.components[sc.index] as { h: number; v: number; tq: number };
        const own = componentBlockSize(size, c.h, c.v, hmax, vmax);
        const component: ComponentState = {
          h: c.h,
          v: c.v,
          blocksWide: Math.ceil(Math.ceil((f.width * c.h) / hmax) / 8),
          blocksHigh: Math.ceil(Math.ceil((f.height * c.v) / vmax) / 8),
          storeWide: mcusWide * c.h,
          coefs: new Int16Array(mcusWide * c.h * (all ? c.v : 1) * 64),
          last: new Uint8Array(0),
          firstRow: 0,
          pred: 0,
        };
        return {
          component,
          dc: dcTables[sc.dc] ?? null,
          ac: acTables[sc.ac] ?? null,
          read: coefficientsRead(own),
          size: own,
          q: dequantizer(quantTables[c.tq] ?? new Uint16Array(64), own),
        };
      });
      return { bytes, start: p, header, frame: f, parts, mcusWide, mcusHigh, restartInterval };
    }
  }
  throw new DecodeError('corrupt', 'corrupt JPEG: no scan');
}

/** Every coefficient store of a progressive decode, and how each scan ended. */
export interface ProgressiveOutcome {
  /** By frame component: its coefficient store and block history after the last scan decoded. */
  readonly coefs: Int16Array[];
  readonly last: Uint8Array[];
  /** Where the reader stopped after each scan. */
  readonly ends: ScanEnd[];
  /** The error that ended the decode (its message), or null. */
  readonly error: string | null;
}

/**
 * Decodes every scan of a progressive file into whole-image coefficient stores, as decodeJpeg
 * does (kept scans, the stray bytes between segments stepped over), with the reference
 * (`decodeScan`) or, given `wasm`, with the module (jpeg-progressive-wasm.ts). No scan is
 * skipped, and nothing is transformed: the coefficients are compared as they are.
 */
export function progressiveStores(bytes: Uint8Array, wasm: JpegWasm | null): ProgressiveOutcome {
  const dcTables: (HuffmanTable | null)[] = [null, null, null, null];
  const acTables: (HuffmanTable | null)[] = [null, null, null, null];
  let components: ComponentState[] = [];
  const ends: ScanEnd[] = [];
  let error: string | null = null;
  try {
    let frame: FrameHeader | null = null;
    let restartInterval = 0;
    let mcusWide = 0;
    let mcusHigh = 0;
    let store: WasmStore | null = null;
    let scans = 0;
    let p = 2;
    while (p < bytes.length) {
      if (bytes[p] !== 0xff) {
        if (scans === 0) throw new DecodeError('corrupt', 'no marker');
        const next = bytes.indexOf(0xff, p);
        if (next < 0) break;
        p = next;
      }
      while (bytes[p + 1] === 0xff) p++;
      if (p + 1 >= bytes.length) break;
      const marker = bytes[p + 1] as number;
      p += 2;
      if (marker === Marker.EOI) break;
      if (isStandalone(marker)) continue;
      if (p + 2 > bytes.length) break;
      const length = ((bytes[p] as number) << 8) | (bytes[p + 1] as number);
      if (length < 2 || p + length > bytes.length) throw new DecodeError('corrupt', 'segment length');
      const body = bytes.subarray(p + 2, p + length);
      p += length;
      if (isFrameMarker(marker)) {
        const f = parseFrameHeader(marker, body);
        if (!f.progressive || frame) throw new DecodeError('unsupported', 'not one progressive frame');
        frame = f;
        const hmax = Math.max(...f.components.map((c) => c.h));
        const vmax = Math.max(...f.components.map((c) => c.v));
        mcusWide = Math.ceil(f.width / (8 * hmax));
        mcusHigh = Math.ceil(f.height / (8 * vmax));
        components = f.components.map((c) => ({
          h: c.h,
          v: c.v,
          blocksWide: Math.ceil(Math.ceil((f.width * c.h) / hmax) / 8),
          blocksHigh: Math.ceil(Math.ceil((f.height * c.v) / vmax) / 8),
          storeWide: mcusWide * c.h,
          coefs: new Int16Array(mcusWide * c.h * mcusHigh * c.v * 64),
          last: new Uint8Array(mcusWide * c.h * mcusHigh * c.v),
          firstRow: 0,
          pred: 0,
        }));
        if (wasm) {
          store = placeStores(wasm, bytes, components, (c) => mcusHigh * c.v);
          if (!store) throw new DecodeError('too-large', 'the module has no room');
        }
      } else if (marker === Marker.DHT)
        for (const t of parseHuffmanTables(body)) (t.tableClass === 0 ? dcTables : acTables)[t.id] = t.table;
      else if (marker === Marker.DRI) restartInterval = parseRestartInterval(body);
      else if (marker === Marker.SOS) {
        if (!frame) throw new DecodeError('corrupt', 'scan before frame');
        scans++;
        const header = parseScanHeader(body, frame);
        const parts: ScanPart[] = header.components.map((sc) => {
          const dc = dcTables[sc.dc] ?? null;
          const ac = acTables[sc.ac] ?? null;
          if ((header.start === 0 && header.high === 0 && !dc) || (header.end > 0 && !ac))
            throw new DecodeError('corrupt', 'table never defined');
          return { component: components[sc.index] as ComponentState, dc, ac, read: coefficientsRead(8) };
        });
        let end: ScanEnd;
        if (store) end = decodeProgressiveScanWasm(store, header, parts, p, restartInterval, mcusWide, mcusHigh);
        else {
          const reader = new BitReader(bytes, p);
          decodeScan(reader, { header, parts, restartInterval, mcusWide, mcusHigh, kept: true });
          end = { pos: reader.pos, stop: reader.stop, overrun: reader.overrun() };
        }
        ends.push(end);
        if (end.stop === Stop.End && end.overrun > 0) throw new DecodeError('truncated', 'truncated');
        p = end.pos;
      }
    }
  } catch (e) {
    error = String(e);
  }
  return {
    coefs: components.map((c) => Int16Array.from(c.coefs)),
    last: components.map((c) => Uint8Array.from(c.last)),
    ends,
    error,
  };
}
