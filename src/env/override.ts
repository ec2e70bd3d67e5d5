/**
 * `TERMSIGHT_GRAPHICS`: the user's word on the picture protocol, which wins over every rule and
 * every reply. `off` means "draw no images". Anything else is ignored and reported, never a crash.
 */
import { isProtocol, PROTOCOLS, type Protocol } from './protocol.js';
import { type Env, envValue } from './runtime.js';

/** The override variable's name. */
export const GRAPHICS_OVERRIDE = 'TERMSIGHT_GRAPHICS';

/** What the override variable says. */
export type GraphicsOverride =
  | { readonly kind: 'none' }
  | { readonly kind: 'protocol'; readonly protocol: Protocol }
  | { readonly kind: 'off' }
  | { readonly kind: 'invalid'; readonly value: string; readonly message: string };

/** Reads `TERMSIGHT_GRAPHICS` from `env` (case-insensitive, surrounding spaces ignored). */
export function graphicsOverride(env: Env): GraphicsOverride {
  const raw = envValue(env, GRAPHICS_OVERRIDE);
  if (raw === undefined) return { kind: 'none' };
  const value = raw.trim().toLowerCase();
  if (value === 'off') return { kind: 'off' };
  if (isProtocol(value)) return { kind: 'protocol', protocol: value };
  return {
    kind: 'invalid',
    value: raw,
    message: `${GRAPHICS_OVERRIDE}=${JSON.stringify(raw)} is not one of ${[...PROTOCOLS, 'off'].join(', ')}; ignored`,
  };
}

/**
 * What the override decides, before anything else is asked: `decides` with the answer (a protocol,
 * or `null` for `off`, "no images") and the reason to report, or nothing decided, with a note an
 * invalid value leaves on whatever reason does decide.
 */
export type OverrideDecision =
  | {
      readonly decides: true;
      readonly protocol: Protocol | null;
      readonly reason: string;
      readonly override: GraphicsOverride;
    }
  | { readonly decides: false; readonly note: string; readonly override: GraphicsOverride };

/**
 * The override's precedence, written once for `explainDetect`, `resolveReport` and `show`: a
 * protocol it names is the answer over the tty, the multiplexer, the probe and the rules (only a
 * caller's explicit choice, `show --protocol`, ranks above it); `off` is the answer "no images"
 * (the report's `graphics: null`; `show` draws braille, which is text; `detect`, which always names
 * a protocol, goes on to the rules); an invalid value is ignored and noted. See docs/env.md.
 *
 * @example overrideDecision({ TERMSIGHT_GRAPHICS: 'sixel' }) // { decides: true, protocol: 'sixel', reason: 'TERMSIGHT_GRAPHICS=sixel', … }
 */
export function overrideDecision(env: Env): OverrideDecision {
  const override = graphicsOverride(env);
  switch (override.kind) {
    case 'protocol':
      return {
        decides: true,
        protocol: override.protocol,
        reason: `${GRAPHICS_OVERRIDE}=${override.protocol}`,
        override,
      };
    case 'off':
      return { decides: true, protocol: null, reason: `${GRAPHICS_OVERRIDE}=off: draw no images`, override };
    case 'invalid':
      return { decides: false, note: ` (${override.message})`, override };
    case 'none':
      return { decides: false, note: '', override };
  }
}
