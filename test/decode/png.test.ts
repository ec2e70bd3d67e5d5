/**
 * termsight's PNG decoder: its parts (unfilter against a plain reading of the spec, the inflate
 * budget, the chunk walk) and the whole (against the encoders' inputs, for every colour type,
 * depth, filter and interlace), with the errors each bad file must give.
 */
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { encode as fastPngEncode } from 'fast-png';
import { describe, expect, it } from 'vitest';
import { DecodeError, type DecodeFailure, decodeImage } from '../../src/decode/index.js';
import { decodePng, pngDataSize, pngPasses } from '../../src/decode/png.js';
import { readPngChunks } from '../../src/decode/png-chunks.js';
import { inflatePngData } from '../../src/decode/png-inflate.js';
import { unfilterRows } from '../../src/decode/png-unfilter.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { insertBeforeIdat, pngChunk, pngCorpus } from './corpus.js';
import { tiffWithOrientation } from './jpeg-helpers.js';
import { ancillaryBomb, idatBomb, pngOf, tinyPng, zerosDeflated } from './support/hostile-files.js';

/** The spec's unfilter, written as plainly as the spec states it (section 9), on a copy. */
function referenceUnfilter(data: Uint8Array, rows: number, rowBytes: number, bpp: number): Uint8Array {
  const out = data.slice();
  const at = (y: number, i: number) => (y < 0 || i < 0 ? 0 : (out[y * (rowBytes + 1) + 1 + i] as number));
  for (let y = 0; y < rows; y++) {
    const filter = out[y * (rowBytes + 1)] as number;
    for (let i = 0; i < rowBytes; i++) {
      const a = at(y, i - bpp);
      const b = at(y - 1, i);
      const c = at(y - 1, i - bpp);
      const p = a + b - c;
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c;
      const predictor = [0, a, b, Math.floor((a + b) / 2), paeth][filter] as number;
      const k = y * (rowBytes + 1) + 1 + i;
      out[k] = ((out[k] as number) + predictor) & 0xff;
    }
  }
  return out;
}

/** Bytes a complete pixel takes, at least 1 (the spec's `bpp` for the filters). */
function bppOf(format: { colorType: number; depth: number }): number {
  return Math.max(
    1,
    ((format.colorType === 2 ? 3 : format.colorType === 6 ? 4 : format.colorType === 4 ? 2 : 1) * format.depth) >> 3,
  );
}

describe('unfilterRows', () => {
  // Bytes from a small alphabet make Paeth's distances tie often: the spec's order (a, then b,
  // then c) must decide them, which random bytes alone rarely test.
  it.each([
    { name: 'any bytes', noise: fc.uint8Array({ minLength: 5 * 9 * 8, maxLength: 5 * 9 * 8 }) },
    {
      name: 'bytes that tie (0..2, 254, 255)',
      noise: fc
        .array(fc.constantFrom(0, 1, 2, 254, 255), { minLength: 5 * 9 * 8, maxLength: 5 * 9 * 8 })
        .map((a) => Uint8Array.from(a)),
    },
  ])('undoes every filter as the spec defines it (random rows, every bpp): $name', ({ noise: noiseBytes }) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 8 }),
        fc.constantFrom(1, 2, 3, 4, 6, 8),
        fc.array(fc.integer({ min: 0, max: 4 }), { minLength: 5, maxLength: 5 }),
        noiseBytes,
        (rows, pixels, bpp, filters, noise) => {
          const rowBytes = pixels * bpp;
          const data = noise.slice(0, rows * (rowBytes + 1));
          for (let y = 0; y < rows; y++) data[y * (rowBytes + 1)] = filters[y] as number;
          const expected = referenceUnfilter(data, rows, rowBytes, bpp);
          const actual = data.slice();
          unfilterRows(actual, 0, rows, rowBytes, bpp);
          expect(Buffer.from(actual).equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 400, seed: 99 },
    );
  });

  it.each([
    { name: 'filter 5', filter: 5 },
    { name: 'filter 255', filter: 255 },
  ])('$name is refused, naming the row', ({ filter }) => {
    const data = Uint8Array.of(0, 1, 2, filter, 3, 4);
    expect(() => unfilterRows(data, 0, 2, 2, 1)).toThrow(`corrupt PNG: unknown filter type ${filter} on row 2`);
  });
});

