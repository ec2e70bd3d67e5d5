/**
 * Pictures cropped to the rows a viewport shows (src/render/geometry/visible.ts, encoded by backend.ts), per protocol, read back by
 * decoders independent of the encoders (the `sixel` package, fast-png, a kitty payload decoder):
 * the visible part must be exactly the rows of the whole picture it stands for, start at the
 * first visible row, and never reach below the last one.
 */
import fc from 'fast-check';
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { animate } from '../../src/render/animation.js';
import { draw } from '../../src/render/backend.js';
import {
  cellRows,
  clampVisible,
  cropRows,
  SIXEL_BAND,
  scaledRows,
  sixelRows,
  type VisibleRows,
} from '../../src/render/geometry/visible.js';
import type { RenderOptions } from '../../src/render/options.js';
import {
  decodeKittyTransmission,
  parseIterm2,
  parseKittyApcs,
  pngToRaster,
  randomRaster,
} from './terminal-decoders.js';

/** Random pixels of 16 colours (so sixel's palette is exact whatever rows it sees). */
function paletted(width: number, height: number, seed: number): Raster {
  const noise = randomRaster(width, height, seed, true);
  const palette = randomRaster(16, 1, seed + 1, true).data;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++)
    data.set(palette.subarray((noise.data[i * 4] % 16) * 4, (noise.data[i * 4] % 16) * 4 + 4), i * 4);
  return { width, height, data };
}

/** 64x48 pixels in cells of 8x10: 8 columns, 5 rows (the last 8 pixels tall). */
const PICTURE = paletted(64, 48, 7);
const OPTIONS: RenderOptions = { columns: 8, rows: 6, cellPixels: { width: 8, height: 10 }, imageId: 42 };

function sixelPixels(sequence: string): { width: number; height: number; data: Uint8Array } {
  const body = sequence.slice(sequence.indexOf('q') + 1, -2);
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(body);
  return {
    width: decoder.width,
    height: decoder.height,
    data: new Uint8Array(decoder.data8.slice(0, decoder.width * decoder.height * 4)),
  };
}

function rowsOf(raster: { width: number; data: Uint8Array }, y: number, height: number): Uint8Array {
  return raster.data.slice(y * raster.width * 4, (y + height) * raster.width * 4);
}

interface Row {
  readonly name: string;
  readonly visible: VisibleRows;
  /** The rows drawn, after clamping to the picture's 5. */
  readonly shown: VisibleRows;
  /** Sixel pixel rows [y, y + height): whole bands unless the picture's own end is shown. */
  readonly sixel: { y: number; height: number };
  /** kitty/iTerm2 pixel rows (the picture scaled into its 5 rows: 48/5 pixels a row). */
  readonly scaled: { y: number; height: number };
}

const ROWS: Row[] = [
  {
    name: 'every row',
    visible: { top: 0, rows: 5 },
    shown: { top: 0, rows: 5 },
    sixel: { y: 0, height: 48 },
    scaled: { y: 0, height: 48 },
  },
  {
    name: 'the bottom cut off: whole bands only',
    visible: { top: 0, rows: 2 },
    shown: { top: 0, rows: 2 },
    sixel: { y: 0, height: 18 },
    scaled: { y: 0, height: 19 },
  },
  {
    name: 'both ends cut off',
    visible: { top: 1, rows: 2 },
    shown: { top: 1, rows: 2 },
    sixel: { y: 10, height: 18 },
    scaled: { y: 10, height: 19 },
  },
  {
    name: 'the top cut off, the viewport reaching past the end',
    visible: { top: 3, rows: 5 },
    shown: { top: 3, rows: 2 },
    sixel: { y: 30, height: 18 },
    scaled: { y: 29, height: 19 },
  },
  {
    name: 'above the viewport: clamped to the first row',
    visible: { top: -1, rows: 3 },
    shown: { top: 0, rows: 2 },
    sixel: { y: 0, height: 18 },
    scaled: { y: 0, height: 19 },
  },
  {
    name: 'scrolled out entirely',
    visible: { top: 5, rows: 2 },
    shown: { top: 5, rows: 0 },
    sixel: { y: 48, height: 0 },
    scaled: { y: 48, height: 0 },
  },
];

