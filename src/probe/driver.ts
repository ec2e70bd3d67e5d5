/**
 * The Node driver: runs the pure probe reducer against a real terminal. It turns the reducer's
 * actions into I/O (writes, raw mode, timers) and I/O into events (chunks, clock ticks), and makes
 * sure that on every path (answer, deadline, abort, exception, the stream closing) the terminal mode
 * is restored, every listener is gone, no key is lost and no reply leaks to the application.
 */
import { processRuntime, type Runtime } from '../env/runtime.js';
import type { ProbeAction } from './events.js';
import type { ProbeFacts } from './facts.js';
import { isForeground } from './foreground.js';
import { type InputTap, tapInput } from './input-tap.js';
import { createProbe, type ProbeOptions, type ProbeState, probeResult, probeWakeAt, step } from './reducer.js';
import { flush, holdsReply } from './scanner.js';
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
   * Which stream the answer is for. `tty` (default for `runProbe`): the terminal itself, even when
   * stdout is a pipe. `stdout`/`stderr` (default `stdout` for `probeTerminal`): nothing is written
   * when the runtime says that stream is not a terminal (pictures would not go to one).
   */
  readonly stream?: 'stdout' | 'stderr' | 'tty';
  /** The silence budget in ms (default 100, 1000 over ssh). */
  readonly timeoutMs?: number;
  /** Aborts the probe: the promise rejects with the signal's reason, after restoring the terminal. */
  readonly signal?: AbortSignal;
  /** Sees every chunk written and read, with its time (the CLI's `--trace`). */
  readonly onTrace?: (event: TraceEvent) => void;
  /** Receives the user's keys typed during the probe; without it they are `unshift`ed onto the input. */
  readonly onKeys?: (bytes: Uint8Array) => void;
  /** Inside tmux, also ask the outer terminal through passthrough (default true). */
  readonly passthrough?: boolean;
  /**
   * How long after the result late replies are still swallowed, in ms (default 100; 0: not at all).
   * The terminal stays in raw mode that long so a late reply is neither echoed nor line-buffered.
   */
  readonly lateMs?: number;
  /** Further options for the reducer (extension, drain window, reply cap). */
  readonly probe?: Pick<ProbeOptions, 'extendMs' | 'drainMs' | 'maxReplyBytes' | 'multiplexer'>;
}

/** The default time late replies are swallowed after the result. */
export const DEFAULT_LATE_MS = 100;

/** The session currently holding each terminal: a second probe waits for (or ends) the first. */
const sessions = new WeakMap<object, Session>();
/** The key for the process's own terminal, whether reached through stdin/stdout or `/dev/tty`. */
const CONTROLLING_TERMINAL = {};

/**
 * Asks the terminal what it can do and resolves with what it said. Never rejects for the terminal's
 * sake (no terminal, silence, a closed stream all resolve); rejects only when `signal` aborts.
 * It never blocks: start it early and use the environment's answer until it settles.
 *
 * @example const facts = await runProbe({ timeoutMs: 200 }); facts.terminal?.name
 */
