import { describe, expect, it } from 'vitest';
import type { Protocol } from '../../src/env/protocol.js';
import { layout, toTerminal } from '../../src/render/backend.js';
import { flow, frame } from '../../src/render/frame.js';
import { alignOffset, coverCrop, cropRaster } from '../../src/render/geometry/fit.js';
import { resize } from '../../src/render/geometry/resize.js';
import { decodeKittyTransmission, parseKittyApcs, randomRaster } from './terminal-decoders.js';

const CELL = { width: 10, height: 20 };

describe('coverCrop: the middle part with the box shape', () => {
  it.each([
    {
      name: 'wide source, square box',
      source: { width: 200, height: 100 },
      box: { width: 100, height: 100 },
      crop: { x: 50, y: 0, width: 100, height: 100 },
    },
    {
      name: 'tall source, wide box',
      source: { width: 100, height: 300 },
      box: { width: 200, height: 100 },
      crop: { x: 0, y: 125, width: 100, height: 50 },
    },
    {
      name: 'same shape: everything',
      source: { width: 64, height: 48 },
      box: { width: 640, height: 480 },
      crop: { x: 0, y: 0, width: 64, height: 48 },
    },
    {
      name: 'odd spare: the extra pixel on the right',
      source: { width: 101, height: 50 },
      box: { width: 50, height: 50 },
      crop: { x: 25, y: 0, width: 50, height: 50 },
    },
    {
      name: 'a thin box keeps at least one pixel',
      source: { width: 10, height: 1000 },
      box: { width: 1000, height: 1 },
      crop: { x: 0, y: 499, width: 10, height: 1 },
    },
  ])('$name', ({ source, box, crop }) => {
    expect(coverCrop(source, source, box)).toEqual(crop);
  });

  it('measures the shape on screen, not in pixels (braille dots are not square)', () => {
    // 100x100 source pixels on 10x20 cells are 20x20 braille dots a... measured 20 wide, 20 tall:
    // a box of 40x20 dots (20 cells x 5 rows, twice as wide as tall on screen) keeps the middle half rows.
    const source = { width: 100, height: 100 };
    const measured = { width: 20, height: 20 };
    expect(coverCrop(source, measured, { width: 40, height: 20 })).toEqual({ x: 0, y: 25, width: 100, height: 50 });
  });
});

describe('alignOffset', () => {
  it.each([
    { name: 'left', columns: 30, box: 80, align: 'left' as const, offset: 0 },
    { name: 'center', columns: 30, box: 80, align: 'center' as const, offset: 25 },
    { name: 'center, odd spare rounds down', columns: 31, box: 80, align: 'center' as const, offset: 24 },
    { name: 'right', columns: 30, box: 80, align: 'right' as const, offset: 50 },
    { name: 'full width', columns: 80, box: 80, align: 'right' as const, offset: 0 },
    { name: 'no box', columns: 30, box: undefined, align: 'right' as const, offset: 0 },
  ])('$name', ({ columns, box, align, offset }) => {
    expect(alignOffset(columns, box, align)).toBe(offset);
  });
});

