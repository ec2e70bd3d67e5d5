/**
 * WebP against libwebp: the lossless files and the alpha planes bit for bit against dwebp (run
 * here when it is installed, and always against the SHA-256 of its output recorded in
 * test/fixtures/images/webp/reference.json), the animations frame for frame against libwebp's own
 * WebPAnimDecoder (test/decode/support/webp-anim-reference.c, compiled here when gcc and
 * libwebpdemux are installed; its hashes recorded the same way). Then the container's rules and
 * the failures, on files built by support/webp-files.ts. Lossy (VP8) pixels: webp-lossy.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { orient } from '../../src/core/orientation.js';
import { DecodeError, decodeImage, readImageHeader } from '../../src/decode/index.js';
import { decodeWebp } from '../../src/decode/webp.js';
import { decodeAlpha } from '../../src/decode/webp-alpha.js';
import { readWebpLayout } from '../../src/decode/webp-riff.js';
import { tiffWithOrientation } from './jpeg-helpers.js';
import { anim, anmf, chunk, losslessWebp, riff, vp8l, vp8x } from './support/webp-files.js';
import { animReference } from './support/webp-reference.js';

const DIR = new URL('../fixtures/images/webp/', import.meta.url).pathname;
interface StillReference {
  width: number;
  height: number;
  sha256: string;
  alphaSha256?: string;
}
interface AnimReference {
  width: number;
  height: number;
  loopCount: number;
  frames: { durationMs: number; sha256: string }[];
}
const reference: Record<string, StillReference & AnimReference> = JSON.parse(
  readFileSync(join(DIR, 'reference.json'), 'utf8'),
);
const files = readdirSync(DIR).filter((f) => f.endsWith('.webp'));
const lossless = files.filter((f) => f.startsWith('lossless-') || f === 'near-lossless.webp');
const withAlpha = files.filter((f) => f.startsWith('lossy-alpha-'));
// Animations whose frames are all lossless (the lossy one is in webp-lossy.test.ts).
const animations = files.filter((f) => f.startsWith('anim-') && !f.includes('lossy'));

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const read = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));
const hasDwebp = spawnSync('dwebp', ['-version']).status === 0;

/** dwebp's RGBA of a file (the PAM without its header). */
function dwebpRgba(path: string): Uint8Array {
  const out = execFileSync('dwebp', ['-quiet', '-pam', path, '-o', '-'], { maxBuffer: 1 << 28 });
  return new Uint8Array(out.subarray(out.indexOf('ENDHDR\n') + 7));
}

describe('lossless (VP8L): exact', () => {
  it.each(lossless.map((name) => ({ name })))('$name: the SHA-256 of dwebp’s pixels', ({ name }) => {
    const image = decodeImage(read(name), { orientation: 'ignore' });
    const ref = reference[name]!;
    expect([image.width, image.height]).toEqual([ref.width, ref.height]);
    expect(sha(image.frames[0]!.raster.data)).toBe(ref.sha256);
  });

  it.skipIf(!hasDwebp).each(lossless.map((name) => ({ name })))('$name: dwebp’s pixels, run now', ({ name }) => {
    const ours = decodeImage(read(name), { orientation: 'ignore' }).frames[0]!.raster.data;
    expect(Buffer.from(ours).equals(Buffer.from(dwebpRgba(join(DIR, name))))).toBe(true);
  });
});

describe('ALPH: the alpha plane exact (raw and lossless, each filter, pre-processed)', () => {
  it.each(withAlpha.map((name) => ({ name })))('$name', ({ name }) => {
    const layout = readWebpLayout(read(name));
    const still = layout.still!;
    expect(still.alpha).toBeDefined();
    const plane = decodeAlpha(still.alpha!, layout.width, layout.height);
    expect(sha(plane)).toBe(reference[name]!.alphaSha256);
    if (hasDwebp) {
      const rgba = dwebpRgba(join(DIR, name));
      expect(Buffer.from(plane).equals(Buffer.from(rgba.filter((_, i) => i % 4 === 3)))).toBe(true);
    }
  });

  it('the files cover every filter and both compressions', () => {
    const headers = new Set(
      withAlpha.map((n) => {
        const b = readWebpLayout(read(n)).still!.alpha![0]!;
        return `c${b & 3}f${(b >> 2) & 3}`;
      }),
    );
    for (const h of ['c0f0', 'c0f1', 'c0f2', 'c0f3', 'c1f0', 'c1f1', 'c1f3']) expect(headers).toContain(h);
  });
});

