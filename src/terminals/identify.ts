/**
 * Which row a terminal is, from what it said (its XTVERSION name, its DA1/DA2 replies) or, failing
 * that, from its environment. A reply beats the environment: over ssh the variables vanish, and
 * inside a multiplexer or a child terminal they are someone else's.
 */

import { type Condition, describeCondition, matches } from '../core/condition.js';
import { type Env, envValue } from '../core/env-vars.js';
import { splitNameVersion } from '../core/name-version.js';
import { TERMINALS } from './database.js';
import { isInherited } from './inherited.js';
import { dottedVersion, terminalByReplyName } from './lookup.js';
import type { TerminalRow } from './types.js';

/** What is known about a terminal: its environment and the bodies of its replies (without `ESC P >|` or `CSI`). */
export interface Sighting {
  readonly env?: Env;
  /** The XTVERSION body: `kitty(0.26.5)`, `tmux 3.3a`. */
  readonly xtversion?: string;
  /** The DA1 body: `?62;c`. */
  readonly da1?: string;
  /** The DA2 body: `>1;4000;26c`. */
  readonly da2?: string;
}

/** A row found, with its version in dotted form (null: unknown) and what showed it. */
export interface Identification {
  readonly row: TerminalRow;
  readonly version: string | null;
  readonly by: 'reply' | 'fingerprint' | 'env';
  /** What showed it, as text: the XTVERSION body, the DA1/DA2 bodies, or the variables (`TERM_PROGRAM is "vscode"`). */
  readonly because: string;
}

/** `kitty(0.26.5)` → kitty / 0.26.5 (the probe's split, `splitNameVersion`, under the name the database uses). */
export const splitXtversion = splitNameVersion;

const allHold = (env: Env, set: readonly Condition[]) => set.every((c) => matches(env, c));
const inheritedSet = (set: readonly Condition[]) => set.some((c) => isInherited(c.variable));

/**
 * The row `seen` shows: its XTVERSION name first, then a DA1/DA2 fingerprint (every reply the
 * fingerprint names must match), then the environment: a condition set on variables every
 * terminal sets anew (`TERM_PROGRAM`, `TERM`) before one on an identity variable other terminals
 * inherit (`KITTY_WINDOW_ID` under `TERM_PROGRAM=vscode` is VS Code's, not kitty's).
 *
 * @example identify({ xtversion: 'kitty(0.28.0)' })?.version // '0.28.0'
 */
export function identify(seen: Sighting, db: readonly TerminalRow[] = TERMINALS): Identification | null {
  if (seen.xtversion !== undefined) {
    const { name, version } = splitXtversion(seen.xtversion);
    const row = terminalByReplyName(name, db);
    if (row)
      return {
        row,
        version: version === null ? null : dottedVersion(row, version),
        by: 'reply',
        because: `XTVERSION ${seen.xtversion}`,
      };
  }
  for (const row of db) {
    const f = (row.identity.fingerprints ?? []).find(
      (f) =>
        (f.da1 !== undefined || f.da2 !== undefined) &&
        (f.da1 === undefined || (seen.da1 !== undefined && new RegExp(f.da1).test(seen.da1))) &&
        (f.da2 === undefined || (seen.da2 !== undefined && new RegExp(f.da2).test(seen.da2))),
    );
    if (f) {
      const shown = [f.da1 && `DA1 ${seen.da1}`, f.da2 && `DA2 ${seen.da2}`].filter(Boolean).join(', ');
      return { row, version: null, by: 'fingerprint', because: shown };
    }
  }
  const env = seen.env ?? {};
  for (const inherited of [false, true]) {
    for (const row of db) {
      const set = row.identity.env.find((s) => inheritedSet(s) === inherited && allHold(env, s));
      if (!set) continue;
      const variable = row.identity.versionVariable;
      const raw = variable === undefined ? undefined : envValue(env, variable);
      return {
        row,
        version: raw === undefined ? null : dottedVersion(row, raw),
        by: 'env',
        because: set.map(describeCondition).join(' and '),
      };
    }
  }
  return null;
}
