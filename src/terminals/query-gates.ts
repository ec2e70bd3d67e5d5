/**
 * The probe's query gates as views of the database: which query families a row prints (its
 * `quirks` with effect `prints`), which rows an environment names, and which families are
 * guarded, that is printed by at least one row, so that a terminal nobody has named yet gets them
 * only once it has shown it parses them. Adding a terminal that prints a query is one quirk on its
 * row. The probe's rules built on these are in docs/probe.md ("What goes to whom").
 */
import { type Condition, matches } from '../core/condition.js';
import type { Env } from '../core/env-vars.js';
import { TERMINALS } from './database.js';
import { isInherited } from './inherited.js';
import type { QueryFamily, TerminalRow } from './types.js';

const allHold = (env: Env, set: readonly Condition[]) => set.every((c) => matches(env, c));

/**
 * Every row the environment names (any of its condition sets holds), in database order: a
 * child terminal's own variables and those it inherited both count, so a gate that excludes what
 * any of them prints errs on the quiet side.
 *
 * @example rowsNamedByEnv({ TERM: 'rxvt-unicode-256color', KITTY_WINDOW_ID: '1' }).map((r) => r.id) // ['kitty', 'rxvt-unicode']
 */
export function rowsNamedByEnv(env: Env, db: readonly TerminalRow[] = TERMINALS): TerminalRow[] {
  return db.filter((row) => row.identity.env.some((s) => s.names !== false && allHold(env, s.when)));
}

/**
 * The rows the environment names by a condition set without an identity variable other
 * terminals' sessions inherit (`INHERITED_VARIABLES`): those it names on the terminal's own
 * word (`TERM_PROGRAM`, `TERM`, `VTE_VERSION`). Only they open the query gate: zutty started
 * from kitty has `KITTY_WINDOW_ID` and `TERM=xterm-256color`, and prints the kitty query.
 *
 * @example rowsNamedByOwnEnv({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1' }) // []
 */
export function rowsNamedByOwnEnv(env: Env, db: readonly TerminalRow[] = TERMINALS): TerminalRow[] {
  return db.filter((row) =>
    row.identity.env.some(
      (s) => s.names !== false && !s.when.some((c) => isInherited(c.variable)) && allHold(env, s.when),
    ),
  );
}

/** The query families these rows print (show as text, or take as a title). */
export function familiesPrintedBy(rows: readonly TerminalRow[]): Set<QueryFamily> {
  const out = new Set<QueryFamily>();
  for (const row of rows) for (const quirk of row.quirks ?? []) if (quirk.effect === 'prints') out.add(quirk.family);
  return out;
}

/**
 * The guarded families: those at least one row of the database prints. A terminal that neither
 * its environment nor its replies have named is sent none of them until it shows it parses them.
 *
 * @example guardedFamilies().has('apc') // true: rxvt-unicode prints the kitty graphics query
 */
export function guardedFamilies(db: readonly TerminalRow[] = TERMINALS): Set<QueryFamily> {
  return familiesPrintedBy(db);
}
