/**
 * Huffman entropy decoding of scans (T.81 Annex F and G): sequential blocks, and the four kinds
 * of progressive scan (DC first and refinement, AC first and refinement, with end-of-band runs),
 * walked in MCU order with restart intervals. Coefficients land, still quantized, in natural
 * order in each component's coefficient store. See docs/decode.md, "JPEG > Memory: bands and stores".
 */

import { DecodeError } from './error.js';
import { type BitReader, Stop } from './jpeg-bits.js';
import { type CoefficientsRead, ZIGZAG } from './jpeg-idct.js';
import { FAST_BITS, type HuffmanTable, type ScanHeader } from './jpeg-segments.js';

const FAST_MASK = (1 << FAST_BITS) - 1;

/** A component while it is decoded: its geometry and where its coefficients go. */
export interface ComponentState {
  readonly h: number;
  readonly v: number;
  /** Blocks that hold the component's own samples. */
  readonly blocksWide: number;
  readonly blocksHigh: number;
  /** Blocks a row of the coefficient store holds (whole MCUs, so at least `blocksWide`). */
  readonly storeWide: number;
  /** Coefficients, 64 a block, natural order; rows `firstRow..` of the block grid. */
  coefs: Int16Array;
  /**
   * Progressive files: per block of `coefs`, the highest zigzag position of an AC coefficient made
   * non-zero so far (0: none). Past it a refinement scan has no correction bits to read, so an
   * end-of-band run steps over the rest of the block at once.
   */
  last: Uint8Array;
  /** The block row that `coefs` starts at (0 when it holds the whole image). */
  firstRow: number;
  /** DC prediction, reset at every scan and restart. */
  pred: number;
}

/** One component's part in a scan. */
export interface ScanPart {
  readonly component: ComponentState;
  readonly dc: HuffmanTable | null;
  readonly ac: HuffmanTable | null;
  /**
   * The coefficients the component's transform reads. A sequential block stores only these and
   * steps over the rest of its terms without forming them (decoding at 1/4 reads 4 of 64).
   */
  readonly read: CoefficientsRead;
}

/** Everything a scan needs besides the reader. */
export interface ScanPlan {
  readonly header: ScanHeader;
  readonly parts: readonly ScanPart[];
  readonly restartInterval: number;
  /** MCUs across and down the frame (interleaved scans). */
  readonly mcusWide: number;
  readonly mcusHigh: number;
  /** Called after each MCU row (block row of a one-component scan) is decoded, with its index. */
  readonly onRow?: (row: number) => void;
  /**
   * The coefficients are kept across scans (the store): once the data of a segment (a scan, or
   * one restart interval of it) runs out at a marker, the rest of the segment is left as it is,
   * as libjpeg does, instead of being decoded from zero bits. So a scan costs what its data
   * holds: a scan with no data is one MCU, not a walk over every block.
   */
  readonly kept?: boolean;
}

type BlockDecoder = (reader: BitReader, part: ScanPart, coefs: Int16Array, at: number) => void;

function corrupt(message: string): never {
  throw new DecodeError('corrupt', `corrupt JPEG: ${message}`);
}

/** A DC difference category; more than 11 bits cannot occur with 8-bit samples. */
function dcCategory(reader: BitReader, table: HuffmanTable): number {
  const t = reader.decode(table);
  if (t > 11) corrupt(`DC difference of ${t} bits`);
  return t;
}

