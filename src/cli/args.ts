/**
 * Argument parsing for the subcommands: node's own `parseArgs`, strict, with every error turned
 * into a one-line UsageError (exit 2).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './context.js';

/** Parses `args` with `options`; unknown flags and missing values become a UsageError. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: readonly string[],
  options: T,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>> {
  try {
    return parseArgs({ args: [...args], options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UsageError(`${command}: ${message.replace(/\. To specify a positional argument.*$/, '')}`);
  }
}

/** A whole number of at least `min` from a flag's text, else a UsageError naming the flag. */
export function wholeNumber(flag: string, text: string | undefined, min = 0): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text) || Number(text) < min) {
    throw new UsageError(
      `${flag} takes a whole number${min > 0 ? ` of at least ${min}` : ''}, got ${JSON.stringify(text)}`,
    );
  }
  return Number(text);
}
