/**
 * tmux 3.5a drawing sixel itself (issue 14's `tmux-sixel` finding), from what tmux really said in
 * Debian 13 with xterm 398 as a VT340 and passthrough off (test/fixtures/tmux/README.md): its
 * format output, where `#{sixel_support}` is empty, and the replies the probe got in both
 * environments. Each changed row changes one fact of the recording.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { Env } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { parseTmuxFormats } from '../../src/probe/tmux-formats.js';
import { draw } from '../../src/render/backend.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';

/** `show`'s sixel options for a report (its plan: wrapped for tmux unless passthrough is known off). */
const renderOptionsFor = (r: Report, box: { columns: number; rows: number }, env: Env) =>
  renderOptionsOf(planDrawing(r, { protocol: 'sixel', ...box, env, wrapUnproven: true }));
/** The library's (Ink's, terminal-image's) sixel options for a report: its plan. */
const libraryOptions = (r: Report) => renderOptionsOf(planDrawing(r, { protocol: 'sixel' }));

interface Recording {
  readonly display: string;
  readonly passthrough: string;
  readonly inherited: { readonly env: Env; readonly replies: string };
  readonly scrubbed: { readonly env: Env; readonly replies: string };
}

const FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'tmux',
  'xterm-vt340+tmux-3.5a.json',
);
const REC = JSON.parse(readFileSync(FILE, 'utf8')) as Recording;

/** The display output with its `#{client_termfeatures}` (line 3) or `#{sixel_support}` (line 4) replaced. */
function displayWith(line: 2 | 3, value: string): string {
  const lines = REC.display.split('\n');
  lines[line] = value;
  return lines.join('\n');
}

interface Row {
  readonly name: string;
  readonly environment: 'inherited' | 'scrubbed';
  /** tmux's display output (null: not asked, as with TMUX scrubbed). */
  readonly display: string | null;
  readonly replies: string;
  readonly graphics: 'sixel' | 'text';
  /** What `why.graphics.detail` must say. */
  readonly detail: RegExp;
}

const ROWS: readonly Row[] = [
  {
    name: "as recorded, inherited: the client has sixel and tmux's own DA1 shows the sixel build",
    environment: 'inherited',
    display: REC.display,
    replies: REC.inherited.replies,
    graphics: 'sixel',
    detail: /draws sixel itself.*#\{sixel_support\} is empty and tmux's own DA1 lists 4/,
  },
  {
    // Nothing from the outer terminal comes back (wrapped queries are dropped) and tmux's DA1 and
    // XTSMGRAPHICS claim sixel whatever its client is: nothing proves the client draws it.
    name: 'as recorded, scrubbed: no tmux to ask',
    environment: 'scrubbed',
    display: null,
    replies: REC.scrubbed.replies,
    graphics: 'text',
    detail: /tmux drops wrapped sequences/,
  },
  {
    name: 'inherited, the client without sixel',
    environment: 'inherited',
    display: displayWith(2, '256,RGB,title'),
    replies: REC.inherited.replies,
    graphics: 'text',
    detail: /#\{client_termfeatures\} lists no sixel/,
  },
  {
    name: 'inherited, tmux built without sixel (its DA1 lists no 4)',
    environment: 'inherited',
    display: REC.display,
    replies: REC.inherited.replies.replace('?1;2;4c', '?1;2c'),
    graphics: 'text',
    detail: /nothing shows this tmux was built with sixel/,
  },
  {
    name: 'inherited, a newer tmux saying #{sixel_support} 0',
    environment: 'inherited',
    display: displayWith(3, '0'),
    replies: REC.inherited.replies,
    graphics: 'text',
    detail: /built without sixel/,
  },
  {
    name: 'inherited, a newer tmux saying #{sixel_support} 1 (its DA1 alone would do too)',
    environment: 'inherited',
    display: displayWith(3, '1'),
    replies: REC.inherited.replies,
    graphics: 'sixel',
    detail: /#\{sixel_support\} is 1 and #\{client_termfeatures\} lists sixel/,
  },
];