/** Decodes a whole scan into the components' coefficient stores. */
export function decodeScan(reader: BitReader, plan: ScanPlan): void {
  const { header, parts, restartInterval } = plan;
  const kept = plan.kept === true;
  const state = { eobrun: 0 };
  if (restartInterval === 0 && (header.start > 0 || header.end === 0)) {
    // A progressive scan without restarts: a loop of its own per kind, so each is optimized once
    // with one call target (see "Progressive scans" in docs/decode.md).
    if (header.start === 0) {
      walkDc(reader, plan, header.high > 0);
      return;
    }
    const walk = header.high === 0 ? walkAcFirst : walkRefine;
    walk(reader, plan, parts[0] as ScanPart, header, state);
    return;
  }
  const decodeBlock = blockDecoder(header, state);
  for (const part of parts) part.component.pred = 0;
  let untilRestart = restartInterval;
  /** The segment's data ran out at a marker: its other MCUs are left as they are (`kept`). */
  let starved = false;
  /** Before each MCU; false when the scan is over (a kept scan whose next interval has no data). */
  const restart = (): boolean => {
    if (restartInterval === 0) return true;
    if (untilRestart === 0) {
      const found = reader.restart();
      if (kept && !found) return false;
      starved = false;
      for (const part of parts) part.component.pred = 0;
      state.eobrun = 0;
      untilRestart = restartInterval;
    }
    untilRestart--;
    return true;
  };
  /** After each MCU of a kept scan: whether zero bits were used at a marker (the data ran out). */
  const ranOut = (): boolean => kept && reader.stop === Stop.Marker && reader.overrun() > 0;
  const endOfRow = (row: number): void => {
    // A file cut short fills the rest with zero bits; stop at the first row that used them.
    if (reader.stop === Stop.End && reader.overrun() > 0) truncated();
    plan.onRow?.(row);
  };

  if (parts.length === 1) {
    // Non-interleaved: one block per MCU, only the blocks that hold the component's samples.
    const part = parts[0] as ScanPart;
    const c = part.component;
    for (let row = 0; row < c.blocksHigh; row++) {
      const base = (row - c.firstRow) * c.storeWide;
      for (let col = 0; col < c.blocksWide; col++) {
        if (!restart()) return;
        if (starved) continue;
        decodeBlock(reader, part, c.coefs, (base + col) * 64);
        if (reader.stop !== Stop.None && ranOut()) {
          if (restartInterval === 0) return;
          starved = true;
        }
      }
      endOfRow(row);
    }
    return;
  }
  for (let my = 0; my < plan.mcusHigh; my++) {
    for (let mx = 0; mx < plan.mcusWide; mx++) {
      if (!restart()) return;
      if (starved) continue;
      for (const part of parts) {
        const c = part.component;
        for (let v = 0; v < c.v; v++) {
          const base = (my * c.v + v - c.firstRow) * c.storeWide + mx * c.h;
          for (let h = 0; h < c.h; h++) decodeBlock(reader, part, c.coefs, (base + h) * 64);
        }
      }
      if (reader.stop !== Stop.None && ranOut()) {
        if (restartInterval === 0) return;
        starved = true;
      }
    }
    endOfRow(my);
  }
}

/**
 * A progressive DC scan (T.81 G.1.2.1) without restart intervals, first or refinement, interleaved
 * or one component: `decodeScan`'s walk, one row of MCUs (block row of a one-component scan) a
 * call to a function of its own, so that V8 optimizes that function with the feedback of whole
 * rows instead of replacing the loop in the middle of the first one (see "Progressive scans" in
 * docs/decode.md). A kept scan stops after the MCU whose data ran out at a marker.
 */
function walkDc(reader: BitReader, plan: ScanPlan, refine: boolean): void {
  const { parts } = plan;
  const single = parts.length === 1;
  const first = (parts[0] as ScanPart).component;
  const rows = single ? first.blocksHigh : plan.mcusHigh;
  const cols = single ? first.blocksWide : plan.mcusWide;
  const kept = plan.kept === true;
  const preds = new Int32Array(parts.length);
  for (const part of parts) part.component.pred = 0;
  for (let row = 0; row < rows; row++) {
    const whole = refine
      ? dcRefineRow(reader, parts, row, cols, single, plan.header.low, kept)
      : dcFirstRow(reader, parts, row, cols, single, plan.header.low, kept, preds);
    if (!whole) return;
    if (reader.stop === Stop.End && reader.overrun() > 0) truncated();
    plan.onRow?.(row);
  }
}

