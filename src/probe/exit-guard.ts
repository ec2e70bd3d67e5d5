/**
 * The last line of defence for the terminal mode: while a probe holds a terminal in raw mode, a
 * process that exits (`process.exit()` in a handler, an uncaught exception) or dies by SIGHUP,
 * SIGTERM or SIGQUIT gets the mode back first. The hooks exist only while some probe holds raw
 * mode, and a signal keeps its meaning: with no other listener it is raised again after the
 * restore, so the process still dies by it (docs/probe.md, "Every way out").
 */

/** Something that can put its terminal back synchronously. */
export interface ModeHolder {
  /** Restores the terminal mode now, synchronously; a second call does nothing. */
  restoreMode(): void;
}

const holders = new Set<ModeHolder>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGHUP', 'SIGTERM', 'SIGQUIT'];
let hooked: NodeJS.Signals[] = [];

function onExit(): void {
  restoreTerminal();
}

function onSignal(signal: NodeJS.Signals): void {
  // Someone else decides what the signal means; alone, the default (death by the signal) stays.
  const alone = process.listenerCount(signal) === 1;
  restoreTerminal();
  if (alone) {
    unhook();
    process.kill(process.pid, signal);
  }
}

function hook(): void {
  process.on('exit', onExit);
  hooked = [];
  for (const signal of SIGNALS) {
    try {
      process.on(signal, onSignal);
      hooked.push(signal);
    } catch {
      // A platform that cannot listen for this signal (Windows and SIGQUIT): nothing to guard.
    }
  }
}

function unhook(): void {
  process.off('exit', onExit);
  for (const signal of hooked) process.off(signal, onSignal);
  hooked = [];
}

/**
 * Guards `holder` until the returned function is called: on exit or a fatal signal its mode is
 * restored first.
 */
export function guardMode(holder: ModeHolder): () => void {
  if (holders.size === 0) hook();
  holders.add(holder);
  return () => {
    if (!holders.delete(holder)) return;
    if (holders.size === 0) unhook();
  };
}

/**
 * Restores the mode of every terminal a probe holds in raw mode, synchronously. For an
 * application's own exit or signal handlers (termsight's hooks do the same on `exit`, SIGHUP,
 * SIGTERM and SIGQUIT). The probes go on; their late replies may then be echoed.
 *
 * @example process.on('SIGINT', () => { restoreTerminal(); process.exit(130); });
 */
export function restoreTerminal(): void {
  for (const holder of [...holders]) holder.restoreMode();
}
