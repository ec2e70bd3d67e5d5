import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { ditherToPalette } from '../../src/render/pixels/dither.js';
import {
  buildPalette,
  exactIndex,
  exactPalette,
  mapExact,
  NearestColor,
  type Palette,
  TRANSPARENT,
} from '../../src/render/pixels/quantize.js';

function fromPixels(width: number, pixels: number[][]): Raster {
  const data = new Uint8Array(pixels.length * 4);
  for (const [i, p] of pixels.entries()) data.set(p.length === 4 ? p : [...p, 255], i * 4);
  return { width, height: pixels.length / width, data };
}

function bruteNearest(palette: Palette, r: number, g: number, b: number): number {
  let best = Infinity;
  let index = 0;
  for (let i = 0; i < palette.size; i++) {
    const d = (palette.rgb[i * 3] - r) ** 2 + (palette.rgb[i * 3 + 1] - g) ** 2 + (palette.rgb[i * 3 + 2] - b) ** 2;
    if (d < best) {
      best = d;
      index = i;
    }
  }
  return index;
}

const distance = (palette: Palette, i: number, r: number, g: number, b: number): number =>
  (palette.rgb[i * 3] - r) ** 2 + (palette.rgb[i * 3 + 1] - g) ** 2 + (palette.rgb[i * 3 + 2] - b) ** 2;

const paletteArb = fc
  .array(
    fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 255 })),
    { minLength: 1, maxLength: 256 },
  )
  .map((colours): Palette => ({ size: colours.length, rgb: Uint8Array.from(colours.flat()) }));
const byte = fc.integer({ min: 0, max: 255 });

describe('exactPalette', () => {
  it.each<{ name: string; pixels: number[][]; limit: number; expected: number | null }>([
    {
      name: 'three colours, limit 3',
      pixels: [
        [1, 2, 3],
        [4, 5, 6],
        [1, 2, 3],
        [7, 8, 9],
      ],
      limit: 3,
      expected: 3,
    },
    {
      name: 'three colours, limit 2',
      pixels: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
        [7, 8, 9],
      ],
      limit: 2,
      expected: null,
    },
    {
      name: 'transparent pixels do not count',
      pixels: [
        [1, 2, 3],
        [4, 5, 6, 0],
        [7, 8, 9, 100],
        [1, 2, 3],
      ],
      limit: 1,
      expected: 1,
    },
    { name: 'nothing painted', pixels: [[1, 2, 3, 0]], limit: 2, expected: 0 },
  ])('$name', ({ pixels, limit, expected }) => {
    const palette = exactPalette(fromPixels(1, pixels), limit, 128);
    expect(palette === null ? null : palette.size).toBe(expected);
  });

  it('maps every painted colour to its own entry', () => {
    const pixels = Array.from({ length: 300 }, (_, i) => [
      ((i % 240) * 7) & 255,
      ((i % 240) * 13) & 255,
      i % 240,
      i % 17 === 0 ? 0 : 255,
    ]);
    const raster = fromPixels(20, pixels);
    const palette = exactPalette(raster, 256, 128)!;
    const out = mapExact(raster, palette, 128, new Uint16Array(300));
    pixels.forEach((p, i) => {
      if (p[3] === 0) expect(out[i]).toBe(TRANSPARENT);
      else expect(Array.from(palette.rgb.subarray(out[i] * 3, out[i] * 3 + 3))).toEqual(p.slice(0, 3));
    });
    expect(exactIndex(palette, 0xabcdef)).toBe(-1);
  });
});

