/**
 * `<Image>` in ink-testing-library, beyond the still picture: a picture partly scrolled out of a
 * viewport (an overflow-hidden Box) is drawn cropped to the rows it shows, per protocol; a GIF
 * plays with its frame delays and stops on unmount (its kitty image deleted).
 */
import { join } from 'node:path';
import { Box, Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { GifWriter } from 'omggif';
import { createElement as h } from 'react';
import { Decoder } from 'sixel';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Image, type ImageProps, TerminalProvider } from '../../src/ink/index.js';
import { drawAt } from '../../src/ink/position.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { parseIterm2, parseKittyApcs, pngToRaster } from '../render/terminal-decoders.js';

afterEach(() => cleanup());

const camera = join(import.meta.dirname, '..', 'fixtures', 'images', 'camera.png');
const strip = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '');
const written = (frames: readonly (string | Uint8Array)[]) =>
  frames.map((f) => (typeof f === 'string' ? f : Buffer.from(f).toString('latin1'))).join('');

function reportWith(graphics: Report['graphics'], extra: Partial<Report> = {}): Report {
  return {
    ...resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }),
    graphics,
    cellPixels: { width: 10, height: 20 },
    ...extra,
  };
}

/** A line, a viewport 3 rows tall scrolled `scroll` rows into a picture 6 rows tall, a line. */
function viewport(props: Partial<ImageProps>, report: Report, scroll: number) {
  return h(
    TerminalProvider,
    { report, follow: false },
    h(
      Box,
      { flexDirection: 'column' },
      h(Text, null, 'above'),
      h(
        Box,
        { height: 3, overflow: 'hidden', flexDirection: 'column' },
        h(
          Box,
          { marginTop: -scroll, flexDirection: 'column', flexShrink: 0 },
          h(Image, { src: camera, width: 6, height: 6, objectFit: 'fill', ...props }),
        ),
      ),
      h(Text, null, 'below'),
    ),
  );
}

/** The frame is 5 rows (above, 3 viewport rows, below): the cell of viewport row `row` (0-2). */
const at = (row: number) => drawAt({ top: 1 + row, left: 0, frameRows: 5 }, '').slice(0, -2);

describe('a picture partly scrolled out of a viewport', () => {
  it('kitty: the stored pixels placed by a source rectangle of the visible rows, at the first of them', async () => {
    const { stdout } = render(viewport({}, reportWith('kitty', { placements: true }), 2));
    await vi.waitFor(() => expect(written(stdout.frames)).toContain('\x1b_Ga=p'));
    const out = written(stdout.frames);
    const place = parseKittyApcs(out).find((a) => a.keys.get('a') === 'p');
    // 6x6 cells of 10x20 pixels: 60x120 pixels stored; rows 2-4 are pixels 40-99.
    const keys = Object.fromEntries(['x', 'y', 'w', 'h', 'c', 'r'].map((k) => [k, place?.keys.get(k)]));
    expect(keys).toEqual({ x: '0', y: '40', w: '60', h: '60', c: '6', r: '3' });
    expect(out).toContain(`${at(0)}${place?.raw}`);
    const upload = parseKittyApcs(out).find((a) => a.keys.get('a') === 't');
    expect([upload?.keys.get('s'), upload?.keys.get('v')]).toEqual(['60', '120']);
  });

  it('kitty: scrolled out entirely, the placement is taken away and the pixels kept', async () => {
    const { stdout } = render(viewport({}, reportWith('kitty', { placements: true }), 7));
    await vi.waitFor(() => expect(written(stdout.frames)).toMatch(/\x1b_Ga=d,d=i,i=\d+,q=2/));
    expect(written(stdout.frames)).not.toContain('\x1b_Ga=p');
    expect(written(stdout.frames)).not.toMatch(/a=d,d=I/);
  });

  it('sixel: whole bands of the visible rows only, none reaching below them', async () => {
    const { stdout } = render(viewport({ protocol: 'sixel' }, reportWith('sixel'), 2));
    await vi.waitFor(() => expect(written(stdout.frames)).toContain('\x1bP'));
    const out = written(stdout.frames);
    const start = out.indexOf(at(0));
    expect(start).toBeGreaterThanOrEqual(0);
    const sixel = out.slice(start + at(0).length, out.indexOf('\x1b\\', start) + 2);
    expect(sixel.startsWith('\x1bP')).toBe(true);
    const decoder = new Decoder();
    decoder.init(0, undefined, 256);
    decoder.decodeString(sixel.slice(sixel.indexOf('q') + 1, -2));
    // Rows 2-4 are pixels 40-99: 60 pixels, ten whole bands.
    expect({ width: decoder.width, height: decoder.height }).toEqual({ width: 60, height: 60 });
  });

  it('iTerm2: a cropped image of the visible rows', async () => {
    const { stdout } = render(viewport({ protocol: 'iterm2' }, reportWith('iterm2'), 1));
    await vi.waitFor(() => expect(written(stdout.frames)).toContain('\x1b]1337;File='));
    const [file] = parseIterm2(written(stdout.frames));
    // The cell size is known, so it is drawn 1:1 as the whole picture is: 3 rows of 20 pixels.
    expect([file.args.get('width'), file.args.get('height')]).toEqual(['60px', '60px']);
    const png = pngToRaster(Buffer.from(file.payload, 'base64'));
    expect({ width: png.width, height: png.height }).toEqual({ width: 60, height: 60 });
  });

  it('text: Ink clips the lines itself, the rows shown are the right ones', () => {
    const whole = render(
      h(
        TerminalProvider,
        { report: reportWith('blocks'), follow: false },
        h(Image, { src: camera, width: 6, height: 6, objectFit: 'fill', protocol: 'blocks' }),
      ),
    );
    const all = (whole.lastFrame() ?? '').split('\n');
    whole.unmount();
    const { lastFrame } = render(viewport({ protocol: 'blocks' }, reportWith('blocks'), 2));
    const lines = (lastFrame() ?? '').split('\n');
    expect(strip(lines[0] ?? '')).toBe('above');
    expect(lines.slice(1, 4)).toEqual(all.slice(2, 5));
    expect(strip(lines[4] ?? '')).toBe('below');
  });
});

