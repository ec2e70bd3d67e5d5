/**
 * terminal-link 5.0's output, as pure functions: the OSC 8 bytes ansi-escapes 7 writes (wrapped in
 * tmux's DCS passthrough when it believes tmux or screen is in between), the incumbent's fallbacks,
 * and one deliberate difference: a URL or text carrying control characters never reaches the
 * terminal raw (the incumbent writes them as given).
 * - a URL with a control (C0, DEL, C1) or a bidi formatting character is refused: the fallback is
 *   written instead, with the URL stripped of those characters;
 * - text loses its controls everywhere (complete SGR colour sequences are kept, so coloured labels
 *   still work), and a custom fallback function receives the sanitized text and URL.
 * For text and URLs without such characters the output is byte for byte the incumbent's.
 */

import { isSafeParam, sanitizeText, stripUnsafe } from '../core/sanitize.js';
import type { Env, Runtime } from '../env/runtime.js';
import { hyperlinksSupported } from './hyperlinks.js';

/** terminal-link's options: which stream the link is for, and the fallback (`false`: text alone; a function: yours). */
export interface TerminalLinkOptions {
  readonly target?: 'stdout' | 'stderr' | (string & {});
  readonly fallback?: ((text: string, url: string) => string) | boolean | undefined;
}

/** ansi-escapes' tmux test, made when it is imported: TERM starts with `screen` or `tmux`, or TMUX is set (even empty). */
export function insideTmux(env: Env): boolean {
  const term = env.TERM;
  return Boolean(term?.startsWith('screen') || term?.startsWith('tmux') || env.TMUX !== undefined);
}

/** ansi-escapes' OSC wrapping: inside tmux, DCS `tmux;` with every ESC doubled, ended by ESC \. */
function wrapOsc(sequence: string, tmux: boolean): string {
  return tmux ? `\u001bPtmux;${sequence.replaceAll('\u001b', '\u001b\u001b')}\u001b\\` : sequence;
}

/** The bytes of ansi-escapes' `link(text, url)`: OSC 8 open, the text, OSC 8 close, BEL-terminated. */
export function osc8Link(text: string, url: string, tmux: boolean): string {
  return wrapOsc(`\u001b]8;;${url}\u0007`, tmux) + text + wrapOsc('\u001b]8;;\u0007', tmux);
}

function cleanText<T>(text: T): T | string {
  return typeof text === 'string' ? sanitizeText(text) : text;
}

/**
 * terminal-link's decision once support is known: the link when supported, else the fallback
 * (`${text} ${url}`, the text alone for `fallback: false`, or the caller's function), with the
 * sanitizing described above.
 */
export function formatTerminalLink(
  text: string,
  url: string,
  fallback: TerminalLinkOptions['fallback'],
  supported: boolean,
  tmux: boolean,
): string {
  const urlText = `${url}`;
  const safe = isSafeParam(urlText);
  if (supported && safe) return osc8Link(`${cleanText(text)}`, urlText, tmux);
  const shownText = cleanText(text) as string;
  const shownUrl = safe ? url : stripUnsafe(urlText);
  // If the fallback has been explicitly disabled, the text is returned unchanged (but clean).
  if (fallback === false) return shownText;
  if (typeof fallback === 'function') return fallback(shownText, shownUrl);
  // The incumbent's choice: the raw URL bounded by whitespace, which terminal linkifiers find.
  return `${shownText} ${shownUrl}`;
}

/**
 * What terminal-link 5.0 would return in a process with this runtime (`target` picks the stream;
 * support as supports-hyperlinks 4.6, tmux wrapping as ansi-escapes 7).
 * @example terminalLinkFor({ env: { TERM_PROGRAM: 'ghostty' }, isTTY: { stdout: true } }, 'Docs', 'https://x.dev')
 * // '\u001b]8;;https://x.dev\u0007Docs\u001b]8;;\u0007'
 */
export function terminalLinkFor(
  runtime: Runtime,
  text: string,
  url: string,
  options: TerminalLinkOptions = {},
): string {
  const { target = 'stdout', fallback } = options;
  // Looked up in an object, as the incumbent looks up supportsHyperlinks[target].
  const table: Record<string, boolean> = {
    stdout: hyperlinksSupported(runtime, 'stdout'),
    stderr: hyperlinksSupported(runtime, 'stderr'),
  };
  return formatTerminalLink(text, url, fallback, Boolean(table[target]), insideTmux(runtime.env ?? {}));
}
