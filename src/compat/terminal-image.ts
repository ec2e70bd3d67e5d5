/**
 * `termsight/terminal-image`: terminal-image's API (`buffer`, `file`, `gifBuffer`, `gifFile`, the
 * same options, defaults and errors as its index.d.ts, graded against 4.3.0, the newest that runs
 * on Node 20), made correct:
 * - the protocol comes from termsight's probe-backed report (one probe per process, cached), not
 *   from the environment; iTerm2 never gets kitty; inside tmux kitty uses Unicode placeholders and
 *   the other protocols passthrough, as `toTerminal` does;
 * - every protocol's picture is returned as the string (the incumbent writes kitty's APC straight
 *   to stdout and resolves `''`);
 * - GIFs play natively where the terminal can (`nativeAnimation`, the CLI's decision): kitty gets
 *   one upload of every frame and runs it, iTerm2 gets the GIF file; the stop function stops and
 *   deletes (kitty by id). Elsewhere they play as frames redrawn in place with the report's
 *   protocol (`frame`), not only as blocks. With `renderFrame` the incumbent's contract holds: the
 *   callback gets every frame as text (a native animation is not text), so it is never native.
 * The text picture (no pixel protocol, or `preferNativeRender: false`) is half blocks with the
 * incumbent's columns and lines. Differences are listed in docs/compat.md.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import process from 'node:process';
import type { ColorDepth, Rgb } from '../core/primitives.js';
import type { Raster } from '../core/raster.js';
import { decodeImage } from '../decode/index.js';
import { renderOptionsOf } from '../draw/options.js';
import { planDrawing, playedBy } from '../draw/plan.js';
import type { Plan } from '../draw/types.js';
import type { Env } from '../env/runtime.js';
import { type AnimationHandle, animate } from '../render/animation.js';
import { toTerminal } from '../render/backend.js';
import { endFrame, type FrameHandle, frame } from '../render/frame.js';
import { resize } from '../render/geometry/resize.js';
import { kittyFileSink } from '../render/pixels/kitty-file.js';
import { blocksLines } from '../render/text/blocks.js';
import { probeTerminal } from '../report/probe-terminal.js';
import type { Report } from '../report/types.js';
import {
  blockPictureSize,
  frameClock,
  gifLoopCount,
  pictureBox,
  type SizeOptions,
  type TerminalSize,
} from './image-size.js';

export {
  blockPictureSize,
  type FrameClock,
  frameClock,
  gifLoopCount,
  gifSchedule,
  parseDimension,
  pictureBox,
  type SizeOptions,
  type TerminalSize,
} from './image-size.js';

/** terminal-image's `buffer`/`file` options. */
export type ImageOptions = Readonly<{
  width?: string | number;
  height?: string | number;
  preserveAspectRatio?: boolean;
  preferNativeRender?: boolean;
}>;

/** terminal-image's frame handler: called with each frame's text; `done` when playback stops. */
export type RenderFrame = {
  (text: string): void;
  done?: () => void;
};

/** terminal-image's `gifBuffer`/`gifFile` options. */
export type GifOptions = Readonly<{
  width?: string | number;
  height?: string | number;
  maximumFrameRate?: number;
  renderFrame?: RenderFrame;
}>;

/** The drop-in's API, as terminal-image's default export. */
export interface TerminalImage {
  buffer(imageBuffer: Readonly<Uint8Array>, options?: ImageOptions): Promise<string>;
  file(filePath: string, options?: ImageOptions): Promise<string>;
  gifBuffer(imageBuffer: Readonly<Uint8Array>, options?: GifOptions): () => void;
  gifFile(filePath: string, options?: GifOptions): () => void;
}

/** Where a `TerminalImage` draws and what it knows about the terminal. */
export interface TerminalImageContext {
  /** The terminal's report; called at most once (default: `probeTerminal()` for stdout, cached per process). */
  readonly report: () => Promise<Report>;
  /** The terminal's size now (default `process.stdout.columns`/`rows`, 80x24 when unknown). */
  readonly size: () => TerminalSize;
  /** Where the default GIF player writes (default `process.stdout`). */
  readonly write: (text: string) => void;
  /** The environment (`NO_COLOR`, `TERM=dumb`: text without colour). Default: none. */
  readonly env?: Env;
}

