/**
 * The batched query: every question termsight asks, written at once and answered in one round trip,
 * ending with DA1 (`CSI c`), which every VT-class terminal answers: once its reply is in, anything
 * not answered before it is not supported. What goes into the batch depends on the runtime, because
 * some terminals print the queries they do not understand as visible garbage: the gates are views
 * of the terminal database (its rows' `quirks`), and a terminal nobody has named gets the queries
 * some terminal prints only in a guarded round, once it has shown it parses them.
 */

import { toBytes } from '../core/escape.js';
import { wrapScreen, wrapTmuxBytes } from '../core/wrap.js';
import { multiplexerFromEnv } from '../env/multiplexer.js';
import type { Runtime } from '../env/runtime.js';
import { identify } from '../terminals/identify.js';
import { terminalById, terminalByReplyName } from '../terminals/lookup.js';
import { familiesPrintedBy, guardedFamilies, rowsNamedByEnv, rowsNamedByOwnEnv } from '../terminals/query-gates.js';
import type { QueryFamily, TerminalRow } from '../terminals/types.js';
import type { ProbeFacts } from './facts.js';

/** The queries, by name, as strings (`\x1b` is ESC). */
export const QUERIES = {
  /** XTVERSION: the terminal's name and version (`DCS > | name ST`). */
  xtversion: '\x1b[>q',
  /** Secondary device attributes: terminal type and version (`CSI > Pp ; Pv ; Pc c`). */
  da2: '\x1b[>c',
  /** The kitty graphics query: a 1x1 RGB image that is only checked, never stored (`a=q`). */
  kittyGraphics: '\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\',
  /** XTWINOPS 16: one cell's size in pixels (`CSI 6 ; h ; w t`). */
  cellPixels: '\x1b[16t',
  /** XTWINOPS 14: the text area's size in pixels (`CSI 4 ; h ; w t`). */
  windowPixels: '\x1b[14t',
  /** XTWINOPS 18: the text area's size in cells (`CSI 8 ; rows ; cols t`). */
  windowCells: '\x1b[18t',
  /** DECRQM 2026: synchronized output (`CSI ? 2026 ; Pm $ y`). */
  synchronizedOutput: '\x1b[?2026$p',
  /** OSC 11: the background colour. */
  background: '\x1b]11;?\x1b\\',
  /** XTSMGRAPHICS: the number of sixel colour registers (`CSI ? 1 ; 0 ; N S`). */
  sixelColors: '\x1b[?1;1;0S',
  /** Primary device attributes: the sentinel, always last. */
  da1: '\x1b[c',
} as const;

/** A query's name. */
export type QueryName = keyof typeof QUERIES;

/** What shapes the batch. Explicit fields win over what `runtime` says. */
export interface QueryOptions {
  /** The runtime to read the environment (which rows of the terminal database it names, `TMUX`, `STY`) and the platform from. */
  readonly runtime?: Runtime;
  /** The multiplexer in between: `null` for none; default from the runtime's environment. */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /** Inside tmux or screen: also ask the outer terminal, with the queries wrapped for the multiplexer's passthrough (default true). */
  readonly askOuter?: boolean;
  /** `process.platform` style; `win32` consoles show APC as text. Default from the runtime. */
  readonly platform?: string;
}

/** The decisions behind a batch, for the reducer and for `--trace`. */
export interface QueryPlan {
  /** The multiplexer the batch was shaped for. */
  readonly multiplexer: 'tmux' | 'screen' | null;
  /** Whether queries wrapped for the multiplexer's passthrough (tmux's or screen's) were sent (the outer terminal's DA1 is then a second DA1). */
  readonly wrapped: boolean;
  /** Whether DCS queries may be sent (the tmux wrapper itself is a DCS that tmux consumes). */
  readonly dcs: boolean;
  /** Whether APC queries (kitty graphics) may be sent, now or in the guarded round. */
  readonly apc: boolean;
  /** The queries sent straight to the terminal (or to the multiplexer), in order. */
  readonly direct: readonly QueryName[];
  /** The queries sent wrapped for the multiplexer's passthrough, in order (empty unless `wrapped`). */
  readonly outer: readonly QueryName[];
  /**
   * Guarded queries held back: some terminal prints them, and the environment names no terminal
   * that would receive them. They go in the guarded round (`planGuarded`), direct or wrapped like
   * the rest, once the replies show the terminal parses them.
   */
  readonly held: readonly QueryName[];
  /** Why a query family was left out or held back, for the trace. */
  readonly notes: readonly string[];
  /**
   * A guarded round only (`planGuarded` with `localTransfer`): the local-transfer query may join
   * its kitty query (no multiplexer row answered). The first batch decides by `kittyLocalAsked`.
   */
  readonly localTransfer?: boolean;
}

