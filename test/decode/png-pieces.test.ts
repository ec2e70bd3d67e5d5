/**
 * The image data split over IDAT chunks of any sizes (empty ones, one byte, more than 4 KiB: the
 * small ones are joined into one buffer while the chunks are walked) decodes to the same pixels,
 * and millions of empty chunks cost no object each.
 */

import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { readPngChunks } from '../../src/decode/png-chunks.js';
import { pngChunk, smoothRgba } from './corpus.js';
import { pngManyIdat, pngOf } from './support/hostile-files.js';

const WIDTH = 64;
const HEIGHT = 48;
const rgba = smoothRgba(WIDTH, HEIGHT);
const raw = new Uint8Array(HEIGHT * (WIDTH * 4 + 1));
for (let y = 0; y < HEIGHT; y++) raw.set(rgba.subarray(y * WIDTH * 4, (y + 1) * WIDTH * 4), y * (WIDTH * 4 + 1) + 1);
// Stored, not compressed: the stream is larger than 4 KiB, so cuts give both small and large pieces.
const stream = deflateSync(raw, { level: 0 });

describe('IDAT pieces', () => {
  it('any split of the stream over IDAT chunks decodes to the same pixels', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: stream.length }), { maxLength: 40 }), (cuts) => {
        const at = [0, ...[...cuts].sort((a, b) => a - b), stream.length];
        const chunks = at.slice(1).map((end, i) => pngChunk('IDAT', stream.subarray(at[i] as number, end)));
        const image = decodeImage(pngOf(WIDTH, HEIGHT, chunks));
        expect(Buffer.from(image.frames[0]?.raster.data ?? []).equals(Buffer.from(rgba))).toBe(true);
      }),
      { numRuns: 100 },
    );
  });

  it('a million empty IDAT chunks leave one piece', () => {
    const layout = readPngChunks(pngManyIdat(1_000_000));
    expect(layout.data).toHaveLength(1);
  });
});