/**
 * The drop-in's plan: the report's protocol, its own half blocks where there is no pixel protocol
 * (the incumbent's text picture), the box its options give (cells, enlarged into; stretched with
 * `preserveAspectRatio: false`).
 */
function dropInPlan(
  report: Report,
  env: Env,
  box?: { columns: number; rows: number },
  options: SizeOptions = {},
  animate = false,
): Plan {
  return planDrawing(report, {
    textPicture: 'blocks',
    env,
    animate,
    ...(box
      ? { ...box, upscale: true, ...(options.preserveAspectRatio === false ? { fit: 'fill' as const } : {}) }
      : {}),
  });
}

/** The colour depth and background of the drop-in's half blocks: the plan's, or 24-bit without a report. */
function blockColors(plan: Plan | null): { colorDepth: ColorDepth; background?: Rgb } {
  if (plan === null) return { colorDepth: 'truecolor' };
  const e = plan.encoder;
  return { colorDepth: plan.colorDepth, ...('background' in e && e.background ? { background: e.background } : {}) };
}

function firstRaster(bytes: Readonly<Uint8Array>): Raster {
  return decodeImage(bytes as Uint8Array, { frames: 'first' }).frames[0].raster;
}

/** The half-block picture with the incumbent's columns and lines, in the plan's colours. */
function blockText(raster: Raster, options: SizeOptions, terminal: TerminalSize, plan: Plan | null): string {
  const { width, height } = blockPictureSize(raster, options, terminal);
  const lines = Math.floor(height / 2);
  if (width < 1 || lines < 1) return '';
  const fitted = resize(raster, width, lines * 2);
  return blocksLines(fitted, blockColors(plan)).join('\n');
}

/** The options with terminal-image's defaults. */
function withDefaults(options: ImageOptions | GifOptions): SizeOptions {
  return {
    width: options.width ?? '100%',
    height: options.height ?? '100%',
    preserveAspectRatio: (options as ImageOptions).preserveAspectRatio ?? true,
  };
}

/**
 * A terminal-image API over a given context (a report, a size, an output), for tests and for
 * programs that probe themselves.
 *
 * @example const ti = createTerminalImage({ report: async () => report, size: () => ({ columns: 80, rows: 24 }), write: (s) => out.write(s) })
 */
