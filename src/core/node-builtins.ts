/**
 * Node built-ins that only drawing needs (zlib for kitty and PNG, crypto for kitty's image ids),
 * loaded on first use instead of at import. Each is a few milliseconds of Node's own start-up
 * that `import('termsight')` for `detect` must not pay (docs/architecture.md, "Load cost").
 * `require` of a built-in is synchronous on every Node, so the encoders stay synchronous.
 */
import { createRequire } from 'node:module';

type Zlib = typeof import('node:zlib');
type Crypto = typeof import('node:crypto');

const require = createRequire(import.meta.url);
let zlibModule: Zlib | undefined;
let cryptoModule: Crypto | undefined;

/** node:zlib, loaded the first time it is asked for. */
export function nodeZlib(): Zlib {
  zlibModule ??= require('node:zlib') as Zlib;
  return zlibModule;
}

/** node:crypto, loaded the first time it is asked for. */
export function nodeCrypto(): Crypto {
  cryptoModule ??= require('node:crypto') as Crypto;
  return cryptoModule;
}
