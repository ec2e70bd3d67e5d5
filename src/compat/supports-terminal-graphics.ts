/**
 * `termsight/supports-terminal-graphics`: a drop-in for supports-terminal-graphics 0.1. It answers
 * as 0.1.0 does for the same process (`process.env` read at each call, the default export computed
 * at import from `process.stdout`/`stderr`), except for the two documented corrections (iTerm2 is
 * never kitty; a stale kitty id inside another terminal is not kitty; see terminal-graphics.ts).
 * `probeTerminalGraphics` asks the terminal instead of trusting the environment.
 */
import process from 'node:process';
import type { DriverOptions } from '../probe/driver.js';
import { probeTerminal } from '../report/probe-terminal.js';
import {
  type GraphicsStream,
  graphicsFromReport,
  graphicsSupport,
  type TerminalGraphicsSupport,
} from './terminal-graphics.js';

export {
  GRAPHICS_CORRECTIONS,
  type GraphicsCorrection,
  type GraphicsReport,
  type GraphicsStream,
  graphicsFromReport,
  graphicsSupport,
  incumbentGraphicsSupport,
  OTHER_TERMINALS,
  type TerminalGraphicsSupport,
} from './terminal-graphics.js';

/**
 * Which graphics protocols `stream` is believed to show, from this process's environment.
 *
 * @example createSupportsTerminalGraphics(process.stdout).kitty // true in kitty, ghostty, WezTerm
 */
export function createSupportsTerminalGraphics(stream?: GraphicsStream): TerminalGraphicsSupport {
  return graphicsSupport(process.env, stream);
}

/**
 * The same question asked of the terminal: one probe (`probeTerminal`), so it is right over ssh,
 * inside tmux and where the environment is stale. Resolves, never hangs; rejects only on `signal`.
 *
 * @example const { kitty } = await probeTerminalGraphics({ budgetMs: 200 })
 */
export async function probeTerminalGraphics(options: DriverOptions = {}): Promise<TerminalGraphicsSupport> {
  const report = await probeTerminal(options);
  return graphicsFromReport(report, graphicsSupport(options.runtime?.env ?? process.env));
}

/** The answers for stdout and stderr, computed at import as the incumbent's default export. */
const supportsTerminalGraphics: { stdout: TerminalGraphicsSupport; stderr: TerminalGraphicsSupport } = {
  stdout: createSupportsTerminalGraphics(process.stdout),
  stderr: createSupportsTerminalGraphics(process.stderr),
};

export default supportsTerminalGraphics;
