import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  brailleMask,
  maskComplement,
  maskCount,
  maskHas,
  maskKey,
  maskWhere,
  OCTANTS_ENCODED_ELSEWHERE,
  octantCodePoint,
  octantMask,
  popcount32,
  resolveSymbolSet,
  SYMBOL_SET_NAMES,
  SYMBOL_SETS,
  sextantCodePoint,
  sextantMask,
} from '../../src/render/text/symbols-glyphs.js';

/** The lit sub-pixels of a mask as an 8-line picture ('#' ink, '.' none). */
function picture(mask: { lo: number; hi: number }): string {
  const rows: string[] = [];
  for (let y = 0; y < 8; y++) {
    let row = '';
    for (let x = 0; x < 8; x++) row += maskHas(mask, x, y) ? '#' : '.';
    rows.push(row);
  }
  return rows.join('\n');
}

/** The pattern bits named by a Unicode name's digits ("BLOCK SEXTANT-235": bits 1, 2, 4). */
const bitsOfName = (name: string): number =>
  [...(name.split('-').pop() ?? '')].reduce((bits, d) => bits | (1 << (Number(d) - 1)), 0);

describe('symbol sets', () => {
  it.each(SYMBOL_SET_NAMES.map((name) => ({ name })))(
    '$name: every mask once, space and full block in it',
    ({ name }) => {
      const set = SYMBOL_SETS[name];
      const keys = set.glyphs.map((g) => maskKey(g.mask));
      expect(new Set(keys).size).toBe(keys.length);
      const chars = set.glyphs.map((g) => g.char);
      expect(new Set(chars).size).toBe(chars.length);
      expect(chars).toContain(' ');
      expect(chars).toContain('\u2588');
    },
  );

  it.each([
    { name: 'half', size: 4 },
    { name: 'quadrant', size: 16 },
    // space, full, 2 halves, 12 quadrant glyphs (with ▌▐), 14 more eighths, ▔ and ▕ = 32 minus the two shared halves
    { name: 'block', size: 30 },
    { name: 'sextant', size: 64 },
    // every 2x4 pattern but the lone corners and middle quarters (complements of octants, so still fitted)
    { name: 'octant', size: 250 },
    { name: 'braille', size: 257 },
  ] as const)('$name has $size glyphs', ({ name, size }) => {
    expect(SYMBOL_SETS[name].glyphs.length).toBe(size);
  });

  it.each([
    { name: 'block', chars: '▀▄▖▗▘▝▙▛▜▟▚▞▌▐▁▂▃▅▆▇▉▊▋▍▎▏▔▕' },
    { name: 'half', chars: '▀▄' },
  ] as const)('$name draws with $chars', ({ name, chars }) => {
    const have = new Set(SYMBOL_SETS[name].glyphs.map((g) => g.char));
    for (const c of chars) expect(have.has(c), c).toBe(true);
  });

  it('default set has no sextants, octants or braille', () => {
    for (const g of resolveSymbolSet(undefined).glyphs) {
      const cp = g.char.codePointAt(0) ?? 0;
      expect(cp < 0x2800 || cp > 0x28ff).toBe(true);
      expect(cp).toBeLessThan(0x1cd00);
    }
  });

  it.each([
    { name: 'unknown name', option: ['blocks'], message: /unknown symbol set "blocks"/ },
    { name: 'empty list', option: [], message: /at least one/ },
    { name: 'not a set', option: { name: 'x' }, message: /SymbolSet/ },
  ])('resolveSymbolSet refuses $name', ({ option, message }) => {
    expect(() => resolveSymbolSet(option as never)).toThrow(message);
  });

  it('each set is made once, on first use, and the sets cannot be replaced', () => {
    for (const name of SYMBOL_SET_NAMES) expect(SYMBOL_SETS[name]).toBe(SYMBOL_SETS[name]);
    expect(Object.keys(SYMBOL_SETS)).toEqual(SYMBOL_SET_NAMES);
    expect(Object.isFrozen(SYMBOL_SETS)).toBe(true);
    expect(Object.isFrozen(SYMBOL_SETS.octant.glyphs)).toBe(true);
    expect(resolveSymbolSet(undefined)).toBe(SYMBOL_SETS.block);
  });

  it('a union keeps each mask once, in order', () => {
    const u = resolveSymbolSet(['half', 'quadrant']);
    expect(u.glyphs.map((g) => g.char)).toEqual(SYMBOL_SETS.quadrant.glyphs.map((g) => g.char));
    // On the 8-row grid the lower third and lower two thirds sextants are ▃ and ▅: kept once.
    expect(resolveSymbolSet(['block', 'sextant']).glyphs.length).toBe(30 + 60 - 2);
  });
});

