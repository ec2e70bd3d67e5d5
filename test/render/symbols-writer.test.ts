import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SGR_RESET } from '../../src/render/text/color.js';
import type { Shape } from '../../src/render/text/symbols-fit.js';
import { compilePlan } from '../../src/render/text/symbols-fit.js';
import { SYMBOL_SETS } from '../../src/render/text/symbols-glyphs.js';
import type { SymbolColorDepth } from '../../src/render/text/symbols-palette.js';
import { backgroundParams, foregroundParams } from '../../src/render/text/symbols-palette.js';
import { SymbolLineWriter } from '../../src/render/text/symbols-writer.js';

/**
 * The writer's rules as plain string building (the writer before it wrote code units): the
 * model the buffered writer must match character for character.
 */
function modelLine(depth: SymbolColorDepth, cells: readonly Cell[]): string {
  let text = '';
  let fg = -1;
  let bg = -1;
  const put = (char: string, f: number, b: number): void => {
    if (f !== fg || b !== bg) {
      let params = f !== fg ? foregroundParams(f, depth) : '';
      if (b !== bg) params += `${params ? ';' : ''}${backgroundParams(b, depth)}`;
      text += `\x1b[${params}m`;
      fg = f;
      bg = b;
    }
    text += char;
  };
  for (const c of cells) {
    if (c.shape === null) {
      if (bg !== -1) {
        text += '\x1b[49m';
        bg = -1;
      }
      text += ' ';
      continue;
    }
    const { shape, inside, outside } = c;
    if (shape.count === 0 || inside === outside) {
      if (bg === outside || fg !== outside) put(' ', fg, outside);
      else put('\u2588', outside, bg);
      continue;
    }
    const { glyph, inverse } = shape;
    if (glyph !== null && inverse !== null) {
      const direct = (fg !== inside ? 1 : 0) + (bg !== outside ? 1 : 0);
      const swapped = (fg !== outside ? 1 : 0) + (bg !== inside ? 1 : 0);
      if (swapped < direct) put(inverse, outside, inside);
      else put(glyph, inside, outside);
    } else if (glyph !== null) put(glyph, inside, outside);
    else if (inverse !== null) put(inverse, outside, inside);
  }
  return fg !== -1 || bg !== -1 ? text + SGR_RESET : text;
}

interface Cell {
  readonly shape: Shape | null;
  readonly inside: number;
  readonly outside: number;
}

// Shapes with both glyphs, one glyph, astral glyphs (sextants, octants) and the uniform cell.
const SHAPES: readonly Shape[] = [
  ...compilePlan(SYMBOL_SETS.block).shapes,
  ...compilePlan(SYMBOL_SETS.sextant).shapes,
  ...compilePlan(SYMBOL_SETS.octant).shapes.slice(0, 40),
];

const KEY_LIMIT: Record<SymbolColorDepth, number> = { truecolor: 0xffffff, '256': 255, '16': 15 };

function cellsFor(depth: SymbolColorDepth, max: number) {
  // Few distinct colours, so that colours repeat and the writer's choices matter.
  const key = fc.oneof(fc.constantFrom(0, 7, KEY_LIMIT[depth]), fc.integer({ min: 0, max: KEY_LIMIT[depth] }));
  const cell = fc.oneof(
    { weight: 1, arbitrary: fc.constant({ shape: null, inside: 0, outside: 0 }) },
    {
      weight: 9,
      arbitrary: fc.record({ shape: fc.constantFrom(...SHAPES), inside: key, outside: key }),
    },
  );
  return fc.array(cell, { maxLength: max });
}

function written(depth: SymbolColorDepth, cells: readonly Cell[], writer = new SymbolLineWriter(depth)): string {
  for (const c of cells) {
    if (c.shape === null) writer.transparent();
    else writer.cell(c.shape, c.inside, c.outside);
  }
  return writer.end();
}

describe('SymbolLineWriter', () => {
  it.each([
    { name: '24-bit', depth: 'truecolor' as const },
    { name: '256 colours', depth: '256' as const },
    { name: '16 colours', depth: '16' as const },
  ])('$name: the same text as the string model, for any cells', ({ depth }) => {
    fc.assert(
      fc.property(cellsFor(depth, 60), (cells) => {
        expect(written(depth, cells)).toBe(modelLine(depth, cells));
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    { name: '24-bit', depth: 'truecolor' as const },
    { name: '16 colours', depth: '16' as const },
  ])('$name: a line far longer than the first buffer, then a short one from the same writer', ({ depth }) => {
    const long: Cell[] = Array.from({ length: 3000 }, (_, i) => ({
      shape: SHAPES[1 + (i % 19)],
      inside: (i * 7919) % (KEY_LIMIT[depth] + 1),
      outside: (i * 104729) % (KEY_LIMIT[depth] + 1),
    }));
    const writer = new SymbolLineWriter(depth);
    expect(written(depth, long, writer)).toBe(modelLine(depth, long));
    expect(written(depth, long.slice(0, 3), writer)).toBe(modelLine(depth, long.slice(0, 3)));
  });

  it.each([
    {
      name: 'bright foreground and background at 16 colours',
      depth: '16' as const,
      inside: 9,
      outside: 12,
      want: '\x1b[91;104m',
    },
    { name: 'dark ones', depth: '16' as const, inside: 1, outside: 4, want: '\x1b[31;44m' },
    { name: '256 colours', depth: '256' as const, inside: 196, outside: 21, want: '\x1b[38;5;196;48;5;21m' },
    {
      name: '24-bit',
      depth: 'truecolor' as const,
      inside: 0xff0a00,
      outside: 0x000064,
      want: '\x1b[38;2;255;10;0;48;2;0;0;100m',
    },
  ])('$name: $want', ({ depth, inside, outside, want }) => {
    const lower = SHAPES.find((s) => s.glyph === '\u2584') as Shape;
    expect(written(depth, [{ shape: lower, inside, outside }])).toBe(`${want}\u2584${SGR_RESET}`);
  });

  it('an empty line and a line of transparent cells carry no SGR', () => {
    expect(written('truecolor', [])).toBe('');
    const none: Cell = { shape: null, inside: 0, outside: 0 };
    expect(written('truecolor', [none, none])).toBe('  ');
  });
});
