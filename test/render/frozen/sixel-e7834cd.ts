// src/render/pixels/sixel.ts as it was at main e7834cd, before the first-call work of issue 26
// (engineer jit): the frozen model test/render/sixel-frozen.test.ts compares the encoder with on
// arbitrary pictures, byte for byte. Only the import paths differ from that commit. Never edit.
/**
 * The sixel encoder: a raster to a complete DCS sequence (`ESC P … q … ESC \`).
 *
 * Colours are quantized to the terminal's registers (exactly when the raster has few enough
 * colours), dithered, and written band by band (six rows) with run-length compression, selecting
 * only the colours present in a band and packing colours side by side into as few passes as fit.
 * Pixels below the alpha threshold are not painted, and the introducer then asks the terminal
 * (P2=1) to leave what is underneath them.
 */

import { blendChannelByte } from '../../../src/core/blend.js';
import { positiveInteger } from '../../../src/core/positive-integer.js';
import { isOpaque, type Raster, validateRaster } from '../../../src/core/raster.js';
import { type DitherMethod, ditherToPalette } from '../../../src/render/pixels/dither.js';
import { buildPalette, exactPalette, mapExact, type Palette, TRANSPARENT } from './quantize-e7834cd.js';

/** Options for {@link encodeSixel}. */
export interface SixelOptions {
  /** Colour registers to use (the report's `sixelColors`). Clamped to 2..256. Default 256. */
  readonly sixelColors?: number | undefined;
  /** Error diffusion, or 'none'. Default 'floyd-steinberg'. Rasters with few colours are never dithered. */
  readonly dither?: DitherMethod;
  /** Share of the error diffused, 0..1. Default 0.75 (less grain and higher PSNR than 1, still no banding). */
  readonly ditherStrength?: number;
  /** Pixels with alpha below this (0..255) are left unpainted. Default 128. */
  readonly alphaThreshold?: number;
  /**
   * The terminal's background colour when known (the probe's answer): painted pixels that are
   * partly transparent are blended onto it. Without it they are painted in their own colour.
   * Pixels below `alphaThreshold` stay unpainted either way; set the threshold to 0 to paint all.
   */
  readonly background?: readonly [number, number, number];
  /**
   * Whether the terminal leaves unpainted pixels alone (P2=1 honoured). Default true. False (a
   * terminal that fills them with a colour register, as tmux's own sixel does): every pixel is
   * painted, the transparent ones in `background` (default black), the half-transparent ones
   * blended onto it, so the picture looks as it would on the terminal's own background.
   */
  readonly transparency?: boolean | undefined;
  /**
   * The colour register 0 is to be (the terminal's background, where a multiplexer drawing the
   * sixel itself fills a margin with register 0: tmux 3.5a). The colour used that equals it at
   * sixel's levels takes register 0; where none does, register 0 is defined as it and left unused
   * (when a register is free under `sixelColors`). Default: registers in palette order.
   */
  readonly registerZero?: readonly [number, number, number] | undefined;
}

/** An image already mapped to a palette: what the band writer needs. */
export interface IndexedImage {
  /** Pixels a row. */
  readonly width: number;
  /** Rows. */
  readonly height: number;
  /** One palette index a pixel, row-major; {@link TRANSPARENT} for unpainted pixels. */
  readonly indices: Uint16Array;
  /** The colours; written as sixel percentages, so only those 101 levels a channel survive. */
  readonly palette: Palette;
  /** The colour register 0 is to be (see `SixelOptions.registerZero`); absent: palette order. */
  readonly registerZero?: readonly [number, number, number];
  /** The registers the terminal has (2..256): register 0 is added only where one is free. Default 256. */
  readonly registers?: number;
}

/**
 * The widest image {@link writeSixel} accepts. Terminals draw far less (xterm: 1000 by default,
 * the `sixel` decoder: 16 380); the bound keeps the per-band buffers (registers x width) small.
 */
export const MAX_SIXEL_WIDTH = 65_535;

/** Default number of colour registers. */
export const DEFAULT_SIXEL_COLORS = 256;

/** Clamps a register count from a probe or a user to 2..256 (256 when missing or not a number). */
export function clampColors(colors: number | undefined): number {
  if (colors === undefined || !Number.isFinite(colors)) return DEFAULT_SIXEL_COLORS;
  return Math.max(2, Math.min(256, Math.floor(colors)));
}