/** The full batch for an ordinary terminal: identity first, sentinel last. */
const FULL: readonly QueryName[] = [
  'xtversion',
  'da2',
  'kittyGraphics',
  'cellPixels',
  'windowPixels',
  'windowCells',
  'synchronizedOutput',
  'sixelColors',
  'background',
  'da1',
];

/**
 * The query families of each query, as the terminal database's `quirks` name them: a query is
 * left out where a row that would receive it prints one of its families.
 */
const FAMILIES: Readonly<Record<QueryName, readonly QueryFamily[]>> = {
  xtversion: ['xtversion'],
  da2: ['da2'],
  kittyGraphics: ['apc', 'kittyGraphics'],
  cellPixels: ['cellPixels'],
  windowPixels: ['windowPixels'],
  windowCells: ['windowCells'],
  synchronizedOutput: ['decrqm'],
  background: ['oscColours'],
  sixelColors: ['xtsmgraphics'],
  da1: ['da1'],
};

/** The lowest DA1 level (VT220) whose parser recognises control strings (DCS, APC) and ignores unknown ones. */
export const PARSING_DA1_LEVEL = 62;

const any = (name: QueryName, families: ReadonlySet<QueryFamily>) => FAMILIES[name].some((f) => families.has(f));

/** What a layer prints, with a note per row naming the families and the row. */
function printedBy(rows: readonly TerminalRow[], notes: string[]): Set<QueryFamily> {
  for (const row of rows) {
    const families = [...familiesPrintedBy([row])];
    if (families.length > 0) notes.push(`${row.name} prints ${families.join(', ')} queries: not sent`);
  }
  return familiesPrintedBy(rows);
}

/**
 * Decides the batch for a runtime: which multiplexer, which queries go where, which are held
 * back. The gates are views of the terminal database (docs/probe.md, "What goes to whom"):
 *
 * - A query goes to no layer whose row (named by the environment) prints one of its families:
 *   Apple Terminal prints DCS/APC, GNU screen shows DCS and APC payloads (its hardstatus becomes
 *   the window title), rxvt-unicode prints the kitty graphics query, zutty prints it and DECRQM.
 *   Windows consoles (`platform` `win32`) print APC: no kitty graphics query.
 * - Where the environment names no terminal on the terminal's own word (a scrubbed environment,
 *   ssh, a terminal termsight does not know, or only identity variables other terminals' sessions
 *   inherit, like `KITTY_WINDOW_ID` in zutty started from kitty), the guarded queries (those some row prints: the kitty graphics
 *   APC, DECRQM) are held back for the guarded round, which goes out only when the replies show
 *   a terminal that parses them and name none (`planGuarded`); everything else goes now. A tmux or
 *   screen whose variables were scrubbed (`env -i`, `sudo`, ssh) thus never sees a raw APC: it
 *   names itself in its replies (XTVERSION `tmux …`, DA2 type 84 tmux, 83 screen) and
 *   `planFollowUp` decides what follows.
 * - tmux answers XTVERSION and DA1 itself and drops the rest: those two go first unwrapped (tmux's
 *   own answers, the first DA1 being tmux's), with OSC 11 between them (tmux 3.4+ answers it with
 *   the pane's background, what its own sixel pads with; 3.3a and a default background say
 *   nothing), then, unless `askOuter: false`, the other queries and a DA1, each wrapped for the
 *   outer terminal, with the same gates for the outer terminal.
 * - GNU screen answers DA2 and DA1 itself and forwards the body of each of its DCS packets (under
 *   768 bytes) unparsed: DA2 and DA1 go first unwrapped, then, unless `askOuter: false`, every
 *   query the outer terminal's gates allow and a DA1, each in screen's packets (`wrapScreen`); with
 *   `askOuter: false`, only the raw queries screen neither prints nor takes as its title.
 */
