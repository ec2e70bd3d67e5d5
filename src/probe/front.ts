/**
 * `probeTty` as the front door (`termsight`) offers it: the driver, the reducer and the terminal's
 * streams are loaded on the first call, not at import, so a program that only wants `detect` never
 * compiles them. The probe is asynchronous anyway; the load is one more await before it starts.
 * See docs/architecture.md, "Load cost".
 */
import type { DriverOptions } from './driver.js';
import type { ProbeFacts } from './facts.js';

/**
 * Asks the terminal device itself what it can do (stdin/stdout when both are terminals, else
 * `/dev/tty`: hence `stream: 'tty'` by default, unlike `probeTerminal`, which answers for stdout)
 * and resolves with what it said. Never rejects for the terminal's sake (no terminal, silence, a
 * closed stream all resolve); rejects only when `signal` aborts. It never blocks: start it early
 * and use the environment's answer until it settles. (The same function as `termsight/probe`'s
 * `probeTty`, loaded on the first call.)
 *
 * @example const facts = await probeTty({ budgetMs: 200 }); facts.terminal?.name
 */
export async function probeTty(options: DriverOptions = {}): Promise<ProbeFacts> {
  const driver = await import('./driver.js');
  return driver.probeTty(options);
}
