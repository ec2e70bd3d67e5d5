import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/context.js';
import { runShowWith } from '../../src/cli/show.js';
import { parseSymbolSets } from '../../src/cli/show-plan.js';
import { paintSymbols } from '../../src/render/text/symbols-paint.js';
import { context, report, scratchDir, screenAfter, writePng } from './show-support.js';

let picture = '';
beforeAll(() => {
  picture = writePng(scratchDir(), 'noise.png', 120, 80, 3);
});

describe('--symbols', () => {
  it.each([
    { name: 'absent', text: undefined, sets: undefined },
    { name: 'one set', text: 'sextant', sets: ['sextant'] },
    { name: 'a list, spaces and case ignored', text: ' Block , SEXTANT', sets: ['block', 'sextant'] },
    { name: 'a trailing comma', text: 'octant,', sets: ['octant'] },
  ])('$name', ({ text, sets }) => {
    expect(parseSymbolSets(text)).toEqual(sets);
  });

  it.each([
    { name: 'unknown name', text: 'blocks' },
    { name: 'empty', text: '' },
    { name: 'only commas', text: ',,' },
  ])('refuses $name', ({ text }) => {
    expect(() => parseSymbolSets(text)).toThrow(UsageError);
    expect(() => parseSymbolSets(text)).toThrow(/half, quadrant, eighths, block, sextant, octant, braille, all/);
  });
});

describe('show --protocol symbols', () => {
  it.each([
    {
      name: 'default: block elements only',
      args: [],
      has: /[\u2580-\u259f]/,
      hasNot: /[\u{1fb00}-\u{1fb3b}\u{1cd00}-\u{1cde5}\u2800-\u28ff]/u,
    },
    {
      name: '--symbols sextant: sextants',
      args: ['--symbols', 'sextant'],
      has: /[\u{1fb00}-\u{1fb3b}]/u,
      hasNot: /[\u2580\u2584]/,
    },
  ])('$name', async ({ args, has, hasNot }) => {
    const { ctx, stdout } = context();
    expect(
      await runShowWith([picture, '--protocol', 'symbols', '--width', '30', ...args], ctx, { report: report() }),
    ).toBe(0);
    expect(stdout.text).toMatch(has);
    expect(stdout.text).not.toMatch(hasNot);
    const screen = await screenAfter(stdout.text, 'AFTER');
    expect(screen).toMatch(/^AFTER/m);
  });

  it('a bad --symbols is a usage error before anything is drawn', async () => {
    const { ctx, stdout } = context();
    await expect(
      runShowWith([picture, '--protocol', 'symbols', '--symbols', 'emoji'], ctx, { report: report() }),
    ).rejects.toThrow(UsageError);
    expect(stdout.text).toBe('');
  });
});

describe('show: the size of a text picture (docs/render.md, "Size in cells")', () => {
  let photo = '';
  let icon = '';
  beforeAll(() => {
    const dir = scratchDir();
    photo = writePng(dir, 'photo.png', 451, 300, 5);
    icon = writePng(dir, 'icon.png', 70, 46, 6);
  });

  // The terminal is 80x24 (COLUMNS/LINES), so the box is 80x22; cells are 10x20.
  it.each([
    { name: 'a 451-pixel photo, --width 80: 80 columns', file: 'photo', args: ['--width', '80'], cells: [80, 27] },
    { name: 'the same without a size: fitted to the rows', file: 'photo', args: [], cells: [66, 22] },
    { name: '--width 50%: 40 columns', file: 'photo', args: ['--width', '50%'], cells: [40, 13] },
    { name: '--height 10: 10 rows', file: 'photo', args: ['--height', '10'], cells: [30, 10] },
    { name: 'a 70x46 icon: one quadrant a pixel', file: 'icon', args: [], cells: [35, 12] },
    { name: 'the icon, --width 60: 60 columns', file: 'icon', args: ['--width', '60'], cells: [60, 20] },
    {
      name: 'the icon as blocks (asked for by name), --width 60: 60 columns',
      file: 'icon',
      args: ['--protocol', 'blocks', '--width', '60'],
      cells: [60, 20],
    },
    {
      name: 'the icon as blocks without a size: its own size',
      file: 'icon',
      args: ['--protocol', 'blocks'],
      cells: [7, 3],
    },
  ])('$name', async ({ file, args, cells }) => {
    const { ctx, stdout } = context({ env: { COLUMNS: '80', LINES: '24' } });
    const path = file === 'photo' ? photo : icon;
    const asked = args.includes('--protocol') ? args : ['--protocol', 'symbols', ...args];
    expect(await runShowWith([path, ...asked], ctx, { report: report() })).toBe(0);
    const painted = paintSymbols(stdout.text);
    expect(painted.unknown).toBe(0);
    expect([painted.columns, painted.rows]).toEqual(cells);
  });

  it('a pixel picture is not enlarged by --width (kitty sends the 451 pixels)', async () => {
    const { ctx, stdout } = context({ env: { COLUMNS: '80', LINES: '24' } });
    expect(
      await runShowWith([photo, '--protocol', 'kitty', '--width', '80'], ctx, {
        report: report({ graphics: 'kitty' }),
      }),
    ).toBe(0);
    expect(stdout.text).toMatch(/\x1b_G[^;]*\bs=451,/);
  });
});
