import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { resize } from '../../src/render/geometry/resize.js';
import { resampleForSymbols } from '../../src/render/text/symbols-resample.js';

/** A deterministic opaque picture with detail on both axes (a hash of the position). */
function noise(width: number, height: number, seed = 1): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const h = Math.imul(i + seed, 2654435761) >>> 0;
    data[i * 4] = h & 255;
    data[i * 4 + 1] = (h >>> 8) & 255;
    data[i * 4 + 2] = (h >>> 16) & 255;
    data[i * 4 + 3] = 255;
  }
  return { width, height, data };
}

/** The largest difference of any byte, and how many bytes differ. */
function compare(a: Raster, b: Raster): { max: number; differing: number } {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let max = 0;
  let differing = 0;
  for (let i = 0; i < a.data.length; i++) {
    const d = Math.abs(a.data[i] - b.data[i]);
    if (d > 0) differing++;
    max = Math.max(max, d);
  }
  return { max, differing };
}

describe('resampleForSymbols', () => {
  it.each([
    { name: 'enlarged across, shrunk down (a photo on the symbol grid)', from: [512, 512], to: [640, 320] },
    { name: 'shrunk both ways', from: [1000, 872], to: [640, 280] },
    { name: 'enlarged both ways (an icon)', from: [70, 46], to: [160, 64] },
    { name: 'shrunk across, enlarged down', from: [300, 40], to: [64, 96] },
    { name: 'only rows change', from: [64, 100], to: [64, 48] },
    { name: 'only columns change', from: [100, 64], to: [48, 64] },
    { name: 'one pixel to many', from: [1, 1], to: [16, 8] },
    { name: 'a column to a cell', from: [1, 37], to: [8, 8] },
  ])('$name: resize within one level, on almost every byte the same', ({ from, to }) => {
    const source = noise(from[0], from[1]);
    const { max, differing } = compare(resampleForSymbols(source, to[0], to[1]), resize(source, to[0], to[1]));
    expect(max).toBeLessThanOrEqual(1);
    expect(differing).toBeLessThanOrEqual(Math.ceil(to[0] * to[1] * 4 * 0.01));
  });

  it.each([
    { name: 'halved both ways', from: [64, 48], to: [32, 24] },
    { name: 'quartered down, halved across', from: [64, 64], to: [32, 16] },
    { name: 'doubled across, halved down', from: [32, 64], to: [64, 32] },
  ])('$name: exact ratios give exactly resize', ({ from, to }) => {
    const source = noise(from[0], from[1], 7);
    expect(compare(resampleForSymbols(source, to[0], to[1]), resize(source, to[0], to[1]))).toEqual({
      max: 0,
      differing: 0,
    });
  });

  it('any opaque picture and size: within one level of resize, alpha 255', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer({ min: 1, max: 90 }),
        fc.integer(),
        (sw, sh, w, h, seed) => {
          const source = noise(sw, sh, seed);
          const ours = resampleForSymbols(source, w, h);
          expect(compare(ours, resize(source, w, h)).max).toBeLessThanOrEqual(1);
          let opaque = true;
          for (let i = 3; i < ours.data.length; i += 4) opaque &&= ours.data[i] === 255;
          expect(opaque).toBe(true);
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each([
    { name: 'the first pixel half transparent', at: 0, alpha: 128 },
    { name: 'the last pixel transparent', at: 40 * 30 - 1, alpha: 0 },
    { name: 'a pixel in the middle nearly opaque', at: 15 * 40 + 20, alpha: 254 },
  ])('$name: exactly resize (premultiplied alpha)', ({ at, alpha }) => {
    const source = noise(40, 30, 3);
    source.data[at * 4 + 3] = alpha;
    for (const [w, h] of [
      [64, 16],
      [16, 64],
      [24, 24],
    ]) {
      expect(resampleForSymbols(source, w, h).data).toEqual(resize(source, w, h).data);
    }
  });

  it('a picture not on a 4-byte boundary: exactly resize', () => {
    const source = noise(20, 10);
    const shifted = new Uint8Array(source.data.length + 1).subarray(1);
    shifted.set(source.data);
    const raster = { width: 20, height: 10, data: shifted };
    expect(resampleForSymbols(raster, 48, 8).data).toEqual(resize(raster, 48, 8).data);
  });

  it('the same size: the raster itself', () => {
    const source = noise(16, 8);
    expect(resampleForSymbols(source, 16, 8)).toBe(source);
  });

  it.each([
    { name: 'zero width', size: [0, 8] },
    { name: 'fractional height', size: [8, 2.5] },
    { name: 'beyond the side limit', size: [100_000, 8] },
    { name: 'NaN', size: [Number.NaN, 8] },
  ])('$name: the same error as resize', ({ size }) => {
    const source = noise(4, 4);
    const theirs = (() => {
      try {
        resize(source, size[0], size[1]);
      } catch (e) {
        return e;
      }
    })();
    expect(theirs).toBeInstanceOf(Error);
    expect(() => resampleForSymbols(source, size[0], size[1])).toThrow(theirs as Error);
  });
});
