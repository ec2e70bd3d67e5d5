/**
 * Progressive scans (DC first and refinement, AC first and refinement) through the decoder
 * (src/decode/jpeg-entropy.ts: its own walks per kind of scan) against the reference model, the
 * decoder as it was before issue 26 (jpeg-entropy-model.ts). Random frames (sampling factors, partial MCUs), sequences of
 * scans with random bands, Huffman tables and data (stuffed 0xFF, markers, the end of the data),
 * at each transform size: after every scan both must hold the same coefficients where the transform
 * reads them, leave the reader at the same bit and byte, agree on missing bits, and fail alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BitReader } from '../../src/decode/jpeg-bits.js';
import { type ComponentState, decodeScan } from '../../src/decode/jpeg-entropy.js';
import { type BlockSize, coefficientsRead, ZIGZAG } from '../../src/decode/jpeg-idct.js';
import { buildHuffmanTable, type HuffmanTable } from '../../src/decode/jpeg-segments.js';
import { type ComponentState as ModelComponent, decodeScan as modelScan } from './jpeg-entropy-model.js';
import {
  acTable,
  dcTable,
  huffmanTable,
  type ProgressiveScan,
  progressiveScan,
  scanBytes,
} from './support/jpeg-arbitraries.js';

const MCUS_WIDE = 2;
const MCUS_HIGH = 2;

interface Geometry {
  readonly h: number;
  readonly v: number;
  readonly blocksWide: number;
  readonly blocksHigh: number;
  readonly size: BlockSize;
}

type Both = ComponentState & ModelComponent;

/**
 * The frame's components, their coefficients `history` when given (natural order), with the
 * highest non-zero zigzag position of each block (`last`) that refinement steps over the rest by.
 */
function components(geometry: readonly Geometry[], history?: readonly Int16Array[]): Both[] {
  return geometry.map((g, i) => {
    const storeWide = MCUS_WIDE * g.h;
    const blocks = storeWide * MCUS_HIGH * g.v;
    const coefs = history?.[i]?.slice(0, blocks * 64) ?? new Int16Array(blocks * 64);
    const last = new Uint8Array(blocks);
    for (let b = 0; b < blocks; b++)
      for (let k = 1; k < 64; k++)
        if (coefs[b * 64 + ZIGZAG[k]!] !== 0) {
          last[b] = k;
        }
    return {
      h: g.h,
      v: g.v,
      blocksWide: g.blocksWide,
      blocksHigh: g.blocksHigh,
      storeWide,
      coefs,
      last,
      firstRow: 0,
      pred: 0,
    };
  });
}

/** What a decoder leaves after each scan: the coefficients read, the reader's state, or the error. */
function run(
  decode: typeof decodeScan,
  geometry: readonly Geometry[],
  scans: readonly ProgressiveScan[],
  dc: HuffmanTable,
  ac: HuffmanTable,
  kept: boolean,
  history?: readonly Int16Array[],
) {
  const comps = components(geometry, history);
  const reads = geometry.map((g) => coefficientsRead(g.size));
  const seen: unknown[] = [];
  for (const scan of scans) {
    const r = new BitReader(scan.data, 0);
    try {
      decode(r, {
        header: scan.header,
        parts: scan.header.components.map((sc) => ({
          component: comps[sc.index] as Both,
          dc,
          ac,
          read: reads[sc.index]!,
        })),
        restartInterval: 0,
        mcusWide: MCUS_WIDE,
        mcusHigh: MCUS_HIGH,
        kept,
      });
    } catch (e) {
      seen.push({ error: (e as Error).message });
      break;
    }
    const overrun = r.overrun() > 0;
    const state = { overrun, stop: r.stop, pos: r.pos, count: r.count, next: [r.read(16), r.read(16)] };
    const coefs = comps.map((c, i) => Array.from(c.coefs).filter((_, j) => reads[i]!.natural.includes(j & 63)));
    seen.push({ state, coefs, preds: comps.map((c) => c.pred) });
  }
  return seen;
}

/** A canonical Huffman table from code counts made to fit (Kraft), `gaps` leaving codes free. */

