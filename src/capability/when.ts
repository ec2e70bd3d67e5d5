/**
 * The `when` clause: which terminals are believed to understand a capability, kept as data so it
 * can be read, printed, replaced and tested (a `when` is data, not code). Evaluated against a
 * Runtime only: `env` and `isTTY.stdout`.
 */
import { envValue, type Runtime } from '../env/runtime.js';

/** Which terminals are believed to understand a sequence. Every present field must hold. */
export interface When {
  /** `true`: stdout must be a terminal (a file that receives OSC gets control bytes in it). */
  readonly tty?: boolean;
  /** `TERM` must be exactly this (for terminals that identify that way, like `xterm-kitty`). */
  readonly term?: string;
  /** `TERM_PROGRAM` must be one of these. An alternative to `envAny`: either matching is enough. */
  readonly termProgram?: readonly string[];
  /** Any one of these variables merely being set (non-empty). An alternative to `termProgram`. */
  readonly envAny?: readonly string[];
}

/** The fields a `when` clause may have, in the order they are documented. */
export const WHEN_KEYS: readonly (keyof When)[] = ['tty', 'term', 'termProgram', 'envAny'];

function isStringList(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

/**
 * Whether `when` holds for `runtime`. `TERM=dumb` is always no, and a `when` that is not an object
 * is always no. A field of the wrong shape (say `termProgram: 'iTerm.app'`) matches nothing, so a
 * clause that cannot be read never turns a capability on.
 */
export function matchesWhen(runtime: Runtime, when: unknown): boolean {
  if (typeof when !== 'object' || when === null || Array.isArray(when)) return false;
  const clause = when as Record<string, unknown>;
  const env = runtime.env ?? {};
  const term = envValue(env, 'TERM');
  if (term === 'dumb') return false;

  if (clause.tty !== undefined) {
    if (typeof clause.tty !== 'boolean') return false;
    if (clause.tty && runtime.isTTY?.stdout !== true) return false;
  }
  if (clause.term !== undefined) {
    if (typeof clause.term !== 'string' || term !== clause.term) return false;
  }

  const { termProgram, envAny } = clause;
  if (termProgram === undefined && envAny === undefined) return true;
  if (termProgram !== undefined && !isStringList(termProgram)) return false;
  if (envAny !== undefined && !isStringList(envAny)) return false;
  const program = envValue(env, 'TERM_PROGRAM');
  const byProgram = program !== undefined && (termProgram ?? []).includes(program);
  const byVariable = (envAny ?? []).some((name) => envValue(env, name) !== undefined);
  return byProgram || byVariable;
}

/**
 * Checks that `when` is a well-formed clause and returns a frozen copy (key order kept, so its
 * `JSON.stringify` reads as written). Throws a TypeError that names the problem.
 */
export function validateWhen(when: unknown, owner: string): When {
  if (typeof when !== 'object' || when === null || Array.isArray(when)) {
    throw new TypeError(
      `capability '${owner}': when must be an object like { tty: true, termProgram: [...] }, got ${describe(when)}`,
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(when)) {
    if (!(WHEN_KEYS as readonly string[]).includes(key)) {
      throw new TypeError(`capability '${owner}': unknown when field '${key}' (accepted: ${WHEN_KEYS.join(', ')})`);
    }
    if (value === undefined) continue;
    if (key === 'tty' && typeof value !== 'boolean') {
      throw new TypeError(`capability '${owner}': when.tty must be a boolean, got ${describe(value)}`);
    }
    if (key === 'term' && typeof value !== 'string') {
      throw new TypeError(`capability '${owner}': when.term must be a string, got ${describe(value)}`);
    }
    if ((key === 'termProgram' || key === 'envAny') && !isStringList(value)) {
      throw new TypeError(`capability '${owner}': when.${key} must be an array of strings, got ${describe(value)}`);
    }
    out[key] = Array.isArray(value) ? Object.freeze([...value]) : value;
  }
  return Object.freeze(out) as When;
}

/** A short description of a value for an error message. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value);
  return typeof value;
}
