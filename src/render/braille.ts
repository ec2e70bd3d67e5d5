/**
 * Braille pictures: each cell is U+2800 plus a bit pattern for its 2x4 dots, so a terminal with
 * no graphics at all still shows eight "pixels" a cell.
 *
 * A dot is a mark drawn on the terminal's background, so what decides it is how far the pixel
 * stands out from that background (`background`, the probe's OSC 11 answer; default black): its
 * "level" is the largest of its three channel distances from the background, each as a share of
 * the farthest that channel can be from it (so on black or white the plain distance), 0..255. A dot is
 * lit when its level is above a threshold that adapts to its neighbourhood and is spread by a
 * 4x4 ordered-dither matrix: threshold = mean/2 + 64 + bayer offset (±56), where `mean` is the
 * average level of the 3x3 cells around it. Flat areas become dither patterns in proportion to
 * how far they stand out, edges stay sharp because the threshold follows the local level, and
 * pure white / pure black / one-pixel checkers come out exactly.
 *
 * Why the largest channel difference rather than luminance: a dot's colour is shown by its
 * foreground, so the dot only has to say "something is here". Luminance would make saturated
 * blue (7% of white's luminance) all but vanish on black and yellow vanish on white; by channel
 * distance every colour with a channel at the far end from the background's stands out fully
 * (the primaries and secondaries on black, white or a dark grey light all their dots), while greys on black keep exactly their old luminance
 * (54 + 183 + 19 = 256), so photographs on dark terminals dither as before. On a light
 * background the picture comes out as ink: dark pixels light dots, white ones leave them off.
 * Pixels with alpha below 128 are never lit; others are blended onto the background first.
 *
 * With colour, each cell's foreground is the average colour of its lit dots (24-bit or the
 * nearest xterm-256 colour); the SGR is written only when it changes, and every line ends with
 * an SGR reset.
 */
import type { Raster } from './raster.js';
import type { ColorDepth } from './options.js';
import { validateRaster } from './raster.js';
import { nearest256, SGR_RESET } from './color.js';

/** Options for the braille renderer. */
export interface BrailleOptions {
  /** Foreground colour per cell. Default 'truecolor'. */
  readonly color?: ColorDepth;
  /**
   * The terminal's background: dots light where pixels stand out from it, and half-transparent
   * pixels are blended onto it. Default black.
   */
  readonly background?: readonly [number, number, number];
}

/** Dot bit for (x, y) within a cell, x 0..1, y 0..3, indexed y * 2 + x. */
export const BRAILLE_BITS: readonly number[] = [0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80];

// 4x4 Bayer matrix; offsets spread ±56 around the threshold.
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
const OFFSET_INT = new Int32Array(16);
for (let i = 0; i < 16; i++) OFFSET_INT[i] = Math.round(((BAYER[i] + 0.5) / 16 - 0.5) * 120 * 256); // level x 256
// The same offsets laid out per cell: OFF[parity * 8 + dy * 2 + dx], parity = cell column & 1
// (a cell covers 2 of the matrix's 4 columns, so cells alternate between two sets of 8).
const OFF = new Int32Array(16);
for (let p = 0; p < 2; p++) for (let dy = 0; dy < 4; dy++) for (let dx = 0; dx < 2; dx++) OFF[p * 8 + dy * 2 + dx] = OFFSET_INT[dy * 4 + p * 2 + dx];
const BIT_AT = Int32Array.from([0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]);
// Reciprocals for exact integer division by multiplication: floor(x / d) === floor(x * RECIP[d])
// for the non-negative integers used here (checked exhaustively for every count and sum the
// encoder can meet), because the reciprocal is nudged up by far less than the gap to the next
// multiple of d. Division is the slowest arithmetic in the per-cell loop.
const RECIP = new Float64Array(160);
for (let d = 1; d < RECIP.length; d++) RECIP[d] = (1 / d) * (1 + 2 ** -40);
// The fast paths read a pixel as one little-endian 32-bit word (R in the low byte).
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Which dots are lit: one byte (bit pattern) per cell, row-major, plus the grid size. */
export interface BrailleDots {
  readonly columns: number;
  readonly rows: number;
  readonly bits: Uint8Array;
  /** Per cell, the average colour of its lit dots, packed 0xRRGGBB (0 where no dot is lit). */
  readonly colors: Uint32Array;
}

