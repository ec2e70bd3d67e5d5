/**
 * Reading a picture's bytes with a budget: a path (regular file, device, FIFO, symlink to any of
 * them) or stdin (`-`). The budget is counted while reading, never taken from `stat` (a device or
 * a pipe reports 0, a file can grow), so `/dev/zero` or an endless pipe stops after at most
 * `maxBytes + 1` bytes with one clear line. See docs/decode.md#limits.
 */
import { closeSync, constants, openSync } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { UsageError } from './context.js';

/** The read budget when `--max-bytes` is not given: 64 MiB, beyond any photo a terminal shows. */
export const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

/**
 * The largest `--max-bytes`: 2 GiB. What is read is held in one buffer, and a larger one is past
 * what some runtimes allow (Node 20's reads take an int32 length: `--max-bytes 3G` on a 2 GiB
 * file aborted Node with a native assertion, 8G on a 5 GiB file ended with "Invalid typed array
 * length"); no picture a terminal shows comes near it.
 */
export const MAX_READ_LIMIT = 2 * 1024 ** 3;

/** Bytes read at a time from a device or a pipe. */
const CHUNK_BYTES = 1024 * 1024;

/** The most bytes one read call asks for (its length is an int32 in Node's binding). */
const READ_CALL_BYTES = 1024 ** 3;

/** An input that could not be read, with a one-line reason (the CLI puts the file's name before it). */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * A byte count from `--max-bytes`: a whole number, optionally with a binary unit (`K`, `M`, `G`,
 * also written `KiB`, `MB`, …; all mean powers of 1024). Throws a `UsageError` naming the flag.
 *
 * @example parseByteSize('64M') // 67108864
 */
export function parseByteSize(text: string): number {
  const match = /^\s*(\d+)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  const unit = UNITS[(match?.[2] ?? '').toLowerCase()];
  const value = match && unit !== undefined ? Number(match[1]) * unit : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1 || value > MAX_READ_LIMIT)
    throw new UsageError(
      `--max-bytes takes a size from 1 byte to ${formatBytes(MAX_READ_LIMIT)} (e.g. 1048576, 64M or 1G), got ${JSON.stringify(text.slice(0, 40))}`,
    );
  return value;
}

/**
 * A byte count as people read it: `64 MiB`, `1.5 KiB`, `300 bytes`.
 *
 * @example formatBytes(64 * 1024 * 1024) // '64 MiB'
 */
export function formatBytes(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return bytes === 1 ? '1 byte' : `${bytes} bytes`;
}

/** The reason when an input is over the budget. */
export function overBudget(maxBytes: number): InputError {
  return new InputError(
    `larger than the ${formatBytes(maxBytes)} read limit (--max-bytes, up to ${formatBytes(MAX_READ_LIMIT)})`,
  );
}

/**
 * Reads all of `path` (following symlinks), at most `maxBytes`; throws `InputError` when there is
 * more, and the system's error (ENOENT, EACCES, …) when it cannot be opened.
 *
 * @example await readPathBounded('/dev/zero', 1024) // throws: larger than the 1 KiB read limit
 */
export async function readPathBounded(path: string, maxBytes: number, signal?: AbortSignal): Promise<Uint8Array> {
  if (!(maxBytes >= 1 && maxBytes <= MAX_READ_LIMIT))
    throw new RangeError(`maxBytes must be from 1 to ${MAX_READ_LIMIT} (got ${maxBytes})`);
  const handle = await openReleasable(path, signal);
  try {
    const info = await handle.stat();
    if (info.isDirectory()) throw new InputError('is a directory');
    // A regular file that already says it is too large is refused unread; any other size is only
    // a first guess (devices and pipes say 0, a file may grow), so the loop counts for itself.
    if (info.isFile() && info.size > maxBytes) throw overBudget(maxBytes);
    const first = info.isFile() ? info.size + 1 : Math.min(CHUNK_BYTES, maxBytes + 1);
    const chunks: Uint8Array[] = [];
    let total = 0;
    let buffer = new Uint8Array(Math.min(first, maxBytes + 1));
    let filled = 0;
    for (;;) {
      const length = Math.min(buffer.length - filled, READ_CALL_BYTES);
      const { bytesRead } = await handle.read(buffer, filled, length, null);
      if (bytesRead === 0) break;
      filled += bytesRead;
      total += bytesRead;
      if (total > maxBytes) throw overBudget(maxBytes);
      if (filled === buffer.length) {
        chunks.push(buffer);
        buffer = new Uint8Array(Math.min(CHUNK_BYTES, maxBytes + 1 - total));
        filled = 0;
      }
    }
    if (chunks.length === 0) return buffer.subarray(0, filled);
    chunks.push(buffer.subarray(0, filled));
    return new Uint8Array(Buffer.concat(chunks, total));
  } finally {
    await handle.close();
  }
}

/**
 * Opens `path` for reading. Opening a FIFO waits, in one of libuv's threads, until something
 * opens it for writing; a process cannot exit while that thread waits, so a stop (Ctrl-C) was
 * lost on a FIFO nobody writes. When `signal` aborts during such a wait, the FIFO is opened for
 * writing here and closed at once: the wait ends (with an empty read nobody uses) and the process
 * can exit. A path that names no file but looks like a URL is an `InputError` saying that URLs
 * are not fetched and how to pipe one in.
 */
async function openReleasable(path: string, signal: AbortSignal | undefined) {
  const info = await stat(path).catch((error: unknown) => {
    if ((error as { code?: unknown }).code === 'ENOENT' && /^[a-z][a-z0-9+.-]*:\/\//i.test(path))
      throw new InputError('termsight does not fetch URLs; pipe one in: curl -s URL | termsight show -');
    return null;
  });
  if (!info?.isFIFO() || !signal) return open(path, 'r');
  const release = (): void => {
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch {
      // Opened meanwhile by a writer, or gone: the wait is over either way.
    }
  };
  signal.addEventListener('abort', release, { once: true });
  try {
    return await open(path, 'r');
  } finally {
    signal.removeEventListener('abort', release);
  }
}

/**
 * Reads a stream to its end, at most `maxBytes`; throws `InputError` when there is more (and
 * stops reading it).
 */
export async function readStreamBounded(stream: NodeJS.ReadableStream, maxBytes: number): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk as Uint8Array);
    total += buffer.length;
    if (total > maxBytes) throw overBudget(maxBytes);
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks, total));
}

/**
 * The reader `show` uses: `-` is stdin, anything else a path; each bounded by `maxBytes`.
 *
 * @example const read = inputReader(DEFAULT_MAX_BYTES); const bytes = await read('photo.png', ctx);
 */
export function inputReader(
  maxBytes: number,
): (
  name: string,
  ctx: { readonly stdin: NodeJS.ReadableStream; readonly stop?: { readonly signal: AbortSignal } },
) => Promise<Uint8Array> {
  return (name, ctx) =>
    name === '-' ? readStreamBounded(ctx.stdin, maxBytes) : readPathBounded(name, maxBytes, ctx.stop?.signal);
}