describe('pngDataSize and pngPasses', () => {
  it.each([
    { name: '1x1 RGBA', header: { width: 1, height: 1, depth: 8, colorType: 6, interlace: 0 }, size: 5 },
    {
      name: '1x1 RGBA Adam7 (one pass)',
      header: { width: 1, height: 1, depth: 8, colorType: 6, interlace: 1 },
      size: 5,
    },
    { name: '8x8 grey 1-bit Adam7', header: { width: 8, height: 8, depth: 1, colorType: 0, interlace: 1 }, size: 30 },
    { name: '9x1 grey 2-bit', header: { width: 9, height: 1, depth: 2, colorType: 0, interlace: 0 }, size: 4 },
    { name: '3x2 RGB 16', header: { width: 3, height: 2, depth: 16, colorType: 2, interlace: 0 }, size: 2 * 19 },
    { name: '2x3 palette 4-bit', header: { width: 2, height: 3, depth: 4, colorType: 3, interlace: 0 }, size: 6 },
  ])('$name: $size bytes', ({ header, size }) => {
    expect(pngDataSize(header)).toBe(size);
  });

  it('Adam7 passes cover every pixel exactly once', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 1, max: 40 }), (width, height) => {
        const seen = new Uint8Array(width * height);
        for (const p of pngPasses({ width, height, interlace: 1 }))
          for (let y = 0; y < p.height; y++)
            for (let x = 0; x < p.width; x++) seen[(p.y0 + y * p.dy) * width + p.x0 + x * p.dx]++;
        expect(seen.every((n) => n === 1)).toBe(true);
      }),
      { numRuns: 200, seed: 3 },
    );
  });
});

describe('inflatePngData: the budget', () => {
  const data = deflateSync(Buffer.alloc(100, 7));
  it.each([
    { name: 'exactly the size', expected: 100, failure: null },
    { name: 'more than the size (a bomb)', expected: 99, failure: /inflates to more than the 99 bytes/ },
    { name: 'less than the size', expected: 101, failure: /inflates to 100 bytes; its declared size needs 101/ },
  ])('$name', ({ expected, failure }) => {
    if (failure === null) expect(inflatePngData([data], expected)).toEqual(new Uint8Array(100).fill(7));
    else expect(() => inflatePngData([data], expected)).toThrow(failure);
  });

  it('a stream split over several IDAT chunks at any points is one stream', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: data.length - 1 }), { maxLength: 4 }), (cuts) => {
        const points = [0, ...cuts.sort((a, b) => a - b), data.length];
        const parts = points.slice(1).map((end, i) => data.subarray(points[i], end));
        expect(inflatePngData(parts, 100)[99]).toBe(7);
      }),
      { numRuns: 50, seed: 5 },
    );
  });

  it.each([
    { name: 'cut short', stream: data.subarray(0, data.length - 6), failure: 'truncated' as DecodeFailure },
    { name: 'not zlib', stream: Buffer.from('not a zlib stream'), failure: 'corrupt' as DecodeFailure },
  ])('$name: $failure', ({ stream, failure }) => {
    const error = (() => {
      try {
        inflatePngData([stream], 100);
      } catch (e) {
        return e as DecodeError;
      }
      throw new Error('inflated');
    })();
    expect(error).toBeInstanceOf(DecodeError);
    expect(error.failure).toBe(failure);
  });

  it('the bomb generator makes what it says (checked small)', () => {
    for (const n of [1, 1000, (1 << 20) + 3, 3 << 20]) expect(inflateSync(zerosDeflated(n)).length).toBe(n);
  });
});

