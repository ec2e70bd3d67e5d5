/**
 * The characters that must never reach a terminal as they are: the one definition shared by the
 * sanitizers (which remove or refuse them) and the escaper (which shows them as `\xNN`, `\u202e`).
 * See docs/cli.md, "Untrusted text".
 */

/** C0 (U+0000–U+001F), DEL (U+007F) and C1 (U+0080–U+009F: 8-bit CSI 0x9B, ST 0x9C, OSC 0x9D). */
export function isControlCode(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

/**
 * Bidirectional formatting characters (ALM U+061C, LRM/RLM U+200E/F, the embeddings and overrides
 * U+202A–U+202E, the isolates U+2066–U+2069): not terminal controls, but they make text read
 * differently from what it is (the "Trojan Source" trick).
 */
export function isBidiCode(code: number): boolean {
  return (
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}