const data = scanBytes(14, 300);

const size = fc.constantFrom<BlockSize>(1, 2, 4, 8);

/** One to three components; the first may be subsampled 2x2, 2x1 or 1x2, with its last MCU part-filled. */
const geometry = fc
  .tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.constantFrom([1, 1], [2, 2], [2, 1], [1, 2]),
    fc.boolean(),
    fc.array(size, { minLength: 3, maxLength: 3 }),
  )
  .map(([n, [h, v], partial, sizes]): Geometry[] =>
    Array.from({ length: n }, (_, i) => {
      const hh = i === 0 ? h! : 1;
      const vv = i === 0 ? v! : 1;
      const cut = partial && hh === 2 ? 1 : 0;
      return {
        h: hh,
        v: vv,
        blocksWide: MCUS_WIDE * hh - cut,
        blocksHigh: MCUS_HIGH * vv - (partial && vv === 2 ? 1 : 0),
        size: sizes[i]!,
      };
    }),
  );

const cases = geometry.chain((g) =>
  fc.record({
    geometry: fc.constant(g),
    scans: fc.array(progressiveScan(g.length), { minLength: 1, maxLength: 6 }),
    dc: dcTable,
    ac: acTable,
    kept: fc.boolean(),
  }),
);

describe('progressive scans: the fast decoder equals the reference model bit for bit', () => {
  it('random frames, scan sequences, tables and data', () => {
    fc.assert(
      fc.property(cases, ({ geometry, scans, dc, ac, kept }) => {
        const fast = run(decodeScan, geometry, scans, dc, ac, kept);
        const model = run(modelScan as unknown as typeof decodeScan, geometry, scans, dc, ac, kept);
        expect(fast).toEqual(model);
      }),
      { numRuns: 1500 },
    );
  });

  it('the generated cases reach every path: refinements of non-zero history past the read coefficients, end-of-band runs, stops', () => {
    // Not a check of the decoder: a check that the property above is not vacuous.
    const seen = new Set<string>();
    fc.assert(
      fc.property(cases, ({ geometry, scans, dc, ac, kept }) => {
        const out = run(modelScan as unknown as typeof decodeScan, geometry, scans, dc, ac, kept);
        out.forEach((o, i) => {
          const s = scans[i]!.header;
          if ('error' in (o as object)) {
            seen.add((o as { error: string }).error.includes('truncated') ? 'truncated' : 'corrupt');
            return;
          }
          const { state } = o as { state: { overrun: boolean; stop: number } };
          seen.add(state.overrun ? `overrun-${state.stop}` : 'whole');
          const kind = s.start === 0 ? 'dc' : 'ac';
          seen.add(`${kind}-${s.high > 0 ? 'refine' : 'first'}`);
          // A refinement after a first scan of an overlapping band of the same component, past what a 2x2 transform reads.
          if (
            s.high > 0 &&
            s.start > 0 &&
            s.end > 4 &&
            scans
              .slice(0, i)
              .some(
                (p) =>
                  p.header.start > 0 &&
                  p.header.high === 0 &&
                  p.header.end > 4 &&
                  p.header.components[0]!.index === s.components[0]!.index,
              )
          )
            seen.add('refine-after-first');
        });
      }),
      { numRuns: 1500, seed: 26 },
    );
    for (const kind of [
      'corrupt',
      'truncated',
      'whole',
      'overrun-1',
      'dc-first',
      'dc-refine',
      'ac-first',
      'ac-refine',
      'refine-after-first',
    ])
      expect([...seen]).toContain(kind);
  });
});

/**
 * Coefficients as the first scans of a band leave them at Al = `low` + 1 (multiples of 2^(low+1),
 * most zero, `density` in 16 non-zero), for 16 blocks of each of three components.
 */
const history = (low: number) =>
  fc
    .tuple(fc.integer({ min: 1, max: 15 }), fc.array(fc.integer(), { minLength: 3, maxLength: 3 }))
    .map(([density, seeds]) =>
      seeds.map((seed) => {
        const out = new Int16Array(16 * 64);
        let x = seed | 1;
        for (let i = 0; i < out.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          if ((x & 15) < density) out[i] = (((x >> 4) & 3) + 1) * ((x >> 6) & 1 ? -1 : 1) * (1 << (low + 1));
        }
        return out;
      }),
    );

