/**
 * The probe as a pure reducer: `stepProbe(state, event)` returns the next state and the actions
 * the driver carries out. No time is read and nothing sleeps: the clock arrives as events, and
 * `probeNextTickAt` says when the next one is due. The state is tagged by phase and each phase
 * holds only what it needs. The timing rules, with their reasons, are in docs/probe.md.
 */
import { envValue, isRemote, type Runtime } from '../env/runtime.js';
import { slowLinkFromEnv } from '../terminals/slow-links.js';
import { type AnswerKey, batchKeys, OWN_KEYS, type PendingAsk, queryKey, replyKey, routeReply } from './asks.js';
import { factsFromReplies, multiplexerNamedBy } from './classify.js';
import type { ProbeAction, ProbeEvent } from './events.js';
import type { ProbeFacts, ProbeSkipReason } from './facts.js';
import { kittyLocalLater, withKittyLocal } from './kitty-local.js';
import { planFollowUp, planGuarded, planQuery, type QueryOptions, type QueryPlan, queryBytes } from './query.js';
import { parseReply } from './replies.js';
import {
  createScanner,
  flushScanner,
  holdsReply,
  type ReplyToken,
  releaseInput,
  type ScannerState,
  type ScanToken,
  scanReplies,
} from './scanner.js';

/** Options of one probe. Every time is in the injected clock's milliseconds. */
export interface ProbeOptions {
  /** Silence deadline after the clock origin (default 100; 1000 over a slow link: any `SSH_*`, a browser or remote editor). */
  readonly budgetMs?: number;
  /** The one-time extension (default: the budget). */
  readonly extendMs?: number;
  /** The clock origin: the time of `start` (default 0). */
  readonly nowMs?: number;
  /** Whether the probe talks to a terminal (default: stdin and stdout are TTYs). False: nothing is written. */
  readonly tty?: boolean;
  /** Whether the process is in the terminal's foreground process group (default true). False: nothing is written. */
  readonly foreground?: boolean;
  /** Inside tmux, also ask the outer terminal, with queries wrapped for tmux's passthrough (default true). */
  readonly askOuter?: boolean;
  /** The settle window after the multiplexer's DA1 (default min(budget/2, 50 ms), 300 ms over a slow link). */
  readonly settleMs?: number;
  /** The scanner's reply cap in bytes (default 4096). */
  readonly maxReplyBytes?: number;
  /** The bytes to write instead of `probeQuery()`'s (the plan still shapes how replies are read, and any second round). */
  readonly query?: Uint8Array;
  /** The multiplexer, when the caller knows better than the environment (`null`: none). */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /** `process.platform` style, when the runtime does not say. */
  readonly platform?: string;
  /**
   * A probe file the terminal may read (kitty's `t=t`, see kitty-local.ts): its local-transfer
   * query joins the batch where `kittyLocalAsked` says so, else the guarded round where
   * `kittyLocalLater` does and that round asks kitty's query. Absent: not asked.
   */
  readonly kittyLocalPath?: string;
  /**
   * An application's queries to ride in the batch (before its DA1 sentinel), each answered by an
   * `answer` action with its index: the reply, or null when the sentinel came first (not supported)
   * or the probe ended without it (then a late reply is swallowed). A query termsight asks in the
   * same batch (the same answer key) is not written twice: the ask gets a copy of that reply. Each
   * must have an answer key (`queryKey`); one that has none is a TypeError.
   */
  readonly asks?: readonly Uint8Array[];
  /**
   * Only the asks and a DA1 are written (`askTerminal`): no query of termsight's, no second or
   * guarded round; every reply but the asks' and the DA1 goes on to the application.
   */
  readonly asksOnly?: boolean;
}