// Byte value -> sixel percentage, and the byte a terminal makes of that percentage.
const PERCENT = new Uint8Array(256);
const LEVEL = new Uint8Array(256);
for (let v = 0; v < 256; v++) {
  PERCENT[v] = Math.round((v * 100) / 255);
  LEVEL[v] = Math.round((PERCENT[v] * 255) / 100);
}

/**
 * Encodes a raster as a complete sixel sequence, for exactly the raster given (no resizing).
 *
 * @example
 * process.stdout.write(encodeSixel({ width: 2, height: 1, data: new Uint8Array([255,0,0,255, 0,0,255,255]) }));
 */
export function encodeSixel(raster: Raster, options: SixelOptions = {}): string {
  return bytesToString(encodeSixelBytes(raster, options));
}

/** Like {@link encodeSixel}, as ASCII bytes ready to write. */
export function encodeSixelBytes(raster: Raster, options: SixelOptions = {}): Uint8Array {
  return writeSixel(indexRaster(raster, options));
}

/**
 * Quantizes and maps a raster for sixel: the exact colours when there are at most `sixelColors` of
 * them, otherwise a built palette (snapped to sixel's percentage levels, so the dithering
 * diffuses the error the terminal will really show) and dithering.
 */
export function indexRaster(raster: Raster, options: SixelOptions = {}): IndexedImage {
  validateRaster(raster);
  const colors = clampColors(options.sixelColors);
  const threshold = options.alphaThreshold;
  // Without P2=1 nothing may stay unpainted: all of it goes onto the background (threshold 0).
  const painted = options.transparency === false;
  const alphaThreshold = painted
    ? 0
    : threshold !== undefined && Number.isFinite(threshold)
      ? Math.max(0, Math.min(255, Math.round(threshold)))
      : 128;
  const background = options.background ?? (painted ? BLACK : undefined);
  const source = background ? composite(raster, background) : raster;
  const { width, height } = source;
  const indices = new Uint16Array(width * height);
  const zero = options.registerZero ? { registerZero: options.registerZero, registers: colors } : {};
  const exact = exactPalette(source, colors, alphaThreshold);
  if (exact) {
    mapExact(source, exact, alphaThreshold, indices);
    return { width, height, indices, palette: exact, ...zero };
  }
  const built = buildPalette(source, colors, { alphaThreshold });
  const rgb = built.rgb;
  for (let i = 0; i < rgb.length; i++) rgb[i] = LEVEL[rgb[i]];
  ditherToPalette(source, built, indices, {
    method: options.dither ?? 'floyd-steinberg',
    alphaThreshold,
    strength: options.ditherStrength,
  });
  return { width, height, indices, palette: built, ...zero };
}

const BLACK = [0, 0, 0] as const;

const clampByte = (v: number): number => Math.max(0, Math.min(255, Math.round(v)));

/** The raster with its colours blended onto `background` by alpha; alpha itself is kept. */
function composite(raster: Raster, background: readonly [number, number, number]): Raster {
  const { data } = raster;
  if (isOpaque(raster)) return raster;
  const out = new Uint8Array(data.length);
  const [br, bg, bb] = background.map((v) => Math.max(0, Math.min(255, Math.round(v))));
  for (let i = 0; i < data.length; i += 4) {
    const a = data[i + 3];
    out[i] = blendChannelByte(data[i], br, a);
    out[i + 1] = blendChannelByte(data[i + 1], bg, a);
    out[i + 2] = blendChannelByte(data[i + 2], bb, a);
    out[i + 3] = a;
  }
  return { width: raster.width, height: raster.height, data: out };
}

/**
 * `raster` at the top-left of a `size` canvas whose other pixels are `background`, opaque: a
 * picture in whole cells of a multiplexer (docs/render.md, "No band"), the margin painted so the
 * multiplexer has none to fill with register 0.
 *
 * @example padRaster(picture, { width: 96, height: 102 }, [255, 255, 255])
 */
export function padRaster(
  raster: Raster,
  size: { readonly width: number; readonly height: number },
  background: readonly [number, number, number],
): Raster {
  validateRaster(raster);
  const { width, height } = size;
  if (width < raster.width || height < raster.height) throw new RangeError('the canvas is smaller than the picture');
  const data = new Uint8Array(width * height * 4);
  const [r, g, b] = background.map((v) => Math.max(0, Math.min(255, Math.round(v))));
  for (let i = 0; i < data.length; i += 4) {
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
    data[i + 3] = 255;
  }
  const row = raster.width * 4;
  for (let y = 0; y < raster.height; y++) data.set(raster.data.subarray(y * row, y * row + row), y * width * 4);
  return { width, height, data };
}

