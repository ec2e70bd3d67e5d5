/**
 * Wrapping finished escape sequences so a multiplexer hands them to the outer terminal: the probe
 * wraps its queries with `wrapTmuxBytes`, the renderers their pictures with `wrapForMultiplexer`.
 *
 * tmux (with `allow-passthrough on`) forwards the body of `ESC P tmux; … ESC \` after undoubling
 * every ESC in it. GNU screen forwards the body of any `ESC P … ESC \` as-is, but keeps at most
 * 768 bytes of one string, so a long sequence goes in several packets; an `ESC \` inside the
 * sequence would end screen's packet early, so the packet ends after that ESC and the next one
 * starts with the backslash (screen keeps an ESC followed by ESC and ends on the `ESC \` after it).
 */
import { toBytes } from './escape.js';

const ESC = '\x1b';
const ST = '\x1b\\';

/** The longest body of one screen packet; with `ESC P` and `ESC \` a packet stays under 768 bytes. */
export const SCREEN_PACKET_BODY = 760;

const utf8 = new TextDecoder();

const ESC_BYTE = 0x1b;
const OPEN = [ESC_BYTE, 0x50, 0x74, 0x6d, 0x75, 0x78, 0x3b]; // ESC P t m u x ;
const CLOSE = [ESC_BYTE, 0x5c]; // ESC \

/**
 * Wraps `payload` for tmux passthrough: `ESC Ptmux;` + payload with every ESC doubled + `ESC \`.
 *
 * @example wrapTmuxBytes('\x1b[c') // bytes of '\x1bPtmux;\x1b\x1b[c\x1b\\'
 */
export function wrapTmuxBytes(payload: Uint8Array | string): Uint8Array {
  const bytes = toBytes(payload);
  let escapes = 0;
  for (const b of bytes) if (b === ESC_BYTE) escapes += 1;
  const out = new Uint8Array(OPEN.length + bytes.length + escapes + CLOSE.length);
  out.set(OPEN, 0);
  let at = OPEN.length;
  for (const b of bytes) {
    if (b === ESC_BYTE) out[at++] = ESC_BYTE;
    out[at++] = b;
  }
  out.set(CLOSE, at);
  return out;
}

/**
 * One sequence wrapped for tmux passthrough: every ESC doubled inside `ESC P tmux; … ESC \`
 * (`wrapTmuxBytes`, as a string).
 *
 * @example wrapTmux('\x1b_Ga=d\x1b\\') // '\x1bPtmux;\x1b\x1b_Ga=d\x1b\x1b\\\x1b\\'
 */
export function wrapTmux(sequence: string): string {
  return utf8.decode(wrapTmuxBytes(sequence));
}

/**
 * One sequence wrapped for GNU screen: packets `ESC P … ESC \` whose bodies are at most
 * `SCREEN_PACKET_BODY` characters, never splitting a surrogate pair, with every inner `ESC \`
 * split across two packets.
 *
 * @example wrapScreen('\x1b]1337;FileEnd\x07') // '\x1bP\x1b]1337;FileEnd\x07\x1b\\'
 */
export function wrapScreen(sequence: string, body = SCREEN_PACKET_BODY): string {
  if (!Number.isInteger(body) || body < 2) throw new RangeError(`screen packet body must be at least 2, got ${body}`);
  const parts: string[] = [];
  let start = 0;
  const n = sequence.length;
  while (start < n) {
    let end = Math.min(n, start + body);
    // An ESC \ inside the window: close the packet right after that ESC.
    const st = sequence.indexOf(ST, start);
    if (st !== -1 && st + 1 < end) end = st + 1;
    // Keep surrogate pairs whole (a lone half would be mangled on the way).
    else if (end < n && isHighSurrogate(sequence.charCodeAt(end - 1)) && end - 1 > start) end -= 1;
    parts.push(`${ESC}P${sequence.slice(start, end)}${ST}`);
    start = end;
  }
  return parts.join('');
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/**
 * Sequences wrapped for a multiplexer's passthrough, each on its own (so no single wrapped
 * string grows past what tmux or screen keep); unchanged when there is no multiplexer.
 *
 * @example wrapForMultiplexer(['\x1b_Gm=1;AAAA\x1b\\', '\x1b_Gm=0;AAAA\x1b\\'], 'tmux')
 */
export function wrapForMultiplexer(
  sequences: string | readonly string[],
  multiplexer: 'tmux' | 'screen' | null | undefined,
): string {
  const list = typeof sequences === 'string' ? [sequences] : sequences;
  if (multiplexer === 'tmux') return list.map(wrapTmux).join('');
  if (multiplexer === 'screen') return list.map((s) => wrapScreen(s)).join('');
  return list.join('');
}
