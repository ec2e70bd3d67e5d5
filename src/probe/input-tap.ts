/**
 * Intercepting a terminal's input stream while a probe owns it. The application may already be
 * reading (a `data` listener attached before the probe) or may start reading while late replies are
 * still being swallowed (the late window); either way it must see only its keys. So the tap sits in front of every
 * `data` event (an own `emit` on the stream), not beside the application's listeners. It also sees
 * the stream being destroyed before the handle closes (raw mode can only be undone while the handle
 * lives) and honours a raw-mode change the application makes meanwhile. `remove()` puts everything back.
 */
import type { TerminalInput } from './terminal-stream.js';

/** What the tap reports. */
export interface TapHooks {
  /** Bytes read from the terminal (replies and keys mixed). */
  onData(bytes: Uint8Array): void;
  /** The stream is about to be destroyed (EOF, error, or an explicit `destroy()`). */
  onBeforeDestroy(): void;
  /** The application attached a `data` listener. */
  onAppListener(): void;
}

/** A live tap on one input stream. */
export interface InputTap {
  /** Whether the application changed the raw mode itself while tapped (then it owns the mode). */
  readonly appSetRawMode: boolean;
  /** Whether the application listens for `data` itself. */
  appListening(): boolean;
  /** Hands bytes to the application's `data` listeners, in the stream's encoding. */
  emitToApp(bytes: Uint8Array): void;
  /** Sets raw mode without counting as the application's change. */
  setRawMode(mode: boolean): void;
  /** Removes the tap: the stream's own methods are used again. */
  remove(): void;
}

type Emit = (event: string | symbol, ...args: unknown[]) => boolean;
type Mutable = TerminalInput & {
  emit: Emit;
  destroy: (...args: unknown[]) => unknown;
  setRawMode?: (mode: boolean) => unknown;
};

/** The bytes of a `data` chunk: a string (after `setEncoding`) is encoded back in that encoding. */
export function chunkBytes(chunk: unknown, encoding: BufferEncoding | null): Uint8Array {
  if (typeof chunk === 'string') return Buffer.from(chunk, encoding ?? 'utf8');
  if (chunk instanceof Uint8Array) return chunk;
  return new Uint8Array(0);
}

/** Installs a tap on `input`. */
export function tapInput(input: TerminalInput, hooks: TapHooks): InputTap {
  const stream = input as Mutable;
  // Own properties shadow the prototype's; saved ones (another tap's, rare) are put back as they were.
  const had = {
    emit: Object.hasOwn(stream, 'emit') ? stream.emit : undefined,
    destroy: Object.hasOwn(stream, 'destroy') ? stream.destroy : undefined,
    setRawMode: Object.hasOwn(stream, 'setRawMode') ? stream.setRawMode : undefined,
  };
  const emit = stream.emit;
  const destroy = stream.destroy;
  const setRawMode = stream.setRawMode;
  const encoding = (): BufferEncoding | null =>
    (stream as unknown as { readableEncoding?: BufferEncoding | null }).readableEncoding ?? null;
  let removed = false;
  let appSetRawMode = false;

  const onNewListener = (event: string | symbol): void => {
    if (event === 'data' && !removed) hooks.onAppListener();
  };

  stream.emit = function tappedEmit(this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'data' && !removed) {
      hooks.onData(chunkBytes(args[0], encoding()));
      return true;
    }
    return emit.call(stream, event, ...args);
  };
  stream.destroy = function tappedDestroy(this: unknown, ...args: unknown[]): unknown {
    if (!removed) hooks.onBeforeDestroy();
    return destroy.apply(stream, args);
  };
  if (typeof setRawMode === 'function') {
    stream.setRawMode = function tappedSetRawMode(this: unknown, mode: boolean): unknown {
      appSetRawMode = true;
      return setRawMode.call(stream, mode);
    };
  }
  stream.on('newListener', onNewListener);

  const restore = (name: keyof typeof had): void => {
    const value = had[name];
    if (value === undefined) delete (stream as unknown as Record<string, unknown>)[name];
    else (stream as unknown as Record<string, unknown>)[name] = value;
  };

  return {
    get appSetRawMode() {
      return appSetRawMode;
    },
    appListening: () => stream.listenerCount('data') > 0,
    emitToApp(bytes: Uint8Array): void {
      if (bytes.length === 0) return;
      const enc = encoding();
      emit.call(stream, 'data', enc ? Buffer.from(bytes).toString(enc) : Buffer.from(bytes));
    },
    setRawMode(mode: boolean): void {
      if (typeof setRawMode === 'function') setRawMode.call(stream, mode);
    },
    remove(): void {
      if (removed) return;
      removed = true;
      stream.off('newListener', onNewListener);
      restore('emit');
      restore('destroy');
      restore('setRawMode');
    },
  };
}
