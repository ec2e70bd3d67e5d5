/**
 * `termsight show FILE... [--protocol P] [--symbols SETS] [--width W] [--height H] [--fit MODE]
 * [--align A] [--grid COLSxROWS] [--no-probe] [--animate] [--explain] [--timeout MS] [--max-bytes N]`: decode
 * pictures and draw them with the best protocol
 * this terminal has. `--symbols` names the glyph sets of `--protocol symbols`, comma-separated
 * (default `block`). Each input is read through read-input.ts, at most `--max-bytes` (default 64 MiB).
 *
 * - Every decision is the drawing plan's (draw/plan.ts; `--explain` prints it): protocol
 *   `--protocol` > `TERMSIGHT_GRAPHICS` > (`off`: the text picture) > stdout not a terminal
 *   (symbols, text that survives a pipe or a file) > the probe's report (`--no-probe`: the
 *   environment's) > the text picture.
 * - Box: `--width` x `--height` (cells, % of the terminal or px; show-size.ts), else the terminal's
 *   columns x (rows - 2), else 80x24; `--fit` and `--align` say how the picture takes it.
 * - `--grid`: thumbnails with their names (show-grid.ts), first frames only.
 * - Each file in turn, its (sanitized) name on a line above when there are several; a file that
 *   cannot be read or decoded gives one line on stderr and the others are still shown; exit 2 if
 *   any failed.
 * - After a picture the cursor is at the start of the line below its last pixel row: the terminal
 *   moves it as it draws (then a new line), or, behind a multiplexer that does not see the
 *   picture, counted rows move it (see `flow` in render/frame.ts).
 * - `--animate` plays an animated GIF or APNG: kitty (where the database says it animates) and
 *   iTerm2 (a GIF file) play it themselves after one upload and `show` returns at once; elsewhere
 *   it is redrawn here at most `MAX_LOOPS` times, or until Ctrl-C.
 * - Stopped while a picture is written (Ctrl-C, SIGTERM, SIGHUP, SIGQUIT; terminal-guard.ts): the
 *   output stops between pieces, the open sequence is closed, SGR and synchronized output reset,
 *   the cursor put below what was drawn and shown; exit 128+n. A closed stdout (SIGPIPE, EPIPE)
 *   gets nothing more. See docs/cli.md, "Every way out".
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { DecodeError } from '../decode/error.js';
import type { DecodedImage } from '../decode/image.js';
import { decodeImageLoading, preloadDecoder } from '../decode/load.js';
import { explainPlan } from '../draw/explain.js';
import { renderOptionsOf } from '../draw/options.js';
import { planDrawing, playedBy } from '../draw/plan.js';
import { PROTOCOLS, type Protocol } from '../env/protocol.js';
import { animate } from '../render/animation.js';
import { decodeBox } from '../render/backend.js';
import { endFrame, type FrameHandle, flow, frame } from '../render/frame.js';
import { type RenderOptions, wrapOf } from '../render/options.js';
import { KITTY_FILES_READ_MS, kittyFileSink, kittyFilesRead } from '../render/pixels/kitty-file.js';
import type { Report } from '../report/types.js';
import { parse, protocolFlag } from './args.js';
import { type CliContext, UsageError } from './context.js';
import { detectReport, PROBE_FLAGS } from './detect.js';
import { EXIT_INTERRUPTED as EXIT_SIGINT, interruptedExit, interruptOf } from './interrupt.js';
import { PictureWriter, signalsDelivered } from './picture-writer.js';
import { DEFAULT_MAX_BYTES, InputError, inputReader, parseByteSize } from './read-input.js';
import { type GridPicture, gridCell, gridRow } from './show-grid.js';
import { displayName, failureLine, interruptTail, parseSymbolSets } from './show-plan.js';
import { drawLength, type Grid, parseAlign, parseFit, parseGrid, parseLength } from './show-size.js';
import { untilStopped } from './until-stopped.js';

/** Exit code after Ctrl-C (128 + SIGINT), as shells report it. */
export const EXIT_INTERRUPTED = EXIT_SIGINT;