export function planQuery(options: QueryOptions = {}): QueryPlan {
  const env = options.runtime?.env ?? {};
  const platform = options.platform ?? options.runtime?.platform;
  const multiplexer = options.multiplexer !== undefined ? options.multiplexer : (multiplexerFromEnv(env)?.name ?? null);
  const notes: string[] = [];
  const named = rowsNamedByEnv(env);
  const terminals = named.filter((row) => row.kind === 'terminal');
  // Behind screen, screen parses first (known from STY or TERM, or named by the caller), unless
  // every query goes inside its DCS packets, whose bodies it forwards to the outer terminal unparsed.
  const screenWrapped = multiplexer === 'screen' && options.askOuter !== false;
  const screenRow = multiplexer === 'screen' && !screenWrapped ? terminalById('screen') : undefined;
  const layer = screenRow ? [screenRow] : [];
  // What the terminal prints (the outer terminal behind tmux), and what screen prints when it parses first.
  const printed = printedBy([...layer, ...terminals], notes);
  if (platform === 'win32' && !printed.has('apc')) {
    printed.add('apc');
    notes.push('Windows consoles show APC queries as text: no kitty graphics query');
  }
  // Nobody named the terminal on its own word (inherited identity variables are no one's word:
  // zutty started from kitty has KITTY_WINDOW_ID): what some terminal prints waits until it shows it parses it.
  const own = rowsNamedByOwnEnv(env).filter((row) => row.kind === 'terminal');
  const guarded =
    own.length === 0 && (multiplexer !== 'screen' || screenWrapped) ? guardedFamilies() : new Set<QueryFamily>();
  if (own.length === 0 && terminals.length > 0)
    notes.push(
      `only inherited variables name ${terminals.map((row) => row.name).join(', ')}: the terminal is not taken as named`,
    );
  const sendable = FULL.filter((name) => !any(name, printed));
  const held = sendable.filter((name) => any(name, guarded));
  if (held.length > 0)
    notes.push(
      `no terminal named by its own environment: ${held.join(', ')} held back until its replies show it parses them`,
    );
  const now = sendable.filter((name) => !held.includes(name));
  const dcs = !printed.has('dcs');
  const apc = !printed.has('apc') && !printed.has('kittyGraphics');
  if (screenWrapped) {
    // screen answers DA2 and DA1 itself: those go first unwrapped (the first DA1 is screen's), then
    // the queries and a DA1, each in screen's DCS packets for the outer terminal.
    return { multiplexer, wrapped: true, dcs, apc, direct: ['da2', 'da1'], outer: now, held, notes };
  }
  if (multiplexer === 'tmux') {
    const wrapped = options.askOuter !== false && dcs;
    if (options.askOuter === false) notes.push('the outer terminal not asked: only tmux answers');
    return {
      multiplexer,
      wrapped,
      dcs,
      apc,
      direct: ['xtversion', 'background', 'da1'],
      outer: wrapped ? now : [],
      held: wrapped ? held : [],
      notes,
    };
  }
  return { multiplexer, wrapped: false, dcs, apc, direct: now, outer: [], held, notes };
}

/**
 * The second round the first round's replies call for, or null when none is needed. Today one
 * case: tmux answered (its XTVERSION or DA2 type 84) although the environment did not show it (no
 * `TMUX`: a scrubbed environment, as over ssh), so no wrapped query was sent. The second round is
 * exactly what the batch inside a known tmux adds after tmux's own DA1: the queries and a DA1,
 * each wrapped for passthrough, with the guarded ones held back as there. None when `askOuter` is
 * false, when wrapped queries were already sent, or when DCS may not be sent (the wrapper is a DCS).
 *
 * @example planFollowUp(planQuery({ runtime }), 'tmux', { runtime })?.outer.at(-1) === 'da1'
 */
export function planFollowUp(
  first: QueryPlan,
  shown: 'tmux' | 'screen' | null,
  options: QueryOptions = {},
): QueryPlan | null {
  if (shown === null || first.wrapped || first.multiplexer !== null || options.askOuter === false) return null;
  const plan = planQuery({ ...options, multiplexer: shown });
  if (!plan.wrapped) return null;
  const variable = shown === 'tmux' ? 'TMUX' : 'STY';
  return {
    ...plan,
    direct: [],
    notes: [
      ...plan.notes,
      `${shown} answered although ${variable} is not set: the wrapped queries go in a second round`,
    ],
  };
}

/**
 * Whether a row the replies named still needs the kitty graphics query: it draws kitty, its name
 * alone does not decide the protocol (Konsole, Zellij: their answer to the query does), and it
 * prints none of the held-back families. Every other named row answers from the database.
 */
function askKittyOf(row: TerminalRow, held: readonly QueryName[]): boolean {
  if (!held.includes('kittyGraphics') || !row.draws.some((d) => d.protocol === 'kitty')) return false;
  if (row.identity.xtversion?.byName.includes('graphics')) return false;
  const printed = familiesPrintedBy([row]);
  return !held.some((name) => any(name, printed));
}

/**
 * Whether a terminal row the replies named, which its name alone gives kitty pictures (kitty,
 * Ghostty, WezTerm), may still get the kitty query, to carry the local-transfer query beside it:
 * it is a terminal (not a multiplexer drawing kitty itself), draws kitty, and prints none of the
 * query's families.
 */
