import { describe, expect, it } from 'vitest';
import { envValue, isRemote } from '../../src/env/runtime.js';

describe('envValue', () => {
  it.each([
    [{ A: 'x' }, 'x'],
    [{ A: '' }, undefined],
    [{}, undefined],
  ])('%j -> %j', (env, expected) => {
    expect(envValue(env, 'A')).toBe(expected);
  });
  it('isRemote', () => {
    expect(isRemote({ SSH_CONNECTION: '1 2 3 4' })).toBe(true);
    expect(isRemote({ SSH_TTY: '' })).toBe(false);
  });
});
