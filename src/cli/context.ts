/**
 * What a CLI command is handed: the runtime and the streams. Commands never reach for `process`
 * themselves, so tests run them in-process with captured streams.
 */
import type { Runtime } from '../env/runtime.js';
import type { JobControl } from './job-control.js';
import type { StopControl } from './terminal-guard.js';

/** A writable stream as far as the CLI cares. */
export interface Output {
  write(chunk: string | Uint8Array): boolean;
  readonly isTTY?: boolean;
}

/** The runtime and standard streams of one CLI invocation. */
export interface CliContext {
  readonly runtime: Runtime;
  readonly stdout: Output;
  readonly stderr: Output;
  readonly stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  /** Signals and a closed output stop the command through this (main.ts guards the terminal). */
  readonly stop?: StopControl;
  /** Ctrl-Z and `fg` close and redraw pictures through this (main.ts; absent in tests that need none). */
  readonly jobs?: JobControl;
}

/** Thrown for bad usage: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}
