/**
 * Issue 26: progressive scans decoded by the WebAssembly module (wasm/jpeg-decoder.ts
 * `progressiveScan`, through src/decode/jpeg-progressive-wasm.ts) against the TypeScript decoder
 * (`decodeScan`, kept, as decodeJpeg runs it for a progressive file). Random frames (sampling
 * factors, partial MCUs), sequences of all four kinds of scan with random bands and Al, random
 * Huffman tables and data (stuffed 0xFF, RSTn, EOI, a lone 0xFF, the end), with and without
 * restart intervals: after every scan both must hold the same coefficients and block histories
 * everywhere, leave the reader at the same byte with the same stop and missing bits, and fail
 * with the same error. The real files are in jpeg-entropy-wasm.test.ts.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { BitReader } from '../../src/decode/jpeg-bits.js';
import { type ComponentState, decodeScan } from '../../src/decode/jpeg-entropy.js';
import { coefficientsRead } from '../../src/decode/jpeg-idct.js';
import { decodeProgressiveScanWasm, placeStores } from '../../src/decode/jpeg-progressive-wasm.js';
import type { HuffmanTable } from '../../src/decode/jpeg-segments.js';
import { acTable, dcTable, type ProgressiveScan, progressiveScan } from './support/jpeg-arbitraries.js';
import { freshInstance, shippedModule } from './support/jpeg-wasm.js';

let module: object;

beforeAll(() => {
  module = shippedModule();
}, 600_000);

interface Geometry {
  readonly h: number;
  readonly v: number;
  readonly blocksWide: number;
  readonly blocksHigh: number;
}

interface Frame {
  readonly geometry: readonly Geometry[];
  readonly mcusWide: number;
  readonly mcusHigh: number;
}

function components(frame: Frame): ComponentState[] {
  return frame.geometry.map((g) => {
    const storeWide = frame.mcusWide * g.h;
    const blocks = storeWide * frame.mcusHigh * g.v;
    return {
      h: g.h,
      v: g.v,
      blocksWide: g.blocksWide,
      blocksHigh: g.blocksHigh,
      storeWide,
      coefs: new Int16Array(blocks * 64),
      last: new Uint8Array(blocks),
      firstRow: 0,
      pred: 0,
    };
  });
}

/** What a decoder leaves after each scan: every coefficient and history, where the reader stopped; or the error. */
function run(
  wasm: boolean,
  frame: Frame,
  scans: readonly ProgressiveScan[],
  dc: HuffmanTable,
  ac: HuffmanTable,
  restartInterval: number,
): unknown[] {
  const comps = components(frame);
  // One instance for the whole sequence, as decodeJpeg has; each scan's data placed afresh (with
  // the stores copied over), so that each scan's data ends where the reference's does.
  const instance = wasm ? freshInstance(module) : null;
  const seen: unknown[] = [];
  for (const scan of scans) {
    const parts = scan.header.components.map((sc) => ({
      component: comps[sc.index] as ComponentState,
      dc,
      ac,
      read: coefficientsRead(8),
    }));
    try {
      let end: { pos: number; stop: number; overrun: number };
      if (instance) {
        const before = comps.map((c) => ({ coefs: c.coefs.slice(), last: c.last.slice() }));
        const store = placeStores(instance, scan.data, comps, (c) => frame.mcusHigh * c.v);
        if (!store) throw new Error('no room');
        comps.forEach((c, i) => {
          c.coefs.set(before[i]?.coefs as Int16Array);
          c.last.set(before[i]?.last as Uint8Array);
        });
        end = decodeProgressiveScanWasm(store, scan.header, parts, 0, restartInterval, frame.mcusWide, frame.mcusHigh);
      } else {
        const r = new BitReader(scan.data, 0);
        decodeScan(r, {
          header: scan.header,
          parts,
          restartInterval,
          mcusWide: frame.mcusWide,
          mcusHigh: frame.mcusHigh,
          kept: true,
        });
        end = { pos: r.pos, stop: r.stop, overrun: r.overrun() };
      }
      seen.push({ end, coefs: comps.map((c) => Array.from(c.coefs)), last: comps.map((c) => Array.from(c.last)) });
    } catch (e) {
      seen.push({ error: String(e), coefs: comps.map((c) => Array.from(c.coefs)) });
      break;
    }
  }
  return seen;
}

/** One to three components; the first may be subsampled 2x2, 2x1 or 1x2, with its last MCU part-filled. */
const frame = fc
  .tuple(
    fc.integer({ min: 1, max: 3 }),
    fc.constantFrom([1, 1], [2, 2], [2, 1], [1, 2]),
    fc.boolean(),
    fc.integer({ min: 1, max: 3 }),
    fc.integer({ min: 1, max: 3 }),
  )
  .map(
    ([n, [h, v], partial, mcusWide, mcusHigh]): Frame => ({
      mcusWide,
      mcusHigh,
      geometry: Array.from({ length: n }, (_, i) => {
        const hh = i === 0 ? (h as number) : 1;
        const vv = i === 0 ? (v as number) : 1;
        return {
          h: hh,
          v: vv,
          blocksWide: mcusWide * hh - (partial && hh === 2 ? 1 : 0),
          blocksHigh: mcusHigh * vv - (partial && vv === 2 ? 1 : 0),
        };
      }),
    }),
  );

const cases = frame.chain((f) =>
  fc.record({
    frame: fc.constant(f),
    scans: fc.array(progressiveScan(f.geometry.length), { minLength: 1, maxLength: 6 }),
    dc: dcTable,
    ac: acTable,
    restartInterval: fc.oneof({ weight: 2, arbitrary: fc.constant(0) }, fc.integer({ min: 1, max: 4 })),
  }),
);

describe('progressive scans: the WebAssembly module equals decodeScan bit for bit', () => {
  it('random frames, scan sequences, tables, data and restart intervals', () => {
    fc.assert(
      fc.property(cases, ({ frame, scans, dc, ac, restartInterval }) => {
        expect(run(true, frame, scans, dc, ac, restartInterval)).toEqual(
          run(false, frame, scans, dc, ac, restartInterval),
        );
      }),
      { numRuns: 1500 },
    );
  });

  it('the generated cases reach every path: each kind of scan with and without restarts, both errors, a stop at a marker', () => {
    // Not a check of the module: a check that the property above is not vacuous.
    const seen = new Set<string>();
    fc.assert(
      fc.property(cases, ({ frame, scans, dc, ac, restartInterval }) => {
        const out = run(false, frame, scans, dc, ac, restartInterval) as {
          error?: string;
          end?: { stop: number; overrun: number };
        }[];
        out.forEach((o, i) => {
          const h = (scans[i] as ProgressiveScan).header;
          const kind = `${h.start === 0 ? 'dc' : 'ac'}-${h.high === 0 ? 'first' : 'refine'}`;
          if (o.error) seen.add(`error ${o.error.includes('truncated') ? 'truncated' : 'corrupt'}`);
          else {
            seen.add(`${kind} ${restartInterval > 0 ? 'restart' : 'plain'}`);
            if (o.end?.stop === 1 && (o.end?.overrun ?? 0) > 0) seen.add('ran out at a marker');
          }
        });
      }),
      { numRuns: 1500 },
    );
    expect([...seen].sort()).toEqual(
      [
        'error truncated',
        'error corrupt',
        'ran out at a marker',
        ...['dc-first', 'dc-refine', 'ac-first', 'ac-refine'].flatMap((k) => [`${k} plain`, `${k} restart`]),
      ].sort(),
    );
  });
});
