/**
 * BMP, QOI and PNM without ImageMagick: broken files fail with the right `DecodeError`, sizes are
 * refused before a pixel is allocated, and property tests over random pixels (QOI through the
 * specification's encoder, PNM of random maxval) come back as the writer's input says. The
 * comparison with ImageMagick is simple-magick.test.ts; fuzzing is fuzz.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DecodeError,
  type DecodeFailure,
  decodeImage,
  decodeImageLoading,
  readImageHeader,
  sniffFormat,
} from '../../src/decode/index.js';
import { bmpFile, pnmFile, qoiFile } from './support/simple-files.js';

const text = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const concat = (...parts: (Uint8Array | readonly number[])[]): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => [...p]));

function failureOf(bytes: Uint8Array): DecodeError {
  try {
    decodeImage(bytes);
  } catch (error) {
    if (error instanceof DecodeError) return error;
    throw error;
  }
  throw new Error('decoded');
}

const bmp8 = bmpFile({ width: 16, height: 8, bits: 8 });
const bmp24 = bmpFile({ width: 16, height: 8, bits: 24 });
const rle8 = bmpFile({ width: 40, height: 20, bits: 8, compression: 1, seed: 3 });
/** A BMP's header with one 32-bit little-endian field changed. */
function withField(bytes: Uint8Array, at: number, value: number): Uint8Array {
  const out = bytes.slice();
  new DataView(out.buffer).setUint32(at, value >>> 0, true);
  return out;
}
const qoi = qoiFile(new Uint8Array(16 * 8 * 4).fill(200), 16, 8);
function qoiHeader(width: number, height: number, channels = 4, colorspace = 0): number[] {
  const be = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  return [0x71, 0x6f, 0x69, 0x66, ...be(width), ...be(height), channels, colorspace];
}

