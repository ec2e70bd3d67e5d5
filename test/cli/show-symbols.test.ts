import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/context.js';
import { runShowWith } from '../../src/cli/show.js';
import { parseSymbolSets } from '../../src/cli/show-plan.js';
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
