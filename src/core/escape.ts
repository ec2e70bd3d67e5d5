/**
 * Bytes as readable text, for traces and for the report's reasons: `\e[?62;4c` instead of raw
 * control characters, so a reply can be shown in a terminal without acting on it. The one escaping
 * function for everything untrusted the CLI prints (docs/cli.md, "Untrusted text").
 */
import { isBidiCode, isControlCode } from './unsafe-chars.js';

const HEX = '0123456789abcdef';

/** The bytes of `input`: a string is taken as UTF-8. */
export function toBytes(input: Uint8Array | string): Uint8Array {
  return typeof input === 'string' ? new TextEncoder().encode(input) : input;
}

/**
 * Display form of bytes: ESC as `\e`, BEL as `\a`, every other C0 control, DEL and C1 byte
 * (0x80–0x9f when the input is a Uint8Array; U+0080–U+009F in a string) as `\xNN`, bidi
 * formatting characters (U+061C, U+200E/F, U+202A–U+202E, U+2066–U+2069) and lone surrogates as
 * `\uNNNN`. Printable text, including UTF-8, stays as it is; invalid UTF-8 bytes show as `\xNN`
 * too, so nothing can act on a terminal or reorder what is shown. Escaped text escapes to itself.
 *
 * @example escapeBytes('\x1b[?62;4c') === '\\e[?62;4c'
 */
export function escapeBytes(bytes: Uint8Array | string): string {
  const text = typeof bytes === 'string' ? bytes : decodeLoose(bytes);
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) ?? 0;
    if (code === 0x1b) out += '\\e';
    else if (code === 0x07) out += '\\a';
    else if (isControlCode(code)) out += hexEscape(code);
    else if (code >= 0xdc80 && code <= 0xdcff)
      out += hexEscape(code - 0xdc00); // an undecodable byte, see decodeLoose
    else if (isBidiCode(code) || (code >= 0xd800 && code <= 0xdfff)) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

function hexEscape(code: number): string {
  return `\\x${HEX[(code >> 4) & 15]}${HEX[code & 15]}`;
}

/**
 * UTF-8 decoding that keeps every byte visible: a byte that does not start or continue a valid
 * sequence becomes a lone surrogate U+DC80+byte (as Python's surrogateescape does), which
 * `escapeBytes` prints as `\xNN`. Replacement characters would hide what the terminal really sent.
 *
 * @example escapeBytes(decodeLoose(Uint8Array.of(0x6b, 0xff))) // 'k\\xff'
 */
export function decodeLoose(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i];
    if (b < 0x80) {
      out += String.fromCharCode(b);
      i += 1;
      continue;
    }
    const need = b >= 0xc2 && b <= 0xdf ? 1 : b >= 0xe0 && b <= 0xef ? 2 : b >= 0xf0 && b <= 0xf4 ? 3 : -1;
    if (need > 0 && validContinuation(bytes, i, need)) {
      let cp = b & (need === 1 ? 0x1f : need === 2 ? 0x0f : 0x07);
      for (let k = 1; k <= need; k++) cp = (cp << 6) | (bytes[i + k] & 0x3f);
      const min = need === 1 ? 0x80 : need === 2 ? 0x800 : 0x10000;
      if (cp >= min && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff)) {
        out += String.fromCodePoint(cp);
        i += need + 1;
        continue;
      }
    }
    out += String.fromCharCode(0xdc00 + b);
    i += 1;
  }
  return out;
}

function validContinuation(bytes: Uint8Array, start: number, need: number): boolean {
  if (start + need >= bytes.length) return false;
  for (let k = 1; k <= need; k++) {
    const c = bytes[start + k];
    if (c === undefined || (c & 0xc0) !== 0x80) return false;
  }
  return true;
}
