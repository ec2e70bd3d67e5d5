/**
 * The capabilities' `when` clauses that encode terminal facts are views of the terminal database
 * (sync: the rows with synchronized output); the founding `link` line stays exactly as written.
 */
import { describe, expect, it } from 'vitest';
import { BUILTINS } from '../../src/capability/builtins.js';
import { TERMINALS } from '../../src/terminals/database.js';
import type { TerminalRow } from '../../src/terminals/types.js';
import { whenTerms } from '../../src/terminals/views.js';

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

  const named = TERMINALS.filter(
    (row) =>
      row.facts.synchronizedOutput?.value === true &&
      row.identity.env.some(
        (set) => set.length === 1 && (set[0]?.test === 'set' || set[0]?.variable === 'TERM_PROGRAM'),
      ),
  );
  it.each(named.map((row) => ({ name: row.id, row })))('$name: flipping its fact changes the clause', ({ row }) => {
    const db = structuredClone(TERMINALS) as TerminalRow[];
    const copy = db.find((r) => r.id === row.id) as { facts: { synchronizedOutput: { value: boolean } } };
    copy.facts.synchronizedOutput.value = false;
    expect(whenTerms('synchronizedOutput', db)).not.toStrictEqual(whenTerms('synchronizedOutput'));
  });
});
