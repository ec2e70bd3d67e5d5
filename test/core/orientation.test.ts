import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isOrientation, type Orientation, orient } from '../../src/core/orientation.js';
import type { Raster } from '../../src/core/raster.js';

/** A 3x2 raster whose pixel at (x, y) has red = x, green = y (so every pixel says where it was stored). */
function stored(w = 3, h = 2): Raster {
  const data = new Uint8Array(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) data.set([x, y, 7, 255], (y * w + x) * 4);
  return { width: w, height: h, data };
}

const at = (r: Raster, x: number, y: number) => [r.data[(y * r.width + x) * 4]!, r.data[(y * r.width + x) * 4 + 1]!];

// Exif 2.32, tag 0x0112: where the stored 0th row and 0th column are seen. Expected corners of the
// upright picture (top-left, top-right, bottom-left) as stored (x, y) positions of a 3x2 picture.
describe('orient: the eight EXIF orientations', () => {
  it.each([
    { name: '1 upright', o: 1, size: [3, 2], tl: [0, 0], tr: [2, 0], bl: [0, 1] },
    { name: '2 mirrored left-right', o: 2, size: [3, 2], tl: [2, 0], tr: [0, 0], bl: [2, 1] },
    { name: '3 rotated 180', o: 3, size: [3, 2], tl: [2, 1], tr: [0, 1], bl: [2, 0] },
    { name: '4 mirrored top-bottom', o: 4, size: [3, 2], tl: [0, 1], tr: [2, 1], bl: [0, 0] },
    {
      name: '5 transposed: row 0 is the left side, column 0 the top',
      o: 5,
      size: [2, 3],
      tl: [0, 0],
      tr: [0, 1],
      bl: [2, 0],
    },
    {
      name: '6 row 0 is the right side, column 0 the top (turn 90° clockwise)',
      o: 6,
      size: [2, 3],
      tl: [0, 1],
      tr: [0, 0],
      bl: [2, 1],
    },
    {
      name: '7 transversed: row 0 is the right side, column 0 the bottom',
      o: 7,
      size: [2, 3],
      tl: [2, 1],
      tr: [2, 0],
      bl: [0, 1],
    },
    {
      name: '8 row 0 is the left side, column 0 the bottom (turn 90° anticlockwise)',
      o: 8,
      size: [2, 3],
      tl: [2, 0],
      tr: [2, 1],
      bl: [0, 0],
    },
  ])('$name', ({ o, size, tl, tr, bl }) => {
    const out = orient(stored(), o as Orientation);
    expect([out.width, out.height]).toEqual(size);
    expect(out.data.length).toBe(out.width * out.height * 4);
    expect(at(out, 0, 0)).toEqual(tl);
    expect(at(out, out.width - 1, 0)).toEqual(tr);
    expect(at(out, 0, out.height - 1)).toEqual(bl);
  });

  it('1 hands back the same raster without a copy', () => {
    const r = stored();
    expect(orient(r, 1)).toBe(r);
  });

  it('a raster whose data is not 4-byte aligned gives the same result', () => {
    const r = stored(5, 3);
    const buffer = new Uint8Array(r.data.length + 1);
    buffer.set(r.data, 1);
    const unaligned = { ...r, data: buffer.subarray(1) };
    for (const o of [2, 3, 4, 5, 6, 7, 8] as const) expect(orient(unaligned, o)).toEqual(orient(r, o));
  });

  // Each orientation undone by its inverse: 6 and 8 undo each other, the rest undo themselves.
  const inverse: Record<Orientation, Orientation> = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 8, 7: 7, 8: 6 };
  it('any raster, oriented and then oriented by the inverse, comes back unchanged', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.constantFrom(1, 2, 3, 4, 5, 6, 7, 8),
        fc.integer(),
        (w, h, o, seed) => {
          const data = new Uint8Array(w * h * 4).map((_, i) => (i * 31 + seed) & 255);
          const r = { width: w, height: h, data };
          expect(orient(orient(r, o as Orientation), inverse[o as Orientation])).toEqual(r);
        },
      ),
      { numRuns: 200, seed: 11 },
    );
  });

  it.each([
    { name: '0', value: 0, want: false },
    { name: '1', value: 1, want: true },
    { name: '8', value: 8, want: true },
    { name: '9', value: 9, want: false },
    { name: '2.5', value: 2.5, want: false },
  ])('isOrientation($name)', ({ value, want }) => expect(isOrientation(value)).toBe(want));
});
