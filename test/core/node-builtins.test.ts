import * as crypto from 'node:crypto';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeCrypto, nodeZlib } from '../../src/core/node-builtins.js';

describe('built-ins loaded on first use', () => {
  it.each([
    { name: 'node:zlib', get: nodeZlib, module: zlib, member: 'deflateSync' },
    { name: 'node:crypto', get: nodeCrypto, module: crypto, member: 'randomInt' },
  ])('$name: the module itself, the same object every time', ({ get, module, member }) => {
    const m = get() as unknown as Record<string, unknown>;
    expect(m[member]).toBe((module as unknown as Record<string, unknown>)[member]);
    expect(get()).toBe(get());
  });
});
