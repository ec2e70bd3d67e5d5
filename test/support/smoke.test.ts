import { describe, expect, it } from 'vitest';
import { envValue, isRemote } from '../../src/env/runtime.js';

describe('envValue', () => {
  it.each([
    { name: 'a value', env: { A: 'x' }, expected: 'x' },
    { name: 'empty counts as unset', env: { A: '' }, expected: undefined },
    { name: 'unset', env: {}, expected: undefined },
  ])('$name -> $expected', ({ env, expected }) => {
    expect(envValue(env, 'A')).toBe(expected);
  });
  it('isRemote', () => {
    expect(isRemote({ SSH_CONNECTION: '1 2 3 4' })).toBe(true);
    expect(isRemote({ SSH_TTY: '' })).toBe(false);
  });
});
