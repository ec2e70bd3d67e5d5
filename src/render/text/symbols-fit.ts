/**
 * The per-cell fit of a symbols picture: for one cell of 8x8 sub-pixels, the glyph of a symbol
 * set and the two colours (ink and paper) that reproduce the cell with the least weighted squared
 * error. Pure code on typed arrays, written for speed; `symbols-reference.ts` is the readable,
 * exhaustive model it is tested against. Why it is exact and fast: docs/render.md, "Symbols".
 *
 * The best colours for a mask are the means inside and outside it, and then the error is
 * `Q - score`, where `Q` is the cell's weighted sum of squares and
 * `score = Σc w_c (S_in,c² / n_in + S_out,c² / n_out)`: so only the sum of the pixels under each
 * mask is needed. Masks are grouped into families whose masks are unions of a few atoms (rows,
 * columns, quadrants, sixths, eighths, braille dots); the atoms' sums come from half-row and
 * column sums gathered in one pass over the cell, and every union's sum from one addition each
 * (subset sums by the lowest set bit). A mask and its complement are one shape (the colours
 * swap), evaluated once.
 */

import { blendChannel } from '../../core/blend.js';
import type { CellMask, SymbolSet } from './symbols-glyphs.js';
import { CELL_GRID, CELL_PIXELS, maskComplement, maskCount, maskHas, maskKey, maskWhere } from './symbols-glyphs.js';
import type { ChannelWeights, SymbolColorDepth } from './symbols-palette.js';
import { colorKey, key256, keyRgb, XTERM_RGB } from './symbols-palette.js';

/**
 * The weights of the error metric, red, green, blue: squared differences in sRGB values weighted
 * towards green, the way the eye's sensitivity (and luminance) is (the measurement behind this
 * choice: docs/render.md, "Symbols").
 */
export const ERROR_WEIGHTS: ChannelWeights = Object.freeze([3, 4, 2]) as unknown as ChannelWeights;

/** One shape to fit: a mask (the orientation without sub-pixel 0) and the glyphs that draw it either way. */
export interface Shape {
  readonly mask: CellMask;
  /** Sub-pixels in `mask`. */
  readonly count: number;
  /** Draws `mask` in the foreground (the inside colour as fg), or null when the set has none. */
  readonly glyph: string | null;
  /** Draws the complement in the foreground (the inside colour as bg), or null. */
  readonly inverse: string | null;
}

/** Family kinds: masks that are the first j atoms, any union of atoms, or any mask (pixel by pixel). */
const PREFIX = 0;
const SUBSETS = 1;
const PIXELS = 2;

interface Family {
  readonly kind: number;
  readonly atoms: number;
  /** Per atom, its sources: offsets (x3) into the source vector, `atomStart[a]..atomStart[a+1]`. */
  readonly atomStart: Int32Array;
  readonly atomSrc: Int32Array;
  /** Per entry: the prefix length or atom subset (PIXELS: unused), its shape, whether the family mask is the shape's complement. */
  readonly bits: Int32Array;
  readonly shape: Int32Array;
  readonly flip: Uint8Array;
  readonly invIn: Float64Array;
  readonly invOut: Float64Array;
  /** PIXELS: each entry's mask words. */
  readonly lo: Int32Array;
  readonly hi: Int32Array;
  /**
   * SUBSETS with few entries for their atoms (the quadrants of the block set: 5 of 16 unions):
   * each entry summed from its own atoms, `entryStart[e]..entryStart[e+1]` into `entryAtom`
   * (offsets x3, highest atom first, the order the subset table adds them), instead of every union.
   */
  readonly direct: boolean;
  readonly entryStart: Int32Array;
  readonly entryAtom: Int32Array;
}

/** A symbol set compiled for fitting: its shapes and the families that evaluate them. */
export interface FitPlan {
  readonly set: SymbolSet;
  /** Shape 0 is the uniform cell (empty mask: a space on the colour, or a full block in it). */
  readonly shapes: readonly Shape[];
  readonly families: readonly Family[];
  /** Whether any family reads single pixels (then the loader keeps them). */
  readonly needsPixels: boolean;
}

// The source vector: 16 half-row sums (row y, left/right: index 2y + side), 8 column sums, 64 pixels; 3 channels each.
const SRC_HALF_ROWS = 0;
const SRC_COLUMNS = 16;
const SRC_PIXELS = 24;
const SRC_LENGTH = (SRC_PIXELS + CELL_PIXELS) * 3;

const sameMask = (a: CellMask, b: CellMask): boolean => a.lo === b.lo && a.hi === b.hi;
const andMask = (a: CellMask, b: CellMask): CellMask => ({ lo: (a.lo & b.lo) >>> 0, hi: (a.hi & b.hi) >>> 0 });
const orMask = (a: CellMask, b: CellMask): CellMask => ({ lo: (a.lo | b.lo) >>> 0, hi: (a.hi | b.hi) >>> 0 });
const isEmpty = (a: CellMask): boolean => a.lo === 0 && a.hi === 0;

interface FamilyTemplate {
  readonly kind: number;
  readonly atoms: readonly CellMask[];
}

