import { describe, expect, it } from 'vitest';
import { frameCost } from '../../src/decode/frame-budget.js';
import { DecodeError, type DecodeFailure, decodeImage } from '../../src/decode/index.js';
import { type CorpusImage, gifCorpus, gifFeatureCorpus, gifFramePastScreen, jpegCorpus, pngCorpus } from './corpus.js';

const valid: CorpusImage[] = [
  ...pngCorpus(),
  ...jpegCorpus(),
  ...gifCorpus(),
  ...gifFeatureCorpus(),
  gifFramePastScreen(),
];

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i]! - b[i]!));
  return max;
}

describe('decodeImage: valid images', () => {
  it.each(valid)('$name', (image) => {
    const decoded = decodeImage(image.bytes);
    expect([decoded.width, decoded.height]).toEqual([image.width, image.height]);
    expect(decoded.frames).toHaveLength(image.frames.length);
    expect(decoded.frameCount).toBe(image.frames.length);
    decoded.frames.forEach((frame, i) => {
      expect(frame.raster.width).toBe(image.width);
      expect(frame.raster.height).toBe(image.height);
      expect(frame.raster.data.constructor).toBe(Uint8Array);
      if (image.tolerance === undefined)
        expect(Buffer.from(frame.raster.data).equals(Buffer.from(image.frames[i]!))).toBe(true);
      else expect(maxDifference(frame.raster.data, image.frames[i]!)).toBeLessThanOrEqual(image.tolerance);
    });
    if (image.delays) expect(decoded.frames.map((f) => f.delayMs)).toEqual(image.delays);
  });

  it('decodes only the first frame of an animation when asked', () => {
    const animated = gifCorpus()[1]!;
    const decoded = decodeImage(animated.bytes, { frames: 'first' });
    expect(decoded.frames).toHaveLength(1);
    expect(decoded.frameCount).toBe(animated.frames.length);
    expect(Buffer.from(decoded.frames[0]!.raster.data).equals(Buffer.from(animated.frames[0]!))).toBe(true);
  });

  const animated = gifCorpus()[1]!;
  // Each frame counts its pixels, at least FRAME_COST_FLOOR.
  const perFrame = frameCost(animated.width * animated.height);
  it.each([
    { name: 'a budget of exactly two frames', budget: perFrame * 2, frames: 2 },
    { name: 'a budget just past two frames', budget: perFrame * 2 + 1, frames: 2 },
    { name: 'a budget below one frame still keeps one', budget: 1, frames: 1 },
    {
      name: 'a budget of two frames of their pixels (below the floor)',
      budget: animated.width * animated.height * 2,
      frames: 1,
    },
  ])('stops an animation at the frame budget: $name -> $frames frames', ({ budget, frames }) => {
    expect(decodeImage(animated.bytes, { limits: { maxAnimationPixels: budget } }).frames).toHaveLength(frames);
  });
});

function expectFailure(bytes: Uint8Array, failure: DecodeFailure, message?: RegExp): DecodeError {
  let caught: unknown;
  try {
    decodeImage(bytes);
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(DecodeError);
  const error = caught as DecodeError;
  expect({ failure: error.failure, message: error.message }).toMatchObject({ failure });
  expect(error.message).not.toMatch(/[\n\r\x1b]/);
  if (message) expect(error.message).toMatch(message);
  return error;
}

const firsts = [pngCorpus()[0]!, jpegCorpus()[0]!, gifCorpus()[1]!];

describe('decodeImage: truncated files', () => {
  const rows = firsts.flatMap((image) => {
    const n = image.bytes.length;
    const cuts = [1, 5, 12, 20, 30, Math.floor(n * 0.3), Math.floor(n / 2), Math.floor(n * 0.9), n - 1];
    return [...new Set(cuts)]
      .filter((cut) => cut < n)
      .map((cut) => ({ name: image.name, cut, bytes: image.bytes.subarray(0, cut), image }));
  });
  it.each(rows)('$name cut to $cut bytes', ({ bytes, image }) => {
    // A cut inside the magic number leaves something no longer recognisable.
    const error = (() => {
      try {
        decodeImage(bytes);
      } catch (e) {
        return e as DecodeError;
      }
      throw new Error('decoded a truncated file');
    })();
    expect(error).toBeInstanceOf(DecodeError);
    const magicLength = { png: 8, jpeg: 3, gif: 6 }[image.format];
    expect(error.failure).toBe(bytes.length < magicLength ? 'unknown-format' : 'truncated');
  });

  it('an empty file', () => expectFailure(new Uint8Array(0), 'truncated', /empty/));
});

/** Flips the bits of one byte at `at` (a fraction of the length or an offset from the end). */
function flip(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] = out[at]! ^ 0xff;
  return out;
}

