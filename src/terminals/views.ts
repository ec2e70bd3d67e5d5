/**
 * The views the rest of termsight reads instead of its own lists: the env layer's two rule
 * tables, the probe's decisive names and the report's name lists. Each is a function of the
 * database, so a test can derive them from a changed copy.
 */
import type { Env } from '../core/env-vars.js';
import { TERMINALS } from './database.js';
import { identify } from './identify.js';
import { signsByPriority, terminalById } from './lookup.js';
import type { ByName, DrawnProtocol, EnvRuleText, EnvSign, NotifyDialect, TerminalRow } from './types.js';

/** A rule as the env layer's tables hold it. */
export interface TableRule<A> {
  readonly id: string;
  readonly when: EnvSign['when'];
  readonly answer: A;
  readonly note: string;
  readonly founding?: true;
  readonly source: string;
}

/** What `detect` answers from a row's own word: its first protocol that needs no reply (undefined: none). */
export function envProtocol(row: TerminalRow): DrawnProtocol | undefined {
  return row.draws.find((d) => d.onlyIf === undefined)?.protocol;
}

/** What `placements` answers from a row's own word: its placements fact (false where it has none). */
export function envPlacements(row: TerminalRow): boolean {
  return row.facts.placements?.value === true;
}

function tableRule<A>(text: EnvRuleText, when: EnvSign['when'], answer: A): TableRule<A> {
  return {
    id: text.id,
    when,
    answer,
    note: text.note,
    ...(text.founding ? { founding: text.founding } : {}),
    source: text.source,
  };
}

/** The environment's graphics table: the signs that decide it, by priority, each answering its row's protocol. */
export function graphicsRules(db: readonly TerminalRow[] = TERMINALS): TableRule<DrawnProtocol>[] {
  return signsByPriority(db).flatMap(({ row, sign }) => {
    const answer = envProtocol(row);
    return sign.graphics && answer ? [tableRule(sign.graphics, sign.when, answer)] : [];
  });
}

/**
 * The environment's placements table: the signs that decide it, each answering its row's
 * placements fact; those that answer yes first (by priority), then those that answer no (the
 * default too). So a terminal any sign names as keeping images is believed, as the founding table had it.
 */
export function placementRules(db: readonly TerminalRow[] = TERMINALS): TableRule<boolean>[] {
  const rules = signsByPriority(db).flatMap(({ row, sign }) =>
    sign.placements ? [tableRule(sign.placements, sign.when, envPlacements(row))] : [],
  );
  return [...rules.filter((r) => r.answer), ...rules.filter((r) => !r.answer)];
}

/** Terminals (not multiplexers) whose XTVERSION name the report takes `answer` from, with their names lower-cased. */
function byName(db: readonly TerminalRow[], answer: ByName): { row: TerminalRow; name: string }[] {
  return db
    .filter((row) => row.kind === 'terminal' && row.identity.xtversion?.byName.includes(answer))
    .flatMap((row) => (row.identity.xtversion?.names ?? []).map((n) => ({ row, name: n.toLowerCase() })));
}

/** Names whose XTVERSION decides the protocol on its own, with that protocol (the row's best). */
export function decisiveNames(db: readonly TerminalRow[] = TERMINALS): [name: string, protocol: DrawnProtocol][] {
  return byName(db, 'graphics').flatMap(({ row, name }) => {
    const best = row.draws[0];
    return best ? [[name, best.protocol] as [string, DrawnProtocol]] : [];
  });
}

/** Names of terminals that keep images under an id and place them again. */
export function placementNames(db: readonly TerminalRow[] = TERMINALS): string[] {
  return byName(db, 'placements')
    .filter(({ row }) => row.facts.placements?.value === true)
    .map(({ name }) => name);
}

/** Names of terminals that show OSC 8 hyperlinks, with the first version that does (`0`: every version). */
export function linkingTerminals(db: readonly TerminalRow[] = TERMINALS): [prefix: string, sinceVersion: string][] {
  return byName(db, 'hyperlinks')
    .filter(({ row }) => row.facts.hyperlinks?.value === true)
    .map(({ row, name }) => [name, row.facts.hyperlinks?.since ?? '0']);
}

/** Names of terminals that show 24-bit colour. */
export function truecolorNames(db: readonly TerminalRow[] = TERMINALS): string[] {
  return byName(db, 'truecolor')
    .filter(({ row }) => row.facts.truecolor?.value === true)
    .map(({ name }) => name);
}

/** The first version of row `id` with Unicode placeholders (undefined: none, or every version). */
export function placeholdersSince(id: string, db: readonly TerminalRow[] = TERMINALS): string | undefined {
  const fact = terminalById(id, db)?.facts.placeholders;
  return fact?.value ? fact.since : undefined;
}

/** The row whose graphics rule has this id (undefined: none). */
export function graphicsRuleOwner(id: string, db: readonly TerminalRow[] = TERMINALS): TerminalRow | undefined {
  return db.find((row) => row.identity.env.some((sign) => sign.graphics?.id === id));
}

/** The row whose placements rule has this id (undefined: none). */
export function placementRuleOwner(id: string, db: readonly TerminalRow[] = TERMINALS): TerminalRow | undefined {
  return db.find((row) => row.identity.env.some((sign) => sign.placements?.id === id));
}

/** A capability's `when` terms as the database gives them: the `TERM_PROGRAM` values and the variables merely set. */
export interface WhenTerms {
  readonly termProgram: readonly string[];
  readonly envAny: readonly string[];
}

/**
 * The terminals (not multiplexers) with `fact`, as the terms a capability's `when` clause can hold:
 * every `TERM_PROGRAM is "…"` and every `X is set` condition that names such a row on its own.
 * A `when` clause cannot test versions, so a fact's `since` is not applied.
 *
 * @example whenTerms('synchronizedOutput').envAny // ['KITTY_WINDOW_ID', …]
 */
export function whenTerms(fact: keyof TerminalRow['facts'], db: readonly TerminalRow[] = TERMINALS): WhenTerms {
  const rows = db.filter((row) => row.kind === 'terminal' && row.facts[fact]?.value === true);
  const single = rows.flatMap((row) =>
    row.identity.env.filter((s) => s.names !== false && s.when.length === 1).map((s) => s.when[0]),
  );
  const termProgram = single.flatMap((c) => (c?.variable === 'TERM_PROGRAM' && c.test === 'equals' ? [c.value] : []));
  const envAny = single.flatMap((c) => (c?.test === 'set' ? [c.variable] : []));
  return { termProgram: [...new Set(termProgram)], envAny: [...new Set(envAny)] };
}

/**
 * The notification sequence of the terminal the environment names (its row's `notify` fact), or
 * OSC 777 `notify` where the row has none or no row is named: urxvt's extension, which patched
 * VTE and foot read and other terminals ignore. Its own variables before inherited ones
 * (`identify`), so VS Code started from kitty is not sent kitty's OSC 99.
 *
 * @example notifyDialectFor({ TERM: 'xterm-kitty' }) // 'osc99'
 */
export function notifyDialectFor(env: Env, db: readonly TerminalRow[] = TERMINALS): NotifyDialect {
  const fact = identify({ env }, db)?.row.facts.notify;
  return fact?.value ? fact.dialect : 'osc777';
}