/**
 * One row of MCUs of a DC first scan: each block's DC difference, decoded as `BitReader.decode`
 * and `receive` do (the same refills, so the reader ends where they leave it) with the bit buffer
 * in locals, scaled by 2^Al. False when a kept scan's data ran out (the rest is left as it is).
 */
function dcFirstRow(
  reader: BitReader,
  parts: readonly ScanPart[],
  row: number,
  cols: number,
  single: boolean,
  low: number,
  kept: boolean,
  preds: Int32Array,
): boolean {
  const n = parts.length;
  const scale = 1 << low;
  let bits = reader.bits;
  let count = reader.count;
  for (let col = 0; col < cols; col++) {
    for (let j = 0; j < n; j++) {
      const part = parts[j] as ScanPart;
      const c = part.component;
      const table = part.dc as HuffmanTable;
      const fast = table.fast;
      const coefs = c.coefs;
      const bh = single ? 1 : c.h;
      const bv = single ? 1 : c.v;
      let pred = preds[j] as number;
      for (let v = 0; v < bv; v++) {
        const base = ((row * bv + v - c.firstRow) * c.storeWide + col * bh) * 64;
        for (let h = 0; h < bh; h++) {
          if (count < 16) {
            reader.bits = bits;
            reader.count = count;
            reader.fill();
            bits = reader.bits;
            count = reader.count;
          }
          const entry = fast[(bits >>> (count - FAST_BITS)) & FAST_MASK] as number;
          let t: number;
          if (entry !== 0) {
            count -= entry >> 8;
            t = entry & 0xff;
          } else {
            reader.bits = bits;
            reader.count = count;
            t = reader.decode(table);
            bits = reader.bits;
            count = reader.count;
          }
          if (t > 11) corrupt(`DC difference of ${t} bits`);
          if (t !== 0) {
            if (count < t) {
              reader.bits = bits;
              reader.count = count;
              reader.fill();
              bits = reader.bits;
              count = reader.count;
            }
            count -= t;
            const d = (bits >>> count) & ((1 << t) - 1);
            // EXTEND without a branch on the (random) sign: 1 - 2^t added when the top bit is clear.
            pred += d + (((d >> (t - 1)) - 1) & (1 - (1 << t)));
          }
          coefs[base + h * 64] = pred * scale;
        }
      }
      preds[j] = pred;
      c.pred = pred;
    }
    if (reader.stop !== Stop.None && ranOut(reader, bits, count, kept)) return false;
  }
  reader.bits = bits;
  reader.count = count;
  return true;
}

/** `dcFirstRow` for a DC refinement scan: one bit a block, ORed in at 2^Al. */
function dcRefineRow(
  reader: BitReader,
  parts: readonly ScanPart[],
  row: number,
  cols: number,
  single: boolean,
  low: number,
  kept: boolean,
): boolean {
  const n = parts.length;
  const bit = 1 << low;
  let bits = reader.bits;
  let count = reader.count;
  for (let col = 0; col < cols; col++) {
    for (let j = 0; j < n; j++) {
      const c = (parts[j] as ScanPart).component;
      const coefs = c.coefs;
      const bh = single ? 1 : c.h;
      const bv = single ? 1 : c.v;
      for (let v = 0; v < bv; v++) {
        const base = ((row * bv + v - c.firstRow) * c.storeWide + col * bh) * 64;
        for (let h = 0; h < bh; h++) {
          if (count < 1) {
            reader.bits = bits;
            reader.count = count;
            reader.fill();
            bits = reader.bits;
            count = reader.count;
          }
          count--;
          if (((bits >>> count) & 1) !== 0) coefs[base + h * 64] = (coefs[base + h * 64] as number) | bit;
        }
      }
    }
    if (reader.stop !== Stop.None && ranOut(reader, bits, count, kept)) return false;
  }
  reader.bits = bits;
  reader.count = count;
  return true;
}

