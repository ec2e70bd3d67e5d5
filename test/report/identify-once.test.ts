/**
 * The report identifies the terminal once and every answer reads that identification: the rows
 * its answers name agree, and the environment's recogniser (each row's signs with their
 * priorities) decides which row an environment names.
 */
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/core/env-vars.js';
import { explainDetect, explainPlacements } from '../../src/env/detect.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { ReportField } from '../../src/report/types.js';
import { TERMINALS } from '../../src/terminals/database.js';
import { identify } from '../../src/terminals/identify.js';
import { signsByPriority } from '../../src/terminals/lookup.js';
import type { TerminalRow } from '../../src/terminals/types.js';
import { graphicsRules, placementRules } from '../../src/terminals/views.js';

const E = '\x1b';
const tty = (env: Env) => ({ env, isTTY: { stdin: true, stdout: true } });
const xtversion = (body: string) => `${E}P>|${body}${E}\\`;

// The answers that rest on the terminal's row when a row decides them.
const TERMINAL_FIELDS: readonly ReportField[] = ['terminal', 'symbols', 'truecolor', 'sixelTransparency', 'graphics'];

describe('every answer reads the one identification', () => {
  it.each<{ name: string; env: Env; replies: string | null; row: string }>([
    { name: 'kitty by its XTVERSION', env: {}, replies: `${xtversion('kitty(0.41.1)')}${E}[?62;c`, row: 'kitty' },
    {
      name: 'kitty answering inside VS Code started from it: the reply wins over the inherited variable',
      env: { TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '1' },
      replies: `${xtversion('kitty(0.41.1)')}${E}[?62;c`,
      row: 'kitty',
    },
    {
      name: 'VS Code started from kitty, no probe: its own TERM_PROGRAM before the inherited KITTY_WINDOW_ID',
      env: { TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '1' },
      replies: null,
      row: 'xterm.js',
    },
    { name: 'foot by its XTVERSION', env: {}, replies: `${xtversion('foot(1.21.0)')}${E}[?62;4;22c`, row: 'foot' },
    {
      name: 'xterm.js with the image addon by its fingerprint',
      env: { TERM: 'xterm-256color' },
      replies: `${E}[>0;276;0c${E}[?62;4;9;22c`,
      row: 'xterm.js',
    },
    { name: 'Konsole by its variable', env: { KONSOLE_VERSION: '250402' }, replies: null, row: 'konsole' },
  ])('$name: every row named is $row', ({ env, replies, row }) => {
    const facts = replies === null ? undefined : factsFromReplies(replies, { multiplexer: null });
    const report = resolveReport(tty(env), facts);
    const rows = TERMINAL_FIELDS.flatMap((field) => (report.why[field].row ? [report.why[field].row] : []));
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(new Set(rows)).toStrictEqual(new Set([row]));
  });

  it('an XTVERSION name the database does not know names no row in any answer', () => {
    const facts = factsFromReplies(`${xtversion('someterm 1.0')}${E}[?62;c`, { multiplexer: null });
    // Not even where its environment names a row: the terminal's own answer wins.
    const report = resolveReport(tty({ TERM: 'xterm-256color', TERM_PROGRAM: 'ghostty' }), facts);
    expect(report.terminal).toStrictEqual({ name: 'someterm', version: '1.0' });
    // graphics alone still falls to the environment's rules when the replies decide nothing (the
    // documented precedence: the replies, then the rules), and names the rule's row.
    for (const field of TERMINAL_FIELDS.filter((f) => f !== 'graphics')) expect(report.why[field].row).toBeUndefined();
    expect(report.why.graphics.rule).toBe('term-program-ghostty');
  });
});

describe('the recogniser: signs with priorities', () => {
  it.each<{ name: string; env: Env; row: string | null; version?: string | null }>([
    {
      name: 'the lowest priority wins: TERM with kitty (18) before TERM_PROGRAM=WezTerm (30)',
      env: { TERM: 'xterm-kitty', TERM_PROGRAM: 'WezTerm' },
      row: 'kitty',
    },
    {
      name: 'an own variable before an inherited one of lower priority',
      env: { TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '1' },
      row: 'xterm.js',
    },
    {
      name: 'inherited ones alone: by priority (LC_TERMINAL 60 before GHOSTTY_RESOURCES_DIR 100)',
      env: { GHOSTTY_RESOURCES_DIR: '/x', LC_TERMINAL: 'iTerm2' },
      row: 'iterm2',
    },
    {
      name: "a sign's own version variable: LC_TERMINAL_VERSION",
      env: { LC_TERMINAL: 'iTerm2', LC_TERMINAL_VERSION: '3.5.0' },
      row: 'iterm2',
      version: '3.5.0',
    },
    {
      name: 'the row version variable where the sign has none',
      env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.1' },
      row: 'iterm2',
      version: '3.4.1',
    },
    {
      name: "xterm's XTERM_VERSION is read as its number",
      env: { XTERM_VERSION: 'XTerm(379)' },
      row: 'xterm',
      version: '379',
    },
    {
      name: 'a founding rule that names two terminals names neither: TERM=xterm-mlterm',
      env: { TERM: 'xterm-mlterm' },
      row: null,
    },
  ])('$name', ({ env, row, version }) => {
    const found = identify({ env });
    expect(found?.row.id ?? null).toBe(row);
    if (version !== undefined) expect(found?.version ?? null).toBe(version);
  });

  it('detect and placements read the same signs: each table rule is a sign of the row whose answer it gives', () => {
    for (const { row, sign } of signsByPriority()) {
      if (sign.graphics) {
        const env = Object.fromEntries(sign.when.map((c) => [c.variable, example(c)]));
        const detection = explainDetect(env);
        // The sign decides detect unless a sign of lower priority holds too (a TERM value holding two).
        if (detection.rule?.id === sign.graphics.id) expect(detection.protocol).toBe(answerOf(row));
      }
      if (sign.placements) {
        const env = Object.fromEntries(sign.when.map((c) => [c.variable, example(c)]));
        expect(explainPlacements(env).placements).toBe(row.facts.placements?.value === true);
      }
    }
  });

  it('flipping a row fact flips the env answer its signs give (the answer is the row, not the rule)', () => {
    const db = structuredClone(TERMINALS) as TerminalRow[];
    const ghostty = db.find((r) => r.id === 'ghostty') as unknown as {
      facts: { placements: { value: boolean } };
      draws: { protocol: string }[];
    };
    const before = { graphics: graphicsRules(db), placements: placementRules(db) };
    ghostty.facts.placements.value = false;
    (ghostty.draws[0] as { protocol: string }).protocol = 'sixel';
    const after = { graphics: graphicsRules(db), placements: placementRules(db) };
    const answer = <A>(table: { id: string; answer: A }[], id: string) => table.find((r) => r.id === id)?.answer;
    expect(answer(before.graphics, 'term-program-ghostty')).toBe('kitty');
    expect(answer(after.graphics, 'term-program-ghostty')).toBe('sixel');
    expect(answer(before.placements, 'ghostty-resources-dir')).toBe(true);
    expect(answer(after.placements, 'ghostty-resources-dir')).toBe(false);
  });
});

function example(c: { test: string; value?: string; values?: readonly string[] }): string {
  if (c.test === 'contains') return `xterm-${c.values?.[0]}`;
  return c.value ?? '1';
}

function answerOf(row: TerminalRow): string | undefined {
  return row.draws.find((d) => d.onlyIf === undefined)?.protocol;
}