/** AC refinement symbols: a new coefficient after r zeros, an end-of-band run of 2^r.., sixteen zeros. */
const refineTable = huffmanTable(
  fc.oneof(
    { weight: 6, arbitrary: fc.integer({ min: 0, max: 15 }).map((r) => (r << 4) | 1) },
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 14 }).map((r) => r << 4) },
    { weight: 1, arbitrary: fc.constant(0xf0) },
  ),
);

const refinements = fc.tuple(geometry, fc.integer({ min: 0, max: 12 })).chain(([g, low]) =>
  fc.record({
    geometry: fc.constant(g),
    low: fc.constant(low),
    history: history(low),
    bands: fc.array(
      fc.tuple(
        fc.integer({ min: 0, max: g.length - 1 }),
        fc.integer({ min: 1, max: 63 }),
        fc.integer({ min: 1, max: 63 }),
        data,
      ),
      { minLength: 1, maxLength: 3 },
    ),
    ac: refineTable,
    kept: fc.boolean(),
  }),
);

describe('AC refinement over a rich history: the fast decoder equals the reference model bit for bit', () => {
  // Random first scans seldom leave much to refine: here the history is drawn directly, dense or
  // sparse, so that runs of zeros, correction bits and end-of-band runs are all exercised.
  it('random histories, bands, refinement tables and data', () => {
    fc.assert(
      fc.property(refinements, ({ geometry, low, history, bands, ac, kept }) => {
        const scans = bands.map(
          ([index, a, b, bytes]): ProgressiveScan => ({
            header: {
              components: [{ index, dc: 0, ac: 0 }],
              start: Math.min(a, b),
              end: Math.max(a, b),
              high: low + 1,
              low,
            },
            data: bytes,
          }),
        );
        const fast = run(decodeScan, geometry, scans, ac, ac, kept, history);
        const model = run(modelScan as unknown as typeof decodeScan, geometry, scans, ac, ac, kept, history);
        expect(fast).toEqual(model);
      }),
      { numRuns: 1500 },
    );
  });
});

describe('AC first values that the 16-bit store wraps to zero', () => {
  it('count as zero history for a later refinement, as they did', () => {
    // Codes: 0 = (run 5, size 15), 1 = end of band. The first scan of 1..63 at Al = 2 places value
    // 2^14 (15 bits 100000000000000) at zigzag 6, scaled by 4 to 2^16: the store holds 0. The
    // refinement at Al = 1 then reads (run 5, +1): its sixth zero is 6 if 6 is zero history, and
    // 7 after a correction bit for 6 if not, so the reader ends one bit apart.
    const table = buildHuffmanTable(Uint8Array.of(2), Uint8Array.of(0x5f, 0x00));
    const geometry: Geometry[] = [{ h: 1, v: 1, blocksWide: 1, blocksHigh: 1, size: 2 }];
    const band = { components: [{ index: 0, dc: 0, ac: 0 }], start: 1, end: 63 };
    const scans: ProgressiveScan[] = [
      // 0 | 100000000000000 | 1, padded with ones (0xFF stuffed)
      { header: { ...band, high: 0, low: 2 }, data: Uint8Array.of(0b01000000, 0b00000000, 0xff, 0x00, 0, 0, 0, 0) },
      // 0 | 1 (sign +) | 1, padded with ones
      { header: { ...band, high: 2, low: 1 }, data: Uint8Array.of(0b01111111, 0, 0, 0, 0) },
    ];
    for (const kept of [false, true]) {
      const fast = run(decodeScan, geometry, scans, table, table, kept);
      const model = run(modelScan as unknown as typeof decodeScan, geometry, scans, table, table, kept);
      expect(fast).toEqual(model);
      expect((model[1] as { state: { count: number } }).state.count).toBe(29); // 32 bits read in, 3 used
    }
  });
});
