/**
 * The glyphs a symbols picture is drawn with, as data: each glyph is a character and the part of
 * the cell its ink covers, a bitmask over a grid of 8x8 sub-pixels. Pure data and pure helpers.
 *
 * Mask layout: sub-pixel (x, y), 0 <= x, y < 8, is bit `y * 8 + x` of a 64-bit mask kept as two
 * unsigned 32-bit words, `lo` (rows 0-3) and `hi` (rows 4-7), so masks combine with plain 32-bit
 * bit operations. Why 8x8 and how sextants (thirds) and braille dots sit on it: docs/render.md,
 * "Symbols".
 */

/** Sub-pixels per cell side: every glyph is a mask over `CELL_GRID` x `CELL_GRID` sub-pixels. */
export const CELL_GRID = 8;

/** Sub-pixels in one cell. */
export const CELL_PIXELS = CELL_GRID * CELL_GRID;

/** A cell's coverage: bit `y * 8 + x` set where ink is; `lo` holds rows 0-3, `hi` rows 4-7. */
export interface CellMask {
  readonly lo: number;
  readonly hi: number;
}

/** One character and the sub-pixels its ink covers (drawn in the foreground colour). */
export interface Glyph {
  readonly char: string;
  readonly mask: CellMask;
}

/** A named list of glyphs to draw with; every set contains a space and the full block. */
export interface SymbolSet {
  readonly name: string;
  readonly glyphs: readonly Glyph[];
}

/** The names of the built-in symbol sets (`SYMBOL_SETS`). */
export type SymbolSetName = 'half' | 'quadrant' | 'eighths' | 'block' | 'sextant' | 'octant' | 'braille' | 'all';

/**
 * The mask of the sub-pixels for which `inside(x, y)` is true.
 *
 * @example maskWhere((x, y) => y >= 4) // the lower half: { lo: 0, hi: 0xffffffff }
 */
export function maskWhere(inside: (x: number, y: number) => boolean): CellMask {
  let lo = 0;
  let hi = 0;
  for (let y = 0; y < CELL_GRID; y++) {
    for (let x = 0; x < CELL_GRID; x++) {
      if (!inside(x, y)) continue;
      const bit = (y & 3) * 8 + x;
      if (y < 4) lo |= 1 << bit;
      else hi |= 1 << bit;
    }
  }
  return { lo: lo >>> 0, hi: hi >>> 0 };
}

/** Whether sub-pixel (x, y) is inside `mask`. */
export function maskHas(mask: CellMask, x: number, y: number): boolean {
  const bit = (y & 3) * 8 + x;
  return (((y < 4 ? mask.lo : mask.hi) >>> bit) & 1) === 1;
}

/** The sub-pixels outside `mask`. */
export function maskComplement(mask: CellMask): CellMask {
  return { lo: ~mask.lo >>> 0, hi: ~mask.hi >>> 0 };
}

