/**
 * What a shell's `$?` says about a child: its exit code, or 128 + the number of the signal it died
 * by. A stopped termsight dies by SIGINT, SIGTERM, SIGHUP or SIGPIPE (src/cli/exit.ts) and exits
 * 131 for SIGQUIT; tests that spawn it without a shell compare this.
 */
import { constants } from 'node:os';

/**
 * From node-pty's `onExit` (`{ exitCode, signal }`, signal a number, 0 for none) or child_process's
 * `close`/`exit` (`code`, `signal` a name or null).
 */
export function shellStatus(code: number | null, signal: NodeJS.Signals | number | null | undefined): number {
  const number = typeof signal === 'string' ? constants.signals[signal] : (signal ?? 0);
  if (number > 0) return 128 + number;
  if (code === null) throw new Error('a child with neither an exit code nor a signal');
  return code;
}
