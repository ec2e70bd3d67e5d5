import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bgParams, fgParams, nearest256, xterm256ToRgb } from '../../src/render/color.js';

function dist(a: readonly number[], b: readonly number[]): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
}

describe('nearest256', () => {
  it.each([
    [0, 0, 0, 16],
    [255, 255, 255, 231],
    [255, 0, 0, 196],
    [0, 255, 0, 46],
    [0, 0, 255, 21],
    [95, 135, 175, 67],
    [128, 128, 128, 244],
    [8, 8, 8, 232],
    [238, 238, 238, 255],
    [18, 18, 18, 233],
  ])('rgb(%i,%i,%i) -> %i', (r, g, b, index) => {
    expect(nearest256(r, g, b)).toBe(index);
  });

  it('maps every palette colour 16-255 back to an index of the same colour', () => {
    for (let i = 16; i < 256; i++) {
      const rgb = xterm256ToRgb(i)!;
      expect(xterm256ToRgb(nearest256(...rgb))).toEqual(rgb);
    }
  });

  it('is the true nearest entry of the palette 16-255 (exhaustive check on random colours)', () => {
    const palette = Array.from({ length: 240 }, (_, k) => xterm256ToRgb(16 + k)!);
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        fc.integer({ min: 0, max: 255 }),
        (r, g, b) => {
          const best = Math.min(...palette.map((p) => dist(p, [r, g, b])));
          expect(dist(xterm256ToRgb(nearest256(r, g, b))!, [r, g, b])).toBe(best);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('xterm256ToRgb', () => {
  it.each([
    [16, [0, 0, 0]],
    [21, [0, 0, 255]],
    [196, [255, 0, 0]],
    [231, [255, 255, 255]],
    [232, [8, 8, 8]],
    [255, [238, 238, 238]],
    [15, null],
    [256, null],
    [1.5, null],
  ])('%s -> %j', (i, rgb) => {
    expect(xterm256ToRgb(i)).toEqual(rgb);
  });
});

describe('fgParams / bgParams', () => {
  it.each([
    [[1, 2, 3], 'truecolor', '38;2;1;2;3', '48;2;1;2;3'],
    [[255, 0, 0], '256', '38;5;196', '48;5;196'],
    [[255, 0, 0], 'none', '', ''],
  ] as const)('%j at %s', (rgb, depth, fg, bg) => {
    expect(fgParams(rgb[0], rgb[1], rgb[2], depth)).toBe(fg);
    expect(bgParams(rgb[0], rgb[1], rgb[2], depth)).toBe(bg);
  });
});
