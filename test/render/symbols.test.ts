import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { isGraphicsProtocol, PROTOCOLS } from '../../src/env/protocol.js';
import { layout, renderedCells, toTerminal } from '../../src/render/backend.js';
import { DIFFUSION_STRENGTH, encodeSymbols, symbolsLines } from '../../src/render/text/symbols.js';
import { paintSymbols } from '../../src/render/text/symbols-paint.js';
import { ANSI16 } from '../../src/render/text/symbols-palette.js';

type Px = readonly [number, number, number, number];
const RED: Px = [255, 0, 0, 255];
const BLUE: Px = [0, 0, 255, 255];
const GREEN: Px = [0, 255, 0, 255];
const BLACK: Px = [0, 0, 0, 255];
const WHITE: Px = [255, 255, 255, 255];
const CLEAR: Px = [0, 0, 0, 0];

/** An 8x8-per-cell raster from a function of the sub-pixel. */
function cells(columns: number, rows: number, at: (x: number, y: number) => Px): Raster {
  const width = columns * 8;
  const height = rows * 8;
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) data.set(at(x, y), (y * width + x) * 4);
  return { width, height, data };
}

describe('exact output for tiny rasters', () => {
  it.each([
    {
      name: 'red over blue: lower half in blue on red',
      raster: cells(1, 1, (_x, y) => (y < 4 ? RED : BLUE)),
      options: {},
      lines: ['\x1b[38;2;0;0;255;48;2;255;0;0m\u2584\x1b[0m'],
    },
    {
      name: 'left quarter green: ▎ in green on black',
      raster: cells(1, 1, (x) => (x < 2 ? GREEN : BLACK)),
      options: {},
      lines: ['\x1b[38;2;0;255;0;48;2;0;0;0m\u258e\x1b[0m'],
    },
    {
      name: 'lower 3/8 red on blue: ▃',
      raster: cells(1, 1, (_x, y) => (y >= 5 ? RED : BLUE)),
      options: {},
      lines: ['\x1b[38;2;255;0;0;48;2;0;0;255m\u2583\x1b[0m'],
    },
    {
      name: 'upper left quadrant white: ▟ in black on white',
      raster: cells(1, 1, (x, y) => (x < 4 && y < 4 ? WHITE : BLACK)),
      options: {},
      lines: ['\x1b[38;2;0;0;0;48;2;255;255;255m\u259f\x1b[0m'],
    },
    {
      name: 'diagonal: ▚',
      raster: cells(1, 1, (x, y) => (x < 4 === y < 4 ? WHITE : BLACK)),
      options: {},
      lines: ['\x1b[38;2;0;0;0;48;2;255;255;255m\u259e\x1b[0m'],
    },
    {
      name: 'one colour: a space on it',
      raster: cells(1, 1, () => BLUE),
      options: {},
      lines: ['\x1b[48;2;0;0;255m \x1b[0m'],
    },
    {
      name: 'two cells alike: one SGR',
      raster: cells(2, 1, (_x, y) => (y < 4 ? RED : BLUE)),
      options: {},
      lines: ['\x1b[38;2;0;0;255;48;2;255;0;0m\u2584\u2584\x1b[0m'],
    },
    {
      name: 'swapped colours: the complement glyph instead of two changes',
      raster: cells(2, 1, (x, y) => (y < 4 === x < 8 ? RED : BLUE)),
      options: {},
      lines: ['\x1b[38;2;0;0;255;48;2;255;0;0m\u2584\u2580\x1b[0m'],
    },
    {
      name: 'a uniform cell in the current foreground: a full block, no SGR',
      raster: cells(2, 1, (x, y) => (x >= 8 || y >= 4 ? BLUE : RED)),
      options: {},
      lines: ['\x1b[38;2;0;0;255;48;2;255;0;0m\u2584\u2588\x1b[0m'],
    },
    {
      name: '256 colours: palette indices',
      raster: cells(1, 1, (_x, y) => (y < 4 ? RED : BLUE)),
      options: { colorDepth: '256' },
      lines: ['\x1b[38;5;21;48;5;196m\u2584\x1b[0m'],
    },
    {
      name: '16 colours: ANSI codes',
      raster: cells(1, 1, (_x, y) => (y < 4 ? RED : BLUE)),
      options: { colorDepth: '16' },
      lines: ['\x1b[34;101m\u2584\x1b[0m'],
    },
    {
      name: 'sextants when asked: the top left sixth',
      raster: cells(1, 1, (x, y) => (x < 4 && y < 3 ? WHITE : BLACK)),
      options: { symbols: ['sextant'] },
      lines: ['\x1b[38;2;0;0;0;48;2;255;255;255m\u{1fb3b}\x1b[0m'],
    },
    {
      name: 'octants when asked: one eighth',
      raster: cells(1, 1, (x, y) => (x >= 4 && y >= 2 && y < 4 ? WHITE : BLACK)),
      options: { symbols: ['octant'] },
      lines: ['\x1b[38;2;255;255;255;48;2;0;0;0m\u{1cd03}\x1b[0m'],
    },
    {
      name: 'block set has no sextant: the nearest block glyph',
      raster: cells(1, 1, (x, y) => (x < 4 && y < 3 ? WHITE : BLACK)),
      options: {},
      // ▟ over the top-left quadrant (12 of its 16 sub-pixels white): the least error of the block set
      lines: ['\x1b[38;2;0;0;0;48;2;191;191;191m\u259f\x1b[0m'],
    },
  ] as const)('$name', ({ raster, options, lines }) => {
    expect(symbolsLines(raster, options as never)).toEqual(lines);
  });

  it('encodeSymbols joins the lines with newlines', () => {
    const r = cells(1, 2, () => BLUE);
    expect(encodeSymbols(r)).toBe('\x1b[48;2;0;0;255m \x1b[0m\n\x1b[48;2;0;0;255m \x1b[0m');
  });
});

