/**
 * `show`'s size and layout flags: the values they take (tables), the bad values (one line, exit
 * 2), the box they make, the grid with hostile file names, and who plays an animation.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { GRID_GAP, gridCell, gridName, gridRow } from '../../src/cli/show-grid.js';
import { drawLength, type Length, lengthInCells, parseGrid, parseLength } from '../../src/cli/show-size.js';
import type { Raster } from '../../src/core/raster.js';
import { hasBidiControls, hasControls } from '../../src/core/sanitize.js';
import { planDrawing, playedBy } from '../../src/draw/plan.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Env } from '../../src/env/runtime.js';
import { renderedCells } from '../../src/render/backend.js';
import type { Report } from '../../src/report/types.js';
import { randomRaster } from '../render/terminal-decoders.js';
import { context, report, scratchDir, writePng } from './show-support.js';

/** `show`'s box: the plan's, with show's request fields. */
function pictureBox(input: {
  terminal: { columns: number; rows: number };
  env: Env;
  cellPixels: { width: number; height: number };
  width?: Length | undefined;
  height?: Length | undefined;
}) {
  const plan = planDrawing(report({ cellPixels: input.cellPixels }), {
    defaultBox: 'screen',
    terminalSize: input.terminal,
    env: input.env,
    ...(input.width ? { columns: drawLength(input.width) } : {}),
    ...(input.height ? { rows: drawLength(input.height) } : {}),
  });
  return { columns: plan.columns, rows: plan.rows };
}

/** Who plays an animation: the plan's decision for `show` (`wrapUnproven`), then the file's format and size. */
function nativeAnimation(input: { report: Report; protocol: Protocol; format: string; fileBytes: number; env?: Env }) {
  const plan = planDrawing(input.report, {
    protocol: input.protocol,
    animate: true,
    wrapUnproven: true,
    ...(input.env ? { env: input.env } : {}),
  });
  return playedBy(plan, input.format, input.fileBytes);
}

describe('--width and --height: cells, % of the terminal, pixels', () => {
  it.each([
    { name: 'cells', text: '40', length: { unit: 'cells', value: 40 }, cells: 40 },
    { name: 'percent', text: '50%', length: { unit: 'percent', value: 50 }, cells: 60 },
    { name: 'percent rounds to nearest', text: '33%', length: { unit: 'percent', value: 33 }, cells: 40 },
    { name: '100%', text: '100%', length: { unit: 'percent', value: 100 }, cells: 120 },
    {
      name: 'pixels, rounded down to whole 9 px cells',
      text: '400px',
      length: { unit: 'pixels', value: 400 },
      cells: 44,
    },
    { name: 'pixels smaller than a cell: one cell', text: '3px', length: { unit: 'pixels', value: 3 }, cells: 1 },
  ] as const)('$name: $text', ({ text, length, cells }) => {
    const parsed = parseLength('--width', text);
    expect(parsed).toEqual(length);
    expect(lengthInCells(length, 120, 9)).toBe(cells);
  });

  it.each([
    { name: 'width in % and height in px', width: '50%', height: '100px', box: { columns: 50, rows: 5 } },
    { name: 'height in % of the whole terminal', width: undefined, height: '50%', box: { columns: 100, rows: 20 } },
    { name: 'width in px', width: '95px', height: undefined, box: { columns: 9, rows: 38 } },
  ])('pictureBox: $name', ({ width, height, box }) => {
    const input = {
      terminal: { columns: 100, rows: 40 },
      env: {},
      cellPixels: { width: 10, height: 20 },
      ...(width ? { width: parseLength('--width', width) } : {}),
      ...(height ? { height: parseLength('--height', height) } : {}),
    };
    expect(pictureBox(input)).toEqual(box);
  });
});

const LENGTH = (flag: string, unit: string) =>
  `${flag} must be a whole number of ${unit} from 1 to 10000, a percentage of the terminal from 1% to 100%, or pixels from 1px to 10000000px`;
const show = (...flags: string[]) => ['show', '--no-probe', ...flags, 'x.png'];

