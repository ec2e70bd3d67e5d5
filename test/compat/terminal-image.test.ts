/**
 * termsight/terminal-image against the installed terminal-image 4.3.0 where the outputs must agree
 * (the half-block picture's columns and lines for the same options and terminal size, option
 * parsing with percentages, the errors), and its own behaviour where it is deliberately better
 * (the real string for every protocol, the probe's protocol, tmux, GIFs as redrawn frames).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import incumbent from 'terminal-image';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  blockPictureSize,
  createTerminalImage,
  gifLoopCount,
  gifSchedule,
  parseDimension,
  type TerminalImageContext,
} from '../../src/compat/terminal-image.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { parseIterm2 } from '../render/terminal-decoders.js';
import { makeGif } from '../support/gif.js';
import { kittyAnimationSummary } from '../support/kitty-animation-apcs.js';

const images = join(import.meta.dirname, '..', 'fixtures', 'images');
const picture = (name: string) => readFileSync(join(images, name));
const stripSgr = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
/** Lines and the visible width of each. */
const shape = (text: string) => (text === '' ? [] : text.split('\n').map((line) => [...stripSgr(line)].length));

/** A report as termsight resolves it for a terminal that said nothing, with the given protocol. */
function reportWith(graphics: Report['graphics'], extra: Partial<Report> = {}): Report {
  const base = resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } });
  return { ...base, graphics, ...extra };
}

function context(report: Report, size = { columns: 80, rows: 24 }) {
  const written: string[] = [];
  let probes = 0;
  const ctx: TerminalImageContext = {
    report: async () => {
      probes += 1;
      return report;
    },
    size: () => size,
    write: (text) => written.push(text),
  };
  return { ctx, written, probes: () => probes };
}

/** The incumbent reads the terminal size from process.stdout: set it for a case. */
let savedColumns: PropertyDescriptor | undefined;
let savedRows: PropertyDescriptor | undefined;
function setStdoutSize(columns: number, rows: number): void {
  Object.defineProperty(process.stdout, 'columns', { value: columns, configurable: true, writable: true });
  Object.defineProperty(process.stdout, 'rows', { value: rows, configurable: true, writable: true });
}
beforeEach(() => {
  savedColumns = Object.getOwnPropertyDescriptor(process.stdout, 'columns');
  savedRows = Object.getOwnPropertyDescriptor(process.stdout, 'rows');
});
afterEach(() => {
  for (const [name, d] of [
    ['columns', savedColumns],
    ['rows', savedRows],
  ] as const) {
    if (d) Object.defineProperty(process.stdout, name, d);
    else delete (process.stdout as unknown as Record<string, unknown>)[name];
  }
});

interface SizeRow {
  readonly name: string;
  readonly image: string;
  readonly terminal: { columns: number; rows: number };
  readonly options: { width?: string | number; height?: string | number; preserveAspectRatio?: boolean };
}

const SIZE_ROWS: SizeRow[] = [
  { name: 'defaults (100% x 100%), square', image: 'camera.png', terminal: { columns: 80, rows: 24 }, options: {} },
  { name: 'defaults, landscape', image: 'chelsea.png', terminal: { columns: 80, rows: 24 }, options: {} },
  { name: 'width in columns', image: 'coffee.png', terminal: { columns: 80, rows: 24 }, options: { width: 20 } },
  { name: 'width 50%', image: 'chelsea.png', terminal: { columns: 120, rows: 40 }, options: { width: '50%' } },
  { name: 'height in rows', image: 'camera.png', terminal: { columns: 80, rows: 24 }, options: { height: 10 } },
  { name: 'height 25%', image: 'coffee.png', terminal: { columns: 100, rows: 50 }, options: { height: '25%' } },
  {
    name: 'both, aspect kept',
    image: 'coffee.png',
    terminal: { columns: 80, rows: 24 },
    options: { width: 30, height: 10 },
  },
  {
    name: 'both, stretched',
    image: 'coffee.png',
    terminal: { columns: 80, rows: 24 },
    options: { width: 30, height: 10, preserveAspectRatio: false },
  },
  { name: 'wider than the terminal', image: 'camera.png', terminal: { columns: 40, rows: 24 }, options: { width: 90 } },
  { name: 'fractional percent', image: 'rocket.jpg', terminal: { columns: 77, rows: 31 }, options: { width: '33.3%' } },
  {
    name: 'odd pixel rows (last one dropped)',
    image: 'chelsea.png',
    terminal: { columns: 80, rows: 24 },
    options: { width: 7 },
  },
  { name: 'tiny terminal', image: 'astronaut.png', terminal: { columns: 12, rows: 3 }, options: {} },
];

