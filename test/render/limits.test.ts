/**
 * Sizes from a caller are bounded: past the limits an option throws a RangeError naming the
 * limit (before anything is allocated), and a huge box with `upscale` is resampled to at most
 * the pixel budget instead of exhausting the heap (a V8 fatal error no `try` can catch).
 */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { PROTOCOLS } from '../../src/env/protocol.js';
import { layout, toTerminal } from '../../src/render/backend.js';
import { clearFrame, endFrame, type FrameHandle } from '../../src/render/frame.js';
import {
  MAX_CELLS,
  MAX_PIXELS,
  MAX_SIDE,
  MAX_TEXT_CELLS,
  withinPixelBudget,
} from '../../src/render/geometry/limits.js';
import { resize } from '../../src/render/geometry/resize.js';
import { placeholderRows } from '../../src/render/pixels/kitty-placeholder.js';

const tiny: Raster = { width: 2, height: 2, data: new Uint8Array(16).fill(200) };
const handle = (over: Partial<FrameHandle>): FrameHandle => ({
  protocol: 'blocks',
  columns: 4,
  rows: 2,
  placeholders: false,
  multiplexer: null,
  ...over,
});

describe('options past the limits throw a RangeError naming the limit', () => {
  it.each([
    {
      name: 'columns 1e9',
      run: () => toTerminal(tiny, 'kitty', { columns: 1e9, upscale: true }),
      message: 'columns must be at most 10000, got 1000000000',
    },
    {
      name: 'rows 1e9',
      run: () => toTerminal(tiny, 'sixel', { rows: 1e9, upscale: true }),
      message: 'rows must be at most 10000, got 1000000000',
    },
    {
      name: 'columns 10001',
      run: () => toTerminal(tiny, 'braille', { columns: 10_001 }),
      message: 'columns must be at most 10000, got 10001',
    },
    {
      name: 'both 1e9 (blocks)',
      run: () => toTerminal(tiny, 'blocks', { columns: 1e9, rows: 1e9, upscale: true }),
      message: 'columns must be at most 10000',
    },
    {
      name: 'a cell of 1e6 px',
      run: () => toTerminal(tiny, 'iterm2', { cellPixels: { width: 1e6, height: 20 } }),
      message: 'cellPixels must be at most 1000 a side, got 1000000x20',
    },
    {
      name: 'resize to 1e9 wide',
      run: () => resize(tiny, 1e9, 1),
      message: 'resize target must be at most 65535 a side',
    },
    {
      name: 'resize past the pixel budget',
      run: () => resize(tiny, 5000, 5000),
      message: `and ${MAX_PIXELS} pixels, got 5000x5000`,
    },
    { name: 'placeholders for 1e9 columns', run: () => placeholderRows(1, 1e9, 1), message: 'columns must be at most' },
    {
      name: 'clearFrame of a handle with 1e9 rows',
      run: () => clearFrame(handle({ rows: 1e9 })),
      message: 'handle rows must be at most 10000, got 1000000000',
    },
    {
      name: 'endFrame of a handle with 1e9 columns',
      run: () => endFrame(handle({ columns: 1e9 })),
      message: 'handle columns must be at most 10000',
    },
  ])('$name', ({ run, message }) => {
    expect(run).toThrow(RangeError);
    expect(run).toThrow(message);
  });
});

describe('the largest box upscaled stays within the budget', () => {
  it.each(PROTOCOLS.map((protocol) => ({ name: protocol, protocol })))('$name', ({ protocol }) => {
    const lay = layout(tiny, protocol, { columns: MAX_CELLS, rows: MAX_CELLS, upscale: true });
    const units = lay.units.width * lay.units.height;
    const text = protocol === 'braille' || protocol === 'blocks';
    expect(text ? lay.columns * lay.rows : units).toBeLessThanOrEqual(text ? MAX_TEXT_CELLS : MAX_PIXELS);
    expect(Math.max(lay.units.width, lay.units.height)).toBeLessThanOrEqual(MAX_SIDE);
    // Still as large as the budget allows, not shrunk to nothing (the square keeps its shape).
    expect(units).toBeGreaterThan((text ? MAX_TEXT_CELLS : MAX_PIXELS) / 2);
  });

  it('a wide thin box keeps the longest side within MAX_SIDE', () => {
    const strip: Raster = { width: 1000, height: 1, data: new Uint8Array(4000) };
    const lay = layout(strip, 'kitty', { columns: MAX_CELLS, upscale: true });
    expect(lay.units.width).toBeLessThanOrEqual(MAX_SIDE);
    expect(lay.columns).toBeLessThanOrEqual(MAX_CELLS);
  });

  it('toTerminal draws the largest box (braille) without running out of memory', () => {
    const out = toTerminal(tiny, 'braille', { columns: MAX_CELLS, rows: MAX_CELLS, upscale: true, colorDepth: 'none' });
    expect(out.split('\n').length).toBeLessThanOrEqual(MAX_CELLS);
    expect(out.length).toBeGreaterThan(MAX_TEXT_CELLS / 2);
  });

  it.each([
    { name: 'fits already', size: { width: 800, height: 600 }, expected: { width: 800, height: 600 } },
    {
      name: 'square past the budget',
      size: { width: 20_000, height: 20_000 },
      expected: { width: 4096, height: 4096 },
    },
    { name: 'a side past MAX_SIDE', size: { width: 200_000, height: 10 }, expected: { width: 65_535, height: 3 } },
  ])('withinPixelBudget: $name', ({ size, expected }) => {
    expect(withinPixelBudget(size)).toEqual(expected);
  });
});