describe('decodeImage on PNG: against the encoders', () => {
  it('any RGBA raster through termsight encodePng with any filter comes back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(0, 1, 2, 3, 4),
        fc.boolean(),
        fc.infiniteStream(fc.integer({ min: 0, max: 255 })),
        (width, height, filter, opaque, stream) => {
          const data = new Uint8Array(width * height * 4);
          const it = stream[Symbol.iterator]();
          for (let i = 0; i < data.length; i++) data[i] = opaque && i % 4 === 3 ? 255 : (it.next().value as number);
          const png = encodePng({ width, height, data }, { filter: filter as 0 | 1 | 2 | 3 | 4, level: 6 });
          const decoded = decodeImage(png).frames[0]?.raster;
          expect(decoded && Buffer.from(decoded.data).equals(Buffer.from(data))).toBe(true);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it('any 8- or 16-bit image fast-png writes, plain or Adam7, decodes to its samples', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 11 }),
        fc.integer({ min: 1, max: 11 }),
        fc.constantFrom(1, 2, 3, 4),
        fc.constantFrom(8, 16),
        fc.boolean(),
        fc.integer({ min: 1, max: 1 << 30 }),
        (width, height, channels, depth, adam7, seed) => {
          const n = width * height * channels;
          const max = depth === 16 ? 65535 : 255;
          let s = seed;
          const samples = Array.from({ length: n }, () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s % (max + 1);
          });
          const data = depth === 16 ? Uint16Array.from(samples) : Uint8Array.from(samples);
          const png = fastPngEncode(
            { width, height, data, channels, depth: depth as 8 | 16 },
            adam7 ? { interlace: 'Adam7' } : {},
          );
          const to8 = (v: number) => (depth === 16 ? Math.round((v * 255) / 65535) : v);
          const out = decodeImage(png).frames[0]?.raster.data ?? new Uint8Array();
          for (let p = 0; p < width * height; p++) {
            const px = samples.slice(p * channels, (p + 1) * channels).map(to8);
            const rgba = channels <= 2 ? [px[0], px[0], px[0], channels === 2 ? px[1] : 255] : [...px, 255].slice(0, 4);
            expect([...out.subarray(p * 4, p * 4 + 4)]).toEqual(rgba);
          }
        },
      ),
      { numRuns: 150, seed: 12 },
    );
  });

  it('eXIf and acTL are reported, not applied; ancillary chunks are ignored', () => {
    const base = pngCorpus()[0]!;
    const exifBody = Uint8Array.of(0x4d, 0x4d, 0, 42, 0, 0, 0, 8);
    let bytes = insertBeforeIdat(base.bytes, pngChunk('eXIf', exifBody));
    bytes = insertBeforeIdat(bytes, pngChunk('acTL', Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 0)));
    bytes = insertBeforeIdat(bytes, pngChunk('gAMA', Uint8Array.of(0, 0, 0xb1, 0x8f)));
    const png = decodePng(bytes);
    expect(png.exif).toEqual(exifBody);
    expect(png.animated).toBe(true);
    expect(Buffer.from(png.raster.data).equals(Buffer.from(base.frames[0]!))).toBe(true);
  });
});

