/**
 * The size flags of `termsight show` as people write them: `--width`/`--height` in cells (`40`),
 * a percentage of the terminal (`50%`) or pixels (`400px`); `--fit`, `--align`; `--grid COLSxROWS`.
 * Pure: each parser turns the flag's text into a value or a UsageError of one line naming what the
 * flag takes (exit 2). See docs/cli.md, "Sizes".
 */
import { lengthInCells as cellsOf } from '../draw/plan.js';
import type { Length as DrawLength } from '../draw/types.js';
import { ALIGNMENTS, type Align, FIT_MODES, type FitMode } from '../render/geometry/fit.js';
import { MAX_CELLS } from '../render/geometry/limits.js';
import { describeLength, MAX_LENGTH_PIXELS, shownValue } from './args.js';
import { UsageError } from './context.js';

/** A length as given: cells, a percentage of the terminal, or pixels. */
export type Length =
  | { readonly unit: 'cells'; readonly value: number }
  | { readonly unit: 'percent'; readonly value: number }
  | { readonly unit: 'pixels'; readonly value: number };

/**
 * `--width`/`--height`'s text as a length; undefined when absent.
 *
 * @example parseLength('--width', '400px') // { unit: 'pixels', value: 400 }
 */
export function parseLength(flag: '--width' | '--height', text: string | undefined): Length | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(%|px)?$/.exec(text);
  const value = m ? Number(m[1]) : Number.NaN;
  const unit = m?.[2] === '%' ? 'percent' : m?.[2] === 'px' ? 'pixels' : 'cells';
  const max = unit === 'percent' ? 100 : unit === 'pixels' ? MAX_LENGTH_PIXELS : MAX_CELLS;
  if (!(value >= 1 && value <= max))
    throw new UsageError(`${flag} must be ${describeLength(flag)}, got ${shownValue(text)}`);
  return { unit, value };
}

/**
 * A flag's length as the drawing plan takes it (`DrawRequest.columns`/`rows`).
 *
 * @example drawLength({ unit: 'percent', value: 50 }) // { percent: 50 }
 */
export function drawLength(length: Length): DrawLength {
  return length.unit === 'cells'
    ? length.value
    : length.unit === 'percent'
      ? { percent: length.value }
      : { pixels: length.value };
}

/**
 * A length in whole cells along one axis (the plan's `lengthInCells`): cells as given; a
 * percentage of the terminal's `whole` cells, rounded to the nearest; pixels in cells of
 * `cellSide` pixels, rounded down. At least 1.
 *
 * @example lengthInCells({ unit: 'pixels', value: 400 }, 80, 9) // 44
 */
export function lengthInCells(length: Length, whole: number, cellSide: number): number {
  return cellsOf(drawLength(length), whole, cellSide);
}

/** `--fit`'s value; undefined when absent. */
export function parseFit(text: string | undefined): FitMode | undefined {
  return text === undefined ? undefined : choice('--fit', text, FIT_MODES);
}

/** `--align`'s value; undefined when absent. */
export function parseAlign(text: string | undefined): Align | undefined {
  return text === undefined ? undefined : choice('--align', text, ALIGNMENTS);
}

function choice<T extends string>(flag: string, text: string, known: readonly T[]): T {
  const found = known.find((k) => k === text.trim().toLowerCase());
  if (found === undefined) throw new UsageError(`${flag} must be one of ${known.join(', ')}, got ${shownValue(text)}`);
  return found;
}

/** A grid of thumbnails: so many columns of pictures, each 1/rows of the box's height. */
export interface Grid {
  readonly columns: number;
  readonly rows: number;
}

/** The most thumbnails across or down a grid. */
export const MAX_GRID = 100;

/**
 * `--grid COLSxROWS` (`4x2`; `4` alone is one row of four); undefined when absent.
 *
 * @example parseGrid('4x2') // { columns: 4, rows: 2 }
 */
export function parseGrid(text: string | undefined): Grid | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)(?:[x×](\d+))?$/i.exec(text.trim());
  const columns = m ? Number(m[1]) : Number.NaN;
  const rows = m?.[2] === undefined ? 1 : Number(m[2]);
  if (!(columns >= 1 && columns <= MAX_GRID && rows >= 1 && rows <= MAX_GRID))
    throw new UsageError(
      `--grid must be COLUMNSxROWS of pictures, each from 1 to ${MAX_GRID} (such as 4x2), got ${shownValue(text)}`,
    );
  return { columns, rows };
}
