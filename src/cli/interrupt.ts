/**
 * Why the CLI stops before it is done, and what exit code says so: the signals it catches, the
 * keys that mean one while the terminal is in raw mode, and a closed output. Pure; the listening
 * is terminal-guard.ts. See docs/cli.md, "Every way out".
 */

/** The signals the CLI catches to leave the terminal clean, with their numbers on Linux. */
export const STOP_SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGPIPE: 13, SIGTERM: 15 } as const;

/** A signal the CLI stops for. */
export type StopSignal = keyof typeof STOP_SIGNALS;

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = 128 + STOP_SIGNALS.SIGINT;

/**
 * The reason an interrupted command was stopped with (an AbortSignal's `reason`): the signal, or
 * SIGPIPE for an output that closed (EPIPE) or failed (EIO on a hung-up terminal).
 */
export class Interrupt extends Error {
  override readonly name = 'Interrupt';
  /** 128 + the signal's number: 129 SIGHUP, 130 SIGINT, 131 SIGQUIT, 141 SIGPIPE, 143 SIGTERM. */
  readonly exitCode: number;
  /** Whether stdout is gone, so nothing more (not even the closing bytes) is written to it. */
  readonly outputGone: boolean;

  constructor(
    readonly signal: StopSignal,
    /**
     * Whether it stands for a key typed while the terminal was raw (Ctrl-C read as byte 0x03): in
     * cooked mode the line discipline would have sent the signal to the whole foreground process
     * group (the shell loop termsight runs in), not to termsight alone.
     */
    readonly typed = false,
  ) {
    super(`stopped by ${signal}`);
    this.exitCode = 128 + STOP_SIGNALS[signal];
    this.outputGone = signal === 'SIGPIPE';
  }
}

/** The Interrupt an aborted signal carries, or null (not aborted, or aborted for another reason). */
export function interruptOf(signal: AbortSignal | undefined): Interrupt | null {
  return signal?.aborted && signal.reason instanceof Interrupt ? signal.reason : null;
}

/** The exit code of a command stopped by `signal`: its Interrupt's, else 130 (an abort is Ctrl-C). */
export function interruptedExit(signal: AbortSignal | undefined): number {
  return interruptOf(signal)?.exitCode ?? EXIT_INTERRUPTED;
}

/**
 * The signal a key typed while the terminal is raw stands for: Ctrl-C (0x03) is SIGINT and
 * Ctrl-\ (0x1c) SIGQUIT, as the line discipline would make them in cooked mode; else null.
 *
 * @example interruptKey(Uint8Array.of(0x61, 0x03)) // 'SIGINT'
 */
export function interruptKey(bytes: Uint8Array): StopSignal | null {
  if (bytes.includes(0x03)) return 'SIGINT';
  if (bytes.includes(0x1c)) return 'SIGQUIT';
  return null;
}

/**
 * What leaves a terminal usable whatever was written before, when the exact state is unknown
 * (the guard's last resort): ST closes an open DCS/APC/OSC and is ignored otherwise, then SGR
 * reset, synchronized output off, the cursor shown.
 */
export const FALLBACK_TAIL = '\x1b\\\x1b[0m\x1b[?2026l\x1b[?25h';
