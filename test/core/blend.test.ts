/**
 * The one alpha blend against the formulas it replaced, for every input a renderer gives it
 * (channel, background and alpha all whole numbers 0..255: 2^24 cases), and as a property for
 * fractional backgrounds. Each old formula is written out here as it stood in its renderer.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { blendChannel, blendChannelByte } from '../../src/core/blend.js';

/** sixel's composite: integer arithmetic, stored into a byte array (which truncates). */
const sixelFormula = (v: number, b: number, a: number): number => Math.trunc((v * a + b * (255 - a) + 127) / 255);
/** blocks and braille's general path: k = a / 255, j = 1 - k, rounded half up by `| 0`. */
const blocksFormula = (v: number, b: number, a: number): number => {
  const k = a / 255,
    j = 1 - k;
  return (v * k + b * j + 0.5) | 0;
};
/** braille's translucent cells: per-alpha tables of a / 255 and b x (1 - a / 255). */
const ALPHA = Float64Array.from({ length: 256 }, (_, a) => a / 255);
const brailleTableFormula = (v: number, b: number, a: number): number => (v * ALPHA[a]! + b * (1 - a / 255) + 0.5) | 0;
/** symbols (fit and mono): the unrounded blend. */
const symbolsFormula = (v: number, b: number, a: number): number => {
  const k = a / 255;
  return v * k + b * (1 - k);
};

describe('blendChannel / blendChannelByte', () => {
  it.each([
    { name: 'opaque shows the pixel', v: 200, b: 10, a: 255, exact: 200, byte: 200 },
    { name: 'alpha 0 shows the background', v: 200, b: 10, a: 0, exact: 10, byte: 10 },
    { name: 'a fifth of white on black', v: 255, b: 0, a: 51, exact: 51, byte: 51 },
    {
      name: 'half between 200 and 100 rounds to the nearer byte',
      v: 200,
      b: 100,
      a: 128,
      exact: 150.19607843137257,
      byte: 150,
    },
    { name: 'just below a half rounds down', v: 1, b: 0, a: 127, exact: 127 / 255, byte: 0 },
    { name: 'just above a half rounds up', v: 1, b: 0, a: 128, exact: 128 / 255, byte: 1 },
  ])('$name', ({ v, b, a, exact, byte }) => {
    expect(blendChannel(v, b, a)).toBeCloseTo(exact, 12);
    expect(blendChannelByte(v, b, a)).toBe(byte);
  });

  it('equals every replaced formula for all 2^24 whole-number inputs', () => {
    const mismatches: string[] = [];
    for (let a = 0; a < 256; a++)
      for (let b = 0; b < 256; b++)
        for (let v = 0; v < 256; v++) {
          const byte = blendChannelByte(v, b, a);
          if (
            byte !== sixelFormula(v, b, a) ||
            byte !== blocksFormula(v, b, a) ||
            byte !== brailleTableFormula(v, b, a) ||
            !Object.is(blendChannel(v, b, a), symbolsFormula(v, b, a))
          )
            mismatches.push(`v=${v} b=${b} a=${a}`);
        }
    expect(mismatches).toEqual([]);
  });

  it('with any background (also fractional) it is the renderers’ formulas bit for bit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.double({ min: 0, max: 255, noNaN: true }),
        fc.integer({ min: 0, max: 255 }),
        (v, b, a) => {
          expect(blendChannelByte(v, b, a)).toBe(blocksFormula(v, b, a));
          expect(blendChannelByte(v, b, a)).toBe(brailleTableFormula(v, b, a));
          expect(Object.is(blendChannel(v, b, a), symbolsFormula(v, b, a))).toBe(true);
        },
      ),
    );
  });

  it('lies between the pixel and the background, within half a step of the exact rational blend', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        (v, b, a) => {
          const byte = blendChannelByte(v, b, a);
          expect(byte).toBeGreaterThanOrEqual(Math.min(v, b));
          expect(byte).toBeLessThanOrEqual(Math.max(v, b));
          expect(Math.abs(byte * 255 - (v * a + b * (255 - a)))).toBeLessThanOrEqual(127);
        },
      ),
    );
  });
});
