/**
 * Palette building and colour mapping for indexed output (sixel).
 *
 * Pure code on typed arrays: a 5-bit-per-channel histogram, a variance-minimising box split
 * (median cut that cuts where the squared error drops most), a few k-means rounds on the
 * histogram, and a nearest-colour search cached in a 6-bit-per-channel table.
 */
import type { Raster } from '../../core/raster.js';

/** A palette of up to 256 colours, as RGB byte triplets. */
export interface Palette {
  /** Number of colours. */
  readonly size: number;
  /** `size * 3` bytes: r, g, b of each colour. */
  readonly rgb: Uint8Array;
}

/** Index written for a pixel that is not painted (alpha below the threshold). */
export const TRANSPARENT = 0xffff;

/** Options for {@link buildPalette}. */
export interface PaletteOptions {
  /** Pixels with alpha below this are ignored. Default 128. */
  readonly alphaThreshold?: number;
  /** Largest number of pixels read for the histogram; larger rasters are sampled. Default 250 000 (more changes the PSNR of a 1000x600 photograph by under 0.05 dB). */
  readonly sampleLimit?: number;
  /** k-means rounds after the box split. Default 1 (more gain little: the split already minimises error). */
  readonly refine?: number;
}

/**
 * The colours of a raster that has few of them, with an exact colour-to-index map.
 * Produced by {@link exactPalette}; used to map without any error.
 */
export interface ExactPalette extends Palette {
  /** Hash keys: `0xRRGGBB + 1`, 0 for an empty slot. */
  readonly keys: Int32Array;
  /** Palette index for each key slot. */
  readonly values: Uint16Array;
}

const HASH_BITS = 10; // 1024 slots for at most 256 colours: short probe sequences

function hashSlot(rgb: number): number {
  return Math.imul(rgb, 0x9e3779b1) >>> (32 - HASH_BITS);
}

/**
 * The distinct colours of the painted pixels when there are at most `limit` of them, else `null`.
 * Stops reading as soon as the limit is passed, so photographs cost little.
 */
export function exactPalette(raster: Raster, limit: number, alphaThreshold = 128): ExactPalette | null {
  const { data } = raster;
  const size = 1 << HASH_BITS;
  const keys = new Int32Array(size);
  const values = new Uint16Array(size);
  const rgb = new Uint8Array(Math.max(0, limit) * 3);
  let count = 0;
  let last = -1;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] < alphaThreshold) continue;
    const c = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    if (c === last) continue;
    last = c;
    const key = c + 1;
    let slot = hashSlot(c);
    for (;;) {
      const k = keys[slot];
      if (k === key) break;
      if (k === 0) {
        if (count === limit) return null;
        keys[slot] = key;
        values[slot] = count;
        rgb[count * 3] = data[i];
        rgb[count * 3 + 1] = data[i + 1];
        rgb[count * 3 + 2] = data[i + 2];
        count++;
        break;
      }
      slot = (slot + 1) & (size - 1);
    }
  }
  return { size: count, rgb: rgb.slice(0, count * 3), keys, values };
}

/** The index of colour `0xRRGGBB` in an {@link ExactPalette}, or -1 when it is not there. */
export function exactIndex(palette: ExactPalette, rgb: number): number {
  const { keys, values } = palette;
  const key = rgb + 1;
  let slot = hashSlot(rgb);
  for (;;) {
    const k = keys[slot];
    if (k === key) return values[slot];
    if (k === 0) return -1;
    slot = (slot + 1) & (keys.length - 1);
  }
}

/**
 * Maps every pixel to its exact palette index (no error, no dithering); pixels with alpha below
 * the threshold get {@link TRANSPARENT}.
 */
export function mapExact(raster: Raster, palette: ExactPalette, alphaThreshold: number, out: Uint16Array): Uint16Array {
  const { data } = raster;
  let last = -1;
  let lastIndex = 0;
  for (let p = 0, i = 0; i < data.length; p++, i += 4) {
    if (data[i + 3] < alphaThreshold) {
      out[p] = TRANSPARENT;
      continue;
    }
    const c = (data[i] << 16) | (data[i + 1] << 8) | data[i + 2];
    if (c !== last) {
      last = c;
      lastIndex = exactIndex(palette, c);
    }
    out[p] = lastIndex;
  }
  return out;
}

