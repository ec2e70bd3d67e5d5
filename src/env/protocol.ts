/**
 * The ways termsight can put a picture on a terminal. `braille`, `blocks` and `symbols` are made
 * of text and work anywhere; the others are graphics protocols a terminal must understand.
 */
export type Protocol = 'kitty' | 'iterm2' | 'sixel' | 'braille' | 'blocks' | 'symbols';

/** Every protocol, in the order the CLI lists them. */
export const PROTOCOLS: readonly Protocol[] = ['kitty', 'iterm2', 'sixel', 'braille', 'blocks', 'symbols'];

/** Whether `value` names a protocol. */
export function isProtocol(value: unknown): value is Protocol {
  return typeof value === 'string' && (PROTOCOLS as readonly string[]).includes(value);
}

/** Whether a protocol draws with pixels (as opposed to text cells). */
export function isGraphicsProtocol(protocol: Protocol): boolean {
  return protocol === 'kitty' || protocol === 'iterm2' || protocol === 'sixel';
}
