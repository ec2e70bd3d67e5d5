import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { layout } from '../../src/render/backend.js';
import { resize } from '../../src/render/geometry/resize.js';
import { BRAILLE_BITS, brailleDots, brailleLines, encodeBraille } from '../../src/render/text/braille.js';
import { brailleReferenceDots, brailleReferenceText } from '../../src/render/text/braille-reference.js';
import { randomRaster, solid } from './terminal-decoders.js';

function pattern(
  width: number,
  height: number,
  on: (x: number, y: number) => boolean,
  onColor = [255, 255, 255],
  offColor = [0, 0, 0],
): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) data.set([...(on(x, y) ? onColor : offColor), 255], (y * width + x) * 4);
  return { width, height, data };
}

/** The braille cell bits the thresholded source implies. */
function expectedBits(r: Raster, on: (x: number, y: number) => boolean): number[] {
  const cols = Math.ceil(r.width / 2),
    rows = Math.ceil(r.height / 4);
  const out = new Array(cols * rows).fill(0);
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      if (on(x, y)) out[(y >> 2) * cols + (x >> 1)] |= BRAILLE_BITS[(y & 3) * 2 + (x & 1)];
    }
  return out;
}

const PATTERNS: { name: string; w: number; h: number; on: (x: number, y: number) => boolean }[] = [
  { name: 'all white', w: 8, h: 8, on: () => true },
  { name: 'all black', w: 8, h: 8, on: () => false },
  { name: '1-pixel checker', w: 16, h: 16, on: (x, y) => ((x + y) & 1) === 0 },
  { name: '2-pixel checker', w: 16, h: 16, on: (x, y) => (((x >> 1) + (y >> 1)) & 1) === 0 },
  { name: 'vertical stripes', w: 10, h: 12, on: (x) => (x & 1) === 0 },
  { name: 'horizontal stripes', w: 10, h: 12, on: (_, y) => (y & 1) === 1 },
  { name: 'left half white', w: 12, h: 8, on: (x) => x < 6 },
  { name: 'odd size white', w: 5, h: 7, on: () => true },
  { name: 'white disc', w: 40, h: 40, on: (x, y) => (x - 20) ** 2 + (y - 20) ** 2 < 150 },
];