/** What one probe was set up with; it never changes while the probe runs. */
export interface ProbeSetup {
  /** How the batch was shaped (multiplexer, wrapped queries). */
  readonly plan: QueryPlan;
  /** What shaped the plan: kept to plan a second round the same way. */
  readonly queryOptions: QueryOptions;
  /** The bytes written on start. */
  readonly query: Uint8Array;
  /** Why nothing will be written, or null. */
  readonly skip: ProbeSkipReason | null;
  readonly budgetMs: number;
  readonly extendMs: number;
  readonly settleMs: number;
  /** Whether the terminal side forwards replies after its own DA1 (screen, Windows ConPTY). */
  readonly reorders: boolean;
  readonly maxReplyBytes: number;
  /** The probe file of the local-transfer query when it may still go in the guarded round (`kittyLocalLater`), else null. */
  readonly kittyLocalLaterPath: string | null;
  /** The answer key of each ask, by index. */
  readonly asks: readonly AnswerKey[];
  /** Whether each ask shares a question the batch writes anyway (then it was not written twice). */
  readonly shares: readonly boolean[];
  /** The keys of termsight's own replies in this probe (`OWN_KEYS`; only DA1 for `asksOnly`). */
  readonly own: ReadonlySet<AnswerKey>;
  readonly asksOnly: boolean;
}

/** The deadline: when silence ends the probe, and whether its one extension is used. */
export interface Deadline {
  readonly atMs: number;
  readonly extended: boolean;
}

/**
 * A window that follows a DA1: due at the next clock tick, opening at the next clock tick (its
 * length counted from then), or open until `endMs`.
 */
export type ProbeWindow =
  | { readonly kind: 'next-tick' }
  | { readonly kind: 'opens' }
  | { readonly kind: 'open'; readonly endMs: number };

/** Not started: only the setup and the latest clock (the origin, once `start` comes). */
export interface InitState {
  readonly phase: 'init';
  readonly setup: ProbeSetup;
  readonly nowMs: number;
}

/** What every phase between `start` and the result holds. */
interface Running {
  readonly setup: ProbeSetup;
  readonly startMs: number;
  readonly nowMs: number;
  readonly deadline: Deadline;
  readonly scanner: ScannerState;
  readonly replies: readonly ReplyToken[];
  /** Whether a reply byte has arrived (what allows the one extension). */
  readonly seenReply: boolean;
  readonly da1Count: number;
  /** The DA1 replies asked for so far: one per round that reaches the terminal (tmux's own, the outer's, the guarded round's). */
  readonly asked: number;
  /** The multiplexer the first round's replies named (XTVERSION, DA2), whatever the environment said. */
  readonly shown: 'tmux' | 'screen' | null;
  /** The application's asks written in the batch and not answered yet, in the order written. */
  readonly pending: readonly PendingAsk[];
  /** The asks that share one of termsight's questions (not written twice), waiting for a copy of its reply. */
  readonly shared: readonly PendingAsk[];
}

/** The batch is out; waiting for its sentinel (DA1). */
export interface AwaitingState extends Running {
  readonly phase: 'awaiting';
}

/** Behind tmux: tmux's DA1 is in; waiting for the outer terminal's answers to the wrapped queries. */
export interface OuterState extends Running {
  readonly phase: 'outer';
  /** The second round, when tmux showed itself only in the replies (else null: wrapped from the start). */
  readonly followUp: QueryPlan | null;
  /** Whether the outer terminal has answered anything. */
  readonly outerAnswered: boolean;
  readonly window: ProbeWindow;
}

/** The guarded round is out (the queries some terminal prints, to one that showed it parses them); waiting for its DA1. */
export interface GuardedState extends Running {
  readonly phase: 'guarded';
  /** The tmux round before it, when there was one (it shapes how replies are read). */
  readonly followUp: QueryPlan | null;
  /** Whether the guarded round has been answered at all. */
  readonly answered: boolean;
  readonly window: ProbeWindow;
}

/** The sentinel is in; a short window for replies a multiplexer forwards after its own DA1. */
export interface SettlingState extends Running {
  readonly phase: 'settling';
  readonly followUp: QueryPlan | null;
  readonly window: ProbeWindow;
}