function askFileOf(row: TerminalRow, held: readonly QueryName[]): boolean {
  if (row.kind !== 'terminal' || !held.includes('kittyGraphics')) return false;
  if (!row.draws.some((d) => d.protocol === 'kitty')) return false;
  return !any('kittyGraphics', familiesPrintedBy([row]));
}

/** How the guarded round is planned. */
export interface GuardedOptions {
  /**
   * The local-transfer query may go in this round (`kittyLocalLater`: the caller has a probe file,
   * the session is local, nothing in between): a terminal the replies named that draws kitty
   * by name then gets the kitty query in it too, so that the file question is asked.
   */
  readonly localTransfer?: boolean;
}

/**
 * The guarded round a round's replies call for, or null: the queries `plan` held back and a DA1,
 * sent the way the round went (direct, or wrapped for tmux), when the terminal that answered
 * showed it parses them and did not name itself. It showed it by an XTVERSION reply (`facts.terminal`,
 * which a multiplexer's own never is) or a DA1 of level 62 or more; it named itself when its
 * XTVERSION name or a DA1/DA2 fingerprint is a row of the terminal database, which then answers
 * (and whose quirks forbid what it prints), unless the row draws kitty graphics and only the
 * query's answer says so (Konsole, Zellij). So a terminal costs this extra round trip only when
 * its environment and its first replies left it unknown, or left that one question open. With
 * `localTransfer`, one question more is open for a terminal that draws kitty by name (kitty,
 * Ghostty, WezTerm, named by replies alone): whether it reads this machine's files, asked with the
 * kitty query and a DA1 (the round's `localTransfer` says the local query may join it).
 *
 * @example planGuarded(planQuery({ runtime: scrubbed }), factsFromReplies('\x1b[?64;4c'))?.direct // ['kittyGraphics', 'synchronizedOutput', 'da1']
 */
export function planGuarded(plan: QueryPlan, facts: ProbeFacts, options: GuardedOptions = {}): QueryPlan | null {
  if (plan.held.length === 0) return null;
  const body = (reply: string | undefined) => (reply?.startsWith('\\e[') ? reply.slice(3) : undefined);
  const da1 = body(facts.da1?.reply);
  const da2 = body(facts.da2?.reply);
  const row = facts.terminal
    ? terminalByReplyName(facts.terminal.name)
    : identify({ ...(da1 !== undefined ? { da1 } : {}), ...(da2 !== undefined ? { da2 } : {}) })?.row;
  const local = options.localTransfer === true && plan.multiplexer === null && !plan.wrapped;
  const fileOnly = row !== undefined && !askKittyOf(row, plan.held) && local && askFileOf(row, plan.held);
  if (row && !askKittyOf(row, plan.held) && !fileOnly) return null;
  const shows = facts.terminal !== undefined || (facts.da1?.level ?? 0) >= PARSING_DA1_LEVEL;
  if (!shows) return null;
  const round: QueryName[] = fileOnly ? ['kittyGraphics', 'da1'] : [...plan.held, 'da1'];
  const why = fileOnly
    ? `${row?.name} named by its replies draws kitty: the kitty query follows, to ask whether it reads this machine's files`
    : `the terminal parses control strings (${facts.terminal ? 'it answered XTVERSION' : `DA1 level ${facts.da1?.level}`}) and names no known row: the held-back queries follow`;
  return {
    ...plan,
    direct: plan.wrapped ? [] : round,
    outer: plan.wrapped ? round : [],
    held: [],
    localTransfer: local && round.includes('kittyGraphics') && (row === undefined || row.kind === 'terminal'),
    notes: [...plan.notes, why],
  };
}

/**
 * The batched query's bytes for a runtime (see `planQuery` for what it leaves out where). Always ends
 * with DA1 (`CSI c`), wrapped for passthrough inside tmux.
 *
 * @example process.stdout.write(probeQuery({ runtime: processRuntime() }))
 */
export function probeQuery(options: QueryOptions = {}): Uint8Array {
  return queryBytes(planQuery(options));
}

/** The bytes of a plan: its direct queries, then each outer query wrapped for its multiplexer (tmux or screen). */
export function queryBytes(plan: QueryPlan): Uint8Array {
  const parts: Uint8Array[] = plan.direct.map((name) => toBytes(QUERIES[name]));
  for (const name of plan.outer)
    parts.push(plan.multiplexer === 'screen' ? toBytes(wrapScreen(QUERIES[name])) : wrapTmuxBytes(QUERIES[name]));
  let size = 0;
  for (const part of parts) size += part.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