describe('masks', () => {
  it.each([
    {
      name: '▀ upper half',
      char: '▀',
      set: 'half',
      rows: ['########', '########', '########', '########', '........', '........', '........', '........'],
    },
    {
      name: '▗ lower right',
      char: '▗',
      set: 'quadrant',
      rows: ['........', '........', '........', '........', '....####', '....####', '....####', '....####'],
    },
    {
      name: '▃ lower 3/8',
      char: '▃',
      set: 'block',
      rows: ['........', '........', '........', '........', '........', '########', '########', '########'],
    },
    { name: '▎ left 1/4', char: '▎', set: 'block', rows: Array(8).fill('##......') },
    { name: '▕ right 1/8', char: '▕', set: 'block', rows: Array(8).fill('.......#') },
    // SEXTANT-35: middle left and bottom left (thirds are rows 0-2, 3-4, 5-7)
    {
      name: 'U+1FB13 sextant-35',
      char: '\u{1fb13}',
      set: 'sextant',
      rows: ['........', '........', '........', '####....', '####....', '####....', '####....', '####....'],
    },
    // OCTANT-146: top left, second row right, third row right
    {
      name: 'U+1CD20 octant-146',
      char: '\u{1cd20}',
      set: 'octant',
      rows: ['####....', '####....', '....####', '....####', '....####', '....####', '........', '........'],
    },
    // braille dots 1 and 8: top left, bottom right (each 2x1 sub-pixels)
    {
      name: 'U+2881 braille dots 1 8',
      char: '\u2881',
      set: 'braille',
      rows: ['.##.....', '........', '........', '........', '........', '........', '.....##.', '........'],
    },
  ] as const)('$name', ({ char, set, rows }) => {
    const g = SYMBOL_SETS[set].glyphs.find((x) => x.char === char);
    expect(g).toBeDefined();
    expect(picture(g!.mask)).toBe(rows.join('\n'));
  });

  it('popcount and count agree with a bit loop', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 0xffffffff }), (lo, hi) => {
        let n = 0;
        for (let i = 0; i < 32; i++) n += ((lo >>> i) & 1) + ((hi >>> i) & 1);
        expect(maskCount({ lo, hi })).toBe(n);
        expect(popcount32(lo) + popcount32(hi)).toBe(n);
        expect(maskCount(maskComplement({ lo, hi }))).toBe(64 - n);
      }),
    );
  });

  // The pattern masks are built by OR-ing part masks (cheap at import); each must equal the
  // definition sub-pixel by sub-pixel, written here independently of the source.
  it.each([
    {
      name: 'sextant: bit 2 * third + half, thirds are rows 0-2, 3-4, 5-7',
      patterns: 64,
      mask: sextantMask,
      lit: (p: number, x: number, y: number) => ((p >>> (2 * (y < 3 ? 0 : y < 5 ? 1 : 2) + (x < 4 ? 0 : 1))) & 1) === 1,
    },
    {
      name: 'octant: bit 2 * (row pair) + half',
      patterns: 256,
      mask: octantMask,
      lit: (p: number, x: number, y: number) => ((p >>> (2 * Math.floor(y / 2) + (x < 4 ? 0 : 1))) & 1) === 1,
    },
    {
      name: 'braille: dots 1-3, 7 left and 4-6, 8 right, each the middle two columns of an even row',
      patterns: 256,
      mask: brailleMask,
      lit: (p: number, x: number, y: number) => {
        if (y % 2 === 1 || x % 4 === 0 || x % 4 === 3) return false;
        const row = y / 2;
        const dot = x < 4 ? [1, 2, 3, 7][row] : [4, 5, 6, 8][row];
        return ((p >>> (dot - 1)) & 1) === 1;
      },
    },
  ])('$name, for every pattern', ({ patterns, mask, lit }) => {
    for (let p = 0; p < patterns; p++) {
      const m = mask(p);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) expect(maskHas(m, x, y), `${p} (${x}, ${y})`).toBe(lit(p, x, y));
    }
  });

  it('maskWhere and maskHas agree on every sub-pixel', () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }), (bits) => {
        const m = maskWhere((x, y) => bits[y * 8 + x]);
        for (let i = 0; i < 64; i++) expect(maskHas(m, i % 8, Math.floor(i / 8))).toBe(bits[i]);
      }),
    );
  });
});

