import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { fitPixels, resize } from '../../src/render/geometry/resize.js';

function solid(width: number, height: number, rgba: readonly number[]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

function pixel(r: Raster, x: number, y: number): number[] {
  const i = (y * r.width + x) * 4;
  return Array.from(r.data.subarray(i, i + 4));
}

describe('fitPixels', () => {
  it.each([
    // source, box, upscale, expected
    {
      name: '{ width: 4000, height: 3000 } into { width: 800, height: 800 } (upscale false) -> { width: 800, height: 600 }',
      source: { width: 4000, height: 3000 },
      box: { width: 800, height: 800 },
      upscale: false,
      expected: { width: 800, height: 600 },
    },
    {
      name: '{ width: 3000, height: 4000 } into { width: 800, height: 800 } (upscale false) -> { width: 600, height: 800 }',
      source: { width: 3000, height: 4000 },
      box: { width: 800, height: 800 },
      upscale: false,
      expected: { width: 600, height: 800 },
    },
    {
      name: '{ width: 100, height: 50 } into { width: 800, height: 800 } (upscale false) -> { width: 100, height: 50 }',
      source: { width: 100, height: 50 },
      box: { width: 800, height: 800 },
      upscale: false,
      expected: { width: 100, height: 50 },
    },
    {
      name: '{ width: 100, height: 50 } into { width: 800, height: 800 } (upscale true) -> { width: 800, height: 400 }',
      source: { width: 100, height: 50 },
      box: { width: 800, height: 800 },
      upscale: true,
      expected: { width: 800, height: 400 },
    },
    {
      name: '{ width: 1, height: 1 } into { width: 10, height: 10 } (upscale false) -> { width: 1, height: 1 }',
      source: { width: 1, height: 1 },
      box: { width: 10, height: 10 },
      upscale: false,
      expected: { width: 1, height: 1 },
    },
    {
      name: '{ width: 1, height: 1 } into { width: 10, height: 20 } (upscale true) -> { width: 10, height: 10 }',
      source: { width: 1, height: 1 },
      box: { width: 10, height: 20 },
      upscale: true,
      expected: { width: 10, height: 10 },
    },
    {
      name: '{ width: 10000, height: 1 } into { width: 100, height: 100 } (upscale false) -> { width: 100, height: 1 }',
      source: { width: 10000, height: 1 },
      box: { width: 100, height: 100 },
      upscale: false,
      expected: { width: 100, height: 1 },
    },
    {
      name: '{ width: 1, height: 10000 } into { width: 100, height: 100 } (upscale false) -> { width: 1, height: 100 }',
      source: { width: 1, height: 10000 },
      box: { width: 100, height: 100 },
      upscale: false,
      expected: { width: 1, height: 100 },
    },
    {
      name: '{ width: 500, height: 500 } into { width: 0.5, height: 0.5 } (upscale false) -> { width: 1, height: 1 }',
      source: { width: 500, height: 500 },
      box: { width: 0.5, height: 0.5 },
      upscale: false,
      expected: { width: 1, height: 1 },
    },
    {
      name: '{ width: 640, height: 480 } into { width: 640, height: 480 } (upscale false) -> { width: 640, height: 480 }',
      source: { width: 640, height: 480 },
      box: { width: 640, height: 480 },
      upscale: false,
      expected: { width: 640, height: 480 },
    },
    {
      name: '{ width: 333, height: 100 } into { width: 100, height: 100 } (upscale false) -> { width: 100, height: 30 }',
      source: { width: 333, height: 100 },
      box: { width: 100, height: 100 },
      upscale: false,
      expected: { width: 100, height: 30 },
    },
  ])('$name', ({ source, box, upscale, expected }) => {
    expect(fitPixels(source, box, upscale)).toEqual(expected);
  });

  it.each([
    {
      name: 'rejects { width: 0, height: 1 } into { width: 1, height: 1 }',
      source: { width: 0, height: 1 },
      box: { width: 1, height: 1 },
    },
    {
      name: 'rejects { width: 1, height: NaN } into { width: 1, height: 1 }',
      source: { width: 1, height: NaN },
      box: { width: 1, height: 1 },
    },
    {
      name: 'rejects { width: 1, height: 1 } into { width: -1, height: 1 }',
      source: { width: 1, height: 1 },
      box: { width: -1, height: 1 },
    },
  ])('$name', ({ source, box }) => {
    expect(() => fitPixels(source, box)).toThrow(RangeError);
  });

  it('never exceeds the box and keeps the aspect ratio within rounding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.integer({ min: 1, max: 2000 }),
        fc.boolean(),
        (sw, sh, bw, bh, up) => {
          const { width, height } = fitPixels({ width: sw, height: sh }, { width: bw, height: bh }, up);
          expect(width).toBeGreaterThanOrEqual(1);
          expect(height).toBeGreaterThanOrEqual(1);
          expect(width).toBeLessThanOrEqual(bw);
          expect(height).toBeLessThanOrEqual(bh);
          if (!up) {
            expect(width).toBeLessThanOrEqual(sw);
            expect(height).toBeLessThanOrEqual(sh);
          }
          // one side touches the limit (box or, without upscale, the source)
          const limW = up ? bw : Math.min(bw, sw);
          const limH = up ? bh : Math.min(bh, sh);
          expect(width === limW || height === limH || Math.abs(width / height - sw / sh) < 1).toBe(true);
        },
      ),
    );
  });
});