describe('brailleDots against the thresholded source', () => {
  it.each(PATTERNS)('$name', ({ w, h, on }) => {
    const r = pattern(w, h, on);
    expect(Array.from(brailleDots(r).bits)).toEqual(expectedBits(r, on));
  });

  it('dots the bit layout of U+2800: (x,y) -> 1,8 / 2,16 / 4,32 / 64,128', () => {
    const bitsOf = (x: number, y: number) => brailleDots(pattern(2, 4, (a, b) => a === x && b === y)).bits[0];
    expect([
      bitsOf(0, 0),
      bitsOf(1, 0),
      bitsOf(0, 1),
      bitsOf(1, 1),
      bitsOf(0, 2),
      bitsOf(1, 2),
      bitsOf(0, 3),
      bitsOf(1, 3),
    ]).toEqual([1, 8, 2, 16, 4, 32, 64, 128]);
  });

  it('never lights transparent pixels, even white ones', () => {
    expect(Array.from(brailleDots(solid(4, 4, [255, 255, 255, 0])).bits)).toEqual([0, 0]);
    expect(Array.from(brailleDots(solid(4, 4, [255, 255, 255, 127])).bits)).toEqual([0, 0]);
  });

  it.each([
    { name: 'grey 32, about 0.1', grey: 32, approx: 0.1 },
    { name: 'grey 64, about 0.4', grey: 64, approx: 0.4 },
    { name: 'grey 128, about 0.5', grey: 128, approx: 0.5 },
    { name: 'grey 192, about 0.6', grey: 192, approx: 0.6 },
    { name: 'grey 224, about 0.9', grey: 224, approx: 0.9 },
  ])('a flat grey lights a share of dots that grows with brightness: $name', ({ grey, approx }) => {
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

/** Share of dots lit and the colours of the lit cells. */
function litShare(r: Raster, background?: readonly [number, number, number]): { share: number; colours: Set<number> } {
  const { bits, colors } = brailleDots(r, background);
  let lit = 0;
  const colours = new Set<number>();
  bits.forEach((b, c) => {
    for (let k = 0; k < 8; k++) lit += (b >> k) & 1;
    if (b !== 0) colours.add(colors[c]);
  });
  return { share: lit / (r.width * r.height), colours };
}

const BLACK = [0, 0, 0] as const,
  WHITE = [255, 255, 255] as const;
// Colours with a channel at the far end from the background's, and the background each is
// drawn on: every one must light every dot of its cells in its own colour.
const FLAT: {
  name: string;
  rgb: readonly [number, number, number];
  bg: readonly [number, number, number] | undefined;
}[] = [];
for (const [name, rgb] of [
  ['red', [255, 0, 0]],
  ['green', [0, 255, 0]],
  ['blue', [0, 0, 255]],
  ['yellow', [255, 255, 0]],
  ['cyan', [0, 255, 255]],
  ['magenta', [255, 0, 255]],
  ['orange', [255, 128, 0]],
  ['violet', [128, 0, 255]],
  ['navy', [0, 0, 128]],
  ['pink', [255, 105, 180]],
] as const) {
  for (const [bgName, bg] of [
    ['default', undefined],
    ['black', BLACK],
    ['white', WHITE],
    ['dark grey', [40, 42, 54]],
    ['cream', [253, 246, 227]],
  ] as const) {
    // navy is dark (half way from black), pink light (150 from white): they stand out fully only from the other end
    if (name === 'navy' && (bgName === 'default' || bgName === 'black' || bgName === 'dark grey')) continue;
    if (name === 'pink' && (bgName === 'white' || bgName === 'cream')) continue;
    FLAT.push({ name: `${name} on ${bgName}`, rgb, bg });
  }
}

describe('the dots stand out from the terminal background', () => {
  it.each(FLAT)('$name lights every dot, in its colour', ({ rgb, bg }) => {
    const { share, colours } = litShare(solid(24, 24, [...rgb, 255]), bg);
    expect(share).toBe(1);
    expect([...colours]).toEqual([(rgb[0] << 16) | (rgb[1] << 8) | rgb[2]]);
  });

  it.each([
    { name: 'white on black', rgb: WHITE, bg: BLACK, want: 1 },
    { name: 'black on white', rgb: BLACK, bg: WHITE, want: 1 },
    { name: 'black on black', rgb: BLACK, bg: BLACK, want: 0 },
    { name: 'white on white', rgb: WHITE, bg: WHITE, want: 0 },
    { name: 'the background colour itself', rgb: [40, 42, 54], bg: [40, 42, 54], want: 0 },
    { name: 'white on a dark grey', rgb: WHITE, bg: [40, 42, 54], want: 1 },
    { name: 'black on a cream', rgb: BLACK, bg: [253, 246, 227], want: 1 },
  ] as const)('$name lights a share of $want', ({ rgb, bg, want }) => {
    expect(litShare(solid(16, 16, [...rgb, 255]), bg).share).toBe(want);
  });

  it('a grey on white lights as many dots as its mirror grey on black (ink, not light)', () => {
    for (let g = 0; g <= 255; g += 17) {
      expect(litShare(solid(16, 16, [g, g, g, 255]), WHITE).share).toBe(
        litShare(solid(16, 16, [255 - g, 255 - g, 255 - g, 255]), BLACK).share,
      );
    }
  });

  it.each([
    { name: 'black', bg: BLACK },
    { name: 'white', bg: WHITE },
    { name: 'a dark grey', bg: [40, 42, 54] },
  ] as const)('four quadrants red/green/blue/yellow on $name light equal shares', ({ bg }) => {
    const size = 48,
      half = size / 2;
    const quad = [
      [255, 0, 0],
      [0, 255, 0],
      [0, 0, 255],
      [255, 255, 0],
    ];
    const data = new Uint8Array(size * size * 4);
    for (let y = 0; y < size; y++)
      for (let x = 0; x < size; x++)
        data.set([...quad[(y < half ? 0 : 2) + (x < half ? 0 : 1)], 255], (y * size + x) * 4);
    const { bits, colors, columns } = brailleDots({ width: size, height: size, data }, bg);
    const lit = [0, 0, 0, 0];
    bits.forEach((b, c) => {
      const q = quad.findIndex(([r, g, bl]) => colors[c] === ((r << 16) | (g << 8) | bl));
      let n = 0;
      for (let k = 0; k < 8; k++) n += (b >> k) & 1;
      if (q >= 0) lit[q] += n;
      else expect(Math.floor(c / columns) * 4 < half && (c % columns) * 2 < half).toBe(false);
    });
    expect(lit).toEqual([half * half, half * half, half * half, half * half]);
  });

  it('half-transparent pixels are blended onto the background before they are judged', () => {
    // white at alpha 128 onto white is white: nothing stands out; onto black it is mid grey
    const r = solid(16, 16, [255, 255, 255, 128]);
    expect(litShare(r, WHITE).share).toBe(0);
    expect(litShare(r, BLACK).share).toBeGreaterThan(0.3);
    expect(litShare(solid(16, 16, [0, 0, 255, 200]), WHITE).share).toBeGreaterThan(0.5);
  });

  it('a white background lights the dark pixels of a picture, a black one the bright pixels', () => {
    const r = pattern(12, 8, (x) => x < 6);
    const left = expectedBits(r, (x) => x < 6),
      right = expectedBits(r, (x) => x >= 6);
    expect(Array.from(brailleDots(r, BLACK).bits)).toEqual(left);
    expect(Array.from(brailleDots(r, WHITE).bits)).toEqual(right);
  });
});

/** A raster of rows of solid colours, `rows[y][x]` an RGB triple (opaque). */
function fromRows(rows: (readonly number[])[][]): Raster {
  const height = rows.length,
    width = rows[0].length;
  const data = new Uint8Array(width * height * 4);
  for (const [y, row] of rows.entries()) {
    for (const [x, rgb] of row.entries()) data.set([...rgb, 255], (y * width + x) * 4);
  }
  return { width, height, data };
}
const RED = [255, 0, 0],
  BLUE = [0, 0, 255],
  GREEN = [0, 255, 0],
  YELLOW = [255, 255, 0];
const PURPLE = [128, 0, 128],
  CHARTREUSE = [128, 255, 0],
  BLK = [0, 0, 0];
const pack = (rgb: readonly number[]): number => (rgb[0] << 16) | (rgb[1] << 8) | rgb[2];
/** A 2x4 cell (or cells side by side) from its four dot rows, each row one colour. */
const cellRows = (cells: number, ...rows: (readonly number[])[]): Raster =>
  fromRows(rows.map((rgb) => Array.from({ length: 2 * cells }, () => rgb)));

describe('a cell whose lit dots fall into two clearly different colours shows one of them', () => {
  it.each([
    // cells: the expected bits and colour of each cell
    {
      name: "2 red rows over 2 blue: a tie of size and contrast, cells alternate (first cell: the first dot's group)",
      raster: cellRows(2, RED, RED, BLUE, BLUE),
      bg: BLACK,
      cells: [
        [0x1b, RED],
        [0xe4, BLUE],
      ],
    },
    {
      name: 'the same on white',
      raster: cellRows(2, RED, RED, BLUE, BLUE),
      bg: WHITE,
      cells: [
        [0x1b, RED],
        [0xe4, BLUE],
      ],
    },
    {
      name: '1 red row over 3 blue: the larger group',
      raster: cellRows(1, RED, BLUE, BLUE, BLUE),
      bg: BLACK,
      cells: [[0xf6, BLUE]],
    },
    {
      name: '3 red rows over 1 blue: the larger group',
      raster: cellRows(1, RED, RED, RED, BLUE),
      bg: BLACK,
      cells: [[0x3f, RED]],
    },
    {
      name: 'green over yellow on black: the one standing out more',
      raster: cellRows(1, GREEN, GREEN, YELLOW, YELLOW),
      bg: BLACK,
      cells: [[0xe4, YELLOW]],
    },
    {
      name: 'green over yellow on white: the one standing out more',
      raster: cellRows(1, GREEN, GREEN, YELLOW, YELLOW),
      bg: WHITE,
      cells: [[0x1b, GREEN]],
    },
    {
      name: 'a purple row blended between red and blue stays dark',
      raster: cellRows(1, RED, PURPLE, BLUE, BLUE),
      bg: WHITE,
      cells: [[0xe4, BLUE]],
    },
    {
      name: 'green, the chartreuse blend, 2 yellow (the screen case): yellow only',
      raster: cellRows(1, GREEN, CHARTREUSE, YELLOW, YELLOW),
      bg: BLACK,
      cells: [[0xe4, YELLOW]],
    },
    {
      name: 'a dark row is not lit and does not count',
      raster: cellRows(1, RED, BLK, BLUE, BLUE),
      bg: BLACK,
      cells: [[0xe4, BLUE]],
    },
  ] as const)('$name', ({ raster, bg, cells }) => {
    const { bits, colors } = brailleDots(raster, bg);
    expect(Array.from(bits)).toEqual(cells.map(([b]) => b));
    expect(Array.from(colors)).toEqual(cells.map(([, rgb]) => pack(rgb)));
  });

  it.each([
    { name: 'near greys', top: [250, 250, 250], bottom: [244, 248, 252], colour: (247 << 16) | (249 << 8) | 251 },
    { name: 'a spread of 127 in one channel', top: [255, 0, 0], bottom: [255, 0, 127], colour: (255 << 16) | 64 },
  ] as const)('lit dots that are alike ($name) keep their average, all lit', ({ top, bottom, colour }) => {
    const { bits, colors } = brailleDots(cellRows(1, top, top, bottom, bottom));
    expect([bits[0], colors[0]]).toEqual([0xff, colour]);
  });

  it('a gradient with no two clear groups keeps its average', () => {
    // spread 150 in blue, but evenly: the 2-means centres end up 100 apart
    const { bits, colors } = brailleDots(cellRows(1, [255, 0, 0], [255, 0, 50], [255, 0, 100], [255, 0, 150]));
    expect([bits[0], colors[0]]).toEqual([0xff, (255 << 16) | 75]);
  });

  // The end-to-end case: `termsight show` of a 96x96 picture of four solid quadrants, 20 columns
  // wide, resized as toTerminal does (19x19 dots: the resize blends one row and one column across
  // the edges, and the top/bottom edge runs through the middle of cell row 3).
  it.each([
    { name: 'black', bg: BLACK },
    { name: 'white', bg: WHITE },
  ] as const)(
    '96x96 quadrants fitted to 20 columns on $name: only the source colours, each in its quadrant, in equal shares',
    ({ bg }) => {
      const size = 96,
        half = size / 2;
      const quad = [RED, GREEN, BLUE, YELLOW];
      const source = fromRows(
        Array.from({ length: size }, (_, y) =>
          Array.from({ length: size }, (_, x) => quad[(y < half ? 0 : 2) + (x < half ? 0 : 1)]),
        ),
      );
      const lay = layout(source, 'braille', { columns: 20 });
      const dotsRaster = resize(source, lay.units.width, lay.units.height);
      expect([dotsRaster.width, dotsRaster.height]).toEqual([19, 19]);
      const { bits, colors, columns } = brailleDots(dotsRaster, bg);
      const lit = [0, 0, 0, 0];
      bits.forEach((b, c) => {
        if (b === 0) return;
        const q = quad.findIndex((rgb) => colors[c] === pack(rgb));
        expect(q, `cell ${c} has colour ${colors[c].toString(16)}`).toBeGreaterThanOrEqual(0);
        // every lit dot of the cell lies in that colour's quadrant
        for (let e = 0; e < 8; e++) {
          if ((b & BRAILLE_BITS[e]) === 0) continue;
          const x = (c % columns) * 2 + (e & 1),
            y = Math.floor(c / columns) * 4 + (e >> 1);
          expect([x < 9.5 ? 0 : 1, y < 9.5 ? 0 : 1]).toEqual([q & 1, q >> 1]);
          lit[q]++;
        }
      });
      // 9 source rows and columns a quadrant (the 19th row and column are blends, left dark); the
      // red/blue and green/yellow edge cells can show only one side: the bottom (larger) one, so the
      // top quadrants lose their last dot row. That is the whole difference, one dot row in nine.
      expect(lit[0]).toBe(lit[1]);
      expect(lit[2]).toBe(lit[3]);
      expect(lit).toEqual([8 * 9, 8 * 9, 9 * 9, 9 * 9]);
    },
  );
});

describe('brailleLines', () => {
  it.each([
    {
      name: 'white 4x8 at truecolor, exactly',
      color: 'truecolor',
      lines: ['\x1b[38;2;255;255;255m\u28ff\u28ff\x1b[0m', '\x1b[38;2;255;255;255m\u28ff\u28ff\x1b[0m'],
    },
    {
      name: 'white 4x8 at 256, exactly',
      color: '256',
      lines: ['\x1b[38;5;231m\u28ff\u28ff\x1b[0m', '\x1b[38;5;231m\u28ff\u28ff\x1b[0m'],
    },
    { name: 'white 4x8 at none, exactly', color: 'none', lines: ['\u28ff\u28ff', '\u28ff\u28ff'] },
  ] as const)('$name', ({ color, lines }) => {
    expect(brailleLines(solid(4, 8, [255, 255, 255, 255]), { colorDepth: color })).toEqual(lines);
  });

  it('writes the colour only when it changes, and nothing for empty cells', () => {
    const r = pattern(8, 4, (x) => x < 2 || x >= 6);
    expect(encodeBraille(r)).toBe('\x1b[38;2;255;255;255m\u28ff\u2800\u2800\u28ff\x1b[0m');
  });

  it('joins lines with newlines', () => {
    expect(encodeBraille(solid(2, 8, [0, 0, 0, 255]), { colorDepth: 'none' })).toBe('\u2800\n\u2800');
  });
});

// Alpha values around the edges that matter (never lit, blended, opaque) and random pixels.
const pixelArb = fc.tuple(
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 255 }),
  fc.integer({ min: 0, max: 255 }),
  fc.oneof(
    fc.constant(255),
    fc.constant(255),
    fc.constant(0),
    fc.constantFrom(127, 128, 200, 254),
    fc.integer({ min: 0, max: 255 }),
  ),
);
/** Rasters of 1..13 x 1..17 pixels, optionally at an odd byte offset (which forbids 32-bit reads). */
const rasterArb = fc
  .record({
    w: fc.integer({ min: 1, max: 13 }),
    h: fc.integer({ min: 1, max: 17 }),
    shift: fc.constantFrom(0, 1),
    seed: fc.array(pixelArb, { minLength: 1, maxLength: 40 }),
    flat: fc.boolean(),
  })
  .map(({ w, h, shift, seed, flat }) => {
    const bytes = new Uint8Array(w * h * 4 + shift);
    const data = bytes.subarray(shift);
    for (let i = 0; i < w * h; i++) data.set(seed[flat ? (i % 2 === 0 ? 0 : seed.length - 1) : i % seed.length], i * 4);
    return { width: w, height: h, data } as Raster;
  });
const backgroundArb = fc.constantFrom<[number, number, number] | undefined>(
  undefined,
  [0, 0, 0],
  [255, 255, 255],
  [30, 200, 90],
  [255, 0, 255],
  [253, 246, 227],
);

describe('the encoder against a plain per-pixel model', () => {
  it('lights the same dots with the same colours (random sizes, alpha, backgrounds, alignment)', () => {
    fc.assert(
      fc.property(rasterArb, backgroundArb, (r, bgc) => {
        const dots = brailleDots(r, bgc);
        const model = brailleReferenceDots(r, bgc);
        expect(Array.from(dots.bits)).toEqual(model.bits);
        expect(Array.from(dots.colors)).toEqual(model.colors);
      }),
      { numRuns: 400 },
    );
  });

  it.each([{ name: 'truecolor' }, { name: '256' }, { name: 'none' }] as const)(
    'writes the same text at $name, and brailleLines joined is encodeBraille',
    ({ name: color }) => {
      fc.assert(
        fc.property(rasterArb, backgroundArb, (r, bgc) => {
          const text = encodeBraille(r, { colorDepth: color, background: bgc });
          expect(text).toBe(brailleReferenceText(r, color, bgc));
          expect(brailleLines(r, { colorDepth: color, background: bgc }).join('\n')).toBe(text);
        }),
        { numRuns: 200 },
      );
    },
  );

  it.each([
    {
      name: 'agrees on a random 64x48 picture (seed 1), opaque and not, on several backgrounds',
      w: 64,
      h: 48,
      seed: 1,
    },
    {
      name: 'agrees on a random 101x63 picture (seed 2), opaque and not, on several backgrounds',
      w: 101,
      h: 63,
      seed: 2,
    },
    {
      name: 'agrees on a random 300x200 picture (seed 3), opaque and not, on several backgrounds',
      w: 300,
      h: 200,
      seed: 3,
    },
  ])('$name', ({ w, h, seed }) => {
    for (const opaque of [true, false]) {
      const r = randomRaster(w, h, seed, opaque);
      expect(encodeBraille(r)).toBe(brailleReferenceText(r, 'truecolor'));
      expect(encodeBraille(r, { colorDepth: '256' })).toBe(brailleReferenceText(r, '256'));
      for (const background of [
        [255, 255, 255],
        [40, 42, 54],
        [0, 255, 0],
      ] as const) {
        expect(encodeBraille(r, { background })).toBe(brailleReferenceText(r, 'truecolor', background));
      }
    }
  });

  it('writes channel values of one, two and three digits', () => {
    const colours = [
      [9, 250, 99],
      [0, 200, 10],
      [255, 255, 5],
    ];
    const r = pattern(6, 4, () => true, [0, 0, 0]);
    colours.forEach((c, i) => {
      for (let y = 0; y < 4; y++) for (let x = 0; x < 2; x++) r.data.set([...c, 255], (y * 6 + i * 2 + x) * 4);
    });
    const { bits } = brailleDots(r);
    expect(Array.from(bits).every((b) => b !== 0)).toBe(true);
    const cells = colours.map((c, i) => `\x1b[38;2;${c.join(';')}m${String.fromCharCode(0x2800 + bits[i])}`);
    expect(encodeBraille(r)).toBe(`${cells.join('')}\x1b[0m`);
  });

  it('leaves nothing of a larger earlier picture in a later smaller one', () => {
    const big = randomRaster(200, 120, 9, true);
    const small = solid(2, 4, [255, 255, 255, 255]);
    encodeBraille(big);
    expect(encodeBraille(small)).toBe('\x1b[38;2;255;255;255m\u28ff\x1b[0m');
    brailleLines(big, { colorDepth: '256' });
    expect(brailleLines(small, { colorDepth: 'none' })).toEqual(['\u28ff']);
  });
});

/** The same pixels at byte offset 1: no 32-bit view, so every cell takes the per-pixel path. */
function unaligned(r: Raster): Raster {
  const bytes = new Uint8Array(r.data.length + 1);
  bytes.set(r.data, 1);
  return { width: r.width, height: r.height, data: bytes.subarray(1) };
}

/**
 * Whole cells mixing hidden, half-transparent and opaque pixels, per cell one of: all hidden,
 * all half-transparent, a red/blue edge at one alpha (a split), or random alphas from the edges
 * that matter; colours from a seeded generator.
 */
function translucentCells(width: number, height: number, seed: number): Raster {
  let s = seed >>> 0 || 1;
  const next = (n: number): number => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s % n;
  };
  const alphas = [0, 100, 127, 128, 129, 200, 254, 255];
  const data = new Uint8Array(width * height * 4);
  for (let cy = 0; cy * 4 < height; cy++)
    for (let cx = 0; cx * 2 < width; cx++) {
      const kind = next(4),
        a = alphas[next(alphas.length)];
      for (let y = cy * 4; y < Math.min(height, cy * 4 + 4); y++)
        for (let x = cx * 2; x < Math.min(width, cx * 2 + 2); x++) {
          const px =
            kind === 0
              ? [next(256), next(256), next(256), next(128)]
              : kind === 1
                ? [next(256), next(256), next(256), 128 + next(127)]
                : kind === 2
                  ? [...(y - cy * 4 < 2 ? [250, 10, 20] : [20, 30, 240]), a]
                  : [next(256), next(256), next(256), alphas[next(alphas.length)]];
          data.set(px, (y * width + x) * 4);
        }
    }
  return { width, height, data };
}

describe('whole cells with half-transparent pixels (blended into 32-bit words once)', () => {
  it.each([
    {
      name: '24x16 (seed 1) on the default background',
      w: 24,
      h: 16,
      seed: 1,
      background: undefined,
    },
    {
      name: '24x16 (seed 2) on white',
      w: 24,
      h: 16,
      seed: 2,
      background: [255, 255, 255],
    },
    {
      name: '25x17 (seed 3) on a dark grey',
      w: 25,
      h: 17,
      seed: 3,
      background: [40, 42, 54],
    },
    {
      name: '40x32 (seed 4) on green',
      w: 40,
      h: 32,
      seed: 4,
      background: [0, 255, 0],
    },
    {
      name: '64x48 (seed 5) on cream',
      w: 64,
      h: 48,
      seed: 5,
      background: [253, 246, 227],
    },
  ] as const)('$name: the per-pixel model, and the per-pixel path at an odd offset', ({ w, h, seed, background }) => {
    const r = translucentCells(w, h, seed);
    const dots = brailleDots(r, background);
    const model = brailleReferenceDots(r, background);
    expect(Array.from(dots.bits)).toEqual(model.bits);
    expect(Array.from(dots.colors)).toEqual(model.colors);
    for (const color of ['truecolor', '256', 'none'] as const) {
      expect(encodeBraille(r, { colorDepth: color, background })).toBe(
        encodeBraille(unaligned(r), { colorDepth: color, background }),
      );
    }
  });

  it('shows a half-transparent red/blue edge as one colour, blended onto the background', () => {
    // One cell: red over blue at alpha 200 on black; the two groups tie, so the one standing
    // out more from black (the red, 250 x 200/255 rounded) is shown, its own colour blended.
    const r: Raster = { width: 2, height: 4, data: new Uint8Array(32) };
    for (let y = 0; y < 4; y++)
      for (let x = 0; x < 2; x++) r.data.set([...(y < 2 ? [250, 10, 20] : [20, 30, 240]), 200], (y * 2 + x) * 4);
    const blend = (v: number): number => (v * (200 / 255) + 0.5) | 0;
    const model = brailleReferenceDots(r);
    const dots = brailleDots(r);
    expect(Array.from(dots.colors)).toEqual(model.colors);
    expect(dots.bits[0] & ~0x1b).toBe(0); // only the top two rows (bits 1, 8, 2, 16)
    expect(dots.colors[0]).toBe((blend(250) << 16) | (blend(10) << 8) | blend(20));
  });
});
