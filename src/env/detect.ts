/**
 * The picture protocol and the placements answer from the environment alone: the rule tables,
 * evaluated in order, with `TERMSIGHT_GRAPHICS` first.
 */
import { GRAPHICS_DEFAULT, GRAPHICS_RULES, type GraphicsRule } from './graphics-rules.js';
import { type GraphicsOverride, overrideDecision } from './override.js';
import { PLACEMENT_RULES } from './placement-rules.js';
import type { Protocol } from './protocol.js';
import { firstMatch, type Rule } from './rule.js';
import type { Env } from './runtime.js';

/** The environment's answer with what decided it. */
export interface Detection {
  readonly protocol: Protocol;
  /** The rule that matched, when one did. */
  readonly rule?: GraphicsRule;
  /** What `TERMSIGHT_GRAPHICS` said (`invalid` values are reported here and otherwise ignored). */
  readonly override: GraphicsOverride;
  /** One sentence: why this answer. */
  readonly reason: string;
}

/**
 * Detects the protocol for `env` with its reason: a protocol named by `TERMSIGHT_GRAPHICS` wins;
 * otherwise (also for `off`, which only matters to the resolved report) the first matching rule,
 * else `braille`.
 */
export function explainDetect(env: Env): Detection {
  const decision = overrideDecision(env);
  const { override } = decision;
  if (decision.decides && decision.protocol !== null)
    return { protocol: decision.protocol, override, reason: decision.reason };
  const rule = firstMatch(GRAPHICS_RULES, env);
  if (rule) return { protocol: rule.answer, rule, override, reason: `rule ${rule.id}: ${rule.note}` };
  return { protocol: GRAPHICS_DEFAULT, override, reason: 'no rule matched: braille needs no graphics support' };
}

let cached: Protocol | undefined;

/**
 * The picture protocol for `env`. With no argument it reads `process.env` once and caches the
 * answer for the life of the process (a later change to the environment is not seen); with an
 * argument it is uncached, and missing or empty variables count as unset.
 *
 * @example detect({ TERM: 'xterm-kitty' }) // 'kitty'
 */
export function detect(env?: Env): Protocol {
  if (env !== undefined) return explainDetect(env).protocol;
  cached ??= explainDetect({ ...process.env }).protocol;
  return cached;
}

/** The placements answer for `env` with the rule that decided it (none: the default `false`). */
export function explainPlacements(env: Env): { readonly placements: boolean; readonly rule?: Rule<boolean> } {
  const rule = firstMatch(PLACEMENT_RULES, env);
  return rule ? { placements: rule.answer, rule } : { placements: false };
}

/**
 * Whether the terminal keeps images under an id and places them again. With no argument it reads
 * `process.env` (uncached). A terminal detected as `kitty` may still answer `false` (WezTerm).
 *
 * @example placements({ TERM: 'xterm-kitty' }) // true
 */
export function placements(env?: Env): boolean {
  return explainPlacements(env ?? { ...process.env }).placements;
}
