/**
 * The terminal's interrupt keys while the probe holds raw mode for an application that did not
 * ask for it. Raw mode turns off the line discipline's signals (ISIG), so Ctrl-C would arrive as a
 * byte instead of interrupting; the driver gives it its cooked meaning back (docs/probe.md,
 * "Interrupt keys"). Pure.
 */

/** Interrupt characters as a cooked terminal has them by default (`stty intr ^C quit ^\`). */
export const INTERRUPT_KEYS: ReadonlyArray<readonly [byte: number, signal: 'SIGINT' | 'SIGQUIT']> = [
  [0x03, 'SIGINT'],
  [0x1c, 'SIGQUIT'],
];

/** Where a chunk of keys is interrupted: the keys before it and the signal a cooked terminal would send. */
export interface Interrupt {
  readonly before: Uint8Array;
  readonly signal: 'SIGINT' | 'SIGQUIT';
}

/**
 * The first interrupt key in `keys`, or null. What follows it is dropped, as a cooked terminal
 * flushes its input on an interrupt.
 *
 * @example interruptIn(Buffer.from('ab\x03c'))?.signal === 'SIGINT'
 */
export function interruptIn(keys: Uint8Array): Interrupt | null {
  for (let i = 0; i < keys.length; i++) {
    const hit = INTERRUPT_KEYS.find(([byte]) => byte === keys[i]);
    if (hit) return { before: keys.subarray(0, i), signal: hit[1] };
  }
  return null;
}
