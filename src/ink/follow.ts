/**
 * Following the terminal under Ink: after the provider's probe has let go of stdin, a resize
 * watch (probe/resize-watch.ts) runs behind the same kind of input guard, so its replies never
 * reach `useInput` and keys typed meanwhile do. A new cell size becomes a new report, and every
 * `<Image>` below re-plans its picture for it; Ink itself re-renders on the new width.
 */

import { EventEmitter } from 'node:events';
import { reportsSizeInBand, type TerminalSize } from '../probe/resize.js';
import { type ResizeOutput, type ResizeWatch, watchResize } from '../probe/resize-watch.js';
import type { TerminalInput } from '../probe/terminal-stream.js';
import type { Report } from '../report/types.js';
import { type GuardedStdin, guardInput, type InputGuard } from './input-guard.js';

/**
 * The report with the cell size a resize re-read (unchanged when it is the same).
 *
 * @example resizedReport(report, { columns: 100, rows: 30, cellPixels: { width: 11, height: 22 }, source: 'reply' }).cellPixels
 */
export function resizedReport(report: Report, size: TerminalSize): Report {
  const cell = size.cellPixels;
  if (cell === null || (cell.width === report.cellPixels?.width && cell.height === report.cellPixels?.height))
    return report;
  const by =
    size.source === 'in-band'
      ? "the terminal's in-band size report"
      : size.source === 'reply'
        ? 'CSI 16 t / 14 t'
        : size.source === 'window'
          ? "the kernel's window pixels"
          : 'the size before';
  return {
    ...report,
    cellPixels: { width: cell.width, height: cell.height },
    why: {
      ...report.why,
      cellPixels: {
        source: size.source === 'window' ? 'tty' : 'reply',
        detail: `re-read after a resize from ${by}: ${cell.width}x${cell.height} pixels`,
      },
    },
  };
}

/** What `followInsideInk` needs: Ink's streams and raw-mode switch, the report, and where sizes go. */
export interface FollowOptions {
  readonly stdin: GuardedStdin;
  readonly stdout: ResizeOutput;
  readonly setRawMode: (mode: boolean) => void;
  readonly report: Report;
  readonly onResize: (size: TerminalSize) => void;
}

/**
 * The watch's input under Ink: a stand-in stream whose raw mode is an input guard on Ink's stdin,
 * installed only while the watch holds it (a query out, in-band reports on) and released (keys
 * nobody read yet put back) when it lets go. So an idle watch leaves stdin to Ink alone.
 */
function lazyGuard(stdin: GuardedStdin, setRawMode: (mode: boolean) => void) {
  let inner: InputGuard | null = null;
  const stand = new EventEmitter() as EventEmitter & Record<string, unknown>;
  const forward = (bytes: Uint8Array): void => {
    stand.emit('data', bytes);
  };
  Object.assign(stand, {
    isTTY: true,
    isRaw: false,
    destroyed: false,
    readableFlowing: null,
    readableEncoding: null,
    setRawMode(mode: boolean) {
      if (mode && inner === null) {
        inner = guardInput(stdin, setRawMode);
        inner.input.on('data', forward);
        inner.input.setRawMode?.(true);
      } else if (!mode && inner !== null) {
        const done = inner;
        inner = null;
        done.input.off('data', forward);
        // The guard's stand-in lets go of Ink's raw mode and puts stdin back.
        done.input.setRawMode?.(false);
        done.release();
      }
      return stand;
    },
    resume: () => stand,
    pause: () => stand,
    unshift: () => {},
    destroy: () => stand,
    read: () => null,
    setEncoding: () => stand,
    isPaused: () => false,
  });
  return {
    input: stand as unknown as TerminalInput,
    onKeys(bytes: Uint8Array): void {
      if (inner) inner.onKeys(bytes);
      else stdin.unshift(Buffer.from(bytes));
    },
  };
}

/**
 * Starts following the terminal's size behind Ink's stdin; `stop()` puts everything back. In-band
 * reports are turned on only where the database says the terminal has them and no multiplexer
 * sits in between (they then hold stdin, through Ink's raw mode, while mounted).
 *
 * @example const watch = followInsideInk({ stdin, stdout, setRawMode, report, onResize: setSize })
 */
export function followInsideInk(options: FollowOptions): ResizeWatch {
  const { stdin, stdout, setRawMode, report } = options;
  const guard = lazyGuard(stdin, setRawMode);
  const inBand = report.multiplexer === null && reportsSizeInBand(report.terminal.name, report.terminal.version);
  return watchResize({
    input: guard.input,
    output: stdout,
    onKeys: guard.onKeys,
    cellPixels: report.cellPixels,
    inBand,
    onResize: options.onResize,
  });
}
