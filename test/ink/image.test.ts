/**
 * `<Image>` and `<TerminalProvider>` in ink-testing-library: text pictures land in Ink's frame at
 * their place with their size, `alt` replaces what cannot be read or decoded, and the provider's
 * probe keeps the keys typed meanwhile for `useInput` while no reply reaches it.
 */
import { join } from 'node:path';
import { Box, Text, useInput } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { createElement as h, useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Image, type ImageProps, TerminalProvider, useTerminalReport } from '../../src/ink/index.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';

afterEach(() => cleanup());

const images = join(import.meta.dirname, '..', 'fixtures', 'images');
const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const width = (line: string) => [...line].length;
const written = (frames: readonly (string | Uint8Array)[]) =>
  frames.map((f) => (typeof f === 'string' ? f : Buffer.from(f).toString('latin1'))).join('');

function reportWith(graphics: Report['graphics'], extra: Partial<Report> = {}): Report {
  return { ...resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }), graphics, ...extra };
}

/** A frame of text, the picture between two lines of text. */
function app(props: ImageProps, report: Report) {
  return h(
    TerminalProvider,
    { report },
    h(Box, { flexDirection: 'column' }, h(Text, null, 'above'), h(Image, props), h(Text, null, 'below')),
  );
}

const BRAILLE = /^[\u2800-\u28ff]+$/;
const BLOCKS = /^[\u2580\u2584\u2588 ]+$/;
/** Block elements: half blocks, quadrants, eighths (the symbols picture's `block` set). */
const SYMBOLS = /^[\u2580-\u259f ]+$/;

interface Row {
  readonly name: string;
  readonly props: ImageProps;
  readonly graphics: Report['graphics'];
  readonly cells: RegExp;
  /** Exact size in cells, when the box fixes it. */
  readonly size?: { columns: number; rows: number };
  /** The most columns and rows it may take. */
  readonly within?: { columns: number; rows: number };
}

const ROWS: Row[] = [
  {
    name: 'braille from the report, width given',
    props: { src: join(images, 'camera.png'), width: 20 },
    graphics: 'braille',
    cells: BRAILLE,
    within: { columns: 20, rows: 20 },
  },
  {
    name: 'blocks by ink-picture name halfBlock',
    props: { src: join(images, 'chelsea.png'), width: 24, protocol: 'halfBlock' },
    graphics: 'kitty',
    cells: BLOCKS,
    within: { columns: 24, rows: 24 },
  },
  {
    name: 'fill: exactly the box',
    props: { src: join(images, 'coffee.png'), width: 17, height: 5, objectFit: 'fill', protocol: 'braille' },
    graphics: 'braille',
    cells: BRAILLE,
    size: { columns: 17, rows: 5 },
  },
  {
    name: 'cover: exactly the box',
    props: { src: join(images, 'rocket.jpg'), width: 12, height: 9, objectFit: 'cover', protocol: 'blocks' },
    graphics: 'braille',
    cells: BLOCKS,
    size: { columns: 12, rows: 9 },
  },
  {
    name: 'contain within a box: no larger than it',
    props: { src: join(images, 'coffee.png'), width: 30, height: 4 },
    graphics: 'braille',
    cells: BRAILLE,
    within: { columns: 30, rows: 4 },
  },
  {
    // Changed by the drawing plan: the report's text picture where text has colour (was braille).
    name: 'no graphics: the text picture, symbols in colour',
    props: { src: join(images, 'astronaut.png'), width: 10 },
    graphics: null,
    cells: SYMBOLS,
    within: { columns: 10, rows: 10 },
  },
];

