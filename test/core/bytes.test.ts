import { describe, expect, it } from 'vitest';
import { ascii, u16be, u16le, u32be } from '../../src/core/bytes.js';

const bytes = Uint8Array.of(0xff, 0xfe, 0x01, 0x02, 0x49, 0x48);

describe('byte readers', () => {
  it.each([
    { name: 'u16be', got: () => u16be(bytes, 0), want: 0xfffe },
    { name: 'u16le', got: () => u16le(bytes, 0), want: 0xfeff },
    { name: 'u32be keeps the top bit unsigned', got: () => u32be(bytes, 0), want: 0xfffe0102 },
    { name: 'u32be at an offset', got: () => u32be(bytes, 2), want: 0x01024948 },
    { name: 'ascii', got: () => ascii(bytes, 4, 6), want: 'IH' },
    { name: 'ascii stops at the end', got: () => ascii(bytes, 5, 99), want: 'H' },
  ])('$name', ({ got, want }) => {
    expect(got()).toBe(want);
  });
});
