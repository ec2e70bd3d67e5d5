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
import type { Raster } from '../core/raster.js';
import { decodeImage } from '../decode/index.js';
import { isGraphicsProtocol, type Protocol } from '../env/protocol.js';
import { type AnimationHandle, animate } from '../render/animation.js';
import { toTerminal } from '../render/backend.js';
import { endFrame, type FrameHandle, frame } from '../render/frame.js';
import { resize } from '../render/geometry/resize.js';
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
import { nativeAnimation } from './native-animation.js';
import { renderOptionsFor } from './render-options.js';

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
}

/** The pixel protocol to use, or null for the half-block text picture. */
function pixelProtocol(report: Report | null): Protocol | null {
  const g = report?.graphics ?? null;
  return g !== null && isGraphicsProtocol(g) ? g : null;
}

function firstRaster(bytes: Readonly<Uint8Array>): Raster {
  return decodeImage(bytes as Uint8Array, { frames: 'first' }).frames[0].raster;
}

/** The half-block picture with the incumbent's columns and lines. */
function blockText(raster: Raster, options: SizeOptions, terminal: TerminalSize, report: Report | null): string {
  const { width, height } = blockPictureSize(raster, options, terminal);
  const lines = Math.floor(height / 2);
  if (width < 1 || lines < 1) return '';
  const fitted = resize(raster, width, lines * 2);
  return blocksLines(fitted, {
    colorDepth: report && !report.truecolor ? '256' : 'truecolor',
    background: report?.background?.rgb,
  }).join('\n');
}

/** A pixel picture in the box the options give, aspect kept unless `preserveAspectRatio: false`. */
function pixelPicture(
  raster: Raster,
  protocol: Protocol,
  options: SizeOptions,
  terminal: TerminalSize,
  report: Report,
): string {
  const box = pictureBox(options, terminal);
  const base = renderOptionsFor(report);
  let source = raster;
  if (options.preserveAspectRatio === false) {
    const cell = base.cellPixels ?? { width: 10, height: 20 };
    source = resize(raster, box.columns * cell.width, box.rows * cell.height);
  }
  return toTerminal(source, protocol, { ...base, ...box, upscale: true });
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
    const protocol = pixelProtocol(r);
    if (protocol === null) return blockText(raster, sizes, context.size(), r);
    return pixelPicture(raster, protocol, sizes, context.size(), r);
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
      const protocol = custom ? null : pixelProtocol(r);
      if (custom) {
        custom(blockText(raster, sizes, context.size(), r));
        return;
      }
      if (protocol === null) {
        // Text frames in place, as frames of the blocks protocol, sized as the incumbent's.
        const { width, height } = blockPictureSize(raster, sizes, context.size());
        const lines = Math.max(1, Math.floor(height / 2));
        const fitted = resize(raster, Math.max(1, width), lines * 2);
        const f = frame(fitted, 'blocks', { ...(r ? renderOptionsFor(r) : {}), previous: handle });
        handle = f.handle;
        context.write(f.output);
        return;
      }
      const box = pictureBox(sizes, context.size());
      const f = frame(raster, protocol, {
        ...renderOptionsFor(r as Report),
        ...box,
        upscale: true,
        synchronizedOutput: (r as Report).synchronizedOutput,
        previous: handle,
      });
      handle = f.handle;
      context.write(f.output);
    };

    /** Hands the whole animation to the terminal where it plays it; false: redraw here. */
    const playNatively = (r: Report): boolean => {
      const protocol = pixelProtocol(r);
      if (protocol === null) return false;
      const options = renderOptionsFor(r);
      const fileBytes = bytes.byteLength;
      if (nativeAnimation({ report: r, protocol, options, format: decoded.format, fileBytes }) === null) return false;
      played = animate(decoded.frames, protocol, {
        ...options,
        ...pictureBox(sizes, context.size()),
        upscale: true,
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
};

/**
 * terminal-image's default export, for this process's stdout.
 *
 * @example import terminalImage from 'termsight/terminal-image'; console.log(await terminalImage.file('unicorn.jpg', { width: '50%' }))
 */
const terminalImage: TerminalImage = createTerminalImage(processContext);

export default terminalImage;