describe('decodeImage: corrupt files', () => {
  const png = pngCorpus()[0]!.bytes;
  const idat = Buffer.from(png).indexOf('IDAT');
  const idatLength = new DataView(png.buffer, png.byteOffset).getUint32(idat - 4);
  const jpegBytes = jpegCorpus()[0]!.bytes;
  const gif = gifCorpus()[0]!.bytes;
  const rows: { name: string; bytes: Uint8Array; failure: DecodeFailure; message: RegExp }[] = [
    {
      name: 'PNG: a byte of IDAT data changed (CRC no longer matches)',
      bytes: flip(png, idat + 6),
      failure: 'corrupt',
      message: /CRC/,
    },
    {
      name: 'PNG: the CRC of IDAT changed',
      bytes: flip(png, idat + 4 + idatLength),
      failure: 'corrupt',
      message: /CRC/,
    },
    { name: 'PNG: chunk type not letters', bytes: flip(png, idat), failure: 'corrupt', message: /chunk type/ },
    {
      name: 'PNG: IHDR renamed',
      bytes: (() => {
        const b = png.slice();
        b[12] = 0x58;
        return b;
      })(),
      failure: 'corrupt',
      message: /IHDR/,
    },
    {
      name: 'PNG: no IDAT',
      bytes: (() => {
        const b = png.slice();
        b.set(Buffer.from('iDAx'), idat);
        return b;
      })(),
      failure: 'corrupt',
      message: /./,
    },
    {
      name: 'JPEG: a marker segment of length 0',
      bytes: (() => {
        const b = jpegBytes.slice();
        b[4] = 0;
        b[5] = 0;
        return b;
      })(),
      failure: 'corrupt',
      message: /length/,
    },
    {
      name: 'JPEG: no marker after SOI',
      bytes: (() => {
        const b = jpegBytes.slice();
        b[2] = 0x00;
        return b;
      })(),
      failure: 'unknown-format',
      message: /not a PNG/,
    },
    {
      name: 'JPEG: scan before frame header',
      bytes: Uint8Array.of(0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9),
      failure: 'corrupt',
      message: /scan/,
    },
    {
      name: 'GIF: unknown block',
      bytes: (() => {
        const b = gif.slice();
        b[b.length - 1] = 0x99;
        return b;
      })(),
      failure: 'corrupt',
      message: /unknown block/,
    },
    {
      name: 'GIF: zero size',
      bytes: (() => {
        const b = gif.slice();
        b[6] = 0;
        b[7] = 0;
        return b;
      })(),
      failure: 'corrupt',
      message: /0x6/,
    },
  ];
  it.each(rows)('$name', ({ bytes, failure, message }) => {
    expectFailure(bytes, failure, message);
  });
});

