/**
 * The sixel encoder's functions were reshaped for a one-shot process's first call (issue 26:
 * `boxMoments` into a reused array, the band's colours written in one call); the output must not
 * move by a byte. The encoder as main e7834cd had it is frozen in test/render/frozen/; here both
 * encode arbitrary pictures (noise of many colours for the palette and the dithering, few colours
 * for the exact path, transparency) with arbitrary options, and the palettes and the sequences
 * must be equal. test/render/sixel-golden.test.ts does the same for the committed photos.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { buildPalette } from '../../src/render/pixels/quantize.js';
import { encodeSixelBytes, type SixelOptions } from '../../src/render/pixels/sixel.js';
import { buildPalette as frozenPalette } from './frozen/quantize-e7834cd.js';
import { encodeSixelBytes as frozenSixel } from './frozen/sixel-e7834cd.js';

/** A picture: `levels` levels a channel (few: the exact path; many: the palette), some pixels transparent or not. */
const picture: fc.Arbitrary<Raster> = fc
  .record({
    width: fc.integer({ min: 1, max: 48 }),
    height: fc.integer({ min: 1, max: 40 }),
    levels: fc.constantFrom(2, 3, 8, 64, 256),
    alpha: fc.constantFrom('opaque', 'holes', 'ramp'),
    seed: fc.integer(),
  })
  .map(({ width, height, levels, alpha, seed }) => {
    let s = seed | 0;
    const next = (): number => {
      s = (Math.imul(s, 1103515245) + 12345) | 0;
      return (s >>> 8) & 0xffff;
    };
    const step = Math.floor(255 / (levels - 1));
    const data = new Uint8Array(width * height * 4);
    for (let i = 0; i < data.length; i += 4) {
      data[i] = (next() % levels) * step;
      data[i + 1] = (next() % levels) * step;
      data[i + 2] = (next() % levels) * step;
      data[i + 3] = alpha === 'opaque' ? 255 : alpha === 'holes' ? (next() % 5 === 0 ? 0 : 255) : next() & 255;
    }
    return { width, height, data };
  });

const options: fc.Arbitrary<SixelOptions> = fc.record(
  {
    sixelColors: fc.integer({ min: 2, max: 256 }),
    dither: fc.constantFrom('floyd-steinberg' as const, 'none' as const),
    ditherStrength: fc.double({ min: 0, max: 1, noNaN: true }),
    alphaThreshold: fc.integer({ min: 0, max: 255 }),
    background: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)),
    transparency: fc.boolean(),
    registerZero: fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255)),
  },
  { requiredKeys: [] },
);

describe('the sixel encoder against the frozen model of main e7834cd', () => {
  it('property: the same palette', () => {
    fc.assert(
      fc.property(picture, fc.integer({ min: 1, max: 256 }), fc.integer({ min: 0, max: 255 }), (raster, colors, t) => {
        const a = buildPalette(raster, colors, { alphaThreshold: t });
        const b = frozenPalette(raster, colors, { alphaThreshold: t });
        expect(a.size).toBe(b.size);
        expect(Buffer.from(a.rgb).equals(Buffer.from(b.rgb))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('property: the same sequence, byte for byte', () => {
    fc.assert(
      fc.property(picture, options, (raster, opts) => {
        expect(Buffer.from(encodeSixelBytes(raster, opts)).equals(Buffer.from(frozenSixel(raster, opts)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});
