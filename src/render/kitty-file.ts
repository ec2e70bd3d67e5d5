/**
 * The file sink of kitty's local transfer (`KittyOptions.file`, `RenderOptions.kittyFile`): each
 * picture's pixels go to a new file in `/dev/shm` (else the temp folder) that the terminal reads
 * and deletes; a file it never read is deleted when the process exits (core/graphics-file.ts).
 */
import { removeGraphicsFiles, writeGraphicsFile } from '../core/graphics-file.js';
import type { KittyFileSink } from './kitty.js';

/**
 * The sink that writes picture files for kitty's `t=t`. Use it only where the report says
 * `kittyLocalFile` (the terminal proved it reads this machine's files).
 *
 * @example toTerminal(raster, 'kitty', { ...options, ...(report.kittyLocalFile ? { kittyFile: kittyFileSink() } : {}) })
 */
export function kittyFileSink(): KittyFileSink {
  return (bytes) => writeGraphicsFile(bytes, 'termsight-picture');
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
