import { deflateSync, constants as zlib } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeKitty,
  KITTY_CHUNK_BYTES,
  kittyChunks,
  kittyDelete,
  kittyImageId,
  kittyPayload,
  kittyPlace,
  kittySequences,
  kittyStore,
} from '../../src/render/pixels/kitty.js';
import { decodeKittyTransmission, parseKittyApcs, randomRaster, solid } from './terminal-decoders.js';

/** xorshift32 bytes: no period a compressor could find. */
function bytes(seed: number) {
  let s = seed;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s & 255;
  };
}

/** Fine grain around one colour (4 random bits a channel): string matches find little, Huffman codes most. */
function grain(width: number, height: number) {
  const next = bytes(7);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4)
    data.set([100 + (next() & 15), 60 + (next() & 15), 30 + (next() & 15), 255], i);
  return { width, height, data };
}

/** Repeating stripes with 2 bits of noise: string matches win, Huffman coding alone does not. */
function stripes(width: number, height: number) {
  const next = bytes(7);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) {
    const x = i % width,
      y = Math.floor(i / width);
    const v = ((x >> 3) * 37 + (y >> 2) * 11 + (next() & 3)) & 255;
    data.set([v, (v * 3) & 255, (x ^ y) & 255, 255], i * 4);
  }
  return { width, height, data };
}

const rgbOf = (data: Uint8Array) =>
  Uint8Array.from({ length: (data.length / 4) * 3 }, (_, i) => data[Math.floor(i / 3) * 4 + (i % 3)]);

function gradient(width: number, height: number) {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([i % width, (i / width) & 255, 7, 255], i * 4);
  return { width, height, data };
}

