/**
 * `<Image>` under real Ink (its throttled frames, not ink-testing-library's debug mode) on a
 * stand-in terminal with a fake clock, replayed into @xterm/headless: the test decides when Ink
 * commits and when its 32 ms throttle lets a frame out, so what used to depend on the machine's
 * load is exact. Pixel pictures land at their Box's cell in the frame that shows it, never over an
 * older frame; a GIF the terminal plays itself follows its Box when the layout moves it and when
 * the terminal is resized.
 */
import { join } from 'node:path';
import type { Instance } from 'ink';
import { createElement as h, type ReactNode, useState } from 'react';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { pngToRaster } from '../render/terminal-decoders.js';
import { makeGif } from '../support/gif.js';
import { hideCiFromInk } from './hide-ci.js';
import { keyOf, QuietInput, replay, TtyOutput } from './tty.js';

// Before Ink is first imported (below): under CI=true it would write no frames.
afterAll(hideCiFromInk());

const { render, Box, Text } = await import('ink');
const { Image, TerminalProvider } = await import('../../src/ink/index.js');

const camera = join(import.meta.dirname, '..', 'fixtures', 'images', 'camera.png');

function reportWith(graphics: Report['graphics'], extra: Partial<Report> = {}): Report {
  return {
    ...resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }),
    graphics,
    cellPixels: { width: 10, height: 20 },
    ...extra,
  };
}
const KITTY = resolveReport({ env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }, isTTY: { stdout: true } });

let app: Instance | null = null;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
});
afterEach(() => {
  app?.unmount();
  app = null;
  vi.useRealTimers();
});

/** Lets React run its passive effects (scheduled outside the fake clock). */
const effects = async (): Promise<void> => {
  for (let i = 0; i < 3; i++) await new Promise<void>((resolve) => setImmediate(resolve));
};
/** Moves the fake clock on `ms` and lets effects run. */
const wait = async (ms: number): Promise<void> => {
  await vi.advanceTimersByTimeAsync(ms);
  await effects();
};

/** A component whose state the test sets from outside (`expose` receives the setter). */
function Stateful<T>(props: { initial: T; view: (state: T) => ReactNode; expose: (set: (next: T) => void) => void }) {
  const [state, setState] = useState(props.initial);
  props.expose(setState);
  return props.view(state);
}

/** Renders `view(state)` with real Ink on `output`; returns a way to set the state from outside. */
function start<T>(output: TtyOutput, initial: T, view: (state: T) => ReactNode, report: Report) {
  let set: (next: T) => void = () => {};
  const expose = (setter: (next: T) => void) => {
    set = setter;
  };
  const tree = h(Stateful<T>, { initial, view, expose });
  app = render(h(TerminalProvider, { report, follow: false }, tree), {
    stdout: output as unknown as NodeJS.WriteStream,
    stdin: new QuietInput() as unknown as NodeJS.ReadStream,
    stderr: new TtyOutput() as unknown as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
  });
  // React commits on its own scheduler (not the fake clock): let it, at the same fake time.
  return async (next: T): Promise<void> => {
    set(next);
    await effects();
  };
}

/** The picture between a line above and a line below, after a label: its Box is at (5, 1). */
const scene = (src: string | Uint8Array, below = 'below') =>
  h(
    Box,
    { flexDirection: 'column' },
    h(Text, null, 'above'),
    h(Box, null, h(Text, null, 'left>'), h(Image, { src, width: 8, height: 4 }), h(Text, null, '<right')),
    h(Text, null, below),
  );

describe("pictures and Ink's throttled frames", () => {
  it('a picture whose frame Ink writes late is placed with that frame, at its cell, not over the frame before', async () => {
    const output = new TtyOutput();
    const set = start(
      output,
      0,
      (phase) =>
        phase < 2
          ? h(Text, null, phase === 0 ? 'asking…' : 'graphics:kitty')
          : scene(camera, phase === 3 ? 'below!' : 'below'),
      reportWith('kitty', { placements: true }),
    );
    await wait(100);
    // A one-line frame, written at once (no frame for 32 ms before it).
    await set(1);
    await wait(10);
    // The picture's commit: inside the throttle, so its six-line frame waits; the effect runs now.
    await set(2);
    await wait(20);
    // Another commit within 32 ms puts Ink's frame off again: 32 ms from here.
    await set(3);
    await wait(29);
    const early = output.text();
    await wait(40);
    // The engine runs on real timers.
    vi.useRealTimers();
    const before = await replay(early, 80, 24);
    expect(before.lines.some((l) => l.startsWith('left>'))).toBe(false);
    // Nothing placed while the screen shows the one-line frame.
    expect(before.apcs.filter((a) => a.body.startsWith('a=p'))).toEqual([]);
    const after = await replay(output.text(), 80, 24);
    expect(after.lines.slice(0, 6)).toEqual(['above', `left>${' '.repeat(8)}<right`, '', '', '', 'below!']);
    const placed = after.apcs.filter((a) => a.body.startsWith('a=p'));
    expect(placed.length).toBeGreaterThan(0);
    for (const p of placed) expect({ x: p.x, y: p.y }).toEqual({ x: 5, y: 1 });
  });
});