export function createTerminalImage(context: TerminalImageContext): TerminalImage {
  const env = context.env ?? {};
  let reportOnce: Promise<Report> | null = null;
  const report = (): Promise<Report> => {
    reportOnce ??= context.report();
    return reportOnce;
  };

  async function buffer(bytes: Readonly<Uint8Array>, options: ImageOptions = {}): Promise<string> {
    const sizes = withDefaults(options);
    const raster = firstRaster(bytes);
    if (options.preferNativeRender === false) return blockText(raster, sizes, context.size(), null);
    const r = await report();
    const terminal = context.size();
    const plan = dropInPlan(r, env, pictureBox(sizes, terminal), sizes);
    if (plan.protocol === 'blocks') return blockText(raster, sizes, terminal, plan);
    return toTerminal(raster, plan.protocol, renderOptionsOf(plan, kittyFileSink));
  }

  function gifBuffer(bytes: Readonly<Uint8Array>, options: GifOptions = {}): () => void {
    const decoded = decodeImage(bytes as Uint8Array, { frames: 'all' });
    if (decoded.width < 2 || decoded.height < 2) throw new Error('The image is too small to be rendered.');
    const sizes = withDefaults(options);
    const custom = options.renderFrame;
    const loops = gifLoopCount(bytes as Uint8Array);
    // A WebP's loop count is its plays (0 forever), from the decoder.
    const plays = decoded.format === 'webp' ? (decoded.plays ?? 1) : null;
    const totalLoops =
      plays !== null
        ? plays === 0
          ? Number.POSITIVE_INFINITY
          : plays
        : loops === 0
          ? Number.POSITIVE_INFINITY
          : (loops ?? 0) + 1;
    const clock = frameClock(options.maximumFrameRate ?? 30);
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    let handle: FrameHandle | undefined;
    let played: AnimationHandle | undefined;
    let finished = false;

    const finalize = (): void => {
      if (finished) return;
      finished = true;
      stopped = true;
      if (timer) clearTimeout(timer);
      if (custom) custom.done?.();
      else if (played) played.delete();
      else if (handle) context.write(endFrame(handle));
    };

    const draw = (raster: Raster, r: Report | null): void => {
      const plan = r === null ? null : dropInPlan(r, env, pictureBox(sizes, context.size()));
      if (custom) {
        custom(blockText(raster, sizes, context.size(), plan));
        return;
      }
      if (plan === null || plan.protocol === 'blocks') {
        // Text frames in place, as frames of the blocks protocol, sized as the incumbent's.
        const { width, height } = blockPictureSize(raster, sizes, context.size());
        const lines = Math.max(1, Math.floor(height / 2));
        const fitted = resize(raster, Math.max(1, width), lines * 2);
        const f = frame(fitted, 'blocks', {
          ...blockColors(plan),
          ...(plan ? { synchronizedOutput: plan.synchronizedOutput } : {}),
          previous: handle,
        });
        handle = f.handle;
        context.write(f.output);
        return;
      }
      const f = frame(raster, plan.protocol, { ...renderOptionsOf(plan, kittyFileSink), previous: handle });
      handle = f.handle;
      context.write(f.output);
    };

    /** Hands the whole animation to the terminal where it plays it; false: redraw here. */
    const playNatively = (r: Report): boolean => {
      const plan = dropInPlan(r, env, pictureBox(sizes, context.size()), {}, true);
      if (plan.protocol === 'blocks') return false;
      if (playedBy(plan, decoded.format, bytes.byteLength) === null) return false;
      played = animate(decoded.frames, plan.protocol, {
        ...renderOptionsOf(plan, kittyFileSink),
        native: true,
        file: bytes as Uint8Array,
        plays: Number.isFinite(totalLoops) ? totalLoops : 0,
        write: context.write,
      });
      return true;
    };

    const play = (r: Report | null): void => {
      if (stopped) return;
      if (r !== null && decoded.frames.length > 1 && playNatively(r)) return;
      let index = 0;
      let loop = 0;
      const next = (): void => {
        if (stopped) return;
        const current = decoded.frames[index];
        const last = index === decoded.frames.length - 1 && loop + 1 >= totalLoops;
        // The frame rate may skip a frame, but never the very last one.
        if (clock.next(current.delayMs) || last) draw(current.raster, r);
        if (last) {
          finalize();
          return;
        }
        index += 1;
        if (index >= decoded.frames.length) {
          index = 0;
          loop += 1;
        }
        timer = setTimeout(next, current.delayMs);
      };
      next();
    };

    if (custom) play(null);
    else
      report().then(
        (r) => play(r),
        () => play(null),
      );
    return finalize;
  }

  return {
    buffer,
    file: async (filePath, options = {}) => buffer(await readFile(filePath), options),
    gifBuffer,
    gifFile: (filePath, options = {}) => gifBuffer(readFileSync(filePath), options),
  };
}

/** The process's own terminal: one probe for stdout, at the first picture. */
const processContext: TerminalImageContext = {
  report: () => probeTerminal({ stream: 'stdout' }),
  size: () => ({ columns: process.stdout.columns || 80, rows: process.stdout.rows || 24 }),
  write: (text) => {
    process.stdout.write(text);
  },
  env: process.env,
};

/**
 * terminal-image's default export, for this process's stdout.
 *
 * @example import terminalImage from 'termsight/terminal-image'; console.log(await terminalImage.file('unicorn.jpg', { width: '50%' }))
 */
const terminalImage: TerminalImage = createTerminalImage(processContext);

export default terminalImage;
