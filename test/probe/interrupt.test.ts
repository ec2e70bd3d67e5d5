/** The interrupt keys the driver gives back their cooked meaning while the probe holds raw mode. */
import { describe, expect, it } from 'vitest';
import { interruptIn } from '../../src/probe/interrupt.js';

describe('interruptIn', () => {
  it.each([
    { name: 'Ctrl-C alone', keys: '\x03', before: '', signal: 'SIGINT' },
    { name: 'Ctrl-\\ alone', keys: '\x1c', before: '', signal: 'SIGQUIT' },
    {
      name: 'keys before Ctrl-C go back, what follows it is flushed',
      keys: 'ab\x03cd',
      before: 'ab',
      signal: 'SIGINT',
    },
    { name: 'the first interrupt wins', keys: 'x\x1c\x03', before: 'x', signal: 'SIGQUIT' },
    {
      name: 'inside an escape sequence too (a key, never a reply)',
      keys: '\x1b[A\x03',
      before: '\x1b[A',
      signal: 'SIGINT',
    },
    { name: 'ordinary keys: none', keys: 'abc\x1b[A\r\x7f\x1a', before: null, signal: null },
    { name: 'nothing: none', keys: '', before: null, signal: null },
  ])('$name', ({ keys, before, signal }) => {
    const hit = interruptIn(Buffer.from(keys, 'latin1'));
    expect(hit === null ? null : Buffer.from(hit.before).toString('latin1')).toBe(before);
    expect(hit?.signal ?? null).toBe(signal);
  });
});