describe('geometry', () => {
  it.each(ROWS)('$name', ({ visible, shown, sixel, scaled }) => {
    expect(clampVisible(visible, 5)).toEqual(shown);
    expect(sixelRows(48, 10, visible)).toEqual(sixel);
    expect(scaledRows(48, 5, visible)).toEqual(scaled);
  });

  it('sixel: starts at the first visible row, never reaches past the last, whole bands when cut', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 400 }),
        fc.integer({ min: 6, max: 40 }),
        fc.integer({ min: -5, max: 60 }),
        fc.integer({ min: 0, max: 60 }),
        (height, cell, top, rows) => {
          const got = sixelRows(height, cell, { top, rows });
          const v = clampVisible({ top, rows }, Math.ceil(height / cell));
          if (v.rows === 0) return got.height === 0;
          const end = Math.min(height, (v.top + v.rows) * cell);
          return (
            got.y === v.top * cell &&
            got.y + got.height <= end &&
            (got.y + got.height === height || got.height % SIXEL_BAND === 0) &&
            end - (got.y + got.height) < SIXEL_BAND
          );
        },
      ),
    );
  });

  it('scaled: consecutive visible parts tile the picture exactly', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), fc.integer({ min: 1, max: 40 }), (height, total) => {
        let at = 0;
        for (let row = 0; row < total; row++) {
          const part = scaledRows(height, total, { top: row, rows: 1 });
          if (part.y !== at) return false;
          at += part.height;
        }
        return at === height;
      }),
    );
  });
});

describe('what each protocol draws', () => {
  const whole = (protocol: 'kitty' | 'iterm2' | 'sixel' | 'braille' | 'blocks') => draw(PICTURE, protocol, OPTIONS);

  /**
   * Option sets the crop must honour as the whole picture does: its fit (cover's crop, fill's
   * stretch), 1:1 pixels or a scale into cells, and its place in a wider box (`offset`).
   */
  const SETS: { name: string; options: RenderOptions }[] = [
    { name: 'contain, 1:1 (the cell size known)', options: OPTIONS },
    { name: 'contain, scaled into its cells', options: { ...OPTIONS, exactPixels: false } },
    { name: 'cover, a box of 5x3 cells', options: { ...OPTIONS, columns: 5, rows: 3, fit: 'cover' } },
    { name: 'fill, a box of 5x3 cells', options: { ...OPTIONS, columns: 5, rows: 3, fit: 'fill' } },
    { name: 'centred in a box of 20 columns', options: { ...OPTIONS, columns: 20, align: 'center' } },
  ];
  /** The pixel rows a drawing's visible rows stand for: whole cells when 1:1, else its scale. */
  const expected = (pixels: number, rows: number, exact: boolean, visible: VisibleRows) =>
    exact ? cellRows(pixels, 10, visible) : scaledRows(pixels, rows, visible);
  const CASES = SETS.flatMap((set) => ROWS.map((row) => ({ ...row, set: set.name, options: set.options })));

  it.each(CASES)('iTerm2, $set, $name: the rows of the whole picture', ({ options, visible }) => {
    const all = draw(PICTURE, 'iterm2', options);
    const d = draw(PICTURE, 'iterm2', { ...options, visibleRows: visible });
    expect(d.layout).toEqual(all.layout);
    const shown = clampVisible(visible, all.layout.rows);
    if (shown.rows === 0) {
      expect(d.sequences).toEqual([]);
      return;
    }
    const [fullFile] = parseIterm2(all.sequences.join(''));
    const [file] = parseIterm2(d.sequences.join(''));
    const full = pngToRaster(Buffer.from(fullFile.payload, 'base64'));
    const part = pngToRaster(Buffer.from(file.payload, 'base64'));
    const exact = fullFile.args.get('width')?.endsWith('px') ?? false;
    const rows = expected(full.height, all.layout.rows, exact, visible);
    expect({ width: part.width, height: part.height }).toEqual({ width: full.width, height: rows.height });
    expect(part.data).toEqual(rowsOf(full, rows.y, rows.height));
    // Drawn at the same scale as the whole: 1:1 in pixels, or its share of the cells.
    expect(file.args.get('width')).toBe(exact ? `${full.width}px` : fullFile.args.get('width'));
    expect(file.args.get('height')).toBe(exact ? `${rows.height}px` : String(shown.rows));
  });

  it.each(CASES)('kitty, $set, $name: the whole picture sent, a source rectangle shown', ({ options, visible }) => {
    const all = draw(PICTURE, 'kitty', options);
    const d = draw(PICTURE, 'kitty', { ...options, visibleRows: visible });
    expect(d.layout).toEqual(all.layout);
    const shown = clampVisible(visible, all.layout.rows);
    if (shown.rows === 0) {
      expect(d.sequences).toEqual([]);
      return;
    }
    const sent = decodeKittyTransmission(parseKittyApcs(d.sequences.join('')));
    const full = decodeKittyTransmission(parseKittyApcs(all.sequences.join('')));
    expect(sent.raster).toEqual(full.raster);
    const exact = !full.keys.has('c');
    const rows = expected(full.raster.width === 0 ? 0 : full.raster.height, all.layout.rows, exact, visible);
    const keys = Object.fromEntries(['x', 'y', 'w', 'h', 'c', 'r', 'i'].map((k) => [k, sent.keys.get(k)]));
    expect(keys).toEqual({
      x: '0',
      y: String(rows.y),
      w: String(full.raster.width),
      h: String(rows.height),
      c: exact ? undefined : full.keys.get('c'),
      r: exact ? undefined : String(shown.rows),
      i: '42',
    });
  });

  it.each(CASES)('sixel, $set, $name: whole bands of the whole picture', ({ options, visible }) => {
    const all = draw(PICTURE, 'sixel', options);
    const d = draw(PICTURE, 'sixel', { ...options, visibleRows: visible });
    expect(d.layout).toEqual(all.layout);
    const full = sixelPixels(all.sequences[0] ?? '');
    const rows = sixelRows(full.height, 10, visible);
    if (rows.height === 0) {
      expect(d.sequences).toEqual([]);
      return;
    }
    const part = sixelPixels(d.sequences[0] ?? '');
    expect({ width: part.width, height: part.height }).toEqual({ width: full.width, height: rows.height });
    // The paletted picture drawn 1:1 keeps its 16 colours: the part is exactly the whole's rows.
    if (options === OPTIONS) expect(part.data).toEqual(rowsOf(full, rows.y, rows.height));
  });

  it.each(ROWS.flatMap((row) => (['braille', 'blocks'] as const).map((protocol) => ({ ...row, protocol }))))(
    '$protocol, $name: whole lines',
    ({ protocol, visible, shown }) => {
      const full = whole(protocol).lines;
      const d = draw(PICTURE, protocol, { ...OPTIONS, visibleRows: visible });
      const rows = clampVisible(visible, full.length);
      expect(d.lines).toEqual(full.slice(rows.top, rows.top + rows.rows));
      expect(d.sequences).toEqual([]);
      if (protocol === 'blocks') expect(d.lines.length).toBe(shown.rows);
    },
  );

  it('kitty placeholders inside tmux: whole placeholder rows', () => {
    const options: RenderOptions = { ...OPTIONS, multiplexer: 'tmux' };
    const full = draw(PICTURE, 'kitty', options);
    const d = draw(PICTURE, 'kitty', { ...options, visibleRows: { top: 1, rows: 2 } });
    expect(d.lines).toEqual(full.lines.slice(1, 3));
  });
});