describe('transparency and background', () => {
  it.each([
    { name: 'fully transparent: a plain space', raster: cells(1, 1, () => CLEAR), options: {}, lines: [' '] },
    {
      name: 'transparent after a colour: back to the default background',
      raster: cells(2, 1, (x) => (x < 8 ? BLUE : CLEAR)),
      options: {},
      lines: ['\x1b[48;2;0;0;255m \x1b[49m '],
    },
    {
      name: 'transparent half shows the background colour',
      raster: cells(1, 1, (_x, y) => (y < 4 ? CLEAR : RED)),
      options: { background: [0, 0, 255] },
      lines: ['\x1b[38;2;255;0;0;48;2;0;0;255m\u2584\x1b[0m'],
    },
    {
      name: 'alpha 127 is transparent, 128 blends onto the background',
      raster: cells(1, 1, (_x, y) => (y < 4 ? [255, 255, 255, 127] : [255, 255, 255, 128])),
      options: { background: [0, 0, 0] },
      lines: ['\x1b[38;2;128;128;128;48;2;0;0;0m\u2584\x1b[0m'],
    },
    {
      name: 'none: bright ink on a dark terminal',
      raster: cells(1, 1, (_x, y) => (y < 4 ? WHITE : BLACK)),
      options: { colorDepth: 'none' },
      lines: ['\u2580'],
    },
    {
      name: 'none: dark ink on a light terminal',
      raster: cells(1, 1, (_x, y) => (y < 4 ? WHITE : BLACK)),
      options: { colorDepth: 'none', background: [255, 255, 255] },
      lines: ['\u2584'],
    },
    {
      name: 'none: transparent is never ink',
      raster: cells(1, 1, () => [255, 255, 255, 0]),
      options: { colorDepth: 'none' },
      lines: [' '],
    },
    {
      name: 'none: upper eighth has its own glyph',
      raster: cells(1, 1, (_x, y) => (y === 0 ? WHITE : BLACK)),
      options: { colorDepth: 'none' },
      lines: ['\u2594'],
    },
  ] as const)('$name', ({ raster, options, lines }) => {
    expect(symbolsLines(raster, options as never)).toEqual(lines);
  });
});

const anyRaster = fc
  .record({
    w: fc.integer({ min: 1, max: 24 }),
    h: fc.integer({ min: 1, max: 24 }),
    seed: fc.uint8Array({ minLength: 24 * 24 * 4, maxLength: 24 * 24 * 4 }),
  })
  .map(({ w, h, seed }) => ({ width: w, height: h, data: seed.slice(0, w * h * 4) }) as Raster);

