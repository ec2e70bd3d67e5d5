// The encoder's output decoded by an independent decoder (the npm `sixel` package) and compared
// with the source.

import fc from 'fast-check';
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { encodeSixel, type SixelOptions } from '../../src/render/pixels/sixel.js';

/** What a terminal makes of a byte after the round trip through sixel's 0..100 percentages. */
const level = (v: number): number => Math.round((Math.round((v * 100) / 255) * 255) / 100);

interface Decoded {
  width: number;
  height: number;
  data: Uint8Array;
  introducer: string;
}

/** Checks the sequence's frame and decodes its body; unpainted pixels come back with alpha 0. */
function decode(sequence: string): Decoded {
  expect(sequence.startsWith('\x1bP')).toBe(true);
  expect(sequence.endsWith('\x1b\\')).toBe(true);
  const q = sequence.indexOf('q');
  const body = sequence.slice(q + 1, -2);
  // Nothing but printable ASCII between the introducer and the terminator.
  expect(/^[\x20-\x7e]*$/.test(body)).toBe(true);
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(body);
  const introducer = sequence.slice(0, q + 1);
  if (decoder.width === 0) {
    // The decoder reports 0x0 when no sixel is painted at all; the size is then the raster attributes'.
    const [, w, h] = /^"1;1;(\d+);(\d+)/.exec(body)!.map(Number);
    return { width: w, height: h, data: new Uint8Array(w * h * 4), introducer };
  }
  const { width, height } = decoder;
  return { width, height, data: new Uint8Array(decoder.data8.slice(0, width * height * 4)), introducer };
}

/** PSNR over RGB of the decoded image against the source composited onto black. */
function psnr(source: Raster, decoded: Decoded): number {
  let sum = 0;
  for (let i = 0; i < source.data.length; i += 4) {
    for (let c = 0; c < 3; c++) {
      const a = (source.data[i + c] * source.data[i + 3]) / 255;
      const b = (decoded.data[i + c] * decoded.data[i + 3]) / 255;
      sum += (a - b) * (a - b);
    }
  }
  const mse = sum / ((source.data.length / 4) * 3);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** Expects every painted source pixel (alpha >= threshold) back at sixel precision, the others unpainted. */
function expectExact(source: Raster, decoded: Decoded, threshold = 128): void {
  expect([decoded.width, decoded.height]).toEqual([source.width, source.height]);
  const wrong: string[] = [];
  for (let p = 0; p < source.width * source.height; p++) {
    const i = p * 4;
    const painted = source.data[i + 3] >= threshold;
    const want = painted
      ? [level(source.data[i]), level(source.data[i + 1]), level(source.data[i + 2]), 255]
      : [0, 0, 0, 0];
    const got = Array.from(decoded.data.subarray(i, i + 4));
    if (want.join() !== got.join() && wrong.length < 5) wrong.push(`pixel ${p}: want ${want.join()} got ${got.join()}`);
  }
  expect(wrong).toEqual([]);
}

/** A deterministic generator so that the pictures are the same on every run. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 4294967296;
  };
}

/** A raster whose pixels take `count` distinct colours (count <= 4096), in blocks and stripes. */
function manyColours(width: number, height: number, count: number, seed: number): Raster {
  const rand = random(seed);
  const colours = Array.from({ length: count }, (_, k) => [
    (k * 37) & 255,
    (k * 91 + 13) & 255,
    ((k >> 4) * 17 + k) & 255,
  ]);
  const data = new Uint8Array(width * height * 4);
  for (let p = 0; p < width * height; p++) {
    const c = colours[p < count ? p : Math.floor(rand() * count)];
    data.set([c[0], c[1], c[2], 255], p * 4);
  }
  return { width, height, data };
}

/** A smooth two-dimensional colour gradient. */
function gradient(width: number, height: number): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      data.set(
        [(x * 255) / (width - 1), (y * 255) / (height - 1), 255 - ((x + y) * 255) / (width + height - 2), 255],
        (y * width + x) * 4,
      );
    }
  }
  return { width, height, data };
}

