import { describe, expect, it } from 'vitest';
import { gifDelayMs, readGifLayout } from '../../src/decode/gif.js';
import { checkGifLzw } from '../../src/decode/gif-lzw.js';
import { readImageHeader } from '../../src/decode/header.js';
import { sniffFormat } from '../../src/decode/sniff.js';
import { gifCorpus, jpegCorpus, pngCorpus } from './corpus.js';

describe('sniffFormat and readImageHeader on the corpus', () => {
  const images = [...pngCorpus(), ...jpegCorpus(), ...gifCorpus()];
  it.each(images)('$name', (image) => {
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
    { name: 'SOF0 straight after SOI', bytes: [0xff, 0xd8, ...sof(0xc0, 640, 480)], size: [640, 480] },
    {
      name: 'after APP0 and fill bytes',
      bytes: [0xff, 0xd8, 0xff, 0xe0, 0, 4, 1, 2, 0xff, 0xff, ...sof(0xc2, 3, 70000 & 0xffff)],
      size: [3, 70000 & 0xffff],
    },
    {
      name: 'DHT (C4) is not a frame header',
      bytes: [0xff, 0xd8, 0xff, 0xc4, 0, 4, 0, 0, ...sof(0xc1, 9, 8)],
      size: [9, 8],
    },
  ])('$name', ({ bytes, size: [w, h] }) => {
    expect(readImageHeader(Uint8Array.from(bytes), 'jpeg')).toMatchObject({ width: w, height: h });
  });
});

describe('GIF helpers', () => {
  it.each([
    { name: "zero means the browsers' 100 ms", cs: 0, ms: 100 },
    { name: 'one centisecond is raised to 100 ms too', cs: 1, ms: 100 },
    { name: 'two centiseconds are kept', cs: 2, ms: 20 },
    { name: 'ten centiseconds', cs: 10, ms: 100 },
    { name: 'half a second', cs: 50, ms: 500 },
  ])('delay: $name, $cs cs -> $ms ms', ({ cs, ms }) => {
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
    { name: 'a code past the table', bytes: [2, 2, 0xc4, 0x0b, 0], expected: 4, ok: false },
    { name: 'a minimum code size of 12', bytes: [12, 1, 0, 0], expected: 4, ok: false },
    // codes clear(4), 0, 0, end(5): 2 pixels of the 4 wanted (short, yet readable)
    { name: 'short data', bytes: [2, 2, 0x04, 0x0a, 0], expected: 4, ok: true },
  ] as const)('$name', ({ bytes, expected, ok }) => {
    const result = checkGifLzw(Uint8Array.from(bytes), 0, expected);
    expect(result.ok).toBe(ok);
    if (result.ok) expect(result.pixels).toBeLessThan(expected);
  });
});
