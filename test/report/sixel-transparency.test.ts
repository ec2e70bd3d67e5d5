/**
 * Sixel's transparent pixels (P2=1) as a fact of the terminal database: the report says whether
 * what draws the sixel honours it, with the row and the fact's source, and `show` and the library
 * paint transparent pixels on the real background (OSC 11) where it says no or does not know.
 * Recorded replies (test/fixtures/replies, test/fixtures/tmux) where there are recordings.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { Env } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { parseTmuxFormats } from '../../src/probe/tmux-formats.js';
import { draw } from '../../src/render/backend.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';

/** `show`'s sixel options for a report (its plan: wrapped for tmux unless passthrough is known off). */
const renderOptionsFor = (r: Report, box: { columns: number; rows: number }, env: Env) =>
  renderOptionsOf(planDrawing(r, { protocol: 'sixel', ...box, env, wrapUnproven: true }));
/** The library's (Ink's, terminal-image's) sixel options for a report: its plan. */
const libraryOptions = (r: Report) => renderOptionsOf(planDrawing(r, { protocol: 'sixel' }));

const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const TTY = { stdin: true, stdout: true, stderr: true };

/** A recorded terminal's replies and environment (test/fixtures/replies/README.md). */
function recorded(file: string): { env: Env; facts: ProbeFacts } {
  const rec = JSON.parse(readFileSync(path.join(FIXTURES, 'replies', file), 'utf8')) as {
    env: Env;
    batch: { reply: string };
  };
  return { env: rec.env, facts: factsFromReplies(rec.batch.reply, { sentinel: true }) };
}

/** tmux 3.5a drawing sixel itself in xterm 398 as a VT340 (test/fixtures/tmux/README.md). */
function tmuxDrawing(): Report {
  const rec = JSON.parse(readFileSync(path.join(FIXTURES, 'tmux', 'xterm-vt340+tmux-3.5a.json'), 'utf8')) as {
    display: string;
    passthrough: string;
    inherited: { env: Env; replies: string };
  };
  const facts = factsFromReplies(rec.inherited.replies, { wrapped: true, sentinel: true });
  return resolveReport({ env: rec.inherited.env, isTTY: TTY }, facts, {
    stream: 'tty',
    tmux: parseTmuxFormats(rec.display, rec.passthrough),
  });
}

function fromRecording(file: string): Report {
  const { env, facts } = recorded(file);
  return resolveReport({ env, isTTY: TTY }, facts, { stream: 'tty' });
}

interface Row {
  readonly name: string;
  readonly report: () => Report;
  readonly transparent: boolean;
  /** The database row the answer rests on (absent: none). */
  readonly row?: string;
  /** A piece of the fact's source (absent: no fact). */
  readonly reference?: string;
  readonly source: 'reply' | 'rule' | 'default';
  readonly detail: RegExp;
}

