/**
 * `registerZero`: the colour register 0 is defined as. tmux 3.5a drawing a sixel itself fills
 * what it adds below a picture (its height read in whole bands, then whole cells of its client)
 * with register 0 (docs/render.md, "No band"), so where the background is known register 0 is the
 * background and that margin cannot be seen. Named rows of registers (parsed from the sequence's
 * colour definitions), and a property: the pixels drawn are the same with it and without it
 * (decoded by the npm `sixel` decoder).
 */
import fc from 'fast-check';
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { draw } from '../../src/render/backend.js';
import { encodeSixel } from '../../src/render/pixels/sixel.js';

type Rgb = readonly [number, number, number];
const RED: Rgb = [255, 0, 0];
const BLUE: Rgb = [0, 0, 255];
const WHITE: Rgb = [255, 255, 255];

/** A raster of vertical stripes, one colour each, opaque. */
function stripes(colours: readonly Rgb[], width = 12, height = 7): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const c = colours[Math.floor((x * colours.length) / width)];
      data.set([c[0], c[1], c[2], 255], (y * width + x) * 4);
    }
  return { width, height, data };
}

/** The colour definitions of a sixel (`#n;2;r;g;b`, percentages), by register. */
function registers(sequence: string): Record<number, string> {
  const out: Record<number, string> = {};
  for (const m of sequence.matchAll(/#(\d+);2;(\d+);(\d+);(\d+)/g)) out[Number(m[1])] = `${m[2]};${m[3]};${m[4]}`;
  return out;
}

/** The registers selected to paint (`#n` not followed by a definition). */
function painted(sequence: string): number[] {
  return [...new Set([...sequence.matchAll(/#(\d+)(?!;2;)/g)].map((m) => Number(m[1])))].sort((a, b) => a - b);
}

function decode(sequence: string): { width: number; height: number; data: Uint8Array } {
  const body = sequence.slice(sequence.indexOf('q') + 1, -2);
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(body);
  return { width: decoder.width, height: decoder.height, data: new Uint8Array(decoder.data8) };
}

describe('registerZero', () => {
  it.each<{
    name: string;
    colours: readonly Rgb[];
    registerZero?: Rgb;
    sixelColors?: number;
    registers: Record<number, string>;
    painted: number[];
  }>([
    {
      name: 'a colour used is it: that colour takes register 0',
      colours: [RED, WHITE],
      registerZero: WHITE,
      registers: { 0: '100;100;100', 1: '100;0;0' },
      painted: [0, 1],
    },
    {
      name: 'equal at sixel levels is equal (254 is 100%)',
      colours: [RED, WHITE],
      registerZero: [254, 254, 254],
      registers: { 0: '100;100;100', 1: '100;0;0' },
      painted: [0, 1],
    },
    {
      name: 'no colour used is it: register 0 defined as it and unused, the colours from 1',
      colours: [RED, BLUE],
      registerZero: WHITE,
      registers: { 0: '100;100;100', 1: '100;0;0', 2: '0;0;100' },
      painted: [1, 2],
    },
    {
      name: 'no register free (2 registers, 2 colours used): palette order, nothing added',
      colours: [RED, BLUE],
      registerZero: WHITE,
      sixelColors: 2,
      registers: { 0: '100;0;0', 1: '0;0;100' },
      painted: [0, 1],
    },
    {
      name: 'not asked: palette order',
      colours: [RED, WHITE],
      registers: { 0: '100;0;0', 1: '100;100;100' },
      painted: [0, 1],
    },
  ])('$name', (row) => {
    const sequence = encodeSixel(stripes(row.colours), {
      ...(row.registerZero ? { registerZero: row.registerZero } : {}),
      ...(row.sixelColors ? { sixelColors: row.sixelColors } : {}),
    });
    expect(registers(sequence)).toEqual(row.registers);
    expect(painted(sequence)).toEqual(row.painted);
  });

  it('draws the same pixels with it and without it', () => {
    const colour = fc.constantFrom<Rgb>(RED, BLUE, WHITE, [0, 0, 0], [18, 52, 86], [200, 120, 40]);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 13 }),
        fc.array(colour, { minLength: 1, maxLength: 117 }),
        colour,
        fc.integer({ min: 2, max: 8 }),
        (width, height, colours, zero, sixelColors) => {
          const data = new Uint8Array(width * height * 4);
          for (let p = 0; p < width * height; p++) data.set([...colours[p % colours.length], 255], p * 4);
          const raster = { width, height, data };
          const plain = decode(encodeSixel(raster, { sixelColors, dither: 'none' }));
          const zeroed = decode(encodeSixel(raster, { sixelColors, dither: 'none', registerZero: zero }));
          expect([zeroed.width, zeroed.height]).toEqual([plain.width, plain.height]);
          expect(zeroed.data).toEqual(plain.data);
        },
      ),
      { numRuns: 200 },
    );
  });

  it("render gives register 0 the background only under tmux's own sixel (wholeCells) with a background", () => {
    const red = stripes([RED], 96, 96);
    const cell = { cellPixels: { width: 8, height: 17 }, columns: 20, rows: 22, sixelTransparency: false } as const;
    const under = draw(red, 'sixel', { ...cell, wholeCells: true, background: WHITE }).sequences[0] as string;
    expect(registers(under)[0]).toBe('100;100;100');
    const direct = draw(red, 'sixel', { ...cell, background: WHITE }).sequences[0] as string;
    expect(registers(direct)).toEqual({ 0: '100;0;0' });
    const unknown = draw(red, 'sixel', { ...cell, wholeCells: true }).sequences[0] as string;
    expect(registers(unknown)[0]).toBe('100;0;0');
  });
});
