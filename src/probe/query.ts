/**
 * The batched query: every question termsight asks, written at once and answered in one round trip,
 * ending with DA1 (`CSI c`), which every VT-class terminal answers: once its reply is in, anything
 * not answered before it is not supported. What goes into the batch depends on the runtime, because
 * some terminals print the queries they do not understand as visible garbage.
 */

import { toBytes } from '../core/escape.js';
import { wrapTmuxBytes } from '../core/wrap.js';
import { multiplexerFromEnv } from '../env/multiplexer.js';
import { envValue, type Runtime } from '../env/runtime.js';

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
  /** The runtime to read `TMUX`, `STY`, `TERM`, `TERM_PROGRAM`, `WT_SESSION` and the platform from. */
  readonly runtime?: Runtime;
  /** The multiplexer in between: `null` for none; default from the runtime's environment. */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /** Inside tmux: also ask the outer terminal, with the queries wrapped for tmux's passthrough (default true). */
  readonly askOuter?: boolean;
  /** `process.platform` style; `win32` consoles show APC as text. Default from the runtime. */
  readonly platform?: string;
}

/** The decisions behind a batch, for the reducer and for `--trace`. */
export interface QueryPlan {
  /** The multiplexer the batch was shaped for. */
  readonly multiplexer: 'tmux' | 'screen' | null;
  /** Whether queries wrapped for tmux passthrough were sent (the outer terminal's DA1 is then a second DA1). */
  readonly wrapped: boolean;
  /** Whether DCS queries may be sent (the tmux wrapper itself is a DCS that tmux consumes). */
  readonly dcs: boolean;
  /** Whether APC queries (kitty graphics) may be sent. */
  readonly apc: boolean;
  /** The queries sent straight to the terminal (or to the multiplexer), in order. */
  readonly direct: readonly QueryName[];
  /** The queries sent wrapped for tmux passthrough, in order (empty unless `wrapped`). */
  readonly outer: readonly QueryName[];
  /** Why a query family was left out, for the trace. */
  readonly notes: readonly string[];
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

const APC_QUERIES: ReadonlySet<QueryName> = new Set<QueryName>(['kittyGraphics']);

/**
 * Decides the batch for a runtime: which multiplexer, which query families are safe, what goes wrapped.
 *
 * - Apple Terminal (`TERM_PROGRAM=Apple_Terminal`) prints DCS/APC queries: none are sent.
 * - Windows consoles (`platform` `win32`, `WT_SESSION`) print APC: no kitty graphics query.
 * - GNU screen shows DCS and APC payloads as text: neither is sent.
 * - tmux answers XTVERSION and DA1 itself and drops the rest: those two go first unwrapped (tmux's
 *   own answers, the first DA1 being tmux's), then, unless `askOuter: false`, the identity,
 *   graphics, size, sync and colour queries and a DA1, each wrapped for the outer terminal.
 * - With no multiplexer in the environment the full batch goes out, DA2 included: a tmux or screen
 *   whose variables were scrubbed (`env -i`, `sudo`, ssh) then names itself in its replies
 *   (XTVERSION `tmux …`, DA2 type 84 tmux, 83 screen), and `planFollowUp` decides what follows.
 *   That batch holds no DCS query, so screen has nothing to print; its one APC (the kitty
 *   graphics query) is not drawn by screen either: screen takes an APC string as the window's
 *   hardstatus, which (with an xterm outside) becomes the window title until something else sets
 *   it. That is accepted rather than holding the kitty query back for a second round, which would
 *   cost every unidentified terminal (most ssh sessions) a round trip, for a screen that lost
 *   both STY and a `screen*` TERM.
 */
export function planQuery(options: QueryOptions = {}): QueryPlan {
  const env = options.runtime?.env ?? {};
  const platform = options.platform ?? options.runtime?.platform;
  const multiplexer = options.multiplexer !== undefined ? options.multiplexer : (multiplexerFromEnv(env)?.name ?? null);
  const notes: string[] = [];
  let dcs = true;
  let apc = true;
  if (envValue(env, 'TERM_PROGRAM') === 'Apple_Terminal') {
    dcs = apc = false;
    notes.push('Apple Terminal shows DCS/APC queries as text: none sent');
  }
  if (platform === 'win32' || envValue(env, 'WT_SESSION') !== undefined) {
    apc = false;
    notes.push('Windows consoles show APC queries as text: no kitty graphics query');
  }
  if (multiplexer === 'screen') {
    dcs = apc = false;
    notes.push('GNU screen shows DCS/APC payloads as text: none sent');
  }
  const allowed = (name: QueryName): boolean => apc || !APC_QUERIES.has(name);
  if (multiplexer === 'tmux') {
    const wrapped = options.askOuter !== false && dcs;
    if (options.askOuter === false) notes.push('the outer terminal not asked: only tmux answers');
    return {
      multiplexer,
      wrapped,
      dcs,
      apc,
      direct: ['xtversion', 'da1'],
      outer: wrapped ? FULL.filter(allowed) : [],
      notes,
    };
  }
  return { multiplexer, wrapped: false, dcs, apc, direct: FULL.filter(allowed), outer: [], notes };
}

/**
 * The second round the first round's replies call for, or null when none is needed. Today one
 * case: tmux answered (its XTVERSION or DA2 type 84) although the environment did not show it (no
 * `TMUX`: a scrubbed environment, as over ssh), so no wrapped query was sent. The second round is
 * exactly what the batch inside a known tmux adds after tmux's own DA1: the identity, graphics,
 * size, sync and colour queries and a DA1, each wrapped for passthrough. None when `askOuter` is
 * false, when wrapped queries were already sent, or when DCS may not be sent (the wrapper is a DCS).
 *
 * @example planFollowUp(planQuery({ runtime }), 'tmux', { runtime })?.outer.at(-1) === 'da1'
 */
export function planFollowUp(
  first: QueryPlan,
  shown: 'tmux' | 'screen' | null,
  options: QueryOptions = {},
): QueryPlan | null {
  if (shown !== 'tmux' || first.wrapped || first.multiplexer === 'screen' || options.askOuter === false) return null;
  const plan = planQuery({ ...options, multiplexer: 'tmux' });
  if (!plan.wrapped) return null;
  return {
    ...plan,
    direct: [],
    notes: [...plan.notes, 'tmux answered although TMUX is not set: the wrapped queries go in a second round'],
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

/** The bytes of a plan: its direct queries, then each outer query wrapped for tmux. */
export function queryBytes(plan: QueryPlan): Uint8Array {
  const parts: Uint8Array[] = plan.direct.map((name) => toBytes(QUERIES[name]));
  for (const name of plan.outer) parts.push(wrapTmuxBytes(QUERIES[name]));
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