/** A growable byte buffer; sixel output is ASCII. */
class Bytes {
  buf: Uint8Array;
  len = 0;
  constructor(size: number) {
    this.buf = new Uint8Array(Math.max(64, size));
  }
  reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const grown = new Uint8Array(Math.max(this.buf.length * 2, this.len + n));
    grown.set(this.buf.subarray(0, this.len));
    this.buf = grown;
  }
  /** Writes ASCII text (only used for short fixed pieces). */
  text(s: string): void {
    this.reserve(s.length);
    for (let i = 0; i < s.length; i++) this.buf[this.len++] = s.charCodeAt(i);
  }
  /**
   * Writes a non-negative integer in decimal; the caller reserved 10 bytes. Below 1000 (registers,
   * most runs) without a loop: less for V8 to compile in a one-shot process.
   */
  num(n: number): void {
    const buf = this.buf;
    if (n < 10) buf[this.len++] = 48 + n;
    else if (n < 100) {
      const tens = (n * 103) >> 10; // n / 10, exact below 179
      buf[this.len++] = 48 + tens;
      buf[this.len++] = 48 + n - tens * 10;
    } else if (n < 1000) {
      const hundreds = (n * 41) >> 12; // n / 100, exact below 1000
      const rest = n - hundreds * 100;
      const tens = (rest * 103) >> 10;
      buf[this.len++] = 48 + hundreds;
      buf[this.len++] = 48 + tens;
      buf[this.len++] = 48 + rest - tens * 10;
    } else this.longNum(n);
  }
  /** {@link num} from 1000 on. */
  longNum(n: number): void {
    const buf = this.buf;
    let digits = 1;
    for (let t = n; t >= 10; t = (t / 10) | 0) digits++;
    let at = this.len + digits;
    this.len = at;
    while (n >= 10) {
      const q = (n / 10) | 0;
      buf[--at] = 48 + n - q * 10;
      n = q;
    }
    buf[--at] = 48 + n;
  }
  /** Writes the sixel character `ch` `count` (at least 1) times, as `!count ch` when that is shorter. */
  run(ch: number, count: number): void {
    const buf = this.buf;
    if (count > 3) {
      buf[this.len++] = 33; // '!'
      this.num(count);
      buf[this.len++] = ch;
    } else {
      buf[this.len++] = ch;
      if (count > 1) buf[this.len++] = ch;
      if (count > 2) buf[this.len++] = ch;
    }
  }
}

const ESC = 0x1b;

/**
 * Writes the sixel sequence of an indexed image: introducer (P2=1 when some pixel is unpainted),
 * raster attributes `"1;1;W;H`, the registers of the colours used (the most often selected
 * first), then six-row bands joined by `-`, each colour of a band selected with `#n`, colours that
 * do not overlap sharing a pass, passes ended by `$`, runs of four or more as `!N`.
 */