describe('layout with fit modes', () => {
  const wide = { width: 1000, height: 500 };
  it.each([
    {
      name: 'contain (default) keeps the aspect inside',
      protocol: 'kitty' as Protocol,
      options: { columns: 40, rows: 40 },
      units: { width: 400, height: 200 },
      cells: [40, 10],
      crop: undefined,
    },
    {
      name: 'fill stretches to the box',
      protocol: 'kitty' as Protocol,
      options: { columns: 40, rows: 40, fit: 'fill' as const },
      units: { width: 400, height: 800 },
      cells: [40, 40],
      crop: undefined,
    },
    {
      name: 'cover fills the box from the middle',
      protocol: 'kitty' as Protocol,
      options: { columns: 40, rows: 40, fit: 'cover' as const },
      units: { width: 400, height: 800 },
      cells: [40, 40],
      crop: { x: 375, y: 0, width: 250, height: 500 },
    },
    {
      name: 'cover enlarges a small source',
      protocol: 'kitty' as Protocol,
      options: { columns: 100, rows: 10, fit: 'cover' as const },
      units: { width: 1000, height: 200 },
      cells: [100, 10],
      crop: { x: 0, y: 150, width: 1000, height: 200 },
    },
    {
      name: 'cover in braille dots',
      protocol: 'braille' as Protocol,
      options: { columns: 20, rows: 10, fit: 'cover' as const },
      units: { width: 40, height: 40 },
      cells: [20, 10],
      crop: { x: 250, y: 0, width: 500, height: 500 },
    },
    {
      name: 'fill in symbols: whole cells of 8x8',
      protocol: 'symbols' as Protocol,
      options: { columns: 7, rows: 3, fit: 'fill' as const },
      units: { width: 56, height: 24 },
      cells: [7, 3],
      crop: undefined,
    },
    {
      name: 'cover without rows is contain',
      protocol: 'kitty' as Protocol,
      options: { columns: 40, fit: 'cover' as const },
      units: { width: 400, height: 200 },
      cells: [40, 10],
      crop: undefined,
    },
  ])('$name', ({ protocol, options, units, cells, crop }) => {
    const l = layout(wide, protocol, { ...options, cellPixels: CELL });
    expect(l.units).toEqual(units);
    expect([l.columns, l.rows]).toEqual(cells);
    expect(l.crop).toEqual(crop);
  });

  it('cover draws exactly the cropped middle, resampled', () => {
    const source = randomRaster(60, 20, 7, true);
    const options = { columns: 2, rows: 2, fit: 'cover' as const, cellPixels: CELL, imageId: 5 };
    const l = layout(source, 'kitty', options);
    const d = decodeKittyTransmission(parseKittyApcs(toTerminal(source, 'kitty', options)));
    const expected = resize(cropRaster(source, l.crop ?? { x: 0, y: 0, width: 60, height: 20 }), 20, 40);
    expect(l.crop).toEqual({ x: 25, y: 0, width: 10, height: 20 });
    expect(Buffer.from(d.raster.data).equals(Buffer.from(expected.data))).toBe(true);
  });
});

describe('cropRaster', () => {
  it('copies the rectangle row by row', () => {
    const r = { width: 3, height: 2, data: Uint8Array.from({ length: 24 }, (_, i) => i) };
    expect(Array.from(cropRaster(r, { x: 1, y: 1, width: 2, height: 1 }).data)).toEqual([
      16, 17, 18, 19, 20, 21, 22, 23,
    ]);
  });
  it('refuses a rectangle outside the picture', () => {
    const r = { width: 3, height: 2, data: new Uint8Array(24) };
    expect(() => cropRaster(r, { x: 2, y: 0, width: 2, height: 1 })).toThrow(RangeError);
  });
});

describe('align', () => {
  const source = randomRaster(100, 40, 3, true);
  const box = { columns: 30, rows: 10, cellPixels: CELL };
  it.each([
    { name: 'left', align: 'left' as const, offset: 0 },
    { name: 'center', align: 'center' as const, offset: 10 },
    { name: 'right', align: 'right' as const, offset: 20 },
  ])('$name: pixel pictures move right first; text lines are indented', ({ align, offset }) => {
    // 100x40 px in 10x20 cells: 10 columns, 2 rows, in a box of 30 columns.
    const kitty = toTerminal(source, 'kitty', { ...box, align });
    expect(kitty.startsWith(offset > 0 ? `\x1b[${offset}C\x1b_G` : '\x1b_G')).toBe(true);
    const blocks = flow(source, 'blocks', { ...box, align, upscale: false })
      .output.split('\n')
      .slice(0, -1);
    expect(blocks).toHaveLength(2);
    for (const line of blocks) expect(line.startsWith(`${' '.repeat(offset)}\x1b[`)).toBe(true);
  });

  it('frame: the first frame moves to its place; a smaller next frame moves by the difference', () => {
    const first = frame(source, 'sixel', { ...box, align: 'center' });
    expect(first.handle.offset).toBe(10);
    expect(first.output).toContain('\x1b[10C\x1b7');
    const small = randomRaster(50, 20, 4, true); // 5 columns: offset 12, two more than before
    const next = frame(small, 'sixel', { ...box, align: 'center', previous: first.handle });
    expect(next.handle.offset).toBe(12);
    expect(next.output).toMatch(/\x1b\[2C\x1b7/);
    const back = frame(source, 'sixel', { ...box, align: 'center', previous: next.handle });
    expect(back.output).toMatch(/\x1b\[2D\x1b7/);
  });
});
