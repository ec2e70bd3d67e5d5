/**
 * termsight/testing: its recordings are the repository's (byte for byte), each scripted terminal
 * is answered by the real probe as that terminal, and `drawn()` reads back what the terminal-image
 * drop-in drew for each protocol (the drop-in's own tests run against these terminals here).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTerminalImage } from '../../src/compat/terminal-image.js';
import { probeTerminal } from '../../src/report/probe-terminal.js';
import { drawn } from '../../src/testing/drawn.js';
import { RECORDINGS } from '../../src/testing/recordings.js';
import { SCRIPTED_TERMINALS, type ScriptedTerminalName, scriptedTerminal } from '../../src/testing/terminal.js';
import { REPO_ROOT } from '../probe/fixtures.js';

const camera = readFileSync(join(REPO_ROOT, 'test', 'fixtures', 'images', 'camera.png'));

describe('the recordings are the repository’s', () => {
  it.each(Object.entries(RECORDINGS).map(([id, r]) => ({ name: id, r })))('$name', ({ r }) => {
    const file = JSON.parse(readFileSync(join(REPO_ROOT, r.file), 'utf8')) as {
      results: { name: string; query: string; reply: string; late: string }[];
    };
    const da1 = file.results.find((x) => x.name === 'DA1')?.reply ?? '';
    expect(r.da1).toBe(da1.slice(da1.length / 2));
    for (const [query, answer] of Object.entries(r.answers)) {
      const recorded = file.results.find((x) => x.query === query);
      expect(recorded, query).toBeDefined();
      expect(answer.reply + r.da1 + answer.late).toBe(`${recorded?.reply}${recorded?.late}`);
    }
  });
});

const probe = (name: ScriptedTerminalName) => {
  const t = scriptedTerminal(name);
  return {
    t,
    report: probeTerminal({ runtime: t.runtime, input: t.input, output: t.output, budgetMs: 300, lateMs: 0 }),
  };
};

describe('each scripted terminal answers the real probe', () => {
  const rows: { name: ScriptedTerminalName; graphics: string; terminal: string | null; source: string }[] = [
    { name: 'kitty', graphics: 'kitty', terminal: 'kitty', source: 'recorded' },
    { name: 'ghostty', graphics: 'kitty', terminal: 'ghostty', source: 'database' },
    { name: 'iterm2', graphics: 'iterm2', terminal: 'iTerm2', source: 'database' },
    { name: 'foot', graphics: 'sixel', terminal: 'foot', source: 'database' },
    { name: 'wezterm', graphics: 'kitty', terminal: 'WezTerm', source: 'database' },
    { name: 'vscode', graphics: 'symbols', terminal: 'xterm.js', source: 'recorded' },
    { name: 'vscode-images', graphics: 'sixel', terminal: 'xterm.js', source: 'recorded' },
    { name: 'windows-terminal', graphics: 'sixel', terminal: 'Windows Terminal', source: 'database' }, // named by WT_SESSION's row (it sends no XTVERSION)
    { name: 'screen', graphics: 'symbols', terminal: 'XTerm', source: 'recorded' },
    { name: 'xterm', graphics: 'symbols', terminal: 'XTerm', source: 'recorded' },
    { name: 'silent', graphics: 'symbols', terminal: null, source: 'silent' },
    { name: 'konsole', graphics: 'sixel', terminal: 'Konsole', source: 'database' },
    { name: 'kitty-0.46', graphics: 'kitty', terminal: 'kitty', source: 'database' },
    { name: 'kitty-0.48', graphics: 'kitty', terminal: 'kitty', source: 'database' },
    // The addon's sixel comes first (the xterm.js row), though it answers the kitty query too.
    { name: 'vscode-kitty', graphics: 'sixel', terminal: 'xterm.js', source: 'database' },
    // herdr answers as libghostty; kitty only from its answer to the kitty query, never the name.
    { name: 'herdr', graphics: 'symbols', terminal: 'libghostty', source: 'database' },
    { name: 'herdr-kitty', graphics: 'kitty', terminal: 'libghostty', source: 'database' },
    { name: 'cmux', graphics: 'kitty', terminal: 'ghostty', source: 'database' },
  ];
  it('has a row for every terminal but tmux (whose answer needs a tmux server: below)', () => {
    expect([...rows.map((r) => r.name), 'tmux-kitty'].sort()).toEqual([...SCRIPTED_TERMINALS].sort());
  });
  it.each(rows)('$name', async ({ name, graphics, terminal, source }) => {
    const { t, report } = probe(name);
    const r = await report;
    expect(t.script.source).toBe(source);
    expect(r.graphics).toBe(graphics);
    expect(r.terminal?.name ?? null).toBe(terminal);
    if (t.script.source === 'database') expect(t.script.provenance).toMatch(/^built from the terminal database's row/);
    // Raw mode on for the probe and back off: once.
    expect(t.rawModes).toEqual([true, false]);
  });

  it('tmux over kitty: tmux answers its own queries, kitty the wrapped ones (one round)', async () => {
    const { t, report } = probe('tmux-kitty');
    const r = await report;
    expect(r.multiplexer?.name).toBe('tmux');
    expect(r.terminal?.name).toBe('kitty');
    expect(r.cellPixels).toEqual({ width: 10, height: 19 });
    expect(t.rounds()).toBe(1);
  });

  it('a latency delays the answer and the probe waits for it', async () => {
    const t = scriptedTerminal('kitty', { latencyMs: 60 });
    const r = await probeTerminal({ runtime: t.runtime, input: t.input, output: t.output, budgetMs: 500, lateMs: 0 });
    expect(r.graphics).toBe('kitty');
    expect(r.probeMs).toBeGreaterThanOrEqual(50);
  });
});

describe('drawn() reads back what the terminal-image drop-in drew', () => {
  it.each([
    // kitty's 8 cells of 10x19 px hold the 76 px picture 1:1: no cell box in the bytes (c=, r=).
    {
      name: 'kitty',
      terminal: 'kitty' as const,
      expected: { protocol: 'kitty', columns: null, placements: [{ placeholders: false }] },
    },
    { name: 'iTerm2 (database row)', terminal: 'iterm2' as const, expected: { protocol: 'iterm2' } },
    { name: 'sixel (foot, database row)', terminal: 'foot' as const, expected: { protocol: 'sixel' } },
    { name: 'text (xterm)', terminal: 'xterm' as const, expected: { protocol: 'text' } },
  ])('$name', async ({ terminal, expected }) => {
    const t = scriptedTerminal(terminal);
    const image = createTerminalImage({
      report: () => probeTerminal({ runtime: t.runtime, input: t.input, output: t.output, budgetMs: 300, lateMs: 0 }),
      size: () => ({ columns: 80, rows: 24 }),
      write: () => {},
    });
    const out = await image.buffer(camera, { width: 8, height: 4 });
    expect(drawn(out)).toMatchObject(expected);
  });

  it.each([
    {
      name: 'a kitty upload and placement, then its delete',
      bytes: '\x1b_Ga=t,i=7,f=100;AAAA\x1b\\\x1b_Ga=p,i=7,p=1,c=40,r=10,C=1,q=2\x1b\\\x1b_Ga=d,d=I,i=7,q=2\x1b\\',
      expected: {
        protocol: 'kitty',
        columns: 40,
        rows: 10,
        deleted: [7],
        placements: [{ imageId: 7, placementId: 1 }],
      },
    },
    {
      name: 'kitty placeholders through tmux',
      bytes: '\x1bPtmux;\x1b\x1b_Ga=T,U=1,i=9,c=4,r=2,q=2;AAAA\x1b\x1b\\\x1b\\',
      expected: { protocol: 'kitty', wrapped: true, placements: [{ placeholders: true, columns: 4 }] },
    },
    {
      name: 'the probe’s own kitty query is no picture',
      bytes: '\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\',
      expected: null,
    },
    {
      name: 'an iTerm2 file in cells',
      bytes: '\x1b]1337;File=inline=1;width=12;height=6;preserveAspectRatio=0:AAAA\x07',
      expected: { protocol: 'iterm2', columns: 12, rows: 6 },
    },
    {
      name: 'a sixel raster',
      bytes: '\x1bP0;1;0q"1;1;80;60#0~\x1b\\',
      expected: { protocol: 'sixel', pixels: { width: 80, height: 60 } },
    },
  ])('$name', ({ bytes, expected }) => {
    if (expected === null) expect(drawn(bytes)).toBeNull();
    else expect(drawn(bytes)).toMatchObject(expected);
  });
});