/** The families, cheapest first; a shape goes to the first that can express it. */
const TEMPLATES: readonly FamilyTemplate[] = [
  // Lower k eighths (and so upper ones, complemented): bottom rows first.
  { kind: PREFIX, atoms: [7, 6, 5, 4, 3, 2, 1, 0].map((r) => maskWhere((_x, y) => y === r)) },
  // Right k eighths (left ones complemented): rightmost column first.
  { kind: PREFIX, atoms: [7, 6, 5, 4, 3, 2, 1, 0].map((c) => maskWhere((x) => x === c)) },
  { kind: SUBSETS, atoms: [0, 1, 2, 3].map((q) => maskWhere((x, y) => (y >> 2) * 2 + (x >> 2) === q)) },
  {
    kind: SUBSETS,
    atoms: [0, 1, 2, 3, 4, 5].map((s) => maskWhere((x, y) => 2 * (y < 3 ? 0 : y < 5 ? 1 : 2) + (x >> 2) === s)),
  },
  { kind: SUBSETS, atoms: [0, 1, 2, 3, 4, 5, 6, 7].map((o) => maskWhere((x, y) => 2 * (y >> 1) + (x >> 2) === o)) },
  // Braille dots (2x1 sub-pixels, see brailleMask); the rest of the cell is never ink.
  {
    kind: SUBSETS,
    atoms: [
      [0, 0],
      [0, 1],
      [0, 2],
      [1, 0],
      [1, 1],
      [1, 2],
      [0, 3],
      [1, 3],
    ].map(([col, row]) => maskWhere((x, y) => y === 2 * row && x >> 2 === col && ((x & 3) === 1 || (x & 3) === 2))),
  },
];

/** The half rows (row y, left/right: index 2y + side) and the columns, as masks: the sums a cell's load gathers. */
let PARTS: { halfRows: readonly CellMask[]; columns: readonly CellMask[] } | undefined;

/** `PARTS`, made once (a one-shot process compiles a plan once, and these are most of its work). */
function parts(): { halfRows: readonly CellMask[]; columns: readonly CellMask[] } {
  PARTS ??= {
    halfRows: Array.from({ length: 2 * CELL_GRID }, (_, i) => maskWhere((x, y) => y === i >> 1 && x >> 2 === (i & 1))),
    columns: Array.from({ length: CELL_GRID }, (_, c) => maskWhere((x) => x === c)),
  };
  return PARTS;
}

/** The sources (offsets into the source vector) whose sum is the sum over `atom`. */
function atomSources(atom: CellMask): number[] {
  const { halfRows: halfRowParts, columns: columnParts } = parts();
  const halfRows: number[] = [];
  let covered: CellMask = { lo: 0, hi: 0 };
  for (let i = 0; i < 2 * CELL_GRID; i++) {
    const part = halfRowParts[i];
    if (sameMask(andMask(atom, part), part)) {
      halfRows.push((SRC_HALF_ROWS + i) * 3);
      covered = orMask(covered, part);
    }
  }
  if (sameMask(covered, atom)) return halfRows;
  const columns: number[] = [];
  covered = { lo: 0, hi: 0 };
  for (let c = 0; c < CELL_GRID; c++) {
    const part = columnParts[c];
    if (sameMask(andMask(atom, part), part)) {
      columns.push((SRC_COLUMNS + c) * 3);
      covered = orMask(covered, part);
    }
  }
  if (sameMask(covered, atom)) return columns;
  const pixels: number[] = [];
  for (let i = 0; i < CELL_PIXELS; i++) if (maskHas(atom, i & 7, i >> 3)) pixels.push((SRC_PIXELS + i) * 3);
  return pixels;
}

/** The entry of `mask` in a template: prefix length or atom subset, or -1 when it is not a union there. */
function entryIn(template: FamilyTemplate, mask: CellMask): number {
  let bits = 0;
  let union: CellMask = { lo: 0, hi: 0 };
  for (const [a, atom] of template.atoms.entries()) {
    const common = andMask(atom, mask);
    if (isEmpty(common)) continue;
    if (!sameMask(common, atom)) return -1;
    bits |= 1 << a;
    union = orMask(union, atom);
  }
  if (!sameMask(union, mask)) return -1;
  if (template.kind === PREFIX) {
    const length = Math.log2(bits + 1);
    return Number.isInteger(length) ? length : -1;
  }
  return bits;
}

const PLANS = new WeakMap<SymbolSet, FitPlan>();

/**
 * Compiles a symbol set for fitting (cached per set object): its shapes, each assigned to the
 * cheapest family that expresses it, and masks no family expresses evaluated pixel by pixel.
 */
