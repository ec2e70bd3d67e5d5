/**
 * Whether this process may talk to its terminal. A process in a background process group that
 * writes a query (or switches raw mode) gets SIGTTOU/SIGTTIN and is stopped, and any reply would be
 * read by the foreground job instead: so a background process writes nothing.
 */
import { nodeFs } from '../core/node-builtins.js';

/**
 * Decides foreground from the text of `/proc/<pid>/stat`: the process group (field 5, `pgrp`) equals
 * the terminal's foreground group (field 8, `tpgid`). Returns `null` when the text cannot be parsed,
 * and `true` when there is no controlling terminal (`tpgid` ≤ 0): no job control applies then.
 */
export function foregroundFromStat(stat: string): boolean | null {
  // The command name (field 2) is in parentheses and may itself hold spaces and parentheses, so
  // the fields are counted from the last ')'.
  const close = stat.lastIndexOf(')');
  if (close < 0) return null;
  const rest = stat
    .slice(close + 1)
    .trim()
    .split(/\s+/);
  // rest[0] is field 3 (state): field n is rest[n - 3].
  const pgrp = Number(rest[2]);
  const tpgid = Number(rest[5]);
  if (!Number.isInteger(pgrp) || !Number.isInteger(tpgid) || rest.length < 6) return null;
  if (tpgid <= 0) return true;
  return pgrp === tpgid;
}

/**
 * Whether this process is in its terminal's foreground process group. Linux reads `/proc/self/stat`;
 * elsewhere (or when it cannot be read) the process is assumed to be in the foreground.
 */
export function isForeground(platform: string = process.platform): boolean {
  if (platform !== 'linux') return true;
  try {
    return foregroundFromStat(nodeFs().readFileSync('/proc/self/stat', 'latin1')) ?? true;
  } catch {
    return true;
  }
}