/** The result is out. Late replies are swallowed; keys still go back. */
export interface DoneState {
  readonly phase: 'done';
  readonly setup: ProbeSetup;
  readonly nowMs: number;
  readonly facts: ProbeFacts;
  /** Scans late input; null when nothing was written (skipped): then every byte is the user's. */
  readonly scanner: ScannerState | null;
  /** DA1 replies the batch still owes (it ended before them): their arrival is `lateSentinel`. */
  readonly owedSentinels: number;
  /** Asks the probe ended without: their replies, when they come, are swallowed (late for everyone). */
  readonly lateAsks: readonly PendingAsk[];
}

/** The probe's whole state: an immutable value, tagged by phase. */
export type ProbeState = InitState | AwaitingState | OuterState | GuardedState | SettlingState | DoneState;

/** Where a probe is: not started, waiting for the sentinel, waiting for the outer terminal behind tmux, waiting for the guarded round, settling, done. */
export type ProbePhase = ProbeState['phase'];

/**
 * Whether the terminal is far away: an ssh session (any non-empty `SSH_*`), or a terminal in a
 * browser or remote editor that the environment names (`slowLinkFromEnv`: Codespaces, Dev
 * Containers, code-server, Jupyter). Its replies take hundreds of milliseconds.
 */
export function slowLink(runtime: Runtime): boolean {
  return isRemote(runtime.env) || slowLinkFromEnv(runtime.env) !== null;
}

/** The default budget: ~100 ms locally, ~1 s over a slow link (`slowLink`). */
export function defaultBudgetMs(runtime: Runtime): number {
  return slowLink(runtime) ? 1000 : 100;
}

/**
 * A probe that has not started. Not a TTY, `TERM=dumb` or not in the foreground: `start` writes
 * nothing and ends at once with `skipped`.
 *
 * @example let [s, actions] = stepProbe(createProbe(processRuntime(), { nowMs: performance.now() }), { type: 'start' });
 */
export function createProbe(runtime: Runtime, options: ProbeOptions = {}): ProbeState {
  const budgetMs = positive(options.budgetMs) ?? defaultBudgetMs(runtime);
  const remote = slowLink(runtime);
  const queryOptions: QueryOptions = {
    runtime,
    ...(options.multiplexer !== undefined ? { multiplexer: options.multiplexer } : {}),
    ...(options.askOuter !== undefined ? { askOuter: options.askOuter } : {}),
    ...(options.platform !== undefined ? { platform: options.platform } : {}),
  };
  const plan = planQuery(queryOptions);
  const tty = options.tty ?? (Boolean(runtime.isTTY.stdin) && runtime.isTTY.stdout);
  const skip: ProbeSkipReason | null = !tty
    ? 'not a terminal'
    : envValue(runtime.env, 'TERM') === 'dumb'
      ? 'TERM=dumb'
      : options.foreground === false
        ? 'background process group'
        : null;
  const platform = options.platform ?? runtime.platform;
  const asksOnly = options.asksOnly === true;
  const askQueries = options.asks ?? [];
  const asks = askQueries.map((query, index) => {
    const key = queryKey(query);
    if (key === null) throw new TypeError(`asks[${index}] is not a query whose reply termsight can route`);
    return key;
  });
  const ownQuery = asksOnly
    ? DA1_BYTES
    : (options.query ??
      (options.kittyLocalPath !== undefined
        ? withKittyLocal(plan, runtime.env, options.kittyLocalPath)
        : queryBytes(plan)));
  // Asks with the key of a query the batch already writes share its reply instead of asking twice.
  const ownInBatch = new Set(batchKeys(ownQuery));
  const own = asksOnly ? new Set(['da1']) : OWN_KEYS;
  const setup: ProbeSetup = {
    plan: asksOnly ? { ...plan, multiplexer: null, wrapped: false } : plan,
    queryOptions,
    query: withAsks(ownQuery, askQueries, asks, ownInBatch),
    skip,
    budgetMs,
    extendMs: positive(options.extendMs) ?? budgetMs,
    settleMs: positive(options.settleMs) ?? Math.min(budgetMs / 2, remote ? 300 : 50),
    reorders: plan.multiplexer === 'screen' || platform === 'win32',
    maxReplyBytes: createScanner(options.maxReplyBytes !== undefined ? { maxReplyBytes: options.maxReplyBytes } : {})
      .maxReplyBytes,
    kittyLocalLaterPath:
      options.kittyLocalPath !== undefined && options.query === undefined && kittyLocalLater(plan, runtime.env)
        ? options.kittyLocalPath
        : null,
    asks,
    shares: asks.map((key) => ownInBatch.has(key) && own.has(key)),
    own,
    asksOnly,
  };
  return { phase: 'init', setup, nowMs: options.nowMs ?? 0 };
}

