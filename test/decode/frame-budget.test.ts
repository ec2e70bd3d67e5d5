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
    { name: 'a 0x0 frame costs the floor', pixels: 0, cost: FRAME_COST_FLOOR },
    { name: 'a 1x1 frame costs the floor', pixels: 1, cost: FRAME_COST_FLOOR },
    { name: 'a frame of the floor', pixels: FRAME_COST_FLOOR, cost: FRAME_COST_FLOOR },
    { name: 'a frame past the floor costs its pixels', pixels: FRAME_COST_FLOOR + 1, cost: FRAME_COST_FLOOR + 1 },
    { name: 'a 4000x3000 frame', pixels: 4000 * 3000, cost: 12_000_000 },
  ])('$name: $pixels pixels cost $cost', ({ pixels, cost }) => {
    expect(frameCost(pixels)).toBe(cost);
  });

  it.each([
    { name: '0x0 frames: the count limit', pixels: 64_000_000, count: 10_000, each: 0, kept: 10_000 },
    { name: '0x0 frames: the floor', pixels: 64_000_000, count: 100_000, each: 0, kept: 15_625 },
    { name: '1x1 frames: the floor', pixels: 64_000_000, count: 100_000, each: 1, kept: 15_625 },
    { name: '4000x3000 frames: their pixels', pixels: 64_000_000, count: 10_000, each: 12_000_000, kept: 5 },
    { name: 'a count of 3', pixels: 64_000_000, count: 3, each: 100, kept: 3 },
    { name: 'always a first frame', pixels: 100, count: 10, each: 12_000_000, kept: 1 },
    { name: 'Infinity pixels: the count', pixels: Number.POSITIVE_INFINITY, count: 7, each: 0, kept: 7 },
  ])('$name: $kept frames', ({ pixels, count, each, kept }) => {
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
    { name: 'maxAnimationPixels NaN', key: 'maxAnimationPixels', value: Number.NaN },
    { name: 'maxAnimationPixels 0', key: 'maxAnimationPixels', value: 0 },
    { name: 'maxAnimationFrames -1', key: 'maxAnimationFrames', value: -1 },
    { name: 'maxPixels a string', key: 'maxPixels', value: '5' },
    { name: 'maxSide null', key: 'maxSide', value: null },
  ])('$name is a RangeError naming it', ({ key, value }) => {
    expect(() => decodeImage(png, { limits: { [key]: value } as never })).toThrow(
      new RegExp(`^decodeImage: limits\\.${key} must be a number of at least 1`),
    );
    expect(() => decodeImage(png, { limits: { [key]: value } as never })).toThrow(RangeError);
  });

  it.each([
    { name: 'a NaN width', maxSize: { width: Number.NaN, height: 10 } },
    { name: 'a height of 0', maxSize: { width: 10, height: 0 } },
    { name: 'an infinite height', maxSize: { width: 10, height: Number.POSITIVE_INFINITY } },
  ])('maxSize with $name is a RangeError', ({ maxSize }) => {
    expect(() => decodeImage(png, { maxSize })).toThrow(RangeError);
  });

  it.each([
    {
      name: 'a string',
      value: 'photo.png',
      message: /got a string of 9 characters\); to decode a file, read it first/,
    },
    { name: 'null', value: null, message: /got null/ },
    { name: 'a number', value: 5, message: /got 5/ },
    { name: 'an array', value: [1, 2], message: /got an Array/ },
  ])('bytes as $name is a TypeError naming the argument', ({ value, message }) => {
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