describe('text pictures in the frame', () => {
  it.each(ROWS)('$name', ({ props, graphics, cells, size, within }) => {
    const { lastFrame } = render(app(props, reportWith(graphics)));
    const lines = strip(lastFrame() ?? '').split('\n');
    expect(lines[0]).toBe('above');
    expect(lines.at(-1)).toBe('below');
    const picture = lines.slice(1, -1).map((l) => l.trimEnd());
    expect(picture.length).toBeGreaterThan(0);
    for (const line of picture) expect(line).toMatch(cells);
    const columns = Math.max(...picture.map(width));
    if (size) expect({ columns, rows: picture.length }).toEqual(size);
    if (within) {
      expect(columns).toBeLessThanOrEqual(within.columns);
      expect(picture.length).toBeLessThanOrEqual(within.rows);
      expect(columns === within.columns || picture.length === within.rows).toBe(true);
    }
  });

  const COLOURS = [
    {
      name: '24-bit where the report says truecolor',
      truecolor: true,
      sgr: /\x1b\[38;2;\d+;\d+;\d+m/,
      not: /\x1b\[38;5;/,
    },
    { name: '256 colours otherwise', truecolor: false, sgr: /\x1b\[38;5;\d+m/, not: /\x1b\[38;2;/ },
  ];
  it.each(COLOURS)('keeps its colours in the frame: $name', ({ truecolor, sgr, not }) => {
    const { lastFrame } = render(
      app({ src: join(images, 'chelsea.png'), width: 10 }, reportWith('braille', { truecolor })),
    );
    expect(lastFrame()).toMatch(sgr);
    expect(lastFrame()).not.toMatch(not);
  });
});

describe('alt text', () => {
  const BAD: { name: string; src: ImageProps['src'] }[] = [
    { name: 'bytes that are no image', src: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) },
    { name: 'a truncated PNG', src: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]) },
    { name: 'a missing file', src: join(images, 'no-such-picture.png') },
  ];
  it.each(BAD)('for $name', ({ src }) => {
    const { lastFrame } = render(app({ src, width: 10, alt: '[a cat]' }, reportWith('braille')));
    expect(strip(lastFrame() ?? '').split('\n')).toEqual(['above', '[a cat]', 'below']);
  });
});

/** Shows the keys useInput saw and the report's answer. */
function KeyLog() {
  const [keys, setKeys] = useState('');
  useInput((input) => setKeys((k) => k + input));
  const report = useTerminalReport();
  return h(Text, null, `keys:${JSON.stringify(keys)} graphics:${report?.graphics ?? 'pending'}`);
}

describe('the provider probes while Ink owns stdin', () => {
  it('keys typed during the probe reach useInput, replies do not', async () => {
    const runtime = { env: { TERM: 'xterm-256color' }, isTTY: { stdout: true, stdin: true } };
    const { stdin, stdout } = render(h(TerminalProvider, { runtime, budgetMs: 2000 }, h(KeyLog)));
    // Ink's frames are strings; the probe's query went to the same stdout as bytes.
    const lastFrame = () => stdout.frames.filter((f: unknown) => typeof f === 'string').at(-1) ?? '';
    await vi.waitFor(() => expect(written(stdout.frames)).toContain('\x1b[c'));
    expect(lastFrame()).toContain('graphics:pending');
    // The terminal answers in pieces, the user types between replies.
    stdin.write('\x1bP>|kit');
    stdin.write('ty(0.26.5)\x1b\\');
    stdin.write('a');
    stdin.write('\x1b_Gi=31;OK\x1b\\');
    stdin.write('\x1b[?62;c');
    // Named by its replies alone (TERM says xterm), kitty gets the guarded round: the kitty query,
    // the local-transfer query and a DA1. The user types between its replies too; the unanswered
    // local-transfer query counts as a refusal once the DA1 arrives.
    const das = () => written(stdout.frames).split('\x1b[c').length - 1;
    await vi.waitFor(() => expect(das()).toBe(2));
    stdin.write('\x1b_Gi=31;OK\x1b\\');
    stdin.write('b');
    stdin.write('\x1b[?62;c');
    await vi.waitFor(() => expect(lastFrame()).toContain('graphics:kitty'));
    await vi.waitFor(() => expect(lastFrame()).toContain('keys:"ab"'));
    // After the probe, keys go to useInput directly.
    await new Promise((r) => setTimeout(r, 300));
    stdin.write('c');
    await vi.waitFor(() => expect(lastFrame()).toContain('keys:"abc"'));
    expect(lastFrame()).not.toContain('kitty(');
  });
});

describe('pixel pictures reserve their cells', () => {
  const PIXELS = [
    {
      name: 'kitty inside tmux, 256 colours: placeholders as the Box text (id 1..255), the upload passed through',
      maxId: 255,
      report: reportWith('kitty', {
        multiplexer: { name: 'tmux', version: '3.4', passthrough: true },
        truecolor: false,
      }),
      cell: /^(\u{10EEEE}[\u0300-\u{1D244}]+)+$/u,
      upload: '\x1bPtmux;',
    },
    {
      name: 'kitty with placements: blank cells (Ink trims them), the pixels stored once under an id',
      maxId: 0xffffff,
      report: reportWith('kitty', { placements: true }),
      cell: /^$/,
      upload: '\x1b_Ga=t,',
    },
  ];
  it.each(PIXELS)('$name', async ({ report, cell, upload, maxId }) => {
    const { lastFrame, stdout } = render(app({ src: join(images, 'camera.png'), width: 6, height: 3 }, report));
    const frame = () =>
      stdout.frames.filter((f: unknown) => typeof f === 'string' && f.startsWith('above')).at(-1) ?? '';
    await vi.waitFor(() => expect(written(stdout.frames)).toContain(upload));
    const lines = strip(frame()).split('\n');
    expect(lines[0]).toBe('above');
    expect(lines.at(-1)).toBe('below');
    expect(lines.length).toBe(5);
    for (const line of lines.slice(1, -1)) expect(line).toMatch(cell);
    const id = Number(/i=(\d+)/.exec(written(stdout.frames))?.[1]);
    expect(id).toBeGreaterThan(0);
    expect(id).toBeLessThanOrEqual(maxId);
    expect(lastFrame()).toBeDefined();
  });
});