/**
 * How far channel value `v` stands out from the background's `b`, 0..255: the distance as a
 * share of the farthest any value can be from `b`, so that on a dark grey background pure red
 * stands out fully, as it does on black (on black and white this is the plain distance). A
 * pixel's level is the largest of its three.
 *
 * @example channelLevel(255, 40) // 255; channelLevel(128, 0) // 128
 */
export function channelLevel(v: number, b: number): number {
  return Math.round((Math.abs(v - b) * 255) / Math.max(b, 255 - b));
}

/**
 * Per channel value, its distance from the background's channel x 256 (a pixel's level is the
 * largest of its three), and the larger of the red and green ones for each red + 256 x green
 * (the fast path for backgrounds that are not black or white). Kept for the last background
 * asked for: the probe's answer rarely changes between pictures.
 */
interface LevelTables { key: number; r: Uint16Array; g: Uint16Array; b: Uint16Array; rg: Uint16Array }
let tables: LevelTables = { key: -1, r: new Uint16Array(256), g: new Uint16Array(256), b: new Uint16Array(256), rg: new Uint16Array(0) };
function levelTables(br: number, bg: number, bb: number, withRg: boolean): LevelTables {
  const key = (br << 16) | (bg << 8) | bb;
  if (tables.key !== key) {
    const of = (b: number): Uint16Array => Uint16Array.from({ length: 256 }, (_, v) => channelLevel(v, b) << 8);
    tables = { key, r: of(br), g: of(bg), b: of(bb), rg: new Uint16Array(0) };
  }
  if (withRg && tables.rg.length === 0) {
    const { r, g } = tables, rg = new Uint16Array(65536);
    for (let y = 0; y < 256; y++) for (let x = 0; x < 256; x++) rg[(y << 8) | x] = Math.max(r[x], g[y]);
    tables.rg = rg;
  }
  return tables;
}

/**
 * Levels and sums of the whole cells of one cell row read as 32-bit pixels, on a background
 * whose channels are each 0 or 255 (black, white, the primaries): `flip` has 0xff in the bytes
 * of the channels that are 255, so a channel's distance is its byte of `pixel ^ flip`, and the
 * level the largest of those, with no tables (the common case, kept about as cheap as
 * luminance). Flags in `slow` the cells with a pixel that is not fully opaque (their values are
 * then to be redone). Cell by cell, all four rows at once: one store of each cell's sum.
 */
function opaqueCellsFlip(px: Int32Array, width: number, y0: number, cellsAcross: number, c0: number, level: Uint16Array, sum: Int32Array, slow: Uint8Array,
  flip: number): void {
  let i = y0 * width;
  for (let c = c0, end = c0 + cellsAcross, l = c0 << 3; c < end; c++, i += 2, l += 8) {
    let s = 0, all = -1;
    for (let dy = 0, j = i; dy < 8; dy += 2, j += width) {
      const p0 = px[j], p1 = px[j + 1];
      all &= p0 & p1;
      const q0 = p0 ^ flip, q1 = p1 ^ flip;
      // Math.max of small integers compiles to compare-and-select: no branch to mispredict.
      const v0 = Math.max(q0 & 255, (q0 >>> 8) & 255, (q0 >>> 16) & 255);
      const v1 = Math.max(q1 & 255, (q1 >>> 8) & 255, (q1 >>> 16) & 255);
      level[l + dy] = v0 << 8;
      level[l + dy + 1] = v1 << 8;
      s += v0 + v1;
    }
    sum[c] = s << 8;
    if (all >>> 24 !== 255) slow[c] = 1;
  }
}

/**
 * As `opaqueCellsFlip`, for any background: `trg` holds the larger of the red and green
 * distances (x 256) for each red + 256 x green, `tb` the blue distance: two loads and one maximum.
 */
