import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { TRANSPARENT } from '../../src/render/pixels/quantize.js';
import {
  clampColors,
  encodeSixel,
  encodeSixelBytes,
  MAX_SIXEL_WIDTH,
  writeSixel,
} from '../../src/render/pixels/sixel.js';

const ESC = '\x1b';
type Rgba = readonly [number, number, number, number];
const R: Rgba = [255, 0, 0, 255];
const G: Rgba = [0, 255, 0, 255];
const B: Rgba = [0, 0, 255, 255];
const W: Rgba = [255, 255, 255, 255];
const H: Rgba = [128, 64, 1, 255]; // 50%, 25%, 0%
const T: Rgba = [9, 9, 9, 0]; // transparent

/** A raster from rows of pixels. */
function raster(rows: Rgba[][]): Raster {
  const height = rows.length;
  const width = rows[0].length;
  const data = new Uint8Array(width * height * 4);
  for (const [y, row] of rows.entries()) {
    for (const [x, px] of row.entries()) data.set(px, (y * width + x) * 4);
  }
  return { width, height, data };
}
const column = (px: Rgba[]): Rgba[][] => px.map((p) => [p]);
const repeat = (p: Rgba, n: number): Rgba[] => Array.from({ length: n }, () => p);

describe('encodeSixel exact sequences', () => {
  it.each<{ name: string; input: Raster; expected: string }>([
    { name: '1x1', input: raster([[R]]), expected: `${ESC}P0;0;0q"1;1;1;1#0;2;100;0;0#0@${ESC}\\` },
    { name: 'percent levels', input: raster([[H]]), expected: `${ESC}P0;0;0q"1;1;1;1#0;2;50;25;0#0@${ESC}\\` },
    {
      name: '2x6: one colour a column, side by side in one pass',
      input: raster(repeat(R, 6).map((r) => [r, B])),
      expected: `${ESC}P0;0;0q"1;1;2;6#0;2;100;0;0#1;2;0;0;100#0~#1~${ESC}\\`,
    },
    {
      name: '1x7 across two bands, colour kept over -',
      input: raster(column([...repeat(G, 6), G])),
      expected: `${ESC}P0;0;0q"1;1;1;7#0;2;0;100;0#0~-@${ESC}\\`,
    },
    {
      name: '1x7, a second colour in the second band',
      input: raster(column([...repeat(G, 6), R])),
      expected: `${ESC}P0;0;0q"1;1;1;7#0;2;0;100;0#1;2;100;0;0#0~-#1@${ESC}\\`,
    },
    {
      name: 'row of 10 repeats uses !',
      input: raster([repeat(W, 10)]),
      expected: `${ESC}P0;0;0q"1;1;10;1#0;2;100;100;100#0!10@${ESC}\\`,
    },
    {
      name: '3 repeats stay literal',
      input: raster([repeat(W, 3)]),
      expected: `${ESC}P0;0;0q"1;1;3;1#0;2;100;100;100#0@@@${ESC}\\`,
    },
    {
      name: '4 repeats use !',
      input: raster([repeat(W, 4)]),
      expected: `${ESC}P0;0;0q"1;1;4;1#0;2;100;100;100#0!4@${ESC}\\`,
    },
    {
      name: 'stacked rows form one sixel',
      input: raster([
        [W, R],
        [W, R],
        [W, W],
      ]),
      expected: `${ESC}P0;0;0q"1;1;2;3#0;2;100;100;100#1;2;100;0;0#0FC$#1?B${ESC}\\`,
    },
    {
      name: 'leading gap of 4 is !4?, P2=1',
      input: raster([[T, T, T, T, R]]),
      expected: `${ESC}P0;1;0q"1;1;5;1#0;2;100;0;0#0!4?@${ESC}\\`,
    },
    {
      name: 'short gap is literal',
      input: raster([[T, T, R, T]]),
      expected: `${ESC}P0;1;0q"1;1;4;1#0;2;100;0;0#0??@${ESC}\\`,
    },
    {
      name: 'inner gap',
      input: raster([[R, T, T, T, T, T, R]]),
      expected: `${ESC}P0;1;0q"1;1;7;1#0;2;100;0;0#0@!5?@${ESC}\\`,
    },
    {
      name: 'all transparent: no colours',
      input: raster([
        [T, T],
        [T, T],
      ]),
      expected: `${ESC}P0;1;0q"1;1;2;2${ESC}\\`,
    },
    {
      name: 'colour absent from a band is not selected there',
      input: raster(column([...repeat(R, 6), ...repeat(B, 6)])),
      expected: `${ESC}P0;0;0q"1;1;1;12#0;2;100;0;0#1;2;0;0;100#0~-#1~${ESC}\\`,
    },
  ])('$name', ({ input, expected }) => {
    expect(encodeSixel(input)).toBe(expected);
  });
});