/** Photograph-like: overlapping soft shapes of many colours plus a little grain. */
function photoLike(width: number, height: number, seed: number): Raster {
  const rand = random(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const u = x / width;
      const v = y / height;
      const r = 128 + 100 * Math.sin(6 * u + 2 * v) + 10 * (rand() - 0.5);
      const g = 110 + 90 * Math.sin(4 * v - 3 * u + 1) * Math.cos(5 * u) + 10 * (rand() - 0.5);
      const b = 90 + 80 * Math.cos(7 * u * v + 2) + 10 * (rand() - 0.5);
      data.set([r, g, b, 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

/** `base` with alpha replaced: a disc of `inside` alpha on a field of `outside` alpha, soft at the edge. */
function withAlpha(base: Raster, inside: number, outside: number): Raster {
  const data = base.data.slice();
  const { width, height } = base;
  const cx = width / 2;
  const cy = height / 2;
  const radius = Math.min(width, height) / 3;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const d = Math.hypot(x - cx, y - cy);
      const t = Math.max(0, Math.min(1, (radius + 4 - d) / 8));
      data[(y * width + x) * 4 + 3] = Math.round(outside + (inside - outside) * t);
    }
  }
  return { width, height, data };
}

describe('few colours come back exactly', () => {
  it.each<{ name: string; source: Raster; options: SixelOptions }>([
    { name: '12 colours, 37x23', source: manyColours(37, 23, 12, 1), options: {} },
    { name: '256 colours, 64x40 (every register)', source: manyColours(64, 40, 256, 2), options: {} },
    { name: '16 colours with 16 registers', source: manyColours(50, 13, 16, 3), options: { sixelColors: 16 } },
    { name: '2 colours with 2 registers', source: manyColours(9, 9, 2, 4), options: { sixelColors: 2 } },
    {
      name: 'dithering asked for but not needed',
      source: manyColours(30, 30, 100, 5),
      options: { dither: 'floyd-steinberg' },
    },
    { name: 'a single column', source: manyColours(1, 50, 7, 6), options: {} },
    { name: 'a single row', source: manyColours(70, 1, 7, 7), options: {} },
  ])('$name', ({ source, options }) => {
    expectExact(source, decode(encodeSixel(source, options)));
  });
});

describe('many colours: quality stays high', () => {
  it.each<{ name: string; threshold: number; source: Raster; options: SixelOptions }>([
    { name: 'gradient, 256 registers', threshold: 33, source: gradient(200, 120), options: {} },
    {
      name: 'gradient, 256 registers, no dithering',
      threshold: 34,
      source: gradient(200, 120),
      options: { dither: 'none' },
    },
    { name: 'gradient, 16 registers', threshold: 21, source: gradient(200, 120), options: { sixelColors: 16 } },
    { name: 'photo-like, 256 registers', threshold: 33, source: photoLike(160, 96, 8), options: {} },
    { name: 'photo-like, 64 registers', threshold: 27, source: photoLike(160, 96, 9), options: { sixelColors: 64 } },
    { name: 'photo-like, 2 registers', threshold: 8, source: photoLike(64, 48, 10), options: { sixelColors: 2 } },
    { name: '300 distinct colours, 256 registers', threshold: 25, source: manyColours(40, 40, 300, 11), options: {} },
  ])('$name: PSNR above $threshold dB', ({ threshold, source, options }) => {
    const decoded = decode(encodeSixel(source, options));
    expect([decoded.width, decoded.height]).toEqual([source.width, source.height]);
    expect(psnr(source, decoded)).toBeGreaterThan(threshold);
  });

  it.each([
    { name: 'uses at most 2 registers', colors: 2 },
    { name: 'uses at most 16 registers', colors: 16 },
    { name: 'uses at most 64 registers', colors: 64 },
    { name: 'uses at most 256 registers', colors: 256 },
  ])('$name', ({ colors }) => {
    const sequence = encodeSixel(photoLike(80, 60, 12), { sixelColors: colors });
    const defined = sequence.match(/#\d+;2;\d+;\d+;\d+/g) ?? [];
    expect(defined.length).toBeGreaterThan(1);
    expect(defined.length).toBeLessThanOrEqual(colors);
    const decoded = decode(sequence);
    const distinct = new Set<number>();
    for (let i = 0; i < decoded.data.length; i += 4)
      distinct.add((decoded.data[i] << 16) | (decoded.data[i + 1] << 8) | decoded.data[i + 2]);
    expect(distinct.size).toBeLessThanOrEqual(colors);
  });
});

describe('transparency', () => {
  it.each<{ name: string; source: Raster; options: SixelOptions; threshold: number }>([
    {
      name: 'few colours, hard edge',
      source: withAlpha(manyColours(30, 20, 5, 13), 255, 0),
      options: {},
      threshold: 128,
    },
    { name: 'photo-like, soft edge', source: withAlpha(photoLike(60, 40, 14), 255, 0), options: {}, threshold: 128 },
    {
      name: 'threshold 250 leaves the soft edge out',
      source: withAlpha(manyColours(30, 20, 5, 15), 255, 0),
      options: { alphaThreshold: 250 },
      threshold: 250,
    },
    {
      name: 'threshold 0 paints everything',
      source: withAlpha(manyColours(30, 20, 5, 16), 255, 0),
      options: { alphaThreshold: 0 },
      threshold: 0,
    },
    {
      name: 'a threshold that is not a number means the default',
      source: withAlpha(photoLike(30, 20, 20), 255, 0),
      options: { alphaThreshold: Number.NaN, ditherStrength: Number.NaN },
      threshold: 128,
    },
  ])('$name: unpainted exactly where alpha is below the threshold', ({ source, options, threshold }) => {
    const sequence = encodeSixel(source, options);
    const decoded = decode(sequence);
    expect(decoded.introducer).toBe(threshold === 0 ? '\x1bP0;0;0q' : '\x1bP0;1;0q');
    for (let p = 0; p < source.width * source.height; p++) {
      expect([p, decoded.data[p * 4 + 3]]).toEqual([p, source.data[p * 4 + 3] >= threshold ? 255 : 0]);
    }
  });

  it('few colours with transparency come back exactly', () => {
    const source = withAlpha(manyColours(40, 25, 9, 17), 255, 0);
    expectExact(source, decode(encodeSixel(source)));
  });

  it('an opaque raster paints every pixel and asks for no transparency', () => {
    const source = photoLike(33, 17, 18);
    const decoded = decode(encodeSixel(source));
    expect(decoded.introducer).toBe('\x1bP0;0;0q');
    for (let i = 3; i < decoded.data.length; i += 4) expect(decoded.data[i]).toBe(255);
  });

  it.each<{ name: string; alpha: number; background: [number, number, number] }>([
    { name: 'with a background, alpha 200 is blended onto [0, 0, 0]', alpha: 200, background: [0, 0, 0] },
    { name: 'with a background, alpha 160 is blended onto [255, 255, 255]', alpha: 160, background: [255, 255, 255] },
    { name: 'with a background, alpha 130 is blended onto [30, 60, 90]', alpha: 130, background: [30, 60, 90] },
  ])('$name', ({ alpha, background }) => {
    const source: Raster = { width: 2, height: 1, data: Uint8Array.of(200, 100, 50, alpha, 10, 20, 30, 0) };
    const decoded = decode(encodeSixel(source, { background }));
    const blend = (v: number, b: number): number => level(Math.round((v * alpha + b * (255 - alpha)) / 255));
    const got = Array.from(decoded.data);
    const want = [blend(200, background[0]), blend(100, background[1]), blend(50, background[2]), 255, 0, 0, 0, 0];
    // Rounding of the blend may differ by one level of sixel precision.
    for (const [i, v] of got.entries()) expect(Math.abs(v - want[i])).toBeLessThanOrEqual(3);
  });
});

describe('a terminal that does not honour P2=1 (transparency: false): every pixel painted on the background', () => {
  // Pixel 0 opaque, 1 half-transparent, 2 transparent, 3 transparent with a colour of its own.
  const source: Raster = {
    width: 4,
    height: 1,
    data: Uint8Array.of(200, 100, 50, 255, 200, 100, 50, 128, 10, 20, 30, 0, 250, 0, 0, 0),
  };
  const blend = (v: number, b: number, a: number): number => level(Math.round((v * a + b * (255 - a)) / 255));
  it.each<{ name: string; background?: [number, number, number]; shown: [number, number, number] }>([
    { name: 'a light terminal', background: [255, 255, 255], shown: [255, 255, 255] },
    { name: 'a dark blue terminal', background: [10, 20, 90], shown: [10, 20, 90] },
    { name: 'background unknown: black', shown: [0, 0, 0] },
  ])('$name', ({ background, shown }) => {
    const decoded = decode(encodeSixel(source, { transparency: false, ...(background ? { background } : {}) }));
    expect(decoded.introducer).toBe('\x1bP0;0;0q');
    const want = [
      [level(200), level(100), level(50)],
      [blend(200, shown[0], 128), blend(100, shown[1], 128), blend(50, shown[2], 128)],
      shown.map(level),
      shown.map(level),
    ];
    for (const [i, rgb] of want.entries()) {
      const got = Array.from(decoded.data.subarray(i * 4, i * 4 + 4));
      expect(got[3]).toBe(255);
      for (let c = 0; c < 3; c++) expect(Math.abs((got[c] as number) - (rgb[c] as number))).toBeLessThanOrEqual(3);
    }
  });

  it('honoured (the default): the transparent pixels stay unpainted, P2=1', () => {
    const decoded = decode(encodeSixel(source, { background: [255, 255, 255] }));
    expect(decoded.introducer).toBe('\x1bP0;1;0q');
    expect([decoded.data[11], decoded.data[15]]).toEqual([0, 0]);
  });
});

describe('property: random small rasters with at most 16 colours decode to exactly the source', () => {
  const pixel = fc.tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  );
  it('holds', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 1, max: 20 }),
        fc.array(pixel, { minLength: 1, maxLength: 16 }),
        fc.boolean(),
        fc.integer({ min: 2, max: 256 }),
        fc.infiniteStream(fc.nat()),
        (width, height, colours, holes, registers, picks) => {
          const colors = Math.max(registers, colours.length);
          const data = new Uint8Array(width * height * 4);
          const it = picks[Symbol.iterator]();
          for (let p = 0; p < width * height; p++) {
            const k = it.next().value as number;
            const c = colours[k % colours.length];
            const transparent = holes && k % 5 === 0;
            data.set([c[0], c[1], c[2], transparent ? k % 128 : 255], p * 4);
          }
          const source = { width, height, data };
          expectExact(source, decode(encodeSixel(source, { sixelColors: colors })));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('output is printable ASCII between ESC P … q and ESC \\ for any raster', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 14 }),
        fc.integer({ min: 2, max: 256 }),
        fc.uint8Array({ minLength: 12 * 14 * 4, maxLength: 12 * 14 * 4 }),
        (width, height, colors, bytes) => {
          const source = { width, height, data: bytes.slice(0, width * height * 4) };
          const sequence = encodeSixel(source, { sixelColors: colors });
          expect(/^\x1bP0;[01];0q"1;1;\d+;\d+[\x20-\x7e]*\x1b\\$/.test(sequence)).toBe(true);
          const decoded = decode(sequence);
          expect([decoded.width, decoded.height]).toEqual([width, height]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('band structure', () => {
  it('each band selects only colours it paints, and defines each register once', () => {
    const source = withAlpha(photoLike(50, 31, 19), 255, 0);
    const sequence = encodeSixel(source, { sixelColors: 32 });
    const body = sequence.slice(sequence.indexOf('q') + 1, -2);
    const header = body.match(/^"[\d;]+((?:#\d+;2;\d+;\d+;\d+)*)/)!;
    const registers = header[1].match(/#\d+/g)!;
    expect(new Set(registers).size).toBe(registers.length);
    const bands = body.slice(header[0].length).split('-');
    expect(bands.length).toBe(Math.ceil(source.height / 6));
    let empty = 0;
    for (const band of bands) {
      if (band === '') {
        empty++; // a band with nothing painted selects nothing
        continue;
      }
      for (const part of band.split('$')) {
        const sixels = part.replace(/^#\d+/, '').replace(/!\d+/g, '');
        expect(/[@-~]/.test(sixels)).toBe(true); // something other than '?' (empty) is painted
      }
    }
    expect(empty).toBeGreaterThan(0); // the disc leaves the top band unpainted
  });
});
