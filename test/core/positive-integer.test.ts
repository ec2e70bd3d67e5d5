/**
 * One check for every count a caller gives: a whole number from 1 to a limit, or a RangeError
 * naming the value. The property tests compare it with the rule written out; the caller table
 * makes each former copy of the check fail here if it stops using it (or stops checking).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { positiveInteger } from '../../src/core/positive-integer.js';
import { type Raster, validateRaster } from '../../src/core/raster.js';
import { layout } from '../../src/render/backend.js';
import { endFrame } from '../../src/render/frame.js';
import { MAX_CELLS } from '../../src/render/geometry/limits.js';
import { resize } from '../../src/render/geometry/resize.js';
import { encodeIterm2 } from '../../src/render/pixels/iterm2.js';
import { encodeKitty, kittyDelete, kittyPlace } from '../../src/render/pixels/kitty.js';
import { placeholderColor, placeholderRows } from '../../src/render/pixels/kitty-placeholder.js';
import { writeSixel } from '../../src/render/pixels/sixel.js';

const pixel: Raster = { width: 1, height: 1, data: Uint8Array.of(0, 0, 0, 255) };

describe('positiveInteger', () => {
  it.each([
    { name: 'zero', value: 0, message: 'columns must be a positive integer, got 0' },
    { name: 'negative', value: -5, message: 'columns must be a positive integer, got -5' },
    { name: 'a fraction', value: 1.5, message: 'columns must be a positive integer, got 1.5' },
    { name: 'NaN', value: Number.NaN, message: 'columns must be a positive integer, got NaN' },
    { name: 'Infinity', value: Number.POSITIVE_INFINITY, message: 'columns must be a positive integer, got Infinity' },
    { name: 'one past the limit', value: MAX_CELLS + 1, message: 'columns must be at most 10000, got 10001' },
  ])('refuses $name with a RangeError', ({ value, message }) => {
    const run = () => positiveInteger(value, 'columns', MAX_CELLS);
    expect(run).toThrow(RangeError);
    expect(run).toThrow(new RangeError(message));
  });

  it.each([
    { name: 'one', value: 1, max: MAX_CELLS },
    { name: 'the limit itself', value: MAX_CELLS, max: MAX_CELLS },
    { name: 'a large id without a limit', value: 2 ** 40, max: undefined },
  ])('accepts $name', ({ value, max }) => {
    expect(positiveInteger(value, 'columns', max)).toBe(value);
  });

  it('without a limit refuses past the safe integers', () => {
    expect(() => positiveInteger(2 ** 53, 'n')).toThrow(RangeError);
  });

  it('accepts exactly the whole numbers from 1 to max (any double, any max)', () => {
    fc.assert(
      fc.property(fc.double(), fc.integer({ min: 1, max: 2 ** 32 }), (value, max) => {
        const rule = Number.isInteger(value) && value >= 1 && value <= max;
        let threw: unknown = null;
        try {
          expect(positiveInteger(value, 'n', max)).toBe(value);
        } catch (error) {
          threw = error;
        }
        expect(threw === null).toBe(rule);
        if (threw !== null) expect(threw).toBeInstanceOf(RangeError);
      }),
    );
  });

  it('accepts every integer in range (integers, not only doubles)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 0xffffffff }), (value) => {
        expect(positiveInteger(value, 'id', 0xffffffff)).toBe(value);
      }),
    );
  });
});

// Each row is a caller that once had its own copy of the check: the message names the option.
describe('every caller goes through the one check', () => {
  it.each([
    {
      name: 'raster width',
      run: () => validateRaster({ ...pixel, width: 0 }),
      message: 'raster width must be a positive integer, got 0',
    },
    {
      name: 'raster height',
      run: () => validateRaster({ ...pixel, height: 1.5 }),
      message: 'raster height must be a positive integer, got 1.5',
    },
    {
      name: 'layout columns',
      run: () => layout({ width: 10, height: 10 }, 'kitty', { columns: 0 }),
      message: 'columns must be a positive integer, got 0',
    },
    {
      name: 'layout rows',
      run: () => layout({ width: 10, height: 10 }, 'kitty', { rows: -1 }),
      message: 'rows must be a positive integer, got -1',
    },
    {
      name: 'resize width',
      run: () => resize(pixel, 0, 1),
      message: 'resize target width must be a positive integer, got 0',
    },
    {
      name: 'resize height',
      run: () => resize(pixel, 1, Number.NaN),
      message: 'resize target height must be a positive integer, got NaN',
    },
    {
      name: 'kitty image id 0',
      run: () => kittyDelete(0),
      message: 'kitty image id must be a positive integer, got 0',
    },
    {
      name: 'kitty image id past 32 bits',
      run: () => kittyPlace(2 ** 32),
      message: 'kitty image id must be at most 4294967295, got 4294967296',
    },
    {
      name: 'kitty placement id',
      run: () => kittyPlace(1, { placementId: 0 }),
      message: 'kitty placement id must be a positive integer, got 0',
    },
    {
      name: 'kitty columns',
      run: () => encodeKitty(pixel, { imageId: 1, columns: 0.5 }),
      message: 'kitty columns must be a positive integer, got 0.5',
    },
    {
      name: 'kitty rows',
      run: () => kittyPlace(1, { rows: -2 }),
      message: 'kitty rows must be a positive integer, got -2',
    },
    {
      name: 'iTerm2 columns',
      run: () => encodeIterm2(pixel, { columns: 0 }),
      message: 'iTerm2 columns must be a positive integer, got 0',
    },
    {
      name: 'iTerm2 rows',
      run: () => encodeIterm2(pixel, { rows: 2.5 }),
      message: 'iTerm2 rows must be a positive integer, got 2.5',
    },
    {
      name: 'sixel width',
      run: () =>
        writeSixel({ width: 0, height: 1, indices: new Uint16Array(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
      message: 'sixel image width must be a positive integer, got 0',
    },
    {
      name: 'sixel height',
      run: () =>
        writeSixel({ width: 1, height: -1, indices: new Uint16Array(0), palette: { size: 1, rgb: new Uint8Array(3) } }),
      message: 'sixel image height must be a positive integer, got -1',
    },
    {
      name: 'placeholder image id',
      run: () => placeholderColor(0),
      message: 'image id must be a positive integer, got 0',
    },
    {
      name: 'placeholder columns',
      run: () => placeholderRows(1, 0, 1),
      message: 'columns must be a positive integer, got 0',
    },
    {
      name: 'frame handle rows',
      run: () => endFrame({ protocol: 'blocks', columns: 4, rows: 0, placeholders: false, multiplexer: null }),
      message: 'handle rows must be a positive integer, got 0',
    },
  ])('$name', ({ run, message }) => {
    expect(run).toThrow(RangeError);
    expect(run).toThrow(new RangeError(message));
  });
});