export function compilePlan(set: SymbolSet): FitPlan {
  const cached = PLANS.get(set);
  if (cached) return cached;
  const byKey = new Map<string, { mask: CellMask; glyph: string | null; inverse: string | null }>();
  const order: string[] = [];
  const add = (mask: CellMask, glyph: string | null, inverse: string | null): void => {
    const key = maskKey(mask);
    let s = byKey.get(key);
    if (!s) {
      s = { mask, glyph: null, inverse: null };
      byKey.set(key, s);
      order.push(key);
    }
    if (glyph !== null && s.glyph === null) s.glyph = glyph;
    if (inverse !== null && s.inverse === null) s.inverse = inverse;
  };
  add({ lo: 0, hi: 0 }, null, null);
  for (const g of set.glyphs) {
    const m = g.mask;
    if ((m.lo & 1) === 0) add({ lo: m.lo >>> 0, hi: m.hi >>> 0 }, g.char, null);
    else add(maskComplement(m), null, g.char);
  }
  const shapes: Shape[] = order.map((key) => {
    const s = byKey.get(key) as { mask: CellMask; glyph: string | null; inverse: string | null };
    return Object.freeze({ mask: s.mask, count: maskCount(s.mask), glyph: s.glyph, inverse: s.inverse });
  });
  // A uniform cell draws as a space on the colour or a full block in it.
  const uniform = shapes[0];
  shapes[0] = Object.freeze({ ...uniform, glyph: uniform.glyph ?? ' ', inverse: uniform.inverse ?? '\u2588' });

  const members: { bits: number; shape: number; flip: boolean }[][] = TEMPLATES.map(() => []);
  const loose: number[] = [];
  for (let s = 1; s < shapes.length; s++) {
    const mask = shapes[s].mask;
    let placed = false;
    for (const [t, template] of TEMPLATES.entries()) {
      const direct = entryIn(template, mask);
      const flipped = direct < 0 ? entryIn(template, maskComplement(mask)) : -1;
      if (direct >= 0 || flipped >= 0) {
        members[t].push({ bits: direct >= 0 ? direct : flipped, shape: s, flip: direct < 0 });
        placed = true;
        break;
      }
    }
    if (!placed) loose.push(s);
  }

  const families: Family[] = [];
  for (const [t, template] of TEMPLATES.entries()) {
    const list = members[t];
    if (list.length === 0) continue;
    list.sort((a, b) => a.bits - b.bits);
    const start: number[] = [0];
    const src: number[] = [];
    for (const atom of template.atoms) {
      src.push(...atomSources(atom));
      start.push(src.length);
    }
    families.push(
      familyOf(
        template.kind,
        template.atoms.length,
        Int32Array.from(start),
        Int32Array.from(src),
        list.map((m) => ({ ...m, count: familyCount(template, m.bits) })),
        shapes,
      ),
    );
  }
  if (loose.length > 0) {
    families.push(
      familyOf(
        PIXELS,
        0,
        new Int32Array(1),
        new Int32Array(0),
        loose.map((s) => ({ bits: 0, shape: s, flip: false, count: shapes[s].count })),
        shapes,
      ),
    );
  }
  const needsPixels = families.some((f) => f.kind === PIXELS || hasPixelSources(f));
  const plan: FitPlan = Object.freeze({
    set,
    shapes: Object.freeze(shapes),
    families: Object.freeze(families),
    needsPixels,
  });
  PLANS.set(set, plan);
  return plan;
}

function hasPixelSources(f: Family): boolean {
  for (const s of f.atomSrc) if (s >= SRC_PIXELS * 3) return true;
  return false;
}

function familyCount(template: FamilyTemplate, bits: number): number {
  let n = 0;
  for (const [a, atom] of template.atoms.entries()) {
    const inside = template.kind === PREFIX ? a < bits : ((bits >>> a) & 1) === 1;
    if (inside) n += maskCount(atom);
  }
  return n;
}

function familyOf(
  kind: number,
  atoms: number,
  atomStart: Int32Array,
  atomSrc: Int32Array,
  list: readonly { bits: number; shape: number; flip: boolean; count: number }[],
  shapes: readonly Shape[],
): Family {
  const n = list.length;
  const entryStart = [0];
  const entryAtom: number[] = [];
  for (const m of list) {
    for (let a = atoms - 1; a >= 0; a--) if (kind === SUBSETS && ((m.bits >>> a) & 1) === 1) entryAtom.push(a * 3);
    entryStart.push(entryAtom.length);
  }
  const f = {
    kind,
    atoms,
    atomStart,
    atomSrc,
    // Summing each entry costs one addition an atom; the subset table one a union.
    direct: kind === SUBSETS && entryAtom.length < (1 << atoms) - 1,
    entryStart: Int32Array.from(entryStart),
    entryAtom: Int32Array.from(entryAtom),
    bits: new Int32Array(n),
    shape: new Int32Array(n),
    flip: new Uint8Array(n),
    invIn: new Float64Array(n),
    invOut: new Float64Array(n),
    lo: new Int32Array(n),
    hi: new Int32Array(n),
  };
  for (const [i, m] of list.entries()) {
    f.bits[i] = m.bits;
    f.shape[i] = m.shape;
    f.flip[i] = m.flip ? 1 : 0;
    f.invIn[i] = 1 / m.count;
    f.invOut[i] = 1 / (CELL_PIXELS - m.count);
    f.lo[i] = shapes[m.shape].mask.lo | 0;
    f.hi[i] = shapes[m.shape].mask.hi | 0;
  }
  return f;
}

/** The fitted cell: `shape` (-1: every pixel transparent), the inside and outside colour keys, the error. */
export interface CellChoice {
  shape: number;
  /** Key of the colour inside the shape's mask (see symbols-palette.ts). */
  inside: number;
  /** Key of the colour outside it. */
  outside: number;
  /** Weighted squared error of the cell as shown. */
  error: number;
  /** The cell's mean as shown, and as wanted (for error diffusion). */
  readonly shownMean: Float64Array;
  readonly wantedMean: Float64Array;
}

/** A mean as the byte a 24-bit colour shows: rounded and clamped, as `colorKey` does. */
function byteOf(v: number): number {
  const r = Math.round(v);
  return r < 0 ? 0 : Math.min(r, 255);
}

/** Whether this machine stores a 32-bit word's low byte first (then an RGBA pixel is one word read). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** A shape index for a cell whose pixels are all transparent. */
export const TRANSPARENT_CELL = -1;

/** Options of a fitter. */
export interface FitterOptions {
  readonly depth: SymbolColorDepth;
  /** The terminal's background, which transparent pixels show (alpha < 128) and half-transparent ones blend onto. */
  readonly background: readonly [number, number, number];
  readonly weights?: ChannelWeights;
  /** How many of the best shapes (by exact colours) are scored again with palette colours. Default 6 (1 at 24-bit). */
  readonly refit?: number;
}

