/**
 * What an `<Image>` shows, as a pure function of the raster, the protocol, the box and the
 * terminal's report: the cells it takes, the text Ink renders itself (braille, blocks, kitty's
 * Unicode placeholders), and the escape sequences written at the Box's cell after Ink's frame
 * (kitty, iTerm2, sixel). See docs/ink.md for why pixels are drawn after the frame.
 */

import { nativeAnimation } from '../compat/native-animation.js';
import { renderOptionsFor } from '../compat/render-options.js';
import type { Raster } from '../core/raster.js';
import { wrapForMultiplexer } from '../core/wrap.js';
import type { Protocol } from '../env/protocol.js';
import { animate } from '../render/animation.js';
import { DEFAULT_CELL_PIXELS, draw, layout, usesPlaceholders } from '../render/backend.js';
import { resize } from '../render/geometry/resize.js';
import { clampVisible, scaledRows, type VisibleRows } from '../render/geometry/visible.js';
import type { RenderOptions } from '../render/options.js';
import { kittyDelete, kittyPlace, kittySequences } from '../render/pixels/kitty.js';
import type { AnimationFrame } from '../render/pixels/kitty-animation.js';
import type { Report } from '../report/types.js';

/** How the picture fills its box: kept whole (default), stretched, or cropped to fill it. */
export type ObjectFit = 'contain' | 'fill' | 'cover';

/** The box and fit asked for. */
export interface PictureBox {
  readonly columns?: number | undefined;
  readonly rows?: number | undefined;
  readonly objectFit?: ObjectFit | undefined;
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
}

const nothing = (): string => '';

/** How many crops of a played GIF's upload are kept (a viewport scrolling back and forth). */
const KEPT_CROPS = 4;

/** The raster cropped (centred) to the box's on-screen aspect, for `objectFit: 'cover'`. */
function cover(raster: Raster, aspect: number): Raster {
  const own = raster.width / raster.height;
  const width = own > aspect ? Math.max(1, Math.round(raster.height * aspect)) : raster.width;
  const height = own > aspect ? raster.height : Math.max(1, Math.round(raster.width / aspect));
  const x0 = Math.floor((raster.width - width) / 2);
  const y0 = Math.floor((raster.height - height) / 2);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const from = ((y0 + y) * raster.width + x0) * 4;
    data.set(raster.data.subarray(from, from + width * 4), y * width * 4);
  }
  return { width, height, data };
}

/** The raster for the box's `objectFit` (`contain` leaves it to the renderer). */
function fitted(raster: Raster, box: PictureBox, base: RenderOptions): Raster {
  const cell = base.cellPixels ?? DEFAULT_CELL_PIXELS;
  const fit = box.objectFit ?? 'contain';
  if (fit === 'contain' || box.columns === undefined || box.rows === undefined) return raster;
  const source = fit === 'cover' ? cover(raster, (box.columns * cell.width) / (box.rows * cell.height)) : raster;
  // The box's size in screen pixels, so every renderer fits it exactly.
  return resize(source, box.columns * cell.width, box.rows * cell.height);
}

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
): PicturePlan | null {
  const base = renderOptionsFor(report);
  const first = frames[0];
  if (first === undefined) return null;
  if (protocol === 'iterm2' && (box.objectFit ?? 'contain') !== 'contain') return null;
  if (nativeAnimation({ report, protocol, options: base, format: 'gif', fileBytes: file.byteLength }) === null)
    return null;
  const shown = frames.map((f) => ({ raster: fitted(f.raster, box, base), delayMs: f.delayMs }));
  const options: RenderOptions = { ...base, columns: box.columns, rows: box.rows, imageId, keepCursor: true };
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
  const { columns, rows } = layout((shown[0] as AnimationFrame).raster, protocol, options);
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
    return draw((shown[0] as AnimationFrame).raster, protocol, { ...options, visibleRows: v }).sequences.join('');
  };
  return { protocol, columns, rows, lines: blank, upload: '', place, placeVisible, ...(kitty ? { imageId } : {}) };
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
): PicturePlan {
  const base = renderOptionsFor(report);
  const source = fitted(raster, box, base);
  // Placeholders in 256 colours name the image by a palette index: the id must be 1..255.
  const placeholders = usesPlaceholders(protocol, base);
  const id = placeholders && base.colorDepth === '256' ? 1 + (imageId % 255) : imageId;
  const options: RenderOptions = { ...base, columns: box.columns, rows: box.rows, imageId: id, keepCursor: true };
  const d = draw(source, protocol, options);
  const { columns, rows } = d.layout;
  const mux = base.multiplexer ?? null;
  if (d.sequences.length === 0)
    return { protocol, columns, rows, lines: d.lines, upload: '', place: '', placeVisible: nothing };
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
    };
  }
  const whole = (visible: VisibleRows): boolean => {
    const v = clampVisible(visible, rows);
    return v.top === 0 && v.rows === rows;
  };
  const blank = Array.from({ length: rows }, () => ' '.repeat(columns));
  if (protocol === 'kitty' && report.placements) {
    // Stored once under the id; each frame only places it (the same placement id moves it).
    const fitted = resize(source, d.layout.units.width, d.layout.units.height);
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
    return { protocol, columns, rows, lines: blank, upload, place, placeVisible, imageId };
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
  };
}

/** kitty: takes the picture's placements away, keeping its pixels (`a=d,d=i`, lowercase). */
function kittyHide(imageId: number): string {
  return `\x1b_Ga=d,d=i,i=${imageId},q=2\x1b\\`;
}