describe('the half-block picture: the same columns and lines as terminal-image 4.3.0', () => {
  it.each(SIZE_ROWS)('$name', async (row) => {
    setStdoutSize(row.terminal.columns, row.terminal.rows);
    const bytes = picture(row.image);
    const theirs = await incumbent.buffer(bytes, { ...row.options, preferNativeRender: false });
    const { ctx, probes } = context(reportWith('kitty'), row.terminal);
    const ours = await createTerminalImage(ctx).buffer(bytes, { ...row.options, preferNativeRender: false });
    expect(shape(ours)).toEqual(shape(theirs));
    expect(shape(ours).length).toBeGreaterThan(0);
    // preferNativeRender: false needs no probe.
    expect(probes()).toBe(0);
  });

  it('a report without pixel protocols (braille) draws the same half-block picture', async () => {
    setStdoutSize(80, 24);
    const bytes = picture('coffee.png');
    const theirs = await incumbent.buffer(bytes, { width: 24, preferNativeRender: false });
    const { ctx } = context(reportWith('braille'));
    expect(shape(await createTerminalImage(ctx).buffer(bytes, { width: 24 }))).toEqual(shape(theirs));
  });
});

describe('option parsing and errors, as the incumbent', () => {
  const VALUES: { name: string; value: unknown; base: number; want: number | string }[] = [
    { name: 'a number', value: 12, base: 80, want: 12 },
    { name: '50% rounds down', value: '50%', base: 81, want: 40 },
    { name: '100%', value: '100%', base: 80, want: 80 },
    { name: '0.5%', value: '0.5%', base: 80, want: 0 },
    { name: '0% is invalid', value: '0%', base: 80, want: '0% is not a valid dimension value' },
    { name: '101% is invalid', value: '101%', base: 80, want: '101% is not a valid dimension value' },
    { name: 'a numeric string is invalid', value: '40', base: 80, want: '40 is not a valid dimension value' },
    { name: 'a word is invalid', value: 'abc%', base: 80, want: 'abc% is not a valid dimension value' },
  ];
  it.each(VALUES)('parseDimension: $name', ({ value, base, want }) => {
    if (typeof want === 'number') expect(parseDimension(value, base)).toBe(want);
    else expect(() => parseDimension(value, base)).toThrow(want);
  });

  const BAD: { name: string; options: { width?: string | number; height?: string | number } }[] = [
    { name: 'width 0%', options: { width: '0%' } },
    { name: 'height 150%', options: { height: '150%' } },
    { name: 'width "abc" with a height', options: { width: 'abc', height: 10 } },
  ];
  it.each(BAD)('rejects with the same message: $name', async ({ options }) => {
    setStdoutSize(80, 24);
    const bytes = picture('camera.png');
    const theirs = await incumbent
      .buffer(bytes, { ...options, preferNativeRender: false })
      .catch((e: Error) => e.message);
    const { ctx } = context(reportWith('braille'));
    const ours = await createTerminalImage(ctx)
      .buffer(bytes, options)
      .catch((e: Error) => e.message);
    expect(typeof theirs).toBe('string');
    expect(ours).toBe(theirs);
  });

  const SMALL = [
    { name: '1x1 GIF', bytes: makeGif(1, 1, 2) },
    { name: '1x5 GIF', bytes: makeGif(1, 5, 2) },
    { name: '5x1 GIF', bytes: makeGif(5, 1, 2) },
  ];
  it.each(SMALL)('gifBuffer: "The image is too small to be rendered." for a $name', ({ bytes }) => {
    const { ctx } = context(reportWith('kitty'));
    expect(() => incumbent.gifBuffer(bytes, { renderFrame: () => {} })).toThrow(
      'The image is too small to be rendered.',
    );
    expect(() => createTerminalImage(ctx).gifBuffer(bytes, { renderFrame: () => {} })).toThrow(
      'The image is too small to be rendered.',
    );
  });
});