describe('decodeImage: wrong magic', () => {
  const text = (s: string) => new Uint8Array(Buffer.from(s, 'latin1'));
  const rows: { name: string; bytes: Uint8Array; message: RegExp; failure?: 'unsupported' }[] = [
    {
      name: 'plain text',
      bytes: text('hello, this is not a picture\n'),
      message: /^not a PNG, JPEG, GIF, WebP, BMP, QOI or PNM image$/,
    },
    { name: 'ICO', bytes: Uint8Array.of(0, 0, 1, 0, 1, 0, 16, 16, 0, 0), message: /^ICO images are not supported/ },
    // `BM` without a DIB header size there is is text, not a broken BMP.
    { name: 'text that starts with BM', bytes: text(`BM${'\0'.repeat(40)}`), message: /^not a PNG/ },
    // Formats of the optional peer sharp: known, but only decodeImageLoading decodes them.
    {
      name: 'TIFF',
      bytes: Uint8Array.of(0x49, 0x49, 0x2a, 0, 8, 0, 0, 0),
      message: /^TIFF images are decoded through the optional package sharp, by decodeImageLoading/,
      failure: 'unsupported',
    },
    {
      name: 'SVG',
      bytes: text('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"/>'),
      message: /^SVG images are decoded through the optional package sharp/,
      failure: 'unsupported',
    },
    {
      name: 'PNG signature with one byte wrong',
      bytes: (() => {
        const b = pngCorpus()[0]!.bytes.slice();
        b[1] = 0x51;
        return b;
      })(),
      message: /^not a PNG/,
    },
    { name: 'GIF version 88a', bytes: text(`GIF88a${'\0'.repeat(20)}`), message: /^not a PNG/ },
  ];
  it.each(rows)('$name', ({ bytes, message, failure }) => {
    expectFailure(bytes, failure ?? 'unknown-format', message);
  });
});

describe('decodeImage: declared dimensions too large, refused before decoding', () => {
  const u32 = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  const pngOf = (w: number, h: number) =>
    Uint8Array.from([
      0x89,
      0x50,
      0x4e,
      0x47,
      0x0d,
      0x0a,
      0x1a,
      0x0a,
      ...u32(13),
      ...Buffer.from('IHDR'),
      ...u32(w),
      ...u32(h),
      8,
      6,
      0,
      0,
      0,
      0,
      0,
      0,
      0,
    ]);
  const jpegOf = (w: number, h: number) =>
    Uint8Array.of(0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, h >> 8, h & 255, w >> 8, w & 255, 3);
  const gifOf = (w: number, h: number) =>
    Uint8Array.of(...Buffer.from('GIF89a'), w & 255, w >> 8, h & 255, h >> 8, 0, 0, 0);
  // A tiny GIF screen with one frame 40000 pixels wide: the canvas that frame needs is refused.
  const gifWideFrame = Uint8Array.of(
    ...Buffer.from('GIF89a'),
    4,
    0,
    4,
    0,
    0x80,
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
    0x2c,
    0,
    0,
    0,
    0,
    0x40,
    0x9c,
    1,
    0,
    0,
    2,
    1,
    0,
    0,
    0x3b,
  );
  const rows: { name: string; bytes: Uint8Array }[] = [
    { name: 'PNG 100000x100000', bytes: pngOf(100_000, 100_000) },
    { name: 'PNG 8000x8000 (64 megapixels)', bytes: pngOf(8000, 8000) },
    { name: 'PNG 40000x1 (one side too long)', bytes: pngOf(40_000, 1) },
    { name: 'PNG 2^32-1 wide', bytes: pngOf(0xffffffff, 1) },
    { name: 'JPEG 65000x65000', bytes: jpegOf(65_000, 65_000) },
    {
      name: 'JPEG progressive 9000x9000',
      bytes: (() => {
        const b = jpegOf(9000, 9000);
        b[9] = 0xc2;
        return b;
      })(),
    },
    { name: 'GIF 65535x65535', bytes: gifOf(65_535, 65_535) },
    { name: 'GIF frame 40000 wide on a 4x4 screen', bytes: gifWideFrame },
  ];
  it.each(rows)('$name', ({ bytes }) => {
    expectFailure(bytes, 'too-large', /too large to decode safely/);
  });

  it.each([
    { name: 'one pixel over the pixel limit', limits: { maxPixels: 34, maxSide: 100 }, failure: 'too-large' },
    { name: 'exactly at both limits', limits: { maxPixels: 35, maxSide: 7 }, failure: null },
    { name: 'one column over the side limit', limits: { maxPixels: 35, maxSide: 6 }, failure: 'too-large' },
  ] as const)('limits on a 7x5 PNG: $name, $limits -> $failure', ({ limits, failure }) => {
    const bytes = pngCorpus()[0]!.bytes;
    if (failure === null) expect(decodeImage(bytes, { limits }).width).toBe(7);
    else expect(() => decodeImage(bytes, { limits })).toThrow(/too large/);
  });
});
