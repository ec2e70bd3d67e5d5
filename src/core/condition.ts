/**
 * One test of one environment variable, as data. Rule tables (graphics, placements) are lists of
 * these, so they can be printed, listed by the CLI and tested row by row.
 */
import { type Env, envValue } from './env-vars.js';

/** A test on the value of `variable`. Every test but `unset` fails when the variable is unset or empty. */
export type Condition =
  | { readonly variable: string; readonly test: 'set' }
  | { readonly variable: string; readonly test: 'unset' }
  | { readonly variable: string; readonly test: 'equals'; readonly value: string }
  | { readonly variable: string; readonly test: 'contains'; readonly values: readonly string[] }
  | { readonly variable: string; readonly test: 'prefix'; readonly value: string }
  | { readonly variable: string; readonly test: 'versionAtLeast'; readonly value: string };

/** Whether `env` satisfies `condition`. */
export function matches(env: Env, condition: Condition): boolean {
  const value = envValue(env, condition.variable);
  switch (condition.test) {
    case 'unset':
      return value === undefined;
    case 'set':
      return value !== undefined;
    case 'equals':
      return value === condition.value;
    case 'contains':
      return value !== undefined && condition.values.some((part) => value.includes(part));
    case 'prefix':
      return value?.startsWith(condition.value) === true;
    case 'versionAtLeast':
      return value !== undefined && compareVersions(value, condition.value) >= 0;
  }
}

/**
 * Compares dotted versions numerically (`3.10` > `3.9`); a missing part counts as 0 and trailing
 * text in a part (`1.2.3-beta`) is ignored. A value with no leading number compares as lowest.
 */
export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  if (pa === null) return pb === null ? 0 : -1;
  if (pb === null) return 1;
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d < 0 ? -1 : 1;
  }
  return 0;
}

function versionParts(version: string): number[] | null {
  const m = /^\s*v?(\d+(?:\.\d+)*)/.exec(version);
  return m ? m[1].split('.').map(Number) : null;
}

/** The condition as one line of text: `TERM contains "kitty" or "ghostty"`. */
export function describeCondition(condition: Condition): string {
  const v = condition.variable;
  switch (condition.test) {
    case 'set':
      return `${v} is set`;
    case 'unset':
      return `${v} is unset`;
    case 'equals':
      return `${v} is "${condition.value}"`;
    case 'contains':
      return `${v} contains ${condition.values.map((s) => `"${s}"`).join(' or ')}`;
    case 'prefix':
      return `${v} starts with "${condition.value}"`;
    case 'versionAtLeast':
      return `${v} is at least ${condition.value}`;
  }
}
