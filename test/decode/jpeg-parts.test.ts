import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/decode/error.js';
import { exifOrientation } from '../../src/decode/exif.js';
import { componentBlockSize } from '../../src/decode/jpeg.js';
import { BitReader, Stop } from '../../src/decode/jpeg-bits.js';
import { type ColourModel, colourModel, columnMap, writeRows } from '../../src/decode/jpeg-color.js';
import { type BlockSize, coefficientsRead, dequantizer, idctFor, ZIGZAG } from '../../src/decode/jpeg-idct.js';
import { buildHuffmanTable, parseScanHeader } from '../../src/decode/jpeg-segments.js';
import { tiffWithOrientation } from './jpeg-helpers.js';

/**
 * T.81 A.3.3's inverse DCT evaluated directly, sampled at the centre of each (8/n)-pixel cell of
 * the block and using only the lowest n x n frequencies: what a reduced IDCT of size n computes.
 */
function referenceIdct(coefs: Int16Array, q: Uint16Array, n: number): number[] {
  const out: number[] = [];
  const c = (u: number) => (u === 0 ? Math.SQRT1_2 : 1);
  const natural = new Float64Array(64);
  for (let k = 0; k < 64; k++) natural[ZIGZAG[k]!] = coefs[ZIGZAG[k]!]! * q[k]!;
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      const px = ((2 * x + 1) * 8) / n / 2 - 0.5; // the cell's centre in 8-pixel coordinates
      const py = ((2 * y + 1) * 8) / n / 2 - 0.5;
      let s = 0;
      for (let v = 0; v < n; v++)
        for (let u = 0; u < n; u++)
          s +=
            c(u) *
            c(v) *
            natural[v * 8 + u]! *
            Math.cos(((2 * px + 1) * u * Math.PI) / 16) *
            Math.cos(((2 * py + 1) * v * Math.PI) / 16);
      out.push(Math.min(255, Math.max(0, Math.round(s / 4 + 128))));
    }
  }
  return out;
}

describe('IDCT at every size against the direct formula', () => {
  it.each([8, 4, 2, 1].map((size) => ({ name: `${size}x${size}`, size: size as BlockSize })))('$name', ({ size }) => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -60, max: 60 }), { minLength: 64, maxLength: 64 }),
        fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 64, maxLength: 64 }),
        fc.integer({ min: 0, max: 63 }),
        (values, quant, zeroFrom) => {
          // Real blocks have their energy at low frequencies; zero a tail so flat columns occur too.
          const coefs = new Int16Array(64);
          for (let k = 0; k < zeroFrom; k++) coefs[ZIGZAG[k]!] = values[k]!;
          const q = Uint16Array.from(quant);
          const out = new Uint8ClampedArray(size * size);
          idctFor(size)(coefs, 0, dequantizer(q, size), out, 0, size);
          const want = referenceIdct(coefs, q, size);
          // Rounding of x.5 may differ between the two orders of evaluation: at most one level.
          for (let i = 0; i < out.length; i++) expect(Math.abs(out[i]! - want[i]!)).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 300, seed: 8 },
    );
  });
});

describe('coefficientsRead: what each transform reads, so a sequential block stores only that', () => {
  it.each([
    { name: '1x1 (1/8): the DC term', size: 1 as BlockSize, natural: [0], lastZigzag: 0 },
    { name: '2x2 (1/4)', size: 2 as BlockSize, natural: [0, 1, 8, 9], lastZigzag: 4 },
    { name: '4x4 (1/2): (3,3) is zigzag 24', size: 4 as BlockSize, count: 16, lastZigzag: 24 },
    { name: '8x8: all 64', size: 8 as BlockSize, count: 64, lastZigzag: 63 },
  ])('$name', ({ size, natural, count, lastZigzag }) => {
    const read = coefficientsRead(size);
    if (natural) expect([...read.natural]).toEqual(natural);
    expect(read.natural.length).toBe(count ?? natural?.length);
    expect(read.lastZigzag).toBe(lastZigzag);
    // Every coefficient the transform of this size reads is among them, and no other.
    for (let n = 0; n < 64; n++) expect(read.natural.includes(n)).toBe((n & 7) < size && n >> 3 < size);
    expect(Math.max(...[...read.natural].map((n) => ZIGZAG.indexOf(n)))).toBe(lastZigzag);
  });
});

