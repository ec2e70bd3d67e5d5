/**
 * What an `<Image>` shows, as a pure function of the raster, the protocol, the box and the
 * terminal's report: the cells it takes, the text Ink renders itself (braille, blocks, kitty's
 * Unicode placeholders), and the escape sequences written at the Box's cell after Ink's frame
 * (kitty, iTerm2, sixel). See docs/ink.md for why pixels are drawn after the frame.
 */

import type { Wrap } from '../core/primitives.js';
import type { Raster } from '../core/raster.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import { renderOptionsOf } from '../draw/options.js';
import { planDrawing, playedBy } from '../draw/plan.js';
import type { DrawRequest, Plan } from '../draw/types.js';
import type { Protocol } from '../env/protocol.js';
import type { Env } from '../env/runtime.js';
import { animate } from '../render/animation.js';
import { draw, fittedRaster, layout, usesPlaceholders } from '../render/backend.js';
import type { FitMode } from '../render/geometry/fit.js';
import { clampVisible, scaledRows, type VisibleRows } from '../render/geometry/visible.js';
import type { RenderOptions } from '../render/options.js';
import { kittyDelete, kittyPlace, kittySequences } from '../render/pixels/kitty.js';
import type { AnimationFrame } from '../render/pixels/kitty-animation.js';
import { kittyFileSink } from '../render/pixels/kitty-file.js';
import type { Report } from '../report/types.js';

/**
 * How the picture fills its box: kept whole (default), stretched, or cropped to fill it.
 *
 * @deprecated render's `FitMode` (`termsight/render`), the one name for it; this alias stays for code that has it.
 */
export type ObjectFit = FitMode;

/** The box and fit asked for. */
export interface PictureBox {
  readonly columns?: number | undefined;
  readonly rows?: number | undefined;
  /** render's `fit`: `contain` (default), `cover`, `fill` (these two need both sides). */
  readonly objectFit?: FitMode | undefined;
}

/**
 * The plan an `<Image>` draws from: the report's decisions for the box asked for, with `protocol`
 * (a protocol asked for; undefined: the report's) and the environment's `NO_COLOR`/`TERM`.
 *
 * @example inkPlan(report, undefined, { columns: 40 }).protocol // the report's protocol
 */
export function inkPlan(
  report: Report,
  protocol: Protocol | undefined,
  box: PictureBox,
  env: Env = {},
  animate = false,
): Plan {
  const request: DrawRequest = {
    ...(protocol ? { protocol } : {}),
    ...(box.columns !== undefined ? { columns: box.columns } : {}),
    ...(box.rows !== undefined ? { rows: box.rows } : {}),
    ...(box.objectFit ? { fit: box.objectFit } : {}),
    env,
    animate,
  };
  return planDrawing(report, request);
}

/** A picture ready for Ink. */
export interface PicturePlan {
  readonly protocol: Protocol;
  readonly columns: number;
  readonly rows: number;
  /** The Box's text: the picture for text protocols and kitty placeholders, blank cells otherwise. */
  readonly lines: readonly string[];
  /** Written once, anywhere (kitty: the upload of a stored or virtual image). */
  readonly upload: string;
  /** Written at the Box's top-left after each of Ink's frames (the cursor is kept). Empty for text. */
  readonly place: string;
  /**
   * The bytes that draw only the visible rows, written at the cell of the first of them (a
   * picture partly scrolled out of a viewport): kitty places a source rectangle of the stored
   * pixels (or takes its placement away when no row is visible), sixel and iTerm2 are encoded
   * cropped. Equal to `place` for every row; '' for text pictures, which Ink clips itself.
   */
  readonly placeVisible: (visible: VisibleRows) => string;
  /** kitty: the image id, deleted on unmount. */
  readonly imageId?: number;
  /** The multiplexer its sequences are wrapped for (the plan's `wrap`); absent: none. */
  readonly wrap?: Wrap;
}

const nothing = (): string => '';