function opaqueCellsTable(px: Int32Array, width: number, y0: number, cellsAcross: number, c0: number, level: Uint16Array, sum: Int32Array, slow: Uint8Array,
  trg: Uint16Array, tb: Uint16Array): void {
  let i = y0 * width;
  for (let c = c0, end = c0 + cellsAcross, l = c0 << 3; c < end; c++, i += 2, l += 8) {
    let s = 0, all = -1;
    for (let dy = 0, j = i; dy < 8; dy += 2, j += width) {
      const p0 = px[j], p1 = px[j + 1];
      all &= p0 & p1;
      const v0 = Math.max(trg[p0 & 0xffff], tb[(p0 >>> 16) & 255]);
      const v1 = Math.max(trg[p1 & 0xffff], tb[(p1 >>> 16) & 255]);
      level[l + dy] = v0;
      level[l + dy + 1] = v1;
      s += v0 + v1;
    }
    sum[c] = s;
    if (all >>> 24 !== 255) slow[c] = 1;
  }
}

// Working buffers of brailleDots, grown as needed and reused: fresh megabyte arrays cost page
// faults and zeroing on every picture. Only `bits` and `colors` are handed out, so only they are
// allocated per call.
let levelScratch = new Uint16Array(0);
let cellScratch = new Int32Array(0);
let flagScratch = new Uint8Array(0);

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
  const cells = columns * rows;
  // Whole channel values 0..255 (the probe's answer is exact; anything else is clamped).
  const [br, bg, bb] = background.map((v) => Math.min(255, Math.max(0, Math.round(v))));
  // Black, white and the primaries: channel distances by XOR (see opaqueCellsFlip).
  const flipped = (br === 0 || br === 255) && (bg === 0 || bg === 255) && (bb === 0 || bb === 255);
  const flip = (br & 255) | ((bg & 255) << 8) | ((bb & 255) << 16);
  // Whole opaque cells (the common case) take unrolled, branch-free paths over 32-bit pixels;
  // edge cells and cells with half-transparent pixels ("slow") take the general per-pixel path.
  const px = LITTLE_ENDIAN && (data.byteOffset & 3) === 0 ? new Int32Array(data.buffer, data.byteOffset, width * height) : null;
  const fullColumns = px === null ? 0 : width >> 1;
  const fullRows = px === null ? 0 : height >> 2;
  const { r: tr, g: tg, b: tb, rg: trg } = levelTables(br, bg, bb, !flipped && fullRows > 0 && fullColumns > 0);
  // Pass 1: level x 256 (0..65280) of each pixel blended onto the background, stored cell by
  // cell (8 a cell, dy * 2 + dx), and each cell's sum and count of visible pixels. Transparent
  // pixels keep level 0, which is below every threshold, so they are never lit.
  // Every level and count is written below before it is read; sums and flags start at zero.
  if (levelScratch.length < cells * 8) levelScratch = new Uint16Array(Math.max(cells * 8, levelScratch.length * 2));
  if (cellScratch.length < cells * 3) cellScratch = new Int32Array(Math.max(cells * 3, cellScratch.length * 2));
  if (flagScratch.length < cells * 2) flagScratch = new Uint8Array(Math.max(cells * 2, flagScratch.length * 2));
  const level = levelScratch;
  const sum = cellScratch.subarray(0, cells).fill(0);
  const count = flagScratch.subarray(0, cells);
  const slow = flagScratch.subarray(cells, cells * 2).fill(0);
  for (let cy = 0; cy < rows; cy++) {
    const y0 = cy << 2;
    const ylim = Math.min(4, height - y0);
    const c0 = cy * columns;
    // Whole opaque cells, read row by row (sequential memory); a cell with any pixel not fully
    // opaque is flagged and redone below.
    if (cy < fullRows) {
      if (flipped) opaqueCellsFlip(px!, width, y0, fullColumns, c0, level, sum, slow, flip);
      else opaqueCellsTable(px!, width, y0, fullColumns, c0, level, sum, slow, trg, tb);
    }
    for (let cx = 0, c = c0; cx < columns; cx++, c++) {
      if (cx < fullColumns && cy < fullRows && slow[c] === 0) { count[c] = 8; continue; }
      const l = c << 3;
      const x0 = cx << 1;
      for (let e = 0; e < 8; e++) level[l + e] = 0;
      const xlim = x0 + 1 < width ? 2 : 1;
      let s = 0, k = 0, half = ylim < 4 || xlim < 2 || px === null ? 1 : 0;
      for (let dy = 0; dy < ylim; dy++) {
        for (let dx = 0; dx < xlim; dx++) {
          const p = ((y0 + dy) * width + x0 + dx) << 2;
          const a = data[p + 3];
          if (a < 128) continue;
          let v: number;
          if (a === 255) v = Math.max(tr[data[p]], tg[data[p + 1]], tb[data[p + 2]]);
          else {
            // Blended and rounded per channel, as the colour of a lit dot is below.
            half = 1;
            const q = a / 255, j = 1 - q;
            v = Math.max(tr[(data[p] * q + br * j + 0.5) | 0], tg[(data[p + 1] * q + bg * j + 0.5) | 0], tb[(data[p + 2] * q + bb * j + 0.5) | 0]);
          }
          level[l + dy * 2 + dx] = v;
          s += v;
          k++;
        }
      }
      sum[c] = s;
      count[c] = k;
      slow[c] = half;
    }
  }
  // Pass 2: sums over each cell and its left and right neighbours, for the 3x3 mean below.
  const hsum = cellScratch.subarray(cells, cells * 2);
  const hcount = cellScratch.subarray(cells * 2, cells * 3);
  for (let cy = 0; cy < rows; cy++) {
    const c0 = cy * columns, last = c0 + columns - 1;
    for (let c = c0; c <= last; c++) {
      let s = sum[c], k = count[c];
      if (c > c0) { s += sum[c - 1]; k += count[c - 1]; }
      if (c < last) { s += sum[c + 1]; k += count[c + 1]; }
      hsum[c] = s;
      hcount[c] = k;
    }
  }
  // Pass 3, cell by cell: the threshold base (half the mean level of the 3x3 cells around,
  // plus 64), then the cell's (up to) 8 pixels against it plus their Bayer offsets.
  const bits = new Uint8Array(cells);
  const colors = new Uint32Array(cells);
  for (let cy = 0; cy < rows; cy++) {
    const y0 = cy << 2;
    const ylim = Math.min(4, height - y0);
    const up = cy > 0 ? columns : 0, down = cy + 1 < rows ? columns : 0;
    for (let cx = 0, c = cy * columns; cx < columns; cx++, c++) {
      let s = hsum[c], k = hcount[c];
      if (up !== 0) { s += hsum[c - up]; k += hcount[c - up]; }
      if (down !== 0) { s += hsum[c + down]; k += hcount[c + down]; }
      // Math.round((s / k) * 0.5) as exact integer arithmetic: floor((s + k) / 2k).
      const t = (k > 0 ? ((s + k) * RECIP[k << 1]) | 0 : 0) + 64 * 256;
      const l = c << 3;
      const o = (cx & 1) << 3;
      const x0 = cx << 1;
      if (slow[c] === 0) {
        // Branch-free: m is -1 for a lit dot, 0 otherwise.
        const m0 = (t + OFF[o] - level[l]) >> 31, m1 = (t + OFF[o + 1] - level[l + 1]) >> 31;
        const m2 = (t + OFF[o + 2] - level[l + 2]) >> 31, m3 = (t + OFF[o + 3] - level[l + 3]) >> 31;
        const m4 = (t + OFF[o + 4] - level[l + 4]) >> 31, m5 = (t + OFF[o + 5] - level[l + 5]) >> 31;
        const m6 = (t + OFF[o + 6] - level[l + 6]) >> 31, m7 = (t + OFF[o + 7] - level[l + 7]) >> 31;
        const b = (m0 & 0x01) | (m1 & 0x08) | (m2 & 0x02) | (m3 & 0x10) | (m4 & 0x04) | (m5 & 0x20) | (m6 & 0x40) | (m7 & 0x80);
        if (b === 0) continue;
        const i0 = y0 * width + x0, i1 = i0 + width, i2 = i1 + width, i3 = i2 + width;
        const p0 = px![i0] & m0, p1 = px![i0 + 1] & m1, p2 = px![i1] & m2, p3 = px![i1 + 1] & m3;
        const p4 = px![i2] & m4, p5 = px![i2 + 1] & m5, p6 = px![i3] & m6, p7 = px![i3 + 1] & m7;
        const n = -(m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7), h = n >> 1;
        // Red and blue summed side by side in 16-bit lanes, green in place (8 x 255 cannot carry
        // into the next lane): half the work of summing each channel apart.
        const rb = (p0 & 0xff00ff) + (p1 & 0xff00ff) + (p2 & 0xff00ff) + (p3 & 0xff00ff) + (p4 & 0xff00ff) + (p5 & 0xff00ff) + (p6 & 0xff00ff) + (p7 & 0xff00ff);
        const gs = (p0 & 0xff00) + (p1 & 0xff00) + (p2 & 0xff00) + (p3 & 0xff00) + (p4 & 0xff00) + (p5 & 0xff00) + (p6 & 0xff00) + (p7 & 0xff00);
        const r = rb & 0xffff, g = gs >>> 8, bl = rb >>> 16;
        bits[c] = b;
        const f = RECIP[n];
        colors[c] = ((((r + h) * f) | 0) << 16) | ((((g + h) * f) | 0) << 8) | (((bl + h) * f) | 0);
        continue;
      }
      const xlim = x0 + 1 < width ? 2 : 1;
      let b = 0, r = 0, g = 0, bl = 0, n = 0;
      for (let dy = 0; dy < ylim; dy++) {
        for (let dx = 0; dx < xlim; dx++) {
          const e = dy * 2 + dx;
          if (level[l + e] <= t + OFF[o + e]) continue;
          b |= BIT_AT[e];
          const p = ((y0 + dy) * width + x0 + dx) << 2;
          const a = data[p + 3];
          if (a !== 255) {
            const q = a / 255, j = 1 - q;
            r += (data[p] * q + br * j + 0.5) | 0;
            g += (data[p + 1] * q + bg * j + 0.5) | 0;
            bl += (data[p + 2] * q + bb * j + 0.5) | 0;
          } else {
            r += data[p];
            g += data[p + 1];
            bl += data[p + 2];
          }
          n++;
        }
      }
      if (n === 0) continue;
      bits[c] = b;
      const h = n >> 1;
      colors[c] = ((((r + h) / n) | 0) << 16) | ((((g + h) / n) | 0) << 8) | (((bl + h) / n) | 0);
    }
  }
  return { columns, rows, bits, colors };
}

