/**
 * Argument parsing for the subcommands: node's own `parseArgs`, strict, with every error turned
 * into one line that says what was wrong and what is accepted (a UsageError, exit 2). See
 * docs/cli.md, "Arguments".
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { PROTOCOLS } from '../env/protocol.js';
import { MAX_CELL_PIXELS, MAX_CELLS } from '../render/geometry/limits.js';
import { UsageError } from './context.js';

/** The longest probe budget `--timeout` takes, in ms: a minute (node's timers end at 2^31-1). */
export const MAX_TIMEOUT_MS = 60_000;

/** What a whole-number flag takes: its unit and range. */
export interface WholeRange {
  readonly min: number;
  readonly max?: number;
  readonly unit?: string;
}

/** The whole-number flags of the commands, by name (without the dashes). */
export const WHOLE_FLAGS: Readonly<Record<string, WholeRange>> = {
  width: { min: 1, max: MAX_CELLS, unit: 'cells' },
  height: { min: 1, max: MAX_CELLS, unit: 'rows' },
  timeout: { min: 1, max: MAX_TIMEOUT_MS, unit: 'milliseconds' },
};

/** The most pixels `show --width`/`--height` take: the widest box of the largest cells. */
export const MAX_LENGTH_PIXELS = MAX_CELLS * MAX_CELL_PIXELS;

/** What `show --width` or `--height` takes, in words (show-size.ts parses it). */
export function describeLength(flag: '--width' | '--height'): string {
  const unit = flag === '--width' ? 'cells' : 'rows';
  return `a whole number of ${unit} from 1 to ${MAX_CELLS}, a percentage of the terminal from 1% to 100%, or pixels from 1px to ${MAX_LENGTH_PIXELS}px`;
}

/** What `show`'s size and layout flags take (show-size.ts says the same in its errors). */
const SHOW_ACCEPTS: Readonly<Record<string, string>> = {
  width: describeLength('--width'),
  height: describeLength('--height'),
  fit: 'one of contain, cover, fill',
  align: 'one of left, center, right',
  grid: 'COLUMNSxROWS of pictures, such as 4x2',
};

/** What a value flag accepts, in words, for the messages. */
function accepts(name: string, command = ''): string | undefined {
  if (name === 'protocol') return `one of ${PROTOCOLS.join(', ')}`;
  const shown = command === 'show' ? SHOW_ACCEPTS[name] : undefined;
  if (shown) return shown;
  const range = WHOLE_FLAGS[name];
  return range ? describeWhole(range) : undefined;
}

/** "a whole number of cells from 1 to 10000", "a whole number of at least 0". */
export function describeWhole(range: WholeRange): string {
  const unit = range.unit ? ` of ${range.unit}` : '';
  return range.max === undefined
    ? `a whole number${unit} of at least ${range.min}`
    : `a whole number${unit} from ${range.min} to ${range.max}`;
}

/** A value as the messages show it: as typed, quoted only when it is empty or holds spaces. */
export function shownValue(text: string): string {
  return text === '' || /\s/.test(text) ? JSON.stringify(text) : text;
}

/**
 * `--width -5` as `--width=-5`: parseArgs takes a value that starts with `-` for an option and
 * answers "argument is ambiguous"; a negative number is a bad value to report as such.
 */
function joinNegativeValues(args: readonly string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    if (name !== '' && options[name]?.type === 'string' && next !== undefined && /^-[\d.]/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** Parses `args` with `options`; unknown flags, missing values and values for switches become a UsageError. */
export function parse<T extends NonNullable<ParseArgsConfig['options']>>(
  command: string,
  args: readonly string[],
  options: T,
  allowPositionals = false,
): ReturnType<typeof parseArgs<{ args: string[]; options: T; allowPositionals: boolean; strict: true }>> {
  const joined = joinNegativeValues(args, options);
  try {
    return parseArgs({ args: joined, options, allowPositionals, strict: true });
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw new UsageError(explain(command, message, joined, options));
  }
}

/** parseArgs' message as one line that names the flag and what it takes. */
function explain(
  command: string,
  message: string,
  args: readonly string[],
  options: NonNullable<ParseArgsConfig['options']>,
): string {
  const missing = /^Option '--([^' ]+)(?: <value>)?' argument (?:missing|is ambiguous)/.exec(message);
  if (missing?.[1]) {
    const takes = accepts(missing[1], command);
    return `--${missing[1]} needs a value${takes ? `: ${takes}` : ''}`;
  }
  const noValue = /^Option '--([^' ]+)' does not take an argument/.exec(message);
  if (noValue?.[1]) {
    const given = args.find((a) => a.startsWith(`--${noValue[1]}=`));
    const value = given === undefined ? '' : `, got ${shownValue(given.slice(noValue[1].length + 3))}`;
    return `--${noValue[1]} is a switch and takes no value${value}`;
  }
  const flags = Object.keys(options).map((name) => `--${name}`);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return `${command}: unknown option ${unknown[1]}; it takes ${flags.join(', ') || 'no options'}`;
  return `${command}: ${message.replace(/\. To specify a positional argument.*$/, '')}`;
}

/**
 * A whole number from a flag's text, within the flag's range (from `WHOLE_FLAGS` when the flag is
 * listed there, else at least `min`); anything else is a UsageError naming the flag, what it
 * takes and what it got: `--width must be a whole number of cells from 1 to 10000, got -5`.
 */
export function wholeNumber(flag: string, text: string | undefined, min = 0): number | undefined {
  if (text === undefined) return undefined;
  const range = WHOLE_FLAGS[flag.replace(/^--/, '')] ?? { min };
  const value = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!(value >= range.min) || (range.max !== undefined && value > range.max)) {
    throw new UsageError(`${flag} must be ${describeWhole(range)}, got ${shownValue(text)}`);
  }
  return value;
}

/** `--protocol`'s value, trimmed and lower-cased, when it names a protocol; else a UsageError. */
export function protocolFlag<P extends string>(text: string, known: readonly P[]): P {
  const p = text.trim().toLowerCase();
  const found = known.find((k) => k === p);
  if (found === undefined)
    throw new UsageError(`--protocol must be one of ${known.join(', ')}, got ${shownValue(text)}`);
  return found;
}
