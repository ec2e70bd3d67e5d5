/**
 * A WebP decoded at the size it is drawn: a still lossy picture converted a whole factor smaller
 * (src/decode/webp-vp8-reduce.ts) against its full-size decode averaged down by the same factor
 * (alpha-weighted where a block is partly transparent, as the renderer's resize is), and an
 * animation's first frame decoded without touching the frames after it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { wholeReduction } from '../../src/decode/reduction.js';
import { decodeWebp } from '../../src/decode/webp.js';
import { readVp8Size } from '../../src/decode/webp-vp8.js';
import { reducedYuvToRgba } from '../../src/decode/webp-vp8-reduce.js';
import { yuvToRgba } from '../../src/decode/webp-vp8-yuv.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { vp8File, vp8FixtureNames, vp8Payload } from './vp8-helpers.js';

const IMAGES = new URL('../fixtures/images/', import.meta.url).pathname;
const hasTools = ['cwebp', 'img2webp', 'webpmux'].every((t) => spawnSync(t, ['-version']).status === 0);
const temp = mkdtempSync(join(tmpdir(), 'termsight-webp-reduce-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

/**
 * The reference: `rgba` averaged down by `factor` in blocks (the last of a row or column smaller);
 * an opaque block's channels averaged, a partly transparent block's colour weighted by alpha, a
 * block with no alpha at all 0, 0, 0, 0.
 */
function averagedDown(rgba: Uint8Array, width: number, height: number, factor: number): Raster {
  const ow = Math.ceil(width / factor);
  const oh = Math.ceil(height / factor);
  const out = new Uint8Array(ow * oh * 4);
  for (let oy = 0; oy < oh; oy++)
    for (let ox = 0; ox < ow; ox++) {
      let n = 0;
      let a = 0;
      const plain = [0, 0, 0];
      const weighted = [0, 0, 0];
      for (let y = oy * factor; y < Math.min(height, oy * factor + factor); y++)
        for (let x = ox * factor; x < Math.min(width, ox * factor + factor); x++) {
          const i = (y * width + x) * 4;
          n++;
          a += rgba[i + 3]!;
          for (let c = 0; c < 3; c++) {
            plain[c]! += rgba[i + c]!;
            weighted[c]! += rgba[i + c]! * rgba[i + 3]!;
          }
        }
      const o = (oy * ow + ox) * 4;
      if (a === 255 * n) {
        for (let c = 0; c < 3; c++) out[o + c] = Math.round(plain[c]! / n);
        out[o + 3] = 255;
      } else if (a > 0) {
        for (let c = 0; c < 3; c++) out[o + c] = Math.round(weighted[c]! / a);
        out[o + 3] = Math.round(a / n);
      }
    }
  return { width: ow, height: oh, data: out };
}

/** The largest and the mean absolute difference of two same-sized byte arrays. */
function differences(a: Uint8Array, b: Uint8Array): { max: number; mean: number } {
  expect(a.length).toBe(b.length);
  let max = 0;
  let sum = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i]! - b[i]!);
    max = Math.max(max, d);
    sum += d;
  }
  return { max, mean: sum / a.length };
}

/** A box the picture covers `factor` times over on both axes, so that factor is the one chosen. */
const boxFor = (width: number, height: number, factor: number) => ({
  width: Math.floor(width / factor),
  height: Math.floor(height / factor),
});

describe('wholeReduction: the largest whole factor that still covers the box', () => {
  it.each([
    { name: '4000x3000 in 100x75', size: [4000, 3000], box: { width: 100, height: 75 }, factor: 40 },
    { name: '4000x3000 in 100x100', size: [4000, 3000], box: { width: 100, height: 100 }, factor: 30 },
    { name: '4000x3000 in 2001x1', size: [4000, 3000], box: { width: 2001, height: 1 }, factor: 1 },
    { name: '512x512 in 256x256', size: [512, 512], box: { width: 256, height: 256 }, factor: 2 },
    { name: '512x512 in 257x256', size: [512, 512], box: { width: 257, height: 256 }, factor: 1 },
    { name: '17x9 in no box', size: [17, 9], box: undefined, factor: 1 },
  ])('$name: $factor', ({ size, box, factor }) => {
    expect(wholeReduction(size[0]!, size[1]!, box)).toBe(factor);
  });
});

