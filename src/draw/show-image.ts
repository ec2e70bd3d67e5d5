/**
 * `showImage`: the common case in one call. Ask the terminal once (per process), read and decode
 * a file or bytes, plan the drawing, draw it at the cursor, and leave the terminal clean: the
 * probe restores the tty mode on every path, kitty's picture files are waited for before the call
 * resolves (so the program may exit at once), and the returned handle removes the picture
 * (`delete()`, or `using`). Nothing here loads at import: the probe's driver, the decoder of the
 * file's format, `node:fs` and the encoders load on the first call (docs/draw.md).
 */
import { DISPOSE } from '../core/dispose.js';
import { graphicsFilesRead, KITTY_FILES_READ_MS } from '../core/graphics-file.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import type { DecodedImage } from '../decode/image.js';
import type { Env } from '../env/runtime.js';
import type { AnimationHandle } from '../render/animation.js';
import * as drawing from '../render/front.js';
import { probeTerminal } from '../report/front.js';
import type { Report } from '../report/types.js';
import { pictureFiles, renderOptionsOf } from './options.js';
import { planDrawing, playedBy } from './plan.js';
import type { DrawRequest, Plan } from './types.js';

/** Where `showImage` draws: a stream's `write`, and what it knows of its terminal. */
export interface PictureOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean | undefined;
  readonly columns?: number | undefined;
  readonly rows?: number | undefined;
}

/** `showImage`'s options: the request's box, fit, align, protocol, symbols and animation, and where to draw. */
export interface ShowImageOptions
  extends Omit<DrawRequest, 'env' | 'terminal' | 'terminalSize' | 'defaultBox' | 'textTakesBox' | 'wrapUnproven'> {
  /** Where to draw (default `process.stdout`); its `isTTY`, `columns` and `rows` go into the plan. */
  readonly output?: PictureOutput;
  /** The terminal's report (default: `probeTerminal()`, asked once per process). */
  readonly report?: Report;
  /** The environment (default `process.env`): `NO_COLOR`, `TERM`, `TERMSIGHT_GRAPHICS`. */
  readonly env?: Env;
}

/** A picture `showImage` drew. */
export interface ShownImage {
  /** The plan it was drawn from (`explainPlan(shown.plan)` says why). */
  readonly plan: Plan;
  /** The cells it covers. */
  readonly columns: number;
  readonly rows: number;
  /** kitty: the image id. */
  readonly imageId?: number;
  /** The animation, where the terminal plays it (`animate: true`). */
  readonly animation?: AnimationHandle;
  /** Removes a kitty picture (by id) or stops and deletes an animation; other pictures are text cells the caller overwrites. */
  delete(): void;
  /** `using shown = await showImage(…)`: `delete()` when the scope ends. */
  [Symbol.dispose](): void;
}

let asked: Promise<Report> | undefined;

/** The report of this process's terminal, asked once. */
function processReport(): Promise<Report> {
  asked ??= probeTerminal();
  return asked;
}

/**
 * Draws a picture file (a path) or its bytes at the cursor, in the best way this terminal has,
 * and resolves once it is drawn (and, for kitty by file, read): the cursor is then at the start of
 * the line below it. The box defaults to the terminal (its columns, its rows less 2); an animation
 * (`animate: true`) plays where the terminal plays it itself, elsewhere its first frame is drawn.
 * Rejects with `DecodeError` (termsight/decode) for a file that is not a picture it reads.
 *
 * @example await showImage('photo.png', { columns: 60, rows: 20 });
 */
export async function showImage(source: string | Uint8Array, options: ShowImageOptions = {}): Promise<ShownImage> {
  const { output: given, report: knownReport, env: givenEnv, ...request } = options;
  const output: PictureOutput = given ?? process.stdout;
  const report = knownReport ?? (await processReport());
  const plan = planDrawing(report, {
    ...request,
    env: givenEnv ?? process.env,
    terminal: Boolean(output.isTTY),
    terminalSize: { columns: output.columns, rows: output.rows },
    defaultBox: 'screen',
  });
  const bytes =
    typeof source === 'string' ? new Uint8Array(await (await import('node:fs/promises')).readFile(source)) : source;
  const render = renderOptionsOf(plan, pictureFiles);
  const maxSize = drawing.decodeBox(plan.protocol, render);
  const { decodeImageLoading } = await import('../decode/load.js');
  const image: DecodedImage = await decodeImageLoading(bytes, {
    frames: plan.animation ? 'all' : 'first',
    ...(maxSize ? { maxSize } : {}),
  });
  const first = image.frames[0]?.raster;
  if (first === undefined) throw new RangeError('the picture has no frame');
  const native = plan.animation && image.frames.length > 1 ? playedBy(plan, image.format, bytes.byteLength) : null;
  let animation: AnimationHandle | undefined;
  let imageId: number | undefined;
  if (native !== null) {
    animation = drawing.animate(image.frames, plan.protocol, {
      ...render,
      native: true,
      plays: image.plays ?? 0,
      ...(native === 'iterm2' ? { file: bytes } : {}),
      write: (text) => output.write(text),
    });
    imageId = animation.imageId;
    // kitty without C=1 and iTerm2 leave the cursor just right of the picture's last row.
    output.write('\r\n');
  } else {
    const drawn = drawing.flow(first, plan.protocol, render);
    imageId = drawn.imageId;
    output.write(drawn.output);
  }
  // Pictures sent by file: the terminal reads them after we write; exiting first would delete them.
  if (plan.encoder.protocol === 'kitty' && plan.encoder.byFile) await graphicsFilesRead(KITTY_FILES_READ_MS);
  const cells = drawing.renderedCells(first, plan.protocol, render);
  let gone = false;
  const remove = (): void => {
    if (gone) return;
    gone = true;
    if (animation) animation.delete();
    else if (plan.protocol === 'kitty' && imageId !== undefined)
      output.write(wrapForMultiplexer(drawing.kittyDelete(imageId), plan.wrap));
  };
  return {
    plan,
    ...cells,
    ...(imageId !== undefined ? { imageId } : {}),
    ...(animation ? { animation } : {}),
    delete: remove,
    [DISPOSE]: remove,
  };
}