const BAD: { name: string; args: string[]; message: string }[] = [
  { name: '--width 0%', args: show('--width', '0%'), message: `${LENGTH('--width', 'cells')}, got 0%` },
  { name: '--width 101%', args: show('--width', '101%'), message: `${LENGTH('--width', 'cells')}, got 101%` },
  { name: '--width 50.5%', args: show('--width', '50.5%'), message: `${LENGTH('--width', 'cells')}, got 50.5%` },
  { name: '--width 0px', args: show('--width', '0px'), message: `${LENGTH('--width', 'cells')}, got 0px` },
  { name: '--width -4px', args: show('--width', '-4px'), message: `${LENGTH('--width', 'cells')}, got -4px` },
  { name: '--width 4 px', args: show('--width', '4 px'), message: `${LENGTH('--width', 'cells')}, got "4 px"` },
  { name: '--width 4PX', args: show('--width', '4PX'), message: `${LENGTH('--width', 'cells')}, got 4PX` },
  {
    name: '--width 1e9px',
    args: show('--width', '99999999px'),
    message: `${LENGTH('--width', 'cells')}, got 99999999px`,
  },
  { name: '--width 10001', args: show('--width', '10001'), message: `${LENGTH('--width', 'cells')}, got 10001` },
  { name: '--height 50em', args: show('--height', '50em'), message: `${LENGTH('--height', 'rows')}, got 50em` },
  {
    name: '--fit stretch',
    args: show('--fit', 'stretch'),
    message: '--fit must be one of contain, cover, fill, got stretch',
  },
  { name: '--fit empty', args: show('--fit', ''), message: '--fit must be one of contain, cover, fill, got ""' },
  {
    name: '--fit missing',
    args: ['show', 'x.png', '--fit'],
    message: '--fit needs a value: one of contain, cover, fill',
  },
  {
    name: '--align middle',
    args: show('--align', 'middle'),
    message: '--align must be one of left, center, right, got middle',
  },
  {
    name: '--grid 0x2',
    args: show('--grid', '0x2'),
    message: '--grid must be COLUMNSxROWS of pictures, each from 1 to 100 (such as 4x2), got 0x2',
  },
  {
    name: '--grid 4x',
    args: show('--grid', '4x'),
    message: '--grid must be COLUMNSxROWS of pictures, each from 1 to 100 (such as 4x2), got 4x',
  },
  {
    name: '--grid 101x1',
    args: show('--grid', '101x1'),
    message: '--grid must be COLUMNSxROWS of pictures, each from 1 to 100 (such as 4x2), got 101x1',
  },
  {
    name: '--grid missing',
    args: ['show', 'x.png', '--grid'],
    message: '--grid needs a value: COLUMNSxROWS of pictures, such as 4x2',
  },
];

describe('bad size and layout values: one line, exit 2', () => {
  it.each(BAD)('$name', async ({ args, message }) => {
    const { ctx, stdout, stderr } = context();
    expect(await runCli(args, ctx)).toBe(2);
    expect(stderr.text).toBe(`termsight: ${message}\n`);
    expect(stdout.text).toBe('');
  });

  it.each([
    { name: 'columns and rows', text: '4x2', grid: { columns: 4, rows: 2 } },
    { name: 'columns alone: one row', text: '3', grid: { columns: 3, rows: 1 } },
    { name: 'a capital X', text: '2X5', grid: { columns: 2, rows: 5 } },
  ])('--grid $text: $name', ({ text, grid }) => {
    expect(parseGrid(text)).toEqual(grid);
  });
});