/** How many times `--animate` plays an animation before it stops by itself. */
export const MAX_LOOPS = 3;

const SHOW_FLAGS = {
  protocol: { type: 'string' },
  symbols: { type: 'string' },
  width: { type: 'string' },
  height: { type: 'string' },
  fit: { type: 'string' },
  align: { type: 'string' },
  grid: { type: 'string' },
  animate: { type: 'boolean' },
  explain: { type: 'boolean' },
  'max-bytes': { type: 'string' },
  ...PROBE_FLAGS,
} as const;

/** Extra inputs for running `show` in-process (tests, the demo). */
export interface ShowRunOptions {
  /** Stops the output cleanly when aborted (the CLI aborts it on SIGINT). */
  readonly signal?: AbortSignal;
  /** The report to use instead of probing (the demo has probed already). */
  readonly report?: Report;
}

/**
 * Runs `termsight show`; resolves to the exit code (0, 2 when a file failed, 128+n when stopped).
 * It stops by `ctx.stop` (main.ts guards every signal); without one, SIGINT is caught while it runs.
 */
export async function runShow(args: readonly string[], ctx: CliContext): Promise<number> {
  if (ctx.stop) return runShowWith(args, ctx, { signal: ctx.stop.signal });
  return untilInterrupted((signal) => runShowWith(args, ctx, { signal }));
}

/** Runs `work` with a signal that SIGINT aborts (for callers without a guard: tests, stand-ins). */
export async function untilInterrupted<T>(work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onSigint = (): void => controller.abort();
  process.on('SIGINT', onSigint);
  try {
    return await work(controller.signal);
  } finally {
    process.off('SIGINT', onSigint);
  }
}

/** `runShow` with the signal (and optionally the report) given by the caller instead of the process. */
export async function runShowWith(args: readonly string[], ctx: CliContext, run: ShowRunOptions = {}): Promise<number> {
  const code = await showAll(args, ctx, run);
  // Pictures sent by file (kitty's t=t): the terminal reads them after we write; exiting first
  // would delete them (on exit) before it does. Nothing to wait for when none is pending.
  await kittyFilesRead(KITTY_FILES_READ_MS, run.signal);
  return code;
}