/** Set bits in a 32-bit word (SWAR popcount). */
export function popcount32(v: number): number {
  let x = v - ((v >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24) & 0xff;
}

/** How many sub-pixels `mask` covers (0..64). */
export function maskCount(mask: CellMask): number {
  return popcount32(mask.lo) + popcount32(mask.hi);
}

/** A mask as one string key, for tables keyed by shape. */
export function maskKey(mask: CellMask): string {
  return `${mask.hi.toString(16)}:${mask.lo.toString(16)}`;
}

const glyph = (char: string, inside: (x: number, y: number) => boolean): Glyph =>
  Object.freeze({ char, mask: maskWhere(inside) });

/** Space: no ink. */
export const SPACE: Glyph = glyph(' ', () => false);
/** Full block U+2588: ink everywhere. */
export const FULL: Glyph = glyph('\u2588', () => true);

/** Upper and lower half blocks (U+2580, U+2584). */
export const HALF_GLYPHS: readonly Glyph[] = Object.freeze([
  glyph('\u2580', (_x, y) => y < 4),
  glyph('\u2584', (_x, y) => y >= 4),
]);

/**
 * Sextant rows on the 8-row grid: the cell's thirds (2.67 sub-pixels each) rounded to rows
 * 0-2, 3-4 and 5-7.
 */
export const SEXTANT_ROW_START: readonly number[] = [0, 3, 5, 8];

/** Which third of the cell a sub-pixel row falls in (0, 1, 2). */
function sextantRow(y: number): number {
  return y < SEXTANT_ROW_START[1] ? 0 : y < SEXTANT_ROW_START[2] ? 1 : 2;
}

/** The mask of each part (bit) of a pattern, OR-ed together: building ~600 glyphs this way is cheap. */
function patternMask(parts: readonly CellMask[], pattern: number): CellMask {
  let lo = 0;
  let hi = 0;
  for (let bit = 0; bit < parts.length; bit++) {
    if (((pattern >>> bit) & 1) === 0) continue;
    lo |= parts[bit].lo;
    hi |= parts[bit].hi;
  }
  return { lo: lo >>> 0, hi: hi >>> 0 };
}

/** The six sextant parts, bit `2 * row + column`. */
const SEXTANT_PARTS: readonly CellMask[] = Array.from({ length: 6 }, (_, bit) =>
  maskWhere((x, y) => 2 * sextantRow(y) + (x >> 2) === bit),
);

/**
 * The mask of a 2x3 sextant pattern: bit `2 * row + column` of `pattern` (0..63) lights that
 * sixth, so bit 0 is the top left, bit 1 the top right, bit 5 the bottom right (the numbering of
 * the Unicode names: SEXTANT-1 is bit 0, SEXTANT-6 bit 5).
 */
export function sextantMask(pattern: number): CellMask {
  return patternMask(SEXTANT_PARTS, pattern);
}

/**
 * The code point of a sextant pattern in "Symbols for Legacy Computing" (Unicode 13): the
 * patterns 1..62 in increasing order from U+1FB00, skipping 21 (left column, '▌') and 42 (right
 * column, '▐'), which already exist; 0 (space) and 63 (full block) are not sextants either.
 * Returns undefined for those four.
 *
 * @example sextantCodePoint(1) // 0x1fb00, BLOCK SEXTANT-1
 */
export function sextantCodePoint(pattern: number): number | undefined {
  if (!Number.isInteger(pattern) || pattern <= 0 || pattern >= 63 || pattern === 21 || pattern === 42) return undefined;
  return 0x1fb00 + pattern - 1 - (pattern > 21 ? 1 : 0) - (pattern > 42 ? 1 : 0);
}

/** The eight octant parts, bit `2 * row + column` (rows of two sub-pixels). */
const OCTANT_PARTS: readonly CellMask[] = Array.from({ length: 8 }, (_, bit) =>
  maskWhere((x, y) => 2 * (y >> 1) + (x >> 2) === bit),
);

/**
 * The mask of a 2x4 octant pattern: bit `2 * row + column` of `pattern` (0..255) lights that
 * eighth (rows of two sub-pixels), numbered as the Unicode names (OCTANT-1 is bit 0).
 */
export function octantMask(pattern: number): CellMask {
  return patternMask(OCTANT_PARTS, pattern);
}

/**
 * Octant patterns Unicode encodes outside the octant block: the 16 quadrant patterns (each 2x2
 * quadrant all lit or all dark: space, full, halves, quadrants), the four lone corner octants
 * (1, 2, 64, 128), upper and lower one quarter (3, 192), upper and lower three quarters
 * (63, 252), and the middle left and right quarters (20, 40).
 */
export const OCTANTS_ENCODED_ELSEWHERE: readonly number[] = Object.freeze([
  0, 1, 2, 3, 5, 10, 15, 20, 40, 63, 64, 80, 85, 90, 95, 128, 160, 165, 170, 175, 192, 240, 245, 250, 252, 255,
]);

const OCTANT_CODE_POINTS: ReadonlyMap<number, number> = (() => {
  const skip = new Set(OCTANTS_ENCODED_ELSEWHERE);
  const map = new Map<number, number>();
  let next = 0x1cd00;
  for (let p = 0; p < 256; p++) if (!skip.has(p)) map.set(p, next++);
  return map;
})();

/**
 * The code point of an octant pattern in "Symbols for Legacy Computing Supplement" (Unicode 16):
 * the patterns 0..255 in increasing order from U+1CD00, skipping `OCTANTS_ENCODED_ELSEWHERE`
 * (230 characters, U+1CD00..U+1CDE5). Undefined for the skipped patterns.
 *
 * @example octantCodePoint(4) // 0x1cd00, BLOCK OCTANT-3
 */
export function octantCodePoint(pattern: number): number | undefined {
  return OCTANT_CODE_POINTS.get(pattern);
}

/** Braille dot number (1..8) of each bit of a braille pattern's low byte, as Unicode assigns them. */
const BRAILLE_DOTS: readonly { readonly column: number; readonly row: number }[] = [
  { column: 0, row: 0 },
  { column: 0, row: 1 },
  { column: 0, row: 2 },
  { column: 1, row: 0 },
  { column: 1, row: 1 },
  { column: 1, row: 2 },
  { column: 0, row: 3 },
  { column: 1, row: 3 },
];

/**
 * The eight braille dots, bit by bit: each dot is modelled as 2x1 sub-pixels, the middle two
 * columns of its column's half and the upper row of its row's pair (a font draws a dot as a small
 * disc, not a filled eighth).
 */
const BRAILLE_PARTS: readonly CellMask[] = BRAILLE_DOTS.map((dot) =>
  maskWhere((x, y) => y === 2 * dot.row && (x & 3) >= 1 && (x & 3) <= 2 && x >> 2 === dot.column),
);

/** The mask of braille pattern U+2800 + `pattern`: its dots' masks together (`BRAILLE_PARTS`). */
export function brailleMask(pattern: number): CellMask {
  return patternMask(BRAILLE_PARTS, pattern);
}

/** The quadrant glyphs: four single quadrants, their complements, the two diagonals, and the side halves. */
export const QUADRANT_GLYPHS: readonly Glyph[] = Object.freeze(
  [
    ['\u2596', 4], // ▖ lower left
    ['\u2597', 8], // ▗ lower right
    ['\u2598', 1], // ▘ upper left
    ['\u259d', 2], // ▝ upper right
    ['\u2599', 1 | 4 | 8], // ▙
    ['\u259b', 1 | 2 | 4], // ▛
    ['\u259c', 1 | 2 | 8], // ▜
    ['\u259f', 2 | 4 | 8], // ▟
    ['\u259a', 1 | 8], // ▚
    ['\u259e', 2 | 4], // ▞
    ['\u258c', 1 | 4], // ▌
    ['\u2590', 2 | 8], // ▐
  ].map(([char, bits]) =>
    glyph(char as string, (x, y) => (((bits as number) >>> ((y >> 2) * 2 + (x >> 2))) & 1) === 1),
  ),
);

/**
 * Eighths: lower 1/8..7/8 (U+2581..U+2587), left 7/8..1/8 (U+2589..U+258F), and the upper and
 * right one eighth (U+2594, U+2595). With free colours a mask and its complement draw the same,
 * so these two only matter where the colours are fixed (`colorDepth: 'none'`).
 */
export const EIGHTHS_GLYPHS: readonly Glyph[] = Object.freeze([
  ...[1, 2, 3, 4, 5, 6, 7].map((k) => glyph(String.fromCodePoint(0x2580 + k), (_x, y) => y >= 8 - k)),
  ...[7, 6, 5, 4, 3, 2, 1].map((k) => glyph(String.fromCodePoint(0x2588 + 8 - k), (x) => x < k)),
  glyph('\u2594', (_x, y) => y === 0),
  glyph('\u2595', (x) => x === 7),
]);

/** The 60 sextants, U+1FB00..U+1FB3B. Made when a set that has them is first used. */
const sextantGlyphs = (): readonly Glyph[] =>
  Object.freeze(
    Array.from({ length: 64 }, (_, p) => p).flatMap((p) => {
      const cp = sextantCodePoint(p);
      return cp === undefined ? [] : [Object.freeze({ char: String.fromCodePoint(cp), mask: sextantMask(p) })];
    }),
  );

/**
 * The 230 octants, U+1CD00..U+1CDE5, with the quarter blocks that complete the 2x4 patterns
 * (▂ ▆, and upper one quarter / three quarters U+1FB82, U+1FB85).
 */
const octantGlyphs = (): readonly Glyph[] =>
  Object.freeze([
    ...Array.from({ length: 256 }, (_, p) => p).flatMap((p) => {
      const cp = octantCodePoint(p);
      return cp === undefined ? [] : [Object.freeze({ char: String.fromCodePoint(cp), mask: octantMask(p) })];
    }),
    Object.freeze({ char: '\u2582', mask: octantMask(192) }),
    Object.freeze({ char: '\u2586', mask: octantMask(252) }),
    Object.freeze({ char: '\u{1fb82}', mask: octantMask(3) }),
    Object.freeze({ char: '\u{1fb85}', mask: octantMask(63) }),
  ]);

/** The 255 braille patterns with at least one dot, U+2801..U+28FF (U+2800 draws as the space). */
const brailleGlyphs = (): readonly Glyph[] =>
  Object.freeze(
    Array.from({ length: 255 }, (_, i) =>
      Object.freeze({ char: String.fromCodePoint(0x2801 + i), mask: brailleMask(i + 1) }),
    ),
  );

/** A set of the space, the full block and `parts`, each mask once (the first glyph with a mask wins). */
function makeSet(name: string, parts: readonly (readonly Glyph[])[]): SymbolSet {
  const seen = new Set<string>();
  const glyphs: Glyph[] = [];
  for (const g of [SPACE, FULL, ...parts.flat()]) {
    const key = maskKey(g.mask);
    if (seen.has(key)) continue;
    seen.add(key);
    glyphs.push(g);
  }
  return Object.freeze({ name, glyphs: Object.freeze(glyphs) });
}

/** What each built-in set is made of (the parts after the space and the full block). */
const SET_PARTS: Readonly<Record<SymbolSetName, () => readonly (readonly Glyph[])[]>> = {
  half: () => [HALF_GLYPHS],
  quadrant: () => [HALF_GLYPHS, QUADRANT_GLYPHS],
  eighths: () => [HALF_GLYPHS, EIGHTHS_GLYPHS],
  block: () => [HALF_GLYPHS, QUADRANT_GLYPHS, EIGHTHS_GLYPHS],
  sextant: () => [QUADRANT_GLYPHS.filter((g) => g.char === '\u258c' || g.char === '\u2590'), sextantGlyphs()],
  octant: () => [HALF_GLYPHS, QUADRANT_GLYPHS, octantGlyphs()],
  braille: () => [brailleGlyphs()],
  all: () => [HALF_GLYPHS, QUADRANT_GLYPHS, EIGHTHS_GLYPHS, sextantGlyphs(), octantGlyphs(), brailleGlyphs()],
};

/**
 * The built-in symbol sets. 'block' (half blocks, quadrants, eighths) is the default: every
 * terminal that draws block elements itself shows it correctly. Sextants (Unicode 13), octants
 * (Unicode 16) and braille depend on the font, so only when asked.
 *
 * Each set is made on first use (a getter that keeps what it made), not at import: importing
 * termsight must not pay for glyph tables a program may never draw with (docs/architecture.md, "Load
 * cost").
 *
 * @example SYMBOL_SETS.block.glyphs.map((g) => g.char).join('') // ' █▀▄▖▗▘▝…'
 */
export const SYMBOL_SETS: Readonly<Record<SymbolSetName, SymbolSet>> = Object.freeze(
  Object.defineProperties(
    {} as Record<SymbolSetName, SymbolSet>,
    Object.fromEntries(
      (Object.keys(SET_PARTS) as SymbolSetName[]).map((name) => {
        let made: SymbolSet | undefined;
        const get = (): SymbolSet => {
          made ??= makeSet(name, SET_PARTS[name]());
          return made;
        };
        return [name, { get, enumerable: true }];
      }),
    ),
  ),
);

/** The built-in set names, in the order the CLI lists them. */
export const SYMBOL_SET_NAMES: readonly SymbolSetName[] = Object.freeze(Object.keys(SET_PARTS) as SymbolSetName[]);

/** Whether `value` names a built-in symbol set. */
export function isSymbolSetName(value: unknown): value is SymbolSetName {
  return typeof value === 'string' && Object.hasOwn(SYMBOL_SETS, value);
}

/**
 * The symbol set an option names: a set itself, or the union of named sets (in order, each mask
 * once). Throws a `TypeError` naming the accepted values for an unknown name or an empty list.
 *
 * @example resolveSymbolSet(['block', 'sextant']).glyphs.length // 88
 */
export function resolveSymbolSet(option: SymbolSet | readonly SymbolSetName[] | undefined): SymbolSet {
  if (option === undefined) return SYMBOL_SETS.block;
  if (Array.isArray(option)) {
    const names = option as readonly unknown[];
    if (names.length === 0) throw new TypeError(`symbols must name at least one of ${SYMBOL_SET_NAMES.join(', ')}`);
    for (const n of names) {
      if (!isSymbolSetName(n)) {
        throw new TypeError(`unknown symbol set ${JSON.stringify(n)}; expected one of ${SYMBOL_SET_NAMES.join(', ')}`);
      }
    }
    const valid = names as readonly SymbolSetName[];
    if (valid.length === 1) return SYMBOL_SETS[valid[0]];
    return makeSet(
      valid.join('+'),
      valid.map((n) => SYMBOL_SETS[n].glyphs),
    );
  }
  const set = option as SymbolSet;
  if (set === null || typeof set !== 'object' || !Array.isArray(set.glyphs)) {
    throw new TypeError('symbols must be a SymbolSet { name, glyphs } or a list of set names');
  }
  return makeSet(set.name, [set.glyphs]);
}