describe('a GIF the terminal plays itself follows its Box', () => {
  const gif = makeGif(16, 16, 3, { loop: 0, delayCs: 5 });
  const ITERM2 = resolveReport({
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
    isTTY: { stdout: true },
  });
  /** The GIF centred in a full-width row (with `pad` cells on its left) under `lines` lines of text. */
  const centred = ({ lines, pad }: { lines: number; pad: number }) =>
    h(
      Box,
      { flexDirection: 'column' },
      h(Text, null, Array.from({ length: lines }, (_, i) => `line ${i}`).join('\n')),
      h(Box, { justifyContent: 'center', paddingLeft: pad }, h(Image, { src: gif, width: 6, height: 3 })),
      h(Text, null, 'below'),
    );

  interface Row {
    readonly name: string;
    readonly report: Report;
    /** What changes after the first placing: the layout (lines above, padding) or the terminal's width. */
    readonly change: { readonly lines: number; readonly pad: number } | { readonly columns: number };
  }
  const ROWS: Row[] = [
    { name: 'kitty, moved down by the layout', report: KITTY, change: { lines: 3, pad: 0 } },
    { name: 'kitty, moved right by the layout (the frame as tall)', report: KITTY, change: { lines: 1, pad: 10 } },
    { name: 'kitty, moved left by a narrower terminal', report: KITTY, change: { columns: 50 } },
    { name: 'iTerm2, moved down by the layout', report: ITERM2, change: { lines: 3, pad: 0 } },
    { name: 'iTerm2, moved left by a narrower terminal', report: ITERM2, change: { columns: 50 } },
  ];

  it.each(ROWS)('$name: the old one removed, the new one at the new cell', async ({ report, change }) => {
    const output = new TtyOutput(80, 24);
    const set = start(output, { lines: 1, pad: 0 }, centred, report);
    await wait(100);
    const first = output.text().length;
    if ('lines' in change) await set(change);
    else output.resize(change.columns, 24);
    await wait(100);
    const columns = 'columns' in change ? change.columns : 80;
    const top = 'lines' in change ? change.lines : 1;
    const pad = 'pad' in change ? change.pad : 0;
    vi.useRealTimers();
    // Each part replayed on a terminal of the width it was written for.
    const whole = output.text();
    const done = await replay(whole, columns, 24);
    const kitty = report.graphics === 'kitty';
    if (kitty) {
      const roots = done.apcs.filter((a) => a.body.startsWith('a=T'));
      const id = keyOf(roots[0]?.body ?? '', 'i');
      const width = Number(keyOf(roots[0]?.body ?? '', 'c'));
      expect(roots).toHaveLength(2);
      expect(width).toBeGreaterThan(0);
      expect({ x: roots[0]?.x, y: roots[0]?.y }).toEqual({ x: Math.floor((80 - width) / 2), y: 1 });
      expect({ x: roots[1]?.x, y: roots[1]?.y }).toEqual({ x: pad + Math.floor((columns - pad - width) / 2), y: top });
      // The first one deleted by its id before the second is uploaded: never two on the screen.
      const deletes = done.apcs.filter((a) => a.body === `a=d,d=I,i=${id},q=2`);
      expect(deletes.some((d) => d.at > first && d.at < (roots[1]?.at ?? 0))).toBe(true);
      // Played by the terminal: no frame placed or uploaded by the program.
      expect(done.apcs.some((a) => /^a=[tp],/.test(a.body))).toBe(false);
    } else {
      const files = done.iterm2;
      expect(files.length).toBeGreaterThan(1);
      // Ink's erase wipes the cells; the file is written again at the new cell after each frame.
      const last = files.at(-1);
      const cells = Number(/width=(\d+)/.exec(last?.body ?? '')?.[1]);
      expect(cells).toBeGreaterThan(0);
      expect({ x: last?.x, y: last?.y }).toEqual({ x: pad + Math.floor((columns - pad - cells) / 2), y: top });
      expect(Buffer.from(last?.body.split(':')[1] ?? '', 'base64').equals(Buffer.from(gif))).toBe(true);
    }
    // The text around it intact: the lines above, the Box's row(s) blank, the line below.
    const rows = Number(
      kitty
        ? keyOf(done.apcs.find((a) => a.body.startsWith('a=T'))?.body ?? '', 'r')
        : /height=(\d+)/.exec(done.iterm2[0]?.body ?? '')?.[1],
    );
    expect(done.lines.slice(0, top + rows + 1)).toEqual([
      ...Array.from({ length: top }, (_, i) => `line ${i}`),
      ...Array.from({ length: rows }, () => ''),
      'below',
    ]);
  });
});