/** Hands the buffer back to the reader; whether a kept scan's data ran out at a marker. */
function ranOut(reader: BitReader, bits: number, count: number, kept: boolean): boolean {
  reader.bits = bits;
  reader.count = count;
  return kept && reader.stop === Stop.Marker && reader.overrun() > 0;
}

/**
 * The blocks of a one-component AC first scan without restart intervals, in order: `decodeScan`'s
 * walk with one block decoder called from one place. A kept scan stops where its data ran out.
 */
function walkAcFirst(reader: BitReader, plan: ScanPlan, part: ScanPart, h: ScanHeader, state: { eobrun: number }) {
  const c = part.component;
  const table = part.ac as HuffmanTable;
  const { coefs, last } = c;
  const kept = plan.kept === true;
  for (let row = 0; row < c.blocksHigh; row++) {
    const base = (row - c.firstRow) * c.storeWide;
    for (let col = 0; col < c.blocksWide; col++) {
      acFirstBlock(reader, table, coefs, last, (base + col) * 64, h.start, h.end, h.low, state);
      if (kept && reader.stop === Stop.Marker && reader.overrun() > 0) return;
    }
    if (reader.stop === Stop.End && reader.overrun() > 0) truncated();
    plan.onRow?.(row);
  }
}

/** `walkAcFirst` for an AC refinement scan. */
function walkRefine(reader: BitReader, plan: ScanPlan, part: ScanPart, h: ScanHeader, state: { eobrun: number }) {
  const c = part.component;
  const table = part.ac as HuffmanTable;
  const { coefs, last } = c;
  const kept = plan.kept === true;
  for (let row = 0; row < c.blocksHigh; row++) {
    const base = (row - c.firstRow) * c.storeWide;
    for (let col = 0; col < c.blocksWide; col++) {
      refineBlock(reader, table, coefs, last, (base + col) * 64, h.start, h.end, h.low, state);
      if (kept && reader.stop === Stop.Marker && reader.overrun() > 0) return;
    }
    if (reader.stop === Stop.End && reader.overrun() > 0) truncated();
    plan.onRow?.(row);
  }
}

/** Throws the error of a scan whose data the file does not hold. */
export function truncated(): never {
  throw new DecodeError('truncated', 'truncated JPEG: the file ends inside its image data');
}

function blockDecoder(header: ScanHeader, state: { eobrun: number }): BlockDecoder {
  const { start, end, high, low } = header;
  if (header.start === 0 && header.end === 63 && high === 0 && low === 0) return sequential;
  if (start === 0) {
    if (high === 0)
      return (reader, part, coefs, at) => {
        const c = part.component;
        c.pred += reader.receive(dcCategory(reader, part.dc as HuffmanTable));
        coefs[at] = c.pred * (1 << low);
      };
    const bit = 1 << low;
    return (reader, _part, coefs, at) => {
      if (reader.bit()) coefs[at] = (coefs[at] as number) | bit;
    };
  }
  if (high === 0)
    return (reader, part, coefs, at) =>
      acFirstBlock(reader, part.ac as HuffmanTable, coefs, part.component.last, at, start, end, low, state);
  return acRefine(start, end, low, state);
}

/**
 * A sequential (baseline or extended) block: DC difference, then run-length coded AC terms. Only
 * the coefficients the transform reads are cleared and stored; past the last of them in zigzag
 * order each term is one lookup in `skipAc` that consumes its code and value bits together and
 * advances past its run. The bit buffer is kept in locals for the block and handed back to the
 * reader where it refills across a 0xFF byte or the end of the data, or walks a code longer than
 * FAST_BITS. The buffer is topped up two bytes at a time once fewer than 16 bits are left, so a
 * lookup has its 9 bits and a fast term its at most 16; a longer one asks for more first. A small
 * function on purpose: V8 optimizes it after a few hundred blocks, so a one-shot decode runs fast
 * early. docs/decode.md, "Entropy decoding at the size drawn".
 */