const ROWS: readonly Row[] = [
  {
    name: 'xterm 379 as a VT340 (recorded): honours P2=1',
    report: () => fromRecording('xterm-vt340.json'),
    transparent: true,
    row: 'xterm',
    reference: 'vt100.net',
    source: 'reply',
    detail: /XTVERSION XTerm names xterm, whose database row honours sixel's P2=1/,
  },
  {
    name: "xterm.js with the image addon (recorded, by DA1/DA2): the addon's fill colour 0 for P2=1",
    report: () => fromRecording('xtermjs-image.json'),
    transparent: true,
    row: 'xterm.js',
    reference: 'SixelHandler.ts',
    source: 'reply',
    detail: /names xterm\.js, whose database row honours/,
  },
  {
    name: 'tmux 3.5a drawing sixel itself (recorded): register 0 fills what the picture leaves',
    report: tmuxDrawing,
    transparent: false,
    row: 'tmux',
    reference: 'tmux-sixel-band',
    source: 'reply',
    detail: /names tmux, whose database row does not honour sixel's P2=1: transparent pixels are painted/,
  },
  {
    name: 'foot by its reply',
    report: () =>
      resolveReport({ env: {}, isTTY: TTY }, factsFromReplies('\x1bP>|foot(1.21.0)\x1b\\\x1b[?62;4;22c', {})),
    transparent: true,
    row: 'foot',
    reference: '7d315d7bf9ab0376468929f0e41fbac98370e035',
    source: 'reply',
    detail: /names foot, whose database row honours/,
  },
  {
    name: 'Windows Terminal of no known version: P2=1 only from 1.22',
    report: () => resolveReport({ env: { WT_SESSION: 'e1d171d9' }, isTTY: TTY }),
    transparent: false,
    row: 'windows-terminal',
    reference: 'SixelParser.cpp',
    source: 'rule',
    detail: /honours sixel's P2=1 only from Windows Terminal 1\.22: transparent pixels are painted/,
  },
  {
    name: 'Konsole 23.08 by the environment: its row says it ignores P2=1 (seen in 25.04.2)',
    report: () => resolveReport({ env: { KONSOLE_VERSION: '230804' }, isTTY: TTY }),
    transparent: false,
    row: 'konsole',
    reference: 'Vt102Emulation.cpp',
    source: 'rule',
    detail: /names Konsole, whose database row does not honour sixel's P2=1: transparent pixels are painted/,
  },
  {
    // mlterm 3.9.0 answers no XTVERSION; later ones name themselves (the row's example).
    name: 'mlterm by its reply: P2=1 honoured (seen in 3.9.0, read from 3.9.4)',
    report: () =>
      resolveReport({ env: {}, isTTY: TTY }, factsFromReplies('\x1bP>|mlterm(3.9.3)\x1b\\\x1b[?63;1;2;3;4;7;29c', {})),
    transparent: true,
    row: 'mlterm',
    reference: '5123203273ace07c26e3247bee7e36bd247d5873',
    source: 'reply',
    detail: /names mlterm, whose database row honours/,
  },
  {
    name: 'Contour by its reply: its row says nothing of P2=1',
    report: () =>
      resolveReport(
        { env: {}, isTTY: TTY },
        factsFromReplies('\x1bP>|contour 0.6.1\x1b\\\x1b[?65;1;4;6;9;15;22;28;29c', {}),
      ),
    transparent: false,
    row: 'contour',
    source: 'reply',
    detail: /names Contour, whose database row says nothing of sixel's P2=1: transparent pixels are painted/,
  },
  {
    name: 'no terminal known',
    report: () => resolveReport({ env: {}, isTTY: TTY }),
    transparent: false,
    source: 'default',
    detail: /the terminal is not known to honour sixel's P2=1/,
  },
];

describe("the report's sixelTransparency: the database fact of what draws the sixel", () => {
  it.each(ROWS)('$name', ({ report, transparent, row, reference, source, detail }) => {
    const r = report();
    expect(r.sixelTransparency).toBe(transparent);
    const why = r.why.sixelTransparency;
    expect(why.detail).toMatch(detail);
    expect(why.row).toBe(row);
    if (reference === undefined) expect(why.reference).toBeUndefined();
    else expect(why.reference).toContain(reference);
    expect(why.source).toBe(source);
  });
});

/** A 12x12 picture: transparent left half, opaque red right half. */
const HALF = (() => {
  const data = new Uint8Array(12 * 12 * 4);
  for (let i = 0; i < 144; i++) if (i % 12 >= 6) data.set([255, 0, 0, 255], i * 4);
  return { width: 12, height: 12, data };
})();

/** The introducer's P2 of the one sixel sequence of a drawing. */
function p2(sequences: readonly string[]): string {
  const m = /\x1bP0;(\d);0q/.exec(sequences.join(''));
  if (!m) throw new Error('no sixel introducer');
  return m[1];
}

describe('show and the library paint on the background where P2=1 is not honoured', () => {
  it.each([
    {
      name: 'xterm as a VT340: P2=1, the background shows through',
      report: () => fromRecording('xterm-vt340.json'),
      p2: '1',
    },
    { name: 'tmux drawing sixel itself: P2=0, every pixel painted', report: tmuxDrawing, p2: '0' },
  ])('$name', ({ report, p2: expected }) => {
    const r = report();
    const show = renderOptionsFor(r, { columns: 20, rows: 10 }, {});
    const library = libraryOptions(r);
    for (const options of [show, library]) {
      expect(options.sixelTransparency).toBe(r.sixelTransparency ? undefined : false);
      expect(p2(draw(HALF, 'sixel', options).sequences)).toBe(expected);
    }
  });

  it("a light terminal's transparent pixels are painted in its OSC 11 white, not black", () => {
    const r: Report = { ...tmuxDrawing(), background: { dark: false, rgb: [255, 255, 255] } };
    const sixel = draw(HALF, 'sixel', renderOptionsFor(r, { columns: 20, rows: 10 }, {})).sequences.join('');
    // The register defined for white (100% in each channel) is in the palette; black is not.
    expect(sixel).toMatch(/#\d+;2;100;100;100/);
    expect(sixel).not.toMatch(/#\d+;2;0;0;0[^0-9]/);
  });
});