/**
 * Fits cells of a raster laid out as 8x8 sub-pixels a cell. One instance keeps its scratch
 * buffers; `fit` writes into `choice`, which it returns.
 */
export class SymbolFitter {
  readonly plan: FitPlan;
  readonly choice: CellChoice = {
    shape: 0,
    inside: 0,
    outside: 0,
    error: 0,
    shownMean: new Float64Array(3),
    wantedMean: new Float64Array(3),
  };
  private readonly src = new Float64Array(SRC_LENGTH);
  private readonly atom = new Float64Array(8 * 3);
  private readonly sums = new Float64Array(256 * 3);
  private readonly depth: SymbolColorDepth;
  private readonly weights: ChannelWeights;
  private readonly background: readonly [number, number, number];
  private readonly k: number;
  private readonly candScore: Float64Array;
  private readonly candShape: Int32Array;
  private readonly candIn: Float64Array;
  private readonly rgb: number[] = [0, 0, 0];
  private total0 = 0;
  private total1 = 0;
  private total2 = 0;
  private squares = 0;
  private readonly exactWeights: boolean;
  /** 24-bit with one candidate (the default): colours are the rounded means, chosen by `chooseExact`. */
  private readonly exact: boolean;
  private wordsFor: Uint8Array | null = null;
  private words: Uint32Array | null = null;

  constructor(set: SymbolSet, options: FitterOptions) {
    this.plan = compilePlan(set);
    this.depth = options.depth;
    this.weights = options.weights ?? ERROR_WEIGHTS;
    // Positive integer weights (the default) keep the flat-cell test exact (see isFlat).
    this.exactWeights = this.weights.every((w) => Number.isInteger(w) && w > 0 && w < 1024);
    this.background = options.background;
    this.k = Math.max(1, Math.min(16, options.refit ?? (options.depth === 'truecolor' ? 1 : 6)));
    this.exact = this.k === 1 && this.depth === 'truecolor';
    this.candScore = new Float64Array(this.k);
    this.candShape = new Int32Array(this.k);
    this.candIn = new Float64Array(this.k * 3);
  }

  /**
   * Fits the cell whose top-left sub-pixel is (x0, y0) of `data` (RGBA, `width` pixels a row),
   * with `offset` (r, g, b) added to every pixel first (error diffusion; clamped to 0..255).
   */
  fit(data: Uint8Array, width: number, x0: number, y0: number, offset?: Float64Array): CellChoice {
    const opaque = offset === undefined && !this.plan.needsPixels && this.loadOpaque(data, width, x0, y0);
    const transparent = opaque ? 0 : this.load(data, width, x0, y0, offset);
    const choice = this.choice;
    if (transparent === CELL_PIXELS) {
      choice.shape = TRANSPARENT_CELL;
      choice.inside = choice.outside = 0;
      choice.error = 0;
      const [br, bg, bb] = this.background;
      choice.shownMean[0] = choice.wantedMean[0] = br;
      choice.shownMean[1] = choice.wantedMean[1] = bg;
      choice.shownMean[2] = choice.wantedMean[2] = bb;
      return choice;
    }
    if (opaque && this.exactWeights && this.isFlat()) this.uniformOnly();
    else this.evaluate();
    if (this.exact) this.chooseExact();
    else if (this.depth === '256') this.choose256();
    else this.choose();
    return choice;
  }

  /**
   * Whether every sub-pixel of the cell has the same colour: 64 Σv² = (Σv)² per channel only then
   * (Cauchy–Schwarz), compared exactly as integer pixels and integer weights keep every sum exact.
   * Such a cell is its colour whatever the shape, so no shape is scored (the same choice as scoring them).
   */
  private isFlat(): boolean {
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    return (
      this.squares * CELL_PIXELS === this.weights[0] * t0 * t0 + this.weights[1] * t1 * t1 + this.weights[2] * t2 * t2
    );
  }

  /** The candidates of a flat cell: the uniform shape alone. */
  private uniformOnly(): void {
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    this.candScore.fill(Number.NEGATIVE_INFINITY);
    this.offer(
      (this.weights[0] * t0 * t0 + this.weights[1] * t1 * t1 + this.weights[2] * t2 * t2) / CELL_PIXELS,
      0,
      0,
      0,
      0,
    );
  }

