/**
 * JPEG marker segments as data: the frame header (SOF), Huffman tables (DHT), quantization tables
 * (DQT), the restart interval (DRI), scan headers (SOS) and Adobe's APP14 colour transform, each
 * parsed and checked against ITU T.81 before anything is allocated from what it declares.
 * See docs/decode.md, "JPEG > Sizes before memory".
 */
import { u16be } from '../core/bytes.js';
import { DecodeError } from './error.js';

/** A marker's second byte. */
export const Marker = {
  SOF0: 0xc0,
  SOF1: 0xc1,
  SOF2: 0xc2,
  DHT: 0xc4,
  SOI: 0xd8,
  EOI: 0xd9,
  SOS: 0xda,
  DQT: 0xdb,
  DNL: 0xdc,
  DRI: 0xdd,
  APP1: 0xe1,
  APP2: 0xe2,
  APP14: 0xee,
} as const;

/** Whether a marker stands alone, without a length: RSTn, SOI, EOI, TEM. */
export function isStandalone(marker: number): boolean {
  return (marker >= 0xd0 && marker <= 0xd9) || marker === 0x01;
}

/** Whether a marker starts a frame (SOF0..SOF15 except DHT C4, JPG C8 and DAC CC). */
export function isFrameMarker(marker: number): boolean {
  return marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
}

/** One component as the frame header declares it. */
export interface FrameComponent {
  readonly id: number;
  /** Horizontal and vertical sampling factors, 1..4. */
  readonly h: number;
  readonly v: number;
  /** Which quantization table (0..3). */
  readonly tq: number;
}

/** A frame header: the image's size, its components and how its scans are coded. */
export interface FrameHeader {
  readonly progressive: boolean;
  readonly width: number;
  readonly height: number;
  readonly components: readonly FrameComponent[];
}

function corrupt(message: string): never {
  throw new DecodeError('corrupt', `corrupt JPEG: ${message}`);
}

/** What each unsupported frame type is called in the error. */
function unsupportedFrame(marker: number): string | null {
  if (marker === 0xc3) return 'lossless JPEG';
  if (marker >= 0xc5 && marker <= 0xc7) return 'hierarchical (differential) JPEG';
  if (marker >= 0xc9) return 'arithmetic-coded JPEG';
  return null;
}

/**
 * Parses a frame header segment (`body` = the bytes after the length). Refuses, as `unsupported`,
 * what termsight does not decode: lossless, hierarchical, arithmetic coding, 12-bit samples, and
 * 2 or more than 4 components.
 */
export function parseFrameHeader(marker: number, body: Uint8Array): FrameHeader {
  const kind = unsupportedFrame(marker);
  if (kind)
    throw new DecodeError('unsupported', `unsupported JPEG: ${kind} is not supported (baseline and progressive only)`);
  if (body.length < 6) corrupt('frame header too short');
  const precision = body[0] as number;
  if (precision !== 8) throw new DecodeError('unsupported', `unsupported JPEG: ${precision}-bit samples (8-bit only)`);
  const height = u16be(body, 1);
  const width = u16be(body, 3);
  const count = body[5] as number;
  if (width === 0 || height === 0)
    throw new DecodeError('corrupt', `corrupt JPEG: it declares a size of ${width}x${height}`);
  if (count !== 1 && count !== 3 && count !== 4)
    throw new DecodeError('unsupported', `unsupported JPEG: ${count} colour components (1, 3 or 4 only)`);
  if (body.length < 6 + count * 3) corrupt('frame header too short for its components');
  const components: FrameComponent[] = [];
  for (let i = 0; i < count; i++) {
    const at = 6 + i * 3;
    const sampling = body[at + 1] as number;
    const h = sampling >> 4;
    const v = sampling & 15;
    const tq = body[at + 2] as number;
    if (h < 1 || h > 4 || v < 1 || v > 4) corrupt(`sampling factors ${h}x${v}`);
    if (tq > 3) corrupt(`quantization table ${tq}`);
    components.push({ id: body[at] as number, h, v, tq });
  }
  // One component is coded block by block whatever factors it declares (T.81 A.2.2).
  const single = components.length === 1 ? [{ ...(components[0] as FrameComponent), h: 1, v: 1 }] : components;
  return { progressive: marker === Marker.SOF2, width, height, components: single };
}

