/**
 * Experiment for issue 26: a file parsed with the decoder's own segment parsers up to its first
 * scan, laid out as decodeJpeg's band mode does, for jpeg-entropy-wasm.ts's two decoders (the test
 * and bench/jpeg-wasm.mjs). See docs/decode.md, "WebAssembly".
 */
import { DecodeError } from './error.js';
import { componentBlockSize } from './jpeg.js';
import type { ComponentState } from './jpeg-entropy.js';
import type { BaselineScan, TransformedPart } from './jpeg-entropy-wasm.js';
import { type BlockSize, coefficientsRead, dequantizer } from './jpeg-idct.js';
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
