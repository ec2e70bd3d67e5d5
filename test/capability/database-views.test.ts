/**
 * The capabilities' `when` clauses that encode terminal facts are views of the terminal database
 * (notify, clipboard, progress, sync: the rows with that fact), and so is the notification
 * dialect; the founding `link` line stays exactly as written. Each clause is pinned, and flipping
 * any row's fact changes its clause.
 */
import { describe, expect, it } from 'vitest';
import { BUILTINS, notifyDialect } from '../../src/capability/builtins.js';
import { TERMINALS } from '../../src/terminals/database.js';
import type { FactName, TerminalRow } from '../../src/terminals/types.js';
import { notifyDialectFor, whenTerms } from '../../src/terminals/views.js';

const whenOf = (name: string) => BUILTINS.find((c) => c.name === name)?.when;

describe('when clauses from the database', () => {
  it('sync: the rows with synchronized output, pinned', () => {
    expect(whenOf('sync')).toStrictEqual({
      tty: true,
      termProgram: ['kitty', 'ghostty', 'WezTerm', 'iTerm.app', 'vscode', 'Hyper'],
      envAny: ['KITTY_WINDOW_ID', 'GHOSTTY_RESOURCES_DIR', 'WEZTERM_PANE', 'ITERM_SESSION_ID', 'ALACRITTY_WINDOW_ID'],
    });
    expect(whenOf('sync')).toStrictEqual({ tty: true, ...whenTerms('synchronizedOutput') });
  });

  it('link: the founding line, exactly', () => {
    expect(whenOf('link')).toStrictEqual({
      tty: true,
      termProgram: ['iTerm.app', 'WezTerm', 'ghostty', 'vscode', 'Hyper', 'Apple_Terminal'],
      envAny: ['VTE_VERSION', 'WT_SESSION'],
    });
  });

  it.each<{ name: string; fact: FactName; termProgram: string[]; envAny: string[] }>([
    {
      name: 'notify',
      fact: 'notify',
      termProgram: ['kitty', 'ghostty', 'WezTerm', 'iTerm.app'],
      envAny: ['KITTY_WINDOW_ID', 'GHOSTTY_RESOURCES_DIR', 'WEZTERM_PANE', 'ITERM_SESSION_ID', 'VTE_VERSION'],
    },
    {
      name: 'clipboard',
      fact: 'clipboard',
      termProgram: ['kitty', 'ghostty', 'WezTerm'],
      envAny: ['KITTY_WINDOW_ID', 'GHOSTTY_RESOURCES_DIR', 'WEZTERM_PANE', 'ALACRITTY_WINDOW_ID', 'WT_SESSION'],
    },
    {
      name: 'progress',
      fact: 'progress',
      termProgram: ['ghostty'],
      envAny: ['GHOSTTY_RESOURCES_DIR', 'WT_SESSION', 'ConEmuPID'],
    },
  ])('$name: the rows with $fact, pinned', ({ name: capability, fact, termProgram, envAny }) => {
    expect(whenOf(capability)).toStrictEqual({ tty: true, termProgram, envAny });
    expect(whenOf(capability)).toStrictEqual({ tty: true, ...whenTerms(fact) });
  });

  const CLAUSE_FACTS: readonly FactName[] = ['synchronizedOutput', 'notify', 'clipboard', 'progress'];
  const named = CLAUSE_FACTS.flatMap((fact) =>
    TERMINALS.filter(
      (row) =>
        row.facts[fact] !== undefined &&
        row.identity.env.some(
          ({ when }) => when.length === 1 && (when[0]?.test === 'set' || when[0]?.variable === 'TERM_PROGRAM'),
        ),
    ).map((row) => ({ name: `${row.id} ${fact}`, row, fact })),
  );
  it.each(named)('$name: flipping the fact changes the clause', ({ row, fact }) => {
    const db = structuredClone(TERMINALS) as TerminalRow[];
    const copy = db.find((r) => r.id === row.id) as unknown as { facts: Record<string, { value: boolean }> };
    (copy.facts[fact] as { value: boolean }).value = !(copy.facts[fact] as { value: boolean }).value;
    expect(whenTerms(fact, db)).not.toStrictEqual(whenTerms(fact));
  });
});

describe('the notification dialect from the database', () => {
  const tty = (env: Record<string, string>) => ({ env, isTTY: { stdout: true } });
  it.each([
    { name: 'kitty by TERM', env: { TERM: 'xterm-kitty' }, dialect: 'osc99' },
    { name: 'kitty by its window id', env: { KITTY_WINDOW_ID: '1' }, dialect: 'osc99' },
    { name: 'iTerm2', env: { TERM_PROGRAM: 'iTerm.app' }, dialect: 'osc9' },
    { name: 'WezTerm', env: { TERM_PROGRAM: 'WezTerm' }, dialect: 'osc9' },
    { name: 'Ghostty', env: { TERM_PROGRAM: 'ghostty' }, dialect: 'osc9' },
    { name: 'VTE', env: { VTE_VERSION: '7600' }, dialect: 'osc777' },
    { name: 'foot', env: { TERM: 'foot' }, dialect: 'osc777' },
    { name: 'no terminal named', env: { TERM: 'xterm-256color' }, dialect: 'osc777' },
    // VS Code started from kitty inherits KITTY_WINDOW_ID: its own TERM_PROGRAM names xterm.js, which has none.
    { name: 'VS Code started from kitty', env: { TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '3' }, dialect: 'osc777' },
  ])('$name: $dialect', ({ env, dialect }) => {
    expect(notifyDialect(tty(env))).toBe(dialect);
  });

  it.each(TERMINALS.filter((row) => row.facts.notify?.value).map((row) => ({ name: row.id, row })))(
    "$name: changing the row's dialect changes the sequence chosen",
    ({ row }) => {
      const env = Object.fromEntries(
        (row.identity.env.find((s) => s.names !== false)?.when ?? []).map((c) => [
          c.variable,
          'value' in c && c.value !== undefined ? c.value : 'values' in c ? `xterm-${c.values[0]}` : '1',
        ]),
      );
      const db = structuredClone(TERMINALS) as TerminalRow[];
      const copy = db.find((r) => r.id === row.id) as { facts: { notify: { dialect: string } } };
      const before = notifyDialectFor(env, db);
      copy.facts.notify.dialect = before === 'osc99' ? 'osc9' : 'osc99';
      expect(notifyDialectFor(env, db)).not.toBe(before);
    },
  );
});
