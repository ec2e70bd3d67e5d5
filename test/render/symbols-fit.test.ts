import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { symbolsLines } from '../../src/render/text/symbols.js';
import { compilePlan, ERROR_WEIGHTS, SymbolFitter } from '../../src/render/text/symbols-fit.js';
import type { SymbolSetName } from '../../src/render/text/symbols-glyphs.js';
import { maskComplement, maskHas, maskKey, SYMBOL_SETS } from '../../src/render/text/symbols-glyphs.js';
import { paintSymbols } from '../../src/render/text/symbols-paint.js';
import { referenceFit, shownPixel, weightedDistance } from '../../src/render/text/symbols-reference.js';

/**
 * Random pictures with structure: each cell mixes a few random colours in random blobs, with
 * some noise, so two-colour fits have something to find (pure noise makes every glyph alike).
 */
const rasterArb = (maxCols: number, maxRows: number, alpha = false) =>
  fc
    .record({
      cols: fc.integer({ min: 1, max: maxCols }),
      rows: fc.integer({ min: 1, max: maxRows }),
      seed: fc.integer(),
      noise: fc.integer({ min: 0, max: 40 }),
    })
    .map(({ cols, rows, seed, noise }) => {
      let s = seed | 0;
      const rand = () => {
        s = (s + 0x6d2b79f5) | 0;
        let t = Math.imul(s ^ (s >>> 15), 1 | s);
        t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
      const width = cols * 8;
      const height = rows * 8;
      const data = new Uint8Array(width * height * 4);
      const colours = Array.from({ length: 4 }, () => [rand() * 256, rand() * 256, rand() * 256]);
      const cx = Array.from({ length: 4 }, () => [rand() * width, rand() * height]);
      for (let y = 0; y < height; y++) {
        for (let x = 0; x < width; x++) {
          let best = 0;
          let bd = Infinity;
          for (let k = 0; k < 4; k++) {
            const d = (x - cx[k][0]) ** 2 + (y - cx[k][1]) ** 2;
            if (d < bd) {
              bd = d;
              best = k;
            }
          }
          const o = (y * width + x) * 4;
          for (let c = 0; c < 3; c++)
            data[o + c] = Math.max(0, Math.min(255, colours[best][c] + (rand() - 0.5) * noise));
          data[o + 3] = alpha ? [0, 100, 200, 255][Math.floor(rand() * 4)] : 255;
        }
      }
      return { width, height, data } as Raster;
    });

/** The weighted squared error of `shown` (painted) against what the terminal should show for `raster`. */
function errorOf(raster: Raster, shown: Raster, background: readonly [number, number, number]): number {
  let e = 0;
  for (let i = 0; i < raster.width * raster.height; i++) {
    const want = shownPixel(raster.data, i, background);
    const got = [shown.data[i * 4], shown.data[i * 4 + 1], shown.data[i * 4 + 2]] as const;
    e += weightedDistance(want, got);
  }
  return e;
}

/** Rounding each colour to whole values costs at most 64 sub-pixels x (0.5² per channel) a cell. */
const ROUNDING_SLACK = 64 * 0.25 * (ERROR_WEIGHTS[0] + ERROR_WEIGHTS[1] + ERROR_WEIGHTS[2]);

/** The documented bound: the fast fit's total error is at most 1.02x the exhaustive one (plus rounding). */
const FACTOR = 1.02;

describe('fast fit against the exhaustive reference', () => {
  it.each([
    { name: 'half', runs: 40 },
    { name: 'quadrant', runs: 40 },
    { name: 'block', runs: 40 },
    { name: 'sextant', runs: 30 },
    { name: 'octant', runs: 15 },
    { name: 'braille', runs: 15 },
    { name: 'all', runs: 8 },
  ] as { name: SymbolSetName; runs: number }[])(
    '$name: decoded output within 1.02x, same shapes on >= 99% of cells',
    ({ name, runs }) => {
      const set = SYMBOL_SETS[name];
      fc.assert(
        fc.property(rasterArb(4, 3), (raster) => {
          const text = symbolsLines(raster, { symbols: set }).join('\n');
          const painted = paintSymbols(text);
          expect(painted.unknown).toBe(0);
          expect(painted.raster.width).toBe(raster.width);
          expect(painted.raster.height).toBe(raster.height);
          const ours = errorOf(raster, painted.raster, [0, 0, 0]);
          const ref = referenceFit(raster, set);
          let refTotal = 0;
          let cells = 0;
          let same = 0;
          const plan = compilePlan(set);
          const fitter = new SymbolFitter(set, { depth: 'truecolor', background: [0, 0, 0] });
          for (const [cy, row] of ref.entries()) {
            for (const [cx, choice] of row.entries()) {
              cells++;
              refTotal += choice?.error ?? 0;
              const fast = fitter.fit(raster.data, raster.width, cx * 8, cy * 8);
              const key = maskKey(plan.shapes[fast.shape].mask);
              const refMask = choice?.glyph.mask ?? { lo: 0, hi: 0 };
              // A split whose two means round to one colour shows as a uniform cell.
              const rounded = (c: readonly number[] | null) => (c ? c.map(Math.round).join() : null);
              const uniform =
                (refMask.lo === 0 && refMask.hi === 0) ||
                (refMask.lo === 0xffffffff && refMask.hi === 0xffffffff) ||
                rounded(choice?.fg ?? null) === rounded(choice?.bg ?? null);
              if (key === maskKey(refMask) || key === maskKey(maskComplement(refMask)) || (fast.shape === 0 && uniform))
                same++;
            }
          }
          expect(ours).toBeLessThanOrEqual(FACTOR * refTotal + cells * ROUNDING_SLACK + 1e-6);
          expect(same / cells).toBeGreaterThanOrEqual(cells >= 100 ? 0.99 : (cells - 1) / cells);
        }),
        { numRuns: runs, seed: 7 },
      );
    },
  );

  it('with transparency and a coloured background, output within 1.02x of the reference', () => {
    const background = [20, 120, 200] as const;
    fc.assert(
      fc.property(rasterArb(3, 3, true), (raster) => {
        const text = symbolsLines(raster, { background }).join('\n');
        const painted = paintSymbols(text, { background });
        const ref = referenceFit(raster, SYMBOL_SETS.block, { background });
        const cells = ref.flat().length;
        const refTotal = ref.flat().reduce((s, c) => s + (c?.error ?? 0), 0);
        expect(errorOf(raster, painted.raster, background)).toBeLessThanOrEqual(
          FACTOR * refTotal + cells * ROUNDING_SLACK + 1e-6,
        );
      }),
      { numRuns: 30, seed: 11 },
    );
  });

  it('the fitter reports the error of what it shows', () => {
    fc.assert(
      fc.property(rasterArb(1, 1), (raster) => {
        const fitter = new SymbolFitter(SYMBOL_SETS.block, { depth: 'truecolor', background: [0, 0, 0] });
        const c = fitter.fit(raster.data, raster.width, 0, 0);
        const painted = paintSymbols(symbolsLines(raster).join('\n'));
        expect(c.error).toBeCloseTo(errorOf(raster, painted.raster, [0, 0, 0]), 3);
      }),
      { numRuns: 50, seed: 3 },
    );
  });

  it('24-bit with one candidate: each cell shows the rounded means inside and outside its shape', () => {
    // Holds the default path's own choice of colours (chooseExact) to the definition, at every set.
    const pack = (sum: readonly number[], n: number): number => {
      const [r, g, b] = sum.map((v) => Math.min(255, Math.max(0, Math.round(v / n))));
      return (r << 16) | (g << 8) | b;
    };
    for (const name of ['block', 'sextant', 'octant', 'braille'] as const) {
      fc.assert(
        fc.property(rasterArb(1, 1), (raster) => {
          const fitter = new SymbolFitter(SYMBOL_SETS[name], { depth: 'truecolor', background: [0, 0, 0] });
          const c = fitter.fit(raster.data, raster.width, 0, 0);
          const mask = fitter.plan.shapes[c.shape].mask;
          const inside = [0, 0, 0];
          const outside = [0, 0, 0];
          let n = 0;
          for (let i = 0; i < 64; i++) {
            const into = maskHas(mask, i & 7, i >> 3);
            if (into) n++;
            for (let k = 0; k < 3; k++) (into ? inside : outside)[k] += raster.data[i * 4 + k];
          }
          expect(c.outside, name).toBe(pack(outside, 64 - n));
          expect(c.inside, name).toBe(n === 0 ? c.outside : pack(inside, n));
          if (c.shape !== 0) expect(c.inside, name).not.toBe(c.outside);
        }),
        { numRuns: 60, seed: 11 },
      );
    }
  });

  it('a worse metric loses: plain fits chosen under other weights are no better under ours', () => {
    // Mutation guard for the weights: the fit under ERROR_WEIGHTS minimises exactly that error.
    fc.assert(
      fc.property(rasterArb(2, 2), (raster) => {
        const mine = errorOf(raster, paintSymbols(symbolsLines(raster).join('\n')).raster, [0, 0, 0]);
        const other = errorOf(
          raster,
          paintSymbols(symbolsLines(raster, { weights: [1, 0.01, 10] }).join('\n')).raster,
          [0, 0, 0],
        );
        const cells = (raster.width * raster.height) / 64;
        expect(mine).toBeLessThanOrEqual(other + cells * ROUNDING_SLACK);
      }),
      { numRuns: 40, seed: 5 },
    );
  });
});

describe('flat cells', () => {
  /** One 8x8 cell: `base` everywhere, `lower` (when given) on the lower half. */
  const cell = (base: readonly number[], lower?: readonly number[]): Raster => {
    const data = new Uint8Array(64 * 4);
    for (let i = 0; i < 64; i++) {
      const c = lower && i >= 32 ? lower : base;
      data.set([c[0], c[1], c[2], 255], i * 4);
    }
    return { width: 8, height: 8, data };
  };
  // Halved weights rank every fit as the default ones do, but are not integers, so the fitter
  // scores every shape with them: the reference for the flat-cell shortcut.
  const HALVED = [ERROR_WEIGHTS[0] / 2, ERROR_WEIGHTS[1] / 2, ERROR_WEIGHTS[2] / 2] as const;
  it.each([
    { name: 'black', raster: cell([0, 0, 0]), flat: true },
    { name: 'white', raster: cell([255, 255, 255]), flat: true },
    { name: 'grey-green', raster: cell([90, 140, 60]), flat: true },
    { name: 'lower half one green step up', raster: cell([90, 140, 60], [90, 141, 60]), flat: false },
    { name: 'lower half far', raster: cell([10, 20, 30], [200, 100, 50]), flat: false },
  ])('$name: the same choice as scoring every shape, at every depth', ({ raster, flat }) => {
    for (const depth of ['truecolor', '256', '16'] as const) {
      const fast = new SymbolFitter(SYMBOL_SETS.block, { depth, background: [0, 0, 0] });
      const full = new SymbolFitter(SYMBOL_SETS.block, { depth, background: [0, 0, 0], weights: HALVED });
      const a = { ...fast.fit(raster.data, 8, 0, 0) };
      const b = { ...full.fit(raster.data, 8, 0, 0) };
      expect([a.shape, a.inside, a.outside], depth).toEqual([b.shape, b.inside, b.outside]);
      if (flat) expect(a.shape, depth).toBe(0);
      if (!flat && depth === 'truecolor') expect(a.shape, depth).not.toBe(0);
    }
  });
});