/**
 * Nearest palette colour (plain RGB distance, which is what PSNR measures), cached per
 * 6-bit-per-channel cell so that a picture pays the search once per cell it touches. A search
 * only looks at the candidates of its 4-bit cell: the colours that can be nearest to some point
 * of that cell (worked out when the cell is first needed, from its 3-bit parent's), usually a handful.
 */
export class NearestColor {
  /** Cache: `(r>>2)<<12 | (g>>2)<<6 | b>>2` to palette index, -1 while unknown. */
  readonly table: Int16Array;
  private readonly pr: Int32Array;
  private readonly pg: Int32Array;
  private readonly pb: Int32Array;
  // Candidates of each 4-bit cell: pool[start[cell] .. start[cell] + count[cell]), count -1 = not yet.
  private readonly start = new Int32Array(4096);
  private readonly count = new Int32Array(4096).fill(-1);
  private readonly parentStart = new Int32Array(512);
  private readonly parentCount = new Int32Array(512).fill(-1);
  // Sized so that a 256-colour picture rarely grows it (the Hubble photo at 584x438 used 50 000
  // entries): growing inside `collect` the first time throws its optimised code away.
  private pool = new Int16Array(1 << 16);
  private used = 0;
  private readonly far: Float64Array;

  /** Prepares the search for `palette` (which must not be empty). */
  constructor(palette: Palette) {
    const { size, rgb } = palette;
    if (size < 1) throw new RangeError('palette is empty');
    this.table = new Int16Array(1 << 18).fill(-1);
    this.pr = new Int32Array(size);
    this.pg = new Int32Array(size);
    this.pb = new Int32Array(size);
    this.far = new Float64Array(size);
    for (let i = 0; i < size; i++) {
      this.pr[i] = rgb[i * 3];
      this.pg[i] = rgb[i * 3 + 1];
      this.pb[i] = rgb[i * 3 + 2];
    }
  }