// Decimal digits of 0..255 as UTF-16 code units followed by ';' (DIGITS_SEMI) or 'm'
// (DIGITS_M), four slots each (unused ones are overwritten by what follows), and how many are
// real: the SGR numbers of a colour are written without making strings.
const DIGITS_SEMI = new Uint16Array(256 * 4);
const DIGITS_M = new Uint16Array(256 * 4);
const DIGIT_COUNT = new Uint8Array(256);
for (let v = 0; v < 256; v++) {
  const s = String(v);
  DIGIT_COUNT[v] = s.length + 1;
  for (let k = 0; k < s.length; k++) DIGITS_SEMI[v * 4 + k] = DIGITS_M[v * 4 + k] = s.charCodeAt(k);
  DIGITS_SEMI[v * 4 + s.length] = 0x3b;
  DIGITS_M[v * 4 + s.length] = 0x6d;
}
const SEMI = 0x3b;
const ESC = 0x1b;
const LBRACKET = 0x5b;
/** The reset ESC [ 0 m as code units. */
const SGR_END = Array.from(SGR_RESET, (c) => c.charCodeAt(0));
// Code units of ESC [ 3 8 ; 5 ; n m per palette index n, 12 slots each.
const SGR_256 = new Uint16Array(256 * 12);
const SGR_256_LENGTH = new Uint8Array(256);
for (let n = 0; n < 256; n++) {
  const s = `\x1b[38;5;${n}m`;
  SGR_256_LENGTH[n] = s.length;
  for (let k = 0; k < s.length; k++) SGR_256[n * 12 + k] = s.charCodeAt(k);
}