const DA1_BYTES = Uint8Array.of(0x1b, 0x5b, 0x63);

/**
 * The batch with the application's asks before its first DA1 (the direct part's sentinel, before
 * any query wrapped for a multiplexer), leaving out asks whose key one of the batch's own queries
 * already has (they share its reply).
 */
function withAsks(
  query: Uint8Array,
  asks: readonly Uint8Array[],
  keys: readonly AnswerKey[],
  own: ReadonlySet<AnswerKey>,
): Uint8Array {
  if (asks.length === 0) return query;
  const written = asks.filter((_, i) => !own.has(keys[i]));
  if (written.length === 0) return query;
  let at = query.length;
  for (let i = 0; i + 2 < query.length; i++) {
    if (query[i] === 0x1b && query[i + 1] === 0x5b && query[i + 2] === 0x63 && (i === 0 || query[i - 1] !== 0x1b)) {
      at = i;
      break;
    }
  }
  const size = written.reduce((n, a) => n + a.length, 0);
  const out = new Uint8Array(query.length + size);
  out.set(query.subarray(0, at), 0);
  let pos = at;
  for (const a of written) {
    out.set(a, pos);
    pos += a.length;
  }
  out.set(query.subarray(at), pos);
  return out;
}

function positive(value: number | undefined): number | undefined {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : undefined;
}

/**
 * Advances the probe by one event; returns the next state and the actions to carry out, in order.
 *
 * @example const [next, actions] = stepProbe(state, { type: 'input', bytes: chunk });
 */
export function stepProbe(state: ProbeState, event: ProbeEvent): [ProbeState, ProbeAction[]] {
  switch (event.type) {
    case 'start':
      return onStart(state);
    case 'input':
      return onInput(state, event.bytes);
    case 'clock':
      return onClock(state, event.nowMs);
    case 'end':
      return onEnd(state, event.nowMs);
  }
}

/** The result, or null while the probe is pending. */
export function probeResult(state: ProbeState): ProbeFacts | null {
  return state.phase === 'done' ? state.facts : null;
}

/**
 * When the reducer next wants a clock event (same clock as the events), or null when it wants
 * none (not started, or done). The one place the windows' rules live: the reducer acts on a clock
 * event exactly when it is at or past this time, and the driver arms its one timer for it. Re-read
 * it after every step: it moves when the sentinel arrives (the next tick is then due at once) and
 * when a window opens.
 */
export function probeNextTickAt(state: ProbeState): number | null {
  switch (state.phase) {
    case 'init':
    case 'done':
      return null;
    case 'awaiting':
      return state.deadline.atMs;
    case 'outer':
    case 'guarded': {
      if (state.window.kind !== 'open') return state.nowMs;
      // Nothing from the outer terminal (or to the guarded round): the window decides; once it answers, the deadline too.
      const answered = state.phase === 'outer' ? state.outerAnswered : state.answered;
      return answered ? Math.max(state.deadline.atMs, state.window.endMs) : state.window.endMs;
    }
    case 'settling':
      return state.window.kind === 'open' ? state.window.endMs : state.nowMs;
  }
}