  /** The palette index nearest to (r, g, b), bytes, searched exactly (no cache); ties go to the lower index. */
  search(r: number, g: number, b: number): number {
    const cell = ((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4);
    let n = this.count[cell];
    if (n < 0) n = this.candidates(cell);
    const { pool, pr, pg, pb } = this;
    let at = this.start[cell];
    const stop = at + n;
    let best = Infinity;
    let bestI = 0;
    for (; at < stop; at++) {
      const i = pool[at];
      const dr = pr[i] - r;
      const dg = pg[i] - g;
      const db = pb[i] - b;
      const d = dr * dr + dg * dg + db * db;
      if (d < best) {
        best = d;
        bestI = i;
      }
    }
    return bestI;
  }

  /** The nearest palette index for bytes (r, g, b), through the cache (nearest to the cell's centre). */
  nearest(r: number, g: number, b: number): number {
    const key = ((r >> 2) << 12) | ((g >> 2) << 6) | (b >> 2);
    const v = this.table[key];
    return v >= 0 ? v : this.fill(key);
  }

  /** Fills one cache cell and returns its index; called by the inlined lookups on a miss. */
  fill(key: number): number {
    const v = this.search((((key >> 12) & 63) << 2) | 2, (((key >> 6) & 63) << 2) | 2, ((key & 63) << 2) | 2);
    this.table[key] = v;
    return v;
  }

  /**
   * Works out the candidates of a 4-bit cell from those of its 3-bit parent cell (worked out
   * from the whole palette the first time), so most cells scan a few dozen colours, not all.
   */
  private candidates(cell: number): number {
    const r4 = cell >> 8;
    const g4 = (cell >> 4) & 15;
    const b4 = cell & 15;
    const parent = ((r4 >> 1) << 6) | ((g4 >> 1) << 3) | (b4 >> 1);
    let n = this.parentCount[parent];
    if (n < 0) {
      n = this.collect((r4 >> 1) << 5, (g4 >> 1) << 5, (b4 >> 1) << 5, 31, -1, this.pr.length);
      this.parentStart[parent] = this.used - n;
      this.parentCount[parent] = n;
    }
    const count = this.collect(r4 << 4, g4 << 4, b4 << 4, 15, this.parentStart[parent], n);
    this.start[cell] = this.used - count;
    this.count[cell] = count;
    return count;
  }

  /**
   * Appends to the pool the colours (all of them when `from` is -1, else `pool[from..from+n)`)
   * that can be nearest to some point of the box [lo, lo+span] on each channel: those whose
   * distance to the box is at most the smallest distance any of them has to the box's far corner.
   * Returns how many were appended.
   */
  private collect(lr: number, lg: number, lb: number, span: number, from: number, n: number): number {
    const { pr, pg, pb, far } = this;
    if (this.used + 2 * n > this.pool.length) {
      const grown = new Int16Array(Math.max(this.pool.length * 2, this.used + 2 * n));
      grown.set(this.pool.subarray(0, this.used));
      this.pool = grown;
    }
    const pool = this.pool;
    // Copy the source list first: `far` is indexed by position in it.
    const list = this.used + n;
    for (let k = 0; k < n; k++) pool[list + k] = from < 0 ? k : pool[from + k];
    let limit = Infinity;
    const hr = lr + span;
    const hg = lg + span;
    const hb = lb + span;
    for (let k = 0; k < n; k++) {
      const i = pool[list + k];
      const r = pr[i];
      const g = pg[i];
      const b = pb[i];
      const fr = Math.max(r - lr, hr - r);
      const fg = Math.max(g - lg, hg - g);
      const fb = Math.max(b - lb, hb - b);
      const f = fr * fr + fg * fg + fb * fb;
      if (f < limit) limit = f;
      const nr = r < lr ? lr - r : r > hr ? r - hr : 0;
      const ng = g < lg ? lg - g : g > hg ? g - hg : 0;
      const nb = b < lb ? lb - b : b > hb ? b - hb : 0;
      far[k] = nr * nr + ng * ng + nb * nb; // here: the nearest distance to the box
    }
    let count = 0;
    for (let k = 0; k < n; k++) if (far[k] <= limit) pool[this.used + count++] = pool[list + k];
    this.used += count;
    return count;
  }
}

/**
 * Builds a palette of at most `maxColors` colours for the painted pixels of a raster: histogram,
 * splitting the box of largest squared error where the split removes most error, then k-means
 * rounds. Returns an empty palette when no pixel is painted.
 *
 * Each step is its own small function: a one-shot process (one picture) runs this once, and V8
 * optimises a small function with one loop soon and for good, where one long function is
 * compiled loop by loop on the stack and thrown back to the interpreter at each loop it had not
 * reached yet (docs/render.md#cold-start).
 */
export function buildPalette(raster: Raster, maxColors: number, options: PaletteOptions = {}): Palette {
  const alphaThreshold = options.alphaThreshold ?? 128;
  const sampleLimit = Math.max(1, options.sampleLimit ?? 250_000);
  const refine = options.refine ?? 1;
  const pixels = raster.data.length >> 2;
  // An odd stride avoids sampling the same columns on every row.
  let step = Math.ceil(pixels / sampleLimit);
  if (step > 1 && (step & 1) === 0) step++;
  const hist = histogram(raster.data, step, alphaThreshold);
  const cells = histogramCells(hist);
  if (cells.size === 0) return { size: 0, rgb: new Uint8Array(0) };
  const boxes = splitBoxes(cells, Math.max(1, Math.min(maxColors, cells.size)));
  const centres = boxMeans(cells, boxes);
  for (let round = 0; round < refine; round++) kMeansRound(cells, centres);
  const n = centres.size;
  const rgb = new Uint8Array(n * 3);
  roundCentres(centres, rgb);
  return { size: n, rgb };
}

/** A 5-bit-a-channel histogram with exact sums, so each cell's mean is exact. */
interface Histogram {
  readonly count: Float64Array;
  readonly sumR: Float64Array;
  readonly sumG: Float64Array;
  readonly sumB: Float64Array;
}

/** The histogram of every `step`-th pixel with alpha at least `alphaThreshold`. */
function histogram(data: Uint8Array, step: number, alphaThreshold: number): Histogram {
  const count = new Float64Array(32768);
  const sumR = new Float64Array(32768);
  const sumG = new Float64Array(32768);
  const sumB = new Float64Array(32768);
  const end = data.length;
  const stride = step << 2;
  for (let i = 0; i < end; i += stride) {
    if (data[i + 3] < alphaThreshold) continue;
    const r = data[i];
    const g = data[i + 1];
    const b = data[i + 2];
    const key = ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3);
    count[key]++;
    sumR[key] += r;
    sumG[key] += g;
    sumB[key] += b;
  }
  return { count, sumR, sumG, sumB };
}