/** A Huffman table: the code lengths and symbols of DHT, plus a lookup for short codes. */
export interface HuffmanTable {
  /** For the next 9 bits: (code length << 8) | symbol, or 0 when the code is longer. */
  readonly fast: Uint16Array;
  /** Per length 1..16: the largest code of that length, or -1. */
  readonly maxCode: Int32Array;
  /** Per length: index into `symbols` minus the first code of that length. */
  readonly offset: Int32Array;
  readonly symbols: Uint8Array;
  /**
   * For AC tables: for the next 9 bits, a whole coefficient when its code and its extra bits both
   * fit: (value << 8) | (zero run << 4) | bits used; 0 otherwise. One lookup instead of three
   * steps for most coefficients of a photo (the idea of stb_image's fast AC table).
   */
  readonly fastAc: Int32Array;
  /**
   * For AC tables: for the next 9 bits, how a term the transform never reads is stepped over:
   * (zigzag positions to advance << 5) | bits to consume (its code and its value bits together);
   * the advance is the run plus one, 16 for sixteen zeros, 64 for the end of the block. 0 when
   * the code is longer than 9 bits or code and value take more than 16 bits (the slow path).
   */
  readonly skipAc: Uint16Array;
}

/** Bits of lookahead in `HuffmanTable.fast`. */
export const FAST_BITS = 9;

/** Builds the canonical code (T.81 Annex C) from 16 counts and the symbols; refuses an over-full code. */
export function buildHuffmanTable(counts: Uint8Array, symbols: Uint8Array): HuffmanTable {
  const fast = new Uint16Array(1 << FAST_BITS);
  const maxCode = new Int32Array(18).fill(-1);
  const offset = new Int32Array(18);
  let code = 0;
  let k = 0;
  for (let length = 1; length <= 16; length++) {
    const n = counts[length - 1] as number;
    offset[length] = k - code;
    if (n > 0) {
      if (code + n > 1 << length) corrupt('a Huffman table has more codes than its lengths allow');
      for (let i = 0; i < n; i++, code++, k++) {
        if (length <= FAST_BITS) {
          const shift = FAST_BITS - length;
          const entry = (length << 8) | (symbols[k] as number);
          fast.fill(entry, code << shift, (code + 1) << shift);
        }
      }
      maxCode[length] = code - 1;
    }
    code <<= 1;
  }
  return { fast, maxCode, offset, symbols, fastAc: fastAcTable(fast), skipAc: skipAcTable(fast) };
}

function skipAcTable(fast: Uint16Array): Uint16Array {
  const out = new Uint16Array(1 << FAST_BITS);
  for (let peek = 0; peek < out.length; peek++) {
    const entry = fast[peek] as number;
    if (entry === 0) continue;
    const length = entry >> 8;
    const rs = entry & 0xff;
    const size = rs & 15;
    // Any other zero-size symbol ends the block, as the sequential decoder reads it.
    const advance = size !== 0 ? (rs >> 4) + 1 : rs === 0xf0 ? 16 : 64;
    if (length + size <= 16) out[peek] = (advance << 5) | (length + size);
  }
  return out;
}

function fastAcTable(fast: Uint16Array): Int32Array {
  const out = new Int32Array(1 << FAST_BITS);
  for (let peek = 0; peek < out.length; peek++) {
    const entry = fast[peek] as number;
    if (entry === 0) continue;
    const length = entry >> 8;
    const rs = entry & 0xff;
    const size = rs & 15;
    if (size === 0 || length + size > FAST_BITS) continue;
    const bits = (peek >> (FAST_BITS - length - size)) & ((1 << size) - 1);
    const value = bits < 1 << (size - 1) ? bits - (1 << size) + 1 : bits;
    out[peek] = (value << 8) | ((rs >> 4) << 4) | (length + size);
  }
  return out;
}

/** A Huffman table definition from DHT: class 0 is DC, 1 is AC. */
export interface HuffmanDefinition {
  readonly tableClass: 0 | 1;
  readonly id: number;
  readonly table: HuffmanTable;
}

/** Parses a DHT segment body, which may define several tables. */
export function parseHuffmanTables(body: Uint8Array): HuffmanDefinition[] {
  const out: HuffmanDefinition[] = [];
  let p = 0;
  while (p < body.length) {
    if (p + 17 > body.length) corrupt('Huffman table segment too short');
    const tc = (body[p] as number) >> 4;
    const id = (body[p] as number) & 15;
    if (tc > 1 || id > 3) corrupt(`Huffman table class ${tc} id ${id}`);
    const counts = body.subarray(p + 1, p + 17);
    let total = 0;
    for (const c of counts) total += c;
    if (total > 256) corrupt('a Huffman table has more than 256 symbols');
    if (p + 17 + total > body.length) corrupt('Huffman table segment too short');
    const symbols = body.slice(p + 17, p + 17 + total);
    out.push({ tableClass: tc as 0 | 1, id, table: buildHuffmanTable(counts, symbols) });
    p += 17 + total;
  }
  return out;
}

