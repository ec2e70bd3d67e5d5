import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { jpegScale } from '../../src/decode/jpeg.js';
import type { Protocol } from '../../src/env/protocol.js';
import { decodeBox, fittedRaster, layout } from '../../src/render/backend.js';
import type { RenderOptions } from '../../src/render/options.js';
import { fixture, psnr } from '../decode/jpeg-helpers.js';

describe('decodeBox', () => {
  it.each([
    {
      name: 'sixel: the box in screen pixels, as before',
      protocol: 'sixel' as Protocol,
      options: { columns: 100, rows: 30, cellPixels: { width: 9, height: 18 } },
      expected: { width: 900, height: 540 },
    },
    {
      name: 'blocks without upscale: screen pixels (the size rule measures the source)',
      protocol: 'blocks' as Protocol,
      options: { columns: 100, rows: 30 },
      expected: { width: 1000, height: 600 },
    },
    {
      name: 'blocks --width 100: two pixels a column, the height free (a cell)',
      protocol: 'blocks' as Protocol,
      options: { columns: 100, upscale: true },
      expected: { width: 200, height: 4 },
    },
    {
      name: 'braille --width 100: two dots a column, two pixels a dot',
      protocol: 'braille' as Protocol,
      options: { columns: 100, upscale: true },
      expected: { width: 400, height: 8 },
    },
    {
      name: 'braille 100x30 boxed: 200x120 dots, twice that in pixels',
      protocol: 'braille' as Protocol,
      options: { columns: 100, rows: 30, upscale: true },
      expected: { width: 400, height: 240 },
    },
    {
      name: 'symbols --width 100, 10x20 cells: 800 across, denser than down',
      protocol: 'symbols' as Protocol,
      options: { columns: 100, upscale: true },
      expected: { width: 1600, height: 32 },
    },
    {
      name: 'symbols 100x30 boxed, 10x20 cells: the height asks twice its units',
      protocol: 'symbols' as Protocol,
      options: { columns: 100, rows: 30, upscale: true },
      expected: { width: 1600, height: 960 },
    },
    {
      name: 'blocks --height 30 in 8x20 cells: the width denser, the height asks for more',
      protocol: 'blocks' as Protocol,
      options: { rows: 30, upscale: true, cellPixels: { width: 8, height: 20 } },
      expected: { width: 2, height: 150 },
    },
    {
      name: 'nothing bounds it: undefined',
      protocol: 'blocks' as Protocol,
      options: { upscale: true },
      expected: undefined,
    },
  ])('$name', ({ protocol, options, expected }) => {
    expect(decodeBox(protocol, options)).toEqual(expected);
  });

  // Whatever the source and the box, a picture decoded smaller because of the box still has at
  // least one pixel for every unit the layout resamples it to, on both axes.
  it('a source shrunk to the box still covers what the layout resamples (property)', () => {
    const protocols: Protocol[] = ['blocks', 'braille', 'symbols', 'sixel', 'kitty'];
    fc.assert(
      fc.property(
        fc.constantFrom(...protocols),
        fc.integer({ min: 1, max: 6000 }),
        fc.integer({ min: 1, max: 6000 }),
        fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
        fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
        fc.record({ width: fc.integer({ min: 4, max: 30 }), height: fc.integer({ min: 8, max: 40 }) }),
        fc.constantFrom('contain' as const, 'cover' as const, 'fill' as const),
        (protocol, width, height, columns, rows, cellPixels, fit) => {
          const options: RenderOptions = {
            ...(columns !== undefined ? { columns } : {}),
            ...(rows !== undefined ? { rows } : {}),
            cellPixels,
            fit,
            upscale: true,
          };
          const box = decodeBox(protocol, options);
          const d = jpegScale(width, height, box);
          // At full size nothing was lost (upscale may enlarge a small source past its pixels).
          if (d === 1) return;
          const decoded = { width: Math.ceil(width / d), height: Math.ceil(height / d) };
          const lay = layout(decoded, protocol, options);
          const source = lay.crop ?? { width: decoded.width, height: decoded.height };
          // At least a pixel for every unit, within one for rounding (the scaled decode rounds its
          // sides up, the layout its units; text asks for two a unit, the margin for quality
          // that the PSNR rows below hold); a side the full source cannot fill (upscale enlarges
          // it) only as far as the source goes.
          const cropped = lay.crop ? d : 1;
          expect(Math.min(lay.units.width, width / cropped)).toBeLessThanOrEqual(source.width + 1);
          expect(Math.min(lay.units.height, height / cropped)).toBeLessThanOrEqual(source.height + 1);
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('a text picture decoded at the size drawn', () => {
  // Committed photos drawn as text of a given width decode at 1/2..1/8; what the renderer samples
  // must stay what the full decode gives: above 35 dB (one pixel a unit gives 34.5 and 34.8 on the
  // first and fourth rows; a pixel picture decoded at 1/8 for a 160x160 box gives 33.0 on retina).
  it.each([
    {
      name: 'Hubble 1000x872, blocks --width 100',
      file: 'hubble_deep_field.jpg',
      protocol: 'blocks' as Protocol,
      columns: 100,
      scale: 4,
    },
    {
      name: 'Hubble 1000x872, braille --width 100',
      file: 'hubble_deep_field.jpg',
      protocol: 'braille' as Protocol,
      columns: 100,
      scale: 2,
    },
    {
      name: 'Hubble 1000x872, symbols --width 100',
      file: 'hubble_deep_field.jpg',
      protocol: 'symbols' as Protocol,
      columns: 100,
      scale: 1,
    },
    {
      name: 'retina 1411x1411, blocks --width 100',
      file: 'retina.jpg',
      protocol: 'blocks' as Protocol,
      columns: 100,
      scale: 4,
    },
    {
      name: 'retina 1411x1411, blocks --width 40',
      file: 'retina.jpg',
      protocol: 'blocks' as Protocol,
      columns: 40,
      scale: 8,
    },
    {
      name: 'retina 1411x1411, braille --width 40',
      file: 'retina.jpg',
      protocol: 'braille' as Protocol,
      columns: 40,
      scale: 8,
    },
  ])(
    '$name: decoded 1/$scale, what is resampled within 35 dB of the full decode',
    ({ file, protocol, columns, scale }) => {
      const bytes = fixture(file);
      const full = decodeImage(bytes).frames[0]!.raster;
      const options: RenderOptions = { columns, upscale: true };
      const maxSize = decodeBox(protocol, options);
      const small = decodeImage(bytes, maxSize ? { maxSize } : {});
      expect(small.width).toBe(Math.ceil(full.width / scale));
      const ours = fittedRaster(small.frames[0]!.raster, layout(small.frames[0]!.raster, protocol, options));
      const theirs = fittedRaster(full, layout(full, protocol, options));
      expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
      expect(psnr(ours.data, theirs.data)).toBeGreaterThan(35);
    },
  );
});
