/**
 * Scans whose data runs out at a marker: the rest of the segment is left as it is (libjpeg's
 * rule), so an empty scan costs one MCU, not a walk over every block decoding zero bits.
 */
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { jpegEmptyRefinements } from './support/hostile-files.js';

/** The RGBA pixels of a 64x64 decode outside its first 8x8 block. */
const pixels = (bytes: Uint8Array) => {
  const data = decodeImage(bytes).frames[0]?.raster.data ?? new Uint8Array(0);
  const rows = Array.from({ length: 64 }, (_, y) => data.subarray(y * 256 + (y < 8 ? 32 : 0), (y + 1) * 256));
  return Buffer.concat(rows);
};

describe('empty scans', () => {
  it.each([
    { name: 'DC refinement', kind: 'dc' as const },
    { name: 'AC refinement', kind: 'ac' as const },
    { name: 'AC first', kind: 'acFirst' as const },
  ])('$name scans with no data change no pixel', ({ kind }) => {
    const plain = pixels(jpegEmptyRefinements(kind, 64, 0));
    // Decoded from zero bits, an AC refinement's all-zero code (run 0, size 1) would place a -1
    // in every block; left as they are (all but the block where the data ran out, which is
    // decoded from zero bits as libjpeg does), the pixels are those of the file without the scans.
    expect(pixels(jpegEmptyRefinements(kind, 64, 1)).equals(plain)).toBe(true);
    expect(pixels(jpegEmptyRefinements(kind, 64)).equals(plain)).toBe(true);
  });

  it('the generators make what they say: 5000x5000 in about 146 KB', () => {
    for (const kind of ['dc', 'ac'] as const) {
      expect(jpegEmptyRefinements(kind).length).toBeGreaterThan(146_000);
      expect(jpegEmptyRefinements(kind).length).toBeLessThan(151_000);
    }
  });
});