function onStart(state: ProbeState): [ProbeState, ProbeAction[]] {
  if (state.phase !== 'init') return [state, []];
  const { setup, nowMs } = state;
  if (setup.skip !== null) {
    const facts: ProbeFacts = { replies: [], sentinel: false, timedOut: false, elapsedMs: 0, skipped: setup.skip };
    return [
      { phase: 'done', setup, nowMs, facts, scanner: null, owedSentinels: 0, lateAsks: [] },
      [
        ...setup.asks.map((_, ask): ProbeAction => ({ type: 'answer', ask, bytes: null })),
        { type: 'done', facts, outstanding: false },
      ],
    ];
  }
  // The origin is the latest time known at start: `nowMs`, or a clock event that came before start.
  const awaiting: AwaitingState = {
    phase: 'awaiting',
    setup,
    startMs: nowMs,
    nowMs,
    deadline: { atMs: nowMs + setup.budgetMs, extended: false },
    scanner: createScanner({ maxReplyBytes: setup.maxReplyBytes }),
    replies: [],
    seenReply: false,
    da1Count: 0,
    asked: setup.plan.wrapped ? 2 : 1,
    shown: null,
    ...initialAsks(setup),
  };
  return [awaiting, [{ type: 'write', bytes: setup.query }]];
}

function onInput(state: ProbeState, bytes: Uint8Array): [ProbeState, ProbeAction[]] {
  switch (state.phase) {
    case 'init':
      // Nothing asked yet: every byte is the user's.
      return [state, bytes.length > 0 ? [{ type: 'keys', bytes }] : []];
    case 'done':
      return onLateInput(state, bytes);
    default:
      return onReplies(state, bytes);
  }
}

/** After the result: replies are swallowed, keys go back; a partial that cannot be a reply goes back at once. */
function onLateInput(state: DoneState, bytes: Uint8Array): [ProbeState, ProbeAction[]] {
  if (state.scanner === null) return [state, bytes.length > 0 ? [{ type: 'keys', bytes }] : []];
  const scanned = scanReplies(state.scanner, bytes);
  // The driver may stop listening any time now: a partial that cannot be a reply goes back at once.
  const released = releaseInput(scanned.state);
  const actions: ProbeAction[] = [];
  let owed = state.owedSentinels;
  let lateAsks = state.lateAsks;
  for (const token of [...scanned.tokens, ...released.tokens]) {
    if (token.type === 'input') {
      actions.push({ type: 'keys', bytes: token.bytes });
      continue;
    }
    const key = replyKey(token);
    const late = lateAsks.find((p) => p.key === key);
    if (late) lateAsks = lateAsks.filter((p) => p !== late);
    else if (key === null || !state.setup.own.has(key)) {
      // Nobody's in this round: the application's own query's answer goes on to it.
      actions.push({ type: 'keys', bytes: token.bytes });
      continue;
    }
    actions.push({ type: 'swallowed', bytes: token.bytes });
    if (owed > 0 && parseReply(token)?.type === 'da1') {
      owed -= 1;
      if (owed === 0) actions.push({ type: 'lateSentinel' });
    }
  }
  return [{ ...state, scanner: released.state, owedSentinels: owed, lateAsks }, actions];
}

/** The asks at start: those sharing a question of the batch's own, and those written. */
function initialAsks(setup: ProbeSetup): { pending: PendingAsk[]; shared: PendingAsk[] } {
  const pending: PendingAsk[] = [];
  const shared: PendingAsk[] = [];
  setup.asks.forEach((key, ask) => {
    (setup.shares[ask] ? shared : pending).push({ ask, key });
  });
  return { pending, shared };
}

type Live = AwaitingState | OuterState | GuardedState | SettlingState;

