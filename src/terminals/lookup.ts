/**
 * Finding a row and reading its facts. Pure; every function takes the database as its last
 * argument (default: TERMINALS), so a test can ask a changed copy.
 */
import { compareVersions } from '../core/condition.js';
import { TERMINALS } from './database.js';
import type { Draws, EnvSign, Fact, FactName, GlyphSet, QueryFamily, TerminalRow } from './types.js';

/** A sign with its row. */
export interface Signed {
  readonly row: TerminalRow;
  readonly sign: EnvSign;
}

/** Every sign of the database with its row, by priority (a stable sort: equal priorities keep the row order). */
export function signsByPriority(db: readonly TerminalRow[] = TERMINALS): Signed[] {
  return db
    .flatMap((row) => row.identity.env.map((sign) => ({ row, sign })))
    .sort((a, b) => a.sign.priority - b.sign.priority);
}

/** The row with this id, or undefined. */
export function terminalById(id: string, db: readonly TerminalRow[] = TERMINALS): TerminalRow | undefined {
  return db.find((row) => row.id === id);
}

/**
 * The row whose XTVERSION names include `name` (case-insensitive, whole name: `kitty`, `iTerm2`).
 *
 * @example terminalByReplyName('KITTY')?.id // 'kitty'
 */
export function terminalByReplyName(name: string, db: readonly TerminalRow[] = TERMINALS): TerminalRow | undefined {
  const lower = name.toLowerCase();
  return db.find((row) => row.identity.xtversion?.names.some((n) => n.toLowerCase() === lower));
}

/**
 * A version as the row writes it, in dotted form: `7600` from VTE or Zellij (`hundreds`) is
 * `0.76.0`; anything else is returned as it is.
 */
export function dottedVersion(row: TerminalRow, version: string): string {
  if (row.identity.xtversion?.encoding !== 'hundreds' || !/^\d+$/.test(version)) return version;
  const n = Number(version);
  return `${Math.floor(n / 10000)}.${Math.floor(n / 100) % 100}.${n % 100}`;
}

/** Whether a version (null: unknown) is at least `since` (absent: always). An unknown version proves nothing. */
export function reached(since: string | undefined, version: string | null): boolean {
  if (since === undefined) return true;
  return version !== null && compareVersions(version, since) >= 0;
}

/**
 * Whether a fact holds at `version` (null: unknown): true, from its `since` on and before its
 * `until` (a fact with an `until` is proven only by a version known to be before it).
 */
export function holds(fact: Fact | undefined, version: string | null): boolean {
  if (fact?.value !== true || !reached(fact.since, version)) return false;
  return fact.until === undefined || (version !== null && !reached(fact.until, version));
}

/** The fact of a row by name, also the multiplexer's passthrough facts. */
export function factOf(row: TerminalRow, name: FactName | 'passthrough' | 'passthroughHidden'): Fact | undefined {
  if (name === 'passthrough' || name === 'passthroughHidden') return row.multiplexer?.[name];
  return row.facts[name];
}

/**
 * Whether `row` is known to do `name` at `version` (dotted; null when unknown).
 *
 * @example supports(terminalById('kitty')!, 'placeholders', '0.28.0') // true
 */
export function supports(
  row: TerminalRow,
  name: FactName | 'passthrough' | 'passthroughHidden',
  version: string | null,
): boolean {
  return holds(factOf(row, name), version);
}

/** The protocols the row draws at `version`, best first (an `onlyIf` entry is listed; DA1 then decides). */
export function drawsAt(row: TerminalRow, version: string | null): readonly Draws[] {
  return row.draws.filter((d) => reached(d.since, version));
}

/** The glyph sets the row draws itself at `version`. */
export function glyphsAt(row: TerminalRow, version: string | null): readonly GlyphSet[] {
  const sets: GlyphSet[] = ['blocks', 'sextants', 'octants', 'braille'];
  return sets.filter((set) => holds(row.glyphs?.[set], version));
}

/** The queries a multiplexer answers itself at `version`. */
export function answersAt(row: TerminalRow, version: string | null): readonly QueryFamily[] {
  return (row.multiplexer?.answers ?? []).filter((a) => reached(a.since, version)).map((a) => a.query);
}
