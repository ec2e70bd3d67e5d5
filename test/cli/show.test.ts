import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import omggif from 'omggif';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/context.js';
import { MAX_LOOPS, runShowWith } from '../../src/cli/show.js';
import type { Report } from '../../src/report/types.js';
import { runModel } from '../render/cursor-model.js';
import { context, report, scratchDir, screenAfter, writePng } from './show-support.js';

let dir = '';
let good = '';
let good2 = '';
const bad: Record<string, string> = {};

beforeAll(() => {
  dir = scratchDir();
  good = writePng(dir, 'good.png', 40, 30);
  good2 = writePng(dir, 'second.png', 20, 20, 7);
  const bytes = readFileSync(good);
  const write = (name: string, data: Uint8Array | string) => {
    writeFileSync(join(dir, name), data);
    return join(dir, name);
  };
  bad.truncated = write('truncated.png', bytes.subarray(0, Math.floor(bytes.length / 2)));
  const crc = new Uint8Array(bytes);
  crc[Buffer.from(crc).indexOf('IDAT') + 10] ^= 0xff;
  bad.corrupt = write('corrupt.png', crc);
  const huge = new Uint8Array(bytes.subarray(0, 33));
  new DataView(huge.buffer).setUint32(16, 100_000);
  new DataView(huge.buffer).setUint32(20, 100_000);
  bad.huge = write('huge.png', huge);
  bad.text = write('notes.png', 'just some text\n');
  bad.empty = write('empty.png', '');
  bad.missing = join(dir, 'missing.png');
  bad.directory = join(dir, 'a-directory');
  mkdirSync(bad.directory);
});

const graphicsReport = report({ graphics: 'kitty' });