describe('a still lossy WebP decoded smaller: the full decode averaged down, within the rounding', () => {
  // Every committed VP8 fixture (odd sizes, every filter, partitions, segments) at several factors.
  const cases = vp8FixtureNames()
    .filter((name) => name !== 'chelsea-1x1.webp')
    .flatMap((name) => [2, 3, 4, 7, 16].map((factor) => ({ name, factor })));

  it.each(cases)('$name / $factor: every value within 3, the mean difference under 0.5', ({ name, factor }) => {
    const bytes = vp8File(name);
    const full = decodeImage(bytes, { colour: 'keep' });
    const { width, height } = full;
    if (Math.floor(width / factor) < 1 || Math.floor(height / factor) < 1) return;
    const reduced = decodeImage(bytes, { colour: 'keep', frames: 'first', maxSize: boxFor(width, height, factor) });
    const f = wholeReduction(width, height, boxFor(width, height, factor));
    expect([reduced.width, reduced.height]).toEqual([Math.ceil(width / f), Math.ceil(height / f)]);
    expect([reduced.sourceWidth, reduced.sourceHeight]).toEqual([width, height]);
    const ref = averagedDown(full.frames[0]!.raster.data, width, height, f);
    const d = differences(reduced.frames[0]!.raster.data, ref.data);
    expect(d.max).toBeLessThanOrEqual(3);
    expect(d.mean).toBeLessThan(0.5);
  });

  it('a picture not twice the box, or no box, is decoded at full size, as dwebp decodes it', () => {
    const bytes = vp8File('chelsea-q75.webp');
    const full = decodeImage(bytes);
    const near = decodeImage(bytes, { maxSize: { width: full.width - 1, height: full.height - 1 } });
    expect(Buffer.from(near.frames[0]!.raster.data).equals(Buffer.from(full.frames[0]!.raster.data))).toBe(true);
    expect(near.width).toBe(full.width);
  });

  it.skipIf(!hasTools)(
    'with alpha (cwebp of a photo with a soft alpha ramp): partly transparent blocks exact, alpha averaged',
    () => {
      const photo = decodeImage(new Uint8Array(readFileSync(join(IMAGES, 'chelsea.png'))), { colour: 'keep' });
      const { width, height } = photo;
      const data = Uint8Array.from(photo.frames[0]!.raster.data);
      // Left third transparent, middle third a ramp, right third opaque.
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++)
          data[(y * width + x) * 4 + 3] = Math.max(0, Math.min(255, Math.round(((x - width / 3) * 255 * 3) / width)));
      const png = join(temp, 'alpha.png');
      const webp = join(temp, 'alpha.webp');
      writeFileSync(png, encodePng({ width, height, data }));
      execFileSync('cwebp', ['-quiet', '-q', '80', '-exact', png, '-o', webp]);
      const bytes = new Uint8Array(readFileSync(webp));
      const full = decodeImage(bytes, { colour: 'keep' }).frames[0]!.raster;
      for (const factor of [2, 5, 16]) {
        const reduced = decodeImage(bytes, { colour: 'keep', maxSize: boxFor(width, height, factor) });
        const ref = averagedDown(full.data, width, height, factor);
        const ours = reduced.frames[0]!.raster.data;
        expect(ours.length).toBe(ref.data.length);
        for (let i = 0; i < ours.length; i += 4) {
          const a = ref.data[i + 3]!;
          expect(ours[i + 3]).toBe(a);
          // A block that is partly transparent is converted pixel by pixel: exactly the reference.
          if (a !== 255) expect([...ours.subarray(i, i + 4)]).toEqual([...ref.data.subarray(i, i + 4)]);
        }
        expect(differences(ours, ref.data).mean).toBeLessThan(0.5);
      }
    },
  );

  it('the box is turned for a picture its EXIF orientation turns a quarter', async () => {
    const { riff, chunk, vp8x } = await import('./support/webp-files.js');
    const { tiffWithOrientation } = await import('./jpeg-helpers.js');
    const payload = vp8Payload(vp8File('coffee-q95.webp'));
    expect(readVp8Size(payload)).toEqual({ width: 256, height: 192 });
    const turned = riff([vp8x(0x08, 256, 192), chunk('VP8 ', payload), chunk('EXIF', tiffWithOrientation(6))]);
    // Drawn upright it is 192x256: a 48x64 box is a factor of 4 of the stored 256x192 (unturned, 3).
    const image = decodeImage(turned, { maxSize: { width: 48, height: 64 } });
    expect([image.sourceWidth, image.sourceHeight, image.width, image.height]).toEqual([256, 192, 48, 64]);
    const asStored = decodeImage(turned, { maxSize: { width: 48, height: 64 }, orientation: 'ignore' });
    expect([asStored.width, asStored.height]).toEqual([86, 64]);
  });
});

