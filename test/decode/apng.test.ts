/**
 * APNG: every frame, composited by dispose and blend ops, against a reference built here: the
 * test writes the file chunk by chunk and computes what each frame must show with a plain
 * per-pixel model (floating-point "over", whole-canvas copies for dispose), independent of
 * src/decode/apng.ts.
 */
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/core/crc32.js';
import { apngDelayMs } from '../../src/decode/apng.js';
import { FRAME_COST_FLOOR } from '../../src/decode/frame-budget.js';
import { DecodeError, decodeImage } from '../../src/decode/index.js';

type Rgba = readonly [number, number, number, number];

interface FrameSpec {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The frame's pixels, row by row. */
  readonly pixels: readonly Rgba[];
  readonly delay: readonly [number, number];
  readonly dispose: 0 | 1 | 2;
  readonly blend: 0 | 1;
  /** The size the image data is written at, when it should lie about the fcTL's. */
  readonly dataSize?: readonly [number, number];
}

function chunk(type: string, body: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(body.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
  return Buffer.concat([head, body, crc]);
}

function u32s(...values: number[]): Buffer {
  const b = Buffer.alloc(values.length * 4);
  for (const [i, v] of values.entries()) b.writeUInt32BE(v, i * 4);
  return b;
}

/** Filter 0 rows of RGBA8, deflated. */
function imageData(width: number, height: number, pixels: readonly Rgba[]): Buffer {
  const raw = Buffer.alloc(height * (width * 4 + 1));
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) raw.set(pixels[y * width + x] as Rgba, y * (width * 4 + 1) + 1 + x * 4);
  return deflateSync(raw);
}

/** An APNG of `frames` on a `width` x `height` canvas; `hiddenDefault` puts a separate IDAT image first. */
function makeApng(
  width: number,
  height: number,
  frames: readonly FrameSpec[],
  options: { plays?: number; hiddenDefault?: Rgba; sequence?: (n: number) => number } = {},
): Uint8Array {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  parts.push(chunk('IHDR', Buffer.concat([u32s(width, height), Buffer.from([8, 6, 0, 0, 0])])));
  parts.push(chunk('acTL', u32s(frames.length, options.plays ?? 0)));
  let seq = 0;
  const next = () => (options.sequence ? options.sequence(seq++) : seq++);
  if (options.hiddenDefault) {
    const fill = Array.from({ length: width * height }, () => options.hiddenDefault as Rgba);
    parts.push(chunk('IDAT', imageData(width, height, fill)));
  }
  frames.forEach((f, i) => {
    const control = Buffer.concat([
      u32s(next(), f.width, f.height, f.x, f.y),
      Buffer.from([f.delay[0] >> 8, f.delay[0] & 255, f.delay[1] >> 8, f.delay[1] & 255, f.dispose, f.blend]),
    ]);
    parts.push(chunk('fcTL', control));
    const [dw, dh] = f.dataSize ?? [f.width, f.height];
    const data = imageData(dw, dh, f.dataSize ? fill(dw * dh, [1, 2, 3, 255]) : f.pixels);
    if (i === 0 && !options.hiddenDefault) parts.push(chunk('IDAT', data));
    else parts.push(chunk('fdAT', Buffer.concat([u32s(next()), data])));
  });
  parts.push(chunk('IEND', Buffer.alloc(0)));
  return new Uint8Array(Buffer.concat(parts));
}

/** The reference: what each frame shows, per the APNG specification, pixel by pixel in floating point. */
function reference(width: number, height: number, frames: readonly FrameSpec[]): Rgba[][] {
  let canvas: number[][] = Array.from({ length: width * height }, () => [0, 0, 0, 0]);
  const shown: Rgba[][] = [];
  frames.forEach((f, i) => {
    const before = canvas.map((p) => [...p]);
    for (let y = 0; y < f.height; y++)
      for (let x = 0; x < f.width; x++) {
        const [sr, sg, sb, sa] = (f.pixels[y * f.width + x] as Rgba).map((v) => v / 255) as unknown as number[];
        const at = (f.y + y) * width + f.x + x;
        const [dr, dg, db, da] = (canvas[at] as number[]).map((v) => v / 255) as unknown as number[];
        if (f.blend === 0) canvas[at] = [sr, sg, sb, sa].map((v) => v * 255);
        else {
          const a = sa + da * (1 - sa);
          const mix = (s: number, d: number) => (a === 0 ? 0 : (s * sa + d * da * (1 - sa)) / a);
          canvas[at] = [mix(sr, dr), mix(sg, dg), mix(sb, db), a].map((v) => v * 255);
        }
      }
    shown.push(canvas.map((p) => p.map(Math.round) as unknown as Rgba));
    const dispose = i === 0 && f.dispose === 2 ? 1 : f.dispose;
    if (dispose === 1)
      for (let y = 0; y < f.height; y++)
        for (let x = 0; x < f.width; x++) canvas[(f.y + y) * width + f.x + x] = [0, 0, 0, 0];
    if (dispose === 2) canvas = before;
  });
  return shown;
}

const fill = (n: number, rgba: Rgba): Rgba[] => Array.from({ length: n }, () => rgba);
const RED: Rgba = [255, 0, 0, 255];

const FRAMES: FrameSpec[] = [
  { x: 0, y: 0, width: 4, height: 4, pixels: fill(16, RED), delay: [1, 10], dispose: 0, blend: 0 },
  // Half-transparent blue over red, then restored (dispose previous).
  { x: 1, y: 1, width: 2, height: 2, pixels: fill(4, [0, 0, 255, 128]), delay: [0, 0], dispose: 2, blend: 1 },
  // Green with one transparent pixel, replacing (source), then cleared (background).
  {
    x: 2,
    y: 2,
    width: 2,
    height: 2,
    pixels: [
      [0, 255, 0, 255],
      [0, 0, 0, 0],
      [0, 255, 0, 200],
      [0, 255, 0, 255],
    ],
    delay: [3, 0],
    dispose: 1,
    blend: 0,
  },
  // White at 40% over the cleared corner and over red.
  { x: 1, y: 1, width: 3, height: 3, pixels: fill(9, [255, 255, 255, 102]), delay: [1, 1000], dispose: 0, blend: 1 },
];

