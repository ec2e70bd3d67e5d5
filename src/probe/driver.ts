/**
 * The Node driver: a thin shell around the pure probe reducer. It turns I/O into events (chunks,
 * clock ticks, an abort, the stream closing) and the reducer's actions into I/O (writes, keys
 * handed back, raw mode, timers), and on every way out restores the terminal. Why each step is
 * what it is: docs/probe.md ("The driver", "Every way out").
 */

import { toBytes } from '../core/escape.js';
import { graphicsFileExists, removeGraphicsFile, writeGraphicsFile } from '../core/graphics-file.js';
import { processRuntime, type Runtime } from '../env/runtime.js';
import { queryKey } from './asks.js';
import type { ProbeAction, ProbeEvent } from './events.js';
import { guardMode } from './exit-guard.js';
import type { ProbeFacts } from './facts.js';
import { isForeground } from './foreground.js';
import { type InputTap, tapInput } from './input-tap.js';
import { interruptIn } from './interrupt.js';
import { KITTY_LOCAL_PIXEL, kittyLocalMayAsk } from './kitty-local.js';
import { createProbe, type ProbeOptions, type ProbeState, probeNextTickAt, probeResult, stepProbe } from './reducer.js';
import { defaultTerminal, type TerminalInput, type TerminalOutput, type TerminalStreams } from './terminal-stream.js';

/** One chunk of bytes sent to or received from the terminal, for `--trace`. */
export interface TraceEvent {
  readonly direction: 'out' | 'in';
  readonly bytes: Uint8Array;
  /** Milliseconds since the probe started. */
  readonly atMs: number;
}

/** How to run a probe. Everything is optional. */
export interface DriverOptions {
  /** The runtime (environment, platform, TTYs); default `processRuntime()`. */
  readonly runtime?: Runtime;
  /** The terminal's input; default stdin when stdin and stdout are terminals, else `/dev/tty`. */
  readonly input?: TerminalInput;
  /** The terminal's output; default stdout when stdin and stdout are terminals, else `/dev/tty`. */
  readonly output?: TerminalOutput;
  /**
   * Which stream the answer is for. `tty` (default for `probeTty`): the terminal itself, even when
   * stdout is a pipe. `stdout`/`stderr` (default `stdout` for `probeTerminal`): nothing is written
   * when the runtime says that stream is not a terminal (pictures would not go to one).
   */
  readonly stream?: 'stdout' | 'stderr' | 'tty';
  /** The silence budget in ms (default 100, 1000 over ssh): the reducer's `budgetMs`. */
  readonly budgetMs?: number;
  /** Aborts the probe: the promise rejects with the signal's reason, after restoring the terminal. */
  readonly signal?: AbortSignal;
  /** Sees every chunk written and read, with its time (the CLI's `--trace`). */
  readonly onTrace?: (event: TraceEvent) => void;
  /**
   * Sees every clock tick the driver gives the reducer, with its time (on `onTrace`'s clock), so a
   * recording replays the timers as they fired, late ones included (`createRecorder`).
   */
  readonly onTick?: (atMs: number) => void;
  /**
   * Receives the user's keys typed during the probe, Ctrl-C and Ctrl-\ included (the application
   * decides what they mean); without it keys are `unshift`ed onto the input and those two interrupt.
   */
  readonly onKeys?: (bytes: Uint8Array) => void;
  /** Inside tmux, also ask the outer terminal, with queries wrapped for tmux's passthrough (default true). */
  readonly askOuter?: boolean;
  /**
   * The late window: how long after an answered result late replies are still swallowed, in ms
   * (default 100; 0: not at all). The terminal stays in raw mode that long so a late reply is
   * neither echoed nor line-buffered.
   */
  readonly lateMs?: number;
  /**
   * The late window when the result came before the batch's sentinel (a deadline, an abort): how
   * long at most to keep swallowing while the answer may still be on its way (default 1500 ms). It
   * closes `lateMs` after the sentinel arrives.
   */
  readonly outstandingMs?: number;
  /**
   * Also ask whether the terminal reads pictures from files (kitty's `t=t`, `facts.kittyLocal`):
   * a 3-byte probe file is made in `/dev/shm` or the temp folder, only where the kitty graphics
   * query goes straight to a local terminal, and deleted when the probe ends if the terminal did
   * not (default true).
   */
  readonly kittyLocal?: boolean;
  /**
   * An application's queries to ride in this probe's batch (before its DA1 sentinel), each answered
   * through its `onReply` (see `askTerminal`, which is the same with promises).
   */
  readonly asks?: readonly TerminalAsk[];
  /** Further options for the reducer (extension, settle window, reply cap, multiplexer). */
  readonly probe?: Pick<ProbeOptions, 'extendMs' | 'settleMs' | 'maxReplyBytes' | 'multiplexer'>;
}

