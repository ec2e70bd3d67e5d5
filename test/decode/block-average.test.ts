/**
 * src/decode/block-average.ts, the one averager of HEIC's and JPEG XL's reduced decodes: the
 * alpha rule as a table (a wholly transparent block is 0, 0, 0, 0 whatever colour it holds;
 * transparent pixels lend no colour; without an alpha band the plain mean), then any samples of
 * any band count, depth, stride and factor against the reference written from the definition
 * (support/block-means.ts).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { averageBlocks, type Samples } from '../../src/decode/block-average.js';
import { blockMeans } from './support/block-means.js';

/** A 2x2 picture of `bands` bands (8-bit unless `wide`) reduced by 2 into one pixel. */
function onePixel(bands: Samples['bands'], values: number[], wide = false): number[] {
  const data = wide ? Uint16Array.from(values) : Uint8Array.from(values);
  const scale = wide ? 1 / 257 : 1;
  return [...averageBlocks({ data, width: 2, height: 2, bands, stride: 2 * bands, scale }, 2).data];
}

describe('averageBlocks: the rule, 2x2 into one pixel', () => {
  it.each([
    {
      name: 'RGBA, an edge: one opaque red among three transparent greens: red at a quarter alpha',
      bands: 4,
      values: [255, 0, 0, 255, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255, 0, 0],
      want: [255, 0, 0, 64],
    },
    {
      name: 'RGBA, half-transparent white over opaque black',
      bands: 4,
      values: [255, 255, 255, 128, 0, 0, 0, 255, 255, 255, 255, 128, 0, 0, 0, 255],
      want: [85, 85, 85, 192],
    },
    {
      name: 'RGBA, wholly transparent, whatever colour it holds',
      bands: 4,
      values: [9, 99, 199, 0, 9, 99, 199, 0, 9, 99, 199, 0, 9, 99, 199, 0],
      want: [0, 0, 0, 0],
    },
    {
      name: 'grey + alpha, wholly transparent',
      bands: 2,
      values: [200, 0, 100, 0, 50, 0, 255, 0],
      want: [0, 0, 0, 0],
    },
    {
      name: 'grey + alpha, one opaque grey among transparent whites',
      bands: 2,
      values: [40, 255, 255, 0, 255, 0, 255, 0],
      want: [40, 40, 40, 64],
    },
    {
      name: 'RGB: the plain mean, opaque',
      bands: 3,
      values: [0, 0, 0, 255, 255, 255, 10, 20, 30, 1, 2, 3],
      want: [67, 69, 72, 255],
    },
    { name: 'grey: the plain mean, spread to RGB, opaque', bands: 1, values: [0, 1, 2, 4], want: [2, 2, 2, 255] },
  ] as const)('$name', ({ bands, values, want }) => {
    expect(onePixel(bands, [...values])).toEqual(want);
  });

  it.each([
    {
      name: '16-bit RGBA, wholly transparent',
      bands: 4,
      values: [65535, 1, 2, 0, 3, 65535, 4, 0, 5, 6, 65535, 0, 7, 8, 9, 0],
      want: [0, 0, 0, 0],
    },
    {
      name: '16-bit RGBA, one opaque white among transparent blacks',
      bands: 4,
      values: [65535, 65535, 65535, 65535, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      want: [255, 255, 255, 64],
    },
    { name: '16-bit grey, the plain mean scaled', bands: 1, values: [0, 257, 514, 65535], want: [65, 65, 65, 255] },
  ] as const)('$name', ({ bands, values, want }) => {
    expect(onePixel(bands, [...values], true)).toEqual(want);
  });

  it('factor 1: every pixel as stored, a transparent one’s colour too', () => {
    const data = Uint8Array.from([9, 99, 199, 0, 1, 2, 3, 4]);
    expect([...averageBlocks({ data, width: 2, height: 1, bands: 4, stride: 8, scale: 1 }, 1).data]).toEqual([
      9, 99, 199, 0, 1, 2, 3, 4,
    ]);
  });
});

describe('averageBlocks against the reference (properties)', () => {
  const shapes = fc
    .record({
      width: fc.integer({ min: 1, max: 13 }),
      height: fc.integer({ min: 1, max: 11 }),
      bands: fc.constantFrom(1, 2, 3, 4) as fc.Arbitrary<Samples['bands']>,
      pad: fc.integer({ min: 0, max: 5 }),
      wide: fc.boolean(),
      factor: fc.integer({ min: 1, max: 6 }),
      // Alphas drawn from few values, so wholly transparent and opaque blocks are common.
      alphaMode: fc.constantFrom('any', 'sparse'),
    })
    .chain((shape) =>
      fc.record({
        shape: fc.constant(shape),
        values: fc.array(
          shape.alphaMode === 'sparse'
            ? fc.constantFrom(0, 0, 0, 1, shape.wide ? 65535 : 255, 128)
            : fc.integer({ min: 0, max: shape.wide ? 65535 : 255 }),
          {
            minLength: (shape.width * shape.bands + shape.pad) * shape.height,
            maxLength: (shape.width * shape.bands + shape.pad) * shape.height,
          },
        ),
      }),
    );

  it('any band count, depth, row padding and factor: the block means of the definition', () => {
    fc.assert(
      fc.property(shapes, ({ shape, values }) => {
        const { width, height, bands, pad, wide, factor } = shape;
        const samples: Samples = {
          data: wide ? Uint16Array.from(values) : Uint8Array.from(values),
          width,
          height,
          bands,
          stride: width * bands + pad,
          scale: wide ? 1 / 257 : 1,
        };
        const out = averageBlocks(samples, factor);
        expect([out.width, out.height]).toEqual([Math.ceil(width / factor), Math.ceil(height / factor)]);
        expect([...out.data]).toEqual(blockMeans(samples.data, samples, factor));
      }),
      { numRuns: 1500 },
    );
  });
});
