/**
 * GIFs written by a real encoder (ImageMagick: interlacing, a transparent index, a 1x1 frame,
 * disposal 3), decoded and compared pixel for pixel with the frames ImageMagick composites itself
 * (test/fixtures/images/gif/README.md says how both were made).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';

const dir = new URL('../fixtures/images/gif/', import.meta.url);
const read = (name: string) => new Uint8Array(readFileSync(new URL(name, dir)));

/** Pixels that differ, where two fully transparent pixels are equal whatever their colour. */
function differing(a: Uint8Array, b: Uint8Array): number {
  let count = 0;
  for (let i = 0; i < a.length; i += 4) {
    if (a[i + 3] === 0 && b[i + 3] === 0) continue;
    if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2] || a[i + 3] !== b[i + 3]) count++;
  }
  return count;
}

describe("GIFs from ImageMagick match ImageMagick's own frames", () => {
  it.each([
    { name: 'chelsea-interlaced', frames: 1, width: 90, height: 60, delays: [0] },
    { name: 'coffee-optimized', frames: 3, width: 80, height: 60, delays: [80, 80, 80] },
  ])('$name: $frames frames', ({ name, frames, width, height, delays }) => {
    const image = decodeImage(read(`${name}.gif`));
    expect([image.width, image.height, image.frames.length]).toEqual([width, height, frames]);
    expect(image.frames.map((f) => f.delayMs)).toEqual(delays);
    image.frames.forEach((frame, i) => {
      const expected = decodeImage(read(`${name}.coalesced-${i}.png`)).frames[0]!.raster;
      expect([expected.width, expected.height]).toEqual([width, height]);
      expect(differing(frame.raster.data, expected.data)).toBe(0);
    });
  });

  it('the first frame alone is the same picture', () => {
    const first = decodeImage(read('coffee-optimized.gif'), { frames: 'first' });
    const all = decodeImage(read('coffee-optimized.gif'));
    expect([first.frames.length, first.frameCount]).toEqual([1, 3]);
    expect(Buffer.from(first.frames[0]!.raster.data).equals(Buffer.from(all.frames[0]!.raster.data))).toBe(true);
  });
});
