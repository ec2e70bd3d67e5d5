/**
 * Catches every way the CLI can be told to stop (SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE, a
 * closed or failing stdout) and turns it into an aborted AbortSignal with an `Interrupt` reason,
 * so the command closes what it left open and exits with 128+n. The I/O half of interrupt.ts;
 * see docs/cli.md, "Every way out".
 */
import { FALLBACK_TAIL, Interrupt, STOP_SIGNALS, type StopSignal } from './interrupt.js';

/** What the guard listens to: the process's signals (a `process`, or a stand-in in tests). */
export interface SignalSource {
  on(event: StopSignal, listener: () => void): unknown;
  off(event: StopSignal, listener: () => void): unknown;
}

/** A stream whose failure the guard watches (stdout, stderr). */
export interface WatchedStream {
  write(chunk: string): boolean;
  on?(event: 'error', listener: (error: unknown) => void): unknown;
  off?(event: 'error', listener: (error: unknown) => void): unknown;
}

/** The stop signal and the means to stop, handed to commands. */
export interface StopControl {
  /** Aborted, with an `Interrupt` reason, when the CLI must stop. */
  readonly signal: AbortSignal;
  /**
   * Stops for a key typed while the terminal is raw that stands for `signal` (Ctrl-C as byte
   * 0x03): as if it had been received, and marked `typed` for the way out (exit.ts).
   */
  stop(signal: StopSignal): void;
}

/** A running guard. */
export interface TerminalGuard extends StopControl {
  /** The Interrupt it stopped for, if any. */
  readonly stopped: Interrupt | null;
  /** Removes every listener and timer. */
  dispose(): void;
}

/** How long a stopped command has to close its picture before the guard ends the process itself. */
export const GRACE_MS = 2_000;

/**
 * Starts listening. The first stop aborts `signal`; if the command has not returned `GRACE_MS`
 * later, or a second signal comes, the guard writes `FALLBACK_TAIL` and calls `exit` itself.
 */
export function guardTerminal(
  source: SignalSource,
  streams: { readonly stdout: WatchedStream; readonly stderr?: WatchedStream },
  /** Ends the process for the stop (start.ts: `exitStopped`). */
  exit: (interrupt: Interrupt) => void,
): TerminalGuard {
  const controller = new AbortController();
  let stopped: Interrupt | null = null;
  let grace: ReturnType<typeof setTimeout> | null = null;

  const lastResort = (interrupt: Interrupt): void => {
    if (!interrupt.outputGone) {
      try {
        streams.stdout.write(FALLBACK_TAIL);
      } catch {
        // The output is gone after all: nothing to close on it.
      }
    }
    exit(interrupt);
  };
  const stopFor = (signal: StopSignal, typed: boolean): void => {
    if (stopped) {
      // Asked twice: the user means it.
      lastResort(stopped);
      return;
    }
    stopped = new Interrupt(signal, typed);
    controller.abort(stopped);
    const interrupt = stopped;
    grace = setTimeout(() => lastResort(interrupt), GRACE_MS);
    grace.unref?.();
  };

  const handlers = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((signal) => {
    const listener = (): void => stopFor(signal, false);
    source.on(signal, listener);
    return [signal, listener] as const;
  });
  // A closed pipe (`| head`) or a hung-up terminal fails writes: stop quietly, never crash on it.
  const onStdoutError = (): void => {
    if (!stopped) stopFor('SIGPIPE', false);
  };
  const onStderrError = (): void => {};
  streams.stdout.on?.('error', onStdoutError);
  streams.stderr?.on?.('error', onStderrError);

  return {
    signal: controller.signal,
    stop: (signal) => stopFor(signal, true),
    get stopped() {
      return stopped;
    },
    dispose() {
      for (const [signal, listener] of handlers) source.off(signal, listener);
      if (grace) clearTimeout(grace);
      // The error listeners stay: a late EPIPE while the process exits must not become a crash.
    },
  };
}
