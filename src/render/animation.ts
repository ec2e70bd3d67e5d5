/**
 * `animate`: plays an animation and hands back a handle that stops and deletes it. Where the
 * terminal plays animations itself (kitty; the caller says so with `native`, from the terminal
 * database) the frames are uploaded once and the terminal runs them (kitty-animation.ts); where
 * iTerm2 is given the GIF file itself it plays that; everywhere else the frames are redrawn in
 * place by `frame` on a timer, inside synchronized output where the terminal has it. No I/O of
 * its own: bytes go to the caller's `write`. See docs/render.md#animation.
 */
import { DISPOSE } from '../core/dispose.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import type { Protocol } from '../env/protocol.js';
import {
  cursorForward,
  DEFAULT_CELL_PIXELS,
  drawsExactPixels,
  fittedRaster,
  layout,
  usesPlaceholders,
} from './backend.js';
import { clearFrame, type FrameHandle, frame } from './frame.js';
import { cellRows, clampVisible, scaledRows } from './geometry/visible.js';
import { type RenderOptions, wrapOf } from './options.js';
import { iterm2Sequences } from './pixels/iterm2.js';
import { kittyDelete } from './pixels/kitty.js';
import { type AnimationFrame, kittyAnimation, kittyStopAnimation } from './pixels/kitty-animation.js';

/** Options for `animate`: how to render (as `frame`), where the bytes go, who plays it. */
export interface AnimateOptions extends RenderOptions {
  /** Where the bytes go (a stream's `write`). */
  readonly write: (bytes: string) => unknown;
  /**
   * The terminal plays the frames itself: kitty (one upload, `a=f` frames, `a=a` to run), or
   * iTerm2 given `file`. Say so only where the terminal database says it does (kitty's
   * `animation` fact). Default false: redrawn in place by a timer.
   */
  readonly native?: boolean;
  /** iTerm2 with `native`: the GIF file itself, which iTerm2 plays. */
  readonly file?: Uint8Array;
  /** How many times it plays: 0 (default) forever. */
  readonly plays?: number;
  /** Stops the animation when aborted (as `stop()`). */
  readonly signal?: AbortSignal;
}

/** A playing animation. */
export interface AnimationHandle {
  /** `terminal`: the terminal plays it; `redraw`: a timer here redraws it. */
  readonly mode: 'terminal' | 'redraw';
  /** kitty: the image id (to delete it later, even from another program run). */
  readonly imageId?: number;
  /** Resolves when a redraw loop has played its plays or was stopped; at once when the terminal plays it. */
  readonly done: Promise<void>;
  /** Stops it on the frame it is showing. */
  stop(): void;
  /** Stops it and removes the picture: kitty's image deleted by id, other pictures' cells erased. */
  delete(): void;
  /** `using a = animate(…)`: `delete()` when the scope ends. */
  [Symbol.dispose](): void;
}

/** A handle with `[Symbol.dispose]` doing its `delete()`. */
function disposable(handle: Omit<AnimationHandle, typeof Symbol.dispose>): AnimationHandle {
  return Object.assign(handle, { [DISPOSE]: () => handle.delete() }) as AnimationHandle;
}

/**
 * Starts playing `frames` at the cursor with `protocol`.
 *
 * @example
 * const a = animate(image.frames, 'kitty', { columns: 40, rows: 12, native: true, write: (s) => process.stdout.write(s) });
 * process.on('exit', () => a.delete());
 */
export function animate(
  frames: readonly AnimationFrame[],
  protocol: Protocol,
  options: AnimateOptions,
): AnimationHandle {
  const first = frames[0];
  if (!first) throw new RangeError('an animation needs at least one frame');
  const multiplexer = wrapOf(options);
  if (options.native && protocol === 'kitty' && !usesPlaceholders(protocol, options))
    return kittyPlayed(frames, options);
  if (options.native && protocol === 'iterm2' && options.file) {
    const lay = layout(first.raster, protocol, options);
    const size = drawsExactPixels(protocol, options) ? { pixels: lay.units } : { columns: lay.columns, rows: lay.rows };
    options.write(
      cursorForward(lay.offset ?? 0) +
        wrapForMultiplexer(iterm2Sequences(options.file, { ...size, multiplexer }), multiplexer),
    );
    // iTerm2's picture is cells: it stops and goes with them (clear the lines to remove it).
    return disposable({ mode: 'terminal', done: Promise.resolve(), stop() {}, delete() {} });
  }
  return redrawn(frames, protocol, options);
}

