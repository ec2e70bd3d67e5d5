/**
 * The file sink of kitty's local transfer (`KittyOptions.file`, `RenderOptions.kittyFile`): each
 * picture's pixels go to a new file in `/dev/shm` (else the temp folder) that the terminal reads
 * and deletes; a file it never read is deleted when the process exits (core/graphics-file.ts).
 */
import { ASYNC_DISPOSE } from '../../core/dispose.js';
import {
  graphicsFilesRead,
  KITTY_FILES_READ_MS,
  removeGraphicsFiles,
  writePictureFile,
} from '../../core/graphics-file.js';
import type { KittyFileSink } from './kitty.js';

/**
 * The sink that writes picture files for kitty's `t=t`. Use it only where the report says
 * `kittyLocalFile` (the terminal proved it reads this machine's files). `await using` it (or await
 * its `[Symbol.asyncDispose]()`) before exiting: it waits, at most `KITTY_FILES_READ_MS`, until the
 * terminal has read the files written so far, then deletes what is left.
 *
 * @example await using sink = kittyFileSink(); write(toTerminal(raster, 'kitty', { kittyFile: sink }))
 */
export function kittyFileSink(): KittyFileSink & AsyncDisposable {
  // A fresh function each time: the disposer is assigned to it.
  const sink: KittyFileSink = (bytes) => writePictureFile(bytes);
  return Object.assign(sink, {
    [ASYNC_DISPOSE]: async (): Promise<void> => {
      await graphicsFilesRead(KITTY_FILES_READ_MS);
      removeGraphicsFiles();
    },
  });
}

/**
 * Deletes every picture file this process wrote that the terminal has not read yet. It runs by
 * itself on Node's `exit` event; call it from your own signal handler when you exit another way.
 *
 * @example process.on('SIGTERM', () => { removeKittyFiles(); process.exit(143); })
 */
export function removeKittyFiles(): void {
  removeGraphicsFiles();
}

/** How long `kittyFilesRead` waits by default for the terminal to read the picture files. */
export { KITTY_FILES_READ_MS } from '../../core/graphics-file.js';

/**
 * Waits until the terminal has read every picture file written so far (it deletes each after
 * reading), at most `timeoutMs`; resolves with the paths still there. Await it before exiting
 * after drawing by file: the files left are deleted on exit, and the terminal reads its input
 * later than the program writes it.
 *
 * @example write(toTerminal(raster, 'kitty', { kittyFile: kittyFileSink() })); await kittyFilesRead()
 */
export function kittyFilesRead(timeoutMs = KITTY_FILES_READ_MS, signal?: AbortSignal): Promise<readonly string[]> {
  return graphicsFilesRead(timeoutMs, signal);
}
