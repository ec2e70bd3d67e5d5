/**
 * The sequential block decoder (jpeg-entropy.ts, with its lookups that decode a term and its value
 * bits at once, step over unread terms and refill two bytes at a time) against a reference model:
 * T.81 F.2.2 read one step at a time through `BitReader.decode` and `receive`. Over generated
 * Huffman tables and data bytes (stuffed 0xFF, markers, the end of the data in any place, codes
 * that are invalid or longer than the lookup), both must store the same coefficients, leave the
 * reader at the same bit, agree on whether missing bits were used, and fail with the same error.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader } from '../../src/decode/jpeg-bits.js';
import { type ComponentState, decodeScan, type ScanPart, truncated } from '../../src/decode/jpeg-entropy.js';
import { type BlockSize, coefficientsRead, ZIGZAG } from '../../src/decode/jpeg-idct.js';
import type { HuffmanTable } from '../../src/decode/jpeg-segments.js';
import { huffmanTable, scanBytes } from './support/jpeg-arbitraries.js';

const WIDE = 3;
const HIGH = 2;

function component(): ComponentState {
  return {
    h: 1,
    v: 1,
    blocksWide: WIDE,
    blocksHigh: HIGH,
    storeWide: WIDE,
    coefs: new Int16Array(WIDE * HIGH * 64).fill(0x5555),
    last: new Uint8Array(0),
    firstRow: 0,
    pred: 0,
  };
}

/**
 * The next code, judged with the buffer topped up as far as the data goes: a code that zero bits
 * past the end cannot spell is missing data (`truncated`), one the data itself holds is `corrupt`.
 */
function decode(r: BitReader, table: HuffmanTable): number {
  r.fill();
  return r.decode(table);
}

/** T.81 F.2.2.1 and F.2.2.2 one step at a time; stores only what the transform of `size` reads. */
function referenceBlock(
  r: BitReader,
  dc: HuffmanTable,
  ac: HuffmanTable,
  c: ComponentState,
  at: number,
  size: BlockSize,
) {
  const { natural } = coefficientsRead(size);
  const reads = new Set(natural);
  for (const n of natural) c.coefs[at + n] = 0;
  const t = decode(r, dc);
  if (t > 11) throw new Error(`corrupt JPEG: DC difference of ${t} bits`);
  c.pred += r.receive(t);
  c.coefs[at] = c.pred;
  for (let k = 1; k < 64; k++) {
    const rs = decode(r, ac);
    const s = rs & 15;
    if (s === 0) {
      if (rs !== 0xf0) break;
      k += 15;
      continue;
    }
    k += rs >> 4;
    const v = r.receive(s); // consumed even when the run goes past the block
    if (k > 63) break;
    const n = ZIGZAG[k]!;
    if (reads.has(n)) c.coefs[at + n] = v;
  }
}

function referenceScan(r: BitReader, dc: HuffmanTable, ac: HuffmanTable, c: ComponentState, size: BlockSize) {
  for (let row = 0; row < HIGH; row++) {
    for (let col = 0; col < WIDE; col++) referenceBlock(r, dc, ac, c, (row * WIDE + col) * 64, size);
    if (r.stop === 2 && r.overrun() > 0) truncated();
  }
}

/**
 * What a run leaves behind: the coefficients the transform of `size` reads (a block may hold
 * others it wrote on the way, never read), the missing bits used, the next 32 bits and where the
 * data stopped.
 */
function outcome(run: (r: BitReader, c: ComponentState) => void, data: Uint8Array, size: BlockSize) {
  const r = new BitReader(data, 0);
  const c = component();
  const read = () => Array.from(c.coefs).filter((_, i) => coefficientsRead(size).natural.includes(i & 63));
  try {
    run(r, c);
  } catch (e) {
    return { error: (e as Error).message, coefs: read() };
  }
  // Whether missing bits were used is what the decoder acts on (how many depends on how far the
  // buffer was topped up when a code could not be read from zero bits).
  const overrun = r.overrun() > 0;
  const next = [r.read(16), r.read(16)];
  return { coefs: read(), pred: c.pred, overrun, next, stop: r.stop, pos: r.pos };
}

const data = scanBytes(12, 400);

describe('sequential blocks: the fast decoder equals the reference model bit for bit', () => {
  it.each([
    { name: '1x1 (scale 1/8: the DC term alone)', size: 1 as const },
    { name: '2x2 (scale 1/4: zigzag 0..4 stored)', size: 2 as const },
    { name: '4x4 (scale 1/2: zigzag 0..24 stored)', size: 4 as const },
    { name: '8x8 (full size: every term stored)', size: 8 as const },
  ])('$name', ({ size }) => {
    fc.assert(
      fc.property(
        huffmanTable(fc.integer({ min: 0, max: 15 })),
        // AC symbols: mostly the run/size pairs 8-bit data uses, some any byte (sizes up to 15).
        huffmanTable(
          fc.oneof(
            fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 10 })).map(([r, s]) => (r << 4) | s),
            fc.integer({ min: 0, max: 255 }),
          ),
        ),
        data,
        (dc, ac, bytes) => {
          const read = coefficientsRead(size);
          const fast = outcome(
            (r, c) => {
              const part: ScanPart = { component: c, dc, ac, read };
              decodeScan(r, {
                header: { components: [], start: 0, end: 63, high: 0, low: 0 },
                parts: [part],
                restartInterval: 0,
                mcusWide: WIDE,
                mcusHigh: HIGH,
              });
            },
            bytes,
            size,
          );
          const reference = outcome((r, c) => referenceScan(r, dc, ac, c, size), bytes, size);
          expect(fast).toEqual(reference);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('the generated cases reach every path: whole blocks, stuffing, markers, the end, errors', () => {
    // Not a check of the decoder: a check that the property above is not vacuous.
    const seen = new Set<string>();
    fc.assert(
      fc.property(
        huffmanTable(fc.integer({ min: 0, max: 15 })),
        huffmanTable(fc.integer({ min: 0, max: 255 })),
        data,
        (dc, ac, bytes) => {
          const o = outcome((r, c) => referenceScan(r, dc, ac, c, 8), bytes, 8);
          if ('error' in o) seen.add(o.error.includes('truncated') ? 'truncated' : 'corrupt');
          else seen.add(o.overrun ? 'overrun' : 'whole');
          if (bytes.some((b, i) => b === 0xff && bytes[i + 1] === 0)) seen.add('stuffed');
        },
      ),
      { numRuns: 400, seed: 26 },
    );
    for (const kind of ['corrupt', 'stuffed', 'truncated', 'whole', 'overrun']) expect([...seen]).toContain(kind);
  });
});