export function writeSixel(image: IndexedImage): Uint8Array {
  const { width, height, indices, palette } = image;
  positiveInteger(width, 'sixel image width');
  positiveInteger(height, 'sixel image height');
  if (width > MAX_SIXEL_WIDTH) {
    throw new RangeError(
      `sixel images wider than ${MAX_SIXEL_WIDTH} pixels are not drawn by terminals; fit the raster first (got ${width})`,
    );
  }
  if (indices.length !== width * height) throw new RangeError('indices do not match the image size');
  const size = palette.size;
  // Registers: only the colours used, numbered from 0 by how many bands select them (most first,
  // palette order among equals), so the colours selected most often have the shortest numbers.
  const bandsOf = new Int32Array(size);
  const transparent = countBands(indices, width, size, bandsOf);
  const order: number[] = [];
  for (let c = 0; c < size; c++) if (bandsOf[c] > 0) order.push(c);
  order.sort((a, z) => bandsOf[z] - bandsOf[a] || a - z);
  const register = new Int32Array(size).fill(-1);
  const rgb = palette.rgb;
  // Register 0 first where asked: the used colour equal to it, else it alone (defined, unused).
  const zero = image.registerZero?.map((v) => PERCENT[clampByte(v)]) ?? null;
  let first = -1;
  for (let c = 0; zero && c < size && first < 0; c++)
    if (bandsOf[c] > 0 && zero.every((level, channel) => PERCENT[rgb[c * 3 + channel]] === level)) first = c;
  let used = 0;
  if (first >= 0) register[first] = used++;
  for (const c of order) if (c !== first) register[c] = used++;
  // No colour used is it: register 0 alone, the rest from 1, where the terminal has a register free.
  const alone = zero !== null && first < 0 && used < clampColors(image.registers);
  if (alone) for (let c = 0; c < size; c++) if (register[c] >= 0) register[c]++;

  const out = new Bytes(64 + used * 20 + ((width * height) >> 2));
  out.reserve(32);
  out.buf[out.len++] = ESC;
  out.text(transparent ? 'P0;1;0q' : 'P0;0;0q');
  out.text('"1;1;');
  out.num(width);
  out.buf[out.len++] = 59; // ';'
  out.num(height);
  if (alone && zero) out.text(`#0;2;${zero[0]};${zero[1]};${zero[2]}`);
  const byRegister = new Int32Array(size);
  for (let c = 0; c < size; c++) if (register[c] >= 0) byRegister[register[c] - (alone ? 1 : 0)] = c;
  for (let r = 0; r < used; r++) {
    const c = byRegister[r];
    out.reserve(24);
    out.buf[out.len++] = 35; // '#'
    out.num(register[c]);
    out.text(';2;');
    out.num(PERCENT[rgb[c * 3]]);
    out.buf[out.len++] = 59;
    out.num(PERCENT[rgb[c * 3 + 1]]);
    out.buf[out.len++] = 59;
    out.num(PERCENT[rgb[c * 3 + 2]]);
  }

  // Per band: for each register, the sixel bits of each column and the columns where it has
  // any, in ascending order (the band is read column by column), so writing a colour costs
  // the columns it occupies, not the width.
  const slots = Math.max(1, used + (alone ? 1 : 0));
  const bands: Bands = {
    width,
    indices,
    register,
    out,
    bits: new Uint8Array(slots * width),
    columns: new Uint16Array(slots * width),
    ncols: new Int32Array(slots),
    present: new Int32Array(slots),
    firstColumn: new Int32Array(slots),
    order: new Int32Array(slots),
    from: new Int32Array(slots),
    perColumn: 4 + String(width).length,
    selected: -1,
  };
  // One call a band: a small function called often is optimised early, which is what a
  // one-shot process (one picture) needs; one long loop waits for on-stack replacement.
  for (let y0 = 0; y0 < height; y0 += 6) writeBand(bands, y0, Math.min(6, height - y0));
  out.reserve(2);
  out.buf[out.len++] = ESC;
  out.buf[out.len++] = 0x5c; // '\'
  return out.buf.subarray(0, out.len);
}

/**
 * Counts in `bandsOf[v]` the bands (six rows) in which palette index `v` paints; returns whether
 * some pixel is unpainted. Throws on an index outside the palette.
 */
function countBands(indices: Uint16Array, width: number, size: number, bandsOf: Int32Array): boolean {
  let transparent = false;
  const seen = new Int32Array(size).fill(-1);
  for (let start = 0, band = 0; start < indices.length; start += 6 * width, band++) {
    if (countBand(indices, start, Math.min(indices.length, start + 6 * width), size, band, seen)) transparent = true;
    for (let c = 0; c < size; c++) if (seen[c] === band) bandsOf[c]++;
  }
  return transparent;
}

/** Sets `seen[v]` to `band` for each index of `indices[start..end)`; returns whether one is unpainted. */
function countBand(
  indices: Uint16Array,
  start: number,
  end: number,
  size: number,
  band: number,
  seen: Int32Array,
): boolean {
  let transparent = false;
  for (let p = start; p < end; p++) {
    const v = indices[p];
    if (v >= size) {
      if (v !== TRANSPARENT) throw new RangeError(`pixel ${p} has index ${v}, palette has ${size}`);
      transparent = true;
    } else seen[v] = band;
  }
  return transparent;
}

/** What writeBand needs from writeSixel, and the register selected last (kept across bands). */
interface Bands {
  readonly width: number;
  readonly indices: Uint16Array;
  /** Palette index to register, -1 where unused. */
  readonly register: Int32Array;
  readonly out: Bytes;
  /** Per register and column, the band's sixel bits (cleared again as they are written). */
  readonly bits: Uint8Array;
  /** Per register, the columns where it has bits, in order; `ncols` how many. */
  readonly columns: Uint16Array;
  readonly ncols: Int32Array;
  /** The registers present in the band, in order of first appearance, and each one's first column. */
  readonly present: Int32Array;
  readonly firstColumn: Int32Array;
  /** The band's registers in the order written, and the column each is written from (see packBand). */
  readonly order: Int32Array;
  readonly from: Int32Array;
  /** The most bytes one column can cost. */
  readonly perColumn: number;
  selected: number;
}

