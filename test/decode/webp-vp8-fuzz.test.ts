/**
 * Fuzzing the VP8 decoder: random bytes, random bytes behind a valid frame header, byte edits of
 * the committed fixtures (header fields, first partition, token partitions) and cuts. Every
 * outcome is a picture of the declared size or one DecodeError with a one-line message; each
 * decode stays within the small limits given, so none can take long or allocate much. Runs per
 * property: 200, or TERMSIGHT_FUZZ_RUNS.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/decode/error.js';
import { decodeVp8 } from '../../src/decode/webp-vp8.js';
import { vp8File, vp8Payload } from './vp8-helpers.js';

const RUNS = Number(process.env.TERMSIGHT_FUZZ_RUNS) > 0 ? Number(process.env.TERMSIGHT_FUZZ_RUNS) : 200;
const LIMITS = { maxPixels: 300_000, maxSide: 2048 };

function checkOutcome(bytes: Uint8Array): 'ok' | string {
  try {
    const image = decodeVp8(bytes, LIMITS);
    expect(image.data.length).toBe(image.width * image.height * 4);
    expect(image.width * image.height).toBeLessThanOrEqual(LIMITS.maxPixels);
    return 'ok';
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    expect(error.message).not.toMatch(/[\n\r\x1b]/);
    expect(error.message.length).toBeGreaterThan(0);
    expect(['truncated', 'corrupt', 'too-large']).toContain(error.failure);
    return error.failure;
  }
}

const seeds = ['chelsea-17x9.webp', 'coffee-33x47.webp', 'chelsea-q100-m0.webp', 'vpx-camera-partitions2-low.webp'].map(
  (name) => vp8Payload(vp8File(name)),
);

/** Byte edits: [position as a fraction of the file, new value]. */
const edits = fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
  minLength: 1,
  maxLength: 8,
});

describe('decodeVp8 fuzzed: a picture or one DecodeError', () => {
  it('random bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        checkOutcome(bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('random bytes behind a valid key frame header of a random size', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 600 }),
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 0, max: 2000 }),
        fc.uint8Array({ minLength: 1, maxLength: 2000 }),
        (width, height, first, rest) => {
          const tag = (first << 5) | (1 << 4);
          const head = [tag & 255, (tag >> 8) & 255, (tag >> 16) & 255, 0x9d, 0x01, 0x2a, width & 255, width >> 8];
          checkOutcome(Uint8Array.of(...head, height & 255, height >> 8, ...rest));
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('byte edits of real frames', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: seeds.length - 1 }), edits, (which, changes) => {
        const bytes = (seeds[which] as Uint8Array).slice();
        for (const [at, value] of changes) bytes[Math.floor(at * (bytes.length - 1))] = value;
        checkOutcome(bytes);
      }),
      { numRuns: RUNS },
    );
  });

  it('byte edits in the first 40 bytes (frame tag, sizes, frame header)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: seeds.length - 1 }),
        fc.array(fc.tuple(fc.integer({ min: 0, max: 39 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (which, changes) => {
          const bytes = (seeds[which] as Uint8Array).slice();
          for (const [at, value] of changes) if (at < bytes.length) bytes[at] = value;
          checkOutcome(bytes);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('every cut of a small frame: truncated or decoded, never anything else', () => {
    const frame = seeds[1] as Uint8Array;
    const seen = new Set<string>();
    for (let cut = 0; cut < frame.length; cut++) seen.add(checkOutcome(frame.subarray(0, cut)));
    expect(seen.has('truncated')).toBe(true);
    expect(seen.has('corrupt')).toBe(false);
  });
});