const rows: { name: string; bytes: Uint8Array; failure: DecodeFailure; message: RegExp }[] = [
  // BMP
  {
    name: 'BMP: only `BM`',
    bytes: text('BM'),
    failure: 'truncated',
    message: /^truncated BMP: the file ends inside its file header$/,
  },
  {
    name: 'BMP: cut inside the DIB header',
    bytes: bmp8.subarray(0, 30),
    failure: 'truncated',
    message: /^truncated BMP: the file ends inside its DIB header$/,
  },
  {
    name: 'BMP: cut inside the pixels',
    bytes: bmp24.subarray(0, bmp24.length - 10),
    failure: 'truncated',
    message: /^truncated BMP: the file ends inside its pixels: 16x8 at 24 bits needs 384 bytes, it has 374$/,
  },
  {
    name: 'BMP: cut before the pixels',
    bytes: bmp8.subarray(0, 54 + 1024),
    failure: 'truncated',
    message: /^truncated BMP: the file ends before its pixels$/,
  },
  {
    name: 'BMP: RLE8 cut short',
    bytes: rle8.subarray(0, rle8.length - 40),
    failure: 'truncated',
    message: /^truncated BMP: the file ends inside (its RLE data|an RLE run|an RLE delta)$/,
  },
  {
    name: 'BMP: 0x8 declared',
    bytes: withField(bmp24, 22, 0),
    failure: 'corrupt',
    message: /^corrupt BMP: it declares a size of 16x0$/,
  },
  {
    name: 'BMP: a negative width',
    bytes: withField(bmp24, 18, -16),
    failure: 'corrupt',
    message: /^corrupt BMP: a negative width \(-16\)$/,
  },
  {
    name: 'BMP: 40000x40000 declared',
    bytes: withField(withField(bmp24, 18, 40000), 22, 40000),
    failure: 'too-large',
    message: /^BMP image too large to decode safely: 40000x40000/,
  },
  {
    name: 'BMP: 7 bits a pixel',
    bytes: (() => {
      const b = bmp24.slice();
      b[28] = 7;
      return b;
    })(),
    failure: 'corrupt',
    message: /^corrupt BMP: 7 bits a pixel with compression 0$/,
  },
  {
    name: 'BMP: RLE8 at 24 bits',
    bytes: withField(bmp24, 30, 1),
    failure: 'corrupt',
    message: /^corrupt BMP: 24 bits a pixel with compression 1$/,
  },
  {
    name: 'BMP: compression 9',
    bytes: withField(bmp24, 30, 9),
    failure: 'corrupt',
    message: /^corrupt BMP: compression 9$/,
  },
  {
    name: 'BMP: JPEG inside',
    bytes: withField(bmp24, 30, 4),
    failure: 'unsupported',
    message: /^BMP with JPEG compression is not supported$/,
  },
  {
    name: 'BMP: OS/2 2.x Huffman',
    bytes: withField(withField(bmp24, 14, 64), 30, 3),
    failure: 'unsupported',
    message: /^OS\/2 BMP with Huffman compression is not supported$/,
  },
  {
    name: 'BMP: PNG inside',
    bytes: withField(bmp24, 30, 5),
    failure: 'unsupported',
    message: /^BMP with PNG compression is not supported$/,
  },
  {
    name: 'BMP: pixels inside the headers',
    bytes: withField(bmp24, 10, 20),
    failure: 'corrupt',
    message: /^corrupt BMP: pixels at byte 20, inside the headers$/,
  },
  {
    name: 'BMP: 8 bits with the palette left out',
    bytes: withField(bmp8, 10, 54),
    failure: 'corrupt',
    message: /^corrupt BMP: a 8-bit picture without a palette$/,
  },
  {
    name: 'BMP: cut inside its bit masks',
    bytes: bmpFile({ width: 4, height: 1, bits: 16, compression: 3, masks: [0xf800, 0x7e0, 0x1f, 0] }).subarray(0, 60),
    failure: 'truncated',
    message: /^truncated BMP: the file ends before its pixels$/,
  },
  // QOI
  {
    name: 'QOI: cut inside the header',
    bytes: qoi.subarray(0, 10),
    failure: 'truncated',
    message: /^truncated QOI: the file ends inside its header$/,
  },
  {
    name: 'QOI: 5 channels',
    bytes: concat(qoiHeader(4, 4, 5), [0xc0 | 15]),
    failure: 'corrupt',
    message: /^corrupt QOI: 5 channels \(3 or 4 only\)$/,
  },
  {
    name: 'QOI: colour space 2',
    bytes: concat(qoiHeader(4, 4, 4, 2), [0xc0 | 15]),
    failure: 'corrupt',
    message: /^corrupt QOI: colour space 2 \(0 or 1 only\)$/,
  },
  {
    name: 'QOI: 0 wide',
    bytes: concat(qoiHeader(0, 4), [0xc0]),
    failure: 'corrupt',
    message: /^corrupt QOI: it declares a size of 0x4$/,
  },
  {
    name: 'QOI: 5000x5000 in 20 bytes',
    bytes: concat(qoiHeader(5000, 5000), [0xc0 | 61, 0xc0 | 61, 0, 0, 0, 0, 0, 0]),
    failure: 'truncated',
    message: /^truncated QOI: 5000x5000 needs at least 403226 bytes of data, the file has 8$/,
  },
  {
    name: 'QOI: 100000x100000',
    bytes: concat(qoiHeader(100000, 100000), [0xc0]),
    failure: 'too-large',
    message: /^QOI image too large/,
  },
  {
    name: 'QOI: the data ends early',
    bytes: concat(qoiHeader(8, 8), [0xc0 | 20, 0xc0 | 20]),
    failure: 'truncated',
    message: /^truncated QOI: the data ends before the last pixel$/,
  },
  {
    name: 'QOI: the data ends inside an RGBA op',
    bytes: concat(qoiHeader(1, 2), [0xff, 1, 2]),
    failure: 'truncated',
    message: /^truncated QOI: the data ends inside a pixel$/,
  },
  // PNM
  {
    name: 'PNM: `P6` alone',
    bytes: text('P6\n'),
    failure: 'truncated',
    message: /^truncated PNM: the file ends before its width$/,
  },
  {
    name: 'PNM: a width of letters',
    bytes: text('P6\nab 2\n255\n'),
    failure: 'corrupt',
    message: /^corrupt PNM: its width is not a number$/,
  },
  {
    name: 'PNM: maxval 0',
    bytes: text('P5\n2 2\n0\n\0\0\0\0'),
    failure: 'corrupt',
    message: /^corrupt PNM: its maxval is 0$/,
  },
  {
    name: 'PNM: maxval 65536',
    bytes: text('P5\n2 2\n65536\n'),
    failure: 'corrupt',
    message: /^corrupt PNM: its maxval is over 65535$/,
  },
  {
    name: 'PNM: a width past 2^31',
    bytes: text('P5\n99999999999 2\n255\n'),
    failure: 'corrupt',
    message: /^corrupt PNM: its width is over 2147483647$/,
  },
  { name: 'PNM: 30001 wide', bytes: text('P5\n30001 1\n255\n'), failure: 'too-large', message: /^PNM image too large/ },
  {
    name: 'PNM: P6 cut inside its samples',
    bytes: text('P6\n4 4\n255\n0123456789'),
    failure: 'truncated',
    message: /^truncated PNM: the file ends inside its samples: 4x4x3 needs at least 48 bytes, it has 10$/,
  },
  {
    name: 'PNM: P5 5000x5000 of 20 bytes',
    bytes: text('P5\n5000 5000\n255\n01234567890123456789'),
    failure: 'truncated',
    message: /^truncated PNM: .*needs at least 25000000 bytes, it has 20$/,
  },
  {
    name: 'PNM: P2 sample over maxval',
    bytes: text('P2\n2 1\n10\n5 11\n'),
    failure: 'corrupt',
    message: /^corrupt PNM: a sample of 11, over its maxval 10$/,
  },
  {
    name: 'PNM: P5 16-bit sample over maxval',
    bytes: concat(text('P5\n1 1\n1000\n'), [0x03, 0xe9]),
    failure: 'corrupt',
    message: /^corrupt PNM: a sample of 1001, over its maxval 1000$/,
  },
  {
    name: 'PNM: P1 bit 2',
    bytes: text('P1\n2 1\n0 2\n'),
    failure: 'corrupt',
    message: /^corrupt PNM: a PBM bit that is not 0 or 1$/,
  },
  {
    name: 'PNM: P6 without whitespace after maxval',
    bytes: text('P6\n1 1\n255x\0\0\0'),
    failure: 'corrupt',
    message: /^corrupt PNM: no whitespace after its header$/,
  },
  {
    name: 'PAM: no ENDHDR',
    bytes: text('P7\nWIDTH 1\nHEIGHT 1\n'),
    failure: 'truncated',
    message: /^truncated PNM: the file ends inside its PAM header$/,
  },
  {
    name: 'PAM: no DEPTH',
    bytes: text('P7\nWIDTH 1\nHEIGHT 1\nMAXVAL 255\nENDHDR\n\0'),
    failure: 'corrupt',
    message: /^corrupt PNM: its PAM header has no DEPTH$/,
  },
  {
    name: 'PAM: DEPTH 5',
    bytes: text('P7\nWIDTH 1\nHEIGHT 1\nDEPTH 5\nMAXVAL 255\nENDHDR\n\0\0\0\0\0'),
    failure: 'corrupt',
    message: /^corrupt PNM: its PAM DEPTH is "5"$/,
  },
];

