/**
 * How a stopped CLI ends: by the signal that stopped it, as a program without handlers would, once
 * the terminal is clean. Two reasons (docs/cli.md, "Every way out"):
 * - a shell treats a death by SIGINT as the user's Ctrl-C: bash ends the loop or script the command
 *   ran in, where an exit with 130 lets it go on to the next command;
 * - `process.exit()` can hang for ever: it shuts V8's worker threads down while the isolate lives,
 *   and a background compile waiting there for a garbage collection never gets one
 *   (nodejs/node#54918, #64274). Seen here on Node 24 in about one Ctrl-C in ten on a busy machine.
 * SIGQUIT keeps its exit code (131): its default action dumps core.
 */
import type { Interrupt, StopSignal } from './interrupt.js';

/** The part of `process` the way out uses (a `process`, or a stand-in in tests). */
export interface ExitHost {
  readonly pid: number;
  readonly platform: string;
  listeners(event: 'exit'): readonly ((code: number) => void)[];
  removeAllListeners(event: 'exit' | StopSignal): unknown;
  kill(pid: number, signal: StopSignal): unknown;
  exit(code: number): void;
}

/** The stops the process dies by; SIGQUIT is not one (a core dump is not what Ctrl-\ asks of a viewer). */
export const RAISED_SIGNALS: ReadonlySet<StopSignal> = new Set(['SIGHUP', 'SIGINT', 'SIGPIPE', 'SIGTERM']);

/**
 * Ends the process for `interrupt`: first what `process.exit` would run (the `exit` listeners: the
 * probe's tty mode, kitty picture files left to delete), then the signal raised with every listener
 * gone, so its default action ends the process (and, for a typed key, the rest of its process group). Where that does not end it (Windows; a runtime that
 * keeps its own handler), and for SIGQUIT, it exits with 128+n.
 */
export function exitStopped(host: ExitHost, interrupt: Interrupt): void {
  const code = interrupt.exitCode;
  const listeners = [...host.listeners('exit')];
  host.removeAllListeners('exit');
  for (const listener of listeners) {
    try {
      listener(code);
    } catch {
      // One cleanup failing must not keep the others, or the exit, from running.
    }
  }
  if (RAISED_SIGNALS.has(interrupt.signal) && host.platform !== 'win32') {
    // With no listener left, libuv puts the default action back: on Linux the kill ends the process here.
    host.removeAllListeners(interrupt.signal);
    // A typed key goes where the line discipline would have sent it: the foreground process group (0).
    host.kill(interrupt.typed ? 0 : host.pid, interrupt.signal);
  }
  host.exit(code);
}
