/**
 * The local-transfer query: may the terminal read a picture from a file (kitty's `t=t`) instead
 * of receiving it as base64 through the pty? A kitty `a=q` query for a 1x1 RGB image whose data is
 * a small temporary file, sent in the same batch as the kitty graphics query and only where that
 * query goes straight to the terminal (never over ssh: the file is on this machine, not the
 * terminal's; never through tmux's passthrough, which no reply here proves reaches a local
 * terminal). The terminal answers `OK` when it read the file (and deletes it); an error or
 * silence means no. Where the kitty query is held back for the guarded round (a terminal named by
 * its replies alone: `env -i`, `sudo`, a container), the local query goes in that round. Pure: the driver makes the file and passes its path (docs/probe.md, "Local transfer").
 */
import { toBytes } from '../core/escape.js';
import { GRAPHICS_FILE_MARK } from '../core/graphics-file.js';
import type { Env } from '../env/runtime.js';
import { isRemote } from '../env/runtime.js';
import type { QueryPlan } from './query.js';
import { queryBytes } from './query.js';

/** The local-transfer query's image id: its own, so its answer is never taken for the kitty query's (`i=31`). */
export const KITTY_LOCAL_ID = 32;

/** The probe file's content: one RGB pixel (3 bytes), as the query's `s=1,v=1,f=24` says. */
export const KITTY_LOCAL_PIXEL: Uint8Array = Uint8Array.of(0, 0, 0);

/**
 * The local-transfer query for a file at `path`: `a=q` (checked, never stored), `t=t` (a
 * temporary file the terminal deletes after reading), the path as base64 payload.
 *
 * @example kittyLocalQuery('/dev/shm/tty-graphics-protocol-x') // '\x1b_Gi=32,s=1,v=1,a=q,t=t,f=24;L2Rldi9…\x1b\\'
 */
export function kittyLocalQuery(path: string): string {
  if (path === '' || /[\0-\x1f\x7f]/.test(path))
    throw new TypeError('kitty local query: the path must be non-empty, without control characters');
  if (!path.includes(GRAPHICS_FILE_MARK))
    throw new TypeError(`kitty local query: the file name must contain "${GRAPHICS_FILE_MARK}"`);
  const payload = Buffer.from(path, 'utf8').toString('base64');
  return `\x1b_Gi=${KITTY_LOCAL_ID},s=1,v=1,a=q,t=t,f=24;${payload}\x1b\\`;
}

/**
 * Whether the local-transfer query goes in this batch: the kitty graphics query goes straight to
 * the terminal in it (the same gate: no terminal that prints APC gets it), no multiplexer is in
 * between, and the session is not remote (any `SSH_*`: the terminal is on another machine).
 */
export function kittyLocalAsked(plan: QueryPlan, env: Env): boolean {
  return plan.multiplexer === null && !plan.wrapped && plan.direct.includes('kittyGraphics') && !isRemote(env);
}

/**
 * Whether the local-transfer query may go in the guarded round instead: the kitty graphics query
 * is held back for it (no terminal named by its own environment), nothing in between (no
 * multiplexer in the environment, nothing wrapped) and the session is not remote. The replies
 * decide whether that round comes (`planGuarded`); a remote session with its `SSH_*` variables
 * scrubbed looks local here, and then the terminal's error to the query (the file is not on its
 * machine) is the answer.
 */
export function kittyLocalLater(plan: QueryPlan, env: Env): boolean {
  return plan.multiplexer === null && !plan.wrapped && plan.held.includes('kittyGraphics') && !isRemote(env);
}

/** Whether the local-transfer query may go in this probe at all, in the first batch or in the guarded round (the driver makes the probe file only then). */
export function kittyLocalMayAsk(plan: QueryPlan, env: Env): boolean {
  return kittyLocalAsked(plan, env) || kittyLocalLater(plan, env);
}

/**
 * The batch's bytes with the local-transfer query right after the kitty graphics query (so still
 * before the DA1 sentinel), or the plain batch when `kittyLocalAsked` says no.
 */
export function withKittyLocal(plan: QueryPlan, env: Env, path: string): Uint8Array {
  if (!kittyLocalAsked(plan, env)) return queryBytes(plan);
  const at = plan.direct.indexOf('kittyGraphics') + 1;
  const before = queryBytes({ ...plan, direct: plan.direct.slice(0, at), outer: [] });
  const local = toBytes(kittyLocalQuery(path));
  const after = queryBytes({ ...plan, direct: plan.direct.slice(at) });
  const out = new Uint8Array(before.length + local.length + after.length);
  out.set(before, 0);
  out.set(local, before.length);
  out.set(after, before.length + local.length);
  return out;
}