  /**
   * The common case of `load` without its branches: an opaque cell, no offset, no pixels kept.
   * Returns false (having read nothing useful) when a pixel is not opaque.
   */
  private loadOpaque(data: Uint8Array, width: number, x0: number, y0: number): boolean {
    const words = this.wordsOf(data);
    if (words === null) return false;
    const src = this.src;
    const w0 = this.weights[0];
    const w1 = this.weights[1];
    const w2 = this.weights[2];
    // Column sums in locals (one per channel and column): typed-array stores per pixel cost more
    // than the reads. Little-endian RGBA is one word: r | g << 8 | b << 16 | a << 24.
    let c0r = 0,
      c0g = 0,
      c0b = 0,
      c1r = 0,
      c1g = 0,
      c1b = 0,
      c2r = 0,
      c2g = 0,
      c2b = 0,
      c3r = 0,
      c3g = 0,
      c3b = 0;
    let c4r = 0,
      c4g = 0,
      c4b = 0,
      c5r = 0,
      c5g = 0,
      c5b = 0,
      c6r = 0,
      c6g = 0,
      c6b = 0,
      c7r = 0,
      c7g = 0,
      c7b = 0;
    let q = 0;
    let all = -1;
    for (let y = 0; y < CELL_GRID; y++) {
      const row = (y0 + y) * width + x0;
      const v0 = words[row];
      const v1 = words[row + 1];
      const v2 = words[row + 2];
      const v3 = words[row + 3];
      const v4 = words[row + 4];
      const v5 = words[row + 5];
      const v6 = words[row + 6];
      const v7 = words[row + 7];
      all &= v0 & v1 & v2 & v3 & v4 & v5 & v6 & v7;
      const r0 = v0 & 255,
        g0 = (v0 >>> 8) & 255,
        b0 = (v0 >>> 16) & 255;
      const r1 = v1 & 255,
        g1 = (v1 >>> 8) & 255,
        b1 = (v1 >>> 16) & 255;
      const r2 = v2 & 255,
        g2 = (v2 >>> 8) & 255,
        b2 = (v2 >>> 16) & 255;
      const r3 = v3 & 255,
        g3 = (v3 >>> 8) & 255,
        b3 = (v3 >>> 16) & 255;
      const r4 = v4 & 255,
        g4 = (v4 >>> 8) & 255,
        b4 = (v4 >>> 16) & 255;
      const r5 = v5 & 255,
        g5 = (v5 >>> 8) & 255,
        b5 = (v5 >>> 16) & 255;
      const r6 = v6 & 255,
        g6 = (v6 >>> 8) & 255,
        b6 = (v6 >>> 16) & 255;
      const r7 = v7 & 255,
        g7 = (v7 >>> 8) & 255,
        b7 = (v7 >>> 16) & 255;
      c0r += r0;
      c0g += g0;
      c0b += b0;
      c1r += r1;
      c1g += g1;
      c1b += b1;
      c2r += r2;
      c2g += g2;
      c2b += b2;
      c3r += r3;
      c3g += g3;
      c3b += b3;
      c4r += r4;
      c4g += g4;
      c4b += b4;
      c5r += r5;
      c5g += g5;
      c5b += b5;
      c6r += r6;
      c6g += g6;
      c6b += b6;
      c7r += r7;
      c7g += g7;
      c7b += b7;
      q +=
        w0 * (r0 * r0 + r1 * r1 + r2 * r2 + r3 * r3 + r4 * r4 + r5 * r5 + r6 * r6 + r7 * r7) +
        w1 * (g0 * g0 + g1 * g1 + g2 * g2 + g3 * g3 + g4 * g4 + g5 * g5 + g6 * g6 + g7 * g7) +
        w2 * (b0 * b0 + b1 * b1 + b2 * b2 + b3 * b3 + b4 * b4 + b5 * b5 + b6 * b6 + b7 * b7);
      const h = (SRC_HALF_ROWS + 2 * y) * 3;
      src[h] = r0 + r1 + r2 + r3;
      src[h + 1] = g0 + g1 + g2 + g3;
      src[h + 2] = b0 + b1 + b2 + b3;
      src[h + 3] = r4 + r5 + r6 + r7;
      src[h + 4] = g4 + g5 + g6 + g7;
      src[h + 5] = b4 + b5 + b6 + b7;
    }
    if (all >>> 24 !== 255) return false;
    const c = SRC_COLUMNS * 3;
    src[c] = c0r;
    src[c + 1] = c0g;
    src[c + 2] = c0b;
    src[c + 3] = c1r;
    src[c + 4] = c1g;
    src[c + 5] = c1b;
    src[c + 6] = c2r;
    src[c + 7] = c2g;
    src[c + 8] = c2b;
    src[c + 9] = c3r;
    src[c + 10] = c3g;
    src[c + 11] = c3b;
    src[c + 12] = c4r;
    src[c + 13] = c4g;
    src[c + 14] = c4b;
    src[c + 15] = c5r;
    src[c + 16] = c5g;
    src[c + 17] = c5b;
    src[c + 18] = c6r;
    src[c + 19] = c6g;
    src[c + 20] = c6b;
    src[c + 21] = c7r;
    src[c + 22] = c7g;
    src[c + 23] = c7b;
    this.total0 = c0r + c1r + c2r + c3r + c4r + c5r + c6r + c7r;
    this.total1 = c0g + c1g + c2g + c3g + c4g + c5g + c6g + c7g;
    this.total2 = c0b + c1b + c2b + c3b + c4b + c5b + c6b + c7b;
    this.squares = q;
    return true;
  }

  /** A 32-bit view of `data` (kept for the last raster), or null where pixels cannot be read as words. */
  private wordsOf(data: Uint8Array): Uint32Array | null {
    if (data !== this.wordsFor) {
      this.wordsFor = data;
      this.words =
        LITTLE_ENDIAN && data.byteOffset % 4 === 0
          ? new Uint32Array(data.buffer, data.byteOffset, data.length >>> 2)
          : null;
    }
    return this.words;
  }

