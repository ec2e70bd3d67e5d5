import { describe, expect, it } from 'vitest';
import { brailleDots, brailleLines, BRAILLE_BITS, encodeBraille } from '../../src/render/braille.js';
import type { Raster } from '../../src/render/raster.js';
import { solid } from './terminal-decoders.js';

function pattern(width: number, height: number, on: (x: number, y: number) => boolean, onColor = [255, 255, 255], offColor = [0, 0, 0]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set([...(on(x, y) ? onColor : offColor), 255], (y * width + x) * 4);
  return { width, height, data };
}

/** The braille cell bits the thresholded source implies. */
function expectedBits(r: Raster, on: (x: number, y: number) => boolean): number[] {
  const cols = Math.ceil(r.width / 2), rows = Math.ceil(r.height / 4);
  const out = new Array(cols * rows).fill(0);
  for (let y = 0; y < r.height; y++) for (let x = 0; x < r.width; x++) {
    if (on(x, y)) out[(y >> 2) * cols + (x >> 1)] |= BRAILLE_BITS[(y & 3) * 2 + (x & 1)];
  }
  return out;
}

const PATTERNS: [string, number, number, (x: number, y: number) => boolean][] = [
  ['all white', 8, 8, () => true],
  ['all black', 8, 8, () => false],
  ['1-pixel checker', 16, 16, (x, y) => ((x + y) & 1) === 0],
  ['2-pixel checker', 16, 16, (x, y) => (((x >> 1) + (y >> 1)) & 1) === 0],
  ['vertical stripes', 10, 12, (x) => (x & 1) === 0],
  ['horizontal stripes', 10, 12, (_, y) => (y & 1) === 1],
  ['left half white', 12, 8, (x) => x < 6],
  ['odd size white', 5, 7, () => true],
  ['white disc', 40, 40, (x, y) => (x - 20) ** 2 + (y - 20) ** 2 < 150],
];

describe('brailleDots against the thresholded source', () => {
  it.each(PATTERNS)('%s', (_, w, h, on) => {
    const r = pattern(w, h, on);
    expect(Array.from(brailleDots(r).bits)).toEqual(expectedBits(r, on));
  });

  it('dots the bit layout of U+2800: (x,y) -> 1,8 / 2,16 / 4,32 / 64,128', () => {
    const bitsOf = (x: number, y: number) => brailleDots(pattern(2, 4, (a, b) => a === x && b === y)).bits[0];
    expect([bitsOf(0, 0), bitsOf(1, 0), bitsOf(0, 1), bitsOf(1, 1), bitsOf(0, 2), bitsOf(1, 2), bitsOf(0, 3), bitsOf(1, 3)]).toEqual([1, 8, 2, 16, 4, 32, 64, 128]);
  });

  it('never lights transparent pixels, even white ones', () => {
    expect(Array.from(brailleDots(solid(4, 4, [255, 255, 255, 0])).bits)).toEqual([0, 0]);
    expect(Array.from(brailleDots(solid(4, 4, [255, 255, 255, 127])).bits)).toEqual([0, 0]);
  });

  it.each([
    [32, 0.1], [64, 0.4], [128, 0.5], [192, 0.6], [224, 0.9],
  ])('a flat grey %i lights a share of dots that grows with brightness (about %f)', (grey, approx) => {
    const r = solid(32, 32, [grey, grey, grey, 255]);
    const bits = brailleDots(r).bits;
    let lit = 0;
    for (const b of bits) for (let k = 0; k < 8; k++) lit += (b >> k) & 1;
    const share = lit / (32 * 32);
    expect(Math.abs(share - approx)).toBeLessThan(0.25);
  });

  it('the share of lit dots rises monotonically with grey level', () => {
    let last = -1;
    for (let g = 0; g <= 255; g += 15) {
      const bits = brailleDots(solid(16, 16, [g, g, g, 255])).bits;
      let lit = 0;
      for (const b of bits) for (let k = 0; k < 8; k++) lit += (b >> k) & 1;
      expect(lit).toBeGreaterThanOrEqual(last);
      last = lit;
    }
  });

  it('colours each cell with the average of its lit dots', () => {
    // left column light pink, right column dark blue: only the pink dots clear the threshold
    const r = pattern(2, 4, (x) => x === 0, [255, 200, 200], [0, 0, 80]);
    const { bits, colors } = brailleDots(r);
    expect(bits[0]).toBe(0x07 | 0x40);
    expect(colors[0]).toBe(0xffc8c8);
    // two lit colours average
    const mixed = pattern(2, 4, (_, y) => y < 2, [250, 250, 250], [244, 248, 252]);
    const m = brailleDots(mixed);
    expect(m.bits[0]).toBe(0xff);
    expect(m.colors[0]).toBe((247 << 16) | (249 << 8) | 251);
  });
});

describe('brailleLines', () => {
  it.each([
    ['truecolor', ['\x1b[38;2;255;255;255m\u28ff\u28ff\x1b[0m', '\x1b[38;2;255;255;255m\u28ff\u28ff\x1b[0m']],
    ['256', ['\x1b[38;5;231m\u28ff\u28ff\x1b[0m', '\x1b[38;5;231m\u28ff\u28ff\x1b[0m']],
    ['none', ['\u28ff\u28ff', '\u28ff\u28ff']],
  ] as const)('white 4x8 at %s, exactly', (color, lines) => {
    expect(brailleLines(solid(4, 8, [255, 255, 255, 255]), { color })).toEqual(lines);
  });

  it('writes the colour only when it changes, and nothing for empty cells', () => {
    const r = pattern(8, 4, (x) => x < 2 || x >= 6);
    expect(encodeBraille(r)).toBe('\x1b[38;2;255;255;255m\u28ff\u2800\u2800\u28ff\x1b[0m');
  });

  it('joins lines with newlines', () => {
    expect(encodeBraille(solid(2, 8, [0, 0, 0, 255]), { color: 'none' })).toBe('\u2800\n\u2800');
  });
});
