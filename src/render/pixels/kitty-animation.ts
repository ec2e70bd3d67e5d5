/**
 * An animation kitty plays by itself (https://sw.kovidgoyal.net/kitty/graphics-protocol/#animation):
 * the first frame is transmitted and displayed as the image (`a=T`, its root frame), every later
 * frame is added with `a=f` as the previous frame (`c=`, its base) with only the rectangle that
 * changed replaced (`x=`, `y=`, `s=`, `v=`, `X=1`, and `C=1` for kitty 0.45-0.48), each with its delay (`z=` ms; the root frame's
 * through `a=a,r=1`), and `a=a,s=3,v=` runs it with its loop count. One upload, no redraw loop:
 * the terminal keeps playing it after the program has moved on; `kittyDelete(id)` removes it.
 * Frames are full pictures already composited (as the decoders give them) and all of one size.
 */
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import { cropRaster, type Rect } from '../geometry/fit.js';
import {
  checkId,
  type KittyOptions,
  kittyChunks,
  kittyImageId,
  kittyPayload,
  kittySequences,
  toBase64,
} from './kitty.js';

/** One frame of an animation: a full picture and how long it stays. */
export interface AnimationFrame {
  readonly raster: Raster;
  /** Milliseconds before the next frame. */
  readonly delayMs: number;
}

/** Options for `kittyAnimation`: the placement's (as `encodeKitty`) and how often it plays. */
export interface KittyAnimationOptions extends KittyOptions {
  /** How many times it plays: 0 (default) forever, else that many times, then it stays on its last frame. */
  readonly plays?: number;
}

/** What `kittyAnimation` returns. */
export interface KittyAnimation {
  /** One string per escape sequence (so a multiplexer wrapper can wrap each one). */
  readonly sequences: readonly string[];
  readonly imageId: number;
  /** Frames the terminal holds (consecutive identical frames are one, their delays added). */
  readonly frames: number;
}

/** `v=` of `a=a`: 1 loops forever, n plays n-1 times (the protocol's rule). */
export function kittyLoopValue(plays: number): number {
  if (!Number.isInteger(plays) || plays < 0 || plays > 0xfffffffe)
    throw new RangeError(`plays must be a whole number from 0 (forever) up, got ${String(plays)}`);
  return plays === 0 ? 1 : plays + 1;
}

/** A delay as kitty's `z=`: whole milliseconds, at least 1 (0 would be read as "not given"). */
function gap(delayMs: number): number {
  return Math.max(1, Math.round(Number.isFinite(delayMs) ? delayMs : 0));
}

/** The smallest rectangle holding every pixel where `a` and `b` differ, or null when they are equal. */
export function changedRect(a: Raster, b: Raster): Rect | null {
  const { width, height } = a;
  const da = a.data;
  const db = b.data;
  let top = -1;
  let bottom = -1;
  let left = width;
  let right = -1;
  for (let y = 0; y < height; y++) {
    const row = y * width * 4;
    let first = -1;
    let last = -1;
    for (let x = 0; x < width; x++) {
      const i = row + x * 4;
      if (da[i] !== db[i] || da[i + 1] !== db[i + 1] || da[i + 2] !== db[i + 2] || da[i + 3] !== db[i + 3]) {
        if (first < 0) first = x;
        last = x;
      }
    }
    if (first < 0) continue;
    if (top < 0) top = y;
    bottom = y;
    left = Math.min(left, first);
    right = Math.max(right, last);
  }
  if (top < 0) return null;
  return { x: left, y: top, width: right - left + 1, height: bottom - top + 1 };
}

/** Consecutive identical frames merged into one with their delays added. */
function distinctFrames(frames: readonly AnimationFrame[]): { raster: Raster; delayMs: number }[] {
  const out: { raster: Raster; delayMs: number }[] = [];
  for (const f of frames) {
    const last = out[out.length - 1];
    if (last && changedRect(last.raster, f.raster) === null) last.delayMs += f.delayMs;
    else out.push({ raster: f.raster, delayMs: f.delayMs });
  }
  return out;
}

/**
 * The sequences that upload `frames` as one kitty animation at the cursor and start it.
 *
 * @example const a = kittyAnimation(frames, { columns: 20, rows: 10 }); write(a.sequences.join('')); later: write(kittyDelete(a.imageId))
 */
export function kittyAnimation(frames: readonly AnimationFrame[], options: KittyAnimationOptions = {}): KittyAnimation {
  const first = frames[0];
  if (!first) throw new RangeError('an animation needs at least one frame');
  validateRaster(first.raster);
  for (const f of frames) {
    validateRaster(f.raster);
    if (f.raster.width !== first.raster.width || f.raster.height !== first.raster.height)
      throw new RangeError(
        `every frame must be ${first.raster.width}x${first.raster.height}, got ${f.raster.width}x${f.raster.height}`,
      );
  }
  const loop = kittyLoopValue(options.plays ?? 0);
  const id = checkId(options.imageId ?? kittyImageId(), 'image id');
  const distinct = distinctFrames(frames);
  const sequences = kittySequences(distinct[0]?.raster ?? first.raster, { ...options, imageId: id }, 'T');
  if (distinct.length === 1) return { sequences, imageId: id, frames: 1 };
  // The root frame's delay is set on the animation (a=f sets only the frames it adds).
  sequences.push(apc(`a=a,i=${id},r=1,z=${gap(distinct[0]?.delayMs ?? 0)},q=2`));
  for (let n = 1; n < distinct.length; n++) {
    const previous = distinct[n - 1] as { raster: Raster };
    const current = distinct[n] as { raster: Raster; delayMs: number };
    // Distinct frames differ somewhere: the rectangle is never null here.
    const rect = changedRect(previous.raster, current.raster) as Rect;
    const payload = kittyPayload(cropRaster(current.raster, rect), options.compress ?? 'auto');
    const keys = [
      'a=f',
      `i=${id}`,
      `c=${n}`, // frame numbers start at 1 (the root): frame n+1 starts as a copy of frame n
      `x=${rect.x}`,
      `y=${rect.y}`,
      `s=${rect.width}`,
      `v=${rect.height}`,
      `f=${payload.format}`,
      ...(payload.compressed ? ['o=z'] : []),
      'X=1', // replace the rectangle's pixels, alpha included: each frame is the whole picture
      // The same for kitty 0.45.0-0.48.x, which read a=f's overwrite mode from C (a=c's key;
      // kitty#10379, fixed for 0.49); the spec gives a=f no C, so other versions ignore it.
      'C=1',
      `z=${gap(current.delayMs)}`,
      'q=2',
    ];
    sequences.push(...kittyChunks(keys.join(','), toBase64(payload.bytes), 'a=f,'));
  }
  sequences.push(apc(`a=a,i=${id},s=3,v=${loop},q=2`));
  return { sequences, imageId: id, frames: distinct.length };
}

/**
 * Stops a running animation where it is (`a=a,s=1`); it stays on screen until deleted.
 *
 * @example write(kittyStopAnimation(id))
 */
export function kittyStopAnimation(imageId: number): string {
  return apc(`a=a,i=${checkId(imageId, 'image id')},s=1,q=2`);
}

function apc(keys: string): string {
  return `\x1b_G${keys}\x1b\\`;
}