  /** Reads the cell into the source vector (half-row, column and, when needed, pixel sums); returns how many pixels were transparent. */
  private load(data: Uint8Array, width: number, x0: number, y0: number, offset?: Float64Array): number {
    const src = this.src;
    src.fill(0, 0, SRC_PIXELS * 3);
    const [br, bgc, bb] = this.background;
    const keep = this.plan.needsPixels;
    const w0 = this.weights[0];
    const w1 = this.weights[1];
    const w2 = this.weights[2];
    const o0 = offset ? offset[0] : 0;
    const o1 = offset ? offset[1] : 0;
    const o2 = offset ? offset[2] : 0;
    const shifted = o0 !== 0 || o1 !== 0 || o2 !== 0;
    let transparent = 0;
    let t0 = 0;
    let t1 = 0;
    let t2 = 0;
    let q = 0;
    for (let y = 0; y < CELL_GRID; y++) {
      let p = ((y0 + y) * width + x0) * 4;
      let l0 = 0;
      let l1 = 0;
      let l2 = 0;
      let r0 = 0;
      let r1 = 0;
      let r2 = 0;
      for (let x = 0; x < CELL_GRID; x++, p += 4) {
        const a = data[p + 3];
        let r: number;
        let g: number;
        let b: number;
        if (a === 255) {
          r = data[p];
          g = data[p + 1];
          b = data[p + 2];
        } else if (a < 128) {
          transparent++;
          r = br;
          g = bgc;
          b = bb;
        } else {
          r = blendChannel(data[p], br, a);
          g = blendChannel(data[p + 1], bgc, a);
          b = blendChannel(data[p + 2], bb, a);
        }
        if (shifted) {
          r = Math.min(255, Math.max(0, r + o0));
          g = Math.min(255, Math.max(0, g + o1));
          b = Math.min(255, Math.max(0, b + o2));
        }
        if (x < 4) {
          l0 += r;
          l1 += g;
          l2 += b;
        } else {
          r0 += r;
          r1 += g;
          r2 += b;
        }
        const c = (SRC_COLUMNS + x) * 3;
        src[c] += r;
        src[c + 1] += g;
        src[c + 2] += b;
        q += w0 * r * r + w1 * g * g + w2 * b * b;
        if (keep) {
          const i = (SRC_PIXELS + y * CELL_GRID + x) * 3;
          src[i] = r;
          src[i + 1] = g;
          src[i + 2] = b;
        }
      }
      const h = (SRC_HALF_ROWS + 2 * y) * 3;
      src[h] = l0;
      src[h + 1] = l1;
      src[h + 2] = l2;
      src[h + 3] = r0;
      src[h + 4] = r1;
      src[h + 5] = r2;
      t0 += l0 + r0;
      t1 += l1 + r1;
      t2 += l2 + r2;
    }
    this.total0 = t0;
    this.total1 = t1;
    this.total2 = t2;
    this.squares = q;
    return transparent;
  }

  /** Scores every shape; keeps the best `k` (score, shape, inside sums). */
  private evaluate(): void {
    const { src, atom, sums, candScore } = this;
    const w0 = this.weights[0];
    const w1 = this.weights[1];
    const w2 = this.weights[2];
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    const kk = this.k;
    for (let c = 0; c < kk; c++) candScore[c] = Number.NEGATIVE_INFINITY;
    // The uniform cell: everything outside, its mean everywhere.
    this.offer((w0 * t0 * t0 + w1 * t1 * t1 + w2 * t2 * t2) / CELL_PIXELS, 0, 0, 0, 0);
    let floor = kk === 1 ? candScore[0] : Number.NEGATIVE_INFINITY;
    const families = this.plan.families;
    for (let fi = 0; fi < families.length; fi++) {
      const f = families[fi];
      const n = f.bits.length;
      if (f.kind === PIXELS) {
        for (let e = 0; e < n; e++) {
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          for (let word = 0; word < 2; word++) {
            let m = word === 0 ? f.lo[e] : f.hi[e];
            while (m !== 0) {
              const low = m & -m;
              const i = (SRC_PIXELS + word * 32 + (31 - Math.clz32(low))) * 3;
              s0 += src[i];
              s1 += src[i + 1];
              s2 += src[i + 2];
              m ^= low;
            }
          }
          const u0 = t0 - s0;
          const u1 = t1 - s1;
          const u2 = t2 - s2;
          const ii = f.invIn[e];
          const io = f.invOut[e];
          const score =
            w0 * (s0 * s0 * ii + u0 * u0 * io) +
            w1 * (s1 * s1 * ii + u1 * u1 * io) +
            w2 * (s2 * s2 * ii + u2 * u2 * io);
          if (score > floor) {
            this.offer(score, f.shape[e], s0, s1, s2);
            floor = kk === 1 ? score : candScore[kk - 1];
          }
        }
        continue;
      }
      const atoms = f.atoms;
      const atomStart = f.atomStart;
      const atomSrc = f.atomSrc;
      const bits = f.bits;
      const invIn = f.invIn;
      const invOut = f.invOut;
      if (f.kind === PREFIX) {
        // Prefix j is atoms 0..j-1: running sums, each atom's sources added as it comes.
        sums[0] = sums[1] = sums[2] = 0;
        let s0 = 0;
        let s1 = 0;
        let s2 = 0;
        for (let a = 0; a < atoms; a++) {
          let a0 = 0;
          let a1 = 0;
          let a2 = 0;
          for (let j = atomStart[a], end = atomStart[a + 1]; j < end; j++) {
            const o = atomSrc[j];
            a0 += src[o];
            a1 += src[o + 1];
            a2 += src[o + 2];
          }
          s0 += a0;
          s1 += a1;
          s2 += a2;
          sums[(a + 1) * 3] = s0;
          sums[(a + 1) * 3 + 1] = s1;
          sums[(a + 1) * 3 + 2] = s2;
        }
      } else {
        for (let a = 0; a < atoms; a++) {
          let s0 = 0;
          let s1 = 0;
          let s2 = 0;
          for (let j = atomStart[a], end = atomStart[a + 1]; j < end; j++) {
            const o = atomSrc[j];
            s0 += src[o];
            s1 += src[o + 1];
            s2 += src[o + 2];
          }
          atom[a * 3] = s0;
          atom[a * 3 + 1] = s1;
          atom[a * 3 + 2] = s2;
        }
        if (f.direct) {
          // Each entry from its own atoms, in the subset table's order; its sums go where the table's would.
          const entryStart = f.entryStart;
          const entryAtom = f.entryAtom;
          for (let e = 0; e < n; e++) {
            let s0 = 0;
            let s1 = 0;
            let s2 = 0;
            for (let j = entryStart[e], end = entryStart[e + 1]; j < end; j++) {
              const a = entryAtom[j];
              s0 += atom[a];
              s1 += atom[a + 1];
              s2 += atom[a + 2];
            }
            const o = bits[e] * 3;
            sums[o] = s0;
            sums[o + 1] = s1;
            sums[o + 2] = s2;
          }
        } else {
          // Subset sums: each subset is a smaller one plus its lowest atom.
          sums[0] = sums[1] = sums[2] = 0;
          const limit = 1 << atoms;
          for (let m = 1; m < limit; m++) {
            const low = m & -m;
            const a = (31 - Math.clz32(low)) * 3;
            const p = (m ^ low) * 3;
            const o = m * 3;
            sums[o] = sums[p] + atom[a];
            sums[o + 1] = sums[p + 1] + atom[a + 1];
            sums[o + 2] = sums[p + 2] + atom[a + 2];
          }
        }
      }
      for (let e = 0; e < n; e++) {
        // The score is the same for a mask and its complement (the two terms swap), so it is
        // computed on the family's mask; a flipped entry's inside is the family's outside.
        const o = bits[e] * 3;
        const s0 = sums[o];
        const s1 = sums[o + 1];
        const s2 = sums[o + 2];
        const u0 = t0 - s0;
        const u1 = t1 - s1;
        const u2 = t2 - s2;
        const ii = invIn[e];
        const io = invOut[e];
        const score =
          w0 * (s0 * s0 * ii + u0 * u0 * io) + w1 * (s1 * s1 * ii + u1 * u1 * io) + w2 * (s2 * s2 * ii + u2 * u2 * io);
        if (score > floor) {
          // One call site (each is inlined with offer's loop): the inside sums picked first.
          const flip = f.flip[e] === 1;
          this.offer(score, f.shape[e], flip ? u0 : s0, flip ? u1 : s1, flip ? u2 : s2);
          floor = kk === 1 ? score : candScore[kk - 1];
        }
      }
    }
  }