/** The default late window after an answered result. */
export const DEFAULT_LATE_MS = 100;
/** The default bound of the late window while the batch's sentinel is outstanding. */
export const DEFAULT_OUTSTANDING_MS = 1500;

/** A timer's longest delay (Node warns and fires at once past it): longer waits are armed again when it fires. */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** An application's query riding in a probe's round (see `askTerminal`). */
export interface TerminalAsk {
  /** One query with a reply termsight can route (`queryKey`): OSC 4/10–19 `?`, `CSI ? u`, DSR `CSI 5 n`, `CSI ? 996 n`, … */
  readonly query: string | Uint8Array;
  /** Its reply, whole; null when the terminal answered the round's sentinel first (not supported) or the round ended without it. */
  readonly onReply: (reply: Uint8Array | null) => void;
}

/**
 * One round on one terminal, from the call that starts it to its session's end. Calls that come
 * while it has not settled share its answer (`probeTty`) or, before it writes, put their queries in
 * its batch (`askTerminal`); a call after it settled waits for its session to let go (its late
 * window is cut short) and starts the next round.
 */
interface Round {
  /** Whether termsight's own queries are asked (a probe), or only applications' (`askTerminal`); a probe call before it writes makes it one. */
  probe: boolean;
  /** The applications' queries that ride in it; closed once written. */
  readonly asks: TerminalAsk[];
  written: boolean;
  settled: boolean;
  session: Session | null;
  promise: Promise<ProbeFacts>;
}

/** The latest round on each terminal. */
const rounds = new WeakMap<object, Round>();
/** The key for the process's own terminal, whether reached through stdin/stdout or `/dev/tty`. */
const CONTROLLING_TERMINAL = {};

/**
 * Asks the terminal device itself what it can do (stdin/stdout when both are terminals, else
 * `/dev/tty`: hence `stream: 'tty'` by default, unlike `probeTerminal`, which answers for stdout)
 * and resolves with what it said. Never rejects for the terminal's sake (no terminal, silence, a
 * closed stream all resolve); rejects only when `signal` aborts. It never blocks: start it early
 * and use the environment's answer until it settles. One probe per terminal at a time: a call while
 * another is running shares its answer (the running probe's options apply; this call's `signal`
 * still rejects this call); a call after one has answered starts a new probe once the first has let
 * go. A `budgetMs` past a timer's range (2^31-1 ms) is waited in steps of that range.
 *
 * @example const facts = await probeTty({ budgetMs: 200 }); facts.terminal?.name
 */
