/**
 * tmux 3.5a drawing sixel itself, with the background tmux answers OSC 11 with (issue 24, the
 * finding tmux-sixel-aspect, fixed): `termsight detect --record` as the end-to-end suite's Debian
 * 13 cells made it on 3 December 2026 (test/fixtures/tmux/README.md), replayed. The report carries
 * tmux's own answer (asked unwrapped before its DA1; passthrough is off, so the outer terminal
 * says nothing), and `show`'s sixel keeps the 100 px picture's size and aspect inside whole cells
 * of whole bands, padded with it, register 0 the background. tmux 3.3a (Debian 12) answers
 * nothing there. Each changed row changes one fact.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Decoder } from 'sixel';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import { parseRecording, type Recording, replay } from '../../src/probe/recording.js';
import { draw } from '../../src/render/backend.js';
import { resolveReport } from '../../src/report/resolve.js';

const DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'tmux', 'recorded');
const read = (name: string): Recording => parseRecording(readFileSync(path.join(DIR, name), 'utf8'));

/** tmux's own answers as recorded: XTVERSION, OSC 11, DA1 (in one read). */
const TMUX_REPLIES = '\\eP>|tmux 3.5a\\e\\\\e]11;rgb:ffff/ffff/ffff\\e\\\\e[?1;2;4c';
const TMUX_OSC11 = '\x1b]11;rgb:ffff/ffff/ffff\x1b\\';

/** The recording with tmux's OSC 11 answer taken out of what came back (tmux 3.3a, or no background known). */
function withoutOsc11(recording: Recording): Recording {
  return {
    ...recording,
    events: recording.events.map((e) => (e.direction === 'in' ? { ...e, bytes: e.bytes.replace(TMUX_OSC11, '') } : e)),
  };
}

/** The end-to-end suite's picture: 100 px, four solid quadrants (red, green / blue, yellow). */
const QUADRANTS = (() => {
  const size = 100;
  const colours = [
    [255, 0, 0],
    [0, 255, 0],
    [0, 0, 255],
    [255, 255, 0],
  ];
  const data = new Uint8Array(size * size * 4);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) data.set([...colours[(y < 50 ? 0 : 2) + (x < 50 ? 0 : 1)], 255], (y * size + x) * 4);
  return { width: size, height: size, data };
})();

/** `show --width 20`'s sixel for a recording: its report, its plan, drawn. */
function shown(recording: Recording) {
  const { runtime, facts, tmux } = replay(recording);
  const report = resolveReport(runtime, facts, { stream: 'tty', tmux });
  const options = renderOptionsOf(
    planDrawing(report, { protocol: 'sixel', columns: 20, rows: 22, env: runtime.env, wrapUnproven: true }),
  );
  return { report, drawing: draw(QUADRANTS, 'sixel', options) };
}

function decode(sequence: string): { width: number; height: number; at: (x: number, y: number) => number[] } {
  const body = sequence.slice(sequence.indexOf('q') + 1, -2);
  const decoder = new Decoder();
  decoder.init(0, undefined, 256);
  decoder.decodeString(body);
  const data = new Uint8Array(decoder.data8);
  const width = decoder.width;
  return {
    width,
    height: decoder.height,
    at: (x, y) => [...data.subarray((y * width + x) * 4, (y * width + x) * 4 + 3)],
  };
}

describe("tmux 3.5a's own sixel padded with the background tmux answers OSC 11 with (recorded in Debian 13)", () => {
  it.each([
    {
      name: 'tmux over xterm 398 as a VT340 (8x17): 104x102 px, 13x6 cells',
      file: 'xterm-vt340+tmux-3.5a.rec.json',
      cell: [8, 17],
      sixel: [104, 102],
      cells: [13, 6],
    },
    {
      name: 'tmux over foot 1.21 (8x17): 104x102 px, 13x6 cells',
      file: 'foot+tmux-3.5a.rec.json',
      cell: [8, 17],
      sixel: [104, 102],
      cells: [13, 6],
    },
    {
      name: 'tmux over Konsole 25.04 (8x15): 7 rows (105 px) are not whole bands, 8 (120 px) are: 104x120 px, 13x8 cells',
      file: 'konsole+tmux-3.5a.rec.json',
      cell: [8, 15],
      sixel: [104, 120],
      cells: [13, 8],
    },
  ])('$name: the report has tmux’s background, the picture 100x100 in the sixel', (row) => {
    const recording = read(row.file);
    const replies = recording.events.filter((e) => e.direction === 'in').map((e) => escapeBytes(e.bytes));
    expect(replies.join('')).toBe(TMUX_REPLIES);
    const { report, drawing } = shown(recording);
    expect(report.graphics).toBe('sixel');
    expect(report.multiplexer).toMatchObject({ name: 'tmux', passthrough: false, drawsItself: true });
    expect(report.background).toEqual({ dark: false, rgb: [255, 255, 255] });
    expect(report.why.background).toMatchObject({ source: 'reply', reply: '\\e]11;rgb:ffff/ffff/ffff\\e\\' });
    expect([report.cellPixels?.width, report.cellPixels?.height]).toEqual(row.cell);

    const sequence = drawing.sequences[0] as string;
    expect(sequence).toContain('#0;2;100;100;100'); // register 0: the background
    const image = decode(sequence);
    expect([image.width, image.height]).toEqual(row.sixel);
    expect([drawing.layout.columns, drawing.layout.rows]).toEqual(row.cells);
    // The picture at its own size at the top-left: its last row and column are the quadrants',
    // the next are the background.
    expect(image.at(99, 99)).toEqual([255, 255, 0]);
    expect(image.at(0, 99)).toEqual([0, 0, 255]);
    expect(image.at(100, 99)).toEqual([255, 255, 255]);
    expect(image.at(99, 100)).toEqual([255, 255, 255]);
    expect(image.at(row.sixel[0] - 1, row.sixel[1] - 1)).toEqual([255, 255, 255]);
  });

  it('without tmux’s OSC 11 answer nothing is known of the background: whole cells of whole bands, stretched (104x102, 2% wide)', () => {
    const { report, drawing } = shown(withoutOsc11(read('xterm-vt340+tmux-3.5a.rec.json')));
    expect(report.background).toBeNull();
    const image = decode(drawing.sequences[0] as string);
    expect([image.width, image.height]).toEqual([104, 102]);
    expect(image.at(103, 101)).toEqual([255, 255, 0]); // the picture reaches the corner
  });

  it('tmux 3.3a (Debian 12, over xterm 379 as a VT340) answers nothing to it with a default background: none known, no sixel', () => {
    const recording = read('xterm-vt340+tmux-3.3a.rec.json');
    const replies = recording.events.filter((e) => e.direction === 'in').map((e) => escapeBytes(e.bytes));
    expect(replies.join('')).toBe('\\eP>|tmux 3.3a\\e\\\\e[?1;2c');
    const { runtime, facts, tmux } = replay(recording);
    const report = resolveReport(runtime, facts, { stream: 'tty', tmux });
    expect(report.background).toBeNull();
    expect(report.why.background.detail).toBe('no OSC 11 reply');
    expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
  });

  it('the probe asked tmux’s OSC 11 unwrapped, between its XTVERSION and its DA1', () => {
    const out = read('xterm-vt340+tmux-3.5a.rec.json').events.find((e) => e.direction === 'out');
    expect(escapeBytes(out?.bytes ?? '').startsWith('\\e[>q\\e]11;?\\e\\\\e[c\\ePtmux;')).toBe(true);
  });
});