function framePixels(data: Uint8Array): Rgba[] {
  return Array.from(
    { length: data.length / 4 },
    (_, i) => Array.from(data.subarray(i * 4, i * 4 + 4)) as unknown as Rgba,
  );
}

describe('APNG: every frame, composited', () => {
  it('matches the reference for every dispose and blend op', () => {
    const image = decodeImage(makeApng(4, 4, FRAMES, { plays: 2 }));
    const want = reference(4, 4, FRAMES);
    expect(image.format).toBe('png');
    expect(image.frames).toHaveLength(4);
    expect(image.frameCount).toBe(4);
    expect(image.plays).toBe(2);
    for (const [i, frame] of image.frames.entries()) {
      const got = framePixels(frame.raster.data);
      for (const [p, px] of got.entries())
        for (let k = 0; k < 4; k++)
          expect(
            Math.abs(px[k] - (want[i]?.[p]?.[k] ?? -9)),
            `frame ${i + 1} pixel ${p} channel ${k}`,
          ).toBeLessThanOrEqual(1);
    }
    expect(image.frames.map((f) => f.delayMs)).toEqual([100, 100, 30, 100]);
  });

  it('a changed fact fails: swapping two dispose ops changes the frames', () => {
    const swapped = FRAMES.map((f, i) => (i === 1 ? { ...f, dispose: 1 as const } : f));
    const a = decodeImage(makeApng(4, 4, FRAMES)).frames[2]?.raster.data;
    const b = decodeImage(makeApng(4, 4, swapped)).frames[2]?.raster.data;
    expect(Buffer.from(a as Uint8Array).equals(Buffer.from(b as Uint8Array))).toBe(false);
  });

  it('a hidden default image (IDAT before any fcTL) is not a frame', () => {
    const image = decodeImage(makeApng(4, 4, FRAMES, { hiddenDefault: [9, 9, 9, 255] }));
    expect(image.frames).toHaveLength(4);
    expect(framePixels(image.frames[0]?.raster.data as Uint8Array)[0]).toEqual(RED);
    // The still picture (first frame only) is the default image, as viewers without APNG show it.
    const still = decodeImage(makeApng(4, 4, FRAMES, { hiddenDefault: [9, 9, 9, 255] }), { frames: 'first' });
    expect(still.frames).toHaveLength(1);
    expect(framePixels(still.frames[0]?.raster.data as Uint8Array)[0]).toEqual([9, 9, 9, 255]);
  });

  it.each([
    { name: 'a tenth of a second', num: 1, den: 10, ms: 100 },
    { name: 'no delay is shown as 100 ms', num: 0, den: 0, ms: 100 },
    { name: 'denominator 0 means hundredths', num: 3, den: 0, ms: 30 },
    { name: '1 ms is shown as 100 ms, as browsers do', num: 1, den: 1000, ms: 100 },
    { name: '20 ms is kept', num: 1, den: 50, ms: 20 },
    { name: 'two seconds', num: 2, den: 1, ms: 2000 },
  ])('delay $num/$den s is $ms ms: $name', ({ num, den, ms }) => {
    expect(apngDelayMs(num, den)).toBe(ms);
  });
});

describe('APNG bounds', () => {
  it('a later frame reaching outside the canvas ends the animation there', () => {
    const bad = [...FRAMES.slice(0, 2), { ...(FRAMES[2] as FrameSpec), x: 3 }, FRAMES[3] as FrameSpec];
    const image = decodeImage(makeApng(4, 4, bad));
    expect(image.frames).toHaveLength(2);
    expect(image.frameCount).toBe(4);
  });

  it('a first frame outside the canvas is an error', () => {
    const bad = [{ ...(FRAMES[0] as FrameSpec), x: 1 }];
    expect(() => decodeImage(makeApng(4, 4, bad))).toThrow(/corrupt (APNG|PNG)/);
  });

  it('chunks out of sequence are corrupt', () => {
    expect(() => decodeImage(makeApng(4, 4, FRAMES, { sequence: (n) => (n === 2 ? 5 : n) }))).toThrow(DecodeError);
  });

  it('frames past the animation budget are counted, not decoded', () => {
    const many = Array.from({ length: 50 }, (_, i) => ({
      ...(FRAMES[0] as FrameSpec),
      pixels: fill(16, [i, 0, 0, 255] as Rgba),
    }));
    // A 4x4 frame counts as FRAME_COST_FLOOR pixels, not 16.
    const image = decodeImage(makeApng(4, 4, many), { limits: { maxAnimationPixels: FRAME_COST_FLOOR * 10 } });
    expect(image.frames).toHaveLength(10);
    expect(image.frameCount).toBe(50);
    expect(decodeImage(makeApng(4, 4, many), { limits: { maxAnimationFrames: 7 } }).frames).toHaveLength(7);
  });

  it('frame data that inflates past its declared size is refused', () => {
    // The second frame says 1x1 but carries 4x4 of data.
    const lying = [
      FRAMES[0] as FrameSpec,
      { ...(FRAMES[1] as FrameSpec), width: 1, height: 1, dataSize: [4, 4] as const },
    ];
    const bytes = makeApng(4, 4, lying);
    const image = decodeImage(bytes);
    expect(image.frames).toHaveLength(1); // the lying frame ends the animation
  });
});