describe('reducedYuvToRgba on arbitrary planes (properties)', () => {
  /** Planes of a `width` x `height` frame, macroblock-aligned as the decoder makes them. */
  const planesOf = (width: number, height: number, y: number[], u: number[], v: number[]) => {
    const yStride = Math.ceil(width / 16) * 16;
    const uvStride = yStride / 2;
    const rows = Math.ceil(height / 16) * 16;
    const fill = (n: number, values: number[]) => Uint8Array.from({ length: n }, (_, i) => values[i % values.length]!);
    return {
      y: fill(yStride * rows, y),
      u: fill(uvStride * (rows / 2), u),
      v: fill(uvStride * (rows / 2), v),
      yStride,
      uvStride,
    };
  };
  const frame = (lo: number, hi: number, uvLo: number, uvHi: number) =>
    fc.record({
      width: fc.integer({ min: 1, max: 48 }),
      height: fc.integer({ min: 1, max: 48 }),
      factor: fc.integer({ min: 2, max: 9 }),
      y: fc.array(fc.integer({ min: lo, max: hi }), { minLength: 1, maxLength: 97 }),
      u: fc.array(fc.integer({ min: uvLo, max: uvHi }), { minLength: 1, maxLength: 89 }),
      v: fc.array(fc.integer({ min: uvLo, max: uvHi }), { minLength: 1, maxLength: 83 }),
    });

  it.each([
    { name: 'where no pixel clips (luma 60..180, chroma 104..152)', lo: 60, hi: 180, uvLo: 104, uvHi: 152 },
    { name: 'whatever the planes', lo: 0, hi: 255, uvLo: 0, uvHi: 255 },
  ])('$name: each value within 3 of the full conversion averaged down', ({ lo, hi, uvLo, uvHi }) => {
    fc.assert(
      fc.property(frame(lo, hi, uvLo, uvHi), ({ width, height, factor, y, u, v }) => {
        const planes = planesOf(width, height, y, u, v);
        const ref = averagedDown(yuvToRgba(planes, width, height), width, height, factor);
        const ours = reducedYuvToRgba(planes, width, height, factor);
        expect([ours.width, ours.height]).toEqual([ref.width, ref.height]);
        expect(differences(ours.data, ref.data).max).toBeLessThanOrEqual(3);
      }),
      { numRuns: 300 },
    );
  });

  it('whatever the planes, each value lies within 2 of the range of its block’s fully converted pixels', () => {
    fc.assert(
      fc.property(frame(0, 255, 0, 255), ({ width, height, factor, y, u, v }) => {
        const planes = planesOf(width, height, y, u, v);
        const full = yuvToRgba(planes, width, height);
        const ours = reducedYuvToRgba(planes, width, height, factor);
        for (let oy = 0; oy < ours.height; oy++)
          for (let ox = 0; ox < ours.width; ox++)
            for (let c = 0; c < 3; c++) {
              let lo = 255;
              let hi = 0;
              for (let yy = oy * factor; yy < Math.min(height, oy * factor + factor); yy++)
                for (let xx = ox * factor; xx < Math.min(width, ox * factor + factor); xx++) {
                  const p = full[(yy * width + xx) * 4 + c]!;
                  lo = Math.min(lo, p);
                  hi = Math.max(hi, p);
                }
              const value = ours.data[(oy * ours.width + ox) * 4 + c]!;
              expect(value).toBeGreaterThanOrEqual(lo - 2);
              expect(value).toBeLessThanOrEqual(hi + 2);
            }
      }),
      { numRuns: 200 },
    );
  });

  it('with an alpha plane: alpha averaged; partly transparent blocks exactly the alpha-weighted average; none 0,0,0,0', () => {
    fc.assert(
      fc.property(
        frame(0, 255, 0, 255),
        fc.array(fc.constantFrom(0, 255, 1, 128, 254), { minLength: 1, maxLength: 61 }),
        ({ width, height, factor, y, u, v }, alphas) => {
          const planes = planesOf(width, height, y, u, v);
          const alpha = Uint8Array.from({ length: width * height }, (_, i) => alphas[i % alphas.length]!);
          const full = yuvToRgba(planes, width, height);
          for (let i = 0; i < alpha.length; i++) full[i * 4 + 3] = alpha[i]!;
          const ref = averagedDown(full, width, height, factor);
          const ours = reducedYuvToRgba(planes, width, height, factor, alpha);
          for (let i = 0; i < ours.data.length; i += 4) {
            expect(ours.data[i + 3]).toBe(ref.data[i + 3]);
            if (ref.data[i + 3] !== 255)
              expect([...ours.data.subarray(i, i + 4)]).toEqual([...ref.data.subarray(i, i + 4)]);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("an animated WebP with frames: 'first' touches its first frame only", () => {
  /** A 40-frame lossy animation made by img2webp from PNG frames (a photo shifted each frame). */
  function animation(): Uint8Array {
    const photo = decodeImage(new Uint8Array(readFileSync(join(IMAGES, 'coffee.png'))), { colour: 'keep' });
    const { width, height } = photo;
    const src = photo.frames[0]!.raster.data;
    const names: string[] = [];
    for (let n = 0; n < 40; n++) {
      const data = new Uint8Array(width * height * 4);
      for (let i = 0; i < width * height; i++) {
        const from = ((i + n * 7) % (width * height)) * 4;
        data.set(src.subarray(from, from + 3), i * 4);
        data[i * 4 + 3] = 255;
      }
      const name = join(temp, `frame-${n}.png`);
      writeFileSync(name, encodePng({ width, height, data }));
      names.push(name);
    }
    const out = join(temp, 'many.webp');
    execFileSync('img2webp', ['-lossy', '-q', '60', '-d', '50', ...names, '-o', out]);
    return new Uint8Array(readFileSync(out));
  }

  /** The byte offsets of each ANMF chunk's body in a file. */
  function frameOffsets(file: Uint8Array): number[] {
    const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
    const offsets: number[] = [];
    for (let p = 12; p + 8 <= file.length; ) {
      const size = view.getUint32(p + 4, true);
      if (String.fromCharCode(...file.subarray(p, p + 4)) === 'ANMF') offsets.push(p + 8);
      p += 8 + size + (size & 1);
    }
    return offsets;
  }

  it.skipIf(!hasTools)('a corrupt or cut later frame changes nothing of frame 1; frames: all sees it', () => {
    const file = animation();
    const offsets = frameOffsets(file);
    expect(offsets.length).toBe(40);
    const all = decodeWebp(file, { frames: 'all' });
    expect(all.frames.length).toBe(40);
    const first = decodeWebp(file, { frames: 'first' });
    expect(first.frames.length).toBe(1);
    expect(first.frameCount).toBe(40);
    expect(Buffer.from(first.frames[0]!.raster.data).equals(Buffer.from(all.frames[0]!.raster.data))).toBe(true);

    // Frame 5's VP8 data overwritten (its chunk headers kept): the animation ends before it.
    const corrupt = Uint8Array.from(file);
    const body = offsets[4]!;
    // Its VP8 chunk (after an ALPH chunk, when there is one): the data after the frame header overwritten.
    let at = body + 16;
    const view = new DataView(file.buffer, file.byteOffset);
    while (String.fromCharCode(...file.subarray(at, at + 4)) !== 'VP8 ') at += 8 + view.getUint32(at + 4, true);
    corrupt.fill(0xff, at + 8 + 10, at + 8 + view.getUint32(at + 4, true));
    expect(decodeWebp(corrupt, { frames: 'all' }).frames.length).toBe(4);
    expect(
      Buffer.from(decodeWebp(corrupt, { frames: 'first' }).frames[0]!.raster.data).equals(
        Buffer.from(first.frames[0]!.raster.data),
      ),
    ).toBe(true);

    // Frame 5 is outside the canvas: frames: 'all' refuses the file; frame 1 alone never reads it.
    const outside = Uint8Array.from(file);
    outside[body] = 0xff; // x offset, in twos
    expect(() => decodeWebp(outside, { frames: 'all' })).toThrow(DecodeError);
    expect(decodeWebp(outside, { frames: 'first' }).frames.length).toBe(1);

    // Drawn smaller, frame 1 (lossy, the whole canvas) is converted smaller as a still picture is.
    const small = decodeImage(file, { frames: 'first', colour: 'keep', maxSize: { width: 150, height: 100 } });
    expect([small.width, small.height, small.sourceWidth, small.sourceHeight, small.frameCount]).toEqual([
      150, 100, 600, 400, 40,
    ]);
    const ref = averagedDown(all.frames[0]!.raster.data, 600, 400, 4);
    expect(differences(small.frames[0]!.raster.data, ref.data).max).toBeLessThanOrEqual(3);
    // Every frame asked for: all at full size.
    const every = decodeImage(file, { frames: 'all', maxSize: { width: 150, height: 100 } });
    expect([every.width, every.frames.length]).toEqual([600, 40]);

    // Cut inside frame 20 (a partly downloaded file, RIFF size fixed up): frame 1 is still shown.
    const cut = Uint8Array.from(file.subarray(0, offsets[19]! + 100));
    new DataView(cut.buffer).setUint32(4, file.length - 8, true);
    expect(() => decodeWebp(cut, { frames: 'all' })).toThrow(/truncated/);
    const partial = decodeWebp(cut.subarray(0), { frames: 'first' });
    expect(Buffer.from(partial.frames[0]!.raster.data).equals(Buffer.from(first.frames[0]!.raster.data))).toBe(true);
    expect(() => decodeImage(cut.subarray(0, offsets[0]! + 100), { frames: 'first' })).toThrow(/truncated/);
  });
});