describe('cropRows', () => {
  it('copies exactly the rows asked for', () => {
    const raster: Raster = randomRaster(3, 4, 1);
    const part = cropRows(raster, { y: 1, height: 2 });
    expect(part).toEqual({ width: 3, height: 2, data: raster.data.slice(12, 36) });
  });
});

describe('a kitty animation the terminal plays, in a viewport', () => {
  /** Three frames of the paletted picture, each a different one. */
  const frames = [7, 8, 9].map((seed) => ({ raster: paletted(64, 48, seed), delayMs: 50 }));
  const SETS: { name: string; options: RenderOptions }[] = [
    { name: '1:1 (the cell size known)', options: OPTIONS },
    { name: 'scaled into its cells', options: { ...OPTIONS, exactPixels: false } },
  ];
  const CASES = SETS.flatMap((set) => ROWS.map((row) => ({ ...row, set: set.name, options: set.options })));

  it.each(CASES)('$set, $name: every frame whole, the placement the rows shown', ({ options, visible, shown }) => {
    const played = (extra: Partial<RenderOptions>) => {
      const out: string[] = [];
      animate(frames, 'kitty', { ...options, ...extra, native: true, write: (s) => out.push(s) });
      return parseKittyApcs(out.join(''));
    };
    const all = played({});
    const part = played({ visibleRows: visible });
    if (shown.rows === 0) {
      expect(part).toEqual([]);
      return;
    }
    // The same upload, frame for frame: only the root's placement keys differ.
    const payloads = (apcs: typeof all) => apcs.map((a) => a.payload);
    expect(payloads(part)).toEqual(payloads(all));
    const root = (apcs: typeof all) => apcs.find((a) => a.keys.get('a') === 'T')?.keys ?? new Map<string, string>();
    const exact = !root(all).has('c');
    const rows = exact ? cellRows(48, 10, visible) : scaledRows(48, 5, visible);
    const keys = Object.fromEntries(['x', 'y', 'w', 'h', 'c', 'r'].map((k) => [k, root(part).get(k)]));
    const whole = shown.top === 0 && shown.rows === 5;
    expect(keys).toEqual(
      whole
        ? { x: undefined, y: undefined, w: undefined, h: undefined, c: root(all).get('c'), r: root(all).get('r') }
        : {
            x: '0',
            y: String(rows.y),
            w: '64',
            h: String(rows.height),
            c: exact ? undefined : '8',
            r: exact ? undefined : String(shown.rows),
          },
    );
    expect(part.filter((a) => a.keys.get('a') === 'f')).toHaveLength(2);
  });
});
