/** A program's self-reported name and version, as XTVERSION writes it. */

/**
 * Splits `name(version)` or `name version` into its parts; a bare name has no version.
 *
 * @example splitNameVersion('kitty(0.26.5)') // { name: 'kitty', version: '0.26.5' }
 * @example splitNameVersion('tmux 3.3a') // { name: 'tmux', version: '3.3a' }
 * @example splitNameVersion('foot') // { name: 'foot', version: null }
 */
export function splitNameVersion(reply: string): { name: string; version: string | null } {
  const trimmed = reply.trim();
  const paren = /^([^()\s]+)\s*\(([^()]*)\)\s*$/.exec(trimmed);
  if (paren) return { name: paren[1] as string, version: (paren[2] as string).trim() || null };
  const space = trimmed.search(/\s/);
  if (space > 0) return { name: trimmed.slice(0, space), version: trimmed.slice(space + 1).trim() || null };
  return { name: trimmed, version: null };
}
