/**
 * tmux passthrough: a sequence meant for the terminal outside tmux travels inside
 * `ESC P tmux; … ESC \`, with every ESC of the payload doubled so tmux does not end the wrapper early.
 * tmux forwards it only when `allow-passthrough` is on (tmux 3.3+); otherwise it drops it silently.
 */
import { toBytes } from './escape.js';

const ESC = 0x1b;
const OPEN = [ESC, 0x50, 0x74, 0x6d, 0x75, 0x78, 0x3b]; // ESC P t m u x ;
const CLOSE = [ESC, 0x5c]; // ESC \

/**
 * Wraps `payload` for tmux passthrough: `ESC Ptmux;` + payload with every ESC doubled + `ESC \`.
 *
 * @example wrapTmux('\x1b[c') // bytes of '\x1bPtmux;\x1b\x1b[c\x1b\\'
 */
export function wrapTmux(payload: Uint8Array | string): Uint8Array {
  const bytes = toBytes(payload);
  let escapes = 0;
  for (const b of bytes) if (b === ESC) escapes += 1;
  const out = new Uint8Array(OPEN.length + bytes.length + escapes + CLOSE.length);
  out.set(OPEN, 0);
  let at = OPEN.length;
  for (const b of bytes) {
    if (b === ESC) out[at++] = ESC;
    out[at++] = b;
  }
  out.set(CLOSE, at);
  return out;
}