/** Parses a DQT segment body: up to four tables, 8- or 16-bit entries, in zigzag order as stored. */
export function parseQuantTables(body: Uint8Array): { id: number; zigzag: Uint16Array }[] {
  const out: { id: number; zigzag: Uint16Array }[] = [];
  let p = 0;
  while (p < body.length) {
    const wide = (body[p] as number) >> 4;
    const id = (body[p] as number) & 15;
    if (wide > 1 || id > 3) corrupt(`quantization table precision ${wide} id ${id}`);
    const size = wide ? 128 : 64;
    if (p + 1 + size > body.length) corrupt('quantization table segment too short');
    const zigzag = new Uint16Array(64);
    for (let i = 0; i < 64; i++) zigzag[i] = wide ? u16be(body, p + 1 + i * 2) : (body[p + 1 + i] as number);
    out.push({ id, zigzag });
    p += 1 + size;
  }
  return out;
}

/** Parses DRI: the number of MCUs between restart markers (0: none). */
export function parseRestartInterval(body: Uint8Array): number {
  if (body.length < 2) corrupt('restart interval segment too short');
  return u16be(body, 0);
}

/** One component of a scan: its index in the frame and its Huffman tables. */
export interface ScanComponent {
  readonly index: number;
  readonly dc: number;
  readonly ac: number;
}

/** A scan header: which components, which band of coefficients (Ss..Se) and which bit (Ah, Al). */
export interface ScanHeader {
  readonly components: readonly ScanComponent[];
  readonly start: number;
  readonly end: number;
  readonly high: number;
  readonly low: number;
}

/**
 * Parses SOS against the frame. Components are matched by id; when a broken encoder gave two
 * components the same id, the next unused one with that id is taken, as libjpeg-turbo does.
 */
export function parseScanHeader(body: Uint8Array, frame: FrameHeader): ScanHeader {
  const count = body[0] ?? 0;
  if (count < 1 || count > 4 || body.length < 1 + count * 2 + 3) corrupt('scan header malformed');
  const used = new Set<number>();
  const components: ScanComponent[] = [];
  for (let i = 0; i < count; i++) {
    const id = body[1 + i * 2] as number;
    const tables = body[2 + i * 2] as number;
    let index = frame.components.findIndex((c, j) => c.id === id && !used.has(j));
    if (index < 0) index = frame.components.findIndex((c) => c.id === id);
    if (index < 0) corrupt(`a scan names component ${id}, which the frame does not have`);
    if (used.has(index)) corrupt(`a scan names component ${id} twice`);
    used.add(index);
    const dc = tables >> 4;
    const ac = tables & 15;
    if (dc > 3 || ac > 3) corrupt(`Huffman table ${dc}/${ac} out of range`);
    components.push({ index, dc, ac });
  }
  const at = 1 + count * 2;
  const start = body[at] as number;
  const end = body[at + 1] as number;
  const high = (body[at + 2] as number) >> 4;
  const low = (body[at + 2] as number) & 15;
  if (frame.progressive) {
    if (start > end || end > 63 || (start === 0 && end !== 0) || high > 13 || low > 13)
      corrupt(`progressive scan parameters Ss=${start} Se=${end} Ah=${high} Al=${low}`);
    if (start > 0 && count !== 1) corrupt('a progressive AC scan holds more than one component');
    if (high !== 0 && high !== low + 1) corrupt(`successive approximation Ah=${high} Al=${low}`);
    return { components, start, end, high, low };
  }
  // Sequential scans always carry all 64 coefficients; encoders that write odd values there are
  // common and harmless, so they are read as the spec's 0, 63, 0, 0.
  return { components, start: 0, end: 63, high: 0, low: 0 };
}

/** The colour transform an Adobe APP14 segment declares (0 none, 1 YCbCr, 2 YCCK), or null when the segment is not Adobe's. */
export function parseAdobeTransform(body: Uint8Array): number | null {
  // "Adobe" version(2) flags0(2) flags1(2) transform(1)
  if (body.length < 12) return null;
  if (body[0] !== 0x41 || body[1] !== 0x64 || body[2] !== 0x6f || body[3] !== 0x62 || body[4] !== 0x65) return null;
  return body[11] as number;
}

/** Whether an APP1 body is EXIF (`Exif\0\0`), whose TIFF structure follows. */
export function isExifSegment(body: Uint8Array): boolean {
  return (
    body.length >= 14 &&
    body[0] === 0x45 &&
    body[1] === 0x78 &&
    body[2] === 0x69 &&
    body[3] === 0x66 &&
    body[4] === 0 &&
    body[5] === 0
  );
}