describe('Huffman tables and the bit reader', () => {
  // Lengths 1, 2, 3, 3 give the codes 0, 10, 110, 111; 12 bits long codes go past the fast table.
  const counts = new Uint8Array(16);
  counts.set([1, 1, 2]);
  const table = buildHuffmanTable(counts, Uint8Array.of(5, 6, 7, 8));
  const long = new Uint8Array(16);
  long[0] = 1;
  long[11] = 2; // codes 0, then 1000 0000 0000 and 1000 0000 0001
  const longTable = buildHuffmanTable(long, Uint8Array.of(1, 2, 3));

  it.each([
    { name: 'short codes', bytes: [0b0_10_110_11, 0b1_0000000], table, want: [5, 6, 7, 8] },
    {
      name: 'codes longer than the fast table',
      bytes: [0x80, 0x08, 0x01],
      table: longTable,
      want: [2, 3],
    },
    { name: '0xFF 0x00 is one data byte: 111 111 11|0', bytes: [0xff, 0x00, 0b0_0000000], table, want: [8, 8, 7, 5] },
  ])('$name', ({ bytes, table: t, want }) => {
    const r = new BitReader(Uint8Array.from(bytes), 0);
    expect(want.map(() => r.decode(t))).toEqual(want);
  });

  it('zero bits past the end are counted only when used', () => {
    const r = new BitReader(Uint8Array.of(0b1010_1010), 0);
    expect(r.read(8)).toBe(0xaa);
    expect(r.stop).toBe(Stop.End);
    expect(r.overrun()).toBe(0);
    r.read(3);
    expect(r.overrun()).toBe(3);
  });

  it('stops at a marker, leaving it for the segment walk', () => {
    const r = new BitReader(Uint8Array.of(0x12, 0xff, 0xd9), 0);
    expect(r.read(8)).toBe(0x12);
    r.read(1);
    expect([r.stop, r.pos]).toEqual([Stop.Marker, 1]);
  });

  it('restart steps over RSTn and resumes', () => {
    const r = new BitReader(Uint8Array.of(0xf0, 0xff, 0xd3, 0x80), 0);
    expect(r.read(4)).toBe(0xf);
    expect(r.restart()).toBe(true);
    expect(r.bit()).toBe(1);
  });

  it('the receive/extend rule maps bits to signed differences', () => {
    const values = [0b000, 0b011, 0b100, 0b111].map((bits) => new BitReader(Uint8Array.of(bits << 5), 0).receive(3));
    expect(values).toEqual([-7, -4, 4, 7]);
  });

  it('an over-full code is refused', () => {
    const c = new Uint8Array(16);
    c.set([2, 1]);
    expect(() => buildHuffmanTable(c, Uint8Array.of(1, 2, 3))).toThrow(DecodeError);
  });
});

describe('scan header, colour model and block sizes', () => {
  const frame = {
    progressive: true,
    width: 8,
    height: 8,
    components: [1, 2, 3].map((id) => ({ id, h: 1, v: 1, tq: 0 })),
  };
  it.each([
    { name: 'AC scan of two components', body: [2, 1, 0, 2, 0, 1, 63, 0], message: /more than one component/ },
    { name: 'DC scan that reaches into AC', body: [1, 1, 0, 0, 5, 0], message: /Ss=0 Se=5/ },
    { name: 'Ah not Al + 1', body: [1, 1, 0, 1, 63, 0x31], message: /successive approximation/ },
    { name: 'a component named twice', body: [2, 1, 0, 1, 0, 0, 0, 0], message: /twice/ },
  ])('refused: $name', ({ body, message }) => {
    expect(() => parseScanHeader(Uint8Array.from(body), frame)).toThrow(message);
  });

  it('duplicate component ids in the frame map to successive components', () => {
    const dup = { ...frame, progressive: false, components: [0, 0, 0].map((id) => ({ id, h: 1, v: 1, tq: 0 })) };
    const scan = parseScanHeader(Uint8Array.of(3, 0, 0, 0, 0x11, 0, 0x11, 0, 63, 0), dup);
    expect(scan.components.map((c) => c.index)).toEqual([0, 1, 2]);
  });

  it.each([
    { name: 'grey', ids: [1], adobe: null, want: 'grey' },
    { name: 'JFIF YCbCr', ids: [1, 2, 3], adobe: null, want: 'ycbcr' },
    { name: 'Adobe transform 1', ids: [1, 2, 3], adobe: 1, want: 'ycbcr' },
    { name: 'Adobe transform 0: RGB', ids: [1, 2, 3], adobe: 0, want: 'rgb' },
    { name: "ids 'R' 'G' 'B'", ids: [0x52, 0x47, 0x42], adobe: null, want: 'rgb' },
    { name: 'four components: CMYK', ids: [1, 2, 3, 4], adobe: 0, want: 'cmyk' },
    { name: 'Adobe transform 2: YCCK', ids: [1, 2, 3, 4], adobe: 2, want: 'ycck' },
  ])('colourModel: $name', ({ ids, adobe, want }) => {
    expect(colourModel(ids, adobe)).toBe(want);
  });

  it.each([
    { name: 'luma of 4:2:0 at 1/8', args: [1, 2, 2, 2, 2], want: 1 },
    { name: 'chroma of 4:2:0 at 1/8: 2x2, not upsampled', args: [1, 1, 1, 2, 2], want: 2 },
    { name: 'chroma of 4:2:0 at full size stays 8', args: [8, 1, 1, 2, 2], want: 8 },
    { name: 'chroma of 4:2:2 (uneven ratios) keeps the frame size', args: [2, 1, 1, 2, 1], want: 2 },
    { name: 'chroma of 4:1:1 at 1/8: 4x... uneven, keeps 1', args: [1, 1, 1, 4, 1], want: 1 },
    { name: 'ratio 3 (not a power of two) keeps the frame size', args: [2, 1, 1, 3, 3], want: 2 },
  ])('componentBlockSize: $name', ({ args, want }) => {
    const [bs, h, v, hmax, vmax] = args as [BlockSize, number, number, number, number];
    expect(componentBlockSize(bs, h, v, hmax, vmax)).toBe(want);
  });
});