export async function runProbe(options: DriverOptions = {}): Promise<ProbeFacts> {
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
  // One probe at a time per terminal: a second one waits for the first (and cuts its drain short).
  const key: object = explicit && terminal !== null ? terminal.input : CONTROLLING_TERMINAL;
  const previous = terminal !== null ? sessions.get(key) : undefined;
  if (previous) {
    await previous.release();
    if (options.signal?.aborted) terminal?.close();
    options.signal?.throwIfAborted();
  }
  const startMs = performance.now();
  let state = createProbe(runtime, {
    ...options.probe,
    tty: terminal !== null,
    foreground: own ? isForeground() : true,
    nowMs: startMs,
    ...(options.timeoutMs !== undefined ? { budgetMs: options.timeoutMs } : {}),
    ...(options.passthrough !== undefined ? { passthrough: options.passthrough } : {}),
  });
  const [started, actions] = step(state, { type: 'start' });
  state = started;
  const immediate = probeResult(state);
  if (immediate !== null || terminal === null) {
    terminal?.close();
    return immediate ?? skippedFacts('not a terminal');
  }
  const session = new Session(terminal, state, options, startMs, key);
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

function skippedFacts(reason: string): ProbeFacts {
  return { replies: [], sentinel: false, timedOut: false, elapsedMs: 0, skipped: reason };
}

function concat(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  return Buffer.concat(parts.map((p) => Buffer.from(p.buffer, p.byteOffset, p.byteLength)));
}

/**
 * One probe on one terminal, from the first write to the end of the late-reply drain. Phases:
 * probing (the promise is pending), draining (resolved; late replies are still swallowed), ended.
 */
class Session {
  private state: ProbeState;
  private phase: 'probing' | 'draining' | 'ended' = 'probing';
  private readonly input: TerminalInput;
  private readonly output: TerminalOutput;
  private tap: InputTap | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lateTimer: NodeJS.Timeout | null = null;
  private wasRaw = false;
  private rawSet = false;
  private flowingBefore: boolean | null = null;
  /** Keys held for the application until it reads (no `onKeys`, nobody listening yet). */
  private pendingKeys: Uint8Array[] = [];
  private settle: { resolve: (facts: ProbeFacts) => void; reject: (error: unknown) => void } | null = null;
  private endedPromise: Promise<void>;
  private endedResolve!: () => void;
  private readonly onExit = (): void => this.restoreMode();
  private readonly onAbort = (): void => this.abort();
  private readonly onEnd = (): void => this.streamGone();
  private readonly onError = (): void => this.streamGone();

  constructor(
    private readonly terminal: TerminalStreams,
    state: ProbeState,
    private readonly options: DriverOptions,
    private readonly startMs: number,
    private readonly key: object,
  ) {
    this.state = state;
    this.input = terminal.input;
    this.output = terminal.output;
    this.endedPromise = new Promise((r) => (this.endedResolve = r));
  }

  /** Starts the I/O and carries out the start actions; resolves with the facts. */
  run(startActions: ProbeAction[]): Promise<ProbeFacts> {
    return new Promise<ProbeFacts>((resolvePromise, rejectPromise) => {
      this.settle = { resolve: resolvePromise, reject: rejectPromise };
      try {
        this.attach();
        this.apply(startActions);
        this.schedule();
      } catch (error) {
        this.fail(error);
      }
    });
  }

  /** Ends this session early for a new probe on the same input: waits while it probes, cuts a drain short. */
  async release(): Promise<void> {
    if (this.phase === 'draining') this.end();
    await this.endedPromise;
  }

  private now(): number {
    return performance.now();
  }

  private attach(): void {
    const input = this.input;
    // Raw mode before the first write: a reply must never be echoed or wait for Enter.
    if (input.isTTY && typeof input.setRawMode === 'function') {
      this.wasRaw = input.isRaw === true;
      input.setRawMode(true);
      this.rawSet = true;
      process.once('exit', this.onExit);
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
    input.on('end', this.onEnd);
    input.on('close', this.onEnd);
    input.on('error', this.onError);
    // A plain writable may lack events; a real one must not crash the process on a late EPIPE/EIO.
    if (typeof this.output.on === 'function') this.output.on('error', this.onError);
    this.options.signal?.addEventListener('abort', this.onAbort, { once: true });
    input.resume();
  }

  private onData(bytes: Uint8Array): void {
    if (this.phase === 'ended' || bytes.length === 0) return;
    try {
      this.options.onTrace?.({ direction: 'in', bytes, atMs: this.now() - this.startMs });
      this.feed({ type: 'input', bytes });
      // Tick at once: when this chunk held the sentinel, the result is due now, not at a timer.
      if (this.phase === 'probing') this.feed({ type: 'clock', nowMs: this.now() });
      if (this.phase === 'probing') this.schedule();
    } catch (error) {
      this.fail(error);
    }
  }

  private feed(event: Parameters<typeof step>[1]): void {
    const [next, actions] = step(this.state, event);
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
        case 'passthrough':
          this.keys(action.bytes);
          break;
        case 'extendDeadline':
          // The timer is re-armed from probeWakeAt after every step.
          break;
        case 'drained':
          // A late reply: swallowed on purpose.
          break;
        case 'done':
          this.done(action.facts);
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

  /** Arms the one timer for the reducer's next wake-up, or ticks now when it is due. */
  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (let guard = 0; guard < 8 && this.phase === 'probing'; guard++) {
      const wake = probeWakeAt(this.state);
      if (wake === null) return;
      const now = this.now();
      if (wake > now) {
        this.timer = setTimeout(() => this.tick(), Math.max(0, Math.ceil(wake - now)));
        this.timer.unref();
        return;
      }
      this.feed({ type: 'clock', nowMs: now });
    }
  }

  private tick(): void {
    this.timer = null;
    if (this.phase !== 'probing') return;
    try {
      this.feed({ type: 'clock', nowMs: this.now() });
      this.schedule();
    } catch (error) {
      this.fail(error);
    }
  }

  /** The reducer's result: resolve at once, then drain late replies for a while. */
  private done(facts: ProbeFacts): void {
    if (this.phase !== 'probing') return;
    this.phase = 'draining';
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.settle?.resolve(facts);
    this.settle = null;
    this.startDrain();
  }

  private startDrain(): void {
    const lateMs = this.options.lateMs ?? DEFAULT_LATE_MS;
    if (lateMs <= 0 || this.input.destroyed) {
      this.end();
      return;
    }
    this.flushKeysToApp();
    this.lateTimer = setTimeout(() => this.end(), lateMs);
    this.lateTimer.unref();
  }

  /** Ends the probe before its result: the facts so far, as if its time ran out. */
  private forceFinish(): ProbeFacts {
    for (let guard = 0; guard < 8 && probeResult(this.state) === null; guard++) {
      const wake = probeWakeAt(this.state) ?? this.state.deadlineMs;
      const [next, actions] = step(this.state, {
        type: 'clock',
        nowMs: Math.max(wake, this.state.deadlineMs, this.state.nowMs),
      });
      this.state = next;
      // Keys released at the end still reach the application; the result is settled by the caller.
      for (const action of actions) if (action.type === 'passthrough') this.keys(action.bytes);
    }
    const facts = probeResult(this.state) ?? skippedFacts('the probe did not finish');
    return { ...facts, elapsedMs: this.now() - this.startMs };
  }

  /** The input ended, errored or is being destroyed. */
  private streamGone(): void {
    if (this.phase === 'ended') return;
    if (this.phase === 'probing') {
      const facts = this.forceFinish();
      this.phase = 'draining';
      this.settle?.resolve(facts);
      this.settle = null;
    }
    this.end();
  }

  private abort(): void {
    if (this.phase !== 'probing') return;
    this.forceFinish();
    this.phase = 'draining';
    const reason = this.options.signal?.reason ?? new DOMException('The probe was aborted', 'AbortError');
    this.settle?.reject(reason);
    this.settle = null;
    // The query is out: its replies may still come, so they are drained like any late reply.
    this.startDrain();
  }

  private fail(error: unknown): void {
    const settle = this.settle;
    this.settle = null;
    this.phase = 'draining';
    this.end();
    settle?.reject(error);
  }

  private restoreMode(): void {
    if (!this.rawSet) return;
    this.rawSet = false;
    process.off('exit', this.onExit);
    // The application changed the mode itself meanwhile: that is its mode now.
    if (this.tap?.appSetRawMode) return;
    try {
      if (!this.input.destroyed) this.tap ? this.tap.setRawMode(this.wasRaw) : this.input.setRawMode?.(this.wasRaw);
    } catch {
      // The handle is already gone: nothing left to restore through it.
    }
  }

  /** Restores the mode, removes every listener and timer, and hands back the keys still held. */
  private end(): void {
    if (this.phase === 'ended') return;
    this.phase = 'ended';
    if (this.timer) clearTimeout(this.timer);
    if (this.lateTimer) clearTimeout(this.lateTimer);
    this.timer = this.lateTimer = null;
    const input = this.input;
    this.restoreMode();
    // A partial key sequence (a lone ESC) still held by the scanner is the user's; a partial reply is not.
    if (!holdsReply(this.state.scanner)) {
      for (const token of flush(this.state.scanner).tokens) this.keys(token.bytes);
    }
    this.tap?.remove();
    this.options.signal?.removeEventListener('abort', this.onAbort);
    input.off('end', this.onEnd);
    input.off('close', this.onEnd);
    input.off('error', this.onError);
    if (typeof this.output.off === 'function') this.output.off('error', this.onError);
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
    this.terminal.close();
    if (sessions.get(this.key) === this) sessions.delete(this.key);
    this.endedResolve();
  }
}
