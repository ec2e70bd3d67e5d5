/**
 * How a picture takes its box: the fit modes (`contain`, `cover`, `fill`), the horizontal
 * alignment inside the box, and the crop `cover` needs. Geometry only; `layout` (backend.ts)
 * applies it. See docs/render.md#fit-and-align.
 */
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import type { Size } from './resize.js';

/** The fit modes: the whole picture inside the box, the box covered (cropped), or the box filled (stretched). */
export const FIT_MODES = ['contain', 'cover', 'fill'] as const;

/**
 * How a picture takes its box: `contain` (default) keeps its aspect and fits inside, never enlarged
 * unless `upscale`; `cover` keeps its aspect and fills the whole box, cropping the middle of what
 * sticks out; `fill` stretches it to the box. `cover` and `fill` enlarge as needed and need a box
 * (`columns` and `rows`); without one they are `contain`.
 */
export type FitMode = (typeof FIT_MODES)[number];

/** Where a picture narrower than its box sits. */
export const ALIGNMENTS = ['left', 'center', 'right'] as const;

/** Where a picture narrower than its box sits: `left` (default), `center` or `right`. */
export type Align = (typeof ALIGNMENTS)[number];

/** A rectangle of source pixels. */
export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** Whether `value` names a fit mode. */
export function isFitMode(value: unknown): value is FitMode {
  return typeof value === 'string' && (FIT_MODES as readonly string[]).includes(value);
}

/** Whether `value` names an alignment. */
export function isAlign(value: unknown): value is Align {
  return typeof value === 'string' && (ALIGNMENTS as readonly string[]).includes(value);
}

/**
 * The middle part of a `source` picture that has the box's shape, for `cover`. `measured` is the
 * source measured in the renderer's units (its shape on screen, which differs from its pixel shape
 * when units are not square), `box` the box in the same units. The crop keeps as much as the box's
 * shape allows, centred; at least one pixel a side.
 *
 * @example coverCrop({ width: 200, height: 100 }, { width: 200, height: 100 }, { width: 100, height: 100 }) // { x: 50, y: 0, width: 100, height: 100 }
 */
export function coverCrop(source: Size, measured: Size, box: Size): Rect {
  const scale = Math.max(box.width / measured.width, box.height / measured.height);
  // The box's extent in the source's own pixels (source pixels per unit differ by axis).
  const width = clamp(Math.round((box.width / scale) * (source.width / measured.width)), 1, source.width);
  const height = clamp(Math.round((box.height / scale) * (source.height / measured.height)), 1, source.height);
  return {
    x: Math.floor((source.width - width) / 2),
    y: Math.floor((source.height - height) / 2),
    width,
    height,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/**
 * Columns to move right before drawing a picture `columns` wide in a box `boxColumns` wide
 * (undefined: no box, so nothing to align in).
 *
 * @example alignOffset(30, 80, 'center') // 25
 */
export function alignOffset(columns: number, boxColumns: number | undefined, align: Align = 'left'): number {
  if (boxColumns === undefined || align === 'left') return 0;
  const spare = Math.max(0, boxColumns - columns);
  return align === 'center' ? Math.floor(spare / 2) : spare;
}

/**
 * The pixels of `rect` as a raster of their own (the raster itself when `rect` is all of it).
 *
 * @example cropRaster(r, { x: 10, y: 0, width: 20, height: r.height })
 */
export function cropRaster(raster: Raster, rect: Rect): Raster {
  validateRaster(raster);
  const { x, y, width, height } = rect;
  if (x === 0 && y === 0 && width === raster.width && height === raster.height) return raster;
  if (x < 0 || y < 0 || width < 1 || height < 1 || x + width > raster.width || y + height > raster.height)
    throw new RangeError(`crop ${width}x${height}+${x}+${y} lies outside the ${raster.width}x${raster.height} picture`);
  const data = new Uint8Array(width * height * 4);
  for (let row = 0; row < height; row++) {
    const from = ((y + row) * raster.width + x) * 4;
    data.set(raster.data.subarray(from, from + width * 4), row * width * 4);
  }
  return { width, height, data };
}
