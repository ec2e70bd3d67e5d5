import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { PROTOCOLS, type Protocol } from '../../src/env/protocol.js';
import { backend, DEFAULT_CELL_PIXELS, layout, renderedCells, toTerminal } from '../../src/render/backend.js';
import { resize } from '../../src/render/geometry/resize.js';
import { placeholderCell } from '../../src/render/pixels/kitty-placeholder.js';
import {
  decodeKittyTransmission,
  parseIterm2,
  parseKittyApcs,
  pngToRaster,
  randomRaster,
  screenForward,
  solid,
} from './terminal-decoders.js';

const CELL = { width: 10, height: 20 };

describe('layout', () => {
  it.each([
    {
      name: 'kitty, 1000x600 into 50x50 cells: the width decides',
      source: { width: 1000, height: 600 },
      protocol: 'kitty',
      options: { columns: 50, rows: 50 },
      units: { width: 500, height: 300 },
      columns: 50,
      rows: 15,
    },
    {
      name: 'kitty, 1000x600, no box: its own size in cells',
      source: { width: 1000, height: 600 },
      protocol: 'kitty',
      options: {},
      units: { width: 1000, height: 600 },
      columns: 100,
      rows: 30,
    },
    {
      name: 'iterm2, 95x41, no box: a part cell counts as a cell',
      source: { width: 95, height: 41 },
      protocol: 'iterm2',
      options: {},
      units: { width: 95, height: 41 },
      columns: 10,
      rows: 3,
    },
    {
      name: 'sixel, 1000x600 into 80x10 cells: the height decides',
      source: { width: 1000, height: 600 },
      protocol: 'sixel',
      options: { columns: 80, rows: 10 },
      units: { width: 333, height: 200 },
      columns: 34,
      rows: 10,
    },
    {
      name: 'braille, 1000x600 into 50 columns: 2x4 dots a cell',
      source: { width: 1000, height: 600 },
      protocol: 'braille',
      options: { columns: 50 },
      units: { width: 100, height: 60 },
      columns: 50,
      rows: 15,
    },
    {
      name: 'blocks, 1000x600 into 50 columns: 1x2 halves a cell',
      source: { width: 1000, height: 600 },
      protocol: 'blocks',
      options: { columns: 50 },
      units: { width: 50, height: 30 },
      columns: 50,
      rows: 15,
    },
    {
      name: 'braille, 1000x600, no box',
      source: { width: 1000, height: 600 },
      protocol: 'braille',
      options: {},
      units: { width: 200, height: 120 },
      columns: 100,
      rows: 30,
    },
    {
      name: 'blocks, 20x20 into 80x24 cells: not enlarged',
      source: { width: 20, height: 20 },
      protocol: 'blocks',
      options: { columns: 80, rows: 24 },
      units: { width: 2, height: 2 },
      columns: 2,
      rows: 1,
    },
    {
      name: 'blocks, 20x20 into 80x24 cells with upscale: enlarged to fit',
      source: { width: 20, height: 20 },
      protocol: 'blocks',
      options: { columns: 80, rows: 24, upscale: true },
      units: { width: 48, height: 48 },
      columns: 48,
      rows: 24,
    },
    {
      name: 'braille, 1x1: one cell',
      source: { width: 1, height: 1 },
      protocol: 'braille',
      options: {},
      units: { width: 1, height: 1 },
      columns: 1,
      rows: 1,
    },
    {
      name: 'kitty, 1x1 into 4x4 cells with upscale',
      source: { width: 1, height: 1 },
      protocol: 'kitty',
      options: { columns: 4, rows: 4, upscale: true },
      units: { width: 40, height: 40 },
      columns: 4,
      rows: 2,
    },
    // a cell of 8x16: same shape, smaller
    {
      name: 'kitty, 800x800 into 50x25 cells of 8x16 pixels',
      source: { width: 800, height: 800 },
      protocol: 'kitty',
      options: { columns: 50, rows: 25, cellPixels: { width: 8, height: 16 } },
      units: { width: 400, height: 400 },
      columns: 50,
      rows: 25,
    },
    // a wide cell (12x12): braille dots become 6x3 pixels, so fewer dot rows for a square picture
    {
      name: 'braille, 120x120 with a 12x12 cell',
      source: { width: 120, height: 120 },
      protocol: 'braille',
      options: { cellPixels: { width: 12, height: 12 } },
      units: { width: 20, height: 40 },
      columns: 10,
      rows: 10,
    },
    // Unicode placeholders cannot address more than 297 cells
    {
      name: 'kitty in tmux, 10000x100: at most 297 columns of placeholders',
      source: { width: 10000, height: 100 },
      protocol: 'kitty',
      options: { multiplexer: 'tmux' },
      units: { width: 2970, height: 30 },
      columns: 297,
      rows: 2,
    },
  ] as const)('$name', ({ source, protocol, options, units, columns, rows }) => {
    const l = layout(source, protocol as Protocol, options);
    expect(l).toEqual({ units, columns, rows });
    expect(renderedCells(source, protocol as Protocol, options)).toEqual({ columns, rows });
  });

  it('defaults to 10x20 cells', () => {
    expect(DEFAULT_CELL_PIXELS).toEqual(CELL);
  });

  it.each([
    { name: 'zero columns', options: { columns: 0 } },
    { name: 'negative rows', options: { rows: -1 } },
    { name: 'a fraction of a column', options: { columns: 1.5 } },
    { name: 'a cell zero pixels wide', options: { cellPixels: { width: 0, height: 10 } } },
  ])('rejects $name', ({ options }) => {
    expect(() => layout({ width: 10, height: 10 }, 'kitty', options)).toThrow(RangeError);
  });
});

