import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bgParams, fgParams, nearest256, xterm256ToRgb } from '../../src/render/text/color.js';

function dist(a: readonly number[], b: readonly number[]): number {
  return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2;
}

describe('nearest256', () => {
  it.each([
    { name: 'rgb(0,0,0) -> 16', r: 0, g: 0, b: 0, index: 16 },
    { name: 'rgb(255,255,255) -> 231', r: 255, g: 255, b: 255, index: 231 },
    { name: 'rgb(255,0,0) -> 196', r: 255, g: 0, b: 0, index: 196 },
    { name: 'rgb(0,255,0) -> 46', r: 0, g: 255, b: 0, index: 46 },
    { name: 'rgb(0,0,255) -> 21', r: 0, g: 0, b: 255, index: 21 },
    { name: 'rgb(95,135,175) -> 67', r: 95, g: 135, b: 175, index: 67 },
    { name: 'rgb(128,128,128) -> 244', r: 128, g: 128, b: 128, index: 244 },
    { name: 'rgb(8,8,8) -> 232', r: 8, g: 8, b: 8, index: 232 },
    { name: 'rgb(238,238,238) -> 255', r: 238, g: 238, b: 238, index: 255 },
    { name: 'rgb(18,18,18) -> 233', r: 18, g: 18, b: 18, index: 233 },
  ])('$name', ({ r, g, b, index }) => {
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
    { name: '16 -> [0, 0, 0]', i: 16, rgb: [0, 0, 0] },
    { name: '21 -> [0, 0, 255]', i: 21, rgb: [0, 0, 255] },
    { name: '196 -> [255, 0, 0]', i: 196, rgb: [255, 0, 0] },
    { name: '231 -> [255, 255, 255]', i: 231, rgb: [255, 255, 255] },
    { name: '232 -> [8, 8, 8]', i: 232, rgb: [8, 8, 8] },
    { name: '255 -> [238, 238, 238]', i: 255, rgb: [238, 238, 238] },
    { name: '15 -> null', i: 15, rgb: null },
    { name: '256 -> null', i: 256, rgb: null },
    { name: '1.5 -> null', i: 1.5, rgb: null },
  ])('$name', ({ i, rgb }) => {
    expect(xterm256ToRgb(i)).toEqual(rgb);
  });
});

describe('fgParams / bgParams', () => {
  it.each([
    { name: '[1, 2, 3] at truecolor', rgb: [1, 2, 3], depth: 'truecolor', fg: '38;2;1;2;3', bg: '48;2;1;2;3' },
    { name: '[255, 0, 0] at 256', rgb: [255, 0, 0], depth: '256', fg: '38;5;196', bg: '48;5;196' },
    { name: '[255, 0, 0] at none', rgb: [255, 0, 0], depth: 'none', fg: '', bg: '' },
  ] as const)('$name', ({ rgb, depth, fg, bg }) => {
    expect(fgParams(rgb[0], rgb[1], rgb[2], depth)).toBe(fg);
    expect(bgParams(rgb[0], rgb[1], rgb[2], depth)).toBe(bg);
  });
});