function kittyPlayed(frames: readonly AnimationFrame[], options: AnimateOptions): AnimationHandle {
  const multiplexer = wrapOf(options);
  const first = frames[0] as AnimationFrame;
  const lay = layout(first.raster, 'kitty', options);
  const fitted = frames.map((f) => ({ raster: fittedRaster(f.raster, lay), delayMs: f.delayMs }));
  const exact = drawsExactPixels('kitty', options);
  // In a viewport (`visibleRows`): every frame sent whole, the placement a source rectangle of the
  // rows shown (crop.ts), so the animation plays cropped. No row shown: nothing to upload.
  const visible = options.visibleRows && clampVisible(options.visibleRows, lay.rows);
  const cut = visible !== undefined && (visible.top > 0 || visible.rows < lay.rows);
  const height = (fitted[0] as AnimationFrame).raster.height;
  const rows =
    visible === undefined
      ? undefined
      : exact
        ? cellRows(height, (options.cellPixels ?? DEFAULT_CELL_PIXELS).height, visible)
        : scaledRows(height, lay.rows, visible);
  if (visible !== undefined && (visible.rows === 0 || rows?.height === 0))
    return disposable({ mode: 'terminal', done: Promise.resolve(), stop() {}, delete() {} });
  const animation = kittyAnimation(fitted, {
    ...(options.imageId !== undefined ? { imageId: options.imageId } : {}),
    ...(exact ? {} : { columns: lay.columns, rows: cut ? visible.rows : lay.rows }),
    ...(cut && rows
      ? { source: { x: 0, y: rows.y, width: (fitted[0] as AnimationFrame).raster.width, height: rows.height } }
      : {}),
    keepCursor: options.keepCursor ?? false,
    plays: options.plays ?? 0,
  });
  options.write(cursorForward(lay.offset ?? 0) + wrapForMultiplexer(animation.sequences, multiplexer));
  const id = animation.imageId;
  let gone = false;
  const handle = disposable({
    mode: 'terminal',
    imageId: id,
    done: Promise.resolve(),
    stop() {
      if (!gone) options.write(wrapForMultiplexer(kittyStopAnimation(id), multiplexer));
    },
    delete() {
      if (gone) return;
      gone = true;
      options.write(wrapForMultiplexer(kittyDelete(id), multiplexer));
    },
  });
  options.signal?.addEventListener('abort', () => handle.stop(), { once: true });
  return handle;
}

function redrawn(frames: readonly AnimationFrame[], protocol: Protocol, options: AnimateOptions): AnimationHandle {
  const { write, native: _native, file: _file, plays: _plays, signal, ...render } = options;
  const plays = options.plays ?? 0;
  let handle: FrameHandle | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  let index = 0;
  let played = 0;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    if (timer !== undefined) clearTimeout(timer);
    finish();
  };
  const step = (): void => {
    if (stopped) return;
    const current = frames[index] as AnimationFrame;
    const drawn = frame(current.raster, protocol, { ...render, ...(handle ? { previous: handle } : {}) });
    handle = drawn.handle;
    write(drawn.output);
    index++;
    if (index === frames.length) {
      index = 0;
      played++;
      if ((plays > 0 && played >= plays) || frames.length === 1) {
        stop();
        return;
      }
    }
    timer = setTimeout(step, Math.max(1, current.delayMs));
  };
  signal?.addEventListener('abort', stop, { once: true });
  if (signal?.aborted) stop();
  else step();
  return disposable({
    mode: 'redraw',
    ...(handle?.imageId !== undefined ? { imageId: handle.imageId } : {}),
    done,
    stop,
    delete() {
      stop();
      if (handle) {
        write(clearFrame(handle));
        handle = undefined;
      }
    },
  });
}
