/**
 * The Node driver: a thin shell around the pure probe reducer. It turns I/O into events (chunks,
 * clock ticks, an abort, the stream closing) and the reducer's actions into I/O (writes, keys
 * handed back, raw mode, timers), and on every way out restores the terminal. Why each step is
 * what it is: docs/probe.md ("The driver", "Every way out").
 */
import { graphicsFileExists, removeGraphicsFile, writeGraphicsFile } from '../core/graphics-file.js';
import { processRuntime, type Runtime } from '../env/runtime.js';
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
  /** Further options for the reducer (extension, settle window, reply cap, multiplexer). */
  readonly probe?: Pick<ProbeOptions, 'extendMs' | 'settleMs' | 'maxReplyBytes' | 'multiplexer'>;
}

/** The default late window after an answered result. */
export const DEFAULT_LATE_MS = 100;
/** The default bound of the late window while the batch's sentinel is outstanding. */
export const DEFAULT_OUTSTANDING_MS = 1500;

/** The session currently holding each terminal: a second probe waits for (or ends) the first. */
const sessions = new WeakMap<object, Session>();
/** The key for the process's own terminal, whether reached through stdin/stdout or `/dev/tty`. */
const CONTROLLING_TERMINAL = {};

/**
 * Asks the terminal device itself what it can do (stdin/stdout when both are terminals, else
 * `/dev/tty`: hence `stream: 'tty'` by default, unlike `probeTerminal`, which answers for stdout)
 * and resolves with what it said. Never rejects for the terminal's sake (no terminal, silence, a
 * closed stream all resolve); rejects only when `signal` aborts. It never blocks: start it early
 * and use the environment's answer until it settles.
 *
 * @example const facts = await probeTty({ budgetMs: 200 }); facts.terminal?.name
 */
export async function probeTty(options: DriverOptions = {}): Promise<ProbeFacts> {
  const runtime = options.runtime ?? processRuntime();
  options.signal?.throwIfAborted();
  const streamKind = options.stream ?? 'tty';
  const wanted = streamKind === 'tty' || runtime.isTTY[streamKind] === true;
  const explicit = options.input !== undefined || options.output !== undefined;
  const terminal: TerminalStreams | null = !wanted ? null : explicit ? givenTerminal(options) : defaultTerminal();
  // Job control applies to this process's own terminal only: a pty the caller drives is theirs.
  // (By descriptor: touching `process.stdin` would create it.)
  const fd = (stream: unknown): unknown => (stream as { fd?: unknown }).fd;
  const own = terminal !== null && (!explicit || fd(terminal.input) === 0 || fd(terminal.output) === 1);
  // One probe at a time per terminal: a second one waits for the first (and cuts its late window short).
  const key: object = explicit && terminal !== null ? terminal.input : CONTROLLING_TERMINAL;
  const previous = terminal !== null ? sessions.get(key) : undefined;
  if (previous) {
    await previous.release();
    if (options.signal?.aborted) terminal?.close();
    options.signal?.throwIfAborted();
  }
  const startMs = performance.now();
  const budgetMs = options.budgetMs;
  const probeOptions: ProbeOptions = {
    ...options.probe,
    tty: terminal !== null,
    foreground: own ? isForeground() : true,
    nowMs: startMs,
    ...(budgetMs !== undefined ? { budgetMs } : {}),
    ...(options.askOuter !== undefined ? { askOuter: options.askOuter } : {}),
  };
  let created = createProbe(runtime, probeOptions);
  // The local-transfer query needs a file; made only where the query will be sent (the first
  // batch) or may be (the guarded round, which the replies decide; the file is deleted at the end either way).
  const localFile =
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
    return immediate ?? skippedFacts('not a terminal');
  }
  const session = new Session(terminal, state, options, startMs, key, own && runtime.platform !== 'win32', localFile);
  sessions.set(key, session);
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
    private readonly key: object,
    /** Whether this is the process's own terminal, where Ctrl-C must still interrupt (see `keys`). */
    private readonly ownTerminal: boolean,
    /** The local-transfer probe file, deleted when the session ends if the terminal did not delete it. */
    private readonly localFile: string | null = null,
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
    this.tickTimer = setTimeout(() => this.tick(), Math.max(0, Math.ceil(due - this.now())));
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
    this.lateTimer = setTimeout(() => this.detach(), ms);
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
    if (sessions.get(this.key) === this) sessions.delete(this.key);
    this.markEnded();
  }
}
