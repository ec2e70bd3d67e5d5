/**
 * The probe as a pure reducer (after raxol's `Capabilities.Probe`): `step(state, event)` returns the
 * next state and the actions the driver must carry out. No time is read inside `step` and nothing
 * sleeps: the clock arrives as `{ type: 'clock', nowMs }` events, so every timing case is a table row.
 *
 * Timing rules:
 * - The deadline is `budgetMs` after the clock origin (`nowMs`): 100 ms, or 1000 ms when any
 *   non-empty `SSH_*` variable is present.
 * - At the deadline, if a reply byte arrived but the sentinel did not, the deadline moves once by
 *   `extendMs` (`extendDeadline`); otherwise (silence, or already extended) the probe ends `timedOut`.
 * - After the DA1 sentinel, where nothing reorders replies, the result is due at the very next clock
 *   event (the driver ticks right after each chunk): that is the one drain window.
 * - Behind tmux with wrapped queries, the first DA1 is tmux's. The outer terminal's DA1 ends the
 *   probe; until it comes, a window of `drainMs` (default min(budget/2, 50 ms), 300 ms when remote)
 *   after tmux's DA1 stays open. If nothing wrapped came back in it, passthrough is off and the probe
 *   ends; if something did, the probe waits for the outer DA1 up to the deadline (extended once).
 * - A second round: when the environment did not show tmux (no TMUX: scrubbed, as over ssh) but the
 *   first round's replies do (XTVERSION `tmux …`, DA2 type 84), the wrapped queries and a wrapped
 *   DA1 are written the moment tmux's DA1 is in (see `planFollowUp`), unless `passthrough: false`.
 *   The same rules then decide passthrough, with the window sized for a second round trip: it opens
 *   at the clock event after tmux's DA1 and lasts max(`drainMs`, the first round's own duration
 *   capped at the budget). So with passthrough off the probe ends at most that window after tmux's
 *   DA1 (locally: `drainMs`, as inside a known tmux); with passthrough on it ends on the outer DA1,
 *   waiting at most until the later of the window's end and the deadline (extended once). The
 *   second round never starts after the first has timed out: it needs tmux's DA1.
 * - Behind GNU screen (and on Windows, where ConPTY answers DA1 itself), replies the multiplexer
 *   forwards (OSC 11) arrive after its DA1: the probe ends when the background colour is in, or when
 *   the `drainMs` window after the sentinel closes. A screen the environment hides shows itself by
 *   its DA2 (type 83), which comes before its DA1: the same window then follows.
 * - After `done`, reply bytes are `drained`, never reclassified, never passed on as keys; user input
 *   is `passthrough` at any time, exactly and in order.
 */
import { envValue, isRemote, type Runtime } from '../env/runtime.js';
import { factsFromReplies, multiplexerNamedBy } from './classify.js';
import type { ProbeAction, ProbeEvent } from './events.js';
import type { ProbeFacts } from './facts.js';
import { planFollowUp, planQuery, type QueryOptions, type QueryPlan, queryBytes } from './query.js';
import { parseReply } from './replies.js';
import { createScanner, holdsReply, type ReplyToken, releaseInput, type ScannerState, scan } from './scanner.js';

/** Options of one probe. Every time is in the injected clock's milliseconds. */
export interface ProbeOptions {
  /** Silence deadline after the clock origin (default 100; 1000 when any `SSH_*` variable is set). */
  readonly budgetMs?: number;
  /** The one-time extension (default: the budget). */
  readonly extendMs?: number;
  /** The clock origin: the time of `start` (default 0). */
  readonly nowMs?: number;
  /** Whether the probe talks to a terminal (default: stdin and stdout are TTYs). False: nothing is written. */
  readonly tty?: boolean;
  /** Whether the process is in the terminal's foreground process group (default true). False: nothing is written. */
  readonly foreground?: boolean;
  /** Inside tmux, also send the queries wrapped for the outer terminal (default true). */
  readonly passthrough?: boolean;
  /** The drain window behind a multiplexer (see the module comment for the default). */
  readonly drainMs?: number;
  /** The scanner's reply cap in bytes (default 4096). */
  readonly maxReplyBytes?: number;
  /** The bytes to write instead of `probeQuery()`'s (the plan still shapes how replies are read, and any second round). */
  readonly query?: Uint8Array;
  /** The multiplexer, when the caller knows better than the environment (`null`: none). */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /** `process.platform` style, when the runtime does not say. */
  readonly platform?: string;
}