/** A GIF of two 8x8 frames, red then blue, `delay` centiseconds each; `loop` 0 forever, absent once. */
function gif(delay: number, loop?: number): Uint8Array {
  const buffer = new Uint8Array(4096);
  const writer = new GifWriter(buffer, 8, 8, {
    palette: [0xff0000, 0x0000ff],
    ...(loop === undefined ? {} : { loop }),
  });
  writer.addFrame(0, 0, 8, 8, new Array(64).fill(0), { delay });
  writer.addFrame(0, 0, 8, 8, new Array(64).fill(1), { delay });
  return buffer.slice(0, writer.end());
}

/** The two colours in 256 colours (the report's terminal is xterm-256color). */
const RED = '\x1b[38;5;196m';
const BLUE = '\x1b[38;5;21m';

describe('GIFs in <Image>', () => {
  it('play with their frame delays as text, and stop on unmount', async () => {
    const { stdout, lastFrame, unmount } = render(
      h(
        TerminalProvider,
        { report: reportWith('blocks'), follow: false },
        h(Image, { src: gif(5, 0), width: 4, protocol: 'blocks' }),
      ),
    );
    expect(lastFrame()).toContain(RED);
    await vi.waitFor(() => expect(lastFrame()).toContain(BLUE));
    await vi.waitFor(() => expect(lastFrame()).toContain(RED));
    unmount();
    const after = stdout.frames.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(stdout.frames.length).toBe(after);
  });

  it('without a loop extension play once and stay on the last frame', async () => {
    const { lastFrame, stdout } = render(
      h(
        TerminalProvider,
        { report: reportWith('blocks'), follow: false },
        h(Image, { src: gif(3), width: 4, protocol: 'blocks' }),
      ),
    );
    await vi.waitFor(() => expect(lastFrame()).toContain(BLUE));
    const frames = stdout.frames.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(stdout.frames.length).toBe(frames);
    expect(lastFrame()).toContain(BLUE);
  });

  it('kitty: each frame uploaded under the one id and placed again; unmount deletes it and uploads stop', async () => {
    const { stdout, unmount } = render(
      h(
        TerminalProvider,
        { report: reportWith('kitty', { placements: true }), follow: false },
        h(Image, { src: gif(5, 0), width: 4, height: 2 }),
      ),
    );
    const uploads = () => parseKittyApcs(written(stdout.frames)).filter((a) => a.keys.get('a') === 't');
    await vi.waitFor(() => expect(uploads().length).toBeGreaterThanOrEqual(3));
    const ids = new Set(uploads().map((a) => a.keys.get('i')));
    expect(ids.size).toBe(1);
    expect(new Set(uploads().map((a) => a.payload)).size).toBe(2);
    unmount();
    const [id] = ids;
    expect(written(stdout.frames)).toContain(`\x1b_Ga=d,d=I,i=${id},q=2\x1b\\`);
    const count = uploads().length;
    await new Promise((r) => setTimeout(r, 200));
    expect(uploads().length).toBe(count);
  });
});
