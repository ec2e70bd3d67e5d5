/**
 * fast-check arbitraries for the JPEG entropy decoder's property tests (jpeg-entropy-reference,
 * jpeg-progressive-model, jpeg-progressive-wasm): Huffman tables, entropy-coded bytes and
 * progressive scans.
 */
import fc from 'fast-check';
import { buildHuffmanTable, type HuffmanTable, type ScanHeader } from '../../../src/decode/jpeg-segments.js';

/**
 * A canonical Huffman table from code counts made to fit (Kraft) and symbols drawn for it; `gaps`
 * leaves a code free at every length, so that data can spell invalid codes.
 */
export const huffmanTable = (symbolValues: fc.Arbitrary<number>): fc.Arbitrary<HuffmanTable> =>
  fc
    .tuple(
      fc.array(fc.nat(6), { minLength: 16, maxLength: 16 }),
      fc.array(symbolValues, { minLength: 96, maxLength: 96 }),
      fc.boolean(),
    )
    .map(([wanted, pool, gaps]) => {
      const counts = new Uint8Array(16);
      let room = 1; // codes still free at the current length, before doubling
      let used = 0;
      for (let length = 1; length <= 16; length++) {
        room *= 2;
        const n = Math.min(wanted[length - 1]!, gaps ? room - 1 : room, pool.length - used);
        counts[length - 1] = Math.max(0, n);
        room -= counts[length - 1]!;
        used += counts[length - 1]!;
      }
      if (used === 0) counts[0] = 1;
      return buildHuffmanTable(counts, Uint8Array.from(pool.slice(0, Math.max(1, used))));
    });

/**
 * Entropy-coded bytes with the ones that matter to the reader drawn often (0xFF stuffed, RSTn, EOI,
 * a lone 0xFF): `plainWeight` against their 3, at most `maxParts` parts.
 */
export const scanBytes = (plainWeight: number, maxParts: number): fc.Arbitrary<Uint8Array> =>
  fc
    .array(
      fc.oneof(
        { weight: plainWeight, arbitrary: fc.integer({ min: 0, max: 254 }) },
        { weight: 2, arbitrary: fc.constant([0xff, 0x00]) },
        { weight: 1, arbitrary: fc.constantFrom([0xff, 0xd0], [0xff, 0xd9], [0xff]) },
      ),
      { maxLength: maxParts },
    )
    .map((parts) => Uint8Array.from(parts.flat()));

/** A DC table: magnitude categories 0..12 (11 is the largest valid; 12 is a corrupt one). */
export const dcTable = huffmanTable(fc.integer({ min: 0, max: 12 }));

/**
 * An AC table: progressive refinement's run/size symbols (size 0 or 1) drawn often beside first
 * scans' (size up to 10) and any byte at all (EOB runs, corrupt sizes).
 */
export const acTable = huffmanTable(
  fc.oneof(
    fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 1 })).map(([r, s]) => (r << 4) | s),
    fc.tuple(fc.integer({ min: 0, max: 15 }), fc.integer({ min: 0, max: 10 })).map(([r, s]) => (r << 4) | s),
    fc.integer({ min: 0, max: 255 }),
  ),
);

/** One progressive scan: its header and its entropy-coded data. */
export interface ProgressiveScan {
  readonly header: ScanHeader;
  readonly data: Uint8Array;
}

/**
 * A progressive scan of any kind (DC or AC, first or refinement) for a frame of `n` components: DC
 * scans of one component or all, AC bands drawn from anywhere in 1..63, low bits mostly 0..3.
 */
export const progressiveScan = (n: number): fc.Arbitrary<ProgressiveScan> =>
  fc
    .tuple(
      fc.constantFrom('dc-first', 'dc-refine', 'ac-first', 'ac-first', 'ac-refine', 'ac-refine'),
      fc.integer({ min: 0, max: n - 1 }),
      fc.boolean(),
      fc.integer({ min: 1, max: 63 }),
      fc.integer({ min: 1, max: 63 }),
      fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 0, max: 3 }) }, fc.integer({ min: 0, max: 13 })),
      scanBytes(14, 300),
    )
    .map(([kind, index, all, a, b, low, data]) => {
      const dc = kind.startsWith('dc');
      const refine = kind.endsWith('refine');
      const ids = dc && all ? Array.from({ length: n }, (_, i) => i) : [index];
      const header: ScanHeader = {
        components: ids.map((i) => ({ index: i, dc: 0, ac: 0 })),
        start: dc ? 0 : Math.min(a, b),
        end: dc ? 0 : Math.max(a, b),
        high: refine ? low + 1 : 0,
        low,
      };
      return { header, data };
    });
