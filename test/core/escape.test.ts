/** Display form of bytes and the tmux passthrough wrapper. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapTmuxBytes } from '../../src/core/wrap.js';

describe('escapeBytes', () => {
  it.each([
    { name: 'ESC and a CSI reply', input: '\x1b[?62;4c', expected: '\\e[?62;4c' },
    { name: 'OSC ended by BEL', input: '\x1b]11;?\x07', expected: '\\e]11;?\\a' },
    { name: 'C0 controls and DEL', input: 'a\r\n\t\x00\x7f', expected: 'a\\x0d\\x0a\\x09\\x00\\x7f' },
    { name: 'C1 CSI', input: '\x9b', expected: '\\x9b' },
    { name: 'non-ASCII text unchanged', input: 'héllo ✓', expected: 'héllo ✓' },
    { name: 'RIGHT-TO-LEFT OVERRIDE', input: 'kitty\u202e', expected: 'kitty\\u202e' },
    {
      name: 'Arabic letter mark, LRM, RLM, isolates',
      input: '\u061c\u200e\u200f\u2066\u2069',
      expected: '\\u061c\\u200e\\u200f\\u2066\\u2069',
    },
    {
      name: 'bidi embeddings and overrides',
      input: '\u202a\u202b\u202c\u202d',
      expected: '\\u202a\\u202b\\u202c\\u202d',
    },
    { name: 'a lone surrogate', input: 'a lone surrogate \ud800', expected: 'a lone surrogate \\ud800' },
    { name: 'C1 NEL and ST written as text', input: '\u0085 NEL and \u009c ST', expected: '\\x85 NEL and \\x9c ST' },
    {
      name: 'a right-to-left letter, not a control',
      input: 'a right-to-left letter \u05d0 stays',
      expected: 'a right-to-left letter \u05d0 stays',
    },
  ])('$name: $input as $expected', ({ input, expected }) => {
    expect(escapeBytes(input)).toBe(expected);
  });

  it.each([
    { name: 'ESC', input: [0x1b, 0x5b, 0x41], expected: '\\e[A' },
    { name: '8-bit CSI', input: [0x9b, 0x41], expected: '\\x9bA' },
    { name: 'valid UTF-8', input: [0xc3, 0xa9], expected: 'é' },
    { name: 'a cut UTF-8 sequence', input: [0xc3], expected: '\\xc3' },
    { name: 'a cut three-byte sequence', input: [0xe2, 0x9b], expected: '\\xe2\\x9b' },
    { name: 'an invalid byte, then BEL', input: [0xff, 0x07], expected: '\\xff\\a' },
    { name: 'UTF-8 RIGHT-TO-LEFT OVERRIDE', input: [0xe2, 0x80, 0xae], expected: '\\u202e' },
    { name: 'UTF-8 C1 CSI', input: [0xc2, 0x9b], expected: '\\x9b' },
  ])('bytes: $name, $input as $expected', ({ input, expected }) => {
    expect(escapeBytes(Uint8Array.from(input))).toBe(expected);
  });

  it('never lets a control byte through, whatever the bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        expect(escapeBytes(bytes)).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
      }),
    );
  });

  it('never lets a control, bidi character or lone surrogate through, and escaped text escapes to itself', () => {
    const unit = fc.oneof(
      fc.constantFrom('\x1b', '\x07', '\x9b', '\u202e', '\u2067', '\u061c', '\ud800', '\udc9b', '\\', 'x'),
      fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 32 }), (text) => {
        const once = escapeBytes(text);
        expect(once).not.toMatch(/[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
        // No lone surrogate is left (it would be written as U+FFFD, hiding what came).
        expect(Buffer.from(once, 'utf8').toString('utf8')).toBe(once);
        expect(escapeBytes(once)).toBe(once);
      }),
    );
  });
});

describe('wrapTmux', () => {
  it.each([
    { name: 'a CSI query', payload: '\x1b[c', wrapped: '\x1bPtmux;\x1b\x1b[c\x1b\\' },
    {
      name: 'a kitty APC with its ST',
      payload: '\x1b_Gi=31,a=q;AAAA\x1b\\',
      wrapped: '\x1bPtmux;\x1b\x1b_Gi=31,a=q;AAAA\x1b\x1b\\\x1b\\',
    },
    { name: 'plain text', payload: 'plain', wrapped: '\x1bPtmux;plain\x1b\\' },
  ])('$name', ({ payload, wrapped }) => {
    expect(Buffer.from(wrapTmuxBytes(payload)).toString('latin1')).toBe(wrapped);
  });

  it('doubles every ESC and nothing else (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (payload) => {
        const out = Buffer.from(wrapTmuxBytes(payload));
        const inner = out.subarray(7, out.length - 2);
        expect(inner.toString('latin1').replaceAll('\x1b\x1b', '\x1b')).toBe(Buffer.from(payload).toString('latin1'));
      }),
    );
  });
});
