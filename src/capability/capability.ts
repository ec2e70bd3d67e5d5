/**
 * The capability registry and the two questions asked of it: does this runtime support a
 * capability, and what should be written for it. Both read only the runtime they are handed.
 */

import { isSafeParam, isSafeUrl, sanitizeText, stripUnsafe } from '../core/sanitize.js';
import type { Runtime } from '../env/runtime.js';
import { BUILTINS, type BuiltinArgs } from './builtins.js';
import { ARG_KINDS, type ArgKind, type Capability } from './types.js';
import { describe, matchesWhen, validateWhen } from './when.js';

// biome-ignore lint/suspicious/noExplicitAny: the registry holds capabilities of every argument type; each is checked at emit time
type AnyCapability = Capability<any>;

const registry = new Map<string, AnyCapability>();

/** Checks a capability's shape and returns a frozen copy, so later edits to the caller's object change nothing. */
function normalize(input: unknown): AnyCapability {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new TypeError(
      `register: a capability must be an object with name, when, args, sequence and fallback, got ${describe(input)}`,
    );
  }
  const cap = input as Record<string, unknown>;
  if (typeof cap.name !== 'string' || cap.name === '') {
    throw new TypeError(`register: a capability needs a non-empty string name, got ${describe(cap.name)}`);
  }
  const name = cap.name;
  const when = validateWhen(cap.when, name);
  for (const key of ['sequence', 'fallback'] as const) {
    if (typeof cap[key] !== 'function') {
      throw new TypeError(
        `capability '${name}': ${key} must be a function (args, runtime) => string, got ${describe(cap[key])}`,
      );
    }
  }
  const args: Record<string, ArgKind> = {};
  if (cap.args !== undefined) {
    if (typeof cap.args !== 'object' || cap.args === null || Array.isArray(cap.args)) {
      throw new TypeError(
        `capability '${name}': args must be an object naming each argument's kind, got ${describe(cap.args)}`,
      );
    }
    for (const [key, kind] of Object.entries(cap.args)) {
      if (!(ARG_KINDS as readonly unknown[]).includes(kind)) {
        throw new TypeError(
          `capability '${name}': args.${key} must be one of ${ARG_KINDS.join(', ')}, got ${describe(kind)}`,
        );
      }
      args[key] = kind as ArgKind;
    }
  }
  if (cap.summary !== undefined && typeof cap.summary !== 'string') {
    throw new TypeError(`capability '${name}': summary must be a string, got ${describe(cap.summary)}`);
  }
  if (cap.sources !== undefined && !(Array.isArray(cap.sources) && cap.sources.every((s) => typeof s === 'string'))) {
    throw new TypeError(`capability '${name}': sources must be an array of strings`);
  }
  return Object.freeze({
    name,
    when,
    args: Object.freeze(args),
    sequence: cap.sequence as AnyCapability['sequence'],
    fallback: cap.fallback as AnyCapability['fallback'],
    ...(cap.summary === undefined ? {} : { summary: cap.summary as string }),
    ...(cap.sources === undefined ? {} : { sources: Object.freeze([...(cap.sources as string[])]) }),
  });
}

/** Puts the built-in capabilities back, dropping every registration (for tests and hosts that reset). */
export function resetCapabilities(): void {
  registry.clear();
  for (const builtin of BUILTINS) registry.set(builtin.name, normalize(builtin));
}
resetCapabilities();

/** The registered capability called `name`; throws a TypeError naming the known ones for anything else. */
export function capability<N extends keyof BuiltinArgs>(name: N): Capability<BuiltinArgs[N]>;
export function capability(name: string): AnyCapability;
export function capability(name: string): AnyCapability {
  const found = typeof name === 'string' ? registry.get(name) : undefined;
  if (!found) {
    throw new TypeError(`unknown capability ${describe(name)} (known: ${[...registry.keys()].join(', ')})`);
  }
  return found;
}

/** Every registered capability, built-ins first, in registration order. */
export function capabilities(): readonly AnyCapability[] {
  return [...registry.values()];
}

/**
 * Registers `capability`, replacing any of the same name for every later `emit` and `supports`.
 * Throws a TypeError naming the problem when it is malformed. Returns the stored (frozen) copy.
 */
export function register(capability: AnyCapability): AnyCapability {
  const stored = normalize(capability);
  registry.set(stored.name, stored);
  return stored;
}

function resolve(capabilityOrName: string | AnyCapability, caller: string): AnyCapability {
  if (typeof capabilityOrName === 'string') return capability(capabilityOrName);
  if (typeof capabilityOrName === 'object' && capabilityOrName !== null) return capabilityOrName;
  throw new TypeError(`${caller}: expected a capability or its name, got ${describe(capabilityOrName)}`);
}

/**
 * Whether `runtime` is believed to understand the capability (by name, or a capability object that
 * need not be registered). Reads only `runtime.env` and `runtime.isTTY.stdout`.
 */
export function supports(runtime: Runtime, capabilityOrName: string | AnyCapability): boolean {
  return matchesWhen(runtime, resolve(capabilityOrName, 'supports').when);
}

/**
 * What to write for the capability: its sequence when `runtime` supports it, its plain-text fallback
 * otherwise. Arguments are checked first (see `ArgKind`): a `param` or `url` carrying a control
 * character (C0, DEL, C1, so ESC, BEL, 0x9C, 0x9B, newline, NUL) or a bidi formatting character
 * refuses the sequence, and the fallback is written with every argument sanitized. `text` arguments
 * lose their controls (SGR colours stay), `data` arguments are encoded by the capability.
 */
export function emit<N extends keyof BuiltinArgs>(runtime: Runtime, name: N, args: BuiltinArgs[N]): string;
export function emit(runtime: Runtime, name: string | AnyCapability, args: object): string;
export function emit(runtime: Runtime, name: string | AnyCapability, args: object): string {
  const cap = resolve(name, 'emit');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new TypeError(`emit '${cap.name}': args must be an object, got ${describe(args)}`);
  }
  let refused = false;
  const checked: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(args)) {
    const kind: ArgKind = cap.args?.[key] ?? 'param';
    if (typeof value !== 'string') {
      if (cap.args?.[key] !== undefined && value !== undefined) {
        throw new TypeError(`emit '${cap.name}': ${key} must be a string, got ${describe(value)}`);
      }
      checked[key] = value;
      continue;
    }
    switch (kind) {
      case 'url':
        if (!isSafeUrl(value)) refused = true;
        checked[key] = stripUnsafe(value);
        break;
      case 'param':
        if (!isSafeParam(value)) refused = true;
        checked[key] = stripUnsafe(value);
        break;
      case 'text':
        checked[key] = sanitizeText(value);
        break;
      case 'data':
        checked[key] = value;
        break;
    }
  }
  if (!refused && matchesWhen(runtime, cap.when)) return cap.sequence(checked, runtime);
  return cap.fallback(checked, runtime);
}
