/** A PNG's eXIf orientation is applied as a JPEG's is (the same TIFF parser, the same transform). */
import { describe, expect, it } from 'vitest';
import { crc32 } from '../../src/core/crc32.js';
import { type Orientation, orient } from '../../src/core/orientation.js';
import type { Raster } from '../../src/core/raster.js';
import { decodeImage } from '../../src/decode/index.js';
import { encodePng } from '../../src/render/pixels/png.js';

/** A little-endian TIFF block whose IFD0 holds only the orientation tag. */
function tiff(orientation: number): Uint8Array {
  const b = new Uint8Array(26);
  const v = new DataView(b.buffer);
  b.set([0x49, 0x49, 0x2a, 0x00]); // II*\0
  v.setUint32(4, 8, true); // IFD0 at 8
  v.setUint16(8, 1, true); // one entry
  v.setUint16(10, 0x0112, true); // Orientation
  v.setUint16(12, 3, true); // SHORT
  v.setUint32(14, 1, true); // count 1
  v.setUint16(18, orientation, true);
  v.setUint32(22, 0, true); // no next IFD
  return b;
}

/** `png` with an eXIf chunk inserted right after IHDR. */
function withExif(png: Uint8Array, body: Uint8Array): Uint8Array {
  const ihdrEnd = 8 + 12 + 13;
  const chunk = new Uint8Array(12 + body.length);
  const v = new DataView(chunk.buffer);
  v.setUint32(0, body.length);
  chunk.set(new TextEncoder().encode('eXIf'), 4);
  chunk.set(body, 8);
  v.setUint32(8 + body.length, crc32(chunk.subarray(4, 8 + body.length)));
  const out = new Uint8Array(png.length + chunk.length);
  out.set(png.subarray(0, ihdrEnd));
  out.set(chunk, ihdrEnd);
  out.set(png.subarray(ihdrEnd), ihdrEnd + chunk.length);
  return out;
}

// 3x2, every pixel its own colour, so any turn or mirror moves some pixel.
const SOURCE: Raster = {
  width: 3,
  height: 2,
  data: Uint8Array.from({ length: 24 }, (_, i) => (i % 4 === 3 ? 255 : (i * 37) & 255)),
};

describe('PNG eXIf orientation', () => {
  it.each(
    ([1, 2, 3, 4, 5, 6, 7, 8] as const).map((orientation) => ({ name: `orientation ${orientation}`, orientation })),
  )('$name: upright by default, as stored with ignore', ({ orientation }: { orientation: Orientation }) => {
    const file = withExif(encodePng(SOURCE), tiff(orientation));
    const upright = decodeImage(file);
    const want = orient(SOURCE, orientation);
    expect(upright.orientation).toBe(orientation);
    expect([upright.width, upright.height]).toEqual([want.width, want.height]);
    expect(upright.frames[0]?.raster.data).toEqual(want.data);
    expect([upright.sourceWidth, upright.sourceHeight]).toEqual([3, 2]);
    const stored = decodeImage(file, { orientation: 'ignore' });
    expect(stored.frames[0]?.raster.data).toEqual(SOURCE.data);
  });
  it('a PNG without eXIf is orientation 1', () => {
    expect(decodeImage(encodePng(SOURCE)).orientation).toBe(1);
  });
});