function sequential(reader: BitReader, part: ScanPart, coefs: Int16Array, at: number): void {
  const { natural, lastZigzag } = part.read;
  if (lastZigzag === 63) coefs.fill(0, at, at + 64);
  else for (let i = 0; i < natural.length; i++) coefs[at + (natural[i] as number)] = 0;
  const data = reader.data;
  const lastPair = data.length - 2;
  let bits = reader.bits;
  let count = reader.count;
  let pos = reader.pos;
  if (count < 16) {
    const pair = pos < lastPair ? ((data[pos] as number) << 8) | (data[pos + 1] as number) : 0xffff;
    if ((pair & 0xff00) !== 0xff00 && (pair & 0xff) !== 0xff) {
      bits = (bits << 16) | pair;
      pos += 2;
      count += 16;
    } else {
      reader.bits = bits;
      reader.count = count;
      reader.pos = pos;
      reader.fill();
      bits = reader.bits;
      count = reader.count;
      pos = reader.pos;
    }
  }
  const dc = part.dc as HuffmanTable;
  const dcEntry = dc.fast[(bits >>> (count - FAST_BITS)) & FAST_MASK] as number;
  let t: number;
  if (dcEntry !== 0) {
    count -= dcEntry >> 8;
    t = dcEntry & 0xff;
  } else {
    reader.bits = bits;
    reader.count = count;
    reader.pos = pos;
    // Topped up as far as the data goes, so a code that is invalid only because the data ends is
    // told apart from a corrupt one (decode returns 0 on zero bits past the end).
    reader.fill();
    t = reader.decode(dc);
    if (reader.count < 16) reader.fill();
    bits = reader.bits;
    count = reader.count;
    pos = reader.pos;
  }
  if (t > 11) corrupt(`DC difference of ${t} bits`);
  const c = part.component;
  if (t !== 0) {
    if (count < t) {
      reader.bits = bits;
      reader.count = count;
      reader.pos = pos;
      reader.fill();
      bits = reader.bits;
      count = reader.count;
      pos = reader.pos;
    }
    count -= t;
    const v = (bits >>> count) & ((1 << t) - 1);
    c.pred += v < 1 << (t - 1) ? v - (1 << t) + 1 : v;
  }
  coefs[at] = c.pred;
  const table = part.ac as HuffmanTable;
  const fast = table.fast;
  const fastAc = table.fastAc;
  const skipAc = table.skipAc;
  let k = 1;
  while (k < 64) {
    if (count < 16) {
      // Two whole bytes when neither is 0xFF and the data goes on; else the reader's own refill.
      const pair = pos < lastPair ? ((data[pos] as number) << 8) | (data[pos + 1] as number) : 0xffff;
      if ((pair & 0xff00) !== 0xff00 && (pair & 0xff) !== 0xff) {
        bits = (bits << 16) | pair;
        pos += 2;
        count += 16;
      } else {
        reader.bits = bits;
        reader.count = count;
        reader.pos = pos;
        reader.fill();
        bits = reader.bits;
        count = reader.count;
        pos = reader.pos;
      }
    }
    const peek = (bits >>> (count - FAST_BITS)) & FAST_MASK;
    if (k > lastZigzag) {
      // A term the transform never reads: code and value bits dropped, run stepped, in one lookup.
      const skip = skipAc[peek] as number;
      if (skip !== 0) {
        count -= skip & 31;
        k += skip >> 5;
        continue;
      }
    } else {
      // A whole coefficient in one lookup when its code and value bits fit in FAST_BITS.
      const term = fastAc[peek] as number;
      if (term !== 0) {
        count -= term & 15;
        k += (term >> 4) & 15;
        if (k > 63) break;
        coefs[at + (ZIGZAG[k] as number)] = term >> 8;
        k++;
        continue;
      }
    }
    const entry = fast[peek] as number;
    let rs: number;
    if (entry !== 0) {
      count -= entry >> 8;
      rs = entry & 0xff;
    } else {
      reader.bits = bits;
      reader.count = count;
      reader.pos = pos;
      reader.fill();
      rs = reader.decode(table);
      if (reader.count < 16) reader.fill();
      bits = reader.bits;
      count = reader.count;
      pos = reader.pos;
    }
    const s = rs & 15;
    if (s === 0) {
      if (rs !== 0xf0) break; // end of block; 0xF0 is sixteen zeros
      k += 16;
      continue;
    }
    k += rs >> 4;
    if (count < s) {
      reader.bits = bits;
      reader.count = count;
      reader.pos = pos;
      reader.fill();
      bits = reader.bits;
      count = reader.count;
      pos = reader.pos;
    }
    // The value bits are consumed even for a run past the block (damaged data), as libjpeg does.
    count -= s;
    if (k > 63) break;
    if (k <= lastZigzag) {
      const v = (bits >>> count) & ((1 << s) - 1);
      coefs[at + (ZIGZAG[k] as number)] = v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
    }
    k++;
  }
  reader.bits = bits;
  reader.count = count;
  reader.pos = pos;
}