/** The non-empty histogram cells: weight (pixel count) and mean colour of each, in entries `0..size`. */
interface Cells {
  readonly size: number;
  readonly w: Float64Array;
  readonly mr: Float64Array;
  readonly mg: Float64Array;
  readonly mb: Float64Array;
}

/**
 * The cells, written over the histogram's own arrays (cell `j` is histogram entry `k >= j`, read
 * before it is written): one loop and nothing allocated, where counting first and copying after
 * took two loops, each compiled on the stack in a one-shot process (docs/render.md#cold-start).
 */
function histogramCells(hist: Histogram): Cells {
  const { count, sumR, sumG, sumB } = hist;
  let j = 0;
  for (let k = 0; k < 32768; k++) {
    const c = count[k];
    if (c > 0) {
      count[j] = c;
      sumR[j] = sumR[k] / c;
      sumG[j] = sumG[k] / c;
      sumB[j] = sumB[k] / c;
      j++;
    }
  }
  return { size: j, w: count, mr: sumR, mg: sumG, mb: sumB };
}

/** Boxes of cells: box `i` holds the cells `order[start[i]..end[i])`. */
interface Boxes {
  readonly size: number;
  readonly order: Int32Array;
  readonly start: Int32Array;
  readonly end: Int32Array;
}

/** Splits the cells into up to `target` boxes, always the box of largest squared error next. */
function splitBoxes(cells: Cells, target: number): Boxes {
  const { size, w, mr, mg, mb } = cells;
  const order = new Int32Array(size);
  for (let j = 0; j < size; j++) order[j] = j;
  const keys = new Int32Array(size);
  const start = new Int32Array(target);
  const end = new Int32Array(target);
  const sse = new Float64Array(target);
  // Each box's moments, worked out once as it is made: its cells keep their order until it is
  // split, so splitting it needs them again and summing them again would give the same numbers.
  const moments = new Float64Array(target * 7);
  end[0] = size;
  sse[0] = boxError(order, 0, size, w, mr, mg, mb, moments, 0);
  let n = 1;
  while (n < target) {
    const pick = worstBox(start, end, sse, n);
    if (pick < 0) break;
    const s = start[pick];
    const e = end[pick];
    const cut = splitBox(order, keys, s, e, w, mr, mg, mb, moments, pick * 7);
    end[pick] = cut;
    sse[pick] = boxError(order, s, cut, w, mr, mg, mb, moments, pick * 7);
    start[n] = cut;
    end[n] = e;
    sse[n] = boxError(order, cut, e, w, mr, mg, mb, moments, n * 7);
    n++;
  }
  return { size: n, order, start, end };
}

/** The first box of largest positive error among the `n` that hold more than one cell, or -1. */
function worstBox(start: Int32Array, end: Int32Array, sse: Float64Array, n: number): number {
  let pick = -1;
  let worst = 0;
  for (let i = 0; i < n; i++) {
    if (end[i] - start[i] > 1 && sse[i] > worst) {
      worst = sse[i];
      pick = i;
    }
  }
  return pick;
}

/** Palette colours while they are refined: unrounded means. */
interface Centres {
  readonly size: number;
  cr: Float64Array;
  cg: Float64Array;
  cb: Float64Array;
}

