/**
 * The runtime every piece of termsight logic is a function of. Nothing below `cli/` and the Node
 * driver reads `process`: a caller hands a Runtime in, so a test is a literal and a host can ask
 * about a terminal other than its own (a remote session's environment, a pty it owns).
 */

import { type Env, envSet } from '../core/env-vars.js';

/** `Env`, `envValue` and `envSet` live in core (the terminal database reads variables too). */
export { type Env, envSet, envValue } from '../core/env-vars.js';

/** Which standard streams are terminals. */
export interface TTYState {
  readonly stdin?: boolean;
  readonly stdout: boolean;
  readonly stderr?: boolean;
}

/** Everything detection may look at: the environment, the arguments, the platform and the TTYs. */
export interface Runtime {
  readonly env: Env;
  readonly argv?: readonly string[];
  /** `process.platform` style: `linux`, `darwin`, `win32`, … */
  readonly platform?: string;
  readonly isTTY: TTYState;
}

/** Builds a Runtime from the real process, once, at the edge of the program. */
export function processRuntime(): Runtime {
  return {
    env: { ...process.env },
    argv: [...process.argv],
    platform: process.platform,
    isTTY: {
      stdin: Boolean(process.stdin?.isTTY),
      stdout: Boolean(process.stdout?.isTTY),
      stderr: Boolean(process.stderr?.isTTY),
    },
  };
}

/** Whether the session looks remote: any non-empty `SSH_*` variable (ssh sets SSH_CONNECTION, SSH_CLIENT, SSH_TTY). */
export function isRemote(env: Env): boolean {
  for (const name of Object.keys(env)) {
    if (name.startsWith('SSH_') && envSet(env, name)) return true;
  }
  return false;
}