/**
 * Writes the band of `rows` (1..6) pixel rows from row `y0`. Three small functions, not one: each
 * is optimised on its own and early (a one-shot process writes one picture), where one function
 * waits longer and is compiled again for each loop it reaches (docs/render.md#cold-start).
 *
 * The colours are packed into passes (lines ended by `$`): a pass takes, left to right, each
 * colour that starts after the previous one ends, so a colour costs the gap from its neighbour,
 * not a `$` and the gap from the left edge (docs/render.md#sixel-stream).
 */
function writeBand(b: Bands, y0: number, rows: number): void {
  const n = gatherBand(b, y0, rows);
  if (y0 > 0) {
    b.out.reserve(1);
    b.out.buf[b.out.len++] = 45; // '-'
  }
  packBand(b, n);
  for (let k = 0; k < n; k++) writeColour(b, b.order[k], b.from[k]);
}

/**
 * Orders the band's `n` colours into passes (`order`, with the column each starts writing from in
 * `from`, -1 where it opens a pass after the first). `present` is in order of first column
 * (gathered column by column); it is used up.
 */
function packBand(b: Bands, n: number): void {
  const { present, firstColumn, columns, ncols, width, order, from } = b;
  let remaining = n;
  let k = 0;
  for (let pass = 0; remaining > 0; pass++) {
    let at = 0; // the column after the last one written in this pass
    let left = 0;
    for (let j = 0; j < remaining; j++) {
      const c = present[j];
      if (firstColumn[c] >= at) {
        order[k] = c;
        from[k++] = pass > 0 && at === 0 ? -1 : at;
        at = columns[c * width + ncols[c] - 1] + 1;
      } else present[left++] = c;
    }
    remaining = left;
  }
}

/**
 * Sets the band's sixel bits of each register present, the columns where it has any (in order)
 * and `present` (in order of first appearance); returns how many registers are present.
 */
function gatherBand(b: Bands, y0: number, rows: number): number {
  const { width, indices, register, bits, columns, ncols, present, firstColumn } = b;
  let npresent = 0;
  for (let x = 0; x < width; x++) {
    let p = y0 * width + x;
    for (let row = 0; row < rows; row++, p += width) {
      const v = indices[p];
      if (v === TRANSPARENT) continue;
      const c = register[v];
      const at = c * width + x;
      const old = bits[at];
      if (old === 0) {
        const n = ncols[c];
        if (n === 0) {
          present[npresent++] = c;
          firstColumn[c] = x;
        }
        columns[c * width + n] = x;
        ncols[c] = n + 1;
      }
      bits[at] = old | (1 << row);
    }
  }
  return npresent;
}

/**
 * Writes register `c`'s sixels of the band from column `from` of the pass (its first column is
 * not before it; -1: after `$`, from the left edge), clearing its bits.
 */
function writeColour(b: Bands, c: number, from: number): void {
  const { width, out, bits, columns, ncols } = b;
  const n = ncols[c];
  const base = c * width;
  // A run costs at most a byte per column it covers; a gap before a column at most `!N?`.
  out.reserve(n * b.perColumn + 16);
  const buf = out.buf;
  let nextX = from; // column after the last one written
  if (from < 0) {
    buf[out.len++] = 36; // '$'
    nextX = 0;
  }
  if (c !== b.selected) {
    buf[out.len++] = 35; // '#'
    out.num(c);
    b.selected = c;
  }
  let runCh = 0;
  let runLen = 0;
  for (let j = 0; j < n; j++) {
    const x = columns[base + j];
    const ch = 63 + bits[base + x];
    bits[base + x] = 0;
    if (x === nextX && ch === runCh) {
      runLen++;
    } else {
      if (runLen > 0) out.run(runCh, runLen);
      if (x > nextX) out.run(63, x - nextX); // empty columns: '?'
      runCh = ch;
      runLen = 1;
    }
    nextX = x + 1;
  }
  if (runLen > 0) out.run(runCh, runLen);
  ncols[c] = 0;
}

const decoder = new TextDecoder();

function bytesToString(bytes: Uint8Array): string {
  // All bytes are ASCII, so UTF-8 decoding is the identity and runs on the fast path.
  return decoder.decode(bytes);
}