export function probeTty(options: DriverOptions = {}): Promise<ProbeFacts> {
  try {
    options.signal?.throwIfAborted();
    const key = terminalKey(options);
    const current = key !== null ? rounds.get(key) : undefined;
    // An application's asks not yet written: this probe joins them, one batch for all.
    if (current && !current.probe && !current.written) {
      current.probe = true;
      current.asks.push(...(options.asks ?? []));
      return joined(current.promise, options);
    }
    if (current?.probe && !current.settled) {
      const asks = options.asks ?? [];
      if (asks.length === 0) return joined(current.promise, options);
      if (!current.written) {
        current.asks.push(...asks);
        return joined(current.promise, options);
      }
    }
    return startRound(key, options, true, [...(options.asks ?? [])]);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * Adds an application's queries to termsight's round on the terminal, so one batch and one DA1
 * sentinel serve everyone: a probe about to write takes them into its batch; otherwise they go in
 * a round of their own (the queries and a DA1), after any round still running. Each resolves with
 * its reply (whole, `ESC` to terminator), or null when the terminal answered the sentinel first or
 * stayed silent for the budget; replies that come later are swallowed. Keys typed meanwhile and
 * replies to anyone else's queries go on to the application in order. Throws a TypeError for a
 * query whose reply cannot be told apart (`queryKey`: e.g. plain `CSI 6 n`; ask `CSI ? 6 n`).
 *
 * @example const [bg, status] = await askTerminal(['\x1b]11;?\x1b\\', '\x1b[5n'])
 */
export function askTerminal(
  queries: readonly (string | Uint8Array)[],
  options: DriverOptions = {},
): Promise<(Uint8Array | null)[]> {
  try {
    options.signal?.throwIfAborted();
    queries.forEach((query, index) => {
      if (queryKey(query) === null)
        throw new TypeError(`queries[${index}] is not a query whose reply termsight can route (see queryKey)`);
    });
    const answers: (Uint8Array | null)[] = queries.map(() => null);
    let left = queries.length;
    return new Promise((resolve, reject) => {
      if (left === 0) {
        resolve([]);
        return;
      }
      const asks: TerminalAsk[] = queries.map((query, index) => ({
        query,
        onReply: (reply) => {
          answers[index] = reply;
          left -= 1;
          if (left === 0) resolve(answers);
        },
      }));
      const key = terminalKey(options);
      const current = key !== null ? rounds.get(key) : undefined;
      if (current && !current.written) {
        current.asks.push(...asks);
        return;
      }
      startRound(key, options, false, asks).then(() => {
        // A round that wrote nothing (no terminal, not in the foreground) answered every ask with null.
        if (left > 0) resolve(answers);
      }, reject);
      options.signal?.addEventListener('abort', () => reject(options.signal?.reason), { once: true });
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

/** Which terminal a call talks to, known before it is opened; null when it talks to none. */
function terminalKey(options: DriverOptions): object | null {
  const runtime = options.runtime ?? processRuntime();
  const streamKind = options.stream ?? 'tty';
  if (streamKind !== 'tty' && runtime.isTTY[streamKind] !== true) return null;
  const explicit = options.input !== undefined || options.output !== undefined;
  return explicit ? (options.input ?? process.stdin) : CONTROLLING_TERMINAL;
}

/**
 * The shared answer, for a caller whose own signal may end its wait (not the probe's). A probe that
 * its own caller aborted is no answer: the joiner then probes for itself.
 */
function joined(promise: Promise<ProbeFacts>, options: DriverOptions): Promise<ProbeFacts> {
  const { signal } = options;
  const shared = promise.catch(() => {
    signal?.throwIfAborted();
    return probeTty(options);
  });
  if (!signal) return shared;
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    shared.then(
      (facts) => {
        signal.removeEventListener('abort', onAbort);
        resolve(facts);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

function startRound(
  key: object | null,
  options: DriverOptions,
  probe: boolean,
  asks: TerminalAsk[],
): Promise<ProbeFacts> {
  const before = key !== null ? rounds.get(key) : undefined;
  const round: Round = {
    probe,
    asks,
    written: false,
    settled: false,
    session: null,
    promise: Promise.resolve(null as never),
  };
  if (key !== null) rounds.set(key, round);
  round.promise = runRound(round, before, options).finally(() => {
    round.settled = true;
    round.written = true;
  });
  return round.promise;
}

async function runRound(round: Round, before: Round | undefined, options: DriverOptions): Promise<ProbeFacts> {
  // One turn of the event loop: calls made meanwhile join this round's batch (askTerminal) or answer (probeTty).
  await new Promise<void>((resolve) => setImmediate(resolve));
  if (before) {
    // The round before settles first (its answer), then its session lets go (the late window cut short).
    await before.promise.catch(() => undefined);
    await before.session?.release();
  }
  round.written = true;
  const answerNone = (): void => {
    for (const ask of round.asks) ask.onReply(null);
  };
  try {
    options.signal?.throwIfAborted();
  } catch (error) {
    answerNone();
    throw error;
  }
  const runtime = options.runtime ?? processRuntime();
  const streamKind = options.stream ?? 'tty';
  const wanted = streamKind === 'tty' || runtime.isTTY[streamKind] === true;
  const explicit = options.input !== undefined || options.output !== undefined;
  const terminal: TerminalStreams | null = !wanted ? null : explicit ? givenTerminal(options) : defaultTerminal();
  // Job control applies to this process's own terminal only: a pty the caller drives is theirs.
  // (By descriptor: touching `process.stdin` would create it.)
  const fd = (stream: unknown): unknown => (stream as { fd?: unknown }).fd;
  const own = terminal !== null && (!explicit || fd(terminal.input) === 0 || fd(terminal.output) === 1);
  const startMs = performance.now();
  const budgetMs = options.budgetMs;
  const probeOptions: ProbeOptions = {
    ...options.probe,
    tty: terminal !== null,
    foreground: own ? isForeground() : true,
    nowMs: startMs,
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    ...(options.askOuter !== undefined ? { askOuter: options.askOuter } : {}),
    ...(round.asks.length > 0 ? { asks: round.asks.map((a) => toBytes(a.query)) } : {}),
    ...(round.probe ? {} : { asksOnly: true }),
  };
  let created = createProbe(runtime, probeOptions);
  // The local-transfer query needs a file; made only where the query will be sent (the first
  // batch) or may be (the guarded round, which the replies decide; the file is deleted at the end either way).
  const localFile =
    round.probe &&
    options.kittyLocal !== false &&
    created.setup.skip === null &&
    terminal !== null &&
    kittyLocalMayAsk(created.setup.plan, runtime.env)
      ? writeGraphicsFile(KITTY_LOCAL_PIXEL, 'termsight-probe')
      : null;
  if (localFile !== null) created = createProbe(runtime, { ...probeOptions, kittyLocalPath: localFile });
  const [state, actions] = stepProbe(created, { type: 'start' });
  const immediate = probeResult(state);
  if (immediate !== null || terminal === null) {
    if (localFile !== null) removeGraphicsFile(localFile);
    terminal?.close();
    answerNone();
    return immediate ?? skippedFacts('not a terminal');
  }
  const session = new Session(
    terminal,
    state,
    options,
    startMs,
    own && runtime.platform !== 'win32',
    localFile,
    round.asks,
  );
  round.session = session;
  return session.run(actions);
}

function givenTerminal(options: DriverOptions): TerminalStreams {
  return {
    input: options.input ?? process.stdin,
    output: options.output ?? process.stdout,
    opened: false,
    close() {},
  };
}

/**
 * The local-transfer answer with whether the terminal deleted the probe file, as a `t=t` file must
 * be: kitty deletes it before answering, so by the sentinel it is gone. A terminal that read it
 * and kept it would leave every picture file behind (and make a program wait for it).
 */
function withLocalDeleted(facts: ProbeFacts, localFile: string | null): ProbeFacts {
  if (localFile === null || !facts.kittyLocal?.ok) return facts;
  return { ...facts, kittyLocal: { ...facts.kittyLocal, deleted: !graphicsFileExists(localFile) } };
}

function skippedFacts(reason: string): ProbeFacts {
  return { replies: [], sentinel: false, timedOut: false, elapsedMs: 0, skipped: reason };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/**
 * One probe on one terminal, from the first write to the end of the late window. Stages: probing
 * (the promise is pending), late (settled; late replies are still swallowed), ended.
 */
class Session {
  private state: ProbeState;
  private stage: 'probing' | 'late' | 'ended' = 'probing';
  private readonly input: TerminalInput;
  private readonly output: TerminalOutput;
  private tap: InputTap | null = null;
  private tickTimer: NodeJS.Timeout | null = null;
  private lateTimer: NodeJS.Timeout | null = null;
  private wasRaw = false;
  private rawSet = false;
  private unguard: (() => void) | null = null;
  private aborting = false;
  private flowingBefore: boolean | null = null;
  /** Keys held for the application until it reads (no `onKeys`, nobody listening yet). */
  private pendingKeys: Uint8Array[] = [];
  private settle: { resolve: (facts: ProbeFacts) => void; reject: (error: unknown) => void } | null = null;
  private readonly ended: Promise<void>;
  private markEnded: () => void = () => {};
  private readonly onAbort = (): void => this.abort();
  private readonly onGone = (): void => this.streamGone();

  constructor(
    private readonly terminal: TerminalStreams,
    state: ProbeState,
    private readonly options: DriverOptions,
    private readonly startMs: number,
    /** Whether this is the process's own terminal, where Ctrl-C must still interrupt (see `keys`). */
    private readonly ownTerminal: boolean,
    /** The local-transfer probe file, deleted when the session ends if the terminal did not delete it. */
    private readonly localFile: string | null = null,
    /** The applications' queries in this round, answered by index. */
    private readonly asks: readonly TerminalAsk[] = [],
  ) {
    this.state = state;
    this.input = terminal.input;
    this.output = terminal.output;
    this.ended = new Promise((resolve) => {
      this.markEnded = resolve;
    });
  }

  /** Starts the I/O and carries out the start actions; resolves with the facts. */
  run(startActions: readonly ProbeAction[]): Promise<ProbeFacts> {
    return new Promise<ProbeFacts>((resolvePromise, rejectPromise) => {
      this.settle = { resolve: resolvePromise, reject: rejectPromise };
      this.guarded(() => {
        this.attach();
        this.apply(startActions);
        this.schedule();
      });
    });
  }

  /** Ends this session early for a new probe on the same terminal: waits while it probes, cuts a late window short. */
  async release(): Promise<void> {
    if (this.stage === 'late') this.detach();
    await this.ended;
  }

  private now(): number {
    return performance.now();
  }

  /** Runs driver code; an exception (in a callback, a write) rejects the probe and restores the terminal. */
  private guarded(body: () => void): void {
    try {
      body();
    } catch (error) {
      this.fail(error);
    }
  }

  private attach(): void {
    const input = this.input;
    // Raw mode before the first write: a reply must never be echoed or wait for Enter.
    if (input.isTTY && typeof input.setRawMode === 'function') {
      this.wasRaw = input.isRaw === true;
      input.setRawMode(true);
      this.rawSet = true;
      this.unguard = guardMode(this);
    }
    this.flowingBefore = (input as unknown as { readableFlowing: boolean | null }).readableFlowing;
    this.tap = tapInput(input, {
      onData: (bytes) => this.onData(bytes),
      onBeforeDestroy: () => {
        // The handle is about to close: undo raw mode while it still can be.
        this.restoreMode();
        this.streamGone();
      },
      onAppListener: () => {
        // The application starts reading: its held keys come first, before any later chunk.
        if (this.pendingKeys.length > 0) process.nextTick(() => this.flushKeysToApp());
      },
    });
    input.on('end', this.onGone);
    input.on('close', this.onGone);
    input.on('error', this.onGone);
    // A plain writable may lack events; a real one must not crash the process on a late EPIPE/EIO.
    if (typeof this.output.on === 'function') this.output.on('error', this.onGone);
    this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
    input.resume();
  }

  private onData(bytes: Uint8Array): void {
    if (this.stage === 'ended' || bytes.length === 0) return;
    this.guarded(() => {
      this.options.onTrace?.({ direction: 'in', bytes, atMs: this.now() - this.startMs });
      this.feed({ type: 'input', bytes });
      this.schedule();
    });
  }

  private feed(event: ProbeEvent): void {
    const [next, actions] = stepProbe(this.state, event);
    this.state = next;
    this.apply(actions);
  }

  private apply(actions: readonly ProbeAction[]): void {
    for (const action of actions) {
      switch (action.type) {
        case 'write':
          this.options.onTrace?.({ direction: 'out', bytes: action.bytes, atMs: this.now() - this.startMs });
          if (!this.write(action.bytes)) return;
          break;
        case 'keys':
          this.keys(action.bytes);
          break;
        case 'extendDeadline':
        case 'swallowed':
          // The timer follows probeNextTickAt after every step; a late reply is swallowed on purpose.
          break;
        case 'done':
          this.done(action.facts, action.outstanding);
          break;
        case 'answer': {
          const ask = this.asks[action.ask];
          ask?.onReply(action.bytes);
          break;
        }
        case 'lateSentinel':
          // The batch is answered at last: only stragglers may follow.
          if (this.stage === 'late') this.closeLateWindowIn(this.lateMs());
          break;
      }
    }
  }

  /** Writes to the terminal; a terminal that cannot be written to ends the probe like a closed one. */
  private write(bytes: Uint8Array): boolean {
    try {
      this.output.write(bytes);
      return true;
    } catch {
      this.streamGone();
      return false;
    }
  }

  /** The user's keys: to `onKeys`, to a listening application, or held until it reads. */
  private keys(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    // Raw mode is the probe's, not the application's: Ctrl-C and Ctrl-\ keep their cooked meaning
    // (an application that takes the keys itself with `onKeys` gets those too, and decides).
    const probesRaw =
      this.rawSet && !this.wasRaw && this.ownTerminal && this.tap?.appSetRawMode !== true && !this.options.onKeys;
    const interrupt = probesRaw ? interruptIn(bytes) : null;
    if (interrupt) {
      this.handKeys(interrupt.before);
      this.restoreMode();
      // What the line discipline would do: signal the foreground process group (this one's).
      process.kill(0, interrupt.signal);
      return;
    }
    this.handKeys(bytes);
  }

  private handKeys(bytes: Uint8Array): void {
    if (bytes.length === 0) return;
    if (this.options.onKeys) {
      this.options.onKeys(bytes);
      return;
    }
    if (this.pendingKeys.length === 0 && this.appReading()) {
      this.tap?.emitToApp(bytes);
      return;
    }
    this.pendingKeys.push(bytes);
  }

  /** Whether the application reads as data comes: it listens and had not paused the stream itself. */
  private appReading(): boolean {
    return this.flowingBefore !== false && this.input.listenerCount('data') > 0;
  }

  private flushKeysToApp(): void {
    if (this.pendingKeys.length === 0 || !this.appReading()) return;
    const keys = concat(this.pendingKeys);
    this.pendingKeys = [];
    this.tap?.emitToApp(keys);
  }

  /**
   * Arms the one timer for the reducer's next tick. A tick already due (the sentinel just came)
   * is fed at once; after it the next one lies in the future (the reducer's promise), so this
   * never loops.
   */
  private schedule(): void {
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    if (this.stage !== 'probing') return;
    let due = probeNextTickAt(this.state);
    if (due !== null && due <= this.now()) {
      this.clock();
      due = this.stage === 'probing' ? probeNextTickAt(this.state) : null;
    }
    if (due === null) return;
    this.tickTimer = setTimeout(() => this.tick(), Math.min(MAX_TIMER_MS, Math.max(0, Math.ceil(due - this.now()))));
    this.tickTimer.unref();
  }

  private tick(): void {
    this.tickTimer = null;
    if (this.stage !== 'probing') return;
    this.guarded(() => {
      this.clock();
      this.schedule();
    });
  }

  /** One clock tick into the reducer, told to `onTick` first. */
  private clock(): void {
    const now = this.now();
    this.options.onTick?.(now - this.startMs);
    this.feed({ type: 'clock', nowMs: now });
  }

  private lateMs(): number {
    return this.options.lateMs ?? DEFAULT_LATE_MS;
  }

  /** The reducer's result: settle the promise at once, then keep swallowing late replies for a while. */
  private done(facts: ProbeFacts, outstanding: boolean): void {
    if (this.stage !== 'probing') return;
    this.stage = 'late';
    if (this.tickTimer) clearTimeout(this.tickTimer);
    this.tickTimer = null;
    const settle = this.settle;
    this.settle = null;
    if (this.aborting) {
      settle?.reject(this.options.signal?.reason ?? new DOMException('The probe was aborted', 'AbortError'));
    } else {
      settle?.resolve(withLocalDeleted(facts, this.localFile));
    }
    const lateMs = this.lateMs();
    if (lateMs <= 0 || this.input.destroyed) {
      this.detach();
      return;
    }
    this.flushKeysToApp();
    const outstandingMs = this.options.outstandingMs ?? DEFAULT_OUTSTANDING_MS;
    this.closeLateWindowIn(outstanding ? Math.max(lateMs, outstandingMs) : lateMs);
  }

  private closeLateWindowIn(ms: number): void {
    if (this.lateTimer) clearTimeout(this.lateTimer);
    this.lateTimer = setTimeout(() => this.detach(), Math.min(MAX_TIMER_MS, ms));
    this.lateTimer.unref();
  }

  /** The input ended, errored or is being destroyed: finish with what came, and let go at once. */
  private streamGone(): void {
    if (this.stage === 'ended') return;
    if (this.stage === 'probing') this.feed({ type: 'end', nowMs: this.now() });
    this.detach();
  }

  /** The signal aborted: finish with what came (the promise rejects); late replies are still swallowed. */
  private abort(): void {
    if (this.stage !== 'probing') return;
    this.aborting = true;
    this.guarded(() => this.feed({ type: 'end', nowMs: this.now() }));
  }

  private fail(error: unknown): void {
    const settle = this.settle;
    this.settle = null;
    this.detach();
    settle?.reject(error);
  }

  /** Restores the terminal mode now, synchronously (also from the exit and signal hooks). */
  restoreMode(): void {
    if (!this.rawSet) return;
    this.rawSet = false;
    this.unguard?.();
    this.unguard = null;
    // The application changed the mode itself meanwhile: that is its mode now.
    if (this.tap?.appSetRawMode) return;
    try {
      if (!this.input.destroyed) this.tap ? this.tap.setRawMode(this.wasRaw) : this.input.setRawMode?.(this.wasRaw);
    } catch {
      // The handle is already gone: nothing left to restore through it.
    }
  }

  /** Restores the mode, removes every listener and timer, and hands back the keys still held. */
  private detach(): void {
    if (this.stage === 'ended') return;
    this.stage = 'ended';
    if (this.tickTimer) clearTimeout(this.tickTimer);
    if (this.lateTimer) clearTimeout(this.lateTimer);
    this.tickTimer = this.lateTimer = null;
    const input = this.input;
    this.restoreMode();
    // The driver stops listening: the reducer hands back a partial key it still holds (never a partial reply).
    if (this.state.phase === 'done') this.feed({ type: 'end', nowMs: this.now() });
    this.tap?.remove();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    input.off('end', this.onGone);
    input.off('close', this.onGone);
    input.off('error', this.onGone);
    if (typeof this.output.off === 'function') this.output.off('error', this.onGone);
    if (!input.destroyed) {
      const keepFlowing = this.appReading();
      if (!keepFlowing) {
        // Paused again as it was (or left to the application's next `on('data')`, which resumes
        // only when flowing is null): a paused handle does not keep the process alive.
        input.pause();
        if (this.flowingBefore === null)
          (input as unknown as { readableFlowing: boolean | null }).readableFlowing = null;
      }
      if (this.pendingKeys.length > 0) {
        const keys = concat(this.pendingKeys);
        this.pendingKeys = [];
        if (keepFlowing) this.tap?.emitToApp(keys);
        else {
          const encoding = (input as unknown as { readableEncoding: BufferEncoding | null }).readableEncoding;
          input.unshift(encoding ? Buffer.from(keys).toString(encoding) : Buffer.from(keys));
        }
      }
    }
    this.pendingKeys = [];
    // After the late window: a terminal that reads the file has done so by now (or never will).
    if (this.localFile !== null) removeGraphicsFile(this.localFile);
    this.terminal.close();
    this.markEnded();
  }
}
