/**
 * The CLI's own colours: bold and dim only, and none at all when NO_COLOR is set (no-color.org) or
 * the output is not a terminal.
 */
import { type Env, envValue } from '../env/runtime.js';

/** Text styling for the CLI's own output. */
export interface Style {
  bold(text: string): string;
  dim(text: string): string;
}

/** A Style for an output: plain when `NO_COLOR` is set (any non-empty value) or `isTTY` is false. */
export function styleFor(env: Env, isTTY: boolean | undefined): Style {
  const plain = envValue(env, 'NO_COLOR') !== undefined || !isTTY;
  if (plain) return { bold: (t) => t, dim: (t) => t };
  return { bold: (t) => `\x1b[1m${t}\x1b[22m`, dim: (t) => `\x1b[2m${t}\x1b[22m` };
}