const libwebpAnim = animReference(afterAll);

describe('animation (ANIM/ANMF): frames composited as libwebp’s WebPAnimDecoder', () => {
  it.each(animations.map((name) => ({ name })))(
    '$name: the SHA-256 of each of libwebp’s frames, durations, loop count',
    ({ name }) => {
      const ref = reference[name]!;
      const image = decodeImage(read(name), { frames: 'all' });
      expect([image.width, image.height, image.frameCount]).toEqual([ref.width, ref.height, ref.frames.length]);
      expect(image.frames.map((f) => sha(f.raster.data))).toEqual(ref.frames.map((f) => f.sha256));
      // Durations as stored, with the browsers' rule for 10 ms or less (100 ms), as for GIF and APNG.
      expect(image.frames.map((f) => f.delayMs)).toEqual(
        ref.frames.map((f) => (f.durationMs <= 10 ? 100 : f.durationMs)),
      );
      if (ref.frames.length > 1) expect(image.plays).toBe(ref.loopCount);
    },
  );

  it.skipIf(!libwebpAnim).each(animations.map((name) => ({ name })))('$name: libwebp’s frames, run now', ({ name }) => {
    const theirs = libwebpAnim!(join(DIR, name));
    const ours = decodeImage(read(name), { frames: 'all' });
    expect(ours.frames.length).toBe(theirs.frames.length);
    for (const [i, f] of ours.frames.entries())
      expect(Buffer.from(f.raster.data).equals(Buffer.from(theirs.frames[i]!))).toBe(true);
  });

  it('the hand-placed animations hold every combination of blend and dispose, and offsets', () => {
    const kinds = new Set<string>();
    for (const name of ['anim-mux-1.webp', 'anim-mux-2.webp']) {
      for (const f of readWebpLayout(read(name)).animation!.frames) {
        kinds.add(`${f.blend ? 'blend' : 'replace'}-${f.disposeToBackground ? 'dispose' : 'keep'}`);
        if (f.x > 0) kinds.add('offset');
      }
    }
    expect([...kinds].sort()).toEqual(['blend-dispose', 'blend-keep', 'offset', 'replace-dispose', 'replace-keep']);
  });

  it("frames: 'first' decodes the first frame only and counts the others", () => {
    const image = decodeImage(read('anim-mux-1.webp'), { frames: 'first' });
    expect(image.frames.length).toBe(1);
    expect(image.frameCount).toBe(7);
    expect(sha(image.frames[0]!.raster.data)).toBe(reference['anim-mux-1.webp']!.frames[0]!.sha256);
  });

  it.each([
    // 40x30 canvas: 1200 pixels a frame, counted at the floor of 4096 (frame-budget.ts).
    { name: 'pixels for three frames at the floor keep 3', limits: { maxAnimationPixels: 3 * 4096 }, kept: 3 },
    { name: 'pixels for less than two frames keep 1', limits: { maxAnimationPixels: 2 * 4096 - 1 }, kept: 1 },
    { name: 'a frame count of 2 keeps 2', limits: { maxAnimationFrames: 2 }, kept: 2 },
  ])('the animation budget: $name', ({ limits, kept }) => {
    const image = decodeImage(read('anim-mux-1.webp'), { limits });
    expect([image.frames.length, image.frameCount]).toEqual([kept, 7]);
  });

  it('a frame after the first that cannot be decoded ends the animation there; a first one is an error', () => {
    const good = vp8l(2, 2, 0xff00ff00);
    const bad = vp8l(2, 2, 0xff00ff00, { version: 1 });
    const frame = { x: 0, y: 0, width: 2, height: 2, durationMs: 40 };
    const file = (second: Uint8Array) =>
      riff([
        vp8x(0x02, 2, 2),
        anim(0),
        anmf(frame, chunk('VP8L', good)),
        anmf(frame, chunk('VP8L', second)),
        anmf(frame, chunk('VP8L', good)),
      ]);
    expect(decodeImage(file(bad)).frames.length).toBe(1);
    expect(decodeImage(file(good)).frames.length).toBe(3);
    const first = riff([vp8x(0x02, 2, 2), anim(0), anmf(frame, chunk('VP8L', bad))]);
    expect(() => decodeImage(first)).toThrow(/corrupt WebP: VP8L version 1/);
  });

  it('the ANIM background colour is not painted (libwebp’s anim_decode starts transparent)', () => {
    const file = riff([
      vp8x(0x12, 4, 4),
      anim(0, 0xffff0000),
      anmf({ x: 2, y: 2, width: 2, height: 2, durationMs: 50 }, chunk('VP8L', vp8l(2, 2, 0xff0000ff))),
    ]);
    const px = decodeImage(file).frames[0]!.raster.data;
    expect([...px.subarray(0, 4)]).toEqual([0, 0, 0, 0]);
    expect([...px.subarray((2 * 4 + 2) * 4, (2 * 4 + 2) * 4 + 4)]).toEqual([0, 0, 255, 255]);
  });
});

