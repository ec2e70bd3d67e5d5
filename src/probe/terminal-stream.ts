/**
 * Finding the terminal to probe: the standard streams when both are terminals, else the process's
 * controlling terminal through `/dev/tty` (stdin or stdout may be a pipe while a person still sits at
 * the terminal: `cat file | app`, `app > out.txt`).
 */
import { nodeFs, nodeTty } from '../core/node-builtins.js';

/** The input side as far as the probe cares: a readable stream, raw mode when it is a terminal. */
export type TerminalInput = NodeJS.ReadableStream & {
  readonly isTTY?: boolean;
  readonly isRaw?: boolean;
  readonly destroyed?: boolean;
  setRawMode?(mode: boolean): unknown;
};

/** The output side as far as the probe cares. */
export type TerminalOutput = NodeJS.WritableStream & { readonly isTTY?: boolean };

/** A pair of streams to one terminal, and how to let go of it. */
export interface TerminalStreams {
  readonly input: TerminalInput;
  readonly output: TerminalOutput;
  /** Whether the streams were opened here (`/dev/tty`) and so are closed by `close()`. */
  readonly opened: boolean;
  /** Releases streams opened here; a no-op for the process's own streams. */
  close(): void;
}

/** The process's standard streams, when both are terminals. */
export function stdioTerminal(): TerminalStreams | null {
  if (!process.stdin?.isTTY || !process.stdout?.isTTY) return null;
  return { input: process.stdin, output: process.stdout, opened: false, close() {} };
}

/**
 * Opens the controlling terminal (`/dev/tty`) for reading and writing, or returns `null` when the
 * process has none (a daemon, CI, `setsid`) or the platform has no such device.
 */
export function openControllingTerminal(path = '/dev/tty'): TerminalStreams | null {
  let readFd = -1;
  let writeFd = -1;
  try {
    // Two descriptors: libuv wants one handle per fd, and each stream closes its own.
    const { openSync } = nodeFs();
    readFd = openSync(path, 'r');
    writeFd = openSync(path, 'w');
    const { ReadStream, WriteStream } = nodeTty();
    const input = new ReadStream(readFd);
    const output = new WriteStream(writeFd);
    let closed = false;
    return {
      input,
      output,
      opened: true,
      close() {
        if (closed) return;
        closed = true;
        input.destroy();
        output.destroy();
      },
    };
  } catch {
    for (const fd of [readFd, writeFd]) {
      if (fd >= 0) {
        try {
          nodeFs().closeSync(fd);
        } catch {
          // Already owned by a stream that failed half-way: nothing else to release.
        }
      }
    }
    return null;
  }
}

/** The terminal to probe by default: the standard streams when both are terminals, else `/dev/tty`. */
export function defaultTerminal(): TerminalStreams | null {
  return stdioTerminal() ?? openControllingTerminal();
}
