import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { TRANSPARENT } from '../../src/render/quantize.js';
import { clampColors, encodeSixel, encodeSixelBytes, MAX_SIXEL_WIDTH, writeSixel } from '../../src/render/sixel.js';

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
  it.each<[string, Raster, string]>([
    ['1x1', raster([[R]]), `${ESC}P0;0;0q"1;1;1;1#0;2;100;0;0#0@${ESC}\\`],
    ['percent levels', raster([[H]]), `${ESC}P0;0;0q"1;1;1;1#0;2;50;25;0#0@${ESC}\\`],
    [
      '2x6: one colour a column, $ between colours',
      raster(repeat(R, 6).map((r) => [r, B])),
      `${ESC}P0;0;0q"1;1;2;6#0;2;100;0;0#1;2;0;0;100#0~$#1?~${ESC}\\`,
    ],
    [
      '1x7 across two bands, colour kept over -',
      raster(column([...repeat(G, 6), G])),
      `${ESC}P0;0;0q"1;1;1;7#0;2;0;100;0#0~-@${ESC}\\`,
    ],
    [
      '1x7, a second colour in the second band',
      raster(column([...repeat(G, 6), R])),
      `${ESC}P0;0;0q"1;1;1;7#0;2;0;100;0#1;2;100;0;0#0~-#1@${ESC}\\`,
    ],
    ['row of 10 repeats uses !', raster([repeat(W, 10)]), `${ESC}P0;0;0q"1;1;10;1#0;2;100;100;100#0!10@${ESC}\\`],
    ['3 repeats stay literal', raster([repeat(W, 3)]), `${ESC}P0;0;0q"1;1;3;1#0;2;100;100;100#0@@@${ESC}\\`],
    ['4 repeats use !', raster([repeat(W, 4)]), `${ESC}P0;0;0q"1;1;4;1#0;2;100;100;100#0!4@${ESC}\\`],
    [
      'stacked rows form one sixel',
      raster([
        [W, R],
        [W, R],
        [W, W],
      ]),
      `${ESC}P0;0;0q"1;1;2;3#0;2;100;100;100#1;2;100;0;0#0FC$#1?B${ESC}\\`,
    ],
    ['leading gap of 4 is !4?, P2=1', raster([[T, T, T, T, R]]), `${ESC}P0;1;0q"1;1;5;1#0;2;100;0;0#0!4?@${ESC}\\`],
    ['short gap is literal', raster([[T, T, R, T]]), `${ESC}P0;1;0q"1;1;4;1#0;2;100;0;0#0??@${ESC}\\`],
    ['inner gap', raster([[R, T, T, T, T, T, R]]), `${ESC}P0;1;0q"1;1;7;1#0;2;100;0;0#0@!5?@${ESC}\\`],
    [
      'all transparent: no colours',
      raster([
        [T, T],
        [T, T],
      ]),
      `${ESC}P0;1;0q"1;1;2;2${ESC}\\`,
    ],
    [
      'colour absent from a band is not selected there',
      raster(column([...repeat(R, 6), ...repeat(B, 6)])),
      `${ESC}P0;0;0q"1;1;1;12#0;2;100;0;0#1;2;0;0;100#0~-#1~${ESC}\\`,
    ],
  ])('%s', (_name, input, expected) => {
    expect(encodeSixel(input)).toBe(expected);
  });
});

describe('writeSixel', () => {
  it.each<[string, number[], number[], string]>([
    ['registers renumbered to the colours used', [2, 2], [0, 0, 0, 255, 255, 255, 255, 0, 0], '#0;2;100;0;0#0@@'],
    ['transparent index leaves pixels unpainted', [TRANSPARENT, 1], [0, 0, 0, 0, 0, 255], '#0;2;0;0;100#0?@'],
  ])('%s', (_name, indices, rgb, body) => {
    const bytes = writeSixel({
      width: indices.length,
      height: 1,
      indices: Uint16Array.from(indices),
      palette: { size: rgb.length / 3, rgb: Uint8Array.from(rgb) },
    });
    const text = new TextDecoder().decode(bytes);
    expect(text.slice(text.indexOf(`;${indices.length};1`) + `;${indices.length};1`.length, -2)).toBe(body);
  });

  it.each<[string, () => unknown]>([
    [
      'index beyond the palette',
      () =>
        writeSixel({ width: 1, height: 1, indices: Uint16Array.of(3), palette: { size: 1, rgb: new Uint8Array(3) } }),
    ],
    [
      'indices of the wrong length',
      () =>
        writeSixel({ width: 2, height: 1, indices: Uint16Array.of(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
    ],
    [
      'zero width',
      () =>
        writeSixel({ width: 0, height: 1, indices: new Uint16Array(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
    ],
    [
      'a width beyond MAX_SIXEL_WIDTH',
      () => encodeSixel({ width: MAX_SIXEL_WIDTH + 1, height: 1, data: new Uint8Array((MAX_SIXEL_WIDTH + 1) * 4) }),
    ],
  ])('rejects %s', (_name, call) => {
    expect(call).toThrow(RangeError);
  });
});

describe('clampColors', () => {
  it.each<[number | undefined, number]>([
    [undefined, 256],
    [Number.NaN, 256],
    [Infinity, 256],
    [1, 2],
    [0, 2],
    [-5, 2],
    [16, 16],
    [16.9, 16],
    [256, 256],
    [1024, 256],
  ])('%s -> %s', (input, expected) => {
    expect(clampColors(input)).toBe(expected);
  });
});

describe('encodeSixel input checks', () => {
  it('zero width throws a RangeError', () => {
    expect(() => encodeSixel({ width: 0, height: 1, data: new Uint8Array(0) })).toThrow(RangeError);
  });

  it.each<[string, unknown]>([
    ['short data', { width: 2, height: 2, data: new Uint8Array(4) }],
    ['not bytes', { width: 1, height: 1, data: [1, 2, 3, 4] }],
  ])('%s throws a TypeError', (_name, input) => {
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