describe('the container (RIFF, VP8X)', () => {
  const red = 0xffff0000;

  it('the simple format: one VP8L chunk', () => {
    const image = decodeImage(losslessWebp(3, 2, red));
    expect([image.format, image.width, image.height, image.frameCount]).toEqual(['webp', 3, 2, 1]);
    expect([...image.frames[0]!.raster.data.subarray(0, 4)]).toEqual([255, 0, 0, 255]);
  });

  it('unknown chunks are stepped over, odd sizes padded, bytes after the RIFF ignored', () => {
    const file = riff([
      vp8x(0, 3, 2),
      chunk('ZZZZ', Uint8Array.of(1, 2, 3)),
      chunk('VP8L', vp8l(3, 2, red)),
      chunk('XMP ', Uint8Array.of(9)),
    ]);
    const trailing = Uint8Array.from([...file, 0xde, 0xad]);
    expect(decodeImage(trailing).frames[0]!.raster.data[0]).toBe(255);
  });

  it('EXIF orientation is applied (and reported); ignore keeps the stored picture', () => {
    const file = riff([vp8x(0x08, 2, 1), chunk('VP8L', vp8l(2, 1, red)), chunk('EXIF', tiffWithOrientation(6, 'II'))]);
    const upright = decodeImage(file);
    expect([upright.width, upright.height, upright.orientation]).toEqual([1, 2, 6]);
    const stored = decodeImage(file, { orientation: 'ignore' });
    expect([stored.width, stored.height]).toEqual([2, 1]);
    expect(upright.frames[0]!.raster).toEqual(orient(stored.frames[0]!.raster, 6));
    // Some writers keep JPEG's `Exif\0\0` before the TIFF block.
    const prefixed = riff([
      vp8x(0x08, 2, 1),
      chunk('VP8L', vp8l(2, 1, red)),
      chunk('EXIF', Uint8Array.from([...Buffer.from('Exif\0\0', 'latin1'), ...tiffWithOrientation(8, 'MM')])),
    ]);
    expect(decodeImage(prefixed).orientation).toBe(8);
  });

  it('EXIF orientation turns every frame of a real picture', () => {
    const bytes = read('lossless-palette-12.webp');
    const plain = decodeImage(bytes).frames[0]!.raster;
    const vp8lBody = readWebpLayout(bytes).still!.image;
    const file = riff([
      vp8x(0x08, plain.width, plain.height),
      chunk('VP8L', vp8lBody),
      chunk('EXIF', tiffWithOrientation(3)),
    ]);
    expect(decodeImage(file).frames[0]!.raster).toEqual(orient(plain, 3));
  });

  it('the ICC profile is handed back as its bytes', () => {
    const profile = Uint8Array.from({ length: 37 }, (_, i) => i * 7);
    const file = riff([vp8x(0x20, 3, 2), chunk('ICCP', profile), chunk('VP8L', vp8l(3, 2, red))]);
    expect([...(decodeWebp(file).colour?.icc ?? [])]).toEqual([...profile]);
    expect(decodeWebp(losslessWebp(3, 2, red)).colour).toBeUndefined();
  });

  it('the header gives the size before any pixel: VP8L, VP8X, VP8', () => {
    expect(readImageHeader(losslessWebp(300, 200, red), 'webp')).toEqual({ format: 'webp', width: 300, height: 200 });
    expect(readImageHeader(riff([vp8x(0, 16384, 9000)]), 'webp')).toEqual({
      format: 'webp',
      width: 16384,
      height: 9000,
    });
    expect(readImageHeader(read('lossy.webp'), 'webp')).toEqual({ format: 'webp', width: 120, height: 80 });
  });
});