async function showAll(args: readonly string[], ctx: CliContext, run: ShowRunOptions): Promise<number> {
  const { values, positionals } = parse('show', args, SHOW_FLAGS, true);
  const flag: Protocol | undefined =
    values.protocol === undefined ? undefined : protocolFlag(values.protocol, PROTOCOLS);
  const symbols = parseSymbolSets(values.symbols);
  const width = parseLength('--width', values.width);
  const height = parseLength('--height', values.height);
  const fit = parseFit(values.fit);
  const align = parseAlign(values.align);
  const grid = parseGrid(values.grid);
  if (positionals.length === 0 && !values.explain)
    throw new UsageError('show: name at least one picture file (- reads stdin)');
  // Every input is read with a budget (docs/decode.md#limits): a device or an endless pipe stops.
  const readInput = inputReader(
    values['max-bytes'] === undefined ? DEFAULT_MAX_BYTES : parseByteSize(values['max-bytes']),
  );

  // The first file is read, and its decoder loaded, while the probe waits for the terminal.
  // Asynchronous I/O only: a decode here would hold up the probe's replies behind its timers.
  // Not stdin: its bytes are the probe's until the probe is done.
  const first = positionals[0];
  const early =
    grid || values.explain || first === undefined || first === '-' ? undefined : readEarly(readInput(first, ctx));

  const report = run.report ?? (await detectReport(ctx, { ...values, settle: true })).report;
  if (run.signal?.aborted) return interruptedExit(run.signal);
  const size = ctx.stdout as { columns?: number; rows?: number };
  // Every decision (protocol, box, wrapping, colours, animation) from the report and the flags.
  const plan = planDrawing(report, {
    ...(flag ? { protocol: flag } : {}),
    ...(symbols ? { symbols } : {}),
    ...(width ? { columns: drawLength(width) } : {}),
    ...(height ? { rows: drawLength(height) } : {}),
    ...(fit ? { fit } : {}),
    ...(align ? { align } : {}),
    defaultBox: 'screen',
    terminalSize: { columns: size.columns, rows: size.rows },
    textTakesBox: true,
    terminal: Boolean(ctx.stdout.isTTY),
    animate: Boolean(values.animate),
    env: ctx.runtime.env,
    wrapUnproven: true,
    // A one-shot preview: never placed again by its id (docs/draw.md, "The short-lived hint").
    shortLived: true,
  });
  if (values.explain) {
    ctx.stdout.write(`${explainPlan(plan).join('\n')}\n`);
    return 0;
  }
  const protocol = plan.protocol;
  const options = renderOptionsOf(plan, kittyFileSink);
  // A grid divides the box asked for (with `defaultBox: 'screen'` both sides are known).
  const box = { columns: plan.box.columns ?? 80, rows: plan.box.rows ?? 22 };
  const animate = plan.animation !== null;
  const maxSize = decodeBox(protocol, options);
  const writer = new PictureWriter(ctx.stdout, run.signal, undefined, ctx.jobs);
  if (grid) return showGrid(positionals, { grid, box, protocol, options, readInput, writer, ctx, signal: run.signal });

  let failed = false;
  for (const [index, name] of positionals.entries()) {
    if (run.signal?.aborted) return interruptedExit(run.signal);
    let image: DecodedImage;
    let file: Uint8Array;
    try {
      // Reading stdin from a terminal ends with Ctrl-D, or with Ctrl-C (SIGINT) through the signal.
      const bytes = await untilStopped(index === 0 && early ? early : readInput(name, ctx), run.signal);
      // Decode no larger than the box it will be drawn in (a JPEG scales in the DCT domain).
      // Only the decoder of this file's format is loaded (a one-shot process pays for every module).
      image = await decodeImageLoading(bytes, { frames: animate ? 'all' : 'first', ...(maxSize ? { maxSize } : {}) });
      file = bytes;
    } catch (error) {
      if (run.signal?.aborted) return interruptedExit(run.signal);
      ctx.stderr.write(failureLine(name, reasonFor(error)));
      failed = true;
      continue;
    }
    // The decode held the event loop: a Ctrl-C or signal that came meanwhile (the file was read
    // while the probe waited, so the decode can start inside the probe's late window, still in raw
    // mode) is seen before anything is drawn.
    await signalsDelivered();
    if (run.signal?.aborted) return interruptedExit(run.signal);
    if (positionals.length > 1 && !(await writer.write(`${displayName(name)}\n`))) {
      await writeTail(ctx, writer, protocol, options);
      return interruptedExit(run.signal);
    }
    let outcome: 'done' | 'interrupted';
    try {
      const native = animate ? playedBy(plan, image.format, file.length) : null;
      outcome = await showImage(image, protocol, options, writer, ctx, {
        animate,
        signal: run.signal,
        ...(native ? { native, file } : {}),
      });
    } catch (error) {
      ctx.stderr.write(failureLine(name, reasonFor(error)));
      failed = true;
      continue;
    }
    if (outcome === 'interrupted') return interruptedExit(run.signal);
  }
  return failed ? 2 : 0;
}

/**
 * A read started ahead of its turn, its decoder loading as soon as its bytes are in. Its failure
 * is handled here until the loop awaits it (then it fails there, with its one line), so an
 * early rejection is never unhandled.
 */
function readEarly(reading: Promise<Uint8Array>): Promise<Uint8Array> {
  const ready = reading.then(async (bytes) => {
    await preloadDecoder(bytes);
    return bytes;
  });
  ready.catch(() => undefined);
  return ready;
}

/** What `showGrid` needs from `runShowWith`. */
interface GridRun {
  readonly grid: Grid;
  readonly box: { columns: number; rows: number };
  readonly protocol: Protocol;
  readonly options: RenderOptions;
  readonly readInput: ReturnType<typeof inputReader>;
  readonly writer: PictureWriter;
  readonly ctx: CliContext;
  readonly signal: AbortSignal | undefined;
}