describe('exifOrientation', () => {
  it.each([
    { name: 'big-endian SHORT', tiff: tiffWithOrientation(6, 'MM'), want: 6 },
    { name: 'little-endian SHORT', tiff: tiffWithOrientation(8, 'II'), want: 8 },
    { name: 'LONG, as some writers store it', tiff: tiffWithOrientation(3, 'II', 4), want: 3 },
    { name: 'value 0 is not an orientation', tiff: tiffWithOrientation(0), want: null },
    { name: 'value 9 is not an orientation', tiff: tiffWithOrientation(9), want: null },
    { name: 'a type that is neither SHORT nor LONG', tiff: tiffWithOrientation(6, 'MM', 7), want: null },
    { name: 'not TIFF', tiff: Uint8Array.from(Buffer.from('JFIF\0\0\0\0\0\0')), want: null },
    {
      name: 'wrong magic',
      tiff: (() => {
        const t = tiffWithOrientation(6);
        t[3] = 43;
        return t;
      })(),
      want: null,
    },
    {
      name: 'IFD0 past the end',
      tiff: (() => {
        const t = tiffWithOrientation(6);
        t[7] = 200;
        return t;
      })(),
      want: null,
    },
    {
      name: 'an entry count far beyond the block is bounded by the block',
      tiff: (() => {
        const t = tiffWithOrientation(6);
        t[8] = 0xff;
        t[9] = 0xff;
        return t;
      })(),
      want: 6,
    },
    { name: 'cut inside the entry', tiff: tiffWithOrientation(6).subarray(0, 20), want: null },
    { name: 'empty', tiff: new Uint8Array(0), want: null },
  ])('$name', ({ tiff, want }) => {
    expect(exifOrientation(tiff)).toBe(want);
  });

  it('any bytes give an orientation or null, never an exception', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), fc.constantFrom('II', 'MM'), (tail, order) => {
        const head = order === 'II' ? [0x49, 0x49, 42, 0, 8, 0, 0, 0] : [0x4d, 0x4d, 0, 42, 0, 0, 0, 8];
        const v = exifOrientation(Uint8Array.from([...head, ...tail]));
        expect(v === null || (v >= 1 && v <= 8)).toBe(true);
      }),
      { numRuns: 500, seed: 3 },
    );
  });
});

describe('writeRows: one pixel of each colour model', () => {
  /** Planes of one sample each, in component order. */
  const pixel = (model: ColourModel, samples: number[]) => {
    const planes = samples.map((v) => ({
      data: Uint8ClampedArray.of(v),
      stride: 1,
      firstRow: 0,
      rowsPer: 1,
      rowsOf: 1,
    }));
    const out = new Uint8ClampedArray(4);
    writeRows(
      model,
      planes,
      samples.map(() => columnMap(1, 1, 1)),
      out,
      1,
      0,
      1,
    );
    return [...out];
  };
  it.each([
    { name: 'grey', model: 'grey', samples: [77], want: [77, 77, 77, 255] },
    { name: 'RGB passes through', model: 'rgb', samples: [10, 20, 30], want: [10, 20, 30, 255] },
    { name: 'YCbCr neutral', model: 'ycbcr', samples: [100, 128, 128], want: [100, 100, 100, 255] },
    // JFIF: R = Y + 1.402 (Cr - 128) = 100 + 1.402 * 50 = 170.1; G = 100 - 0.714136 * 50 = 64.3; B = 100.
    { name: 'YCbCr red-ish', model: 'ycbcr', samples: [100, 128, 178], want: [170, 64, 100, 255] },
    // Adobe's inverted CMYK: 255 is no ink. C = 255 (no cyan), M = 0 (full magenta), Y = 255, K = 255 (no black).
    { name: 'CMYK full magenta', model: 'cmyk', samples: [255, 0, 255, 255], want: [255, 0, 255, 255] },
    { name: 'CMYK full black', model: 'cmyk', samples: [255, 255, 255, 0], want: [0, 0, 0, 255] },
    { name: 'CMYK half black', model: 'cmyk', samples: [255, 255, 255, 128], want: [128, 128, 128, 255] },
    // YCCK: YCC 200/128/128 is RGB 200, so stored C, M, Y are 55; with no black the colour is 55.
    { name: 'YCCK neutral', model: 'ycck', samples: [200, 128, 128, 255], want: [55, 55, 55, 255] },
  ])('$name', ({ model, samples, want }) => {
    expect(pixel(model as ColourModel, samples)).toEqual(want);
  });
});