/** Every SGR parameter list in a text. */
const sgrs = (text: string): string[] => [...text.matchAll(/\x1b\[([0-9;]*)m/g)].map((m) => m[1]);

describe('palettes', () => {
  it('256 colours use only 38;5 / 48;5 with indices 16-255, 49 and 0', () => {
    fc.assert(
      fc.property(anyRaster, (r) => {
        for (const p of sgrs(encodeSymbols(r, { colorDepth: '256' }))) {
          const parts = p.split(';').map(Number);
          for (let i = 0; i < parts.length; i++) {
            if (parts[i] === 38 || parts[i] === 48) {
              expect(parts[i + 1]).toBe(5);
              expect(parts[i + 2]).toBeGreaterThanOrEqual(16);
              expect(parts[i + 2]).toBeLessThanOrEqual(255);
              i += 2;
            } else expect([0, 49]).toContain(parts[i]);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('16 colours use only 30-37, 90-97, 40-47, 100-107, 49 and 0', () => {
    fc.assert(
      fc.property(anyRaster, (r) => {
        for (const p of sgrs(encodeSymbols(r, { colorDepth: '16' }))) {
          for (const v of p.split(';').map(Number)) {
            const ok =
              (v >= 30 && v <= 37) ||
              (v >= 90 && v <= 97) ||
              (v >= 40 && v <= 47) ||
              (v >= 100 && v <= 107) ||
              v === 0 ||
              v === 49;
            expect(ok, String(v)).toBe(true);
          }
        }
      }),
      { numRuns: 60 },
    );
  });

  it('none writes no escape sequence at all', () => {
    fc.assert(
      fc.property(anyRaster, (r) => {
        expect(encodeSymbols(r, { colorDepth: 'none' })).not.toContain('\x1b');
      }),
      { numRuns: 40 },
    );
  });

  it('every line is reset unless it left the colours at their defaults', () => {
    fc.assert(
      fc.property(anyRaster, (r) => {
        for (const line of symbolsLines(r)) {
          if (line.includes('\x1b[3') || line.includes('\x1b[4')) {
            const last = line.lastIndexOf('\x1b[');
            expect(line.slice(last) === '\x1b[0m' || line.slice(last).startsWith('\x1b[49m')).toBe(true);
          }
        }
      }),
      { numRuns: 40 },
    );
  });

  it('16 colours with diffusion asked for: a flat dark grey averages out near itself', () => {
    // (64,64,64) is nearest to ANSI 8 (127,127,127); without diffusion every cell would be that.
    const r = cells(12, 12, () => [64, 64, 64, 255]);
    const painted = paintSymbols(encodeSymbols(r, { colorDepth: '16', diffusion: DIFFUSION_STRENGTH })).raster;
    let sum = 0;
    for (let i = 0; i < painted.data.length; i += 4) sum += painted.data[i];
    const mean = sum / (painted.data.length / 4);
    expect(DIFFUSION_STRENGTH).toBeGreaterThan(0);
    expect(Math.abs(mean - 64)).toBeLessThan(20);
    const used = new Set(
      sgrs(encodeSymbols(r, { colorDepth: '16', diffusion: DIFFUSION_STRENGTH })).flatMap((p) => p.split(';')),
    );
    expect(used.size).toBeGreaterThan(2);
    // By default there is no diffusion: the flat grey is one colour.
    expect(new Set(sgrs(encodeSymbols(r, { colorDepth: '16' })).flatMap((p) => p.split(';'))).size).toBeLessThanOrEqual(
      2,
    );
  });

  it('16-colour SGR maps to the ANSI colours the fit aimed at', () => {
    const r = cells(1, 1, (_x, y) =>
      y < 4 ? [ANSI16[9][0], ANSI16[9][1], ANSI16[9][2], 255] : [ANSI16[4][0], ANSI16[4][1], ANSI16[4][2], 255],
    );
    const painted = paintSymbols(encodeSymbols(r, { colorDepth: '16' })).raster;
    expect([...painted.data.slice(0, 3)]).toEqual([...ANSI16[9]]);
    expect([...painted.data.slice(-4, -1)]).toEqual([...ANSI16[4]]);
  });
});

describe('the symbols protocol', () => {
  it('is a text protocol', () => {
    expect(PROTOCOLS).toContain('symbols');
    expect(isGraphicsProtocol('symbols')).toBe(false);
  });

  it.each([
    {
      name: 'fits the box, 8x8 sub-pixels a cell',
      size: { width: 1000, height: 600 },
      options: { columns: 50 },
      columns: 50,
      rows: 15,
    },
    {
      name: 'a 70x46 icon: one quadrant a source pixel (35 columns, not its 7 cells)',
      size: { width: 70, height: 46 },
      options: { columns: 80, rows: 24 },
      columns: 35,
      rows: 12,
    },
    {
      name: 'a 16x16 favicon: 8x4 cells, each pixel one quadrant',
      size: { width: 16, height: 16 },
      options: { columns: 80, rows: 24 },
      columns: 8,
      rows: 4,
    },
    {
      name: 'enlarged at most to the box',
      size: { width: 70, height: 46 },
      options: { columns: 20, rows: 24 },
      columns: 20,
      rows: 7,
    },
    {
      name: 'enlarged at most to the rows',
      size: { width: 70, height: 46 },
      options: { columns: 80, rows: 5 },
      columns: 15,
      rows: 5,
    },
    {
      name: 'no box: enlarged by the same rule',
      size: { width: 70, height: 46 },
      options: {},
      columns: 35,
      rows: 12,
    },
    {
      name: 'no box: a photo up to 80 columns',
      size: { width: 451, height: 300 },
      options: {},
      columns: 80,
      rows: 27,
    },
    {
      name: 'no box: a picture wider than 80 columns at its own size keeps it',
      size: { width: 1200, height: 400 },
      options: {},
      columns: 120,
      rows: 20,
    },
    {
      name: 'a 451-pixel photo fills an 80-column box (45 columns at its own size)',
      size: { width: 451, height: 300 },
      options: { columns: 80, rows: 40 },
      columns: 80,
      rows: 27,
    },
    {
      name: 'larger than the box: fitted to it',
      size: { width: 2000, height: 1000 },
      options: { columns: 80, rows: 40 },
      columns: 80,
      rows: 20,
    },
    {
      name: 'never smaller than its own size in cells (tiny cells)',
      size: { width: 70, height: 46 },
      options: { columns: 80, rows: 24, cellPixels: { width: 1, height: 2 } },
      columns: 70,
      rows: 23,
    },
    {
      name: 'upscale fills the box',
      size: { width: 70, height: 46 },
      options: { columns: 80, rows: 40, upscale: true },
      columns: 80,
      rows: 26,
    },
    {
      name: 'a tall picture keeps to the rows',
      size: { width: 20, height: 400 },
      options: { columns: 80, rows: 10 },
      columns: 1,
      rows: 10,
    },
  ])('$name', ({ size, options, columns, rows }) => {
    const lay = layout(size, 'symbols', options);
    expect({ columns: lay.columns, rows: lay.rows }).toEqual({ columns, rows });
    expect(lay.units).toEqual({ width: columns * 8, height: rows * 8 });
  });

  it('draws as many lines and cells as renderedCells says', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 20 }),
        (w, h, columns, rows) => {
          const r = { width: w, height: h, data: new Uint8Array(w * h * 4).fill(200) };
          const text = toTerminal(r, 'symbols', { columns, rows });
          const cellsOut = renderedCells(r, 'symbols', { columns, rows });
          const painted = paintSymbols(text);
          expect(painted.rows).toBe(cellsOut.rows);
          expect(painted.columns).toBe(cellsOut.columns);
          expect(cellsOut.columns).toBeLessThanOrEqual(columns);
          expect(cellsOut.rows).toBeLessThanOrEqual(rows);
        },
      ),
      { numRuns: 40 },
    );
  });

  it('passes the symbols option through', () => {
    const r = cells(1, 1, (x, y) => (x < 4 && y < 3 ? WHITE : BLACK));
    expect(toTerminal(r, 'symbols', { columns: 1, rows: 1, symbols: ['sextant'] })).toContain('\u{1fb3b}');
    expect(toTerminal(r, 'symbols', { columns: 1, rows: 1 })).not.toContain('\u{1fb3b}');
  });

  it('braille and blocks draw 16 colours as 256', () => {
    const r = { width: 2, height: 2, data: new Uint8Array(16).fill(200) };
    expect(toTerminal(r, 'blocks', { colorDepth: '16' })).toBe(toTerminal(r, 'blocks', { colorDepth: '256' }));
    expect(toTerminal(r, 'braille', { colorDepth: '16' })).toBe(toTerminal(r, 'braille', { colorDepth: '256' }));
  });
});
