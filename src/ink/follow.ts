/**
 * Following the terminal under Ink: after the provider's probe has let go of stdin, a resize
 * watch (probe/resize-watch.ts) runs behind the same kind of input guard, so its replies never
 * reach `useInput` and keys typed meanwhile do. A new cell size becomes a new report, and every
 * `<Image>` below re-plans its picture for it; Ink itself re-renders on the new width.
 */
import { reportsSizeInBand, type TerminalSize } from '../probe/resize.js';
import { type ResizeOutput, type ResizeWatch, watchResize } from '../probe/resize-watch.js';
import type { Report } from '../report/types.js';
import { type GuardedStdin, guardInput } from './input-guard.js';

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
 * Starts following the terminal's size behind Ink's stdin; `stop()` puts everything back. In-band
 * reports are turned on only where the database says the terminal has them and no multiplexer
 * sits in between.
 *
 * @example const watch = followInsideInk({ stdin, stdout, setRawMode, report, onResize: setSize })
 */
export function followInsideInk(options: FollowOptions): ResizeWatch {
  const { stdin, stdout, setRawMode, report } = options;
  const guard = guardInput(stdin, setRawMode);
  const inBand = report.multiplexer === null && reportsSizeInBand(report.terminal.name, report.terminal.version);
  const watch = watchResize({
    input: guard.input,
    output: stdout,
    onKeys: guard.onKeys,
    cellPixels: report.cellPixels,
    inBand,
    onResize: options.onResize,
  });
  return {
    get size() {
      return watch.size;
    },
    stop() {
      watch.stop();
      guard.release();
    },
  };
}