/** Where a probe is: not started, waiting for the sentinel, waiting for the outer terminal behind tmux, draining, done. */
export type ProbePhase = 'init' | 'awaiting' | 'outer' | 'draining' | 'done';

/** The probe's whole state: an immutable value. */
export interface ProbeState {
  readonly phase: ProbePhase;
  /** How the batch was shaped (multiplexer, wrapped queries). */
  readonly plan: QueryPlan;
  /** What shaped the plan: kept to plan a second round the same way. */
  readonly queryOptions: QueryOptions;
  /** The multiplexer the first round's replies named (XTVERSION, DA2), whatever the environment said. */
  readonly shown: 'tmux' | 'screen' | null;
  /** The second round, once written (tmux answered although the environment hid it), else null. */
  readonly followUp: QueryPlan | null;
  /** The bytes written on start. */
  readonly query: Uint8Array;
  /** Why nothing will be written, or null. */
  readonly skip: ProbeFacts['skipped'] | null;
  readonly budgetMs: number;
  readonly extendMs: number;
  readonly drainMs: number;
  /** Whether replies may arrive after the sentinel (screen, Windows): a drain window follows it. */
  readonly reorders: boolean;
  /** Clock origin and the latest clock seen. */
  readonly startMs: number;
  readonly nowMs: number;
  readonly deadlineMs: number;
  readonly extended: boolean;
  /** Whether a reply byte has arrived (what allows the one extension). */
  readonly seenReply: boolean;
  /** How many DA1 replies arrived. */
  readonly da1Count: number;
  /** Behind tmux: whether the outer terminal has answered anything. */
  readonly outerAnswered: boolean;
  /** Whether the OSC 11 reply is in (ends a screen/Windows drain window early). */
  readonly backgroundIn: boolean;
  /** End of the current window; `null` with `windowPending` when it starts at the next clock; -Infinity: the next clock ends it. */
  readonly windowEndMs: number | null;
  readonly windowPending: boolean;
  readonly scanner: ScannerState;
  readonly replies: readonly ReplyToken[];
  readonly facts: ProbeFacts | null;
}

/** The default budget: ~100 ms locally, ~1 s when the session is remote (any non-empty `SSH_*`). */
export function defaultBudgetMs(runtime: Runtime): number {
  return isRemote(runtime.env) ? 1000 : 100;
}

/**
 * A probe that has not started. Not a TTY, `TERM=dumb` or not in the foreground: `start` writes
 * nothing and ends at once with `skipped`.
 *
 * @example let [s, actions] = step(createProbe(processRuntime(), { nowMs: performance.now() }), { type: 'start' });
 */