describe('code points', () => {
  // Hand-checked against the Unicode charts (Symbols for Legacy Computing, and its Supplement in Unicode 16).
  it.each([
    { name: 'BLOCK SEXTANT-1', cp: 0x1fb00 },
    { name: 'BLOCK SEXTANT-2', cp: 0x1fb01 },
    { name: 'BLOCK SEXTANT-12', cp: 0x1fb02 },
    { name: 'BLOCK SEXTANT-35', cp: 0x1fb13 },
    { name: 'BLOCK SEXTANT-235', cp: 0x1fb14 },
    { name: 'BLOCK SEXTANT-3456', cp: 0x1fb39 },
    { name: 'BLOCK SEXTANT-23456', cp: 0x1fb3b },
  ])('$name is U+$cp', ({ name, cp }) => {
    const pattern = bitsOfName(name);
    expect(sextantCodePoint(pattern)).toBe(cp);
    const g = SYMBOL_SETS.sextant.glyphs.find((x) => x.char === String.fromCodePoint(cp));
    expect(g?.mask).toEqual(sextantMask(pattern));
  });

  it.each([
    { name: 'BLOCK OCTANT-3', cp: 0x1cd00 },
    { name: 'BLOCK OCTANT-23', cp: 0x1cd01 },
    { name: 'BLOCK OCTANT-146', cp: 0x1cd20 },
    { name: 'BLOCK OCTANT-17', cp: 0x1cd36 },
    { name: 'BLOCK OCTANT-1234567', cp: 0x1cd70 },
    { name: 'BLOCK OCTANT-1234568', cp: 0x1cdab },
    { name: 'BLOCK OCTANT-2345678', cp: 0x1cde5 },
  ])('$name is U+$cp', ({ name, cp }) => {
    const pattern = bitsOfName(name);
    expect(octantCodePoint(pattern)).toBe(cp);
    const g = SYMBOL_SETS.octant.glyphs.find((x) => x.char === String.fromCodePoint(cp));
    expect(g?.mask).toEqual(octantMask(pattern));
  });

  it('sextants fill U+1FB00..U+1FB3B, each once, none of space, full or the side halves', () => {
    const cps = Array.from({ length: 64 }, (_, p) => sextantCodePoint(p)).filter((c) => c !== undefined);
    expect(cps.length).toBe(60);
    expect(new Set(cps).size).toBe(60);
    expect(Math.min(...cps)).toBe(0x1fb00);
    expect(Math.max(...cps)).toBe(0x1fb3b);
    for (const p of [0, 21, 42, 63]) expect(sextantCodePoint(p)).toBeUndefined();
  });

  it('octants fill U+1CD00..U+1CDE5 in pattern order, skipping the 26 encoded elsewhere', () => {
    const cps = Array.from({ length: 256 }, (_, p) => octantCodePoint(p));
    const defined = cps.filter((c) => c !== undefined);
    expect(defined.length).toBe(230);
    expect(defined).toEqual([...defined].sort((a, b) => a - b));
    expect(defined[0]).toBe(0x1cd00);
    expect(defined.at(-1)).toBe(0x1cde5);
    for (const p of OCTANTS_ENCODED_ELSEWHERE) expect(cps[p]).toBeUndefined();
  });

  it('the octant patterns encoded elsewhere are the quadrant patterns and ten more', () => {
    const quadrantLike = Array.from({ length: 256 }, (_, p) => p).filter((p) =>
      [0, 1, 4, 5].every((b) => ((p >> b) & 1) === ((p >> (b + 2)) & 1)),
    );
    expect(quadrantLike.length).toBe(16);
    for (const p of quadrantLike) expect(OCTANTS_ENCODED_ELSEWHERE).toContain(p);
    expect(OCTANTS_ENCODED_ELSEWHERE.length).toBe(26);
  });

  it('braille U+2800 + bits: dot n is bit n-1 (dots 1-3 and 7 left, 4-6 and 8 right)', () => {
    // dot 4 (bit 3) is the top right dot
    expect(maskHas(brailleMask(1 << 3), 5, 0)).toBe(true);
    expect(maskHas(brailleMask(1 << 3), 1, 0)).toBe(false);
    // dot 7 (bit 6) is the bottom left dot
    expect(maskHas(brailleMask(1 << 6), 1, 6)).toBe(true);
    // dot 3 (bit 2) is the third left dot
    expect(maskHas(brailleMask(1 << 2), 2, 4)).toBe(true);
    expect(maskCount(brailleMask(255))).toBe(16);
  });
});