/**
 * The render options of the report's own protocol, from its drawing plan.
 *
 * @deprecated Draw from a plan instead: `renderOptionsOf(planDrawing(report, request))` (`termsight`).
 * @example toTerminal(raster, report.graphics ?? 'braille', renderOptionsFor(report))
 */
export function renderOptionsFor(report: Report): RenderOptions {
  return renderOptionsOf(planDrawing(report), kittyFileSink);
}

/** How many crops of a played GIF's upload are kept (a viewport scrolling back and forth). */
const KEPT_CROPS = 4;

/**
 * Plans an animation the terminal plays itself, or null where it cannot (`nativeAnimation`, the
 * decision `termsight show` makes): kitty gets every frame in one upload (`a=T`, `a=f` frames with
 * their delays, `a=a` with the loop count) under the component's id, placed at the Box's cell and
 * deleted first, so a move or a resize uploads it again at its new place and size; iTerm2 gets the
 * GIF file (its own size: only with `objectFit: 'contain'`). Partly scrolled out of a viewport,
 * kitty plays it cropped (its placement a source rectangle of the rows shown); iTerm2, which plays
 * the file as it is, shows those rows of the first frame, still, until it is whole again.
 *
 * @example planAnimation(frames, 'kitty', { columns: 20 }, report, 7, gifBytes, Infinity)?.place // one upload
 */
export function planAnimation(
  frames: readonly AnimationFrame[],
  protocol: Protocol,
  box: PictureBox,
  report: Report,
  imageId: number,
  file: Uint8Array,
  loops: number,
  env: Env = {},
): PicturePlan | null {
  const plan = inkPlan(report, protocol, box, env, true);
  const base = renderOptionsOf(plan, kittyFileSink);
  const first = frames[0];
  if (first === undefined) return null;
  if (protocol === 'iterm2' && (box.objectFit ?? 'contain') !== 'contain') return null;
  if (playedBy(plan, 'gif', file.byteLength) === null) return null;
  // render fits each frame (`fit`); kitty's upload is of the fitted frames.
  const shown = frames;
  const options: RenderOptions = { ...base, imageId, keepCursor: true };
  const plays = Number.isFinite(loops) ? loops : 0;
  // Only the bytes are kept: the component deletes the image by id itself (unmount, exit, move).
  // Scrolling a viewport asks for the same rows again and again: the last few crops are kept
  // (each holds every frame, so not all of them).
  const encoded = new Map<string, string>();
  const played = (visibleRows?: VisibleRows): string => {
    const key = visibleRows ? `${visibleRows.top},${visibleRows.rows}` : '';
    const known = encoded.get(key);
    if (known !== undefined) return known;
    let bytes = '';
    const write = (text: string): void => {
      bytes += text;
    };
    animate(shown, protocol, { ...options, native: true, file, plays, write, ...(visibleRows ? { visibleRows } : {}) });
    encoded.set(key, bytes);
    if (encoded.size > KEPT_CROPS) encoded.delete(encoded.keys().next().value as string);
    return bytes;
  };
  const { columns, rows } = layout(first.raster, protocol, options);
  const blank = Array.from({ length: rows }, () => ' '.repeat(columns));
  const kitty = protocol === 'kitty';
  const place = kitty ? kittyDelete(imageId) + played() : played();
  const placeVisible = (visible: VisibleRows): string => {
    const v = clampVisible(visible, rows);
    if (v.top === 0 && v.rows === rows) return place;
    // kitty plays it cropped by a source rectangle; none of it shown: its placement goes.
    if (kitty) return v.rows === 0 ? kittyHide(imageId) : kittyDelete(imageId) + played(v);
    // iTerm2 plays the file as it is and cannot crop it: the rows shown of its first frame, still.
    if (v.rows === 0) return '';
    return draw(first.raster, protocol, { ...options, visibleRows: v }).sequences.join('');
  };
  return {
    protocol,
    columns,
    rows,
    lines: blank,
    upload: '',
    place,
    placeVisible,
    ...(kitty ? { imageId } : {}),
    ...(plan.wrap ? { wrap: plan.wrap } : {}),
  };
}