/**
 * `--grid`: the files as thumbnails, `grid.columns` to a row, each row written once its files are
 * decoded (first frames); a file that fails gives its line on stderr and leaves no gap.
 */
async function showGrid(names: readonly string[], run: GridRun): Promise<number> {
  const { grid, box, protocol, options, writer, ctx, signal } = run;
  const cell = gridCell(grid, box);
  const thumbMax = decodeBox(protocol, { ...options, ...cell });
  let failed = false;
  let row: GridPicture[] = [];
  const flush = async (): Promise<boolean> => {
    if (row.length === 0) return true;
    // kitty: a row cut short is deleted whole (its last picture may be half uploaded); rows
    // drawn before it stay, as earlier files do without --grid.
    const imageIds: number[] = [];
    const ok = await writer.write(gridRow(row, protocol, options, grid, box, imageIds));
    row = [];
    if (!ok) await writeTail(ctx, writer, protocol, options, undefined, undefined, imageIds);
    return ok;
  };
  for (const name of names) {
    if (signal?.aborted) return interruptedExit(signal);
    try {
      const bytes = await untilStopped(run.readInput(name, ctx), signal);
      const image = await decodeImageLoading(bytes, { frames: 'first', ...(thumbMax ? { maxSize: thumbMax } : {}) });
      row.push({ name, raster: image.frames[0]?.raster as GridPicture['raster'] });
    } catch (error) {
      if (signal?.aborted) return interruptedExit(signal);
      ctx.stderr.write(failureLine(name, reasonFor(error)));
      failed = true;
      continue;
    }
    if (row.length === grid.columns && !(await flush())) return interruptedExit(signal);
  }
  if (!(await flush())) return interruptedExit(signal);
  return failed ? 2 : 0;
}

/**
 * Draws one decoded picture (or plays it, with `animate` and more than one frame) through
 * `writer`; resolves 'interrupted' after closing whatever was open when the signal stopped it.
 */
export async function showImage(
  image: DecodedImage,
  protocol: Protocol,
  options: RenderOptions,
  writer: PictureWriter,
  ctx: Pick<CliContext, 'stdout'>,
  play: {
    readonly animate?: boolean;
    readonly signal?: AbortSignal | undefined;
    /** Who plays an animation instead of a redraw loop here (`nativeAnimation`). */
    readonly native?: 'kitty' | 'iterm2' | null;
    /** The file's bytes (iTerm2 plays the GIF file itself). */
    readonly file?: Uint8Array;
  } = {},
): Promise<'done' | 'interrupted'> {
  const first = image.frames[0]?.raster;
  if (play.animate && image.frames.length > 1) {
    if (play.native) return playedByTerminal(image, protocol, options, writer, ctx, play.native, play.file);
    return animateImage(image, protocol, options, writer, ctx, play.signal);
  }
  // Drawn at the cursor; the terminal (or, behind a multiplexer, counted rows) moves the cursor
  // below the picture's last pixel row, whatever the real cell size.
  const drawn = flow(first, protocol, options);
  if (await writer.write(drawn.output)) return 'done';
  await writeTail(ctx, writer, protocol, options, drawn.handle, drawn.imageId);
  return 'interrupted';
}

/**
 * An animation the terminal plays itself: one upload (kitty: the frames with their delays, then
 * run with the file's loop count; iTerm2: the GIF file), the cursor below it, and control back at
 * once while the terminal keeps playing it. Cut short, the upload is deleted by id.
 */
async function playedByTerminal(
  image: DecodedImage,
  protocol: Protocol,
  options: RenderOptions,
  writer: PictureWriter,
  ctx: Pick<CliContext, 'stdout'>,
  native: 'kitty' | 'iterm2',
  file?: Uint8Array,
): Promise<'done' | 'interrupted'> {
  let output = '';
  const played = animate(image.frames, protocol, {
    ...options,
    native: true,
    plays: image.plays ?? 0,
    ...(native === 'iterm2' && file ? { file } : {}),
    write: (bytes) => {
      output += bytes;
    },
  });
  // kitty without C=1 and iTerm2 leave the cursor just right of the picture's last row.
  if (await writer.write(`${output}\r\n`)) return 'done';
  await writeTail(ctx, writer, protocol, options, undefined, played.imageId);
  return 'interrupted';
}

