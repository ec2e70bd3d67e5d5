import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOpaque, type Raster } from '../../src/core/raster.js';

/** `pixels` opaque grey pixels in one row, with the alpha of pixel `at` (if any) set to `alpha`. */
function row(pixels: number, at = -1, alpha = 255, offset = 0): Raster {
  const bytes = new Uint8Array(pixels * 4 + offset).fill(128);
  const data = bytes.subarray(offset);
  for (let i = 3; i < data.length; i += 4) data[i] = 255;
  if (at >= 0) data[at * 4 + 3] = alpha;
  return { width: pixels, height: 1, data };
}

/** The definition: every fourth byte, from the fourth, is 255. */
function definition(data: Uint8Array): boolean {
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return false;
  return true;
}

describe('isOpaque', () => {
  // Positions chosen for the word loop's shape: eight pixels a step, the rest one by one, spans
  // of 8192 pixels; and byte data that is not 4-byte aligned, read byte by byte.
  const cases: { name: string; raster: Raster; opaque: boolean }[] = [
    { name: 'one opaque pixel', raster: row(1), opaque: true },
    { name: 'one pixel of alpha 254', raster: row(1, 0, 254), opaque: false },
    { name: 'a transparent first pixel', raster: row(17, 0, 0), opaque: false },
    { name: 'alpha 254 in the middle of an eight-pixel step', raster: row(17, 5, 254), opaque: false },
    { name: 'alpha 254 in the last pixel of the last whole step', raster: row(17, 15, 254), opaque: false },
    { name: 'alpha 254 in the pixel left over after the steps', raster: row(17, 16, 254), opaque: false },
    { name: 'seventeen opaque pixels', raster: row(17), opaque: true },
    { name: 'alpha 0 first in the second span', raster: row(8192 * 2 + 3, 8192, 0), opaque: false },
    {
      name: 'alpha 254 in the last pixel after two spans',
      raster: row(8192 * 2 + 3, 8192 * 2 + 2, 254),
      opaque: false,
    },
    { name: 'two spans and more, opaque', raster: row(8192 * 2 + 3), opaque: true },
    { name: 'not 4-byte aligned, opaque', raster: row(17, -1, 255, 1), opaque: true },
    { name: 'not 4-byte aligned, alpha 254 last', raster: row(17, 16, 254, 1), opaque: false },
    { name: 'not 4-byte aligned, alpha 0 first', raster: row(17, 0, 0, 3), opaque: false },
  ];
  it.each(cases)('$name', ({ raster, opaque }) => {
    expect(isOpaque(raster)).toBe(opaque);
  });

  it('an opaque colour that is not grey stays opaque (only the alpha byte counts)', () => {
    const r = row(9);
    for (let i = 0; i < r.data.length; i += 4) r.data.set([0, 255, 7], i);
    expect(isOpaque(r)).toBe(true);
  });

  it('agrees with the definition on any bytes, aligned or not', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constant(255), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 255 }),
        (alphas, offset, colour) => {
          const bytes = new Uint8Array(alphas.length * 4 + offset).fill(colour);
          const data = bytes.subarray(offset);
          alphas.forEach((a, i) => {
            data[i * 4 + 3] = a;
          });
          expect(isOpaque({ width: alphas.length, height: 1, data })).toBe(definition(data));
        },
      ),
    );
  });
});