// One output buffer, grown as needed and reused: the text is copied out of it when decoded, and
// allocating (and zeroing) megabytes per picture would cost more than writing them.
let scratch = new Uint16Array(0);

/** Code units of a picture, in `scratch`: `length` used; `ends[row]` where each line ends. */
interface Written {
  readonly units: Uint16Array;
  readonly length: number;
  readonly ends: Int32Array;
}

/**
 * Writes the braille text of `dots` as UTF-16 code units, with `separator` (a code unit, or -1
 * for none) between lines.
 */
function writeUnits(dots: BrailleDots, depth: ColorDepth, separator: number): Written {
  const { columns, rows, bits, colors } = dots;
  // At most 20 units a cell (ESC[38;2;255;255;255m and the character), 5 a line end, and 4
  // slack for the four-slot digit writes.
  const need = columns * rows * 20 + rows * 5 + 4;
  if (scratch.length < need) scratch = new Uint16Array(Math.max(need, scratch.length * 2));
  const buf = scratch;
  const ends = new Int32Array(rows);
  const colour = depth !== 'none';
  const palette = depth === '256';
  let o = 0;
  let lastColour = -1, lastKey = -1;
  for (let cy = 0; cy < rows; cy++) {
    if (cy > 0 && separator >= 0) buf[o++] = separator;
    let current = -1;
    const end = (cy + 1) * columns;
    for (let c = cy * columns; c < end; c++) {
      const b = bits[c];
      if (b !== 0 && colour) {
        const col = colors[c];
        if (palette) {
          // Neighbouring cells often share a colour: reuse the last match.
          if (col !== lastColour) { lastColour = col; lastKey = nearest256(col >>> 16, (col >>> 8) & 255, col & 255); }
          const key = lastKey;
          if (key !== current) {
            current = key;
            const q = key * 12, len = SGR_256_LENGTH[key];
            for (let k = 0; k < len; k++) buf[o + k] = SGR_256[q + k];
            o += len;
          }
        } else if (col !== current) {
          current = col;
          buf[o] = ESC; buf[o + 1] = LBRACKET; buf[o + 2] = 0x33; buf[o + 3] = 0x38; buf[o + 4] = SEMI; buf[o + 5] = 0x32; buf[o + 6] = SEMI;
          o += 7;
          let v = col >>> 16, q = v << 2;
          buf[o] = DIGITS_SEMI[q]; buf[o + 1] = DIGITS_SEMI[q + 1]; buf[o + 2] = DIGITS_SEMI[q + 2]; buf[o + 3] = DIGITS_SEMI[q + 3];
          o += DIGIT_COUNT[v];
          v = (col >>> 8) & 255; q = v << 2;
          buf[o] = DIGITS_SEMI[q]; buf[o + 1] = DIGITS_SEMI[q + 1]; buf[o + 2] = DIGITS_SEMI[q + 2]; buf[o + 3] = DIGITS_SEMI[q + 3];
          o += DIGIT_COUNT[v];
          v = col & 255; q = v << 2;
          buf[o] = DIGITS_M[q]; buf[o + 1] = DIGITS_M[q + 1]; buf[o + 2] = DIGITS_M[q + 2]; buf[o + 3] = DIGITS_M[q + 3];
          o += DIGIT_COUNT[v];
        }
      }
      buf[o++] = 0x2800 + b;
    }
    if (colour) for (let k = 0; k < SGR_END.length; k++) buf[o++] = SGR_END[k];
    ends[cy] = o;
  }
  return { units: buf, length: o, ends };
}

