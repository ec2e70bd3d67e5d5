import { describe, expect, it } from 'vitest';
import {
  MAX_PLACEHOLDER_CELLS,
  PLACEHOLDER,
  placeholderCell,
  placeholderColor,
  placeholderRows,
  ROW_COLUMN_DIACRITICS,
} from '../../src/render/kitty-placeholder.js';

describe('ROW_COLUMN_DIACRITICS', () => {
  it("has kitty's 297 combining marks, ascending, from U+0305 to U+1D244", () => {
    expect(ROW_COLUMN_DIACRITICS).toHaveLength(297);
    expect(MAX_PLACEHOLDER_CELLS).toBe(297);
    expect(ROW_COLUMN_DIACRITICS[0]).toBe(0x305);
    expect(ROW_COLUMN_DIACRITICS[296]).toBe(0x1d244);
    for (let i = 1; i < 297; i++) expect(ROW_COLUMN_DIACRITICS[i]).toBeGreaterThan(ROW_COLUMN_DIACRITICS[i - 1]);
  });
  it('every one is a non-spacing mark that NFC leaves alone after the placeholder', () => {
    for (const c of ROW_COLUMN_DIACRITICS) {
      const s = String.fromCodePoint(c);
      expect(/\p{Mn}/u.test(s)).toBe(true);
      expect((PLACEHOLDER + s).normalize('NFC')).toBe(PLACEHOLDER + s);
    }
  });
  it.each([
    [0, 0x305],
    [1, 0x30d],
    [2, 0x30e],
    [10, 0x34b],
    [100, 0x7eb],
    [200, 0x20d4],
    [255, 0xa8e5],
    [296, 0x1d244],
  ])('index %i is U+%s', (i, code) => {
    expect(ROW_COLUMN_DIACRITICS[i]).toBe(code);
  });
});

describe('placeholder cells and rows', () => {
  it.each([
    [0, 0, 0, '\u{10EEEE}\u0305\u0305'],
    [0, 1, 0, '\u{10EEEE}\u0305\u030d'],
    [2, 1, 0, '\u{10EEEE}\u030e\u030d'],
    [1, 0, 1, '\u{10EEEE}\u030d\u0305\u030d'],
  ])('cell row %i column %i high byte %i', (r, c, hi, text) => {
    expect(placeholderCell(r, c, hi)).toBe(text);
  });
  it.each([
    [-1, 0],
    [0, 297],
    [1.5, 0],
  ])('rejects row %s column %s', (r, c) => {
    expect(() => placeholderCell(r, c)).toThrow(RangeError);
  });
  it.each([
    [0x123456, 'truecolor', '38;2;18;52;86'],
    [0x01000001, 'truecolor', '38;2;0;0;1'],
    [200, '256', '38;5;200'],
  ] as const)('id %i in %s is colour %s', (id, depth, sgr) => {
    expect(placeholderColor(id, depth)).toBe(sgr);
  });
  it('rejects ids that do not fit 256 colours', () => {
    expect(() => placeholderColor(256, '256')).toThrow(RangeError);
    expect(() => placeholderColor(0)).toThrow(RangeError);
  });
  it('a 2x2 picture, exactly', () => {
    const cell = (r: number, c: number) => placeholderCell(r, c);
    expect(placeholderRows(0x0a0b0c, 2, 2)).toEqual([
      `\x1b[38;2;10;11;12m${cell(0, 0)}${cell(0, 1)}\x1b[39m`,
      `\x1b[38;2;10;11;12m${cell(1, 0)}${cell(1, 1)}\x1b[39m`,
    ]);
  });
  it('ids above 24 bits add the high byte as a third diacritic', () => {
    expect(placeholderRows(0x05000001, 1, 1)[0]).toBe(`\x1b[38;2;0;0;1m${placeholderCell(0, 0, 5)}\x1b[39m`);
  });
});