describe('broken WebPs: one DecodeError of the right kind, never unknown-format', () => {
  const red = 0xffff0000;
  const good = losslessWebp(4, 4, red);
  const frame = { x: 0, y: 0, width: 2, height: 2, durationMs: 40 };
  const rows: { name: string; bytes: Uint8Array; failure: string; message: RegExp }[] = [
    { name: 'cut inside the header', bytes: good.subarray(0, 18), failure: 'truncated', message: /^truncated WebP/ },
    {
      name: 'cut inside the VP8L chunk',
      bytes: good.subarray(0, good.length - 3),
      failure: 'truncated',
      message: /^truncated WebP: the RIFF header declares/,
    },
    {
      name: 'a chunk larger than the RIFF',
      bytes: riff([chunk('VP8L', vp8l(4, 4, red), 1000)]),
      failure: 'truncated',
      message: /^truncated WebP: its 'VP8L' chunk declares 1000 bytes/,
    },
    {
      name: 'a first chunk that is no image',
      bytes: riff([chunk('ABCD', Uint8Array.of(0))]),
      failure: 'corrupt',
      message: /^corrupt WebP: the first chunk is not VP8/,
    },
    {
      name: 'VP8X without an image',
      bytes: riff([vp8x(0, 4, 4), chunk('EXIF', Uint8Array.of(0))]),
      failure: 'corrupt',
      message: /no VP8 or VP8L image chunk/,
    },
    {
      name: 'an image of another size than the canvas',
      bytes: riff([vp8x(0, 5, 4), chunk('VP8L', vp8l(4, 4, red))]),
      failure: 'corrupt',
      message: /the image is 4x4, its chunks say 5x4/,
    },
    {
      name: 'a VP8L without its signature',
      bytes: riff([chunk('VP8L', Uint8Array.of(0x2e, 0, 0, 0, 0, 0))]),
      failure: 'corrupt',
      message: /signature/,
    },
    {
      name: 'VP8L version 2',
      bytes: riff([chunk('VP8L', vp8l(4, 4, red, { version: 2 }))]),
      failure: 'corrupt',
      message: /VP8L version 2/,
    },
    {
      name: 'a lossless stream cut short',
      bytes: riff([chunk('VP8L', vp8l(64, 64, red, { greens: [1, 2], pixelBytes: 8 }))]),
      failure: 'truncated',
      message: /^truncated WebP: the lossless data ends early$/,
    },
    {
      name: 'an animation without frames',
      bytes: riff([vp8x(0x02, 4, 4), anim(0)]),
      failure: 'corrupt',
      message: /an animation without frames/,
    },
    {
      name: 'a frame before ANIM',
      bytes: riff([vp8x(0x02, 4, 4), anmf(frame, chunk('VP8L', vp8l(2, 2, red)))]),
      failure: 'corrupt',
      message: /before the ANIM chunk/,
    },
    {
      name: 'a frame outside the canvas',
      bytes: riff([vp8x(0x02, 4, 4), anim(0), anmf({ ...frame, x: 4 }, chunk('VP8L', vp8l(2, 2, red)))]),
      failure: 'corrupt',
      message: /frame 1: 2x2 at 4,0 reaches outside the 4x4 canvas/,
    },
    {
      name: 'a canvas past the limits',
      bytes: riff([vp8x(0, 16_777_216, 16_777_216), chunk('VP8L', vp8l(4, 4, red))]),
      failure: 'too-large',
      message: /^WebP image too large to decode safely: 16777216x16777216/,
    },
    {
      name: 'a lossless image past the limits',
      bytes: losslessWebp(16384, 16384, red),
      failure: 'too-large',
      message: /^WebP image too large/,
    },
    {
      name: 'an ALPH chunk with reserved bits',
      bytes: riff([
        vp8x(0x10, 120, 80),
        chunk('ALPH', Uint8Array.of(0xc0, 0)),
        chunk('VP8 ', readWebpLayout(read('lossy.webp')).still!.image),
      ]),
      failure: 'corrupt',
      message: /an ALPH chunk with header byte 0xc0/,
    },
  ];

  it.each(rows)('$name: $failure', ({ bytes, failure, message }) => {
    let error: unknown;
    try {
      decodeImage(bytes);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).failure).toBe(failure);
    expect((error as DecodeError).message).toMatch(message);
  });

  it('a 16383x3000 solid lossless picture in a few bytes is honest: decoded (the format allows zero-bit pixels)', () => {
    const bytes = losslessWebp(16383, 3000, red);
    expect(bytes.length).toBeLessThan(64);
    const image = decodeImage(bytes, { frames: 'first' });
    expect([image.width, image.height]).toEqual([16383, 3000]);
  });
});