describe('toTerminal decodes back to the resized source', () => {
  const source = randomRaster(123, 77, 42);
  const opts = { columns: 6, rows: 3, cellPixels: CELL };

  // With the cell size known the picture goes 1:1 (its pixels, no cell counts to scale to); with
  // `exactPixels: false`, or the cell size unknown, the terminal scales it to its cells.
  it.each([
    { name: 'cell known: 1:1', extra: {}, cells: false },
    { name: 'cell known, exactPixels false: cells', extra: { exactPixels: false }, cells: true },
    { name: 'cell unknown: cells', extra: { cellPixels: undefined }, cells: true },
    { name: 'cell unknown, exactPixels true: 1:1', extra: { cellPixels: undefined, exactPixels: true }, cells: false },
  ])('kitty, $name', ({ extra, cells }) => {
    const o = { ...opts, ...extra };
    const l = layout(source, 'kitty', o);
    const d = decodeKittyTransmission(parseKittyApcs(toTerminal(source, 'kitty', { ...o, imageId: 3 })));
    expect(d.keys.get('c')).toBe(cells ? String(l.columns) : undefined);
    expect(d.keys.get('r')).toBe(cells ? String(l.rows) : undefined);
    expect(d.keys.get('s')).toBe(String(l.units.width));
    expect(d.keys.get('v')).toBe(String(l.units.height));
    expect(d.keys.get('i')).toBe('3');
    expect(Buffer.from(d.raster.data).equals(Buffer.from(resize(source, l.units.width, l.units.height).data))).toBe(
      true,
    );
  });

  it('kitty with keepCursor sends C=1', () => {
    const d = decodeKittyTransmission(parseKittyApcs(toTerminal(source, 'kitty', { ...opts, keepCursor: true })));
    expect(d.keys.get('C')).toBe('1');
  });

  it.each([
    { name: 'cell known: 1:1 in pixels', extra: {}, cells: false },
    { name: 'cell known, exactPixels false: cells', extra: { exactPixels: false }, cells: true },
    { name: 'cell unknown: cells', extra: { cellPixels: undefined }, cells: true },
  ])('iterm2, $name', ({ extra, cells }) => {
    const o = { ...opts, ...extra };
    const l = layout(source, 'iterm2', o);
    const [seq] = parseIterm2(toTerminal(source, 'iterm2', o));
    expect(seq.args.get('width')).toBe(cells ? String(l.columns) : `${l.units.width}px`);
    expect(seq.args.get('height')).toBe(cells ? String(l.rows) : `${l.units.height}px`);
    const back = pngToRaster(Buffer.from(seq.payload, 'base64'));
    expect(Buffer.from(back.data).equals(Buffer.from(resize(source, l.units.width, l.units.height).data))).toBe(true);
  });

  it('sixel is one DCS sequence', () => {
    const out = toTerminal(source, 'sixel', opts);
    expect(out.startsWith('\x1bP')).toBe(true);
    expect(out.endsWith('\x1b\\')).toBe(true);
  });

  it.each([{ name: 'braille' }, { name: 'blocks' }] as const)(
    '$name: as many lines and cells as renderedCells says',
    ({ name: protocol }) => {
      const cells = renderedCells(source, protocol, opts);
      const lines = toTerminal(source, protocol, opts).split('\n');
      expect(lines).toHaveLength(cells.rows);
      for (const line of lines) expect(Array.from(line.replace(/\x1b\[[0-9;]*m/g, ''))).toHaveLength(cells.columns);
    },
  );

  it('tmux: kitty goes through passthrough as a virtual placement with placeholder rows', () => {
    const out = toTerminal(source, 'kitty', { ...opts, multiplexer: 'tmux', imageId: 0x010203 });
    const l = layout(source, 'kitty', { ...opts, multiplexer: 'tmux' });
    const wrapped = out.match(/\x1bPtmux;(?:[^\x1b]|\x1b\x1b)*\x1b\\/g)!;
    const inner = wrapped.map((w) => w.slice(7, -2).replaceAll('\x1b\x1b', '\x1b')).join('');
    const d = decodeKittyTransmission(parseKittyApcs(inner));
    expect(d.keys.get('U')).toBe('1');
    expect(d.keys.get('i')).toBe(String(0x010203));
    const text = out.slice(wrapped.join('').length).split('\n');
    expect(text).toHaveLength(l.rows);
    expect(text[0].startsWith(`\x1b[38;2;1;2;3m${placeholderCell(0, 0)}${placeholderCell(0, 1)}`)).toBe(true);
  });

  it('tmux with 256 colours: a small id in a 256-colour foreground', () => {
    const out = toTerminal(source, 'kitty', { ...opts, multiplexer: 'tmux', colorDepth: '256' });
    const id = Number(/i=(\d+)/.exec(out)![1]);
    expect(id).toBeGreaterThan(0);
    expect(id).toBeLessThan(256);
    expect(out).toContain(`\x1b[38;5;${id}m`);
  });

  it('screen: every sequence in packets that forward the original', () => {
    const plain = toTerminal(source, 'kitty', { ...opts, imageId: 5, keepCursor: true, placeholders: false });
    const wrapped = toTerminal(source, 'kitty', {
      ...opts,
      imageId: 5,
      keepCursor: true,
      placeholders: false,
      multiplexer: 'screen',
    });
    expect(screenForward(wrapped).forwarded).toBe(plain);
    // By default kitty inside screen uses Unicode placeholders, as inside tmux: screen knows nothing of images.
    const byDefault = toTerminal(source, 'kitty', { ...opts, imageId: 5, multiplexer: 'screen' });
    expect(byDefault.startsWith('\x1bP')).toBe(true);
    expect(byDefault).toContain('U=1');
    expect(byDefault).toContain('\u{10EEEE}');
    const it2 = screenForward(toTerminal(source, 'iterm2', { ...opts, multiplexer: 'screen' })).forwarded;
    expect(parseIterm2(it2)[0].kind).toBe('MultipartFile');
  });

  it('rejects an invalid raster with a clear error', () => {
    expect(() => toTerminal({ width: 2, height: 2, data: new Uint8Array(15) }, 'braille')).toThrow(/16/);
  });
});

describe('backend', () => {
  it.each(PROTOCOLS.map((protocol) => ({ name: protocol, protocol })))(
    '$name renders like toTerminal',
    ({ protocol }) => {
      const b = backend(protocol);
      expect(b.protocol).toBe(protocol);
      const r = solid(20, 20, [200, 100, 0, 255]);
      const o = { columns: 2, rows: 1, imageId: 9 };
      expect(b.render(r, o)).toBe(toTerminal(r, protocol, o));
    },
  );
  it.each([
    { name: 'png, a format and not a protocol', bad: 'png' },
    { name: 'an empty string', bad: '' },
    { name: 'KITTY (names are lower case)', bad: 'KITTY' },
    { name: 'null', bad: null },
    { name: 'a number', bad: 3 },
  ])('throws a TypeError naming the protocols for $name', ({ bad }) => {
    expect(() => backend(bad as unknown as Protocol)).toThrow(TypeError);
    expect(() => backend(bad as unknown as Protocol)).toThrow(/kitty, iterm2, sixel, braille, blocks/);
  });
});

describe('the terminal background: what transparent pixels show', () => {
  /** A raster of one colour and alpha, with its right half fully transparent. */
  const halfClear = (rgba: readonly [number, number, number, number]): Raster => {
    const width = 40;
    const height = 40;
    const data = new Uint8Array(width * height * 4);
    for (let y = 0; y < height; y++) for (let x = 0; x < width / 2; x++) data.set(rgba, (y * width + x) * 4);
    return { width, height, data };
  };
  /** The sixel's colour registers as percentages. */
  const registers = (out: string): string[] =>
    [...out.matchAll(/#\d+;2;(\d+);(\d+);(\d+)/g)].map((m) => m.slice(1).join(','));
  const opts = { columns: 4, rows: 2, cellPixels: CELL };

  it.each<{ name: string; background?: readonly [number, number, number]; register: string }>([
    // 128/255 of red over white: 255, 127, 127 -> 100%, 50%, 50%.
    { name: 'half-transparent red on a light terminal', background: [255, 255, 255], register: '100,50,50' },
    { name: 'half-transparent red on a dark terminal', background: [0, 0, 0], register: '50,0,0' },
    // 128 + 40 x 127/255 = 148 -> 58%; 30 -> 12%; 100 -> 39%.
    { name: 'on a grey-blue terminal', background: [40, 60, 200], register: '58,12,39' },
    { name: 'background unknown: its own colour', register: '100,0,0' },
  ])('sixel: $name', ({ background, register }) => {
    const out = toTerminal(halfClear([255, 0, 0, 128]), 'sixel', { ...opts, ...(background ? { background } : {}) });
    expect(registers(out)).toEqual([register]);
    // The clear half is left unpainted, so the terminal's own background shows there.
    expect(out).toMatch(/\x1bP0;1;0q/);
  });

  it.each<{ name: string; background?: readonly [number, number, number]; registers: string[] }>([
    { name: 'on a light terminal', background: [255, 255, 255], registers: ['100,50,50', '100,100,100'] },
    { name: 'on a dark terminal', background: [0, 0, 0], registers: ['50,0,0', '0,0,0'] },
    { name: 'background unknown: black', registers: ['50,0,0', '0,0,0'] },
  ])(
    'sixel without P2=1 (sixelTransparency: false), $name: the clear half painted',
    ({ background, registers: want }) => {
      const out = toTerminal(halfClear([255, 0, 0, 128]), 'sixel', {
        ...opts,
        sixelTransparency: false,
        ...(background ? { background } : {}),
      });
      expect(registers(out).sort()).toEqual(want.slice().sort());
      expect(out).toMatch(/\x1bP0;0;0q/);
    },
  );

  it.each<{ name: string; background: readonly [number, number, number]; sgr: RegExp }>([
    { name: 'light terminal', background: [255, 255, 255], sgr: /48;2;255;127;127|38;2;255;127;127/ },
    { name: 'dark terminal', background: [0, 0, 0], sgr: /48;2;128;0;0|38;2;128;0;0/ },
  ])(
    "symbols: half-transparent red blends onto the $name; clear cells are the terminal's own",
    ({ background, sgr }) => {
      const out = toTerminal(halfClear([255, 0, 0, 128]), 'symbols', { ...opts, background, upscale: false });
      expect(out).toMatch(sgr);
      // A wholly transparent cell is a space on the default background (SGR 49), never a painted colour.
      const lines = out.split('\n');
      for (const line of lines) expect(line).toMatch(/\x1b\[49m {1,}(\x1b\[0m)?$/);
    },
  );
});
