/** Display form of bytes and the tmux passthrough wrapper. */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapTmuxBytes } from '../../src/core/wrap.js';

describe('escapeBytes', () => {
  it.each([
    ['\x1b[?62;4c', '\\e[?62;4c'],
    ['\x1b]11;?\x07', '\\e]11;?\\a'],
    ['a\r\n\t\x00\x7f', 'a\\x0d\\x0a\\x09\\x00\\x7f'],
    ['\x9b', '\\x9b'],
    ['héllo ✓', 'héllo ✓'],
    ['kitty\u202e', 'kitty\\u202e'],
    ['\u061c\u200e\u200f\u2066\u2069', '\\u061c\\u200e\\u200f\\u2066\\u2069'],
    ['\u202a\u202b\u202c\u202d', '\\u202a\\u202b\\u202c\\u202d'],
    ['a lone surrogate \ud800', 'a lone surrogate \\ud800'],
    ['\u0085 NEL and \u009c ST', '\\x85 NEL and \\x9c ST'],
    ['a right-to-left letter \u05d0 stays', 'a right-to-left letter \u05d0 stays'],
  ])('%j as %j', (input, expected) => {
    expect(escapeBytes(input)).toBe(expected);
  });

  it.each([
    [[0x1b, 0x5b, 0x41], '\\e[A'],
    [[0x9b, 0x41], '\\x9bA'],
    [[0xc3, 0xa9], 'é'],
    [[0xc3], '\\xc3'],
    [[0xe2, 0x9b], '\\xe2\\x9b'],
    [[0xff, 0x07], '\\xff\\a'],
    [[0xe2, 0x80, 0xae], '\\u202e'],
    [[0xc2, 0x9b], '\\x9b'],
  ])('bytes %j as %j', (input, expected) => {
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
    ['\x1b[c', '\x1bPtmux;\x1b\x1b[c\x1b\\'],
    ['\x1b_Gi=31,a=q;AAAA\x1b\\', '\x1bPtmux;\x1b\x1b_Gi=31,a=q;AAAA\x1b\x1b\\\x1b\\'],
    ['plain', '\x1bPtmux;plain\x1b\\'],
  ])('%j', (payload, wrapped) => {
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