describe('resize', () => {
  it.each([
    { name: '100x75 -> 20x15 keeps an opaque colour exact', sw: 4000 / 40, sh: 3000 / 40, dw: 20, dh: 15 },
    { name: '7x5 -> 3x2 keeps an opaque colour exact', sw: 7, sh: 5, dw: 3, dh: 2 },
    { name: '3x3 -> 1x1 keeps an opaque colour exact', sw: 3, sh: 3, dw: 1, dh: 1 },
    { name: '1x1 -> 5x7 keeps an opaque colour exact', sw: 1, sh: 1, dw: 5, dh: 7 },
    { name: '5x1 -> 12x1 keeps an opaque colour exact', sw: 5, sh: 1, dw: 12, dh: 1 },
    { name: '13x17 -> 40x3 keeps an opaque colour exact', sw: 13, sh: 17, dw: 40, dh: 3 },
  ])('$name', ({ sw, sh, dw, dh }) => {
    const colour = [12, 200, 99, 255];
    const out = resize(solid(sw, sh, colour), dw, dh);
    expect(out.width).toBe(dw);
    expect(out.height).toBe(dh);
    expect(out.data.length).toBe(dw * dh * 4);
    for (let y = 0; y < dh; y++) for (let x = 0; x < dw; x++) expect(pixel(out, x, y)).toEqual(colour);
  });

  it.each([
    {
      name: 'four opaque colours',
      px: [
        [0, 100, 200, 255],
        [10, 20, 30, 255],
        [255, 255, 255, 255],
        [1, 2, 3, 255],
      ],
    },
    {
      name: 'black and white checks',
      px: [
        [0, 0, 0, 255],
        [255, 255, 255, 255],
        [255, 255, 255, 255],
        [0, 0, 0, 255],
      ],
    },
    {
      name: 'one opaque red, the same red transparent and two transparent blacks',
      px: [
        [200, 0, 0, 255],
        [200, 0, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
      ],
    },
    {
      name: 'partly transparent colours and an opaque grey',
      px: [
        [200, 40, 0, 128],
        [0, 40, 200, 64],
        [0, 0, 0, 0],
        [90, 90, 90, 255],
      ],
    },
  ])('2x2 -> 1x1 is the premultiplied average of $name', ({ px }) => {
    const data = new Uint8Array(px.flat());
    const out = resize({ width: 2, height: 2, data }, 1, 1);
    const alphaSum = px.reduce((s, p) => s + p[3], 0);
    const expected = [0, 1, 2].map((c) =>
      alphaSum === 0 ? 0 : Math.round(px.reduce((s, p) => s + p[c] * p[3], 0) / alphaSum),
    );
    expected.push(Math.round(alphaSum / 4));
    expect(Array.from(out.data)).toEqual(expected);
  });

  it('a half-transparent edge against transparent black does not bleed dark', () => {
    // left half: white at alpha 128; right half: fully transparent (0,0,0,0)
    const src = solid(8, 4, [0, 0, 0, 0]);
    for (let y = 0; y < 4; y++) for (let x = 0; x < 4; x++) src.data.set([255, 255, 255, 128], (y * 8 + x) * 4);
    for (const [dw, dh] of [
      [3, 2],
      [5, 3],
      [2, 1],
      [16, 8],
    ] as const) {
      const out = resize(src, dw, dh);
      for (let i = 0; i < out.data.length; i += 4) {
        if (out.data[i + 3] === 0) continue;
        expect(Array.from(out.data.subarray(i, i + 3))).toEqual([255, 255, 255]);
      }
    }
  });

  it('returns the raster itself when the size does not change', () => {
    const r = solid(3, 2, [1, 2, 3, 4]);
    expect(resize(r, 3, 2)).toBe(r);
  });

  it('averages a 4x1 ramp to 2x1 exactly, and a 3-to-2 shrink by exact coverage', () => {
    const ramp = {
      width: 4,
      height: 1,
      data: new Uint8Array([0, 0, 0, 255, 100, 0, 0, 255, 200, 0, 0, 255, 250, 0, 0, 255]),
    };
    expect(Array.from(resize(ramp, 2, 1).data)).toEqual([50, 0, 0, 255, 225, 0, 0, 255]);
    const three = { width: 3, height: 1, data: new Uint8Array([0, 0, 0, 255, 90, 0, 0, 255, 180, 0, 0, 255]) };
    // pixel 0 covers source [0, 1.5): (0*1 + 90*0.5)/1.5 = 30; pixel 1: (90*0.5 + 180)/1.5 = 150
    expect(Array.from(resize(three, 2, 1).data)).toEqual([30, 0, 0, 255, 150, 0, 0, 255]);
  });

  it('upscales linearly between pixel centres', () => {
    const two = { width: 2, height: 1, data: new Uint8Array([0, 0, 0, 255, 200, 0, 0, 255]) };
    // centres at source x = -0.25 (clamped 0), 0.25, 0.75, 1.25 (clamped 1)
    expect(Array.from(resize(two, 4, 1).data.filter((_, i) => i % 4 === 0))).toEqual([0, 50, 150, 200]);
  });

  it.each([
    { name: 'rejects target 0x1', w: 0, h: 1 },
    { name: 'rejects target 1x0', w: 1, h: 0 },
    { name: 'rejects target 1.5x2', w: 1.5, h: 2 },
    { name: 'rejects target NaNx2', w: NaN, h: 2 },
  ])('$name', ({ w, h }) => {
    expect(() => resize(solid(2, 2, [0, 0, 0, 255]), w, h)).toThrow(RangeError);
  });

  it('rejects an invalid raster', () => {
    expect(() => resize({ width: 2, height: 2, data: new Uint8Array(3) }, 1, 1)).toThrow(/bytes/);
  });

  it('keeps the mean colour of random opaque rasters on whole-factor shrinks', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (w, h, f, seed) => {
          let s = seed >>> 0;
          const data = new Uint8Array(w * f * h * f * 4);
          for (let i = 0; i < data.length; i++) {
            s = (s * 1103515245 + 12345) >>> 0;
            data[i] = i % 4 === 3 ? 255 : s >>> 24;
          }
          const out = resize({ width: w * f, height: h * f, data }, w, h);
          for (let y = 0; y < h; y++)
            for (let x = 0; x < w; x++)
              for (let c = 0; c < 3; c++) {
                let sum = 0;
                for (let dy = 0; dy < f; dy++)
                  for (let dx = 0; dx < f; dx++) sum += data[((y * f + dy) * w * f + x * f + dx) * 4 + c];
                expect(Math.abs(out.data[(y * w + x) * 4 + c] - sum / (f * f))).toBeLessThanOrEqual(0.5 + 1e-9);
              }
        },
      ),
    );
  });

  // The paths resize takes (opaque or not, 32-bit words or bytes, shrinking or enlarging on
  // each axis, aligned or not) against the plain definition: every output pixel the
  // premultiplied, coverage-weighted average of the source, computed directly in doubles.
  it('agrees with the direct weighted average on random rasters, to within rounding', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.constantFrom('opaque', 'alpha', 'unaligned'),
        fc.integer(),
        (sw, sh, dw, dh, kind, seed) => {
          let s = seed >>> 0;
          const bytes = new Uint8Array(sw * sh * 4 + 1);
          const data = kind === 'unaligned' ? bytes.subarray(1) : bytes.subarray(0, sw * sh * 4);
          for (let i = 0; i < data.length; i++) {
            s = (s * 1103515245 + 12345) >>> 0;
            data[i] = i % 4 === 3 && kind !== 'alpha' ? 255 : s >>> 24;
          }
          const raster = { width: sw, height: sh, data };
          const out = resize(raster, dw, dh);
          const expected = directResize(raster, dw, dh);
          for (let i = 0; i < expected.length; i += 4) {
            const alpha = out.data[i + 3] as number;
            const expectedAlpha = expected[i + 3] as number;
            expect(Math.abs(alpha - expectedAlpha)).toBeLessThanOrEqual(1);
            // A pixel whose alpha rounds to 0 on one side has no colour to compare (the other
            // side's alpha is then at most 1: a 1/255 pixel's colour is noise, seen nowhere).
            if (alpha === 0 || expectedAlpha === 0) continue;
            for (let c = 0; c < 3; c++) {
              expect(Math.abs((out.data[i + c] as number) - (expected[i + c] as number))).toBeLessThanOrEqual(1);
            }
          }
        },
      ),
    );
  });

  // Shrinking across, the 32-bit pass checks the alpha as it reads; one pixel that is not opaque,
  // anywhere, must send the whole picture down the premultiplied path, as the byte path (data
  // not 4-byte aligned, which scans the alpha first) does: the same bytes, and not all opaque.
  it('one pixel that is not opaque, anywhere, is resampled with premultiplied alpha', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 12 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 6 }),
        fc.nat(),
        fc.integer({ min: 0, max: 200 }),
        fc.integer(),
        (sw, sh, dh, where, alpha, seed) => {
          const dw = 1 + (where % (sw - 1));
          let s = seed >>> 0;
          const bytes = new Uint8Array(sw * sh * 4 + 1);
          const aligned = bytes.subarray(0, sw * sh * 4);
          for (let i = 0; i < aligned.length; i++) {
            s = (s * 1103515245 + 12345) >>> 0;
            aligned[i] = i % 4 === 3 ? 255 : s >>> 24;
          }
          aligned[(where % (sw * sh)) * 4 + 3] = alpha;
          const unaligned = new Uint8Array(sw * sh * 4 + 1).subarray(1);
          unaligned.set(aligned);
          const out = resize({ width: sw, height: sh, data: aligned }, dw, dh);
          expect(out.data).toEqual(resize({ width: sw, height: sh, data: unaligned }, dw, dh).data);
          expect(out.data.some((v, i) => i % 4 === 3 && v < 255)).toBe(true);
        },
      ),
    );
  });
});

