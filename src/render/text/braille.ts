/**
 * Braille pictures: each cell is U+2800 plus a bit pattern for its 2x4 dots, so a terminal with
 * no graphics at all still shows eight "pixels" a cell. Why a dot is lit by its distance from the
 * background, the adaptive dithered threshold, and the two-colour cells: docs/render.md#braille.
 */

import { blendChannelByte } from '../../core/blend.js';
import type { ColorDepth } from '../../core/primitives.js';
import type { Raster } from '../../core/raster.js';
import { validateRaster } from '../../core/raster.js';
import { channelLevel } from './channel-level.js';
import { nearest256, SGR_RESET } from './color.js';

/** Options for the braille renderer. */
export interface BrailleOptions {
  /** Colour depth of the foreground colour per cell. Default 'truecolor'. */
  readonly colorDepth?: ColorDepth | undefined;
  /**
   * The terminal's background: dots light where pixels stand out from it, and half-transparent
   * pixels are blended onto it. Default black.
   */
  readonly background?: readonly [number, number, number] | undefined;
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
for (let p = 0; p < 2; p++)
  for (let dy = 0; dy < 4; dy++)
    for (let dx = 0; dx < 2; dx++) OFF[p * 8 + dy * 2 + dx] = OFFSET_INT[dy * 4 + p * 2 + dx];
const BIT_AT = Int32Array.from([0x01, 0x08, 0x02, 0x10, 0x04, 0x20, 0x40, 0x80]);
// Reciprocals for exact integer division by multiplication: floor(x / d) === floor(x * RECIP[d])
// for the non-negative integers used here (checked exhaustively for every count and sum the
// encoder can meet), because the reciprocal is nudged up by far less than the gap to the next
// multiple of d. Division is the slowest arithmetic in the per-cell loop.
const RECIP = new Float64Array(160);
for (let d = 1; d < RECIP.length; d++) RECIP[d] = (1 / d) * (1 + 2 ** -40);
// Division of a colour sum (at most 8 x 255 + 4) by a dot count 1..8 as an integer product:
// floor(x / n) === (x * DIVIDE[n]) >>> 16 while x * (n * DIVIDE[n] - 65536) < 65536, that is for
// every x below 9362 (n * DIVIDE[n] exceeds 65536 by at most n - 1).
const DIVIDE = Int32Array.from({ length: 9 }, (_, n) => (n === 0 ? 0 : Math.ceil(65536 / n)));
// The fast paths read a pixel as one little-endian 32-bit word (R in the low byte).
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Which dots are lit: one byte (bit pattern) per cell, row-major, plus the grid size. */
export interface BrailleDots {
  readonly columns: number;
  readonly rows: number;
  readonly bits: Uint8Array;
  /**
   * Per cell, the average colour of its lit dots, packed 0xRRGGBB (0 where no dot is lit). Where
   * the dots a cell would light fall into two clearly different colours, `bits` holds only one
   * group's and this is that group's average (see the module comment).
   */
  readonly colors: Uint32Array;
}

/**
 * Per channel value, its distance from the background's channel x 256 (a pixel's level is the
 * largest of its three), and the larger of the red and green ones for each red + 256 x green
 * (the fast path for backgrounds that are not black or white). Kept for the last background
 * asked for: the probe's answer rarely changes between pictures.
 */
interface LevelTables {
  key: number;
  r: Uint16Array;
  g: Uint16Array;
  b: Uint16Array;
  rg: Uint16Array;
  /** The background the tables are for, whole channels 0..255 (half-transparent pixels blend onto it). */
  br: number;
  bg: number;
  bb: number;
}
function levelTables(work: BrailleWork, br: number, bg: number, bb: number, withRg: boolean): LevelTables {
  const key = (br << 16) | (bg << 8) | bb;
  let tables = work.tables;
  if (tables.key !== key) {
    const of = (b: number): Uint16Array => Uint16Array.from({ length: 256 }, (_, v) => channelLevel(v, b) << 8);
    tables = {
      key,
      r: of(br),
      g: of(bg),
      b: of(bb),
      rg: new Uint16Array(0),
      br,
      bg,
      bb,
    };
    work.tables = tables;
  }
  if (withRg && tables.rg.length === 0) {
    const { r, g } = tables,
      rg = new Uint16Array(65536);
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
function opaqueCellsFlip(f: DotPass, y0: number, c0: number): void {
  const { px, width, fullColumns: cellsAcross, level, sum, count, slow, flip } = f;
  let i = y0 * width;
  for (let c = c0, end = c0 + cellsAcross, l = c0 << 3; c < end; c++, i += 2, l += 8) {
    let s = 0,
      all = -1;
    for (let dy = 0, j = i; dy < 8; dy += 2, j += width) {
      const p0 = px[j],
        p1 = px[j + 1];
      all &= p0 & p1;
      const q0 = p0 ^ flip,
        q1 = p1 ^ flip;
      // The largest channel by subtraction and sign masks, not Math.max: V8 compiles that to
      // branches, which photographs (and noise) mispredict often.
      const r0 = q0 & 255,
        r1 = q1 & 255;
      let d0 = r0 - ((q0 >>> 8) & 255),
        d1 = r1 - ((q1 >>> 8) & 255);
      const u0 = r0 - (d0 & (d0 >> 31)),
        u1 = r1 - (d1 & (d1 >> 31));
      d0 = u0 - ((q0 >>> 16) & 255);
      d1 = u1 - ((q1 >>> 16) & 255);
      const v0 = u0 - (d0 & (d0 >> 31)),
        v1 = u1 - (d1 & (d1 >> 31));
      level[l + dy] = v0 << 8;
      level[l + dy + 1] = v1 << 8;
      s += v0 + v1;
    }
    sum[c] = s << 8;
    count[c] = 8;
    slow[c] = all >>> 24 !== 255 ? 1 : 0;
  }
}

/**
 * As `opaqueCellsFlip`, for any background: `trg` holds the larger of the red and green
 * distances (x 256) for each red + 256 x green, `tb` the blue distance: two loads and one maximum.
 */
function opaqueCellsTable(f: DotPass, y0: number, c0: number): void {
  const { px, width, fullColumns: cellsAcross, level, sum, count, slow } = f;
  const { rg: trg, b: tb } = f.t;
  let i = y0 * width;
  for (let c = c0, end = c0 + cellsAcross, l = c0 << 3; c < end; c++, i += 2, l += 8) {
    let s = 0,
      all = -1;
    for (let dy = 0, j = i; dy < 8; dy += 2, j += width) {
      const p0 = px[j],
        p1 = px[j + 1];
      all &= p0 & p1;
      const a0 = trg[p0 & 0xffff],
        a1 = trg[p1 & 0xffff];
      const d0 = a0 - tb[(p0 >>> 16) & 255],
        d1 = a1 - tb[(p1 >>> 16) & 255];
      const v0 = a0 - (d0 & (d0 >> 31)),
        v1 = a1 - (d1 & (d1 >> 31));
      level[l + dy] = v0;
      level[l + dy + 1] = v1;
      s += v0 + v1;
    }
    sum[c] = s;
    count[c] = 8;
    slow[c] = all >>> 24 !== 255 ? 1 : 0;
  }
}

/**
 * Levels, sum and count of one whole cell (first pixel at `i`) that has a pixel not fully opaque:
 * pixels with alpha below 128 are left out (level 0, not counted), the others blended onto the
 * background as the general path does. When some pixel was blended, the cell's visible pixels
 * as blended 32-bit words (alpha 255) go to `mixed` in dot order and `slow[c]` becomes 2, so
 * the fast path of pass 3 reads them there; otherwise the cell's pixels are opaque or hidden
 * and it reads them from the raster, as for opaque cells (`slow[c]` 0).
 */
function translucentCell(f: DotPass, i: number, c: number): void {
  const { px, width, level, sum, count, slow, mixed, t } = f;
  const l = c << 3;
  if (
    (px[i] |
      px[i + 1] |
      px[i + width] |
      px[i + width + 1] |
      px[i + 2 * width] |
      px[i + 2 * width + 1] |
      px[i + 3 * width] |
      px[i + 3 * width + 1]) >>>
      31 ===
    0
  ) {
    // Every alpha below 128: nothing shows (the common case around a cut-out picture).
    for (let e = 0; e < 8; e++) level[l + e] = 0;
    sum[c] = 0;
    count[c] = 0;
    slow[c] = 0;
    return;
  }
  let s = 0,
    k = 0,
    half = 0;
  for (let dy = 0, j = i; dy < 8; dy += 2, j += width) {
    for (let dx = 0; dx < 2; dx++) {
      const p = px[j + dx],
        a = p >>> 24,
        e = l + dy + dx;
      if (a < 128) {
        level[e] = 0;
        mixed[e] = 0;
        continue;
      }
      let r = p & 255,
        g = (p >>> 8) & 255,
        b = (p >>> 16) & 255;
      if (a !== 255) {
        half = 1;
        r = blendChannelByte(r, t.br, a);
        g = blendChannelByte(g, t.bg, a);
        b = blendChannelByte(b, t.bb, a);
      }
      const v = Math.max(t.r[r], t.g[g], t.b[b]);
      level[e] = v;
      mixed[e] = r | (g << 8) | (b << 16) | -16777216;
      s += v;
      k++;
    }
  }
  sum[c] = s;
  count[c] = k;
  slow[c] = half << 1;
}

/**
 * Lit dots whose channels all lie within less than this of each other are alike and the cell
 * takes their average; two groups whose average colours differ by at least this in some channel
 * are "clearly different" and only one is shown. Half the range: a colour edge, not texture.
 */
const SPLIT = 128;
// The bit position of each dot's bit, in dot order.
const BIT_SHIFT = Int32Array.from([0, 3, 1, 4, 2, 5, 6, 7]);

/**
 * Whether the `n` lit dots in `f.dotR/G/B/E` fall into two clearly different colour groups; if
 * so, sets `f.splitBits` and `f.splitColour` to the dots and average colour of the group to show.
 *
 * A tiny 2-means: seeded with the dots of least and greatest value in the channel that spreads
 * most, each dot joins the nearer group centre (squared RGB distance; ties to group 0); a dot
 * farther than a third of the centres' distance from both is a blend of the two (the pixel a
 * resize averaged across the edge), is in neither and stays dark (a third, not less, so that the
 * dots of an even gradient form two groups whose centres are too close to split); the centres are recomputed from
 * the members, up to four rounds or until no dot moves. All in integers (a centre is a sum over a
 * count; distances are compared cross-multiplied), so the result is exact and reproducible.
 * The group shown: the one with more dots; on a tie, the one standing out more from the
 * background (sum of squared channel distances); on a tie of that too, cells alternate in a
 * checkerboard between the group of the first dot and the other, so an edge through the exact
 * middle of a row of cells is shared out instead of always going to one side.
 */
function splitCell(f: DotPass, n: number, parity: number): boolean {
  const { dotR: DOT_R, dotG: DOT_G, dotB: DOT_B, dotE: DOT_E, dotGroup: DOT_GROUP, br, bg, bb } = f;
  let rlo = 255,
    rhi = 0,
    glo = 255,
    ghi = 0,
    blo = 255,
    bhi = 0;
  for (let k = 0; k < n; k++) {
    const r = DOT_R[k],
      g = DOT_G[k],
      b = DOT_B[k];
    rlo = Math.min(rlo, r);
    rhi = Math.max(rhi, r);
    glo = Math.min(glo, g);
    ghi = Math.max(ghi, g);
    blo = Math.min(blo, b);
    bhi = Math.max(bhi, b);
  }
  const rs = rhi - rlo,
    gs = ghi - glo,
    bs = bhi - blo;
  if (rs < SPLIT && gs < SPLIT && bs < SPLIT) return false;
  const ch = rs >= gs && rs >= bs ? DOT_R : gs >= bs ? DOT_G : DOT_B;
  let lo = 0,
    hi = 0;
  for (let k = 1; k < n; k++) {
    if (ch[k] < ch[lo]) lo = k;
    if (ch[k] > ch[hi]) hi = k;
  }
  // Centres as sums over counts.
  let n0 = 1,
    r0 = DOT_R[lo],
    g0 = DOT_G[lo],
    b0 = DOT_B[lo];
  let n1 = 1,
    r1 = DOT_R[hi],
    g1 = DOT_G[hi],
    b1 = DOT_B[hi];
  for (let k = 0; k < n; k++) DOT_GROUP[k] = -2;
  for (let round = 0; round < 4; round++) {
    // Squared distances scaled by (n0 n1)^2: |n0 x - S0|^2 n1^2 is |x - S0/n0|^2 (n0 n1)^2.
    const sr = n1 * r0 - n0 * r1,
      sg = n1 * g0 - n0 * g1,
      sb = n1 * b0 - n0 * b1;
    const sep = sr * sr + sg * sg + sb * sb;
    const q0 = n1 * n1,
      q1 = n0 * n0;
    let moved = false;
    let m0 = 0,
      t0r = 0,
      t0g = 0,
      t0b = 0,
      m1 = 0,
      t1r = 0,
      t1g = 0,
      t1b = 0;
    for (let k = 0; k < n; k++) {
      const r = DOT_R[k],
        g = DOT_G[k],
        b = DOT_B[k];
      const x0 = n0 * r - r0,
        y0 = n0 * g - g0,
        z0 = n0 * b - b0;
      const x1 = n1 * r - r1,
        y1 = n1 * g - g1,
        z1 = n1 * b - b1;
      const d0 = (x0 * x0 + y0 * y0 + z0 * z0) * q0,
        d1 = (x1 * x1 + y1 * y1 + z1 * z1) * q1;
      let group = d1 < d0 ? 1 : 0;
      if (9 * (group === 1 ? d1 : d0) > sep) group = -1;
      if (group !== DOT_GROUP[k]) {
        moved = true;
        DOT_GROUP[k] = group;
      }
      if (group === 0) {
        m0++;
        t0r += r;
        t0g += g;
        t0b += b;
      } else if (group === 1) {
        m1++;
        t1r += r;
        t1g += g;
        t1b += b;
      }
    }
    // A group left with no member keeps its centre (and then cannot be shown).
    if (m0 > 0) {
      n0 = m0;
      r0 = t0r;
      g0 = t0g;
      b0 = t0b;
    }
    if (m1 > 0) {
      n1 = m1;
      r1 = t1r;
      g1 = t1g;
      b1 = t1b;
    }
    if (m0 === 0 || m1 === 0) return false;
    if (!moved) break;
  }
  // The centres (of the final membership, as recomputed above) must differ clearly.
  const limit = SPLIT * n0 * n1;
  if (Math.abs(n1 * r0 - n0 * r1) < limit && Math.abs(n1 * g0 - n0 * g1) < limit && Math.abs(n1 * b0 - n0 * b1) < limit)
    return false;
  let show: number;
  if (n0 !== n1) show = n0 > n1 ? 0 : 1;
  else {
    let c0 = 0,
      c1 = 0,
      first = -1;
    for (let k = 0; k < n; k++) {
      const group = DOT_GROUP[k];
      if (group < 0) continue;
      if (first < 0) first = group;
      const dr = DOT_R[k] - br,
        dg = DOT_G[k] - bg,
        db = DOT_B[k] - bb;
      if (group === 0) c0 += dr * dr + dg * dg + db * db;
      else c1 += dr * dr + dg * dg + db * db;
    }
    show = c0 !== c1 ? (c0 > c1 ? 0 : 1) : parity === 0 ? first : 1 - first;
  }
  let bits = 0;
  for (let k = 0; k < n; k++) if (DOT_GROUP[k] === show) bits |= BIT_AT[DOT_E[k]];
  const m = show === 0 ? n0 : n1,
    h = m >> 1;
  const r = show === 0 ? r0 : r1,
    g = show === 0 ? g0 : g1,
    b = show === 0 ? b0 : b1;
  f.splitBits = bits;
  f.splitColour = (Math.floor((r + h) / m) << 16) | (Math.floor((g + h) / m) << 8) | Math.floor((b + h) / m);
  return true;
}

/**
 * The encoder's working memory, grown as needed and reused from picture to picture: fresh
 * megabyte arrays cost page faults and zeroing every time. One object holds all of it (the
 * module keeps one, `WORK`), and nothing computed for one picture is read by the next except
 * the level tables, which are keyed by their background.
 */
class BrailleWork {
  /** Level x 256 of each pixel, 8 a cell (DotPass.level). */
  level = new Uint16Array(0);
  /** Per cell sum, hsum and hcount, one after the other. */
  cells = new Int32Array(0);
  /** Per cell count and slow, one after the other. */
  flags = new Uint8Array(0);
  /** Blended pixels (DotPass.mixed). */
  mixed = new Int32Array(0);
  /** The text writers' own `bits` and `colors` (their dots never leave this module). */
  bits = new Uint8Array(0);
  colors = new Uint32Array(0);
  /** The text's UTF-16 code units, and a view of them for 64-bit stores (writeUnits). */
  units = new Uint16Array(0);
  unitsView = new DataView(this.units.buffer);
  /** The level tables of the last background asked for. */
  tables: LevelTables = {
    key: -1,
    r: new Uint16Array(256),
    g: new Uint16Array(256),
    b: new Uint16Array(256),
    rg: new Uint16Array(0),
    br: 0,
    bg: 0,
    bb: 0,
  };
  /** One cell's lit dots for splitCell (DotPass.dotR and the rest). */
  readonly dotR = new Int32Array(8);
  readonly dotG = new Int32Array(8);
  readonly dotB = new Int32Array(8);
  readonly dotE = new Int32Array(8);
  readonly dotGroup = new Int8Array(8);
  readonly word = new Int32Array(8);
}
const WORK = new BrailleWork();

/**
 * The one state of a brailleDots call, which every pass and helper takes: the raster, the
 * background, the working arrays, and splitCell's answer. The passes run a cell row at a time,
 * each in its own small function (they optimise early and apart, and a row's levels and pixels
 * are still in cache when its dots are decided, one row later).
 */
interface DotPass {
  readonly width: number;
  readonly height: number;
  readonly columns: number;
  readonly rows: number;
  readonly data: Uint8Array;
  /** The pixels as little-endian 32-bit words, or null when the data is not 4-byte aligned. */
  readonly px: Int32Array;
  /** Whole cells (2x4 pixels inside the raster) across and down; 0 without `px`. */
  readonly fullColumns: number;
  readonly fullRows: number;
  readonly br: number;
  readonly bg: number;
  readonly bb: number;
  readonly flipped: boolean;
  readonly flip: number;
  readonly t: LevelTables;
  /** Level x 256 of each pixel, 8 a cell in dot order (dy * 2 + dx). */
  readonly level: Uint16Array;
  /** Blended 32-bit pixels of the cells translucentCell marked 2, in dot order. */
  readonly mixed: Int32Array;
  /** Per cell: the sum of its levels, and with its left and right neighbours' (sum and count). */
  readonly sum: Int32Array;
  readonly hsum: Int32Array;
  readonly hcount: Int32Array;
  /** Per cell: visible pixels, and how pass 3 reads it (0 raster words, 1 per pixel, 2 `mixed`). */
  readonly count: Uint8Array;
  readonly slow: Uint8Array;
  readonly bits: Uint8Array;
  readonly colors: Uint32Array;
  /**
   * One cell's lit dots, in dot order (dy * 2 + dx), for splitCell: colour channels, dot
   * index, and the group each falls into (0, 1, or -1 for a blend of the two, which stays dark).
   */
  readonly dotR: Int32Array;
  readonly dotG: Int32Array;
  readonly dotB: Int32Array;
  readonly dotE: Int32Array;
  readonly dotGroup: Int8Array;
  /** The fast path's eight masked pixel words of a cell. */
  readonly word: Int32Array;
  /** What splitCell decided, when it split: the dots and colour of the group shown. */
  splitBits: number;
  splitColour: number;
}

/**
 * Decides the dots for a raster whose pixels are the dots (2 columns x 4 rows a cell).
 *
 * @example brailleDots({ width: 2, height: 4, data: white }).bits[0] // 0xff
 */
export function brailleDots(raster: Raster, background: readonly [number, number, number] = [0, 0, 0]): BrailleDots {
  validateRaster(raster);
  const cells = ((raster.width + 1) >> 1) * ((raster.height + 3) >> 2);
  return decideDots(WORK, raster, background, new Uint8Array(cells), new Uint32Array(cells));
}

/**
 * brailleDots into the reused `bits` and `colors` of `work`, for the text writers: two fewer
 * zeroed allocations of a few hundred kilobytes a picture.
 */
function workDots(
  work: BrailleWork,
  raster: Raster,
  background: readonly [number, number, number] = [0, 0, 0],
): BrailleDots {
  validateRaster(raster);
  const cells = ((raster.width + 1) >> 1) * ((raster.height + 3) >> 2);
  if (work.bits.length < cells) {
    work.bits = new Uint8Array(Math.max(cells, work.bits.length * 2));
    work.colors = new Uint32Array(work.bits.length);
  }
  // Bits must start empty (cells without lit dots are not written); a colour is read only
  // where a cell has bits.
  return decideDots(work, raster, background, work.bits.subarray(0, cells).fill(0), work.colors.subarray(0, cells));
}

/** brailleDots into `bits` and `colors` (one entry a cell; `bits` all zero), with `work`'s arrays. */
function decideDots(
  work: BrailleWork,
  raster: Raster,
  background: readonly [number, number, number],
  bits: Uint8Array,
  colors: Uint32Array,
): BrailleDots {
  const { width, height, data } = raster;
  const columns = (width + 1) >> 1;
  const rows = (height + 3) >> 2;
  const cells = columns * rows;
  // Whole channel values 0..255 (the probe's answer is exact; anything else is clamped).
  const clamp = (v: number): number => Math.min(255, Math.max(0, Math.round(v)));
  const br = clamp(background[0]),
    bg = clamp(background[1]),
    bb = clamp(background[2]);
  // Black, white and the primaries: channel distances by XOR (see opaqueCellsFlip).
  const flipped = (br === 0 || br === 255) && (bg === 0 || bg === 255) && (bb === 0 || bb === 255);
  const flip = (br & 255) | ((bg & 255) << 8) | ((bb & 255) << 16);
  // Whole opaque cells (the common case) take unrolled, branch-free paths over 32-bit pixels;
  // edge cells take the general per-pixel path, and so does every cell when the data is not
  // 4-byte aligned (no 32-bit view of it; an empty one stands in).
  const aligned = LITTLE_ENDIAN && (data.byteOffset & 3) === 0;
  const px = aligned ? new Int32Array(data.buffer, data.byteOffset, width * height) : EMPTY_WORDS;
  const fullColumns = aligned ? width >> 1 : 0;
  const fullRows = aligned ? height >> 2 : 0;
  const t = levelTables(work, br, bg, bb, !flipped && fullRows > 0 && fullColumns > 0);
  // Every level, sum, count and flag is written before it is read.
  if (work.level.length < cells * 8) work.level = new Uint16Array(Math.max(cells * 8, work.level.length * 2));
  if (work.cells.length < cells * 3) work.cells = new Int32Array(Math.max(cells * 3, work.cells.length * 2));
  if (work.flags.length < cells * 2) work.flags = new Uint8Array(Math.max(cells * 2, work.flags.length * 2));
  if (work.mixed.length < cells * 8 && fullRows > 0 && fullColumns > 0)
    work.mixed = new Int32Array(Math.max(cells * 8, work.mixed.length * 2));
  const f: DotPass = {
    width,
    height,
    columns,
    rows,
    data,
    px,
    fullColumns,
    fullRows,
    br,
    bg,
    bb,
    flipped,
    flip,
    t,
    level: work.level,
    mixed: work.mixed,
    sum: work.cells.subarray(0, cells),
    hsum: work.cells.subarray(cells, cells * 2),
    hcount: work.cells.subarray(cells * 2, cells * 3),
    count: work.flags.subarray(0, cells),
    slow: work.flags.subarray(cells, cells * 2),
    bits,
    colors,
    dotR: work.dotR,
    dotG: work.dotG,
    dotB: work.dotB,
    dotE: work.dotE,
    dotGroup: work.dotGroup,
    word: work.word,
    splitBits: 0,
    splitColour: 0,
  };
  // A row's dots need the sums of the rows above and below it: levels run one row ahead.
  if (rows > 0) {
    levelsRow(f, 0);
    neighbourSums(f, 0);
  }
  for (let cy = 0; cy < rows; cy++) {
    if (cy + 1 < rows) {
      levelsRow(f, cy + 1);
      neighbourSums(f, cy + 1);
    }
    decideRow(f, cy);
  }
  return { columns, rows, bits, colors };
}
const EMPTY_WORDS = new Int32Array(0);

/**
 * Pass 1 for cell row `cy`: level x 256 (0..65280) of each pixel blended onto the background,
 * stored cell by cell (8 a cell, dy * 2 + dx), and each cell's sum and count of visible pixels.
 * Transparent pixels keep level 0, which is below every threshold, so they are never lit.
 */
function levelsRow(f: DotPass, cy: number): void {
  const { width, columns, fullColumns, slow } = f;
  const c0 = cy * columns;
  let first = 0;
  if (cy < f.fullRows && fullColumns > 0) {
    // Whole cells, read row by row (sequential memory); one with any pixel not fully opaque is
    // flagged and redone apart.
    const y0 = cy << 2;
    if (f.flipped) opaqueCellsFlip(f, y0, c0);
    else opaqueCellsTable(f, y0, c0);
    for (let cx = 0, c = c0; cx < fullColumns; cx++, c++) {
      if (slow[c] !== 0) translucentCell(f, y0 * width + (cx << 1), c);
    }
    first = fullColumns;
  }
  for (let cx = first; cx < columns; cx++) generalLevels(f, cx, cy);
}

/**
 * Pass 1 for one cell by the general per-pixel path (edge cells, unaligned data): flags it 1 so
 * that pass 3 takes that path too.
 */
function generalLevels(f: DotPass, cx: number, cy: number): void {
  const { width, data, level, br, bg, bb } = f;
  const { r: tr, g: tg, b: tb } = f.t;
  const c = cy * f.columns + cx;
  const l = c << 3;
  const x0 = cx << 1,
    y0 = cy << 2;
  const ylim = Math.min(4, f.height - y0);
  for (let e = 0; e < 8; e++) level[l + e] = 0;
  const xlim = x0 + 1 < width ? 2 : 1;
  let s = 0,
    k = 0;
  for (let dy = 0; dy < ylim; dy++) {
    for (let dx = 0; dx < xlim; dx++) {
      const p = ((y0 + dy) * width + x0 + dx) << 2;
      const a = data[p + 3];
      if (a < 128) continue;
      let v: number;
      if (a === 255) v = Math.max(tr[data[p]], tg[data[p + 1]], tb[data[p + 2]]);
      else {
        // Blended and rounded per channel, as the colour of a lit dot is below.
        v = Math.max(
          tr[blendChannelByte(data[p], br, a)],
          tg[blendChannelByte(data[p + 1], bg, a)],
          tb[blendChannelByte(data[p + 2], bb, a)],
        );
      }
      level[l + dy * 2 + dx] = v;
      s += v;
      k++;
    }
  }
  f.sum[c] = s;
  f.count[c] = k;
  f.slow[c] = 1;
}

/** Pass 2 for cell row `cy`: sums over each cell and its left and right neighbours. */
function neighbourSums(f: DotPass, cy: number): void {
  const { sum, count, hsum, hcount } = f;
  const c0 = cy * f.columns,
    last = c0 + f.columns - 1;
  for (let c = c0; c <= last; c++) {
    let s = sum[c],
      k = count[c];
    if (c > c0) {
      s += sum[c - 1];
      k += count[c - 1];
    }
    if (c < last) {
      s += sum[c + 1];
      k += count[c + 1];
    }
    hsum[c] = s;
    hcount[c] = k;
  }
}

/**
 * Pass 3 for cell row `cy`: the threshold base (half the mean level of the 3x3 cells around,
 * plus 64), then the cell's (up to) 8 pixels against it plus their Bayer offsets.
 */
function decideRow(f: DotPass, cy: number): void {
  const { width, columns, rows, px, mixed, level, hsum, hcount, slow, bits, colors } = f;
  const { dotR: DOT_R, dotG: DOT_G, dotB: DOT_B, dotE: DOT_E, word: WORD } = f;
  const y0 = cy << 2;
  const up = cy > 0 ? columns : 0,
    down = cy + 1 < rows ? columns : 0;
  for (let cx = 0, c = cy * columns; cx < columns; cx++, c++) {
    let s = hsum[c],
      k = hcount[c];
    if (up !== 0) {
      s += hsum[c - up];
      k += hcount[c - up];
    }
    if (down !== 0) {
      s += hsum[c + down];
      k += hcount[c + down];
    }
    // Math.round((s / k) * 0.5) as exact integer arithmetic: floor((s + k) / 2k).
    const t = (k > 0 ? ((s + k) * RECIP[k << 1]) | 0 : 0) + 64 * 256;
    const l = c << 3;
    const o = (cx & 1) << 3;
    const x0 = cx << 1;
    const kind = slow[c];
    if (kind === 1) {
      generalDecide(f, cx, cy, t);
      continue;
    }
    // Branch-free: m is -1 for a lit dot, 0 otherwise.
    const m0 = (t + OFF[o] - level[l]) >> 31,
      m1 = (t + OFF[o + 1] - level[l + 1]) >> 31;
    const m2 = (t + OFF[o + 2] - level[l + 2]) >> 31,
      m3 = (t + OFF[o + 3] - level[l + 3]) >> 31;
    const m4 = (t + OFF[o + 4] - level[l + 4]) >> 31,
      m5 = (t + OFF[o + 5] - level[l + 5]) >> 31;
    const m6 = (t + OFF[o + 6] - level[l + 6]) >> 31,
      m7 = (t + OFF[o + 7] - level[l + 7]) >> 31;
    const b =
      (m0 & 0x01) | (m1 & 0x08) | (m2 & 0x02) | (m3 & 0x10) | (m4 & 0x04) | (m5 & 0x20) | (m6 & 0x40) | (m7 & 0x80);
    if (b === 0) continue;
    // The pixels as 32-bit words: the raster's own, or the blended ones translucentCell kept.
    // (Two arms, not one array chosen per cell: each keeps its array's bounds loop-invariant.)
    let q0: number, q1: number, q2: number, q3: number, q4: number, q5: number, q6: number, q7: number;
    if (kind === 0) {
      const i0 = y0 * width + x0,
        i1 = i0 + width,
        i2 = i1 + width,
        i3 = i2 + width;
      q0 = px[i0];
      q1 = px[i0 + 1];
      q2 = px[i1];
      q3 = px[i1 + 1];
      q4 = px[i2];
      q5 = px[i2 + 1];
      q6 = px[i3];
      q7 = px[i3 + 1];
    } else {
      q0 = mixed[l];
      q1 = mixed[l + 1];
      q2 = mixed[l + 2];
      q3 = mixed[l + 3];
      q4 = mixed[l + 4];
      q5 = mixed[l + 5];
      q6 = mixed[l + 6];
      q7 = mixed[l + 7];
    }
    const p0 = q0 & m0,
      p1 = q1 & m1,
      p2 = q2 & m2,
      p3 = q3 & m3;
    const p4 = q4 & m4,
      p5 = q5 & m5,
      p6 = q6 & m6,
      p7 = q7 & m7;
    // Whether some channel of the lit pixels may spread 128 or more (then splitCell looks
    // closer; rarely: edges), in quarters of the range, 0..63, 64..127, 128..191, 192..255. Such
    // a spread needs values in the lower half and in the upper (bit 7 differs among the lit
    // pixels: OR of them against AND of them, unlit ones left out of both), and, as the lowest
    // and highest quarters it spans lie two apart, a value in the first or the last quarter (bits
    // 7 and 6 equal: bit 7 of q ^ (q << 1) clear in some lit pixel). Otherwise every channel
    // spreads less than 128, the dots are alike and the average below is right.
    const any = p0 | p1 | p2 | p3 | p4 | p5 | p6 | p7;
    const n0 = ~m0,
      n1 = ~m1,
      n2 = ~m2,
      n3 = ~m3,
      n4 = ~m4,
      n5 = ~m5,
      n6 = ~m6,
      n7 = ~m7;
    const all = (q0 | n0) & (q1 | n1) & (q2 | n2) & (q3 | n3) & (q4 | n4) & (q5 | n5) & (q6 | n6) & (q7 | n7);
    let straddle = (any ^ all) & 0x808080;
    if (straddle !== 0) {
      const middle =
        ((q0 ^ (q0 << 1)) | n0) &
        ((q1 ^ (q1 << 1)) | n1) &
        ((q2 ^ (q2 << 1)) | n2) &
        ((q3 ^ (q3 << 1)) | n3) &
        ((q4 ^ (q4 << 1)) | n4) &
        ((q5 ^ (q5 << 1)) | n5) &
        ((q6 ^ (q6 << 1)) | n6) &
        ((q7 ^ (q7 << 1)) | n7);
      straddle &= ~middle;
    }
    if (straddle !== 0) {
      WORD[0] = p0;
      WORD[1] = p1;
      WORD[2] = p2;
      WORD[3] = p3;
      WORD[4] = p4;
      WORD[5] = p5;
      WORD[6] = p6;
      WORD[7] = p7;
      let n = 0;
      for (let e = 0; e < 8; e++) {
        const p = WORD[e];
        // Every dot written, only the lit ones kept (n moves on by 0 or 1): no branch.
        DOT_R[n] = p & 255;
        DOT_G[n] = (p >>> 8) & 255;
        DOT_B[n] = (p >>> 16) & 255;
        DOT_E[n] = e;
        n += (b >> BIT_SHIFT[e]) & 1;
      }
      if (splitCell(f, n, (cx + cy) & 1)) {
        bits[c] = f.splitBits;
        colors[c] = f.splitColour;
        continue;
      }
    }
    const n = -(m0 + m1 + m2 + m3 + m4 + m5 + m6 + m7),
      h = n >> 1;
    // Red and blue summed side by side in 16-bit lanes, green in place (8 x 255 cannot carry
    // into the next lane): half the work of summing each channel apart.
    const rb =
      (p0 & 0xff00ff) +
      (p1 & 0xff00ff) +
      (p2 & 0xff00ff) +
      (p3 & 0xff00ff) +
      (p4 & 0xff00ff) +
      (p5 & 0xff00ff) +
      (p6 & 0xff00ff) +
      (p7 & 0xff00ff);
    const gs =
      (p0 & 0xff00) +
      (p1 & 0xff00) +
      (p2 & 0xff00) +
      (p3 & 0xff00) +
      (p4 & 0xff00) +
      (p5 & 0xff00) +
      (p6 & 0xff00) +
      (p7 & 0xff00);
    const r = rb & 0xffff,
      g = gs >>> 8,
      bl = rb >>> 16;
    bits[c] = b;
    const fr = DIVIDE[n];
    colors[c] =
      ((Math.imul(r + h, fr) >>> 16) << 16) | ((Math.imul(g + h, fr) >>> 16) << 8) | (Math.imul(bl + h, fr) >>> 16);
  }
}

/** Pass 3 for one cell by the general per-pixel path, against threshold base `t`. */
function generalDecide(f: DotPass, cx: number, cy: number, t: number): void {
  const { width, data, level, br, bg, bb } = f;
  const { dotR: DOT_R, dotG: DOT_G, dotB: DOT_B, dotE: DOT_E } = f;
  const c = cy * f.columns + cx;
  const l = c << 3,
    o = (cx & 1) << 3;
  const x0 = cx << 1,
    y0 = cy << 2;
  const ylim = Math.min(4, f.height - y0);
  const xlim = x0 + 1 < width ? 2 : 1;
  let b = 0,
    r = 0,
    g = 0,
    bl = 0,
    n = 0;
  for (let dy = 0; dy < ylim; dy++) {
    for (let dx = 0; dx < xlim; dx++) {
      const e = dy * 2 + dx;
      if (level[l + e] <= t + OFF[o + e]) continue;
      b |= BIT_AT[e];
      const p = ((y0 + dy) * width + x0 + dx) << 2;
      const a = data[p + 3];
      let vr = data[p],
        vg = data[p + 1],
        vb = data[p + 2];
      if (a !== 255) {
        vr = blendChannelByte(vr, br, a);
        vg = blendChannelByte(vg, bg, a);
        vb = blendChannelByte(vb, bb, a);
      }
      r += vr;
      g += vg;
      bl += vb;
      DOT_R[n] = vr;
      DOT_G[n] = vg;
      DOT_B[n] = vb;
      DOT_E[n] = e;
      n++;
    }
  }
  if (n === 0) return;
  if (n > 1 && splitCell(f, n, (cx + cy) & 1)) {
    f.bits[c] = f.splitBits;
    f.colors[c] = f.splitColour;
    return;
  }
  f.bits[c] = b;
  const h = n >> 1;
  f.colors[c] = ((((r + h) / n) | 0) << 16) | ((((g + h) / n) | 0) << 8) | (((bl + h) / n) | 0);
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

// The output buffer is BrailleWork.units, grown as needed and reused: the text is copied out of
// it when decoded, and allocating (and zeroing) megabytes per picture would cost more than
// writing them.
// The same digit slots as DIGITS_SEMI and DIGITS_M, four code units read as one 64-bit float
// (never a NaN: the top unit is at most 'm'), so that a channel's digits and separator are one
// load and one unaligned store through a DataView rather than four of each; and the 7 units of
// ESC [ 3 8 ; 2 ; as two of them (the 8th unit is overwritten by the red digits).
const DIGITS_SEMI_64 = new Float64Array(DIGITS_SEMI.buffer.slice(0));
const DIGITS_M_64 = new Float64Array(DIGITS_M.buffer.slice(0));
const SGR_TRUE_64 = new Float64Array(Uint16Array.from([ESC, LBRACKET, 0x33, 0x38, SEMI, 0x32, SEMI, 0]).buffer);
const SGR_TRUE_A = SGR_TRUE_64[0],
  SGR_TRUE_B = SGR_TRUE_64[1];

/** Code units of a picture, in `work.units`: `length` used; `ends[row]` where each line ends. */
interface Written {
  readonly units: Uint16Array;
  readonly length: number;
  readonly ends: Int32Array;
}

/**
 * Writes the braille text of `dots` as UTF-16 code units, with `separator` (a code unit, or -1
 * for none) between lines.
 */
function writeUnits(work: BrailleWork, dots: BrailleDots, depth: ColorDepth, separator: number): Written {
  const { columns, rows, bits, colors } = dots;
  // At most 20 units a cell (ESC[38;2;255;255;255m and the character), 5 a line end, and 4
  // slack for the four-slot digit writes.
  const need = columns * rows * 20 + rows * 5 + 4;
  if (work.units.length < need) {
    work.units = new Uint16Array(Math.max(need, work.units.length * 2));
    work.unitsView = new DataView(work.units.buffer);
  }
  const buf = work.units,
    view = work.unitsView;
  const ends = new Int32Array(rows);
  const colour = depth !== 'none';
  const palette = depth === '256';
  let o = 0;
  let lastColour = -1,
    lastKey = -1;
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
          if (col !== lastColour) {
            lastColour = col;
            lastKey = nearest256(col >>> 16, (col >>> 8) & 255, col & 255);
          }
          const key = lastKey;
          if (key !== current) {
            current = key;
            const q = key * 12,
              len = SGR_256_LENGTH[key];
            for (let k = 0; k < len; k++) buf[o + k] = SGR_256[q + k];
            o += len;
          }
        } else if (col !== current) {
          current = col;
          view.setFloat64(o << 1, SGR_TRUE_A, true);
          view.setFloat64((o << 1) + 8, SGR_TRUE_B, true);
          o += 7;
          let v = col >>> 16;
          view.setFloat64(o << 1, DIGITS_SEMI_64[v], true);
          o += DIGIT_COUNT[v];
          v = (col >>> 8) & 255;
          view.setFloat64(o << 1, DIGITS_SEMI_64[v], true);
          o += DIGIT_COUNT[v];
          v = col & 255;
          view.setFloat64(o << 1, DIGITS_M_64[v], true);
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
  const dots = workDots(WORK, raster, options.background);
  const { units, length, ends } = writeUnits(WORK, dots, options.colorDepth ?? 'truecolor', -1);
  // One decode, then slices of it (cheap views in V8).
  const text = decode(units, length);
  const lines: string[] = new Array(ends.length);
  let from = 0;
  for (let k = 0; k < ends.length; k++) {
    lines[k] = text.slice(from, ends[k]);
    from = ends[k];
  }
  return lines;
}

/**
 * A braille picture of `raster` (its pixels are the dots: fit it first), lines joined by '\n'.
 *
 * @example process.stdout.write(encodeBraille(dotsRaster, { colorDepth: '256' }) + '\n')
 */
export function encodeBraille(raster: Raster, options: BrailleOptions = {}): string {
  // Written with its newlines in place and decoded once: no per-line strings to join.
  const dots = workDots(WORK, raster, options.background);
  const { units, length } = writeUnits(WORK, dots, options.colorDepth ?? 'truecolor', 0x0a);
  return decode(units, length);
}