/**
 * AC successive-approximation refinement (T.81 G.1.2.3): one more bit of every coefficient that is
 * already non-zero, and newly non-zero coefficients of magnitude 1, placed after runs of zeros.
 */
function acRefine(start: number, end: number, low: number, state: { eobrun: number }): BlockDecoder {
  return (reader, part, coefs, at) =>
    refineBlock(reader, part.ac as HuffmanTable, coefs, part.component.last, at, start, end, low, state);
}

function refineBlock(
  reader: BitReader,
  table: HuffmanTable,
  coefs: Int16Array,
  last: Uint8Array,
  at: number,
  start: number,
  end: number,
  low: number,
  state: { eobrun: number },
): void {
  const plus = 1 << low;
  const zigzag = ZIGZAG;
  let bits = reader.bits;
  let count = reader.count;
  let k = start;
  let eobrun = state.eobrun;
  const block = at >> 6;
  let lastNonZero = last[block] as number;
  if (eobrun === 0) {
    const fast = table.fast;
    for (; k <= end; k++) {
      if (count < 25) {
        reader.bits = bits;
        reader.count = count;
        reader.fill();
        bits = reader.bits;
        count = reader.count;
      }
      const entry = fast[(bits >>> (count - FAST_BITS)) & FAST_MASK] as number;
      let rs: number;
      if (entry !== 0) {
        count -= entry >> 8;
        rs = entry & 0xff;
      } else {
        reader.bits = bits;
        reader.count = count;
        rs = reader.decode(table);
        if (reader.count < 16) reader.fill();
        bits = reader.bits;
        count = reader.count;
      }
      let r = rs >> 4;
      let value = 0;
      if ((rs & 15) !== 0) {
        count--;
        // plus for a set bit, minus for a clear one, without a branch on the (random) sign.
        const clear = ((bits >>> count) & 1) - 1;
        value = (plus ^ clear) - clear;
      } else if (r !== 15) {
        eobrun = 1 << r;
        if (r > 0) {
          count -= r;
          eobrun += (bits >>> count) & ((1 << r) - 1);
        }
        break;
      }
      // Skip r zero-history coefficients (refining the non-zero ones on the way), then place.
      // Past lastNonZero every coefficient is zero and has no correction bit: one step of r.
      const stop = Math.min(lastNonZero, end);
      for (; k <= stop; k++) {
        const i = at + (zigzag[k] as number);
        const c = coefs[i] as number;
        if (count === 0 && c !== 0) {
          reader.bits = bits;
          reader.count = count;
          reader.fill();
          bits = reader.bits;
          count = reader.count;
        }
        // Without branches on the data (a correction bit is a coin toss to the branch predictor):
        // nz is 1 for a coefficient with history, which takes one bit; a set bit moves it away
        // from zero by 2^Al unless that bit is already set.
        const nz = (c | -c) >>> 31;
        count -= nz;
        const sign = c >> 31;
        coefs[i] = c + (((plus ^ sign) - sign) & -((bits >>> count) & ~(c >> low) & nz));
        r -= nz ^ 1;
        if (r < 0) break;
      }
      if (k > stop) {
        if (stop === end) continue;
        k += r;
      }
      if (value !== 0 && k <= end) {
        coefs[at + (zigzag[k] as number)] = value;
        if (k > lastNonZero) lastNonZero = k;
      }
    }
    last[block] = lastNonZero;
  }
  if (eobrun > 0) {
    const stop = Math.min(lastNonZero, end);
    for (; k <= stop; k++) {
      const i = at + (zigzag[k] as number);
      const c = coefs[i] as number;
      if (count === 0 && c !== 0) {
        reader.bits = bits;
        reader.count = count;
        reader.fill();
        bits = reader.bits;
        count = reader.count;
      }
      const nz = (c | -c) >>> 31;
      count -= nz;
      const sign = c >> 31;
      coefs[i] = c + (((plus ^ sign) - sign) & -((bits >>> count) & ~(c >> low) & nz));
    }
    eobrun--;
  }
  state.eobrun = eobrun;
  reader.bits = bits;
  reader.count = count;
}