/** Each box's weighted mean colour. */
function boxMeans(cells: Cells, boxes: Boxes): Centres {
  const { w, mr, mg, mb } = cells;
  const { size: n, order, start, end } = boxes;
  const cr = new Float64Array(n);
  const cg = new Float64Array(n);
  const cb = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let tw = 0;
    let r = 0;
    let g = 0;
    let b = 0;
    for (let k = start[i]; k < end[i]; k++) {
      const j = order[k];
      tw += w[j];
      r += mr[j] * w[j];
      g += mg[j] * w[j];
      b += mb[j] * w[j];
    }
    cr[i] = r / tw;
    cg[i] = g / tw;
    cb[i] = b / tw;
  }
  return { size: n, cr, cg, cb };
}

/** Rounds the centres to bytes, into `rgb`. */
function roundCentres(centres: Centres, rgb: Uint8Array): void {
  const { size, cr, cg, cb } = centres;
  for (let i = 0; i < size; i++) {
    rgb[i * 3] = Math.round(cr[i]);
    rgb[i * 3 + 1] = Math.round(cg[i]);
    rgb[i * 3 + 2] = Math.round(cb[i]);
  }
}

/**
 * One k-means round on the histogram cells: each cell joins its nearest (rounded) centre, and
 * each centre moves to the weighted mean of its cells (one with none stays).
 */
function kMeansRound(cells: Cells, centres: Centres): void {
  const { size: cellCount, w, mr, mg, mb } = cells;
  const n = centres.size;
  const rgb = new Uint8Array(n * 3);
  roundCentres(centres, rgb);
  const tw = new Float64Array(n);
  const tr = new Float64Array(n);
  const tg = new Float64Array(n);
  const tb = new Float64Array(n);
  // NearestColor, not a plain scan of the palette: the dithering uses it next, and in a
  // one-shot process its code is then already optimised (measured: a scan here costs more there).
  const nearest = new NearestColor({ size: n, rgb });
  for (let j = 0; j < cellCount; j++) {
    const i = nearest.search(Math.round(mr[j]), Math.round(mg[j]), Math.round(mb[j]));
    const wj = w[j];
    tw[i] += wj;
    tr[i] += mr[j] * wj;
    tg[i] += mg[j] * wj;
    tb[i] += mb[j] * wj;
  }
  const { cr, cg, cb } = centres;
  const nr = new Float64Array(n);
  const ng = new Float64Array(n);
  const nb = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    if (tw[i] > 0) {
      nr[i] = tr[i] / tw[i];
      ng[i] = tg[i] / tw[i];
      nb[i] = tb[i] / tw[i];
    } else {
      nr[i] = cr[i];
      ng[i] = cg[i];
      nb[i] = cb[i];
    }
  }
  centres.cr = nr;
  centres.cg = ng;
  centres.cb = nb;
}

/**
 * Weighted sums of the cells `order[s..e)` into `m[at..at+7)`: total weight, the per-channel sums
 * (1..3) and sums of squares (4..6). Sums in locals written to a reused array, not a new object of two arrays
 * a call: the interpreter a one-shot process runs this in first then boxes no numbers, and V8
 * compiles less (docs/render.md#cold-start).
 */
function boxMoments(
  order: Int32Array,
  s: number,
  e: number,
  w: Float64Array,
  mr: Float64Array,
  mg: Float64Array,
  mb: Float64Array,
  m: Float64Array,
  at: number,
): void {
  let tw = 0;
  let sr = 0;
  let sg = 0;
  let sb = 0;
  let qr = 0;
  let qg = 0;
  let qb = 0;
  for (let k = s; k < e; k++) {
    const j = order[k];
    const wj = w[j];
    tw += wj;
    sr += mr[j] * wj;
    sg += mg[j] * wj;
    sb += mb[j] * wj;
    qr += mr[j] * mr[j] * wj;
    qg += mg[j] * mg[j] * wj;
    qb += mb[j] * mb[j] * wj;
  }
  m[at] = tw;
  m[at + 1] = sr;
  m[at + 2] = sg;
  m[at + 3] = sb;
  m[at + 4] = qr;
  m[at + 5] = qg;
  m[at + 6] = qb;
}

