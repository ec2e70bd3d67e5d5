/**
 * Temporary files a terminal reads a picture from (kitty's `t=t`): the I/O half of local
 * transfer. A file goes in `/dev/shm` where it exists (memory, never a disk), else the temp
 * folder, with a name that contains `tty-graphics-protocol` (kitty reads no other), created
 * exclusively with mode 0600. The terminal deletes a `t=t` file once it has read it; whatever is
 * left when the process exits (the terminal never read it: it was interrupted, or said no) is
 * deleted then, on Node's `exit` event, which the CLI's signal handling also reaches.
 */
import { createRequire } from 'node:module';

type Fs = typeof import('node:fs');
type Os = typeof import('node:os');
type Path = typeof import('node:path');

const require = createRequire(import.meta.url);
const load = <T>(name: string): T => require(name) as T;

/** The mark kitty requires in the name of a file it is to read and delete. */
export const GRAPHICS_FILE_MARK = 'tty-graphics-protocol';

/** Files this process made and the terminal may not have deleted yet. */
const made = new Set<string>();
let hooked = false;

/** The folder for picture files: `/dev/shm` where it is a writable folder, else the OS temp folder. */
export function graphicsFileDir(): string {
  const fs = load<Fs>('node:fs');
  try {
    fs.accessSync('/dev/shm', fs.constants.W_OK);
    if (fs.statSync('/dev/shm').isDirectory()) return '/dev/shm';
  } catch {
    // No /dev/shm (macOS, Windows) or not writable: the temp folder.
  }
  return load<Os>('node:os').tmpdir();
}

/**
 * Writes `bytes` to a new file for the terminal to read and returns its path, or null when it
 * cannot be written (full, read-only, no such folder): the caller then sends the bytes inline.
 * `tag` goes in the name (`termsight-probe`, `termsight-picture`) so a stray file says whose it is.
 */
export function writeGraphicsFile(bytes: Uint8Array, tag: string, dir: string = graphicsFileDir()): string | null {
  const fs = load<Fs>('node:fs');
  const random = load<typeof import('node:crypto')>('node:crypto').randomBytes(6).toString('hex');
  const path = load<Path>('node:path').join(dir, `${tag}-${GRAPHICS_FILE_MARK}-${process.pid}-${random}`);
  let fd: number | null = null;
  try {
    fd = fs.openSync(path, 'wx', 0o600);
    remember(path);
    fs.writeSync(fd, bytes);
    fs.closeSync(fd);
    return path;
  } catch {
    if (fd !== null) {
      try {
        fs.closeSync(fd);
      } catch {
        // Already closed.
      }
    }
    removeGraphicsFile(path);
    return null;
  }
}

/** Deletes a file this process made, if it is still there (the terminal deletes what it read). */
export function removeGraphicsFile(path: string): void {
  made.delete(path);
  try {
    load<Fs>('node:fs').unlinkSync(path);
  } catch {
    // Gone already: the terminal read it.
  }
}

/** Whether a file is still there (the terminal has not deleted it). */
export function graphicsFileExists(path: string): boolean {
  return load<Fs>('node:fs').existsSync(path);
}

/** Deletes every file this process made that is still there. Runs on exit by itself. */
export function removeGraphicsFiles(): void {
  for (const path of [...made]) removeGraphicsFile(path);
}

/**
 * Resolves once the terminal has read (and so deleted) every file this process made, or after
 * `timeoutMs`, or when `signal` aborts: a program that exits right after writing a `t=t` picture
 * must not delete the file (on exit) before the terminal got to it. Polls every few milliseconds;
 * resolves at once when no file is pending. Resolves with the files still there.
 */
export async function graphicsFilesRead(timeoutMs: number, signal?: AbortSignal): Promise<readonly string[]> {
  // None made (every picture not sent by file): return before `performance`, whose first use
  // makes Node load perf_hooks, a cost each one-shot `termsight show` would pay for nothing.
  if (made.size === 0) return [];
  const fs = () => load<Fs>('node:fs');
  const until = performance.now() + timeoutMs;
  for (;;) {
    for (const path of [...made]) if (!fs().existsSync(path)) made.delete(path);
    if (made.size === 0 || signal?.aborted || performance.now() >= until) return [...made];
    await new Promise((resolve) => setTimeout(resolve, 4));
  }
}

/** The files this process made that are not known to be gone (for tests and `--trace`). */
export function pendingGraphicsFiles(): readonly string[] {
  return [...made];
}

function remember(path: string): void {
  made.add(path);
  if (hooked) return;
  hooked = true;
  // Synchronous work only on `exit`: unlinkSync is.
  process.on('exit', removeGraphicsFiles);
}

/**
 * Writes a picture's pixels for kitty's `t=t` (the file sink of render's `kittyFileSink` and of the
 * drawing plan's kitty-by-file): a new file, or null when it cannot be written.
 */
export function writePictureFile(bytes: Uint8Array): string | null {
  return writeGraphicsFile(bytes, 'termsight-picture');
}

/** How long to wait by default for the terminal to read the picture files (render's `KITTY_FILES_READ_MS`). */
export const KITTY_FILES_READ_MS = 2000;