describe('tmux 3.5a drawing sixel itself (recorded in Debian 13, xterm 398 as a VT340)', () => {
  it.each(ROWS)('$name', (row) => {
    const env = REC[row.environment].env;
    const tmux = row.display === null ? null : parseTmuxFormats(row.display, REC.passthrough);
    const facts = factsFromReplies(row.replies, { wrapped: true, sentinel: true });
    const report = resolveReport({ env, isTTY: { stdin: true, stdout: true, stderr: true } }, facts, {
      stream: 'tty',
      tmux,
    });
    if (row.graphics === 'sixel') expect(report.graphics).toBe('sixel');
    else expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
    expect(report.multiplexer).toMatchObject({ name: 'tmux', version: '3.5a', passthrough: false });
    expect(report.why.graphics.detail).toMatch(row.detail);
  });

  it('tmux 3.5a prints nothing for #{sixel_support}', () => {
    expect(parseTmuxFormats(REC.display, REC.passthrough)).toMatchObject({
      version: '3.5a',
      clientTermtype: 'XTerm(398)',
      sixelSupport: null,
      clientCell: { width: 8, height: 17 },
      allowPassthrough: 'off',
    });
    expect(parseTmuxFormats(REC.display, REC.passthrough)?.clientFeatures).toContain('sixel');
  });
});

/** The recorded report, inherited environment, with tmux's display output `display`. */
function recordedReport(display: string, passthrough = REC.passthrough): Report {
  const facts = factsFromReplies(REC.inherited.replies, { wrapped: true, sentinel: true });
  return resolveReport({ env: REC.inherited.env, isTTY: { stdin: true, stdout: true, stderr: true } }, facts, {
    stream: 'tty',
    tmux: parseTmuxFormats(display, passthrough),
  });
}

/** The lines of the display output with line `line` (0-based) replaced. */
function displayLine(line: number, value: string): string {
  const lines = REC.display.split('\n');
  lines[line] = value;
  return lines.join('\n');
}

/** The raster attributes (`"1;1;W;H`) of a sixel sequence. */
function sixelSize(sequence: string): { width: number; height: number } {
  const m = /"1;1;(\d+);(\d+)/.exec(sequence);
  if (!m) throw new Error('no raster attributes');
  return { width: Number(m[1]), height: Number(m[2]) };
}

/** A 96x96 opaque picture (the end-to-end cell's quadrants are 96 px a side). */
const PICTURE = { width: 96, height: 96, data: new Uint8Array(96 * 96 * 4).fill(255) };

describe('tmux drawing sixel itself: the picture is whole cells of its client (finding tmux-sixel-band)', () => {
  it("the report's cell is tmux's #{client_cell_width}x#{client_cell_height}, with the reason", () => {
    const report = recordedReport(REC.display);
    expect(report.multiplexer?.drawsItself).toBe(true);
    expect(report.cellPixels).toEqual({ width: 8, height: 17 });
    expect(report.why.cellPixels).toMatchObject({ source: 'multiplexer', row: 'tmux' });
    expect(report.why.cellPixels.detail).toMatch(/#\{client_cell_width\}x#\{client_cell_height\} is 8x17 px/);
  });

  it.each([
    { name: 'tmux printed no cell (before 3.4)', display: displayLine(4, '') },
    { name: 'tmux does not draw the picture (its client has no sixel)', display: displayLine(2, '256,RGB,title') },
  ])('no cell from tmux where $name', ({ display }) => {
    const report = recordedReport(display);
    expect(report.cellPixels).toBeNull();
    expect(report.why.cellPixels.source).toBe('default');
  });

  it.each([
    {
      name: 'the show command',
      options: (r: Report) => renderOptionsFor(r, { columns: 20, rows: 22 }, REC.inherited.env),
    },
    {
      name: 'the library (Ink, terminal-image)',
      options: (r: Report) => ({ ...libraryOptions(r), columns: 20, rows: 22 }),
    },
  ])('$name sends a sixel of whole 8x17 cells and whole bands: 104x102 for a 96x96 picture', ({ options }) => {
    const report = recordedReport(REC.display);
    const drawing = draw(PICTURE, 'sixel', options(report));
    // 96x102 (the nearest cells) would be 6% taller than wide; 104x102 is 2% and 102 is whole
    // bands, so tmux takes no seventh row (docs/render.md, "No band").
    expect(sixelSize(drawing.sequences[0] as string)).toEqual({ width: 104, height: 102 });
    expect(drawing.layout).toMatchObject({ columns: 13, rows: 6 });
  });

  it('with tmux passing the picture through (not drawing it), the picture keeps its own size', () => {
    const report = recordedReport(displayLine(2, '256,RGB,title'));
    const drawing = draw(PICTURE, 'sixel', {
      ...renderOptionsFor(report, { columns: 20, rows: 22 }, {}),
      cellPixels: { width: 8, height: 17 },
    });
    expect(sixelSize(drawing.sequences[0] as string)).toEqual({ width: 96, height: 96 });
  });
});