/** Weighted squared error of the cells `order[s..e)` around their mean; their moments are left in `m[at..at+7)`. */
function boxError(
  order: Int32Array,
  s: number,
  e: number,
  w: Float64Array,
  mr: Float64Array,
  mg: Float64Array,
  mb: Float64Array,
  m: Float64Array,
  at: number,
): number {
  boxMoments(order, s, e, w, mr, mg, mb, m, at);
  const tw = m[at];
  if (tw <= 0) return 0;
  return Math.max(
    0,
    m[at + 4] + m[at + 5] + m[at + 6] - (m[at + 1] * m[at + 1] + m[at + 2] * m[at + 2] + m[at + 3] * m[at + 3]) / tw,
  );
}

/**
 * Sorts `order[s..e)` along the channel of largest variance and returns the cut position that
 * minimises the summed squared error of both halves (each half non-empty). `m[at..at+7)` holds the
 * cells' moments ({@link boxMoments}).
 */
function splitBox(
  order: Int32Array,
  keys: Int32Array,
  s: number,
  e: number,
  w: Float64Array,
  mr: Float64Array,
  mg: Float64Array,
  mb: Float64Array,
  m: Float64Array,
  at: number,
): number {
  const tw = m[at];
  let axis = 0;
  let widest = -1;
  for (let ch = 0; ch < 3; ch++) {
    const v = m[at + 4 + ch] - (m[at + 1 + ch] * m[at + 1 + ch]) / tw;
    if (v > widest) {
      widest = v;
      axis = ch;
    }
  }
  keysAlong(order, keys, s, e, axis === 0 ? mr : axis === 1 ? mg : mb);
  keys.subarray(s, e).sort();
  orderFromKeys(order, keys, s, e);
  return bestCut(order, s, e, w, mr, mg, mb, m, at);
}

// splitBox's three loops are three functions: its first calls (the largest boxes) run long, and
// one function with loops in a row was compiled on the stack for the first, thrown away at the
// next, and so on (docs/render.md#cold-start).

/** Integer keys that sort natively: 12 bits of the channel mean (x16) above the 15-bit cell number. */
function keysAlong(order: Int32Array, keys: Int32Array, s: number, e: number, channel: Float64Array): void {
  for (let k = s; k < e; k++) {
    const j = order[k];
    keys[k] = (Math.round(channel[j] * 16) << 15) | j;
  }
}

/** The cells of `order[s..e)` in the order of their sorted keys. */
function orderFromKeys(order: Int32Array, keys: Int32Array, s: number, e: number): void {
  for (let k = s; k < e; k++) order[k] = keys[k] & 0x7fff;
}

/** The cut of the sorted `order[s..e)` that minimises the summed squared error of both halves (moments at `m[at]`). */
function bestCut(
  order: Int32Array,
  s: number,
  e: number,
  w: Float64Array,
  mr: Float64Array,
  mg: Float64Array,
  mb: Float64Array,
  m: Float64Array,
  at: number,
): number {
  const tw = m[at];
  let lw = 0;
  let lr = 0;
  let lg = 0;
  let lb = 0;
  let lsq = 0;
  const totalSq = m[at + 4] + m[at + 5] + m[at + 6];
  const sumR = m[at + 1];
  const sumG = m[at + 2];
  const sumB = m[at + 3];
  let best = Infinity;
  let cut = s + 1;
  for (let k = s; k < e - 1; k++) {
    const j = order[k];
    const wj = w[j];
    lw += wj;
    lr += mr[j] * wj;
    lg += mg[j] * wj;
    lb += mb[j] * wj;
    lsq += wj * (mr[j] * mr[j] + mg[j] * mg[j] + mb[j] * mb[j]);
    const rw = tw - lw;
    const rr = sumR - lr;
    const rg = sumG - lg;
    const rb = sumB - lb;
    const err = lsq - (lr * lr + lg * lg + lb * lb) / lw + (totalSq - lsq) - (rr * rr + rg * rg + rb * rb) / rw;
    if (err < best) {
      best = err;
      cut = k + 1;
    }
  }
  return cut;
}
