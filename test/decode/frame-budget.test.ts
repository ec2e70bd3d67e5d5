import { describe, expect, it } from 'vitest';
import { animationFrameLimit, FRAME_COST_FLOOR, FrameBudget, frameCost } from '../../src/decode/frame-budget.js';
import { DEFAULT_DECODE_LIMITS, decodeImage } from '../../src/decode/index.js';

const limits = (maxAnimationPixels: number, maxAnimationFrames: number) => ({
  ...DEFAULT_DECODE_LIMITS,
  maxAnimationPixels,
  maxAnimationFrames,
});

describe('frame costs', () => {
  it.each([
    [0, FRAME_COST_FLOOR],
    [1, FRAME_COST_FLOOR],
    [FRAME_COST_FLOOR, FRAME_COST_FLOOR],
    [FRAME_COST_FLOOR + 1, FRAME_COST_FLOOR + 1],
    [4000 * 3000, 12_000_000],
  ])('a frame of %i pixels costs %i', (pixels, cost) => {
    expect(frameCost(pixels)).toBe(cost);
  });

  it.each([
    // [maxAnimationPixels, maxAnimationFrames, frame pixels, frames kept]
    [64_000_000, 10_000, 0, 10_000], // 0x0 frames: the count limit
    [64_000_000, 100_000, 0, 15_625], // 0x0 frames: the floor
    [64_000_000, 100_000, 1, 15_625],
    [64_000_000, 10_000, 12_000_000, 5],
    [64_000_000, 3, 100, 3],
    [100, 10, 12_000_000, 1], // always a first frame
    [Number.POSITIVE_INFINITY, 7, 0, 7],
  ])('budget %d pixels / %d frames, frames of %d pixels: %d frames', (pixels, count, each, kept) => {
    expect(animationFrameLimit(limits(pixels, count), each)).toBe(kept);
  });

  it('FrameBudget admits by count and by cost, the first frame always', () => {
    const budget = new FrameBudget(limits(3 * FRAME_COST_FLOOR, 10));
    expect([budget.admit(0), budget.admit(1), budget.admit(FRAME_COST_FLOOR), budget.admit(0)]).toEqual([
      true,
      true,
      true,
      false,
    ]);
    expect([budget.frames, budget.pixels]).toEqual([3, 3 * FRAME_COST_FLOOR]);
    const huge = new FrameBudget(limits(10, 2));
    expect([huge.admit(1e9), huge.admit(0)]).toEqual([true, false]);
    const counted = new FrameBudget(limits(Number.POSITIVE_INFINITY, 2));
    expect([counted.admit(0), counted.admit(0), counted.admit(0)]).toEqual([true, true, false]);
  });
});

describe('bad limits and arguments', () => {
  const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  it.each([
    ['maxAnimationPixels', Number.NaN],
    ['maxAnimationPixels', 0],
    ['maxAnimationFrames', -1],
    ['maxPixels', '5'],
    ['maxSide', null],
  ])('limits.%s = %s is a RangeError naming it', (key, value) => {
    expect(() => decodeImage(png, { limits: { [key]: value } as never })).toThrow(
      new RegExp(`^decodeImage: limits\\.${key} must be a number of at least 1`),
    );
    expect(() => decodeImage(png, { limits: { [key]: value } as never })).toThrow(RangeError);
  });

  it.each([[{ width: Number.NaN, height: 10 }], [{ width: 10, height: 0 }], [{ width: 10, height: Infinity }]])(
    'maxSize %o is a RangeError',
    (maxSize) => {
      expect(() => decodeImage(png, { maxSize })).toThrow(RangeError);
    },
  );

  it.each([
    ['a string', 'photo.png', /got a string of 9 characters\); to decode a file, read it first/],
    ['null', null, /got null/],
    ['a number', 5, /got 5/],
    ['an array', [1, 2], /got an Array/],
  ])('bytes as %s is a TypeError naming the argument', (_what, value, message) => {
    expect(() => decodeImage(value as never)).toThrow(TypeError);
    expect(() => decodeImage(value as never)).toThrow(message);
  });

  it('an ArrayBuffer, a DataView or another typed array are read as their bytes', () => {
    const gif = Uint8Array.from(Buffer.from('R0lGODlhAQABAIAAAP///wAAACwAAAAAAQABAAACAkQBADs=', 'base64'));
    const expected = decodeImage(gif).frames[0]?.raster.data;
    const padded = new Uint8Array(gif.length + 3);
    padded.set(gif, 3);
    for (const input of [gif.slice().buffer, new DataView(padded.buffer, 3), new Uint8Array(padded.buffer, 3)])
      expect(decodeImage(input).frames[0]?.raster.data).toEqual(expected);
  });
});
