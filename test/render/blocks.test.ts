import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { blocksLines, encodeBlocks } from '../../src/render/text/blocks.js';
import { nearest256 } from '../../src/render/text/color.js';

function raster(width: number, height: number, px: number[][]): Raster {
  return { width, height, data: new Uint8Array(px.flat()) };
}

const R = [255, 0, 0, 255],
  G = [0, 255, 0, 255],
  B = [0, 0, 255, 255],
  T = [9, 9, 9, 0];

describe('blocksLines exact output', () => {
  it.each([
    {
      name: 'red over green',
      w: 1,
      h: 2,
      px: [R, G],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0;48;2;0;255;0m\u2580\x1b[0m'],
    },
    {
      name: 'red over green, 256',
      w: 1,
      h: 2,
      px: [R, G],
      color: '256',
      lines: ['\x1b[38;5;196;48;5;46m\u2580\x1b[0m'],
    },
    {
      name: 'same colour is a space on that background',
      w: 1,
      h: 2,
      px: [B, B],
      color: 'truecolor',
      lines: ['\x1b[48;2;0;0;255m \x1b[0m'],
    },
    {
      name: 'transparent bottom',
      w: 1,
      h: 2,
      px: [R, T],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0m\u2580\x1b[0m'],
    },
    { name: 'transparent top', w: 1, h: 2, px: [T, G], color: 'truecolor', lines: ['\x1b[38;2;0;255;0m\u2584\x1b[0m'] },
    { name: 'both transparent', w: 1, h: 2, px: [T, T], color: 'truecolor', lines: [' \x1b[0m'] },
    {
      name: 'odd height: last row has no bottom pixel',
      w: 1,
      h: 1,
      px: [R],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0m\u2580\x1b[0m'],
    },
    {
      name: '2x2: second cell repeats, no SGR',
      w: 2,
      h: 2,
      px: [R, R, G, G],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0;48;2;0;255;0m\u2580\u2580\x1b[0m'],
    },
    {
      name: '2x2: swapped colours use the lower half instead of two changes',
      w: 2,
      h: 2,
      px: [R, G, G, R],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0;48;2;0;255;0m\u2580\u2584\x1b[0m'],
    },
    {
      name: '2x2 with a transparent cell goes back to the default background',
      w: 2,
      h: 2,
      px: [R, T, G, T],
      color: 'truecolor',
      lines: ['\x1b[38;2;255;0;0;48;2;0;255;0m\u2580\x1b[49m \x1b[0m'],
    },
    {
      name: 'none: by luminance',
      w: 4,
      h: 2,
      px: [
        [255, 255, 255, 255],
        [0, 0, 0, 255],
        [255, 255, 255, 255],
        [0, 0, 0, 255],
        [255, 255, 255, 255],
        [255, 255, 255, 255],
        [0, 0, 0, 255],
        [0, 0, 0, 255],
      ],
      color: 'none',
      lines: ['\u2588\u2584\u2580 '],
    },
  ] as const)('$name', ({ w, h, px, color, lines }) => {
    expect(blocksLines(raster(w, h, px as unknown as number[][]), { colorDepth: color })).toEqual(lines);
  });

  it('blends half-transparent pixels onto the background option', () => {
    const out = encodeBlocks(
      raster(1, 2, [
        [255, 255, 255, 128],
        [255, 255, 255, 128],
      ]),
      { background: [0, 0, 255] },
    );
    expect(out).toBe('\x1b[48;2;128;128;255m \x1b[0m');
  });
});

/** Reads the cell colours back into pixels, following the SGR state. */
function decodeBlocks(lines: string[], width: number): (number[] | null)[][] {
  const rows: (number[] | null)[][] = [];
  for (const line of lines) {
    let fg: number[] | null = null,
      bg: number[] | null = null;
    const top: (number[] | null)[] = [],
      bottom: (number[] | null)[] = [];
    const re = /\x1b\[([0-9;]*)m|(.)/gsu;
    for (const m of line.matchAll(re)) {
      if (m[1] !== undefined) {
        const p = m[1].split(';').map(Number);
        for (let i = 0; i < p.length; i++) {
          if (p[i] === 0) {
            fg = null;
            bg = null;
          } else if (p[i] === 49) bg = null;
          else if (p[i] === 38 && p[i + 1] === 2) {
            fg = p.slice(i + 2, i + 5);
            i += 4;
          } else if (p[i] === 48 && p[i + 1] === 2) {
            bg = p.slice(i + 2, i + 5);
            i += 4;
          }
        }
        continue;
      }
      const ch = m[2];
      if (ch === '\u2580') {
        top.push(fg);
        bottom.push(bg);
      } else if (ch === '\u2584') {
        top.push(bg);
        bottom.push(fg);
      } else if (ch === '\u2588') {
        top.push(fg);
        bottom.push(fg);
      } else {
        top.push(bg);
        bottom.push(bg);
      }
    }
    expect(top).toHaveLength(width);
    rows.push(top, bottom);
  }
  return rows;
}

const K = [0, 0, 0, 255],
  W = [255, 255, 255, 255],
  HALF_WHITE = [255, 255, 255, 128];
const WHITE_BG = [255, 255, 255] as const,
  DARK_BG = [40, 42, 54] as const;

describe('blocks on a light or dark terminal background', () => {
  it.each([
    // Without colour the halves are drawn in the terminal's foreground: where a pixel stands out
    // from the background (bright on dark, dark on light), never where it is transparent.
    { name: 'none: white on black', px: [W, W], background: undefined, line: '\u2588' },
    { name: 'none: white on white', px: [W, W], background: WHITE_BG, line: ' ' },
    { name: 'none: black on white', px: [K, K], background: WHITE_BG, line: '\u2588' },
    { name: 'none: black over white, on white', px: [K, W], background: WHITE_BG, line: '\u2580' },
    { name: 'none: white over black, on white', px: [W, K], background: WHITE_BG, line: '\u2584' },
    { name: 'none: blue on black stands out', px: [B, B], background: undefined, line: '\u2588' },
    {
      name: 'none: yellow on white stands out',
      px: [
        [255, 255, 0, 255],
        [255, 255, 0, 255],
      ],
      background: WHITE_BG,
      line: '\u2588',
    },
    { name: 'none: red on a dark grey stands out', px: [R, R], background: DARK_BG, line: '\u2588' },
    {
      name: 'none: the background colour itself does not',
      px: [
        [40, 42, 54, 255],
        [40, 42, 54, 255],
      ],
      background: DARK_BG,
      line: ' ',
    },
    { name: 'none: transparent is never drawn, on white', px: [T, [0, 0, 0, 0]], background: WHITE_BG, line: ' ' },
    {
      name: 'none: half-transparent white onto white is white',
      px: [HALF_WHITE, HALF_WHITE],
      background: WHITE_BG,
      line: ' ',
    },
    {
      name: 'none: half-transparent white onto black is grey enough',
      px: [HALF_WHITE, HALF_WHITE],
      background: undefined,
      line: '\u2588',
    },
  ] as const)('$name', ({ px, background, line }) => {
    expect(blocksLines(raster(1, 2, px as unknown as number[][]), { colorDepth: 'none', background })).toEqual([line]);
  });

  it.each([
    // With colour, transparent halves show the terminal's own background (SGR 49), whatever it is,
    // and half-transparent ones are blended onto the background given.
    { name: 'transparent bottom on white', px: [R, T], background: WHITE_BG, line: '\x1b[38;2;255;0;0m\u2580\x1b[0m' },
    {
      name: 'transparent top on a dark grey',
      px: [T, G],
      background: DARK_BG,
      line: '\x1b[38;2;0;255;0m\u2584\x1b[0m',
    },
    {
      name: 'half-transparent black onto white is grey',
      px: [
        [0, 0, 0, 128],
        [0, 0, 0, 128],
      ],
      background: WHITE_BG,
      line: '\x1b[48;2;127;127;127m \x1b[0m',
    },
    {
      name: 'half-transparent white onto white is white',
      px: [HALF_WHITE, HALF_WHITE],
      background: WHITE_BG,
      line: '\x1b[48;2;255;255;255m \x1b[0m',
    },
    {
      name: 'half-transparent red onto a dark grey',
      px: [[255, 0, 0, 128], T],
      background: DARK_BG,
      line: '\x1b[38;2;148;21;27m\u2580\x1b[0m',
    },
  ] as const)('$name', ({ px, background, line }) => {
    expect(blocksLines(raster(1, 2, px as unknown as number[][]), { background })).toEqual([line]);
  });
});

describe('blocks decode back to the source', () => {
  it('random opaque rasters round-trip exactly at 24-bit', () => {
    let s = 7;
    const rnd = () => {
      s = (s * 1103515245 + 12345) >>> 0;
      return s >>> 24;
    };
    for (const [w, h] of [
      [1, 2],
      [2, 2],
      [5, 4],
      [13, 10],
    ]) {
      const px = Array.from({ length: w * h }, () => [rnd() & 3 ? rnd() : 0, rnd(), rnd() & 1 ? 7 : 200, 255]);
      const r = raster(w, h, px);
      const back = decodeBlocks(blocksLines(r), w);
      for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) expect(back[y][x]).toEqual(px[y * w + x].slice(0, 3));
    }
  });

  it('256 colours pick the nearest palette index for each half', () => {
    const line = blocksLines(
      raster(1, 2, [
        [250, 10, 10, 255],
        [10, 10, 250, 255],
      ]),
      { colorDepth: '256' },
    )[0];
    expect(line).toContain(`38;5;${nearest256(250, 10, 10)}`);
    expect(line).toContain(`48;5;${nearest256(10, 10, 250)}`);
  });
});