/** Before the result: replies are collected, keys go back, a DA1 moves the phase on. */
function onReplies(state: Live, bytes: Uint8Array): [ProbeState, ProbeAction[]] {
  const scanned = scanReplies(state.scanner, bytes);
  const actions: ProbeAction[] = [];
  const replies = [...state.replies];
  let next: Live = { ...state, scanner: scanned.state };
  for (const token of scanned.tokens) {
    if (token.type === 'input') {
      actions.push({ type: 'keys', bytes: token.bytes });
      continue;
    }
    const route = routeReply(replyKey(token), next.pending, next.shared, next.setup.own);
    if (route.to === 'application') {
      // A reply to a query termsight did not send: on to the application, in order, as without termsight.
      actions.push({ type: 'keys', bytes: token.bytes });
      continue;
    }
    if (route.to === 'ask') {
      actions.push({ type: 'answer', ask: route.ask, bytes: token.bytes });
      next = {
        ...next,
        pending: next.pending.filter((p) => p.ask !== route.ask),
        shared: next.shared.filter((p) => p.ask !== route.ask),
      };
      if (!route.own) continue;
    }
    replies.push(token);
    next = { ...next, replies, seenReply: true };
    const reply = parseReply(token);
    if (reply === null) continue;
    if (next.phase === 'awaiting' && next.shown === null) {
      // A multiplexer naming itself in the first round.
      next = { ...next, shown: multiplexerNamedBy(reply) };
    }
    // Wrapped queries are answered after tmux's own DA1, and tmux answers in order: any reply
    // after it is the outer terminal's.
    if (next.phase === 'outer' && !next.outerAnswered) next = { ...next, outerAnswered: true };
    if (next.phase === 'guarded' && !next.answered) next = { ...next, answered: true };
    // Behind screen, the background colour it forwards after its DA1 is what the window waits for.
    if (next.phase === 'settling' && reply.type === 'background') next = { ...next, window: { kind: 'next-tick' } };
    if (reply.type === 'da1') {
      if (next.da1Count === 0) {
        // The batch's sentinel: terminals answer in order, so an ask still waiting is not supported.
        for (const p of [...next.shared, ...next.pending]) actions.push({ type: 'answer', ask: p.ask, bytes: null });
        next = { ...next, pending: [], shared: [] };
      }
      const [after, write] = onSentinel(next);
      next = after;
      if (write) actions.push(write);
    }
  }
  if (!next.seenReply && holdsReply(next.scanner)) next = { ...next, seenReply: true };
  return [next, actions];
}

/** The fields every live phase shares, without the phase's own. */
function running(state: Live): Running {
  const { setup, startMs, nowMs, deadline, scanner, replies, seenReply, da1Count, asked, shown, pending, shared } =
    state;
  return { setup, startMs, nowMs, deadline, scanner, replies, seenReply, da1Count, asked, shown, pending, shared };
}

/**
 * A DA1 arrived: the sentinel (or, behind tmux with wrapped queries, tmux's and then the outer
 * terminal's; or the guarded round's). Returns the next state and, when a further round is due
 * (tmux showed itself only now, or the terminal showed it parses the held-back queries), its bytes to write.
 */
