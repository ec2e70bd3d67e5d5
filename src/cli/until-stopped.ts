/**
 * A wait that a stop cuts short: reading stdin from a terminal never ends by itself until Ctrl-D,
 * so Ctrl-C (SIGINT, through the guard's signal) must end it too.
 */

/**
 * Resolves as `work` does, or rejects with the signal's reason as soon as `signal` aborts (the
 * work is left to the process's exit).
 *
 * @example const bytes = await untilStopped(readStream(stdin), ctx.stop?.signal)
 */
export function untilStopped<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // its own failure no longer matters
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