describe('the real string for every protocol, from the report', () => {
  const ROWS: { name: string; report: Report; starts: string; contains?: string }[] = [
    { name: 'kitty: the APC is in the string', report: reportWith('kitty'), starts: '\x1b_Ga=T', contains: 'c=' },
    { name: 'iTerm2', report: reportWith('iterm2'), starts: '\x1b]1337;File=' },
    { name: 'sixel', report: reportWith('sixel'), starts: '\x1bP' },
    {
      name: 'kitty inside tmux with passthrough: Unicode placeholders',
      report: reportWith('kitty', { multiplexer: { name: 'tmux', version: '3.4', passthrough: true } }),
      starts: '\x1bPtmux;',
      contains: '\u{10EEEE}',
    },
  ];
  it.each(ROWS)('$name', async ({ report, starts, contains }) => {
    const { ctx, written } = context(report);
    const out = await createTerminalImage(ctx).buffer(picture('camera.png'), { width: 20, height: 10 });
    expect(out.startsWith(starts)).toBe(true);
    if (contains) expect(out).toContain(contains);
    expect(written).toEqual([]);
  });

  const ZELLIJ: { name: string; report: Report; sixel: boolean }[] = [
    {
      name: 'inside Zellij in kitty, from the environment: a text picture (Zellij passes no kitty graphics)',
      report: resolveReport({
        env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1', ZELLIJ: '0', ZELLIJ_SESSION_NAME: 's' },
        isTTY: { stdout: true },
      }),
      sixel: false,
    },
    {
      name: 'inside Zellij, sixel proven by the probe: sixel, unwrapped (Zellij draws sixel itself)',
      report: reportWith('sixel', { multiplexer: { name: 'zellij', version: '0.40.1', passthrough: null } }),
      sixel: true,
    },
  ];
  it.each(ZELLIJ)('$name', async ({ report, sixel }) => {
    expect(report.multiplexer?.name).toBe('zellij');
    const { ctx, written } = context(report);
    const out = await createTerminalImage(ctx).buffer(picture('camera.png'), { width: 20, height: 10 });
    expect(out).not.toContain('\x1b_G');
    expect(out).not.toContain('\x1bPtmux;');
    if (sixel) expect(out).toMatch(/^\x1bP[0-9;]*q/);
    else expect(stripSgr(out)).toMatch(/^[^\x1b]+$/);
    expect(written).toEqual([]);
  });

  it('probes once for many pictures', async () => {
    const { ctx, probes } = context(reportWith('kitty'));
    const ti = createTerminalImage(ctx);
    await ti.buffer(picture('camera.png'), { width: 10 });
    await ti.file(join(images, 'chelsea.png'), { width: 10 });
    expect(probes()).toBe(1);
  });

  it('kitty fits the box in pixels with the real cell size, drawn 1:1 (no c=/r= to stretch it)', async () => {
    const { ctx } = context(reportWith('kitty', { cellPixels: { width: 10, height: 20 } }));
    const out = await createTerminalImage(ctx).buffer(picture('coffee.png'), { width: 30, height: 10 });
    expect(out).not.toMatch(/[,;_G]c=\d/);
    expect(out).not.toMatch(/[,;_G]r=\d/);
    const s = Number(/[,_G]s=(\d+)/.exec(out)?.[1]);
    const v = Number(/[,_G]v=(\d+)/.exec(out)?.[1]);
    expect(s).toBeLessThanOrEqual(30 * 10);
    expect(v).toBeLessThanOrEqual(10 * 20);
    expect(s === 300 || v === 200).toBe(true);
  });
});