function onSentinel(state: Live): [Live, ProbeAction | null] {
  const base: Running = { ...running(state), da1Count: state.da1Count + 1 };
  if (state.phase === 'awaiting') {
    const { plan, queryOptions } = state.setup;
    // Only the asks were written: their sentinel ends the round.
    if (state.setup.asksOnly)
      return [{ ...base, phase: 'settling', followUp: null, window: { kind: 'next-tick' } }, null];
    if (plan.wrapped) {
      return [{ ...base, phase: 'outer', followUp: null, outerAnswered: false, window: { kind: 'opens' } }, null];
    }
    const followUp = planFollowUp(plan, state.shown, queryOptions);
    if (followUp) {
      // tmux's DA1 of the first round: now ask the outer terminal through it.
      return [
        { ...base, asked: base.asked + 1, phase: 'outer', followUp, outerAnswered: false, window: { kind: 'opens' } },
        { type: 'write', bytes: queryBytes(followUp) },
      ];
    }
    // A multiplexer that named itself (a scrubbed screen) is known: nothing is guarded from it.
    const guarded = state.shown === null ? guardedRound(base, null) : null;
    if (guarded) return guarded;
    return [{ ...base, phase: 'settling', followUp: null, window: settleWindow(base) }, null];
  }
  if (state.phase === 'outer') {
    // The outer terminal's DA1: it answers in order, so everything it had to say is in. Behind a
    // tmux only its replies showed (no TMUX), the wrapped round was the one extra round trip the
    // probe may spend on a terminal the first round left unknown: no guarded round after it.
    const guarded = state.followUp === null ? guardedRound(base, null) : null;
    if (guarded) return guarded;
    return [{ ...base, phase: 'settling', followUp: state.followUp, window: { kind: 'next-tick' } }, null];
  }
  if (state.phase === 'guarded') {
    return [{ ...base, phase: 'settling', followUp: state.followUp, window: settleWindow(base) }, null];
  }
  return [{ ...state, da1Count: base.da1Count }, null];
}

/** The guarded round the replies so far call for (planGuarded), as the next state and its write; null when none. */
function guardedRound(base: Running, followUp: QueryPlan | null): [GuardedState, ProbeAction] | null {
  const { plan } = base.setup;
  const facts = factsFromReplies(base.replies, {
    multiplexer: plan.multiplexer ?? followUp?.multiplexer ?? base.shown,
    wrapped: plan.wrapped || followUp !== null,
  });
  const path = base.setup.kittyLocalLaterPath;
  const round = planGuarded(followUp ?? plan, facts, { localTransfer: path !== null && followUp === null });
  if (round === null) return null;
  const env = base.setup.queryOptions.runtime?.env ?? {};
  const bytes = path !== null && round.localTransfer === true ? withKittyLocal(round, env, path) : queryBytes(round);
  return [
    { ...base, asked: base.asked + 1, phase: 'guarded', followUp, answered: false, window: { kind: 'opens' } },
    { type: 'write', bytes },
  ];
}

/** After the terminal's last DA1: due at once, or a window where replies are forwarded after it (screen, ConPTY) and OSC 11 is not in. */
function settleWindow(state: Running): ProbeWindow {
  const { plan, reorders } = state.setup;
  // A screen the environment hid reorders like a known one.
  const forwardsLate = reorders || (state.shown === 'screen' && plan.multiplexer === null);
  const backgroundIn = state.replies.some((t) => parseReply(t)?.type === 'background');
  return forwardsLate && !backgroundIn ? { kind: 'opens' } : { kind: 'next-tick' };
}

/**
 * How long a window lasts once it opens at `now`: `settleMs`; for tmux's second round at least the
 * first round's duration (capped at the budget); for the guarded round, whose terminal has just
 * answered a round, the budget or twice the time so far, whichever is longer, at most budget plus
 * extension (a round trip's jitter must not cut off the answer it is sure to get).
 */
function windowLength(state: OuterState | GuardedState | SettlingState, now: number): number {
  const { settleMs, budgetMs, extendMs } = state.setup;
  if (state.phase === 'guarded') {
    const elapsed = now - state.startMs;
    return Math.max(settleMs, Math.min(Math.max(budgetMs, 2 * elapsed), budgetMs + extendMs));
  }
  if (state.phase === 'settling' || (state.phase === 'outer' && state.followUp === null)) return settleMs;
  return Math.max(settleMs, Math.min(now - state.startMs, budgetMs));
}

function onClock(state: ProbeState, nowMs: number): [ProbeState, ProbeAction[]] {
  const now = Math.max(state.nowMs, nowMs); // a clock never runs backwards here
  if (state.phase === 'init' || state.phase === 'done') return [{ ...state, nowMs: now }, []];
  let next: Live = { ...state, nowMs: now };
  if (next.phase !== 'awaiting' && next.window.kind === 'opens') {
    next = { ...next, window: { kind: 'open', endMs: now + windowLength(next, now) } };
  }
  const due = probeNextTickAt(next);
  if (due === null || now < due) return [next, []];
  return expire(next, true);
}