/** Per axis, each output pixel's source weights: exact coverage when shrinking, linear when enlarging. */
function directWeights(src: number, dst: number): Map<number, number>[] {
  const scale = src / dst;
  return Array.from({ length: dst }, (_, i) => {
    const w = new Map<number, number>();
    if (dst < src) {
      const lo = i * scale;
      const hi = (i + 1) * scale;
      for (let s = Math.floor(lo); s < Math.min(src, Math.ceil(hi)); s++) {
        w.set(s, (Math.min(hi, s + 1) - Math.max(lo, s)) / scale);
      }
    } else {
      const x = Math.min(src - 1, Math.max(0, (i + 0.5) * scale - 0.5));
      const s0 = Math.floor(x);
      w.set(s0, 1 - (x - s0));
      if (s0 + 1 < src) w.set(s0 + 1, x - s0);
    }
    return w;
  });
}

function directResize(raster: Raster, width: number, height: number): number[] {
  if (raster.width === width && raster.height === height) return Array.from(raster.data);
  const xs = directWeights(raster.width, width);
  const ys = directWeights(raster.height, height);
  const out: number[] = [];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const sum = [0, 0, 0, 0];
      for (const [sy, wy] of ys[y] ?? []) {
        for (const [sx, wx] of xs[x] ?? []) {
          const p = (sy * raster.width + sx) * 4;
          const a = (raster.data[p + 3] ?? 0) * wx * wy;
          for (let c = 0; c < 3; c++) sum[c] = (sum[c] ?? 0) + (raster.data[p + c] ?? 0) * a;
          sum[3] = (sum[3] ?? 0) + a;
        }
      }
      const alpha = sum[3] ?? 0;
      if (Math.round(alpha) === 0) out.push(0, 0, 0, 0);
      else out.push(...[0, 1, 2].map((c) => Math.round((sum[c] ?? 0) / alpha)), Math.round(alpha));
    }
  }
  return out;
}
