import { describe, expect, it } from 'vitest';
import {
  MAX_PLACEHOLDER_CELLS,
  PLACEHOLDER,
  placeholderCell,
  placeholderColor,
  placeholderRows,
  ROW_COLUMN_DIACRITICS,
} from '../../src/render/pixels/kitty-placeholder.js';

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
    { name: 'index 0 is U+0305', i: 0, code: 0x305 },
    { name: 'index 1 is U+030D', i: 1, code: 0x30d },
    { name: 'index 2 is U+030E', i: 2, code: 0x30e },
    { name: 'index 10 is U+034B', i: 10, code: 0x34b },
    { name: 'index 100 is U+07EB', i: 100, code: 0x7eb },
    { name: 'index 200 is U+20D4', i: 200, code: 0x20d4 },
    { name: 'index 255 is U+A8E5', i: 255, code: 0xa8e5 },
    { name: 'index 296 is U+1D244', i: 296, code: 0x1d244 },
  ])('$name', ({ i, code }) => {
    expect(ROW_COLUMN_DIACRITICS[i]).toBe(code);
  });
});

describe('placeholder cells and rows', () => {
  it.each([
    { name: 'cell row 0 column 0 high byte 0', r: 0, c: 0, hi: 0, text: '\u{10EEEE}\u0305\u0305\u0305' },
    { name: 'cell row 0 column 1 high byte 0', r: 0, c: 1, hi: 0, text: '\u{10EEEE}\u0305\u030d\u0305' },
    { name: 'cell row 2 column 1 high byte 0', r: 2, c: 1, hi: 0, text: '\u{10EEEE}\u030e\u030d\u0305' },
    { name: 'cell row 1 column 0 high byte 1', r: 1, c: 0, hi: 1, text: '\u{10EEEE}\u030d\u0305\u030d' },
  ])('$name', ({ r, c, hi, text }) => {
    expect(placeholderCell(r, c, hi)).toBe(text);
  });
  it.each([
    { name: 'rejects row -1 column 0', r: -1, c: 0 },
    { name: 'rejects row 0 column 297', r: 0, c: 297 },
    { name: 'rejects row 1.5 column 0', r: 1.5, c: 0 },
  ])('$name', ({ r, c }) => {
    expect(() => placeholderCell(r, c)).toThrow(RangeError);
  });
  it.each([
    {
      name: 'id 0x123456 in truecolor is colour 38;2;18;52;86',
      id: 0x123456,
      depth: 'truecolor',
      sgr: '38;2;18;52;86',
    },
    { name: 'id 0x01000001 in truecolor is colour 38;2;0;0;1', id: 0x01000001, depth: 'truecolor', sgr: '38;2;0;0;1' },
    { name: 'id 200 in 256 is colour 38;5;200', id: 200, depth: '256', sgr: '38;5;200' },
  ] as const)('$name', ({ id, depth, sgr }) => {
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

  // kitty and Ghostty read an absent third diacritic as 0, iTerm2's 3.7 betas as -1
  // (sorokin-vladimir/tele#259): written always, every cell names the same id for both readers.
  const readId = (cell: string, rgb: number, absentHighByte: number) => {
    const marks = [...cell].slice(1).map((ch) => ROW_COLUMN_DIACRITICS.indexOf(ch.codePointAt(0) as number));
    const high = marks[2] ?? absentHighByte;
    return ((high << 24) | rgb) >>> 0;
  };
  it.each([
    { name: 'id 1', id: 1 },
    { name: 'id 0xabcdef', id: 0xabcdef },
    { name: 'id 0x7f000001', id: 0x7f000001 },
  ])('$name reads the same as written for a reader taking an absent byte as 0 and one taking it as -1', ({ id }) => {
    const cell = placeholderCell(3, 4, id >>> 24);
    expect(readId(cell, id & 0xffffff, 0)).toBe(id);
    expect(readId(cell, id & 0xffffff, -1)).toBe(id);
  });
  it('every cell of a 256-colour picture carries the third diacritic too (its id is the palette index, high byte 0)', () => {
    const [line] = placeholderRows(7, 3, 1, '256');
    const cells = (line as string).split('\u{10EEEE}').slice(1);
    for (const cell of cells) expect(cell.replace('\x1b[39m', '')).toHaveLength(3);
  });
});