/** The driver ends the probe: finish with what arrived, or, after the result, hand back a held partial key. */
function onEnd(state: ProbeState, nowMs: number): [ProbeState, ProbeAction[]] {
  const now = Math.max(state.nowMs, nowMs);
  switch (state.phase) {
    case 'init':
      return [{ ...state, nowMs: now }, []];
    case 'done': {
      if (state.scanner === null || holdsReply(state.scanner)) return [state, []];
      const flushed = flushScanner(state.scanner);
      return [{ ...state, scanner: flushed.state }, keysOf(flushed.tokens)];
    }
    default:
      return expire({ ...state, nowMs: now }, false);
  }
}

/** What is due at the tick (or at an end): the deadline's, the window's. */
function expire(state: Live, canExtend: boolean): [ProbeState, ProbeAction[]] {
  switch (state.phase) {
    case 'awaiting':
      return extendOrEnd(state, canExtend);
    case 'outer':
      // Nothing came back through tmux in the window: passthrough is off, the probe is answered.
      return state.outerAnswered ? extendOrEnd(state, canExtend) : finish(state, false);
    case 'guarded':
      // The guarded round unanswered in its window: answered with what the first round said; its replies may still come.
      return state.answered ? extendOrEnd(state, canExtend) : finish(state, false);
    case 'settling':
      return finish(state, false);
  }
}

/**
 * The deadline passed: move it once when the terminal has started answering, else give up. An
 * extension that would already be over by now (the tick came that late) is no extension.
 */
function extendOrEnd(
  state: AwaitingState | OuterState | GuardedState,
  canExtend: boolean,
): [ProbeState, ProbeAction[]] {
  const atMs = state.deadline.atMs + state.setup.extendMs;
  if (canExtend && state.seenReply && !state.deadline.extended && atMs > state.nowMs) {
    return [{ ...state, deadline: { atMs, extended: true } }, [{ type: 'extendDeadline', deadlineMs: atMs }]];
  }
  return finish(state, true);
}

function keysOf(tokens: readonly ScanToken[]): ProbeAction[] {
  return tokens.filter((t) => t.bytes.length > 0).map((t) => ({ type: 'keys', bytes: t.bytes }));
}

/** Ends the probe: a held partial that cannot be a reply goes back to the user, then `done`. */
function finish(state: Live, timedOut: boolean): [ProbeState, ProbeAction[]] {
  const released = releaseInput(state.scanner);
  const followUp = state.phase === 'awaiting' ? null : state.followUp;
  const { plan } = state.setup;
  const facts = factsFromReplies(state.replies, {
    // The environment's multiplexer, else the one the replies named (a scrubbed tmux or screen).
    multiplexer: plan.multiplexer ?? followUp?.multiplexer ?? state.shown,
    wrapped: plan.wrapped || followUp !== null,
    sentinel: state.da1Count > 0,
    timedOut,
    elapsedMs: state.nowMs - state.startMs,
  });
  // Ended on its deadline, or without the guarded round's answer: every DA1 asked for and not got may still come.
  const owedSentinels = timedOut || state.phase === 'guarded' ? Math.max(0, state.asked - state.da1Count) : 0;
  // Asks still waiting when the probe ends: unanswered now, their replies swallowed when they come.
  const lateAsks = [...state.shared, ...state.pending];
  const done: DoneState = {
    phase: 'done',
    setup: state.setup,
    nowMs: state.nowMs,
    facts,
    scanner: released.state,
    owedSentinels,
    lateAsks,
  };
  const unanswered = lateAsks.map((p): ProbeAction => ({ type: 'answer', ask: p.ask, bytes: null }));
  return [done, [...keysOf(released.tokens), ...unanswered, { type: 'done', facts, outstanding: owedSentinels > 0 }]];
}
