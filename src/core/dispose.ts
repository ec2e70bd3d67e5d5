/**
 * The symbols that make a handle disposable (`using`, `await using`): the language's, or on a
 * runtime without them the ones Node registers (`Symbol.for('nodejs.dispose')`, which is what
 * Node 20 gives `Symbol.dispose`), so a handle works with `using` where it exists and with its
 * methods everywhere, with no polyfill installed.
 */

/** `Symbol.dispose`, or Node's registered symbol for it. */
export const DISPOSE: typeof Symbol.dispose = (Symbol.dispose ?? Symbol.for('nodejs.dispose')) as typeof Symbol.dispose;

/** `Symbol.asyncDispose`, or Node's registered symbol for it. */
export const ASYNC_DISPOSE: typeof Symbol.asyncDispose = (Symbol.asyncDispose ??
  Symbol.for('nodejs.asyncDispose')) as typeof Symbol.asyncDispose;
