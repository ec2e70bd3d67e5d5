import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nearest256, xterm256ToRgb } from '../../src/render/text/color.js';
import { colorKey, key256, keyRgb, XTERM_RGB } from '../../src/render/text/symbols-palette.js';

describe('key256: colorKey at 256 colours in one function', () => {
  it('names the same index as colorKey for any channel values (property)', () => {
    const channel = fc.oneof(
      fc.double({ min: -40, max: 300, noNaN: true }),
      fc.integer({ min: 0, max: 255 }),
      // Values on a rounding edge (x.5) and on the cube's thresholds.
      fc.integer({ min: 0, max: 510 }).map((v) => v / 2),
      fc.constantFrom(47.5, 48, 114.5, 115, 154.5, 155, 194.5, 195, 234.5, 235, Number.NaN, Infinity, -Infinity),
    );
    fc.assert(
      fc.property(channel, channel, channel, (r, g, b) => {
        expect(key256(r, g, b)).toBe(colorKey(r, g, b, '256', [3, 4, 2]));
      }),
      { numRuns: 5000 },
    );
  });

  it('every byte triple on a coarse lattice and the grey axis: nearest256 of the bytes', () => {
    for (let r = 0; r < 256; r += 5)
      for (let g = 0; g < 256; g += 5)
        for (let b = 0; b < 256; b += 5) expect(key256(r, g, b)).toBe(nearest256(r, g, b));
    for (let v = 0; v < 256; v++) expect(key256(v, v, v)).toBe(nearest256(v, v, v));
  });

  it('XTERM_RGB holds the palette keyRgb reads', () => {
    for (let i = 16; i < 256; i++) {
      expect([XTERM_RGB[i * 3], XTERM_RGB[i * 3 + 1], XTERM_RGB[i * 3 + 2]]).toEqual(xterm256ToRgb(i));
      expect(keyRgb(i, '256', [0, 0, 0])).toEqual(xterm256ToRgb(i));
    }
  });
});