export function createProbe(runtime: Runtime, options: ProbeOptions = {}): ProbeState {
  const budgetMs = positive(options.budgetMs) ?? defaultBudgetMs(runtime);
  const extendMs = positive(options.extendMs) ?? budgetMs;
  const remote = isRemote(runtime.env);
  const drainMs = positive(options.drainMs) ?? Math.min(budgetMs / 2, remote ? 300 : 50);
  const queryOptions: QueryOptions = {
    runtime,
    ...(options.multiplexer !== undefined ? { multiplexer: options.multiplexer } : {}),
    ...(options.passthrough !== undefined ? { passthrough: options.passthrough } : {}),
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
  };
  const plan = planQuery(queryOptions);
  const tty = options.tty ?? (Boolean(runtime.isTTY.stdin) && runtime.isTTY.stdout);
  const skip: ProbeFacts['skipped'] | null = !tty
    ? 'not a terminal'
    : envValue(runtime.env, 'TERM') === 'dumb'
      ? 'TERM=dumb'
      : options.foreground === false
        ? 'background process group'
        : null;
  const platform = options.platform ?? runtime.platform;
  const startMs = options.nowMs ?? 0;
  return {
    phase: 'init',
    plan,
    queryOptions,
    shown: null,
    followUp: null,
    query: options.query ?? queryBytes(plan),
    skip,
    budgetMs,
    extendMs,
    drainMs,
    reorders: plan.multiplexer === 'screen' || platform === 'win32',
    startMs,
    nowMs: startMs,
    deadlineMs: startMs + budgetMs,
    extended: false,
    seenReply: false,
    da1Count: 0,
    outerAnswered: false,
    backgroundIn: false,
    windowEndMs: null,
    windowPending: false,
    scanner: createScanner(options.maxReplyBytes !== undefined ? { maxReplyBytes: options.maxReplyBytes } : {}),
    replies: [],
    facts: null,
  };
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Advances the probe by one event; returns the next state and the actions to carry out, in order.
 *
 * @example const [next, actions] = step(state, { type: 'input', bytes: chunk });
 */
export function step(state: ProbeState, event: ProbeEvent): [ProbeState, ProbeAction[]] {
  switch (event.type) {
    case 'start':
      return onStart(state);
    case 'input':
      return onInput(state, event.bytes);
    case 'clock':
      return onClock(state, event.nowMs);
  }
}

/** The result, or null while the probe is pending. */
export function probeResult(state: ProbeState): ProbeFacts | null {
  return state.facts;
}

/**
 * When the driver must send the next clock event at the latest (same clock as the events), or null
 * when no timer is needed (not started, or done). Re-read it after every step: it moves when the
 * sentinel arrives (the next tick is then due at once) and when a window opens.
 */
export function probeWakeAt(state: ProbeState): number | null {
  switch (state.phase) {
    case 'init':
    case 'done':
      return null;
    case 'awaiting':
      return state.deadlineMs;
    case 'outer':
      if (state.windowPending || state.windowEndMs === null) return state.nowMs;
      return state.outerAnswered ? Math.max(state.deadlineMs, state.windowEndMs) : state.windowEndMs;
    case 'draining':
      if (state.windowPending || state.windowEndMs === null || state.windowEndMs === -Infinity || state.backgroundIn) {
        return state.nowMs;
      }
      return state.windowEndMs;
  }
}

function onStart(state: ProbeState): [ProbeState, ProbeAction[]] {
  if (state.phase !== 'init') return [state, []];
  if (state.skip !== null) {
    const facts: ProbeFacts = { replies: [], sentinel: false, timedOut: false, elapsedMs: 0, skipped: state.skip };
    return [{ ...state, phase: 'done', facts }, [{ type: 'done', facts }]];
  }
  // The origin is the latest time known at start: `nowMs`, or a clock event that came before start.
  return [
    { ...state, phase: 'awaiting', startMs: state.nowMs, deadlineMs: state.nowMs + state.budgetMs },
    [{ type: 'write', bytes: state.query }],
  ];
}

function onInput(state: ProbeState, bytes: Uint8Array): [ProbeState, ProbeAction[]] {
  // Nothing asked (not started, or skipped): every byte is the user's.
  if (state.phase === 'init' || (state.phase === 'done' && state.skip !== null)) {
    return [state, bytes.length > 0 ? [{ type: 'passthrough', bytes }] : []];
  }
  const scanned = scan(state.scanner, bytes);
  const actions: ProbeAction[] = [];
  if (state.phase === 'done') {
    // The driver may stop listening any time now: a partial that cannot be a reply goes back at once.
    const released = releaseInput(scanned.state);
    for (const token of [...scanned.tokens, ...released.tokens]) {
      actions.push(
        token.type === 'reply' ? { type: 'drained', bytes: token.bytes } : { type: 'passthrough', bytes: token.bytes },
      );
    }
    return [{ ...state, scanner: released.state }, actions];
  }
  let next: Mutable<ProbeState> = { ...state, scanner: scanned.state };
  const replies = [...state.replies];
  for (const token of scanned.tokens) {
    if (token.type === 'input') {
      actions.push({ type: 'passthrough', bytes: token.bytes });
      continue;
    }
    replies.push(token);
    next.seenReply = true;
    const reply = parseReply(token);
    if (reply === null) continue;
    if (reply.type === 'background') next.backgroundIn = true;
    if (next.phase === 'awaiting' && next.shown === null) {
      // A multiplexer naming itself in the first round; a hidden screen reorders like a known one.
      next.shown = multiplexerNamedBy(reply);
      if (next.shown === 'screen' && next.plan.multiplexer === null) next.reorders = true;
    }
    // Wrapped queries are answered after tmux's own DA1, and tmux answers in order: any reply
    // after it is the outer terminal's.
    if (next.phase === 'outer') next.outerAnswered = true;
    if (reply.type === 'da1') {
      const [after, write] = onSentinel(next);
      next = after;
      if (write) actions.push(write);
    }
  }
  if (holdsReply(next.scanner)) next.seenReply = true;
  next.replies = replies;
  return [next, actions];
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

/**
 * A DA1 arrived: the sentinel (or, behind tmux with wrapped queries, tmux's and then the outer
 * terminal's). Returns the next state and, when tmux showed itself only now, the second round to write.
 */
function onSentinel(state: Mutable<ProbeState>): [Mutable<ProbeState>, ProbeAction | null] {
  const count = state.da1Count + 1;
  const next = { ...state, da1Count: count };
  if (state.phase === 'awaiting') {
    if (state.plan.wrapped) return [{ ...next, phase: 'outer', windowPending: true, windowEndMs: null }, null];
    const followUp = planFollowUp(state.plan, state.shown, state.queryOptions);
    if (followUp) {
      // tmux's DA1 of the first round: now ask the outer terminal through it.
      const write: ProbeAction = { type: 'write', bytes: queryBytes(followUp) };
      return [
        { ...next, phase: 'outer', followUp, outerAnswered: false, windowPending: true, windowEndMs: null },
        write,
      ];
    }
    if (state.reorders) return [{ ...next, phase: 'draining', windowPending: true, windowEndMs: null }, null];
    return [{ ...next, phase: 'draining', windowPending: false, windowEndMs: -Infinity }, null];
  }
  if (state.phase === 'outer') {
    // The outer terminal's DA1: it answers in order, so everything it had to say is in.
    return [{ ...next, phase: 'draining', outerAnswered: true, windowPending: false, windowEndMs: -Infinity }, null];
  }
  return [next, null];
}

/** How long a window lasts once it opens at `now`: `drainMs`, or for a second round at least the first round's duration (capped at the budget). */
function windowLength(state: ProbeState, now: number): number {
  if (state.phase !== 'outer' || state.followUp === null) return state.drainMs;
  return Math.max(state.drainMs, Math.min(now - state.startMs, state.budgetMs));
}

function onClock(state: ProbeState, nowMs: number): [ProbeState, ProbeAction[]] {
  if (state.phase === 'init' || state.phase === 'done') return [{ ...state, nowMs: Math.max(state.nowMs, nowMs) }, []];
  const now = Math.max(state.nowMs, nowMs); // a clock never runs backwards here
  let next: ProbeState = { ...state, nowMs: now };
  if (next.windowPending) next = { ...next, windowPending: false, windowEndMs: now + windowLength(next, now) };
  switch (next.phase) {
    case 'awaiting':
      return now >= next.deadlineMs ? extendOrEnd(next) : [next, []];
    case 'outer': {
      const windowEnd = next.windowEndMs ?? now;
      if (!next.outerAnswered) return now >= windowEnd ? finish(next, false) : [next, []];
      return now >= Math.max(next.deadlineMs, windowEnd) ? extendOrEnd(next) : [next, []];
    }
    case 'draining': {
      const windowEnd = next.windowEndMs ?? -Infinity;
      if (windowEnd === -Infinity || next.backgroundIn || now >= windowEnd) return finish(next, false);
      return [next, []];
    }
    default:
      return [next, []];
  }
}

/** The deadline passed: move it once when the terminal has started answering, else give up. */
function extendOrEnd(state: ProbeState): [ProbeState, ProbeAction[]] {
  if (state.seenReply && !state.extended) {
    const deadlineMs = state.deadlineMs + state.extendMs;
    return [{ ...state, extended: true, deadlineMs }, [{ type: 'extendDeadline', deadlineMs }]];
  }
  return finish(state, true);
}

/** Ends the probe: a held partial that cannot be a reply goes back to the user, then `done`. */
function finish(state: ProbeState, timedOut: boolean): [ProbeState, ProbeAction[]] {
  const released = releaseInput(state.scanner);
  const actions: ProbeAction[] = [];
  for (const token of released.tokens) actions.push({ type: 'passthrough', bytes: token.bytes });
  const facts = factsFromReplies(state.replies, {
    // The environment's multiplexer, else the one the replies named (a scrubbed tmux or screen).
    multiplexer: state.plan.multiplexer ?? state.followUp?.multiplexer ?? state.shown,
    wrapped: state.plan.wrapped || state.followUp !== null,
    sentinel: state.da1Count > 0,
    timedOut,
    elapsedMs: state.nowMs - state.startMs,
  });
  actions.push({ type: 'done', facts });
  return [{ ...state, phase: 'done', scanner: released.state, facts }, actions];
}