describe('GIFs', () => {
  it('with a renderFrame, frames are text of the incumbent shape, and done is called once at the end', async () => {
    setStdoutSize(80, 24);
    // 50 ms frames at 10 frames a second: the incumbent's rate rule skips some, and draws the last.
    const gif = makeGif(16, 8, 6, { delayCs: 5 });
    const theirs: string[] = [];
    await new Promise<void>((done) => {
      const render = Object.assign((text: string) => theirs.push(text), { done });
      incumbent.gifBuffer(gif, { width: 16, maximumFrameRate: 10, renderFrame: render });
    });
    const ours: string[] = [];
    let doneCalls = 0;
    const { ctx } = context(reportWith('kitty'));
    await new Promise<void>((finish) => {
      const render = Object.assign((text: string) => ours.push(text), {
        done: () => {
          doneCalls += 1;
          finish();
        },
      });
      createTerminalImage(ctx).gifBuffer(gif, { width: 16, maximumFrameRate: 10, renderFrame: render });
    });
    expect(ours.length).toBe(theirs.length);
    expect(ours.length).toBeLessThan(6);
    expect(ours.map(shape)).toEqual(theirs.map(shape));
    expect(doneCalls).toBe(1);
  });

  it('the stop function stops playback and calls done once', async () => {
    const gif = makeGif(8, 8, 4, { loop: 0, delayCs: 100 });
    const frames: string[] = [];
    let doneCalls = 0;
    const { ctx } = context(reportWith('kitty'));
    const render = Object.assign((text: string) => frames.push(text), { done: () => (doneCalls += 1) });
    const stop = createTerminalImage(ctx).gifBuffer(gif, { renderFrame: render });
    stop();
    stop();
    expect(frames.length).toBe(1);
    expect(doneCalls).toBe(1);
  });

  it('without a renderFrame, kitty frames are drawn in place by id with the report, then the cursor goes below', async () => {
    const gif = makeGif(8, 8, 2);
    const { ctx, written } = context(reportWith('kitty', { placements: true }));
    await new Promise<void>((finish) => {
      createTerminalImage({
        ...ctx,
        write: (text) => {
          written.push(text);
          if (text.endsWith('\r\n')) finish();
        },
      }).gifBuffer(gif, { width: 10, height: 5 });
    });
    const ids = written.flatMap((w) => [...w.matchAll(/i=(\d+)/g)].map((m) => m[1]));
    expect(ids.length).toBeGreaterThan(1);
    expect(new Set(ids).size).toBe(1);
    expect(written[0]).toContain('\x1b7');
    expect(written.some((w) => w.includes('a=p'))).toBe(true);
    expect(written.at(-1)?.endsWith('\r\n')).toBe(true);
  });

  const LOOPS = [
    { name: 'no NETSCAPE extension: once', bytes: makeGif(4, 4, 2), want: null },
    { name: 'loop 0: forever', bytes: makeGif(4, 4, 2, { loop: 0 }), want: 0 },
    { name: 'loop 3', bytes: makeGif(4, 4, 2, { loop: 3 }), want: 3 },
  ];
  it.each(LOOPS)('gifLoopCount: $name', ({ bytes, want }) => {
    expect(gifLoopCount(bytes)).toBe(want);
  });

  const SCHEDULES = [
    { name: 'every frame under the rate', delays: [50, 50, 50], fps: 30, loops: 1, want: [true, true, true] },
    {
      name: 'some skipped over the rate, the remainder carried',
      delays: [50, 50, 50, 50],
      fps: 10,
      loops: 1,
      want: [true, true, false, true],
    },
    {
      name: '0 ms delays count as 10 ms',
      delays: [0, 0, 0, 0, 0],
      fps: 50,
      loops: 1,
      want: [true, true, false, true, true],
    },
    {
      name: 'the last frame is drawn even when the rate skips it',
      delays: [10, 10, 10],
      fps: 10,
      loops: 1,
      want: [true, false, true],
    },
    { name: 'the clock runs across loops', delays: [60, 60], fps: 10, loops: 2, want: [true, true, false, true] },
    { name: 'no limit', delays: [1, 1, 1], fps: 0, loops: 1, want: [true, true, true] },
  ];
  it.each(SCHEDULES)('gifSchedule: $name', ({ delays, fps, loops, want }) => {
    expect(gifSchedule(delays, fps, loops)).toEqual(want);
  });

  it('blockPictureSize keeps the incumbent rounding', () => {
    expect(blockPictureSize({ width: 451, height: 300 }, { width: 7 }, { columns: 80, rows: 24 })).toEqual({
      width: 7,
      height: 5,
    });
  });
});