async function animateImage(
  image: DecodedImage,
  protocol: Protocol,
  options: RenderOptions,
  writer: PictureWriter,
  ctx: Pick<CliContext, 'stdout'>,
  signal?: AbortSignal,
): Promise<'done' | 'interrupted'> {
  let handle: FrameHandle | undefined;
  // From the third pass on, every frame's bytes are those of the second pass: reuse them,
  // unless keeping them would take too much memory.
  const cache: string[] = [];
  let cached = 0;
  const CACHE_LIMIT = 64 * 1024 * 1024;
  const interrupted = async (h?: FrameHandle) => {
    await writeTail(ctx, writer, protocol, options, h);
    return 'interrupted' as const;
  };
  if (!(await writer.write('\x1b[?25l'))) return interrupted();
  // Continued after Ctrl-Z (job-control.ts): the cursor is on a fresh line below the shell's
  // text, so the next frame is drawn there afresh (hidden cursor, no move from the last frame).
  let resumes = writer.jobs?.resumes ?? 0;
  for (let loop = 0; loop < MAX_LOOPS; loop++) {
    for (const [i, current] of image.frames.entries()) {
      const fresh = writer.jobs !== undefined && writer.jobs.resumes !== resumes;
      if (fresh) {
        resumes = writer.jobs?.resumes ?? 0;
        handle = undefined;
      }
      let output = loop >= 2 && !fresh ? cache[i] : undefined;
      if (output === undefined) {
        const moves = handle !== undefined;
        const drawn = frame(current.raster, protocol, { ...options, ...(handle ? { previous: handle } : {}) });
        output = fresh ? `\x1b[?25l${drawn.output}` : drawn.output;
        handle = drawn.handle;
        if (writer.jobs) writer.jobs.below = endFrame(handle);
        if (loop === 1 && moves && cached + output.length < CACHE_LIMIT) {
          cache[i] = output;
          cached += output.length;
        }
      }
      if (!(await writer.write(output, { relative: true }))) return interrupted(handle);
      try {
        await sleep(current.delayMs, undefined, { signal });
      } catch {
        return interrupted(handle);
      }
    }
  }
  if (await writer.write(`${handle ? endFrame(handle) : ''}\x1b[?25h`)) return 'done';
  return interrupted(handle);
}

/** Writes what closes an interrupted picture, straight to the stream (the writer has stopped). */
async function writeTail(
  ctx: Pick<CliContext, 'stdout'>,
  writer: PictureWriter,
  protocol: Protocol,
  options: RenderOptions,
  handle?: FrameHandle,
  imageId?: number,
  imageIds?: readonly number[],
): Promise<void> {
  // A closed output gets nothing more: the bytes would only fail again (or land on someone else).
  if (interruptOf(writer.signal)?.outputGone) return;
  ctx.stdout.write(
    interruptTail(writer.state, {
      protocol,
      wrap: wrapOf(options),
      synchronizedOutput: Boolean(options.synchronizedOutput),
      ...(handle ? { handle } : {}),
      ...(imageId !== undefined ? { imageId } : {}),
      ...(imageIds ? { imageIds } : {}),
    }),
  );
}

const ERRNO_REASONS: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'no such file (a parent is not a directory)',
  ELOOP: 'too many symbolic links',
  ENAMETOOLONG: 'file name too long',
  EIO: 'input/output error while reading',
};

function reasonFor(error: unknown): string {
  if (error instanceof DecodeError || error instanceof InputError) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const known = typeof code === 'string' ? ERRNO_REASONS[code] : undefined;
  if (known) return known;
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]?.slice(0, 200);
}
