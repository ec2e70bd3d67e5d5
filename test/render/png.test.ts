import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodePng, type PngFilter } from '../../src/render/pixels/png.js';
import { pngToRaster, randomRaster, solid } from './terminal-decoders.js';

function gradient(width: number, height: number, alpha = 255) {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      data.set(
        [(x * 255) / Math.max(1, width - 1), (y * 255) / Math.max(1, height - 1), (x + y) & 255, alpha],
        (y * width + x) * 4,
      );
    }
  return { width, height, data };
}

describe('encodePng round-trips exactly through fast-png', () => {
  it.each([
    { name: '1x1 opaque', raster: solid(1, 1, [12, 34, 56, 255]), channels: 3 },
    { name: '1x1 transparent', raster: solid(1, 1, [12, 34, 56, 0]), channels: 4 },
    { name: 'odd opaque gradient', raster: gradient(37, 19), channels: 3 },
    { name: 'odd translucent gradient', raster: gradient(19, 37, 200), channels: 4 },
    { name: 'wide strip', raster: gradient(1000, 1), channels: 3 },
    { name: 'tall strip', raster: gradient(1, 500), channels: 3 },
    { name: 'random RGBA', raster: randomRaster(33, 17, 5), channels: 4 },
    { name: 'random opaque', raster: randomRaster(64, 65, 9, true), channels: 3 },
    { name: 'large opaque gradient (band sampling)', raster: gradient(400, 300), channels: 3 },
    { name: 'large random RGBA (band sampling)', raster: randomRaster(300, 200, 11), channels: 4 },
  ])('$name', ({ raster, channels }) => {
    const decoded = pngToRaster(encodePng(raster));
    expect(decoded.channels).toBe(channels);
    expect(decoded.width).toBe(raster.width);
    expect(decoded.height).toBe(raster.height);
    expect(Buffer.from(decoded.data).equals(Buffer.from(raster.data))).toBe(true);
  });

  it.each<{ name: string; filter: PngFilter }>([
    { name: 'filter 0 (None)', filter: 0 },
    { name: 'filter 1 (Sub)', filter: 1 },
    { name: 'filter 2 (Up)', filter: 2 },
    { name: 'filter 3 (Average)', filter: 3 },
    { name: 'filter 4 (Paeth)', filter: 4 },
  ])('with every row filtered by $name', ({ filter }) => {
    for (const raster of [gradient(23, 11, 255), randomRaster(17, 9, filter + 1), gradient(5, 1, 100)]) {
      const decoded = pngToRaster(encodePng(raster, { filter }));
      expect(Buffer.from(decoded.data).equals(Buffer.from(raster.data))).toBe(true);
    }
  });

  it('keeps alpha when asked even if opaque', () => {
    expect(pngToRaster(encodePng(solid(3, 3, [1, 2, 3, 255]), { keepAlpha: true })).channels).toBe(4);
  });

  it('starts with the PNG signature and an IHDR of the right size', () => {
    const png = encodePng(solid(300, 2, [0, 0, 0, 255]));
    expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const view = new DataView(png.buffer, png.byteOffset);
    expect(view.getUint32(16)).toBe(300);
    expect(view.getUint32(20)).toBe(2);
    expect(new TextDecoder().decode(png.subarray(png.length - 8, png.length - 4))).toBe('IEND');
  });

  it('random rasters of random sizes round-trip exactly', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer(),
        fc.boolean(),
        (w, h, seed, opaque) => {
          const raster = randomRaster(w, h, seed, opaque);
          const decoded = pngToRaster(encodePng(raster));
          expect(Buffer.from(decoded.data).equals(Buffer.from(raster.data))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('rejects an invalid raster', () => {
    expect(() => encodePng({ width: 0, height: 1, data: new Uint8Array(0) })).toThrow(RangeError);
    expect(() => encodePng({ width: 1, height: 1, data: new Uint8Array(3) })).toThrow(TypeError);
  });
});
