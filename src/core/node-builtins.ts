/**
 * Node built-ins that only drawing or probing needs (zlib for kitty and PNG, crypto for kitty's
 * image ids, tty for opening `/dev/tty`), loaded on first use instead of at import. Each is a few milliseconds of Node's own start-up
 * that `import('termsight')` for `detect` must not pay (docs/architecture.md, "Load cost").
 * `require` of a built-in is synchronous on every Node, so the encoders stay synchronous.
 */
import { createRequire } from 'node:module';

type Zlib = typeof import('node:zlib');
type Crypto = typeof import('node:crypto');
type Tty = typeof import('node:tty');
type Fs = typeof import('node:fs');

const requireBuiltin = createRequire(import.meta.url);
let zlibModule: Zlib | undefined;
let cryptoModule: Crypto | undefined;
let ttyModule: Tty | undefined;

/** node:zlib, loaded the first time it is asked for. */
export function nodeZlib(): Zlib {
  zlibModule ??= requireBuiltin('node:zlib') as Zlib;
  return zlibModule;
}

/** node:crypto, loaded the first time it is asked for. */
export function nodeCrypto(): Crypto {
  cryptoModule ??= requireBuiltin('node:crypto') as Crypto;
  return cryptoModule;
}

/** node:tty, loaded the first time it is asked for (it brings node:net and the stream classes). */
export function nodeTty(): Tty {
  ttyModule ??= requireBuiltin('node:tty') as Tty;
  return ttyModule;
}

/**
 * node:fs. Node has it loaded already, but an ES `import` of it builds its namespace, which reads
 * every export, and its `ReadStream` getter loads all of node:stream (several milliseconds at
 * import); `require` hands over the module without touching the getters.
 */
export function nodeFs(): Fs {
  return requireBuiltin('node:fs') as Fs;
}
