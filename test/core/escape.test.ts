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
