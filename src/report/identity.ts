/**
 * Which rows of the terminal database the report speaks of: the terminal (by its XTVERSION, by
 * tmux's `#{client_termtype}`, by a DA1/DA2 fingerprint, and only then by its environment) and
 * the multiplexer in between (tmux, GNU screen, Zellij, mosh). A terminal that answered is named
 * by its answers; identity variables other terminals' children inherit never override them
 * (docs/terminals.md, "Identification").
 */
import type { Env } from '../core/env-vars.js';
import { multiplexerFromEnv } from '../env/multiplexer.js';
import type { ProbeFacts } from '../probe/facts.js';
import type { TmuxFacts } from '../probe/tmux-formats.js';
import { TERMINALS } from '../terminals/database.js';
import { type Identified, identify } from '../terminals/identify.js';
import { dottedVersion, terminalById, terminalByReplyName } from '../terminals/lookup.js';
import type { TerminalRow } from '../terminals/types.js';
import type { MultiplexerName } from './types.js';

/** A row found (the terminal database's `Identified`), re-exported for the report's users. */
export type { Identified };

const TERMINAL_ROWS = TERMINALS.filter((row) => row.kind === 'terminal');
const MULTIPLEXER_ROWS = TERMINALS.filter((row) => row.kind === 'multiplexer');
const HERDR_ROW = TERMINALS.filter((row) => row.id === 'herdr');

/** An escaped CSI reply (`\e[?62;c`) as the body the database's fingerprints match (`?62;c`). */
const csiBody = (reply: string | undefined) => reply?.replace(/^\\e\[/, '');

/** The DA1/DA2 bodies of the facts, for fingerprints. */
function replyBodies(facts: ProbeFacts | undefined): { da1?: string; da2?: string } {
  const da1 = csiBody(facts?.da1?.reply);
  const da2 = csiBody(facts?.da2?.reply);
  return { ...(da1 !== undefined ? { da1 } : {}), ...(da2 !== undefined ? { da2 } : {}) };
}

/** A multiplexer found, with its row. */
export interface MultiplexerFound extends Identified {
  readonly name: MultiplexerName;
}

/**
 * The multiplexer between the program and the terminal: tmux or screen as the probe or the
 * environment shows them, else herdr (its variables), else Zellij (its XTVERSION, its variables,
 * its DA1/DA2), else mosh (its DA1/DA2; it sets no variable).
 */
export function multiplexerOf(
  env: Env,
  facts: ProbeFacts | undefined,
  tmux: TmuxFacts | null,
): MultiplexerFound | null {
  const named = facts?.multiplexer;
  const hint = multiplexerFromEnv(env);
  const classic = named ? (named.name.toLowerCase().startsWith('tmux') ? 'tmux' : 'screen') : hint?.name;
  if (classic !== undefined) {
    const row = terminalById(classic) as TerminalRow;
    const version = named?.version ?? (classic === 'tmux' ? (tmux?.version ?? null) : null);
    return named
      ? { name: classic, row, version, by: 'reply', because: `${named.name} answered for itself`, reply: named.reply }
      : { name: classic, row, version, by: 'env', because: hint?.because ?? '' };
  }
  // herdr: its own variables (its panes inherit the outer Ghostty's); over ssh it shows only as libghostty.
  const herdr = identify({ env }, HERDR_ROW);
  if (herdr) return { name: 'herdr', ...herdr };
  const zellij = terminalById('zellij') as TerminalRow;
  const said = facts?.terminal;
  if (said && terminalByReplyName(said.name, [zellij])) {
    const version = said.version === null ? null : dottedVersion(zellij, said.version);
    return { name: 'zellij', row: zellij, version, by: 'reply', because: `XTVERSION ${said.name}`, reply: said.reply };
  }
  const byEnv = identify({ env }, [zellij]);
  if (byEnv) return { name: 'zellij', ...byEnv };
  const printed = identify(replyBodies(facts), MULTIPLEXER_ROWS);
  if (printed && (printed.row.id === 'zellij' || printed.row.id === 'mosh')) {
    return { name: printed.row.id, ...printed, ...(facts?.da1 ? { reply: facts.da1.reply } : {}) };
  }
  return null;
}

/**
 * The terminal itself (the outer one behind a multiplexer): its XTVERSION first, then tmux's
 * `#{client_termtype}` (the XTVERSION tmux got from its client), then a DA1/DA2 fingerprint of a
 * reply that is the terminal's own (not behind Zellij or mosh, and behind tmux or screen only when
 * passthrough carried it), then the environment.
 */
export function terminalOf(
  env: Env,
  facts: ProbeFacts | undefined,
  tmux: TmuxFacts | null,
  multiplexer: MultiplexerName | null,
): Identified | null {
  const said = facts?.terminal;
  if (said) {
    const row = terminalByReplyName(said.name, TERMINAL_ROWS);
    if (row) {
      const version = said.version === null ? null : dottedVersion(row, said.version);
      return { row, version, by: 'reply', because: `XTVERSION ${said.name}`, reply: said.reply };
    }
    // The terminal named itself as one the database does not know: nothing else names it (its
    // environment may be another terminal's). A multiplexer's name (Zellij's) is not the terminal's.
    if (!terminalByReplyName(said.name, MULTIPLEXER_ROWS)) return null;
  }
  if (multiplexer === 'tmux' && tmux?.clientTermtype) {
    const found = identify({ xtversion: tmux.clientTermtype }, TERMINAL_ROWS);
    if (found) return { ...found, by: 'tmux', because: `tmux's #{client_termtype} is ${tmux.clientTermtype}` };
  }
  const own =
    multiplexer === null || ((multiplexer === 'tmux' || multiplexer === 'screen') && facts?.passthrough === true);
  if (own) {
    const printed = identify(replyBodies(facts), TERMINAL_ROWS);
    if (printed) return { ...printed, ...(facts?.da1 ? { reply: facts.da1.reply } : {}) };
  }
  return identify({ env }, TERMINAL_ROWS);
}

/**
 * Who is between the program and the screen, identified once for the whole report: the terminal
 * (the outer one behind a multiplexer) and the multiplexer. Every answer of the report reads this.
 */
export interface Parties {
  readonly terminal: Identified | null;
  readonly multiplexer: MultiplexerFound | null;
}

/** The parties from the environment, the probe's facts (only when a probe was answered) and what tmux said. */
export function identifyParties(env: Env, facts: ProbeFacts | undefined, tmux: TmuxFacts | null): Parties {
  const multiplexer = multiplexerOf(env, facts, tmux);
  const terminal = terminalOf(env, facts, multiplexer?.name === 'tmux' ? tmux : null, multiplexer?.name ?? null);
  return { terminal, multiplexer };
}