describe('show: bad files', () => {
  const rows: { name: string; line: RegExp }[] = [
    { name: 'missing', line: /: no such file$/ },
    { name: 'directory', line: /: is a directory$/ },
    { name: 'truncated', line: /: truncated PNG: .+$/ },
    { name: 'corrupt', line: /: corrupt PNG: CRC mismatch in its IDAT chunk$/ },
    { name: 'huge', line: /: PNG image too large to decode safely: 100000x100000 .+$/ },
    { name: 'text', line: /: not a PNG, JPEG, GIF, WebP, BMP, QOI or PNM image$/ },
    { name: 'empty', line: /: empty file$/ },
  ];
  it.each(rows)('$name: one stderr line, the other files still shown, exit 2', async ({ name: which, line }) => {
    const { ctx, stdout, stderr } = context();
    const code = await runShowWith([good, bad[which]!, good2, '--protocol', 'sixel'], ctx, { report: graphicsReport });
    expect(code).toBe(2);
    const lines = stderr.text.split('\n').filter(Boolean);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^termsight: ${bad[which]!.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`));
    expect(lines[0]).toMatch(line);
    // Both good pictures, each under its name.
    expect(stdout.text.match(/\x1bP[0-9;]*q/g)).toHaveLength(2);
    expect(stdout.text.indexOf(`${good}\n`)).toBeLessThan(stdout.text.indexOf(`${good2}\n`));
  });

  it('unreadable file (skipped when running as root, which reads anything)', async () => {
    if (process.getuid?.() === 0) return;
    const path = writePng(dir, 'secret.png', 4, 4);
    chmodSync(path, 0o000);
    const { ctx, stderr } = context();
    expect(await runShowWith([path], ctx, { report: graphicsReport })).toBe(2);
    expect(stderr.text).toBe(`termsight: ${path}: permission denied\n`);
  });

  it('all good: exit 0, nothing on stderr', async () => {
    const { ctx, stderr } = context();
    expect(await runShowWith([good, good2, '--protocol', 'braille'], ctx, { report: graphicsReport })).toBe(0);
    expect(stderr.text).toBe('');
  });
});

describe('show: bad usage', () => {
  it.each([
    {
      name: 'an unknown --protocol',
      args: ['--protocol', 'jpeg', 'x.png'],
      message: /--protocol must be one of kitty, iterm2, sixel, braille, blocks, symbols, got jpeg/,
    },
    {
      name: '--width not a number',
      args: ['--width', 'wide', 'x.png'],
      message: /--width must be a whole number of cells from 1 to 10000, a percentage .*, got wide/,
    },
    { name: 'a negative --height', args: ['--height', '-3', 'x.png'], message: /height/ },
    {
      name: '--width 0',
      args: ['--width', '0', 'x.png'],
      message: /--width must be a whole number of cells from 1 to 10000, a percentage .*, got 0/,
    },
    { name: 'an unknown option', args: ['--bogus', 'x.png'], message: /bogus/ },
    { name: 'no picture', args: [], message: /at least one picture/ },
  ])('$name', async ({ args, message }) => {
    const { ctx } = context();
    await expect(runShowWith(args, ctx, { report: graphicsReport })).rejects.toThrow(UsageError);
    await expect(runShowWith(args, ctx, { report: graphicsReport })).rejects.toThrow(message);
  });
});

describe('show: the protocol sequence for each --protocol', () => {
  const rows: { name: string; sequence: RegExp }[] = [
    { name: 'kitty', sequence: /\x1b_G[^\x1b]*a=[tT]/ },
    { name: 'iterm2', sequence: /\x1b\]1337;(File|MultipartFile)=/ },
    { name: 'sixel', sequence: /\x1bP[0-9;]*q"/ },
    { name: 'braille', sequence: /[\u2801-\u28ff]/ },
    { name: 'blocks', sequence: /[\u2580\u2584]/ },
  ];
  it.each(rows)('$name', async ({ name: protocol, sequence }) => {
    const { ctx, stdout } = context();
    expect(await runShowWith([good, '--protocol', protocol], ctx, { report: report() })).toBe(0);
    expect(stdout.text).toMatch(sequence);
    for (const { name: other, sequence: otherSequence } of rows)
      if (other !== protocol && other !== 'braille' && other !== 'blocks')
        expect(stdout.text).not.toMatch(otherSequence);
    // Whatever was drawn, text written after it shows on the next line of a real parser.
    const screen = await screenAfter(stdout.text, 'AFTER');
    expect(screen).toMatch(/^AFTER/m);
  });
});

/** A 24-bit symbols picture: background colours set, and no braille. */
const SYMBOLS_24BIT = /^(?![\s\S]*[\u2800-\u28ff])[\s\S]*\x1b\[[0-9;]*48;2;/;

describe('show: choosing the protocol', () => {
  const rows: {
    name: string;
    setup: { env?: Record<string, string>; tty: boolean; report: Report; args?: string[] };
    expected: RegExp;
  }[] = [
    {
      name: 'the report on a terminal',
      setup: { tty: true, report: report({ graphics: 'sixel' }) },
      expected: /\x1bP[0-9;]*q/,
    },
    {
      // Changed by the drawing plan: off a terminal the text picture is symbols (was braille).
      name: 'symbols when stdout is not a terminal',
      setup: { tty: false, report: report({ graphics: 'sixel' }) },
      expected: /^(?![\s\S]*\x1bP)(?![\s\S]*[\u2800-\u28ff])[\s\S]*[\u2580-\u259f]/,
    },
    {
      name: 'TERMSIGHT_GRAPHICS wins over the report',
      setup: { env: { TERMSIGHT_GRAPHICS: 'blocks' }, tty: true, report: report({ graphics: 'sixel' }) },
      expected: /\u2580|\u2584/,
    },
    {
      name: '--protocol wins over TERMSIGHT_GRAPHICS',
      setup: { env: { TERMSIGHT_GRAPHICS: 'blocks' }, tty: true, report: report(), args: ['--protocol', 'kitty'] },
      expected: /\x1b_G/,
    },
    {
      name: 'TERMSIGHT_GRAPHICS=off in colour draws symbols',
      setup: { env: { TERMSIGHT_GRAPHICS: 'off' }, tty: true, report: report({ graphics: null }) },
      expected: SYMBOLS_24BIT,
    },
    {
      name: 'TERMSIGHT_GRAPHICS=off under NO_COLOR draws braille',
      setup: { env: { TERMSIGHT_GRAPHICS: 'off', NO_COLOR: '1' }, tty: true, report: report({ graphics: null }) },
      expected: /[\u2800-\u28ff]/,
    },
    {
      name: 'symbols when the terminal has no graphics',
      setup: { tty: true, report: report({ graphics: null }) },
      expected: SYMBOLS_24BIT,
    },
    {
      name: 'braille when the terminal has no graphics and no colour',
      setup: { env: { NO_COLOR: '1' }, tty: true, report: report({ graphics: null }) },
      expected: /[\u2800-\u28ff]/,
    },
    {
      name: "the report's symbols with its sets",
      setup: { tty: true, report: report({ graphics: 'symbols', symbols: ['block', 'sextant'] }) },
      expected: SYMBOLS_24BIT,
    },
  ];
  it.each(rows)('$name', async ({ setup, expected }) => {
    const { ctx, stdout } = context({ env: setup.env ?? {}, stdoutTTY: setup.tty });
    expect(await runShowWith([good, ...(setup.args ?? [])], ctx, { report: setup.report })).toBe(0);
    expect(stdout.text).toMatch(expected);
  });
});

describe('show: names', () => {
  it('control characters in a name are stripped from the name line and the error line', async () => {
    const evilGood = join(dir, 'ok\x1b]0;owned\x07\u202e.png');
    writeFileSync(evilGood, readFileSync(good));
    const evilBad = join(dir, 'bad\x1b[2J\r\nname.png');
    writeFileSync(evilBad, 'nope');
    const { ctx, stdout, stderr } = context();
    expect(await runShowWith([evilGood, evilBad, '--protocol', 'braille'], ctx, { report: report() })).toBe(2);
    expect(stdout.text).toContain(`${join(dir, 'ok]0;owned.png')}\n`);
    expect(stderr.text).toBe(
      `termsight: ${join(dir, 'bad[2Jname.png')}: not a PNG, JPEG, GIF, WebP, BMP, QOI or PNM image\n`,
    );
    expect(stderr.text).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
  });

  it('- reads stdin', async () => {
    const { ctx, stdout } = context({ stdin: readFileSync(good) });
    expect(await runShowWith(['-', '--protocol', 'sixel'], ctx, { report: report() })).toBe(0);
    expect(stdout.text).toMatch(/\x1bP[0-9;]*q/);
  });
});

describe('show: the cursor ends below the picture, whatever the real cell size', () => {
  // 40x30 pixels; the report knows the cell (10x20) or not (null, as from xterm); the model
  // terminal has the real cell size and moves the cursor as real terminals do.
  const rows = (['kitty', 'sixel', 'iterm2', 'braille', 'blocks'] as const).flatMap((protocol) =>
    ([null, 'tmux'] as const).flatMap((mux) =>
      [
        { real: { width: 10, height: 20 }, known: true },
        { real: { width: 10, height: 20 }, known: false },
        { real: { width: 9, height: 17 }, known: false },
        { real: { width: 6, height: 12 }, known: false },
      ].map((c) => ({
        protocol,
        mux,
        ...c,
        name: `${protocol} ${mux ?? 'direct'}, real cell ${c.real.width}x${c.real.height}${c.known ? ' (reported)' : ''}`,
      })),
    ),
  );
  it.each(rows)('$name', async ({ protocol, mux, real, known }) => {
    const { ctx, stdout } = context();
    const r = report({
      cellPixels: known ? real : null,
      ...(mux ? { multiplexer: { name: mux, version: '3.3a', passthrough: true } } : {}),
    });
    expect(await runShowWith([good, '--protocol', protocol], ctx, { report: r })).toBe(0);
    const model = await runModel(`${stdout.text}NEXT`, { cell: real });
    const next = model.text.split('\n').findIndex((l) => l.startsWith('NEXT'));
    expect(next).toBeGreaterThan(0);
    for (const picture of model.placed) {
      expect(picture.line).toBe(0);
      expect(next * real.height).toBeGreaterThanOrEqual(picture.bottom);
    }
    if (model.placed.length === 0) {
      // Text (and kitty's placeholders in tmux): 30 pixels make 2 rows of blocks or braille at 10x20.
      expect(protocol === 'braille' || protocol === 'blocks' || (protocol === 'kitty' && mux === 'tmux')).toBe(true);
      expect(next).toBe(2);
    } else if (!mux || known || protocol !== 'sixel') {
      // Directly, or with the cell known, the next text is on the line right below the picture.
      expect(next).toBe(Math.ceil(model.placed[0]!.bottom / real.height));
    }
  });
});

/** A two-frame GIF. */
function writeGif(): string {
  const buffer = new Uint8Array(4096);
  const writer = new omggif.GifWriter(buffer, 8, 8, { palette: [0xff0000, 0x0000ff], loop: 0 });
  writer.addFrame(0, 0, 8, 8, new Array(64).fill(0), { delay: 2 });
  writer.addFrame(0, 0, 8, 8, new Array(64).fill(1), { delay: 2 });
  const path = join(dir, 'anim.gif');
  writeFileSync(path, buffer.subarray(0, writer.end()));
  return path;
}

describe('show: animation', () => {
  it('--animate draws every frame, loop after loop, then moves below', async () => {
    const { ctx, stdout } = context({ stdoutTTY: true });
    expect(await runShowWith([writeGif(), '--animate', '--protocol', 'kitty'], ctx, { report: report() })).toBe(0);
    expect(stdout.text.match(/\x1b_G[^;\x1b]*a=T/g)).toHaveLength(2 * MAX_LOOPS);
    expect(stdout.text.endsWith('\x1b[?25h')).toBe(true);
  });

  it('without --animate only the first frame is drawn', async () => {
    const { ctx, stdout } = context({ stdoutTTY: true });
    expect(await runShowWith([writeGif(), '--protocol', 'kitty'], ctx, { report: report() })).toBe(0);
    expect(stdout.text.match(/\x1b_G[^;\x1b]*a=T/g)).toHaveLength(1);
  });
});

describe('show: stopped mid-picture (the in-process half of Ctrl-C)', () => {
  it.each([
    { name: 'sixel', protocol: 'sixel', mux: 'none' },
    { name: 'kitty', protocol: 'kitty', mux: 'none' },
    { name: 'iterm2', protocol: 'iterm2', mux: 'none' },
    { name: 'sixel in tmux', protocol: 'sixel', mux: 'tmux' },
    { name: 'kitty in tmux', protocol: 'kitty', mux: 'tmux' },
  ] as const)('$name: the open sequence is closed, SGR reset, cursor shown; exit 130', async ({ protocol, mux }) => {
    const big = writePng(dir, `big-${protocol}.png`, 600, 400, 3);
    const controller = new AbortController();
    const { ctx, stdout } = context({ onWrite: (_chunk, count) => count === 2 && controller.abort() });
    const r = report(mux === 'tmux' ? { multiplexer: { name: 'tmux', version: '3.4', passthrough: true } } : {});
    const code = await runShowWith([big, '--protocol', protocol, '--width', '100', '--height', '30'], ctx, {
      report: r,
      signal: controller.signal,
    });
    expect(code).toBe(130);
    expect(stdout.chunks.length).toBeLessThan(10); // it stopped early
    expect(stdout.text.endsWith('\x1b[?25h')).toBe(true);
    expect(stdout.text.lastIndexOf('\x1b[0m')).toBeGreaterThan(stdout.text.lastIndexOf('\x1b\\') - 1);
    if (mux === 'none') {
      const screen = await screenAfter(stdout.text, 'STILL-VISIBLE');
      expect(screen).toContain('STILL-VISIBLE');
    } else {
      expect(stdout.text).toContain('\x1bPtmux;\x1b\x1b\\\x1b\\');
    }
  });

  it('stopped during an animation: exit 130 and a clean tail', async () => {
    const controller = new AbortController();
    const { ctx, stdout } = context({
      stdoutTTY: true,
      onWrite: (chunk) => chunk.includes('a=T') && setTimeout(() => controller.abort(), 5),
    });
    expect(
      await runShowWith([writeGif(), '--animate', '--protocol', 'kitty'], ctx, {
        report: report(),
        signal: controller.signal,
      }),
    ).toBe(130);
    expect(stdout.text.match(/a=T/g)!.length).toBeLessThan(2 * MAX_LOOPS);
    expect(stdout.text.endsWith('\x1b[?25h')).toBe(true);
  });
});
