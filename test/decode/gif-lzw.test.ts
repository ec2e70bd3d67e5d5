/**
 * termsight's GIF LZW decoder on hand-packed code streams (every outcome it has: pixels, the
 * KwKwK case, code widening, clears, end without an end code, short and overlong data, codes past
 * the table, bad minimum code sizes) and on real encoder output and random bytes (fast-check).
 */
import fc from 'fast-check';
import omggif from 'omggif';
import { describe, expect, it } from 'vitest';
import { readGifLayout } from '../../src/decode/gif.js';
import { decodeGifLzw } from '../../src/decode/gif-lzw.js';

/** A frame's LZW data: the minimum code size, then `[code, bits]` packed LSB first, in sub-blocks of `blockSize`. */
function stream(minCodeSize: number, codes: readonly (readonly [number, number])[], blockSize = 255): Uint8Array {
  const data: number[] = [];
  let bits = 0;
  let count = 0;
  for (const [code, width] of codes) {
    bits |= code << count;
    count += width;
    while (count >= 8) {
      data.push(bits & 255);
      bits >>>= 8;
      count -= 8;
    }
  }
  if (count > 0) data.push(bits & 255);
  const out = [minCodeSize];
  for (let i = 0; i < data.length; i += blockSize) {
    const block = data.slice(i, i + blockSize);
    out.push(block.length, ...block);
  }
  return Uint8Array.from([...out, 0]);
}

const PAST = (code: number, next: number) => `LZW code ${code} past the table (next free ${next})`;
const SHORT = 'the image data is shorter than its size';
const LONG = 'the image data does not match its size';

// Minimum code size 2: clear 4, end 5, first free slot 6, 3-bit codes until the table reaches 8.
describe('decodeGifLzw on hand-packed streams', () => {
  it.each([
    {
      name: 'two pixels',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [5, 3],
      ],
      pixels: 2,
      out: [1, 2],
    },
    {
      name: 'the same in 1-byte sub-blocks',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [5, 3],
      ],
      block: 1,
      pixels: 2,
      out: [1, 2],
    },
    {
      name: 'KwKwK: the next free slot is the last string plus its first pixel',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [6, 3],
        [5, 3],
      ],
      pixels: 3,
      out: [1, 1, 1],
    },
    // After 1 2 6 the table holds 6 and 7: the end code is read with 4 bits.
    {
      name: 'an entry, then codes widen to 4 bits',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [6, 3],
        [7, 4],
        [5, 4],
      ],
      pixels: 6,
      out: [1, 2, 1, 2, 2, 1],
    },
    {
      name: 'minimum code size 1 (2 colours)',
      min: 1,
      codes: [
        [2, 2],
        [1, 2],
        [0, 2],
        [4, 3],
        [3, 3],
      ],
      pixels: 4,
      out: [1, 0, 1, 0],
    },
    {
      name: 'minimum code size 8',
      min: 8,
      codes: [
        [256, 9],
        [200, 9],
        [7, 9],
        [258, 9],
        [257, 9],
      ],
      pixels: 4,
      out: [200, 7, 200, 7],
    },
    {
      name: 'no end code, the data ends on a byte with every pixel given',
      min: 3,
      codes: [
        [8, 4],
        [1, 4],
      ],
      pixels: 1,
      out: [1],
    },
    {
      name: 'no clear code first',
      min: 2,
      codes: [
        [3, 3],
        [5, 3],
      ],
      pixels: 1,
      out: [3],
    },
    {
      name: 'short: two pixels of four',
      min: 2,
      codes: [
        [4, 3],
        [0, 3],
        [0, 3],
        [5, 3],
      ],
      pixels: 4,
      reason: SHORT,
    },
    {
      name: 'short: only a clear and an end',
      min: 2,
      codes: [
        [4, 3],
        [5, 3],
      ],
      pixels: 1,
      reason: SHORT,
    },
    {
      name: 'overlong: two pixels for one',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [5, 3],
      ],
      pixels: 1,
      reason: LONG,
    },
    {
      name: 'overlong: an entry reaching past the end',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [6, 3],
        [5, 4],
      ],
      pixels: 3,
      reason: LONG,
    },
    {
      name: 'a code past the next free slot',
      min: 2,
      codes: [
        [4, 3],
        [0, 3],
        [7, 3],
        [5, 3],
      ],
      pixels: 4,
      reason: PAST(7, 6),
    },
    {
      name: 'the next free slot right after a clear (no string before it)',
      min: 2,
      codes: [
        [4, 3],
        [6, 3],
      ],
      pixels: 4,
      reason: PAST(6, 6),
    },
    {
      name: 'a clear mid-stream empties the table',
      min: 2,
      codes: [
        [4, 3],
        [1, 3],
        [2, 3],
        [4, 3],
        [6, 3],
      ],
      pixels: 4,
      reason: PAST(6, 6),
    },
    { name: 'minimum code size 0', min: 0, codes: [[1, 1]], pixels: 1, reason: 'LZW minimum code size 0' },
    { name: 'minimum code size 9', min: 9, codes: [[512, 10]], pixels: 1, reason: 'LZW minimum code size 9' },
    { name: 'minimum code size 12', min: 12, codes: [[0, 8]], pixels: 1, reason: 'LZW minimum code size 12' },
  ] as const)('$name', (row) => {
    const output = new Uint8Array(row.pixels);
    const result = decodeGifLzw(stream(row.min, row.codes, 'block' in row ? row.block : 255), 0, output);
    if ('reason' in row) expect(result).toEqual({ ok: false, reason: row.reason });
    else {
      expect(result).toEqual({ ok: true });
      expect(Array.from(output)).toEqual(row.out);
    }
  });

  it('starts at the given offset', () => {
    const bytes = Uint8Array.from([
      9,
      9,
      9,
      ...stream(2, [
        [4, 3],
        [2, 3],
        [5, 3],
      ]),
    ]);
    const output = new Uint8Array(1);
    expect(decodeGifLzw(bytes, 3, output)).toEqual({ ok: true });
    expect(output[0]).toBe(2);
  });
});

