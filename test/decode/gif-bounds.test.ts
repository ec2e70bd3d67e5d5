/**
 * The GIF bounds checked before any pixel buffer: the byte-count bound on what LZW data can
 * decode to, the layout that keeps only the frames to be shown, and the outcomes on files that
 * declare more than they hold.
 */
import fc from 'fast-check';
import omggif from 'omggif';
import { describe, expect, it } from 'vitest';
import { decodeGifFrames, gifFrameProblem, readGifLayout } from '../../src/decode/gif.js';
import { decodeGifLzw, lzwPixelBound } from '../../src/decode/gif-lzw.js';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { bytesFrom, gifCorpus } from './corpus.js';
import { gifFramesWithoutData } from './support/hostile-files.js';

describe('lzwPixelBound', () => {
  it.each([
    { name: 'no data', bytes: 0, min: 2, bound: 0 },
    { name: 'one byte of 3-bit codes: 2 codes, 1 + 2 pixels', bytes: 1, min: 2, bound: 3 },
    { name: 'three bytes of 9-bit codes: 2 codes', bytes: 3, min: 8, bound: 3 },
    { name: 'enough codes to fill the table', bytes: 1536, min: 2, bound: (4096 * 4097) / 2 },
    { name: 'one code past a full table adds 4096', bytes: 1536 + 3, min: 2, bound: (4096 * 4097) / 2 + 8 * 4096 },
    { name: 'minimum code size 0 is invalid', bytes: 100, min: 0, bound: 0 },
    { name: 'minimum code size 9 is invalid', bytes: 100, min: 9, bound: 0 },
  ])('$name: $bound', ({ bytes, min, bound }) => {
    expect(lzwPixelBound(bytes, min)).toBe(bound);
  });

  it('is never below what a real encoder packs into the same bytes', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 64 }),
        fc.integer({ min: 1, max: 64 }),
        fc.constantFrom(2, 4, 16, 256),
        fc.integer({ min: 1, max: 1000 }),
        (width, height, colours, seed) => {
          // Runs of one colour compress best, so they come closest to the bound.
          const pixels = bytesFrom(seed, width * height, colours - 1).map((v, i) => (i % 7 < 5 ? 0 : v));
          const buffer = new Uint8Array(width * height * 2 + 4096);
          const palette = Array.from({ length: colours }, (_, i) => i * 0x010101);
          const writer = new omggif.GifWriter(buffer, width, height, { palette });
          writer.addFrame(0, 0, width, height, pixels);
          const bytes = buffer.slice(0, writer.end());
          const [frame] = readGifLayout(bytes).frames;
          if (!frame) throw new Error('no frame');
          const indices = new Uint8Array(width * height);
          expect(decodeGifLzw(bytes, frame.dataOffset, indices)).toEqual({ ok: true });
          expect(Array.from(indices)).toEqual(pixels);
          expect(lzwPixelBound(frame.dataBytes, bytes[frame.dataOffset] as number)).toBeGreaterThanOrEqual(
            width * height,
          );
          expect(gifFrameProblem(bytes, frame)).toBeNull();
        },
      ),
      { numRuns: 150, seed: 21 },
    );
  });
});

describe('readGifLayout keeps only the frames to be shown', () => {
  const animated = gifCorpus()[1]!;
  it.each([
    { name: 'all', max: undefined, kept: 4 },
    { name: 'first', max: 1, kept: 1 },
    { name: 'two', max: 2, kept: 2 },
  ])('$name: $kept kept, 4 counted', ({ max, kept }) => {
    const layout = readGifLayout(animated.bytes, max);
    expect(layout.frames).toHaveLength(kept);
    expect(layout.frameCount).toBe(4);
    // Each frame ends where the next block begins: a descriptor, an extension or the trailer.
    for (const f of layout.frames) expect([0x2c, 0x21, 0x3b]).toContain(animated.bytes[f.end]);
  });
});

describe('GIFs that declare more than they hold', () => {
  it.each([
    { name: 'first frame', which: 'first' as const },
    { name: 'all frames', which: 'all' as const },
  ])('1000 frames of 4000x3000 in 2 bytes each, $name: refused before the canvas', ({ which }) => {
    const bytes = gifFramesWithoutData(4000, 3000, 1000);
    expect(() => decodeGifFrames(bytes, which)).toThrow(
      new DecodeError(
        'corrupt',
        'corrupt GIF: a 4000x3000 frame with 2 bytes of image data, which can hold at most 15 pixels',
      ),
    );
  });

  it('a later frame without enough data ends the animation there, keeping the frames before it', () => {
    const good = gifCorpus()[0]!; // one 9x6 frame
    const trailer = good.bytes.length - 1;
    // Append a 9x6 frame whose data is only clear, one pixel and end.
    const extra = Uint8Array.of(0x2c, 0, 0, 0, 0, 9, 0, 6, 0, 0, 2, 2, 0x44, 0x01, 0);
    const bytes = Uint8Array.from([...good.bytes.subarray(0, trailer), ...extra, 0x3b]);
    const image = decodeImage(bytes);
    expect(image.frameCount).toBe(2);
    expect(image.frames).toHaveLength(1);
    expect(Buffer.from(image.frames[0]!.raster.data).equals(Buffer.from(good.frames[0]!))).toBe(true);
  });

  it("frames: 'first' on a file of many frames counts them all and decodes one", () => {
    const good = gifCorpus()[1]!;
    const decoded = decodeImage(good.bytes, { frames: 'first' });
    expect([decoded.frames.length, decoded.frameCount]).toEqual([1, 4]);
  });
});

describe('indices past the colour table', () => {
  it('are drawn opaque black, never from the bytes after the table', () => {
    // A 2x1 screen, a 2-colour table (red, green), one frame with 3-bit codes clear(4), 1, 3, end(5).
    const lzw = [0x4 | (1 << 3) | (3 << 6), (3 >> 2) | (5 << 1)];
    const bytes = Uint8Array.from([
      ...Buffer.from('GIF89a'),
      ...[2, 0, 1, 0, 0x80, 0, 0],
      ...[255, 0, 0, 0, 255, 0],
      ...[0x2c, 0, 0, 0, 0, 2, 0, 1, 0, 0],
      ...[2, lzw.length, ...lzw, 0],
      0x3b,
    ]);
    expect(Array.from(decodeImage(bytes).frames[0]!.raster.data)).toEqual([0, 255, 0, 255, 0, 0, 0, 255]);
  });
});
