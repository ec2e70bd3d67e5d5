// The sixel stream is written shorter than termsight 0.3.0 wrote it (colours packed side by side
// into passes, registers numbered by use), and draws exactly the same pixels: both streams are
// decoded by an independent decoder (the npm `sixel` package) and compared pixel for pixel.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { decode as decodePng } from 'fast-png';
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { TRANSPARENT } from '../../src/render/pixels/quantize.js';
import { type IndexedImage, indexRaster, writeSixel } from '../../src/render/pixels/sixel.js';
import { referenceSixel } from './sixel-reference.js';

/** The pixels a terminal draws for a sequence: RGBA, unpainted pixels 0,0,0,0. */
function pixels(sequence: string): { width: number; height: number; data: Uint8Array } {
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(sequence.slice(sequence.indexOf('q') + 1, -2));
  const { width, height } = decoder;
  return { width, height, data: new Uint8Array(decoder.data8.slice(0, width * height * 4)) };
}

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

/** Expects the two sequences to draw the same pixels; returns their lengths. */
function expectSamePixels(image: IndexedImage): { written: number; reference: number } {
  const written = text(writeSixel(image));
  const reference = referenceSixel(image);
  // The same introducer (P2) and raster attributes.
  const head = /^\x1bP[\d;]*q"1;1;\d+;\d+/;
  expect(head.exec(written)?.[0]).toBe(head.exec(reference)?.[0]);
  const a = pixels(written);
  const b = pixels(reference);
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  expect(Buffer.compare(Buffer.from(a.data), Buffer.from(b.data))).toBe(0);
  return { written: written.length, reference: reference.length };
}

/** A fixture photograph as an opaque RGBA raster. */
function photo(name: string): Raster {
  const png = decodePng(readFileSync(new URL(`../fixtures/images/${name}`, import.meta.url)));
  const { width, height, channels } = png;
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    for (let c = 0; c < 3; c++) data[p * 4 + c] = png.data[p * channels + (channels < 3 ? 0 : c)];
    data[p * 4 + 3] = 255;
  }
  return { width, height, data };
}

describe('the stream draws the pixels of the 0.3.0 stream', () => {
  // Indexed images with runs, holes and colours that overlap or sit side by side in a band.
  const image = fc
    .record({
      width: fc.integer({ min: 1, max: 40 }),
      height: fc.integer({ min: 1, max: 20 }),
      size: fc.oneof(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 256 })),
      run: fc.integer({ min: 1, max: 30 }),
      holes: fc.boolean(),
      picks: fc.infiniteStream(fc.nat()),
      rgb: fc.uint8Array({ minLength: 256 * 3, maxLength: 256 * 3 }),
    })
    .map(({ width, height, size, run, holes, picks, rgb }): IndexedImage => {
      const indices = new Uint16Array(width * height);
      const it = picks[Symbol.iterator]();
      let v = 0;
      for (let p = 0; p < indices.length; p++) {
        const k = it.next().value as number;
        if (p === 0 || k % run === 0) v = holes && k % 7 === 0 ? TRANSPARENT : (k >> 3) % size;
        indices[p] = v;
      }
      return { width, height, indices, palette: { size, rgb: rgb.subarray(0, size * 3) } };
    });

  it('property: the same pixels, never more than a few bytes longer', () => {
    fc.assert(
      fc.property(image, (img) => {
        const { written, reference } = expectSamePixels(img);
        // Packing never costs more; keeping a colour selected over `-` can differ by a selection a band.
        expect(written).toBeLessThanOrEqual(reference + 4 * Math.ceil(img.height / 6));
      }),
      { numRuns: 400 },
    );
  });

  // Measured: chelsea 0.943 of the 0.3.0 bytes, coffee 0.948, camera at 16 colours (large areas) 0.996.
  it.each([
    { name: 'chelsea.png', colors: 256, most: 0.96 },
    { name: 'coffee.png', colors: 256, most: 0.96 },
    { name: 'camera.png', colors: 16, most: 1 },
  ] as const)('$name at $colors colours: the same pixels, below $most of the bytes', ({ name, colors, most }) => {
    const { written, reference } = expectSamePixels(indexRaster(photo(name), { sixelColors: colors }));
    expect(written / reference).toBeLessThan(most);
  });
});

describe('the stream', () => {
  const img = (width: number, rows: number[][], size = 4): IndexedImage => ({
    width,
    height: rows.length,
    indices: Uint16Array.from(rows.flat()),
    palette: { size, rgb: Uint8Array.from({ length: size * 3 }, (_, i) => (i * 85) & 255) },
  });
  const T = TRANSPARENT;
  it.each<{ name: string; image: IndexedImage; body: string }>([
    {
      name: 'colours side by side share a pass',
      image: img(6, [[0, 0, 1, 1, 2, 2]]),
      body: '#0@@#1@@#2@@',
    },
    {
      name: 'a gap between colours of a pass is written as empty sixels',
      image: img(9, [[0, T, T, T, T, T, 1, 1, 1]]),
      body: '#0@#1!5?@@@',
    },
    {
      name: 'overlapping colours take a second pass',
      image: img(3, [
        [0, 0, 0],
        [1, 1, 0],
      ]),
      body: '#0@@B$#1AA',
    },
    {
      name: 'a later colour that fits after an earlier one joins its pass',
      image: img(6, [
        [0, 0, 1, 1, 1, 1],
        [2, 2, 2, 2, 3, 3],
      ]),
      body: '#0@@#1!4@$#2!4A#3AA',
    },
    {
      name: 'registers numbered by the bands selecting them, most first',
      image: img(2, [
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 3],
        [3, 1],
      ]),
      body: '#0~~-@#1@',
    },
  ])('$name', ({ image, body }) => {
    const sequence = text(writeSixel(image));
    const start = sequence.indexOf(';', sequence.indexOf('"1;1;') + 5);
    expect(sequence.slice(start).replace(/^;\d+(#\d+;2;\d+;\d+;\d+)*/, '')).toBe(`${body}\x1b\\`);
    expectSamePixels(image);
  });
});
