import { describe, expect, it } from 'vitest';
import { paintSymbols } from '../../src/render/text/symbols-paint.js';

/** The painted picture's cell colours, sampled at the centre of each cell's top and bottom half. */
function halves(text: string, options = {}): string[] {
  const { raster, columns, rows } = paintSymbols(text, options);
  const out: string[] = [];
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      const at = (y: number) => {
        const o = ((cy * 8 + y) * raster.width + cx * 8 + 4) * 4;
        return [...raster.data.slice(o, o + 3)].join(',');
      };
      out.push(`${at(1)}/${at(6)}`);
    }
  }
  return out;
}

describe('paintSymbols', () => {
  it.each([
    { name: '24-bit half block', text: '\x1b[38;2;255;0;0;48;2;0;0;255m\u2580\x1b[0m', cells: ['255,0,0/0,0,255'] },
    { name: 'inverse swaps', text: '\x1b[7;38;2;255;0;0;48;2;0;0;255m\u2580', cells: ['0,0,255/255,0,0'] },
    { name: '256 palette', text: '\x1b[38;5;196;48;5;21m\u2584', cells: ['0,0,255/255,0,0'] },
    { name: '16 colours', text: '\x1b[91;44m\u2580', cells: ['255,0,0/0,0,238'] },
    { name: 'defaults: white on black', text: '\u2580', cells: ['255,255,255/0,0,0'] },
    {
      name: 'REP repeats the last glyph',
      text: '\x1b[38;2;9;9;9m\u2588\x1b[2b',
      cells: ['9,9,9/9,9,9', '9,9,9/9,9,9', '9,9,9/9,9,9'],
    },
    {
      name: 'cursor forward leaves empty cells',
      text: '\x1b[48;2;9;9;9m \x1b[1C ',
      cells: ['9,9,9/9,9,9', '0,0,0/0,0,0', '9,9,9/9,9,9'],
    },
    {
      name: '39/49 back to defaults',
      text: '\x1b[38;2;1;2;3;48;2;4;5;6m\u2580\x1b[39;49m\u2580',
      cells: ['1,2,3/4,5,6', '255,255,255/0,0,0'],
    },
    { name: 'private modes ignored', text: '\x1b[?25l\x1b[48;2;7;7;7m \x1b[0m\x1b[?25h', cells: ['7,7,7/7,7,7'] },
  ])('$name', ({ text, cells }) => {
    expect(halves(text)).toEqual(cells);
  });

  it('counts characters it has no mask for', () => {
    expect(paintSymbols('ab\u2580').unknown).toBe(2);
    expect(paintSymbols('\u2580\u{1fb00}\u{1cd00}\u2801').unknown).toBe(0);
  });

  it('paints at a screen cell size, each pixel from the mask bit under its centre', () => {
    const p = paintSymbols('\x1b[38;2;255;0;0;48;2;0;0;255m\u2581', { cell: { width: 10, height: 20 } });
    expect(p.raster.width).toBe(10);
    expect(p.raster.height).toBe(20);
    // lower one eighth: sub-pixel row 7 covers pixel rows whose centre is at 17.5 or below: 17-19 ink, 16 not
    const px = (y: number) => [...p.raster.data.slice(y * 40, y * 40 + 3)].join(',');
    expect([px(16), px(17), px(19)]).toEqual(['0,0,255', '255,0,0', '255,0,0']);
  });

  it('empty trailing lines are not rows', () => {
    expect(paintSymbols('\u2580\n\u2580\n').rows).toBe(2);
  });
});