describe('writeSixel', () => {
  it.each<{ name: string; indices: number[]; rgb: number[]; body: string }>([
    {
      name: 'registers renumbered to the colours used',
      indices: [2, 2],
      rgb: [0, 0, 0, 255, 255, 255, 255, 0, 0],
      body: '#0;2;100;0;0#0@@',
    },
    {
      name: 'transparent index leaves pixels unpainted',
      indices: [TRANSPARENT, 1],
      rgb: [0, 0, 0, 0, 0, 255],
      body: '#0;2;0;0;100#0?@',
    },
  ])('$name', ({ indices, rgb, body }) => {
    const bytes = writeSixel({
      width: indices.length,
      height: 1,
      indices: Uint16Array.from(indices),
      palette: { size: rgb.length / 3, rgb: Uint8Array.from(rgb) },
    });
    const text = new TextDecoder().decode(bytes);
    expect(text.slice(text.indexOf(`;${indices.length};1`) + `;${indices.length};1`.length, -2)).toBe(body);
  });

  it.each<{ name: string; call: () => unknown }>([
    {
      name: 'index beyond the palette',
      call: () =>
        writeSixel({ width: 1, height: 1, indices: Uint16Array.of(3), palette: { size: 1, rgb: new Uint8Array(3) } }),
    },
    {
      name: 'indices of the wrong length',
      call: () =>
        writeSixel({ width: 2, height: 1, indices: Uint16Array.of(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
    },
    {
      name: 'zero width',
      call: () =>
        writeSixel({ width: 0, height: 1, indices: new Uint16Array(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
    },
    {
      name: 'a width beyond MAX_SIXEL_WIDTH',
      call: () =>
        encodeSixel({ width: MAX_SIXEL_WIDTH + 1, height: 1, data: new Uint8Array((MAX_SIXEL_WIDTH + 1) * 4) }),
    },
  ])('rejects $name', ({ call }) => {
    expect(call).toThrow(RangeError);
  });
});

describe('run lengths and sizes in decimal', () => {
  // Around each digit count and the divisions by multiplication (exact below 179 and 1000).
  it.each(
    [4, 9, 10, 11, 99, 100, 101, 178, 179, 180, 255, 256, 999, 1000, 1001, 9999, 10_000, 12_345, 65_535].map((n) => ({
      name: `a row of ${n}`,
      n,
    })),
  )('$name', ({ n }) => {
    const sequence = encodeSixel(raster([repeat(W, n)]));
    expect(sequence).toBe(`${ESC}P0;0;0q"1;1;${n};1#0;2;100;100;100#0!${n}@${ESC}\\`);
  });
});

describe('clampColors', () => {
  it.each<{ name: string; input: number | undefined; expected: number }>([
    { name: 'undefined -> 256', input: undefined, expected: 256 },
    { name: 'Number.NaN -> 256', input: Number.NaN, expected: 256 },
    { name: 'Infinity -> 256', input: Infinity, expected: 256 },
    { name: '1 -> 2', input: 1, expected: 2 },
    { name: '0 -> 2', input: 0, expected: 2 },
    { name: '-5 -> 2', input: -5, expected: 2 },
    { name: '16 -> 16', input: 16, expected: 16 },
    { name: '16.9 -> 16', input: 16.9, expected: 16 },
    { name: '256 -> 256', input: 256, expected: 256 },
    { name: '1024 -> 256', input: 1024, expected: 256 },
  ])('$name', ({ input, expected }) => {
    expect(clampColors(input)).toBe(expected);
  });
});

describe('encodeSixel input checks', () => {
  it('zero width throws a RangeError', () => {
    expect(() => encodeSixel({ width: 0, height: 1, data: new Uint8Array(0) })).toThrow(RangeError);
  });

  it.each<{ name: string; input: unknown }>([
    { name: 'short data', input: { width: 2, height: 2, data: new Uint8Array(4) } },
    { name: 'not bytes', input: { width: 1, height: 1, data: [1, 2, 3, 4] } },
  ])('$name throws a TypeError', ({ input }) => {
    expect(() => encodeSixel(input as Raster)).toThrow(TypeError);
  });

  it('the widest accepted image encodes', () => {
    const data = new Uint8Array(MAX_SIXEL_WIDTH * 4).fill(255);
    expect(encodeSixel({ width: MAX_SIXEL_WIDTH, height: 1, data })).toBe(
      `${ESC}P0;0;0q"1;1;${MAX_SIXEL_WIDTH};1#0;2;100;100;100#0!${MAX_SIXEL_WIDTH}@${ESC}\\`,
    );
  });

  it('bytes and string forms agree', () => {
    const input = raster([[R, G, B, W, T]]);
    expect(new TextDecoder().decode(encodeSixelBytes(input))).toBe(encodeSixel(input));
  });
});