describe('grid', () => {
  const HOSTILE = [
    'evil\x1b]0;pwned\x07.png',
    'bidi\u202egnp.exe',
    'line\nbreak\r.png',
    'c1\u009b31mred.png',
    'zero\u200d\u200bwidth.png',
    '写真写真写真写真.png',
    'dir/with/a-rather-long-name.png',
    '-',
  ];
  it.each(HOSTILE.map((name) => ({ name })))('name $name: safe and within the cell', ({ name }) => {
    for (const width of [1, 5, 12, 40]) {
      const { text, columns } = gridName(name, width);
      expect(hasControls(text)).toBe(false);
      expect(hasBidiControls(text)).toBe(false);
      expect(/[\u200b-\u200d]/.test(text)).toBe(false);
      expect(columns).toBeLessThanOrEqual(width);
    }
  });
  it.each([
    { name: 'a-rather-long-name.png', width: 10, text: 'a-rather-…' },
    { name: 'dir/short.png', width: 10, text: 'short.png' },
    { name: '写真写真.png', width: 7, text: '写真写…' },
    { name: '-', width: 10, text: '(stdin)' },
  ])('$name in $width columns: $text', ({ name, width, text }) => {
    expect(gridName(name, width).text).toBe(text);
  });

  it('shares the box out: columns with gaps, a row for each name', () => {
    expect(gridCell({ columns: 4, rows: 2 }, { columns: 83, rows: 30 })).toEqual({ columns: 20, rows: 14 });
    expect(GRID_GAP).toBe(1);
  });

  it('text thumbnails side by side, names under them, nothing unsafe, every line within the box', () => {
    const pictures = HOSTILE.slice(0, 3).map((name, i) => ({ name, raster: randomRaster(40, 30, i + 1, true) }));
    const options = { colorDepth: '256' as const, upscale: true };
    const out = gridRow(pictures, 'blocks', options, { columns: 3, rows: 1 }, { columns: 38, rows: 8 });
    // Cells of 12 columns x 7 rows (8 less one for the names).
    const { rows } = renderedCells(pictures[0]?.raster as Raster, 'blocks', { ...options, columns: 12, rows: 7 });
    const lines = out.split('\n').slice(0, -1);
    const plain = lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ''));
    for (const l of plain) expect(Array.from(l).length).toBeLessThanOrEqual(38);
    expect(plain.at(-1)).toMatch(/^evil\]0;pwne… +bidignp\.exe +linebreak\.p…$/);
    for (const l of plain) expect(hasControls(l)).toBe(false);
    expect(rows).toBeGreaterThan(2);
    expect(plain).toHaveLength(rows + 1);
  });

  it('pixel thumbnails are placed by cursor moves, each at its column', () => {
    // 100x100 px in cells of 10 columns x 3 rows (10x20 px): 6x3 cells, centred 2 columns in.
    const pictures = [0, 1, 2].map((i) => ({ name: `p${i}.png`, raster: randomRaster(100, 100, i + 1, true) }));
    const grid = { columns: 3, rows: 1 };
    const out = gridRow(pictures, 'kitty', { cellPixels: { width: 10, height: 20 } }, grid, { columns: 32, rows: 4 });
    expect(out.startsWith('\r\n\n\n\x1b[3A')).toBe(true);
    const at = [...out.matchAll(/\r((?:\x1b\[\d+C)*)\x1b7/g)].map((m) => m[1]);
    expect(at).toEqual(['\x1b[2C', '\x1b[11C\x1b[2C', '\x1b[22C\x1b[2C']);
    expect(out).toContain('\r\x1b[3B');
    expect(out.endsWith('p2.png\r\n')).toBe(true);
  });

  it('the CLI draws a grid of files and reports the bad one', async () => {
    const dir = scratchDir();
    const files = [writePng(dir, 'a.png', 30, 20, 1), `${dir}/missing.png`, writePng(dir, 'b\x1b[2Jc.png', 30, 20, 2)];
    const { ctx, stdout, stderr } = context();
    const code = await runCli(
      ['show', '--no-probe', '--protocol', 'blocks', '--grid', '2x1', '--width', '30', '--height', '6', ...files],
      ctx,
    );
    expect(code).toBe(2);
    expect(stderr.text).toMatch(/missing\.png: no such file/);
    const last = stdout.text.split('\n').at(-2) ?? '';
    expect(last).toMatch(/a\.png .*b\[2Jc\.png/);
    expect(stdout.text).not.toContain('\x1b[2J');
  });
});

describe('who plays an animation', () => {
  const kitty = report({ graphics: 'kitty', terminal: { name: 'kitty', version: '0.26.5' } });
  it.each([
    { name: 'kitty by its reply', rep: kitty, protocol: 'kitty', options: {}, format: 'gif', env: {}, native: 'kitty' },
    {
      name: 'kitty by its environment',
      rep: report({ graphics: 'kitty' }),
      protocol: 'kitty',
      options: {},
      format: 'gif',
      env: { KITTY_WINDOW_ID: '1' },
      native: 'kitty',
    },
    {
      name: 'WezTerm (no animation fact): redrawn',
      rep: report({ graphics: 'kitty', terminal: { name: 'WezTerm', version: '20240203' } }),
      protocol: 'kitty',
      options: {},
      format: 'gif',
      env: {},
      native: null,
    },
    {
      name: 'an unnamed terminal: redrawn',
      rep: report({ graphics: 'kitty' }),
      protocol: 'kitty',
      options: {},
      format: 'gif',
      env: {},
      native: null,
    },
    {
      name: 'kitty through tmux: redrawn',
      rep: report({ ...kitty, multiplexer: { name: 'tmux', version: '3.5a', passthrough: true } }),
      protocol: 'kitty',
      options: {},
      format: 'gif',
      env: {},
      native: null,
    },
    { name: 'kitty asked for sixel', rep: kitty, protocol: 'sixel', options: {}, format: 'gif', env: {}, native: null },
    { name: 'iTerm2, a GIF', rep: report(), protocol: 'iterm2', options: {}, format: 'gif', env: {}, native: 'iterm2' },
    { name: 'iTerm2, an APNG', rep: report(), protocol: 'iterm2', options: {}, format: 'png', env: {}, native: null },
  ] as const)('$name', ({ rep, protocol, format, env, native }) => {
    expect(nativeAnimation({ report: rep, protocol, format, fileBytes: 1000, env })).toBe(native);
  });
  it('iTerm2: a GIF over the size bound is redrawn', () => {
    expect(nativeAnimation({ report: report(), protocol: 'iterm2', format: 'gif', fileBytes: 9 << 20 })).toBe(null);
  });
});
