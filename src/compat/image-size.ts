/**
 * terminal-image's sizing rules as pure functions: how `width`/`height` (cells, or `'50%'` of the
 * terminal) are read, and the size of its half-block text picture, so termsight's picture has the
 * same number of columns and lines as terminal-image 4.3.0's for the same options and terminal.
 */

/** A terminal's size in cells. */
export interface TerminalSize {
  readonly columns: number;
  readonly rows: number;
}

/** terminal-image's size options: cells, or a percentage of the terminal (`'50%'`). */
export interface SizeOptions {
  readonly width?: string | number;
  readonly height?: string | number;
  readonly preserveAspectRatio?: boolean;
}

/** Rows the incumbent leaves free below a text picture (its log-update adds a newline). */
export const ROW_OFFSET = 2;

/**
 * A `width` or `height` value in cells: a number as it is, `'N%'` (0 < N <= 100) of `base`,
 * rounded down; anything else throws terminal-image's error.
 *
 * @example parseDimension('50%', 80) // 40
 */
export function parseDimension(value: unknown, base: number): number {
  if (typeof value === 'string' && value.endsWith('%')) {
    const percent = Number.parseFloat(value);
    if (!Number.isNaN(percent) && percent > 0 && percent <= 100) return Math.floor((percent / 100) * base);
  }
  if (typeof value === 'number') return value;
  throw new Error(`${String(value)} is not a valid dimension value`);
}

function scale(width: number, height: number, originalWidth: number, originalHeight: number) {
  const ratio = originalWidth / originalHeight;
  const factor = width / height > ratio ? height / originalHeight : width / originalWidth;
  return { width: factor * originalWidth, height: factor * originalHeight };
}

/**
 * The half-block picture's size: `width` columns and `height` pixel rows, two to a line (an odd
 * last row is dropped, as the incumbent's loop does), fitted to the terminal as terminal-image does.
 *
 * @example blockPictureSize({ width: 512, height: 512 }, { width: 20 }, { columns: 80, rows: 24 }) // { width: 20, height: 20 }
 */
export function blockPictureSize(
  image: { readonly width: number; readonly height: number },
  options: SizeOptions,
  terminal: TerminalSize,
): { width: number; height: number } {
  const columns = terminal.columns || 80;
  const rows = Math.max(1, (terminal.rows || 24) - ROW_OFFSET);
  const { width: inputWidth, height: inputHeight, preserveAspectRatio } = options;
  let width: number;
  let height: number;
  if (inputHeight && inputWidth) {
    width = parseDimension(inputWidth, columns);
    height = parseDimension(inputHeight, rows) * 2;
    if (preserveAspectRatio) ({ width, height } = scale(width, height, image.width, image.height));
  } else if (inputWidth) {
    width = parseDimension(inputWidth, columns);
    height = (image.height * width) / image.width;
  } else if (inputHeight) {
    height = parseDimension(inputHeight, rows) * 2;
    width = (image.width * height) / image.height;
  } else {
    ({ width, height } = scale(columns, rows * 2, image.width, image.height));
  }
  if (width > columns) ({ width, height } = scale(columns, rows * 2, width, height));
  return { width: Math.round(width), height: Math.round(height) };
}

/**
 * The box in cells a pixel picture (kitty, iTerm2, sixel) is fitted into: the same option parsing,
 * against the whole terminal less one row for the prompt, never wider or taller than the terminal.
 *
 * @example pictureBox({ width: '50%' }, { columns: 80, rows: 24 }) // { columns: 40, rows: 23 }
 */
export function pictureBox(options: SizeOptions, terminal: TerminalSize): { columns: number; rows: number } {
  const columns = terminal.columns || 80;
  const rows = Math.max(1, (terminal.rows || 24) - 1);
  const w = options.width === undefined ? columns : parseDimension(options.width, columns);
  const h = options.height === undefined ? rows : parseDimension(options.height, rows);
  const clamp = (v: number, max: number) => Math.max(1, Math.min(max, Math.round(v)));
  return { columns: clamp(w, columns), rows: clamp(h, rows) };
}

/**
 * The loop count of an animated GIF (the NETSCAPE2.0 application extension): 0 means forever,
 * `null` means the extension is absent (played once, as the incumbent does).
 *
 * @example gifLoopCount(bytes) // 0
 */
export function gifLoopCount(bytes: Uint8Array): number | null {
  const tag = [0x4e, 0x45, 0x54, 0x53, 0x43, 0x41, 0x50, 0x45, 0x32, 0x2e, 0x30]; // NETSCAPE2.0
  outer: for (let i = 0; i + tag.length + 4 < bytes.length; i++) {
    for (let j = 0; j < tag.length; j++) if (bytes[i + j] !== tag[j]) continue outer;
    const at = i + tag.length;
    if (bytes[at] === 3 && bytes[at + 1] === 1) return bytes[at + 2] | (bytes[at + 3] << 8);
    return null;
  }
  return null;
}

/** Whether each frame is drawn, frame after frame, under a maximum frame rate. */
export interface FrameClock {
  /** The next frame, shown for `delayMs`: whether to draw it. */
  next(delayMs: number): boolean;
}

/**
 * terminal-image's frame-rate rule (its gif.js): the first frame is drawn; a later one when the
 * time shown since the last drawn one, plus its own, reaches 1000/rate (a 0 ms frame counts 10 ms);
 * the remainder carries over. The state runs across loops, as the incumbent's does.
 *
 * @example const clock = frameClock(10); [50, 50, 50, 50].map((d) => clock.next(d)) // [true, true, false, true]
 */
export function frameClock(maximumFrameRate: number): FrameClock {
  const minInterval = maximumFrameRate > 0 ? 1000 / maximumFrameRate : 0;
  let elapsed = 0;
  let initial = true;
  return {
    next(delayMs: number): boolean {
      const duration = delayMs === 0 ? 10 : delayMs;
      const render = minInterval === 0 || initial || elapsed + duration >= minInterval;
      if (minInterval === 0) elapsed = 0;
      else if (initial) elapsed = duration;
      else if (render) elapsed = (elapsed + duration) % minInterval;
      else elapsed += duration;
      initial = false;
      return render;
    },
  };
}

/**
 * Which frames are drawn over `loops` loops (the last frame is always drawn at the very end, as
 * the incumbent draws it when the frame rate skipped it).
 *
 * @example gifSchedule([50, 50, 50, 50], 10, 1) // [true, true, false, true]
 */
export function gifSchedule(delaysMs: readonly number[], maximumFrameRate: number, loops = 1): boolean[] {
  const clock = frameClock(maximumFrameRate);
  const out: boolean[] = [];
  for (let loop = 0; loop < loops; loop++) for (const delay of delaysMs) out.push(clock.next(delay));
  if (out.length > 0) out[out.length - 1] = true;
  return out;
}