  /** Inserts a candidate into the sorted best-k list. */
  private offer(score: number, shape: number, s0: number, s1: number, s2: number): void {
    const { candScore, candShape, candIn } = this;
    let i = this.k - 1;
    if (score <= candScore[i]) return;
    while (i > 0 && candScore[i - 1] < score) {
      candScore[i] = candScore[i - 1];
      candShape[i] = candShape[i - 1];
      candIn[i * 3] = candIn[(i - 1) * 3];
      candIn[i * 3 + 1] = candIn[(i - 1) * 3 + 1];
      candIn[i * 3 + 2] = candIn[(i - 1) * 3 + 2];
      i--;
    }
    candScore[i] = score;
    candShape[i] = shape;
    candIn[i * 3] = s0;
    candIn[i * 3 + 1] = s1;
    candIn[i * 3 + 2] = s2;
  }

  /**
   * `choose` for one candidate at 24-bit, the default: the colours are the means rounded, so no
   * palette lookup and no loop. A small function of its own, so a one-shot process optimises it
   * early (the same arithmetic as `choose`, so the same bytes).
   */
  private chooseExact(): void {
    const { candIn, choice, weights } = this;
    const shape = this.candShape[0];
    const n = this.plan.shapes[shape].count;
    const m = CELL_PIXELS - n;
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    const s0 = candIn[0];
    const s1 = candIn[1];
    const s2 = candIn[2];
    const u0 = t0 - s0;
    const u1 = t1 - s1;
    const u2 = t2 - s2;
    const b0 = byteOf(u0 / m);
    const b1 = byteOf(u1 / m);
    const b2 = byteOf(u2 / m);
    const outside = (b0 << 16) | (b1 << 8) | b2;
    let a0 = b0;
    let a1 = b1;
    let a2 = b2;
    if (n !== 0) {
      a0 = byteOf(s0 / n);
      a1 = byteOf(s1 / n);
      a2 = byteOf(s2 / n);
    }
    const inside = (a0 << 16) | (a1 << 8) | a2;
    const error =
      this.squares +
      weights[0] * (n * a0 * a0 - 2 * s0 * a0 + m * b0 * b0 - 2 * u0 * b0) +
      weights[1] * (n * a1 * a1 - 2 * s1 * a1 + m * b1 * b1 - 2 * u1 * b1) +
      weights[2] * (n * a2 * a2 - 2 * s2 * a2 + m * b2 * b2 - 2 * u2 * b2);
    choice.shape = inside === outside ? 0 : shape;
    choice.inside = inside;
    choice.outside = outside;
    choice.shownMean[0] = (n * a0 + m * b0) / CELL_PIXELS;
    choice.shownMean[1] = (n * a1 + m * b1) / CELL_PIXELS;
    choice.shownMean[2] = (n * a2 + m * b2) / CELL_PIXELS;
    choice.error = Math.max(0, error);
    choice.wantedMean[0] = t0 / CELL_PIXELS;
    choice.wantedMean[1] = t1 / CELL_PIXELS;
    choice.wantedMean[2] = t2 / CELL_PIXELS;
  }