/**
 * Plans a picture: fitted into the box (aspect kept unless `fill`), encoded for `protocol`.
 *
 * @example planPicture(raster, 'braille', { columns: 20 }, report, 7).lines.length // rows of braille
 */
export function planPicture(
  raster: Raster,
  protocol: Protocol,
  box: PictureBox,
  report: Report,
  imageId: number,
  env: Env = {},
): PicturePlan {
  const plan = inkPlan(report, protocol, box, env);
  const base = renderOptionsOf(plan, kittyFileSink);
  const source = raster;
  // Placeholders in 256 colours name the image by a palette index: the id must be 1..255.
  const placeholders = usesPlaceholders(protocol, base);
  const id = placeholders && base.colorDepth === '256' ? 1 + (imageId % 255) : imageId;
  const options: RenderOptions = { ...base, imageId: id, keepCursor: true };
  const d = draw(source, protocol, options);
  const { columns, rows } = d.layout;
  const mux = plan.wrap;
  if (d.sequences.length === 0)
    return { protocol, columns, rows, lines: d.lines, upload: '', place: '', placeVisible: nothing };
  const wrapped = mux ? { wrap: mux } : {};
  if (usesPlaceholders(protocol, options)) {
    // The upload is a virtual placement; the placeholder text shows it wherever Ink puts it.
    return {
      protocol,
      columns,
      rows,
      lines: d.lines,
      upload: wrapForMultiplexer(d.sequences, mux),
      place: '',
      placeVisible: nothing,
      imageId,
      ...wrapped,
    };
  }
  const whole = (visible: VisibleRows): boolean => {
    const v = clampVisible(visible, rows);
    return v.top === 0 && v.rows === rows;
  };
  const blank = Array.from({ length: rows }, () => ' '.repeat(columns));
  if (plan.encoder.protocol === 'kitty' && plan.encoder.placements) {
    // Stored once under the id; each frame only places it (the same placement id moves it).
    const fitted = fittedRaster(source, d.layout);
    const upload = wrapForMultiplexer(kittySequences(fitted, { imageId }, 't'), mux);
    const place = wrapForMultiplexer(kittyPlace(imageId, { placementId: 1, columns, rows, keepCursor: true }), mux);
    const placeVisible = (visible: VisibleRows): string => {
      if (whole(visible)) return place;
      const v = clampVisible(visible, rows);
      // Scrolled out entirely: the placement goes (the pixels stay stored for when it comes back).
      if (v.rows === 0) return wrapForMultiplexer(kittyHide(imageId), mux);
      const part = scaledRows(fitted.height, rows, v);
      const source = { x: 0, y: part.y, width: fitted.width, height: Math.max(1, part.height) };
      const placed = kittyPlace(imageId, { placementId: 1, columns, rows: v.rows, keepCursor: true, source });
      return wrapForMultiplexer(placed, mux);
    };
    return { protocol, columns, rows, lines: blank, upload, place, placeVisible, imageId, ...wrapped };
  }
  const place = wrapForMultiplexer(d.sequences, mux);
  const placeVisible = (visible: VisibleRows): string => {
    if (whole(visible)) return place;
    if (clampVisible(visible, rows).rows === 0)
      return protocol === 'kitty' ? wrapForMultiplexer(kittyHide(imageId), mux) : '';
    return wrapForMultiplexer(draw(source, protocol, { ...options, visibleRows: visible }).sequences, mux);
  };
  return {
    protocol,
    columns,
    rows,
    lines: blank,
    upload: '',
    place,
    placeVisible,
    ...(protocol === 'kitty' ? { imageId } : {}),
    ...wrapped,
  };
}

/** kitty: takes the picture's placements away, keeping its pixels (`a=d,d=i`, lowercase). */
function kittyHide(imageId: number): string {
  return `\x1b_Ga=d,d=i,i=${imageId},q=2\x1b\\`;
}
