import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc32, crc32Table } from '../../src/core/crc32.js';

const text = (s: string) => new TextEncoder().encode(s);

describe('crc32', () => {
  it.each([
    { name: 'empty', input: '', crc: 0 },
    { name: 'PNG IEND type', input: 'IEND', crc: 0xae426082 },
    { name: 'check value', input: '123456789', crc: 0xcbf43926 },
  ])('$name', ({ input, crc }) => {
    expect(crc32(text(input))).toBe(crc);
    expect(crc32Table(text(input))).toBe(crc);
  });
  it('the table agrees with the native form on any bytes', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => crc32Table(bytes) === crc32(bytes)));
  });
});