describe('NearestColor', () => {
  it('search finds a colour at the least distance (any palette, any colour)', () => {
    fc.assert(
      fc.property(paletteArb, byte, byte, byte, (palette, r, g, b) => {
        const nearest = new NearestColor(palette);
        const found = nearest.search(r, g, b);
        expect(distance(palette, found, r, g, b)).toBe(distance(palette, bruteNearest(palette, r, g, b), r, g, b));
      }),
      { numRuns: 500 },
    );
  });

  it('search returns the lowest index among equally near colours (the palettes and pictures depend on it)', () => {
    fc.assert(
      fc.property(paletteArb, byte, byte, byte, (palette, r, g, b) => {
        // Every colour twice (the second copies after the first): each nearest colour ties with its copy.
        const half = palette.rgb.subarray(0, Math.min(palette.size, 128) * 3);
        const doubled: Palette = { size: (half.length / 3) * 2, rgb: Uint8Array.from([...half, ...half]) };
        expect(new NearestColor(doubled).search(r, g, b)).toBe(bruteNearest(doubled, r, g, b));
        expect(new NearestColor(palette).search(r, g, b)).toBe(bruteNearest(palette, r, g, b));
      }),
      { numRuns: 300 },
    );
  });

  it('the cached lookup gives the nearest colour to its cell centre', () => {
    fc.assert(
      fc.property(
        paletteArb,
        fc.array(fc.tuple(byte, byte, byte), { minLength: 1, maxLength: 50 }),
        (palette, queries) => {
          const nearest = new NearestColor(palette);
          for (const [r, g, b] of queries) {
            const [cr, cg, cb] = [(r & ~3) | 2, (g & ~3) | 2, (b & ~3) | 2];
            const found = nearest.nearest(r, g, b);
            expect(distance(palette, found, cr, cg, cb)).toBe(
              distance(palette, bruteNearest(palette, cr, cg, cb), cr, cg, cb),
            );
            expect(nearest.nearest(r, g, b)).toBe(found); // and again from the cache
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('rejects an empty palette', () => {
    expect(() => new NearestColor({ size: 0, rgb: new Uint8Array(0) })).toThrow(RangeError);
  });
});

describe('buildPalette', () => {
  /** Pixels scattered around the given centres (±6 on each channel). */
  function clusters(centres: number[][], perCluster: number): Raster {
    const pixels: number[][] = [];
    let s = 7;
    const next = (): number => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s >>> 16) % 13;
    };
    for (const c of centres) for (let k = 0; k < perCluster; k++) pixels.push(c.map((v) => v + next() - 6));
    return fromPixels(perCluster, pixels);
  }

  it.each<{ name: string; centres: number[][]; colors: number }>([
    {
      name: 'two clusters, two colours',
      centres: [
        [40, 40, 40],
        [200, 180, 20],
      ],
      colors: 2,
    },
    {
      name: 'four clusters, four colours',
      centres: [
        [20, 200, 20],
        [200, 20, 20],
        [20, 20, 200],
        [220, 220, 220],
      ],
      colors: 4,
    },
  ])('$name: one colour near each cluster', ({ centres, colors }) => {
    const palette = buildPalette(clusters(centres, 200), colors);
    expect(palette.size).toBe(colors);
    for (const c of centres) {
      const i = bruteNearest(palette, c[0], c[1], c[2]);
      expect(Math.sqrt(distance(palette, i, c[0], c[1], c[2]))).toBeLessThan(4);
    }
  });

  it.each([
    { name: 'never more than 2 colours', colors: 2 },
    { name: 'never more than 16 colours', colors: 16 },
    { name: 'never more than 100 colours', colors: 100 },
    { name: 'never more than 256 colours', colors: 256 },
  ])('$name', ({ colors }) => {
    const pixels = Array.from({ length: 4000 }, (_, i) => [(i * 37) & 255, (i * 101) & 255, (i * 53) & 255]);
    const palette = buildPalette(fromPixels(40, pixels), colors);
    expect(palette.size).toBeGreaterThan(1);
    expect(palette.size).toBeLessThanOrEqual(colors);
    expect(palette.rgb.length).toBe(palette.size * 3);
  });

  it('a sampled histogram still finds both halves of a picture', () => {
    const pixels = Array.from({ length: 10000 }, (_, i) => (i < 5000 ? [250, 10, 10] : [10, 10, 250]));
    const palette = buildPalette(fromPixels(100, pixels), 2, { sampleLimit: 500 });
    const found = [bruteNearest(palette, 250, 10, 10), bruteNearest(palette, 10, 10, 250)];
    expect(new Set(found).size).toBe(2);
    expect(distance(palette, found[0], 250, 10, 10)).toBe(0);
  });

  it('ignores transparent pixels, and is empty when none is painted', () => {
    const raster = fromPixels(2, [
      [255, 0, 0, 0],
      [0, 0, 255, 255],
    ]);
    expect(Array.from(buildPalette(raster, 4).rgb)).toEqual([0, 0, 255]);
    expect(buildPalette(fromPixels(1, [[1, 2, 3, 0]]), 4).size).toBe(0);
  });
});

describe('ditherToPalette', () => {
  const blackWhite: Palette = { size: 2, rgb: Uint8Array.of(0, 0, 0, 255, 255, 255) };

  it.each<{ name: string; grey: number; strength: number; share: number }>([
    // grey level, strength, expected share of white (±0.03)
    {
      name: 'grey 128 with full error diffusion keeps the mean (strength 1)',
      grey: 128,
      strength: 1,
      share: 128 / 255,
    },
    { name: 'grey 64 with full error diffusion keeps the mean (strength 1)', grey: 64, strength: 1, share: 64 / 255 },
    {
      name: 'grey 200 with full error diffusion keeps the mean (strength 1)',
      grey: 200,
      strength: 1,
      share: 200 / 255,
    },
  ])('$name', ({ grey, strength, share }) => {
    const raster = fromPixels(
      64,
      Array.from({ length: 64 * 64 }, () => [grey, grey, grey]),
    );
    const out = ditherToPalette(raster, blackWhite, new Uint16Array(64 * 64), { strength });
    const white = out.reduce((n, v) => n + v, 0) / out.length;
    expect(Math.abs(white - share)).toBeLessThan(0.03);
  });

  it.each<{ name: string; r: number; g: number; b: number }>([
    {
      name: 'colour (64, 128, 200) on the cube corners keeps each channel mean with full diffusion',
      r: 64,
      g: 128,
      b: 200,
    },
    {
      name: 'colour (200, 30, 90) on the cube corners keeps each channel mean with full diffusion',
      r: 200,
      g: 30,
      b: 90,
    },
    {
      name: 'colour (10, 240, 120) on the cube corners keeps each channel mean with full diffusion',
      r: 10,
      g: 240,
      b: 120,
    },
  ])('$name', ({ r, g, b }) => {
    const corners: Palette = {
      size: 8,
      rgb: Uint8Array.from(
        [0, 1, 2, 3, 4, 5, 6, 7].flatMap((k) => [k & 4 ? 255 : 0, k & 2 ? 255 : 0, k & 1 ? 255 : 0]),
      ),
    };
    const raster = fromPixels(
      64,
      Array.from({ length: 64 * 64 }, () => [r, g, b]),
    );
    const out = ditherToPalette(raster, corners, new Uint16Array(64 * 64), { strength: 1 });
    const mean = [0, 1, 2].map((c) => out.reduce((sum, v) => sum + corners.rgb[v * 3 + c], 0) / out.length);
    for (const [c, want] of [r, g, b].entries()) expect(Math.abs(mean[c] - want)).toBeLessThan(2);
  });

  it.each([
    { name: 'weaker diffusion (strength 0.25) still mixes both colours on mid grey', strength: 0.25 },
    { name: 'weaker diffusion (strength 0.75) still mixes both colours on mid grey', strength: 0.75 },
  ])('$name', ({ strength }) => {
    const raster = fromPixels(
      32,
      Array.from({ length: 32 * 32 }, () => [128, 128, 128]),
    );
    const out = ditherToPalette(raster, blackWhite, new Uint16Array(32 * 32), { strength });
    expect(new Set(out).size).toBe(2);
  });

  it("method 'none' maps each pixel to its nearest colour", () => {
    const pixels = Array.from({ length: 500 }, (_, i) => [(i * 29) & 255, (i * 7) & 255, (i * 61) & 255]);
    const palette: Palette = { size: 5, rgb: Uint8Array.of(0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 128, 128, 128) };
    const out = ditherToPalette(fromPixels(25, pixels), palette, new Uint16Array(500), { method: 'none' });
    pixels.forEach((p, i) => {
      const [cr, cg, cb] = p.map((v) => (v & ~3) | 2);
      expect(distance(palette, out[i], cr, cg, cb)).toBe(
        distance(palette, bruteNearest(palette, cr, cg, cb), cr, cg, cb),
      );
    });
  });

  it.each([
    { name: 'floyd-steinberg leaves pixels below the threshold unpainted', method: 'floyd-steinberg' },
    { name: 'none leaves pixels below the threshold unpainted', method: 'none' },
  ] as const)('$name', ({ method }) => {
    const pixels = Array.from({ length: 100 }, (_, i) => [100, 100, 100, i % 3 === 0 ? 10 : 255]);
    const out = ditherToPalette(fromPixels(10, pixels), blackWhite, new Uint16Array(100), {
      method,
      alphaThreshold: 128,
    });
    for (const [i, p] of pixels.entries()) expect(out[i] === TRANSPARENT).toBe(p[3] < 128);
  });
});