describe('encodeKitty (a=T) decodes back to the same pixels', () => {
  it.each([
    { name: '1x1 opaque', raster: solid(1, 1, [200, 100, 50, 255]), format: 24 },
    { name: '1x1 transparent', raster: solid(1, 1, [200, 100, 50, 0]), format: 32 },
    { name: 'opaque gradient (compressible, several chunks)', raster: gradient(300, 200), format: 24 },
    { name: 'noise RGBA (incompressible, many chunks)', raster: randomRaster(90, 70, 3), format: 32 },
    { name: 'noise opaque', raster: randomRaster(40, 41, 4, true), format: 24 },
    { name: 'flat colour', raster: solid(500, 300, [1, 2, 3, 255]), format: 24 },
  ])('$name', ({ raster, format }) => {
    const apcs = parseKittyApcs(encodeKitty(raster, { imageId: 77 }));
    const d = decodeKittyTransmission(apcs);
    expect(d.format).toBe(format);
    expect(d.keys.get('a')).toBe('T');
    expect(d.keys.get('i')).toBe('77');
    expect(d.raster.width).toBe(raster.width);
    expect(d.raster.height).toBe(raster.height);
    expect(Buffer.from(d.raster.data).equals(Buffer.from(raster.data))).toBe(true);
  });

  it('compresses only when it makes the payload smaller', () => {
    const flat = kittyPayload(solid(100, 100, [9, 9, 9, 255]));
    expect(flat.compressed).toBe(true);
    expect(flat.bytes.length).toBeLessThan(100 * 100 * 3);
    const noise = kittyPayload(randomRaster(100, 100, 1, true));
    expect(noise.compressed).toBe(false);
    expect(noise.bytes.length).toBe(100 * 100 * 3);
    expect(kittyPayload(solid(10, 10, [9, 9, 9, 255]), false).compressed).toBe(false);
    expect(kittyPayload(randomRaster(10, 10, 1), true).compressed).toBe(true);
  });

  it.each([
    // Matching would save ~5% here: Huffman coding alone, at half level 1's time.
    { name: 'fine grain', raster: grain(200, 150), strategy: zlib.Z_HUFFMAN_ONLY },
    // Matching saves ~10%: level 1 with its string matches.
    { name: 'noisy stripes', raster: stripes(200, 150), strategy: zlib.Z_DEFAULT_STRATEGY },
  ])('auto picks Huffman coding alone only where string matches win little: $name', ({ raster, strategy }) => {
    const payload = kittyPayload(raster);
    const expected = deflateSync(rgbOf(raster.data), { level: 1, memLevel: 9, strategy });
    expect(payload.compressed).toBe(true);
    expect(Buffer.from(payload.bytes).equals(expected)).toBe(true);
    const d = decodeKittyTransmission(parseKittyApcs(encodeKitty(raster, { imageId: 3 })));
    expect(Buffer.from(d.raster.data).equals(Buffer.from(raster.data))).toBe(true);
  });

  it('random rasters round-trip exactly (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 70 }),
        fc.integer({ min: 1, max: 70 }),
        fc.integer(),
        fc.boolean(),
        fc.constantFrom<boolean | 'auto'>(true, false, 'auto'),
        (w, h, seed, opaque, compress) => {
          const raster = randomRaster(w, h, seed, opaque);
          const d = decodeKittyTransmission(parseKittyApcs(encodeKitty(raster, { imageId: 1, compress })));
          expect(Buffer.from(d.raster.data).equals(Buffer.from(raster.data))).toBe(true);
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('exact sequences', () => {
  it('a 1x1 red pixel', () => {
    expect(encodeKitty(solid(1, 1, [255, 0, 0, 255]), { imageId: 5, compress: false })).toBe(
      '\x1b_Ga=T,f=24,s=1,v=1,i=5,q=2;/wAA\x1b\\',
    );
  });
  it('with cells, cursor kept and a placement id', () => {
    expect(
      encodeKitty(solid(1, 1, [0, 0, 0, 0]), {
        imageId: 9,
        compress: false,
        columns: 2,
        rows: 1,
        keepCursor: true,
        placementId: 3,
      }),
    ).toBe('\x1b_Ga=T,f=32,s=1,v=1,i=9,p=3,c=2,r=1,C=1,q=2;AAAAAA==\x1b\\');
  });
  it.each([
    { name: 'kittyPlace(42)', got: kittyPlace(42), want: '\x1b_Ga=p,i=42,q=2\x1b\\' },
    {
      name: 'kittyPlace(42, { placementId: 1, columns: 3, rows: 2, keepCursor: true })',
      got: kittyPlace(42, { placementId: 1, columns: 3, rows: 2, keepCursor: true }),
      want: '\x1b_Ga=p,i=42,p=1,c=3,r=2,C=1,q=2\x1b\\',
    },
    { name: 'kittyDelete(42)', got: kittyDelete(42), want: '\x1b_Ga=d,d=I,i=42,q=2\x1b\\' },
  ])('$name', ({ got, want }) => {
    expect(got).toBe(want);
  });
  it('store is a=t without placement keys', () => {
    const apcs = parseKittyApcs(kittyStore(solid(2, 2, [1, 2, 3, 255]), { imageId: 8, columns: 4, keepCursor: true }));
    expect(apcs[0].keys.get('a')).toBe('t');
    expect(apcs[0].keys.has('c')).toBe(false);
    expect(apcs[0].keys.has('C')).toBe(false);
    expect(decodeKittyTransmission(apcs).raster.data[0]).toBe(1);
  });
});

describe('kittyChunks', () => {
  it.each([
    { name: '0 base64 bytes -> 1 chunk', n: 0, count: 1 },
    { name: '4 base64 bytes -> 1 chunk', n: 4, count: 1 },
    { name: '4096 base64 bytes -> 1 chunk', n: 4096, count: 1 },
    { name: '4100 base64 bytes -> 2 chunks', n: 4100, count: 2 },
    { name: '8192 base64 bytes -> 2 chunks', n: 8192, count: 2 },
    { name: '8196 base64 bytes -> 3 chunks', n: 8196, count: 3 },
    { name: '20000 base64 bytes -> 5 chunks', n: 20000, count: 5 },
  ])('$name, all but the last exactly 4096', ({ n, count }) => {
    const b64 = 'A'.repeat(n);
    const apcs = parseKittyApcs(kittyChunks('a=T,f=24,s=1,v=1,i=1,q=2', b64).join(''));
    expect(apcs).toHaveLength(count);
    for (const a of apcs.slice(0, -1)) expect(a.payload.length).toBe(KITTY_CHUNK_BYTES);
    expect(apcs.map((a) => a.payload).join('')).toBe(b64);
    if (count > 1) {
      expect(apcs.map((a) => a.keys.get('m'))).toEqual([...Array(count - 1).fill('1'), '0']);
      for (const a of apcs.slice(1)) expect(a.keyOrder).toEqual(['m', 'q']);
    } else {
      expect(apcs[0].keys.has('m')).toBe(false);
    }
  });
});

describe('ids', () => {
  it('random ids are 24-bit and non-zero', () => {
    for (let i = 0; i < 200; i++) {
      const id = kittyImageId();
      expect(id).toBeGreaterThan(0);
      expect(id).toBeLessThan(0x1000000);
    }
  });
  it('each call without an id picks a new one', () => {
    const ids = new Set(
      Array.from({ length: 20 }, () => parseKittyApcs(kittySequences(solid(1, 1, [0, 0, 0, 255]))[0])[0].keys.get('i')),
    );
    expect(ids.size).toBeGreaterThan(15);
  });
  it.each([
    { name: 'rejects id 0', id: 0 },
    { name: 'rejects id -1', id: -1 },
    { name: 'rejects id 1.5', id: 1.5 },
    { name: 'rejects id 2 ** 32', id: 2 ** 32 },
  ])('$name', ({ id }) => {
    expect(() => encodeKitty(solid(1, 1, [0, 0, 0, 255]), { imageId: id })).toThrow(RangeError);
    expect(() => kittyDelete(id)).toThrow(RangeError);
  });
});