  /**
   * `choose` at 256 colours, its palette lookups written out (`key256`, `XTERM_RGB`) instead of
   * `colorKey` and `keyRgb`: a few calls a candidate instead of about twenty, for a one-shot
   * process that runs most cells before this is optimised. The same arithmetic, so the same bytes.
   */
  private choose256(): void {
    const { candScore, candShape, candIn, choice, weights } = this;
    const shapes = this.plan.shapes;
    const w0 = weights[0];
    const w1 = weights[1];
    const w2 = weights[2];
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    let bestError = Number.POSITIVE_INFINITY;
    for (let c = 0; c < this.k; c++) {
      if (candScore[c] === Number.NEGATIVE_INFINITY) break;
      const shape = candShape[c];
      const n = shapes[shape].count;
      const m = CELL_PIXELS - n;
      const s0 = candIn[c * 3];
      const s1 = candIn[c * 3 + 1];
      const s2 = candIn[c * 3 + 2];
      const u0 = t0 - s0;
      const u1 = t1 - s1;
      const u2 = t2 - s2;
      const outside = key256(u0 / m, u1 / m, u2 / m);
      const inside = n === 0 ? outside : key256(s0 / n, s1 / n, s2 / n);
      const a0 = XTERM_RGB[inside * 3];
      const a1 = XTERM_RGB[inside * 3 + 1];
      const a2 = XTERM_RGB[inside * 3 + 2];
      const b0 = XTERM_RGB[outside * 3];
      const b1 = XTERM_RGB[outside * 3 + 1];
      const b2 = XTERM_RGB[outside * 3 + 2];
      const error =
        this.squares +
        w0 * (n * a0 * a0 - 2 * s0 * a0 + m * b0 * b0 - 2 * u0 * b0) +
        w1 * (n * a1 * a1 - 2 * s1 * a1 + m * b1 * b1 - 2 * u1 * b1) +
        w2 * (n * a2 * a2 - 2 * s2 * a2 + m * b2 * b2 - 2 * u2 * b2);
      if (error < bestError) {
        bestError = error;
        choice.shape = inside === outside ? 0 : shape;
        choice.inside = inside;
        choice.outside = outside;
        choice.shownMean[0] = (n * a0 + m * b0) / CELL_PIXELS;
        choice.shownMean[1] = (n * a1 + m * b1) / CELL_PIXELS;
        choice.shownMean[2] = (n * a2 + m * b2) / CELL_PIXELS;
      }
    }
    choice.error = Math.max(0, bestError);
    choice.wantedMean[0] = t0 / CELL_PIXELS;
    choice.wantedMean[1] = t1 / CELL_PIXELS;
    choice.wantedMean[2] = t2 / CELL_PIXELS;
  }

  /** Picks among the candidates with the colours the depth can show; fills `choice`. */
  private choose(): void {
    const { candScore, candShape, candIn, choice, depth, weights, rgb } = this;
    const shapes = this.plan.shapes;
    const w0 = weights[0];
    const w1 = weights[1];
    const w2 = weights[2];
    const t0 = this.total0;
    const t1 = this.total1;
    const t2 = this.total2;
    let bestError = Number.POSITIVE_INFINITY;
    for (let c = 0; c < this.k; c++) {
      if (candScore[c] === Number.NEGATIVE_INFINITY) break;
      const shape = candShape[c];
      const n = shapes[shape].count;
      const m = CELL_PIXELS - n;
      const s0 = candIn[c * 3];
      const s1 = candIn[c * 3 + 1];
      const s2 = candIn[c * 3 + 2];
      const u0 = t0 - s0;
      const u1 = t1 - s1;
      const u2 = t2 - s2;
      const outside = colorKey(u0 / m, u1 / m, u2 / m, depth, weights);
      const inside = n === 0 ? outside : colorKey(s0 / n, s1 / n, s2 / n, depth, weights);
      // Exact error with these colours: Q - 2 S_in.c_in + n |c_in|^2 - 2 S_out.c_out + m |c_out|^2 (weighted).
      keyRgb(inside, depth, rgb);
      const a0 = rgb[0];
      const a1 = rgb[1];
      const a2 = rgb[2];
      keyRgb(outside, depth, rgb);
      const b0 = rgb[0];
      const b1 = rgb[1];
      const b2 = rgb[2];
      const error =
        this.squares +
        w0 * (n * a0 * a0 - 2 * s0 * a0 + m * b0 * b0 - 2 * u0 * b0) +
        w1 * (n * a1 * a1 - 2 * s1 * a1 + m * b1 * b1 - 2 * u1 * b1) +
        w2 * (n * a2 * a2 - 2 * s2 * a2 + m * b2 * b2 - 2 * u2 * b2);
      if (error < bestError) {
        bestError = error;
        choice.shape = inside === outside ? 0 : shape;
        choice.inside = inside;
        choice.outside = outside;
        choice.shownMean[0] = (n * a0 + m * b0) / CELL_PIXELS;
        choice.shownMean[1] = (n * a1 + m * b1) / CELL_PIXELS;
        choice.shownMean[2] = (n * a2 + m * b2) / CELL_PIXELS;
      }
    }
    choice.error = Math.max(0, bestError);
    choice.wantedMean[0] = t0 / CELL_PIXELS;
    choice.wantedMean[1] = t1 / CELL_PIXELS;
    choice.wantedMean[2] = t2 / CELL_PIXELS;
  }
}
