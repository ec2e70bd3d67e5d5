import { describe, expect, it } from 'vitest';
import { gifDelayMs, readGifLayout } from '../../src/decode/gif.js';
import { checkGifLzw } from '../../src/decode/gif-lzw.js';
import { readImageHeader } from '../../src/decode/header.js';
import { sniffFormat } from '../../src/decode/sniff.js';
import { gifCorpus, jpegCorpus, pngCorpus } from './corpus.js';

describe('sniffFormat and readImageHeader on the corpus', () => {
  const images = [...pngCorpus(), ...jpegCorpus(), ...gifCorpus()];
  it.each(images.map((i) => [i.name, i] as const))('%s', (_name, image) => {
    expect(sniffFormat(image.bytes)).toBe(image.format);
    expect(readImageHeader(image.bytes, image.format)).toEqual({
      format: image.format,
      width: image.width,
      height: image.height,
    });
  });
});

describe('readImageHeader: JPEG marker walk', () => {
  const sof = (marker: number, w: number, h: number) => [
    0xff,
    marker,
    0,
    11,
    8,
    h >> 8,
    h & 255,
    w >> 8,
    w & 255,
    1,
    1,
    0x11,
    0,
  ];
  it.each([
    ['SOF0 straight after SOI', [0xff, 0xd8, ...sof(0xc0, 640, 480)], [640, 480]],
    [
      'after APP0 and fill bytes',
      [0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0xff, ...sof(0xc2, 3, 70000 & 0xffff)],
      [3, 70000 & 0xffff],
    ],
    ['DHT (C4) is not a frame header', [0xff, 0xd8, 0xff, 0xc4, 0, 4, 0, 0, ...sof(0xc1, 9, 8)], [9, 8]],
  ])('%s', (_name, bytes, [w, h]) => {
    expect(readImageHeader(Uint8Array.from(bytes), 'jpeg')).toMatchObject({ width: w, height: h });
  });
});

describe('GIF helpers', () => {
  it.each([
    [0, 100],
    [1, 100],
    [2, 20],
    [10, 100],
    [50, 500],
  ])('delay %i cs -> %i ms', (cs, ms) => {
    expect(gifDelayMs(cs)).toBe(ms);
  });

  it('the LZW dry run counts every pixel of a valid frame', () => {
    const gif = gifCorpus()[1]!;
    const layout = readGifLayout(gif.bytes);
    expect(layout.frames.map((f) => [f.width, f.height, f.disposal])).toEqual([
      [12, 8, 1],
      [5, 4, 2],
      [6, 5, 3],
      [3, 3, 0],
    ]);
  });

  it.each([
    // min code size 2; codes clear(4), 0, 7 (past the next free slot 6), end(5)
    ['a code past the table', [2, 2, 0xc4, 0x0b, 0], 4, false],
    ['a minimum code size of 12', [12, 1, 0, 0], 4, false],
    // codes clear(4), 0, 0, end(5): 2 pixels of the 4 wanted (short, yet readable)
    ['short data', [2, 2, 0x04, 0x0a, 0], 4, true],
  ] as const)('%s', (_name, bytes, expected, ok) => {
    const result = checkGifLzw(Uint8Array.from(bytes), 0, expected);
    expect(result.ok).toBe(ok);
    if (result.ok) expect(result.pixels).toBeLessThan(expected);
  });
});