describe('decodeGifLzw on real and random streams', () => {
  it("gives back exactly the indices omggif's encoder packed, up to full tables", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 120 }),
        fc.integer({ min: 1, max: 120 }),
        fc.constantFrom(2, 4, 16, 256),
        fc.integer({ min: 0, max: 3 }),
        fc.integer(),
        (width, height, colours, runs, seed) => {
          let s = seed >>> 0;
          const pixels = Array.from({ length: width * height }, (_, i) => {
            s = (Math.imul(s, 1103515245) + 12345) >>> 0;
            return runs > 0 && i % (runs + 2) !== 0 ? 0 : (s >>> 16) % colours;
          });
          const buffer = new Uint8Array(width * height * 2 + 4096);
          const writer = new omggif.GifWriter(buffer, width, height, {
            palette: Array.from({ length: colours }, (_, i) => i),
          });
          writer.addFrame(0, 0, width, height, pixels);
          const bytes = buffer.slice(0, writer.end());
          const [frame] = readGifLayout(bytes).frames;
          const output = new Uint8Array(width * height);
          expect(decodeGifLzw(bytes, frame!.dataOffset, output)).toEqual({ ok: true });
          expect(Buffer.from(output).equals(Buffer.from(pixels))).toBe(true);
        },
      ),
      { numRuns: 120, seed: 12 },
    );
  });

  it('returns (never throws, never loops) on any bytes, and ok only with every pixel given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 13 }),
        fc.array(fc.uint8Array({ minLength: 1, maxLength: 255 }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3000 }),
        (min, blocks, pixels) => {
          const bytes = Uint8Array.from([min, ...blocks.flatMap((b) => [b.length, ...b]), 0]);
          const output = new Uint8Array(pixels).fill(255);
          const result = decodeGifLzw(bytes, 0, output);
          if (min < 1 || min > 8) expect(result.ok).toBe(false);
          // An ok stream wrote every pixel: none is left at a value no code of this size makes.
          if (result.ok && min < 8) expect(output.every((v) => v < 1 << min)).toBe(true);
        },
      ),
      { numRuns: 400, seed: 5 },
    );
  });
});