/** The string of `length` UTF-16 code units at the start of `units` (one copy, done natively). */
function decode(units: Uint16Array, length: number): string {
  return Buffer.from(units.buffer, units.byteOffset, length * 2).toString('utf16le');
}

/**
 * The text lines of a braille picture of `raster` (its pixels are the dots), without line
 * breaks; each line of a coloured picture ends with an SGR reset.
 */
export function brailleLines(raster: Raster, options: BrailleOptions = {}): string[] {
  const { units, length, ends } = writeUnits(brailleDots(raster, options.background), options.color ?? 'truecolor', -1);
  // One decode, then slices of it (cheap views in V8).
  const text = decode(units, length);
  const lines: string[] = new Array(ends.length);
  let from = 0;
  for (let k = 0; k < ends.length; k++) { lines[k] = text.slice(from, ends[k]); from = ends[k]; }
  return lines;
}

/**
 * A braille picture of `raster` (its pixels are the dots: fit it first), lines joined by '\n'.
 *
 * @example process.stdout.write(encodeBraille(dotsRaster, { color: '256' }) + '\n')
 */
export function encodeBraille(raster: Raster, options: BrailleOptions = {}): string {
  // Written with its newlines in place and decoded once: no per-line strings to join.
  const { units, length } = writeUnits(brailleDots(raster, options.background), options.color ?? 'truecolor', 0x0a);
  return decode(units, length);
}
