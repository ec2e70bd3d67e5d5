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
