import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { gifCorpus, jpegCorpus, pngCorpus } from './corpus.js';

const seeds = [pngCorpus()[0]!, pngCorpus()[5]!, pngCorpus()[12]!, jpegCorpus()[1]!, gifCorpus()[0]!, gifCorpus()[1]!];

/** Decoding either gives well-formed frames or throws a one-line DecodeError; nothing else. */
function checkOutcome(bytes: Uint8Array): void {
  try {
    const image = decodeImage(bytes, { limits: { maxPixels: 1_000_000, maxSide: 4000 } });
    expect(image.frames.length).toBeGreaterThan(0);
    for (const frame of image.frames) {
      expect(frame.raster.data.length).toBe(image.width * image.height * 4);
    }
  } catch (error) {
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).message).not.toMatch(/[\n\r\x1b]/);
  }
}

describe('decodeImage on damaged bytes', () => {
  it.each(seeds)('$name: random byte changes never escape as another error or a log line', ({ bytes: original }) => {
    const log = vi.spyOn(console, 'log');
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 6,
        }),
        (changes) => {
          const bytes = original.slice();
          for (const [at, value] of changes) bytes[at] = value;
          checkOutcome(bytes);
        },
      ),
      { numRuns: 150, seed: 4242 },
    );
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });

  it('random bytes after each magic number are refused or decoded, never crash', () => {
    const magics = [[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0xff, 0xd8, 0xff], [...Buffer.from('GIF89a')]];
    fc.assert(
      fc.property(fc.constantFrom(...magics), fc.uint8Array({ maxLength: 200 }), (magic, tail) => {
        checkOutcome(Uint8Array.from([...magic, ...tail]));
      }),
      { numRuns: 300, seed: 7 },
    );
  });
});
