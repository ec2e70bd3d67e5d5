/**
 * The Node side of following the terminal's size: SIGWINCH, the terminal's bytes and a timer in,
 * the pure reducer (resize.ts) in between, writes, keys and `onResize` out. It holds raw mode and
 * reads only while the reducer needs the input (a query out, in-band reports on: a reply must be
 * neither echoed nor wait for Enter), through the application's own switch when given one (Ink's
 * `setRawMode`), so an idle watch keeps neither the mode nor the process; `stop()` puts
 * everything back.
 */
import { DISPOSE } from '../core/dispose.js';
import { type InputTap, tapInput } from './input-tap.js';
import { interruptIn } from './interrupt.js';
import {
  createResize,
  type PixelSize,
  type ResizeAction,
  type ResizeEvent,
  type ResizeOptions,
  type ResizeState,
  resizeNeedsInput,
  resizeNextTickAt,
  stepResize,
  type TerminalSize,
  type WindowSize,
} from './resize.js';
import type { TerminalInput } from './terminal-stream.js';

/** The output as the watch needs it: a place to write, and the window size when it is a terminal. */
export interface ResizeOutput {
  write(chunk: string): unknown;
  readonly columns?: number;
  readonly rows?: number;
  getWindowSize?(): [number, number];
}

/** How to watch. */
export interface ResizeWatchOptions extends ResizeOptions {
  /** The terminal's input (its replies arrive there). */
  readonly input: TerminalInput;
  /** The terminal's output (the queries go there; its size is the window's). */
  readonly output: ResizeOutput;
  /** Called with every new size (cells or cell pixels changed). */
  readonly onResize: (size: TerminalSize) => void;
  /** The cell size known so far (the probe's). */
  readonly cellPixels: PixelSize | null;
  /** Turn on the terminal's in-band reports (DECSET 2048): `reportsSizeInBand(report.terminal…)`. */
  readonly inBand: boolean;
  /**
   * The keys typed while watching go here (Ink's input guard); without it they are handed to the
   * input's own `data` listeners, and Ctrl-C / Ctrl-\ keep their meaning while the watch holds raw mode.
   */
  readonly onKeys?: (bytes: Uint8Array) => void;
  /** The application's raw-mode switch (Ink's `useStdin().setRawMode`); default the input's own. */
  readonly setRawMode?: (mode: boolean) => void;
  /** Subscribes to window changes; default SIGWINCH (on Windows the output's `resize`). */
  readonly onWindowChange?: (listener: () => void) => () => void;
  /** The window now; default the output's `getWindowSize()` (Node's tty gives cells, not pixels). */
  readonly window?: () => WindowSize;
}

/** A running watch. */
export interface ResizeWatch {
  /** The size last told (or the starting one). */
  readonly size: TerminalSize;
  /** Stops: in-band reports off, raw mode and the input as they were, held keys handed on. */
  stop(): void;
  /** `using watch = watchResize(…)`: `stop()` when the scope ends. */
  [Symbol.dispose](): void;
}

function defaultWindow(output: ResizeOutput): WindowSize {
  const [columns, rows] = output.getWindowSize?.() ?? [output.columns ?? 0, output.rows ?? 0];
  return { columns, rows, pixels: null };
}

function defaultWindowChange(output: ResizeOutput): (listener: () => void) => () => void {
  return (listener) => {
    if (process.platform === 'win32') {
      const emitter = output as unknown as NodeJS.EventEmitter;
      emitter.on?.('resize', listener);
      return () => emitter.off?.('resize', listener);
    }
    process.on('SIGWINCH', listener);
    return () => process.off('SIGWINCH', listener);
  };
}

/**
 * Watches the terminal's size until `stop()`.
 *
 * @example const watch = watchResize({ input: process.stdin, output: process.stdout, cellPixels: report.cellPixels, inBand: false, onResize: (s) => redraw(s) })
 */
export function watchResize(options: ResizeWatchOptions): ResizeWatch {
  const { input, output } = options;
  const windowNow = options.window ?? (() => defaultWindow(output));
  let state: ResizeState = createResize({
    ...(options.budgetMs !== undefined ? { budgetMs: options.budgetMs } : {}),
    ...(options.holdMs !== undefined ? { holdMs: options.holdMs } : {}),
  });
  let timer: NodeJS.Timeout | null = null;
  let held = false;
  let stopped = false;
  const ownRaw = options.setRawMode === undefined;
  // An application already in raw mode owns it: the watch then only reads.
  const appRaw = ownRaw && input.isRaw === true;
  const flowingBefore = (input as unknown as { readableFlowing: boolean | null }).readableFlowing;

  const keys = (bytes: Uint8Array): void => {
    if (options.onKeys) {
      options.onKeys(bytes);
      return;
    }
    // Raw mode is the watch's, not the application's: the interrupt keys keep their cooked meaning.
    const interrupt = ownRaw && !appRaw && !tap.appSetRawMode ? interruptIn(bytes) : null;
    if (interrupt) {
      tap.emitToApp(interrupt.before);
      // What the line discipline would do: signal the foreground process group (this one's).
      process.kill(0, interrupt.signal);
      return;
    }
    tap.emitToApp(bytes);
  };

  /** Holds raw mode and reads only while the reducer needs the input; lets go when it does not. */
  const hold = (needed: boolean): void => {
    if (needed === held || input.destroyed) return;
    held = needed;
    if (input.isTTY && !appRaw) {
      try {
        if (options.setRawMode) options.setRawMode(needed);
        else tap.setRawMode(needed);
      } catch {
        // The handle is gone: nothing to hold or restore.
      }
    }
    if (needed) input.resume();
    else if (flowingBefore !== true && input.listenerCount('data') === 0) input.pause();
  };

  const apply = (actions: readonly ResizeAction[]): void => {
    for (const action of actions) {
      if (action.type === 'write') output.write(action.bytes);
      else if (action.type === 'keys') keys(action.bytes);
      else options.onResize(action.size);
    }
  };

  const schedule = (): void => {
    if (timer) clearTimeout(timer);
    timer = null;
    const due = resizeNextTickAt(state);
    if (due === null) return;
    timer = setTimeout(
      () => step({ type: 'clock', nowMs: performance.now() }),
      Math.max(0, Math.ceil(due - performance.now())),
    );
    timer.unref();
  };

  const step = (event: ResizeEvent): void => {
    const [next, actions] = stepResize(state, event);
    state = next;
    // Raw mode before a query goes out (a reply must not be echoed); let go after what it needed.
    if (resizeNeedsInput(state)) hold(true);
    apply(actions);
    if (!resizeNeedsInput(state)) hold(false);
    schedule();
  };

  const tap: InputTap = tapInput(input, {
    onData: (bytes) => step({ type: 'input', nowMs: performance.now(), bytes }),
    onBeforeDestroy: () => stop(),
    onAppListener: () => {},
  });
  const unsubscribe = (options.onWindowChange ?? defaultWindowChange(output))(() =>
    step({ type: 'winch', nowMs: performance.now(), window: windowNow() }),
  );
  step({
    type: 'start',
    nowMs: performance.now(),
    window: windowNow(),
    cellPixels: options.cellPixels,
    inBand: options.inBand,
  });

  function stop(): void {
    if (stopped) return;
    stopped = true;
    unsubscribe();
    step({ type: 'stop', nowMs: performance.now() });
    if (timer) clearTimeout(timer);
    tap.remove();
  }

  return {
    get size() {
      return state.size;
    },
    stop,
    [DISPOSE]: stop,
  };
}