describe('a GIF the terminal plays itself, partly scrolled out of a viewport', () => {
  // 40x100 pixels: 4x5 cells of 10x20.
  const tall = makeGif(40, 100, 3, { loop: 0, delayCs: 5 });
  const ITERM2 = resolveReport({
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
    isTTY: { stdout: true },
  });
  /** A line, a viewport `height` rows tall scrolled `scroll` rows into the GIF, a line. */
  const viewport = ({ scroll, height }: { scroll: number; height: number }) =>
    h(
      Box,
      { flexDirection: 'column' },
      h(Text, null, 'above'),
      h(
        Box,
        { height, overflow: 'hidden', flexDirection: 'column' },
        h(
          Box,
          { marginTop: -scroll, flexDirection: 'column', flexShrink: 0 },
          h(Image, { src: tall, width: 4, height: 5 }),
        ),
      ),
      h(Text, null, 'below'),
    );

  it('kitty plays it cropped to the rows shown, at the first of them; whole again, whole', async () => {
    const output = new TtyOutput();
    const report = { ...KITTY, cellPixels: { width: 10, height: 20 } };
    const set = start(output, { scroll: 2, height: 3 }, viewport, report);
    await wait(100);
    const cropped = output.text().length;
    await set({ scroll: 0, height: 5 });
    await wait(100);
    vi.useRealTimers();
    const done = await replay(output.text(), 80, 24);
    const roots = done.apcs.filter((a) => a.body.startsWith('a=T'));
    expect(roots).toHaveLength(2);
    const [part, whole] = roots as [(typeof roots)[0], (typeof roots)[0]];
    // Rows 2-4 of 5, 1:1 (the cell size known): pixel rows 40-100 of the 100, at the viewport's first row.
    expect({ x: part.x, y: part.y }).toEqual({ x: 0, y: 1 });
    expect(['x', 'y', 'w', 'h', 'c', 'r'].map((k) => keyOf(part.body, k))).toEqual([
      '0',
      '40',
      '40',
      '60',
      undefined,
      undefined,
    ]);
    expect(part.at).toBeLessThan(cropped);
    // Every frame uploaded whole: the animation runs in the rectangle.
    expect(done.apcs.filter((a) => a.at < cropped && a.body.startsWith('a=f'))).toHaveLength(2);
    // Scrolled back whole: the cropped one deleted, the whole one uploaded at the picture's top.
    const id = keyOf(part.body, 'i');
    expect(done.apcs.some((a) => a.at > cropped && a.at < whole.at && a.body === `a=d,d=I,i=${id},q=2`)).toBe(true);
    expect({ x: whole.x, y: whole.y }).toEqual({ x: 0, y: 1 });
    expect(['x', 'y', 'w', 'h'].map((k) => keyOf(whole.body, k))).toEqual([undefined, undefined, undefined, undefined]);
    expect(done.lines.slice(0, 7)).toEqual(['above', '', '', '', '', '', 'below']);
  });

  it('iTerm2, which cannot crop the file it plays, shows the rows shown of its first frame, still', async () => {
    const output = new TtyOutput();
    const report = { ...ITERM2, cellPixels: { width: 10, height: 20 } };
    start(output, { scroll: 1, height: 3 }, viewport, report);
    await wait(100);
    vi.useRealTimers();
    const done = await replay(output.text(), 80, 24);
    expect(done.iterm2.length).toBeGreaterThan(0);
    for (const file of done.iterm2) {
      expect({ x: file.x, y: file.y }).toEqual({ x: 0, y: 1 });
      const png = pngToRaster(Buffer.from(file.body.split(':')[1] ?? '', 'base64'));
      // Rows 1-3 of 5 at 20 pixels each, 1:1; the first frame (red).
      expect({ width: png.width, height: png.height }).toEqual({ width: 40, height: 60 });
      expect([...png.data.slice(0, 4)]).toEqual([255, 0, 0, 255]);
    }
    expect(done.lines.slice(0, 5)).toEqual(['above', '', '', '', 'below']);
  });
});