describe('broken BMP, QOI and PNM files', () => {
  it.each(rows)('$name', ({ bytes, failure, message }) => {
    const error = failureOf(bytes);
    expect({ failure: error.failure, message: error.message }).toEqual({
      failure,
      message: expect.stringMatching(message),
    });
  });
});

describe('sniffing and header sizes', () => {
  it.each([
    { name: 'BMP', bytes: bmp24, format: 'bmp', size: [16, 8] },
    {
      name: 'BMP, top-down',
      bytes: bmpFile({ width: 5, height: 3, bits: 24, topDown: true }),
      format: 'bmp',
      size: [5, 3],
    },
    {
      name: 'BMP, OS/2 1.x',
      bytes: bmpFile({ width: 5, height: 3, bits: 24, headerSize: 12 }),
      format: 'bmp',
      size: [5, 3],
    },
    { name: 'QOI', bytes: qoi, format: 'qoi', size: [16, 8] },
    { name: 'PBM with a comment', bytes: text('P1 # c\n# another\n7\t3\n'), format: 'pnm', size: [7, 3] },
    { name: 'PAM', bytes: text('P7\nWIDTH 9\nHEIGHT 4\nDEPTH 3\nMAXVAL 255\nENDHDR\n'), format: 'pnm', size: [9, 4] },
  ])('$name', ({ bytes, format, size }) => {
    expect(sniffFormat(bytes)).toBe(format);
    const header = readImageHeader(bytes, format as 'bmp');
    expect([header.width, header.height]).toEqual(size);
  });

  it.each([
    { name: 'P8', bytes: text('P8\n1 1\n') },
    { name: 'P6 followed by a letter', bytes: text('P6x1 1\n') },
    { name: 'BM then a DIB header size of 41', bytes: withField(bmp24, 14, 41) },
    { name: 'qoi in lower case only as its magic', bytes: text('QOIF') },
  ])('not sniffed: $name', ({ bytes }) => {
    expect(sniffFormat(bytes)).toBeNull();
  });
});

