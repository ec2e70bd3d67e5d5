/**
 * The one check for a count a caller gives (columns, rows, a side in pixels, an image id): a whole
 * number from 1 to `max`, or a `RangeError` that names it. One error class for every such check:
 * a number outside what is accepted is a `RangeError`, as in Node's own argument checks; a value
 * of the wrong shape (not an object, not bytes) stays a `TypeError`. See docs/core.md.
 */

/**
 * `value` when it is a whole number from 1 to `max` (default: any safe integer); otherwise a
 * `RangeError`: "columns must be a positive integer, got 1.5" or, past `max`, "columns must be at
 * most 10000, got 1000000000".
 *
 * @example positiveInteger(40, 'columns', 10_000) // 40
 */
export function positiveInteger(value: number, what: string, max: number = Number.MAX_SAFE_INTEGER): number {
  if (!Number.isInteger(value) || value < 1)
    throw new RangeError(`${what} must be a positive integer, got ${String(value)}`);
  if (value > max) throw new RangeError(`${what} must be at most ${max}, got ${String(value)}`);
  return value;
}