/**
 * An AC first scan's block (T.81 G.1.2.2): run-length coded terms of the band, scaled by 2^Al, or
 * an end-of-band run that covers this and the next blocks. The bit buffer is kept in locals, as in
 * `sequential`; `last` learns the block's highest non-zero position.
 */
function acFirstBlock(
  reader: BitReader,
  table: HuffmanTable,
  coefs: Int16Array,
  last: Uint8Array,
  at: number,
  start: number,
  end: number,
  low: number,
  state: { eobrun: number },
): void {
  if (state.eobrun > 0) {
    state.eobrun--;
    return;
  }
  const fast = table.fast;
  const fastAc = table.fastAc;
  const scale = 1 << low;
  let bits = reader.bits;
  let count = reader.count;
  let placed = 0;
  for (let k = start; k <= end; ) {
    if (count < 25) {
      reader.bits = bits;
      reader.count = count;
      reader.fill();
      bits = reader.bits;
      count = reader.count;
    }
    const peek = (bits >>> (count - FAST_BITS)) & FAST_MASK;
    // A whole coefficient in one lookup when its code and value bits fit in FAST_BITS.
    const term = fastAc[peek] as number;
    if (term !== 0) {
      count -= term & 15;
      k += (term >> 4) & 15;
      if (k > 63) break;
      coefs[at + (ZIGZAG[k] as number)] = (term >> 8) * scale;
      placed = k;
      k++;
      continue;
    }
    const entry = fast[peek] as number;
    let rs: number;
    if (entry !== 0) {
      count -= entry >> 8;
      rs = entry & 0xff;
    } else {
      reader.bits = bits;
      reader.count = count;
      rs = reader.decode(table);
      if (reader.count < 16) reader.fill();
      bits = reader.bits;
      count = reader.count;
    }
    const s = rs & 15;
    const r = rs >> 4;
    if (s === 0) {
      if (r < 15) {
        let run = (1 << r) - 1;
        if (r > 0) {
          count -= r;
          run += (bits >>> count) & ((1 << r) - 1);
        }
        state.eobrun = run;
        break;
      }
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) break; // a run past the block: damaged data, the rest is dropped
    count -= s;
    const v = (bits >>> count) & ((1 << s) - 1);
    // EXTEND without a branch on the (random) sign, as in dcFirstRow.
    coefs[at + (ZIGZAG[k] as number)] = (v + (((v >> (s - 1)) - 1) & (1 - (1 << s)))) * scale;
    placed = k;
    k++;
  }
  if (placed > (last[at >> 6] as number)) last[at >> 6] = placed;
  reader.bits = bits;
  reader.count = count;
}
