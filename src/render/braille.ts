/**
 * Braille pictures: each cell is U+2800 plus a bit pattern for its 2x4 dots, so a terminal with
 * no graphics at all still shows eight "pixels" a cell.
 *
 * A dot is lit when its luminance is above a threshold that adapts to its neighbourhood and is
 * spread by a 4x4 ordered-dither matrix: threshold = mean/2 + 64 + bayer offset (±56), where
 * `mean` is the average luminance of the 3x3 cells around it. Flat areas become dither patterns
 * in proportion to their brightness, edges stay sharp because the threshold follows the local
 * level, and pure white / pure black / one-pixel checkers come out exactly. Pixels with alpha
 * below 128 are never lit.
 *
 * With colour, each cell's foreground is the average colour of its lit dots (24-bit or the
 * nearest xterm-256 colour); the SGR is written only when it changes, and every line ends with
 * an SGR reset. Lit dots mark bright pixels, which suits dark terminal backgrounds.
 */
import type { Raster } from './raster.js';
import type { ColorDepth } from './options.js';
import { validateRaster } from './raster.js';
import { nearest256, SGR_RESET } from './color.js';

/** Options for the braille renderer. */
export interface BrailleOptions {
  /** Foreground colour per cell. Default 'truecolor'. */
  readonly color?: ColorDepth;
  /** Colour that half-transparent pixels are blended onto. Default black. */
  readonly background?: readonly [number, number, number];
}

/** Dot bit for (x, y) within a cell, x 0..1, y 0..3, indexed y * 2 + x. */
export const BRAILLE_BITS: readonly number[] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80];

// 4x4 Bayer matrix; offsets spread ±56 around the threshold.
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
const OFFSET_INT = new Int32Array(16);
for (let i = 0; i < 16; i++) OFFSET_INT[i] = Math.round(((BAYER[i] + 0.5) / 16 - 0.5) * 120 * 256); // luminance x 256
const BIT_AT = Int32Array.from([0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]);

/** Which dots are lit: one byte (bit pattern) per cell, row-major, plus the grid size. */
export interface BrailleDots {
  readonly columns: number;
  readonly rows: number;
  readonly bits: Uint8Array;
  /** Per cell, the average colour of its lit dots, packed 0xRRGGBB (0 where no dot is lit). */
  readonly colors: Uint32Array;
}

/**
 * Decides the dots for a raster whose pixels are the dots (2 columns x 4 rows a cell).
 *
 * @example brailleDots({ width: 2, height: 4, data: white }).bits[0] // 0xff
 */
export function brailleDots(raster: Raster, background: readonly [number, number, number] = [0, 0, 0]): BrailleDots {
  validateRaster(raster);
  const { width, height, data } = raster;
  const columns = (width + 1) >> 1;
  const rows = (height + 3) >> 2;
  const n = width * height;
  const [br, bg, bb] = background;
  // Luminance x 256 (0..65280) of each pixel blended onto the background; NONE when transparent.
  // Integers throughout: this loop is most of the renderer's time.
  const NONE = 0xffff;
  const lum = new Uint16Array(n);
  const cells = columns * rows;
  const sum = new Float64Array(cells);
  const count = new Uint16Array(cells);
  let blended = false;
  for (let y = 0, i = 0; y < height; y++) {
    const crow = (y >> 2) * columns;
    for (let x = 0; x < width; x++, i++) {
      const p = i << 2;
      const a = data[p + 3];
      if (a < 128) { lum[i] = NONE; continue; }
      let v: number;
      if (a === 255) v = 54 * data[p] + 183 * data[p + 1] + 19 * data[p + 2];
      else {
        blended = true;
        const k = a / 255, j = 1 - k;
        v = (54 * (data[p] * k + br * j) + 183 * (data[p + 1] * k + bg * j) + 19 * (data[p + 2] * k + bb * j)) | 0;
      }
      lum[i] = v;
      const c = crow + (x >> 1);
      sum[c] += v;
      count[c]++;
    }
  }
  // Threshold base per cell: half the mean luminance of the 3x3 cells around it, plus 64.
  const base = new Int32Array(cells);
  for (let cy = 0; cy < rows; cy++) {
    for (let cx = 0; cx < columns; cx++) {
      let s = 0, k = 0;
      for (let dy = cy > 0 ? -1 : 0, ey = cy + 1 < rows ? 1 : 0; dy <= ey; dy++) {
        const b0 = (cy + dy) * columns;
        for (let dx = cx > 0 ? -1 : 0, ex = cx + 1 < columns ? 1 : 0; dx <= ex; dx++) {
          s += sum[b0 + cx + dx];
          k += count[b0 + cx + dx];
        }
      }
      base[cy * columns + cx] = Math.round((k > 0 ? s / k : 0) * 0.5) + 64 * 256;
    }
  }
  // Cell by cell: one threshold base, then the cell's (up to) 8 pixels.
  const bits = new Uint8Array(cells);
  const colors = new Uint32Array(cells);
  const off = OFFSET_INT;
  for (let cy = 0; cy < rows; cy++) {
    const y0 = cy << 2;
    const ylim = Math.min(4, height - y0);
    for (let cx = 0; cx < columns; cx++) {
      const c = cy * columns + cx;
      const t = base[c];
      const x0 = cx << 1;
      const xlim = x0 + 1 < width ? 2 : 1;
      let b = 0, r = 0, g = 0, bl = 0, k = 0;
      for (let dy = 0; dy < ylim; dy++) {
        const y = y0 + dy;
        const row = y * width;
        const ob = (y & 3) << 2;
        for (let dx = 0; dx < xlim; dx++) {
          const x = x0 + dx;
          const i = row + x;
          const v = lum[i];
          if (v === NONE || v <= t + off[ob + (x & 3)]) continue;
          b |= BIT_AT[(dy << 1) | dx];
          const p = i << 2;
          if (blended && data[p + 3] !== 255) {
            const a = data[p + 3] / 255, j = 1 - a;
            r += (data[p] * a + br * j + 0.5) | 0;
            g += (data[p + 1] * a + bg * j + 0.5) | 0;
            bl += (data[p + 2] * a + bb * j + 0.5) | 0;
          } else {
            r += data[p];
            g += data[p + 1];
            bl += data[p + 2];
          }
          k++;
        }
      }
      if (k === 0) continue;
      bits[c] = b;
      const h = k >> 1;
      colors[c] = ((((r + h) / k) | 0) << 16) | ((((g + h) / k) | 0) << 8) | (((bl + h) / k) | 0);
    }
  }
  return { columns, rows, bits, colors };
}

