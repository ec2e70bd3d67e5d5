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
import { dottedVersion, signsByPriority, terminalByReplyName } from './lookup.js';
import type { EnvSign, TerminalRow } from './types.js';

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
export interface Identified {
  readonly row: TerminalRow;
  readonly version: string | null;
  /** `reply`: its XTVERSION; `tmux`: tmux's `#{client_termtype}`; `fingerprint`: DA1/DA2; `env`: one of its signs. */
  readonly by: 'reply' | 'tmux' | 'fingerprint' | 'env';
  /** What showed it, as text: `XTVERSION kitty(0.41.1)`, `DA1 ?1;2c, DA2 >0;276;0c`, `TERM_PROGRAM is "vscode"`. */
  readonly because: string;
  /** The reply that showed it, escaped, when one did. */
  readonly reply?: string;
  /** The sign that named it, when the environment did. */
  readonly sign?: EnvSign;
}

/** `kitty(0.26.5)` → kitty / 0.26.5 (the probe's split, `splitNameVersion`, under the name the database uses). */
export const splitXtversion = splitNameVersion;

const allHold = (env: Env, set: readonly Condition[]) => set.every((c) => matches(env, c));
const inheritedSign = (sign: EnvSign) => sign.when.some((c) => isInherited(c.variable));

/** A version variable's value as a version: `XTerm(379)` (xterm's `XTERM_VERSION`) is 379, anything else as it is. */
const versionIn = (raw: string) => /\(([^()]*)\)$/.exec(raw)?.[1] ?? raw;

/**
 * The row `seen` shows: its XTVERSION name first, then a DA1/DA2 fingerprint (every reply the
 * fingerprint names must match), then the environment: a condition set on variables every
 * terminal sets anew (`TERM_PROGRAM`, `TERM`) before one on an identity variable other terminals
 * inherit (`KITTY_WINDOW_ID` under `TERM_PROGRAM=vscode` is VS Code's, not kitty's).
 *
 * @example identify({ xtversion: 'kitty(0.28.0)' })?.version // '0.28.0'
 */
export function identify(seen: Sighting, db: readonly TerminalRow[] = TERMINALS): Identified | null {
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
  // The recogniser: of the signs that hold, the lowest priority, signs on inherited variables last.
  const signs = signsByPriority(db).filter(({ sign }) => sign.names !== false && allHold(env, sign.when));
  const found = signs.find(({ sign }) => !inheritedSign(sign)) ?? signs[0];
  if (found) {
    const { row, sign } = found;
    const variable = sign.versionVariable ?? row.identity.versionVariable;
    const raw = variable === undefined ? undefined : envValue(env, variable);
    return {
      row,
      version: raw === undefined ? null : dottedVersion(row, versionIn(raw)),
      by: 'env',
      because: sign.when.map(describeCondition).join(' and '),
      sign,
    };
  }
  return null;
}
