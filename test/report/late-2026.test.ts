/**
 * The layers of late 2026 as scripted terminals (test/fixtures/scripted/late-2026.json: reply sets
 * written from documentation, not recorded): herdr with kitty graphics off and on, directly and
 * over ssh; cmux; VS Code's image addon with kitty graphics, directly and inside tmux. The report
 * must answer each right, with Unicode placeholders exactly where the layer needs them. A flipped
 * fact of the rows these rest on (herdr, libghostty, cmux, xterm.js) fails the question table's
 * mutation test (test/terminals/database.test.ts), which asks each of them.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/core/env-vars.js';
import { planDrawing } from '../../src/draw/plan.js';
import { multiplexerFromEnv } from '../../src/env/multiplexer.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { planGuarded, planQuery } from '../../src/probe/query.js';
import { parseTmuxFormats } from '../../src/probe/tmux-formats.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';

interface Scripted {
  readonly name: string;
  readonly env: Env;
  readonly replies: string;
  readonly wrapped: boolean;
  readonly tmux: { readonly display: string; readonly passthrough: string } | null;
  readonly sources: readonly string[];
}

const FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'scripted', 'late-2026.json');
const SCRIPTED = JSON.parse(readFileSync(FILE, 'utf8')) as { provenance: string; terminals: Scripted[] };
const byName = new Map(SCRIPTED.terminals.map((t) => [t.name, t]));

function reportOf(name: string): Report {
  const t = byName.get(name);
  if (!t) throw new Error(`no scripted terminal ${name}`);
  const facts = factsFromReplies(t.replies, {
    wrapped: t.wrapped,
    multiplexer: multiplexerFromEnv(t.env)?.name ?? null,
    sentinel: true,
  });
  const tmux = t.tmux ? parseTmuxFormats(t.tmux.display, t.tmux.passthrough) : null;
  return resolveReport({ env: t.env, isTTY: { stdin: true, stdout: true } }, facts, { tmux });
}

/** What each layer must get: the picture, whether as placeholders, and who is in between. */
const ROWS: ReadonlyArray<{
  name: string;
  graphics: string;
  placeholders: boolean;
  placements: boolean;
  multiplexer: string | null;
  drawsItself: boolean;
  /** The database row the answers rest on (null: the replies name none). */
  row: string | null;
}> = [
  // herdr passes the outer Ghostty's TERM_PROGRAM and GHOSTTY_RESOURCES_DIR: never kitty by them.
  {
    name: 'herdr-off',
    graphics: 'symbols',
    placeholders: false,
    placements: false,
    multiplexer: 'herdr',
    drawsItself: false,
    row: 'herdr',
  },
  {
    name: 'herdr-on',
    graphics: 'kitty',
    placeholders: true,
    placements: false,
    multiplexer: 'herdr',
    drawsItself: true,
    row: 'herdr',
  },
  {
    name: 'herdr-off-ssh',
    graphics: 'symbols',
    placeholders: false,
    placements: false,
    multiplexer: null,
    drawsItself: false,
    row: 'libghostty',
  },
  {
    name: 'herdr-on-ssh',
    graphics: 'kitty',
    placeholders: true,
    placements: false,
    multiplexer: null,
    drawsItself: false,
    row: 'libghostty',
  },
  // Placements from the founding rules (TERM with ghostty): cmux's own are not sourced.
  {
    name: 'cmux',
    graphics: 'kitty',
    placeholders: false,
    placements: true,
    multiplexer: null,
    drawsItself: false,
    row: 'cmux',
  },
  {
    name: 'cmux-no-kitty',
    graphics: 'symbols',
    placeholders: false,
    placements: false,
    multiplexer: null,
    drawsItself: false,
    row: 'cmux',
  },
  {
    name: 'vscode-addon',
    graphics: 'sixel',
    placeholders: false,
    placements: false,
    multiplexer: null,
    drawsItself: false,
    row: 'xterm.js',
  },
  {
    name: 'vscode-addon-kitty-only',
    graphics: 'kitty',
    placeholders: false,
    placements: false,
    multiplexer: null,
    drawsItself: false,
    row: 'xterm.js',
  },
  {
    name: 'vscode-addon-in-tmux',
    graphics: 'sixel',
    placeholders: false,
    placements: false,
    multiplexer: 'tmux',
    drawsItself: false,
    row: 'xterm.js',
  },
  {
    name: 'vscode-addon-kitty-only-in-tmux',
    graphics: 'symbols',
    placeholders: false,
    placements: false,
    multiplexer: 'tmux',
    drawsItself: false,
    row: null,
  },
];

describe('the scripted terminals of late 2026', () => {
  it('every scripted terminal says it is scripted, with its sources, and has a row here', () => {
    expect(SCRIPTED.provenance).toMatch(/^scripted, not recorded/);
    for (const t of SCRIPTED.terminals) expect(t.sources.length).toBeGreaterThan(0);
    expect(new Set(ROWS.map((r) => r.name))).toStrictEqual(new Set(byName.keys()));
  });

  it.each(ROWS)('$name: $graphics, placeholders $placeholders', (expected) => {
    const report = reportOf(expected.name);
    expect(report.graphics).toBe(expected.graphics);
    expect(report.placeholders).toBe(expected.placeholders);
    expect(report.placements).toBe(expected.placements);
    expect(report.multiplexer?.name ?? null).toBe(expected.multiplexer);
    expect(report.multiplexer?.drawsItself === true).toBe(expected.drawsItself);
    // The answer rests on the layer's row (the text picture's reason names the row that drew nothing).
    const rows = [report.why.graphics.row, report.why.placeholders.row, report.why.terminal.row];
    if (expected.row === null) expect(report.why.graphics.detail).toMatch(/not identified/);
    else expect(rows).toContain(expected.row);
  });

  it.each(ROWS.filter((r) => r.graphics === 'kitty'))(
    '$name: the drawing plan sends kitty as placeholders exactly where the report says ($placeholders)',
    (expected) => {
      const plan = planDrawing(reportOf(expected.name), { columns: 20, rows: 10 });
      expect(plan.protocol).toBe('kitty');
      expect(plan.encoder.protocol === 'kitty' && plan.encoder.placeholders).toBe(expected.placeholders);
    },
  );

  it('inside tmux the report carries tmux 1 MiB limit on one sequence (a longer sixel or wrapped picture is dropped)', () => {
    expect(reportOf('vscode-addon-in-tmux').multiplexer?.maxSequenceBytes).toBe(1048576);
    expect(reportOf('herdr-on').multiplexer?.maxSequenceBytes).toBeUndefined();
  });
});

describe('the probe asks them the kitty query', () => {
  // Without the question the kitty gate of herdr, libghostty and cmux could never open.
  it.each([{ name: 'herdr-on' }, { name: 'cmux' }])(
    '$name, named by its environment: in the first round',
    ({ name }) => {
      const t = byName.get(name) as Scripted;
      expect(planQuery({ runtime: { env: t.env, isTTY: { stdout: true } } }).direct).toContain('kittyGraphics');
    },
  );
  it('herdr over ssh, named by its XTVERSION libghostty alone: in the guarded round', () => {
    const t = byName.get('herdr-on-ssh') as Scripted;
    const plan = planQuery({ runtime: { env: t.env, isTTY: { stdout: true } } });
    expect(plan.direct).not.toContain('kittyGraphics');
    const guarded = planGuarded(plan, factsFromReplies(t.replies.replace(/\x1b_G[^\x1b]*\x1b\\/, ''), {}));
    expect(guarded?.direct).toContain('kittyGraphics');
  });
});
