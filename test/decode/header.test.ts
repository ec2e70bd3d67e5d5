import { describe, expect, it } from 'vitest';
import { gifDelayMs, readGifLayout } from '../../src/decode/gif.js';
import { readImageHeader } from '../../src/decode/image-header.js';
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

  it("the layout walk reads each frame's size, disposal and transparent index", () => {
    const gif = gifCorpus()[1]!;
    const layout = readGifLayout(gif.bytes);
    expect(layout.frames.map((f) => [f.width, f.height, f.disposal, f.transparent, f.interlaced])).toEqual([
      [12, 8, 1, -1, false],
      [5, 4, 2, 0, false],
      [6, 5, 3, 1, false],
      [3, 3, 0, 2, false],
    ]);
  });
});