describe('decodeImage on bad PNGs: one line that says what is wrong', () => {
  const idat = (raw: Uint8Array) => pngChunk('IDAT', deflateSync(raw));
  const plte = pngChunk('PLTE', Uint8Array.of(255, 0, 0, 0, 255, 0));
  const ihdrWith = (depth: number, colorType: number, rest = [0, 0, 0]) => {
    const b = tinyPng().slice();
    b[24] = depth;
    b[25] = colorType;
    b.set(rest, 26);
    const crc = pngChunk('IHDR', b.subarray(16, 29));
    b.set(crc.subarray(crc.length - 4), 29);
    return b;
  };
  const rows: { name: string; bytes: Uint8Array; failure: DecodeFailure; message: RegExp }[] = [
    {
      name: 'image data shorter than the size (was "Unsupported filter: undefined")',
      bytes: pngOf(4, 4, [idat(Uint8Array.of(0, 1, 2, 3))]),
      failure: 'corrupt',
      message: /^corrupt PNG: the image data inflates to 4 bytes; its declared size needs 68$/,
    },
    {
      name: 'image data longer than the size',
      bytes: pngOf(1, 1, [idat(new Uint8Array(6))]),
      failure: 'corrupt',
      message: /inflates to more than the 5 bytes/,
    },
    {
      name: 'a 1 GiB IDAT bomb',
      bytes: idatBomb(1 << 30),
      failure: 'corrupt',
      message: /inflates to more than the 5 bytes/,
    },
    {
      name: 'an unknown filter type',
      bytes: pngOf(1, 1, [idat(Uint8Array.of(9, 0, 0, 0, 0))]),
      failure: 'corrupt',
      message: /unknown filter type 9 on row 1/,
    },
    {
      name: 'a palette image without PLTE',
      bytes: pngOf(1, 1, [idat(Uint8Array.of(0, 0))], 3),
      failure: 'corrupt',
      message: /palette image without a PLTE/,
    },
    {
      name: 'PLTE after IDAT',
      bytes: pngOf(1, 1, [idat(Uint8Array.of(0, 0)), plte], 3),
      failure: 'corrupt',
      message: /PLTE after the image data/,
    },
    {
      name: 'a PLTE of 4 bytes',
      bytes: pngOf(1, 1, [pngChunk('PLTE', Uint8Array.of(1, 2, 3, 4)), idat(Uint8Array.of(0, 0))], 3),
      failure: 'corrupt',
      message: /a PLTE chunk of 4 bytes/,
    },
    {
      name: 'an unknown critical chunk',
      bytes: insertBeforeIdat(tinyPng(), pngChunk('ABCD', new Uint8Array(0))),
      failure: 'unsupported',
      message: /unknown critical chunk ABCD/,
    },
    {
      name: 'depth 3',
      bytes: ihdrWith(3, 0),
      failure: 'corrupt',
      message: /bit depth 3 is not allowed for colour type 0/,
    },
    {
      name: 'RGB at 4 bits',
      bytes: ihdrWith(4, 2),
      failure: 'corrupt',
      message: /bit depth 4 is not allowed for colour type 2/,
    },
    { name: 'colour type 5', bytes: ihdrWith(8, 5), failure: 'corrupt', message: /colour type 5 does not exist/ },
    {
      name: 'compression 1',
      bytes: ihdrWith(8, 6, [1, 0, 0]),
      failure: 'unsupported',
      message: /compression method 1/,
    },
    { name: 'filter method 1', bytes: ihdrWith(8, 6, [0, 1, 0]), failure: 'unsupported', message: /filter method 1/ },
    { name: 'interlace 2', bytes: ihdrWith(8, 6, [0, 0, 2]), failure: 'unsupported', message: /interlace method 2/ },
    {
      name: 'a second IHDR',
      bytes: insertBeforeIdat(tinyPng(), tinyPng().subarray(8, 33)),
      failure: 'corrupt',
      message: /second IHDR/,
    },
  ];
  it.each(rows)('$name', ({ bytes, failure, message }) => {
    let caught: unknown;
    try {
      decodeImage(bytes);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(DecodeError);
    expect((caught as DecodeError).failure).toBe(failure);
    expect((caught as DecodeError).message).toMatch(message);
  });

  it.each([
    { name: 'iCCP', type: 'iCCP' as const },
    { name: 'zTXt', type: 'zTXt' as const },
    { name: 'iTXt', type: 'iTXt' as const },
  ])('a 1x1 PNG with a 1 GiB $name bomb decodes to its pixel without inflating it', ({ type }) => {
    const bytes = ancillaryBomb(type, 1 << 30);
    expect(readPngChunks(bytes).data).toHaveLength(1);
    expect([...(decodeImage(bytes).frames[0]?.raster.data ?? [])]).toEqual([10, 20, 30, 255]);
  });
});

describe('tRNS colour keys match on every sample', () => {
  // Four pixels: the key itself, then the key with only red, green or blue changed by one.
  const key = [10, 20, 30];
  const pixels = [key, [11, 20, 30], [10, 21, 30], [10, 20, 31]];
  it.each([
    { name: 'RGB 8', depth: 8 },
    { name: 'RGB 16', depth: 16 },
  ])('$name: only the exact key is transparent', ({ depth }) => {
    const raw = new Uint8Array(1 + 4 * 3 * (depth / 8));
    let o = 1;
    for (const px of pixels)
      for (const v of px) {
        if (depth === 16) raw[o++] = v;
        raw[o++] = v;
      }
    const trns = Uint8Array.from(key.flatMap((v) => (depth === 16 ? [v, v] : [0, v])));
    const png = pngOf(4, 1, [pngChunk('tRNS', trns), pngChunk('IDAT', deflateSync(raw))], 2);
    png[24] = depth;
    const fixed = pngChunk('IHDR', png.subarray(16, 29));
    png.set(fixed.subarray(fixed.length - 4), 29);
    const alpha = [...(decodeImage(png).frames[0]?.raster.data ?? [])].filter((_, i) => i % 4 === 3);
    expect(alpha).toEqual([0, 255, 255, 255]);
  });
});

describe('decodePng with maxSize: a large opaque picture averaged down while it is expanded', () => {
  /** The plain area average: each factor x factor block (clipped at the edges) over its pixels, rounded. */
  function areaAverage(full: { width: number; height: number; data: Uint8Array }, factor: number) {
    const width = Math.ceil(full.width / factor);
    const height = Math.ceil(full.height / factor);
    const data = new Uint8Array(width * height * 4);
    for (let oy = 0; oy < height; oy++)
      for (let ox = 0; ox < width; ox++) {
        const sum = [0, 0, 0];
        let n = 0;
        for (let y = oy * factor; y < Math.min(full.height, (oy + 1) * factor); y++)
          for (let x = ox * factor; x < Math.min(full.width, (ox + 1) * factor); x++, n++)
            for (let c = 0; c < 3; c++) sum[c]! += full.data[(y * full.width + x) * 4 + c]!;
        for (let c = 0; c < 3; c++) data[(oy * width + ox) * 4 + c] = Math.floor((sum[c]! + (n >> 1)) / n);
        data[(oy * width + ox) * 4 + 3] = 255;
      }
    return { width, height, data };
  }

  it.each([
    { name: 'no box: 1', w: 4000, h: 3000, box: undefined, want: 1 },
    { name: '4000x3000 into 1000x440: 4 (1000x750)', w: 4000, h: 3000, box: { width: 1000, height: 440 }, want: 4 },
    { name: 'the narrower ratio decides', w: 4000, h: 3000, box: { width: 300, height: 1000 }, want: 3 },
    { name: 'a box larger than the picture: 1', w: 64, h: 64, box: { width: 1000, height: 440 }, want: 1 },
    { name: 'exactly half: 2', w: 2000, h: 1000, box: { width: 1000, height: 500 }, want: 2 },
  ])('wholeReduction: $name', async ({ w, h, box, want }) => {
    const { wholeReduction } = await import('../../src/decode/reduction.js');
    expect(wholeReduction(w, h, box)).toBe(want);
  });

  it('equals the area average of the full decode (random grey, RGB and palette pictures, any box)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 37 }),
        fc.integer({ min: 1, max: 29 }),
        fc.constantFrom(1, 3),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (width, height, channels, bw, bh, seed) => {
          let s = seed;
          const data = Uint8Array.from({ length: width * height * channels }, () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s >>> 24;
          });
          const bytes = fastPngEncode({ width, height, data, channels, depth: 8 });
          const full = decodePng(bytes).raster;
          const box = { width: bw, height: bh };
          const reduced = decodePng(bytes, { maxSize: box });
          const factor = Math.max(1, Math.min(Math.floor(width / bw), Math.floor(height / bh)));
          const expected = factor === 1 ? full : areaAverage(full, factor);
          expect([reduced.raster.width, reduced.raster.height]).toEqual([expected.width, expected.height]);
          expect(Buffer.from(reduced.raster.data).equals(Buffer.from(expected.data))).toBe(true);
          expect([reduced.sourceWidth, reduced.sourceHeight]).toEqual([width, height]);
          // It still covers the box on both axes.
          if (factor > 1) expect(reduced.raster.width >= bw && reduced.raster.height >= bh).toBe(true);
        },
      ),
      { numRuns: 150, seed: 7 },
    );
  });

  // Raw scanlines of any opaque format, each row under a random filter with random bytes (every
  // byte string is a valid filtered row): the decoder's unfilter, row summers and averaging
  // against the spec read plainly (referenceUnfilter, referenceSamples) and the area average.
  const OPAQUE_FORMATS = [
    { colorType: 0, depth: 1 },
    { colorType: 0, depth: 2 },
    { colorType: 0, depth: 4 },
    { colorType: 0, depth: 8 },
    { colorType: 0, depth: 16 },
    { colorType: 2, depth: 8 },
    { colorType: 2, depth: 16 },
    { colorType: 3, depth: 1 },
    { colorType: 3, depth: 2 },
    { colorType: 3, depth: 4 },
    { colorType: 3, depth: 8 },
  ];

  /** The RGBA8 pixels the spec gives unfiltered rows of an opaque format (a short PLTE: black past its end). */
  function referenceSamples(
    rows: Uint8Array,
    width: number,
    height: number,
    format: { colorType: number; depth: number },
    plte: Uint8Array,
  ): Uint8Array {
    const channels = format.colorType === 2 ? 3 : 1;
    const rowBytes = Math.ceil((width * channels * format.depth) / 8);
    const out = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++)
      for (let x = 0; x < width; x++) {
        const sample = (c: number) => {
          const bit = (x * channels + c) * format.depth;
          const at = y * (rowBytes + 1) + 1 + (bit >> 3);
          if (format.depth === 16) return rows[at]! * 256 + rows[at + 1]!;
          if (format.depth === 8) return rows[at]!;
          return (rows[at]! >> (8 - format.depth - (bit & 7))) & ((1 << format.depth) - 1);
        };
        const to8 = (v: number) =>
          format.depth === 16 ? Math.round((v * 255) / 65535) : Math.round((v * 255) / ((1 << format.depth) - 1));
        let rgb: number[];
        if (format.colorType === 3) {
          const i = sample(0);
          rgb = i * 3 < plte.length ? [plte[i * 3]!, plte[i * 3 + 1]!, plte[i * 3 + 2]!] : [0, 0, 0];
        } else if (format.colorType === 2) rgb = [to8(sample(0)), to8(sample(1)), to8(sample(2))];
        else rgb = [to8(sample(0)), to8(sample(0)), to8(sample(0))];
        out.set([...rgb, 255], (y * width + x) * 4);
      }
    return out;
  }

  it('any opaque format under any filters: full and reduced decodes equal the spec read plainly, then averaged', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...OPAQUE_FORMATS),
        fc.integer({ min: 1, max: 29 }),
        fc.integer({ min: 1, max: 23 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (format, width, height, bw, bh, seed) => {
          let s = seed;
          const next = () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s >>> 24;
          };
          const channels = format.colorType === 2 ? 3 : 1;
          const rowBytes = Math.ceil((width * channels * format.depth) / 8);
          const raw = Uint8Array.from({ length: height * (rowBytes + 1) }, next);
          for (let y = 0; y < height; y++) raw[y * (rowBytes + 1)] = next() % 5;
          const plte = Uint8Array.from({ length: 3 * (1 + (next() % (1 << Math.min(8, format.depth)))) }, next);
          const header = new Uint8Array(13);
          new DataView(header.buffer).setUint32(0, width);
          new DataView(header.buffer).setUint32(4, height);
          header.set([format.depth, format.colorType, 0, 0, 0], 8);
          const bytes = new Uint8Array(
            Buffer.concat([
              Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
              pngChunk('IHDR', header),
              ...(format.colorType === 3 ? [pngChunk('PLTE', plte)] : []),
              pngChunk('IDAT', deflateSync(raw)),
              pngChunk('IEND', new Uint8Array(0)),
            ]),
          );
          const full = {
            width,
            height,
            data: referenceSamples(
              referenceUnfilter(raw, height, rowBytes, bppOf(format)),
              width,
              height,
              format,
              plte,
            ),
          };
          const decoded = decodePng(bytes).raster;
          expect(Buffer.from(decoded.data).equals(Buffer.from(full.data))).toBe(true);
          const factor = Math.max(1, Math.min(Math.floor(width / bw), Math.floor(height / bh)));
          const reduced = decodePng(bytes, { maxSize: { width: bw, height: bh } }).raster;
          const expected = factor === 1 ? full : areaAverage(full, factor);
          expect([reduced.width, reduced.height]).toEqual([expected.width, expected.height]);
          expect(Buffer.from(reduced.data).equals(Buffer.from(expected.data))).toBe(true);
        },
      ),
      { numRuns: 300, seed: 26 },
    );
  });

  it('Adam7, any opaque format under any filters: each pass unfiltered on its own rows, as the spec reads', () => {
    // The spec's passes (section 8.2), written out here rather than taken from png.ts.
    const passes = [
      [0, 0, 8, 8],
      [4, 0, 8, 8],
      [0, 4, 4, 8],
      [2, 0, 4, 4],
      [0, 2, 2, 4],
      [1, 0, 2, 2],
      [0, 1, 1, 2],
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...OPAQUE_FORMATS),
        fc.integer({ min: 1, max: 19 }),
        fc.integer({ min: 1, max: 19 }),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (format, width, height, seed) => {
          let s = seed;
          const next = () => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return s >>> 24;
          };
          const channels = format.colorType === 2 ? 3 : 1;
          const plte = Uint8Array.from({ length: 3 * (1 + (next() % (1 << Math.min(8, format.depth)))) }, next);
          const expected = new Uint8Array(width * height * 4);
          const pieces: Uint8Array[] = [];
          for (const [x0, y0, dx, dy] of passes) {
            const pw = Math.ceil((width - x0) / dx);
            const ph = Math.ceil((height - y0) / dy);
            if (pw <= 0 || ph <= 0) continue;
            const rowBytes = Math.ceil((pw * channels * format.depth) / 8);
            const raw = Uint8Array.from({ length: ph * (rowBytes + 1) }, next);
            for (let y = 0; y < ph; y++) raw[y * (rowBytes + 1)] = next() % 5;
            pieces.push(raw);
            const pixels = referenceSamples(referenceUnfilter(raw, ph, rowBytes, bppOf(format)), pw, ph, format, plte);
            for (let y = 0; y < ph; y++)
              for (let x = 0; x < pw; x++)
                expected.set(
                  pixels.subarray((y * pw + x) * 4, (y * pw + x) * 4 + 4),
                  ((y0 + y * dy) * width + x0 + x * dx) * 4,
                );
          }
          const header = new Uint8Array(13);
          new DataView(header.buffer).setUint32(0, width);
          new DataView(header.buffer).setUint32(4, height);
          header.set([format.depth, format.colorType, 0, 0, 1], 8);
          const bytes = new Uint8Array(
            Buffer.concat([
              Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
              pngChunk('IHDR', header),
              ...(format.colorType === 3 ? [pngChunk('PLTE', plte)] : []),
              pngChunk('IDAT', deflateSync(Buffer.concat(pieces))),
              pngChunk('IEND', new Uint8Array(0)),
            ]),
          );
          expect(Buffer.from(decodePng(bytes).raster.data).equals(Buffer.from(expected))).toBe(true);
        },
      ),
      { numRuns: 200, seed: 8 },
    );
  });

  const big = (channels: 3 | 4, adam7 = false) =>
    fastPngEncode(
      { width: 40, height: 30, data: new Uint8Array(40 * 30 * channels).fill(200), channels, depth: 8 },
      adam7 ? { interlace: 'Adam7' } : {},
    );
  it.each([
    { name: 'RGB: reduced', bytes: () => big(3), size: [10, 8] },
    { name: 'RGBA (alpha to weigh): full size', bytes: () => big(4), size: [40, 30] },
    { name: 'interlaced: full size', bytes: () => big(3, true), size: [40, 30] },
  ])('$name', ({ bytes, size }) => {
    const png = decodePng(bytes(), { maxSize: { width: 10, height: 7 } });
    expect([png.raster.width, png.raster.height]).toEqual(size);
  });

  it.each([
    // Stored 40x30, turned 90° by eXIf: a 7x10 upright box is 10x7 stored, so 1/4 (10x8, upright 8x10);
    // not turned it would be 1/3 (14x10).
    { name: 'eXIf orientation 6: the box is turned first', orientation: 6, ignore: false, size: [8, 10] },
    { name: 'eXIf orientation 6, ignored: the box as given', orientation: 6, ignore: true, size: [14, 10] },
    { name: 'eXIf orientation 1', orientation: 1, ignore: false, size: [14, 10] },
  ])('$name', ({ orientation, ignore, size }) => {
    const bytes = insertBeforeIdat(big(3), pngChunk('eXIf', tiffWithOrientation(orientation)));
    const image = decodeImage(bytes, {
      frames: 'first',
      maxSize: { width: 7, height: 10 },
      ...(ignore ? { orientation: 'ignore' as const } : {}),
    });
    expect([image.width, image.height]).toEqual(size);
  });

  it('decodeImage reduces only for the first frame, and reports the file’s own size', () => {
    const bytes = big(3);
    const first = decodeImage(bytes, { frames: 'first', maxSize: { width: 10, height: 7 } });
    expect([first.width, first.height, first.sourceWidth, first.sourceHeight]).toEqual([10, 8, 40, 30]);
    const all = decodeImage(bytes, { maxSize: { width: 10, height: 7 } });
    expect([all.width, all.height]).toEqual([40, 30]);
  });
});

describe('outputChunk: zlib output buffers that never hold the image twice, nor trust a lie', () => {
  it.each([
    { name: 'a small image: one buffer a byte larger', expected: 5000, compressed: 10, chunk: 5001 },
    { name: 'a 36 MB photo from 11 MB: one buffer', expected: 36_003_000, compressed: 11_270_000, chunk: 36_003_001 },
    { name: 'a 36 MB claim from 4 KB: 4 MiB chunks', expected: 36_003_000, compressed: 4096, chunk: 4 << 20 },
    { name: 'the smallest', expected: 1, compressed: 8, chunk: 64 },
  ])('$name', async ({ expected, compressed, chunk }) => {
    const { outputChunk } = await import('../../src/decode/png-inflate.js');
    expect(outputChunk(expected, compressed)).toBe(chunk);
  });
});