describe('decoded pixels', () => {
  it('QOI: random pictures through the specification encoder come back exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 24 }),
        fc.integer({ min: 1, max: 24 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0, max: 3 })), {
          minLength: 1,
          maxLength: 40,
        }),
        fc.integer(),
        (width, height, palette, seed) => {
          // Pixels from a few colours, alpha among four levels, with runs: every op occurs.
          const rgba = new Uint8Array(width * height * 4);
          let s = seed >>> 0 || 1;
          for (let i = 0; i < width * height; i++) {
            s = (s * 1103515245 + 12345) >>> 0;
            const [v, a] = palette[(s >>> 8) % palette.length] as [number, number];
            rgba.set([v, (v + (s & 3)) & 255, (v * 7) & 255, [0, 85, 170, 255][a] as number], i * 4);
          }
          expect(decodeImage(qoiFile(rgba, width, height)).frames[0]?.raster.data).toEqual(rgba);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('QOI: colour space 1 (linear) is converted to sRGB, 0 is kept', () => {
    const rgba = new Uint8Array([128, 128, 128, 255]);
    const linear = decodeImage(qoiFile(rgba, 1, 1, 4, 1));
    expect(linear.colour.applied).toBe('converted');
    // Linear 128/255 is sRGB 188 (IEC 61966-2-1's curve).
    expect([...(linear.frames[0]?.raster.data ?? [])]).toEqual([188, 188, 188, 255]);
    expect(decodeImage(qoiFile(rgba, 1, 1, 4, 0)).colour.applied).toBe('as-is');
  });

  it('PNM: binary P5/P6/P7 of any maxval are v * 255 / maxval, rounded', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(5 as const, 6 as const, 7 as const),
        fc.integer({ min: 1, max: 65535 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 1000 }),
        (kind, maxval, width, height, seed) => {
          const bytes = pnmFile({ kind, width, height, maxval, seed, depth: 4 });
          const depth = kind === 5 ? 1 : kind === 6 ? 3 : 4;
          const wide = maxval > 255;
          const samples = bytes.subarray(bytes.length - width * height * depth * (wide ? 2 : 1));
          const sample = (i: number): number =>
            wide ? ((samples[i * 2] as number) << 8) | (samples[i * 2 + 1] as number) : (samples[i] as number);
          const expected: number[] = [];
          for (let p = 0; p < width * height; p++) {
            const v = (c: number): number => Math.round((sample(p * depth + c) * 255) / maxval);
            if (depth === 1) expected.push(v(0), v(0), v(0), 255);
            else expected.push(v(0), v(1), v(2), depth === 4 ? v(3) : 255);
          }
          expect([...(decodeImage(bytes).frames[0]?.raster.data ?? [])]).toEqual(expected);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('PNM: a file of two pictures shows the first', () => {
    const two = concat(text('P5\n1 1\n255\n'), [10], text('P5\n1 1\n255\n'), [200]);
    expect([...(decodeImage(two).frames[0]?.raster.data ?? [])]).toEqual([10, 10, 10, 255]);
  });

  it('PBM: 1 is black, PAM BLACKANDWHITE: 1 is white', () => {
    expect([...(decodeImage(text('P1\n2 1\n10')).frames[0]?.raster.data ?? [])]).toEqual([
      0, 0, 0, 255, 255, 255, 255, 255,
    ]);
    const pam = concat(text('P7\nWIDTH 2\nHEIGHT 1\nDEPTH 1\nMAXVAL 1\nTUPLTYPE BLACKANDWHITE\nENDHDR\n'), [1, 0]);
    expect([...(decodeImage(pam).frames[0]?.raster.data ?? [])]).toEqual([255, 255, 255, 255, 0, 0, 0, 255]);
  });

  it('BMP: RLE pixels never reached take the first palette colour', () => {
    // 4x2 RLE8: a run of 2 of index 1 on the bottom row, then the end of the picture.
    const base = bmpFile({ width: 4, height: 2, bits: 8, paletteSize: 2 });
    const offset = new DataView(base.buffer).getUint32(10, true);
    const file = withField(concat(base.subarray(0, offset), [2, 1, 0, 1]), 30, 1);
    const data = decodeImage(file).frames[0]?.raster.data as Uint8Array;
    const colour = (i: number) => [...base.subarray(54 + i * 4, 54 + i * 4 + 3)].reverse();
    const pixel = (x: number, y: number) => [...data.subarray((y * 4 + x) * 4, (y * 4 + x) * 4 + 3)];
    expect(pixel(0, 1)).toEqual(colour(1));
    expect(pixel(2, 1)).toEqual(colour(0));
    expect(pixel(0, 0)).toEqual(colour(0));
  });

  it('BMP: a V5 header embedded ICC profile is handed to the colour step', () => {
    const base = bmpFile({ width: 2, height: 1, bits: 24, headerSize: 124 });
    const profile = text('not really a profile, but 40 bytes long.');
    const file = concat(base, profile);
    const view = new DataView(file.buffer);
    view.setUint32(14 + 56, 0x4d424544, true);
    view.setUint32(14 + 112, base.length - 14, true);
    view.setUint32(14 + 116, profile.length, true);
    // The profile is read (and found unreadable): the decode says so instead of calling it sRGB.
    expect(decodeImage(file).colour.applied).toBe('unconverted');
    expect(decodeImage(base).colour.applied).toBe('as-is');
  });
});

describe('decodeImageLoading (the CLI path, which loads the one decoder a file needs)', () => {
  it.each([
    { name: 'BMP RLE4', bytes: bmpFile({ width: 30, height: 9, bits: 4, compression: 2, seed: 5 }), format: 'bmp' },
    { name: 'QOI', bytes: qoi, format: 'qoi' },
    { name: 'PAM', bytes: pnmFile({ kind: 7, width: 6, height: 5, depth: 4, maxval: 1023 }), format: 'pnm' },
  ])('$name: the same picture as decodeImage', async ({ bytes, format }) => {
    const loaded = await decodeImageLoading(bytes);
    expect(loaded.format).toBe(format);
    expect(loaded.frames[0]?.raster.data).toEqual(decodeImage(bytes).frames[0]?.raster.data);
  });

  it('a broken one rejects with the same DecodeError', async () => {
    await expect(decodeImageLoading(text('P6\n4 4\n255\n0123'))).rejects.toMatchObject({
      failure: 'truncated',
      message: 'truncated PNM: the file ends inside its samples: 4x4x3 needs at least 48 bytes, it has 4',
    });
  });
});