describe('GIFs the terminal plays itself (nativeAnimation, as termsight show)', () => {
  const KITTY = resolveReport({ env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }, isTTY: { stdout: true } });
  const ITERM2 = resolveReport({
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
    isTTY: { stdout: true },
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** Starts a GIF, lets its report resolve, then runs the timers for `ms` (no redraw may come). */
  async function played(
    report: Report,
    gif: Uint8Array,
    options: Parameters<ReturnType<typeof createTerminalImage>['gifBuffer']>[1] = {},
  ) {
    vi.useFakeTimers();
    const { ctx, written } = context(report);
    const stop = createTerminalImage(ctx).gifBuffer(gif, { width: 10, height: 5, ...options });
    await vi.advanceTimersByTimeAsync(0);
    const atStart = written.join('');
    await vi.advanceTimersByTimeAsync(2000);
    return { stop, written, atStart };
  }

  const KITTY_ROWS = [
    {
      name: 'three frames, loop 3 (4 plays: v=5)',
      gif: makeGif(8, 8, 3, { loop: 3, delayCs: 7 }),
      delays: [70, 70, 70],
      loop: 5,
    },
    {
      name: 'two frames, loop 0 (forever: v=1)',
      gif: makeGif(8, 8, 2, { loop: 0, delayCs: 12 }),
      delays: [120, 120],
      loop: 1,
    },
    { name: 'no NETSCAPE extension (once: v=2)', gif: makeGif(8, 8, 2, { delayCs: 5 }), delays: [50, 50], loop: 2 },
  ];
  it.each(KITTY_ROWS)(
    'kitty: one upload with its frames, delays and loop count, no redraw, deleted by id on stop: $name',
    async (row) => {
      const { stop, written, atStart } = await played(KITTY, row.gif);
      const upload = kittyAnimationSummary(atStart);
      expect(upload).toMatchObject({ roots: 1, delays: row.delays, loop: row.loop, deleted: [] });
      // Nothing after the upload: the terminal plays it.
      expect(written.join('')).toBe(atStart);
      stop();
      expect(kittyAnimationSummary(written.join('')).deleted).toEqual(upload.ids);
    },
  );

  it('iTerm2: the GIF file itself, once', async () => {
    const gif = makeGif(8, 8, 3, { loop: 0, delayCs: 7 });
    const { written, atStart } = await played(ITERM2, gif);
    const files = parseIterm2(atStart).filter((o) => o.kind === 'File');
    expect(files).toHaveLength(1);
    expect(Buffer.from(files[0]!.payload, 'base64').equals(Buffer.from(gif))).toBe(true);
    expect(written.join('')).toBe(atStart);
  });

  it('a terminal without kitty animation on record (kitty protocol, plain xterm row) still gets redraws', async () => {
    const { written, atStart } = await played(reportWith('kitty', { placements: true }), makeGif(8, 8, 3, { loop: 0 }));
    expect(kittyAnimationSummary(atStart).loop).toBeNull();
    expect(written.join('').length).toBeGreaterThan(atStart.length);
  });

  it("with renderFrame, kitty still gets text frames (the incumbent's contract), never an upload", async () => {
    const frames: string[] = [];
    const render = Object.assign((text: string) => frames.push(text), { done: () => {} });
    const { written } = await played(KITTY, makeGif(8, 8, 3, { delayCs: 7 }), { renderFrame: render });
    expect(written).toEqual([]);
    expect(frames).toHaveLength(3);
    expect(frames.every((f) => !f.includes('\x1b_G'))).toBe(true);
  });
});
