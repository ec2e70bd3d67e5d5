/**
 * Shared sanitizing for everything that ends up in front of a terminal. A control character in an
 * argument can end an escape sequence early (BEL, ESC \, 8-bit ST 0x9C) and start another one of
 * the attacker's choosing, so arguments are checked before they go inside a sequence, and text that
 * is merely shown loses its controls.
 */
import { isBidiCode, isControlCode } from './unsafe-chars.js';

/** C0 (0x00–0x1F), DEL (0x7F) and C1 (0x80–0x9F, which holds 8-bit CSI 0x9B, OSC 0x9D and ST 0x9C). */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Unicode bidirectional formatting characters (ALM, LRM, RLM, the embeddings and overrides, the
 * isolates). They are not terminal controls, but inside a URL or a title they make the text read
 * differently from what it is (the "Trojan Source" trick), so a parameter carrying one is refused.
 */
const BIDIS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

// Checks scan char codes rather than run a regular expression: a program asks once or twice per
// run, and compiling a pattern costs more than scanning a short string.
function scan(text: string, unsafe: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i += 1) if (unsafe(text.charCodeAt(i))) return true;
  return false;
}

/** A complete SGR sequence (colours, bold, …): the one kind of escape that shown text may keep. */
const SGR = /\u001b\[[0-9;:]*m/g;

/** Whether `text` holds a C0 control, DEL or a C1 control (ESC, BEL, 0x9B, 0x9C, newline, NUL, …). */
export function hasControls(text: string): boolean {
  return scan(text, isControlCode);
}

/** Whether `text` holds a Unicode bidirectional formatting character. */
export function hasBidiControls(text: string): boolean {
  return scan(text, isBidiCode);
}

/** `text` without its C0 controls, DEL and C1 controls. What is left cannot start or end a sequence. */
export function stripControls(text: string): string {
  return text.replace(CONTROLS, '');
}

/** `text` without controls and without bidirectional formatting characters. */
export function stripUnsafe(text: string): string {
  return text.replace(CONTROLS, '').replace(BIDIS, '');
}

/**
 * Text that is shown between sequences (a link's label): complete SGR sequences are kept, because
 * coloured labels are common and harmless (`terminalLink(chalk.blue('docs'), url)`), and every other
 * control is removed, so the text cannot open, close or replace a sequence. Bidi formatting
 * characters are removed too: a label must read as what it is, like the URL it stands for.
 */
export function sanitizeText(text: string): string {
  if (!scan(text, (code) => isControlCode(code) || isBidiCode(code))) return text; // the common case
  let out = '';
  let last = 0;
  for (const match of text.matchAll(SGR)) {
    const at = match.index ?? 0;
    out += stripUnsafe(text.slice(last, at)) + match[0];
    last = at + match[0].length;
  }
  return out + stripUnsafe(text.slice(last));
}

/** Whether `value` may go inside an escape sequence as it is: no controls, no bidi formatting. */
export function isSafeParam(value: string): boolean {
  return !scan(value, (code) => isControlCode(code) || isBidiCode(code));
}

/**
 * Whether `url` may be the target of an OSC 8 link: a non-empty string with no control and no bidi
 * formatting character. (An empty URI closes a link in OSC 8, so it cannot open one.)
 */
export function isSafeUrl(url: unknown): url is string {
  return typeof url === 'string' && url.length > 0 && isSafeParam(url);
}