// Decimal digits of 0..255 as UTF-16 code units, for writing SGR numbers without strings.
const DIGITS: number[][] = [];
for (let v = 0; v < 256; v++) DIGITS.push(Array.from(String(v), (ch) => ch.charCodeAt(0)));

/** Code units: ESC [ 3 8 ; 2 ;  and  ESC [ 3 8 ; 5 ;  and the reset ESC [ 0 m. */
const SGR_TRUE = Array.from('\x1b[38;2;', (c) => c.charCodeAt(0));
const SGR_256 = Array.from('\x1b[38;5;', (c) => c.charCodeAt(0));
const SGR_END = Array.from(SGR_RESET, (c) => c.charCodeAt(0));
const SEMI = 0x3b;
const M = 0x6d;

/**
 * The text lines of a braille picture of `raster` (its pixels are the dots), without line
 * breaks; each line of a coloured picture ends with an SGR reset.
 */
export function brailleLines(raster: Raster, options: BrailleOptions = {}): string[] {
  const depth = options.color ?? 'truecolor';
  const { columns, rows, bits, colors } = brailleDots(raster, options.background);
  // Written as UTF-16 code units into one buffer (at most 20 a cell, 4 a line end), then
  // decoded line by line: far faster than concatenating many small strings.
  const buf = new Uint16Array(columns * rows * 20 + rows * 4);
  const ends: number[] = [];
  let o = 0;
  const put = (units: readonly number[]): void => { for (let k = 0; k < units.length; k++) buf[o++] = units[k]; };
  for (let cy = 0; cy < rows; cy++) {
    let current = -1;
    for (let cx = 0, c = cy * columns; cx < columns; cx++, c++) {
      const b = bits[c];
      if (b !== 0 && depth !== 'none') {
        const col = colors[c];
        if (depth === '256') {
          const key = nearest256(col >>> 16, (col >>> 8) & 255, col & 255);
          if (key !== current) { current = key; put(SGR_256); put(DIGITS[key]); buf[o++] = M; }
        } else if (col !== current) {
          current = col;
          put(SGR_TRUE); put(DIGITS[col >>> 16]); buf[o++] = SEMI; put(DIGITS[(col >>> 8) & 255]); buf[o++] = SEMI; put(DIGITS[col & 255]); buf[o++] = M;
        }
      }
      buf[o++] = 0x2800 + b;
    }
    if (depth !== 'none') put(SGR_END);
    ends.push(o);
  }
  const text = Buffer.from(buf.buffer, 0, o * 2).toString('utf16le');
  const lines: string[] = [];
  let from = 0;
  for (const e of ends) { lines.push(text.slice(from, e)); from = e; }
  return lines;
}

/**
 * A braille picture of `raster` (its pixels are the dots: fit it first), lines joined by '\n'.
 *
 * @example process.stdout.write(encodeBraille(dotsRaster, { color: '256' }) + '\n')
 */
export function encodeBraille(raster: Raster, options: BrailleOptions = {}): string {
  return brailleLines(raster, options).join('\n');
}
