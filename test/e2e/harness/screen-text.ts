/**
 * Judging the screen's text: after `show`, the screen may hold only what a picture is made of
 * (spaces, braille cells, block elements, sextants and octants of symbols pictures, kitty's Unicode
 * placeholders and their diacritics) and the wrapper's marker
 * rows (spaces). Anything else is stray: an escape payload printed as characters, or an echoed reply.
 * Pure.
 */

/** kitty's image placeholder character (U+10EEEE), drawn in cells that show part of an image. */
const PLACEHOLDER = 0x10eeee;

/** Whether one character may appear on a screen that shows only the test picture. */
export function isPictureCharacter(char: string): boolean {
  const code = char.codePointAt(0) as number;
  if (/\s/u.test(char)) return true;
  if (code >= 0x2800 && code <= 0x28ff) return true; // braille patterns
  if (code >= 0x2580 && code <= 0x259f) return true; // block elements (symbols, blocks)
  if (code >= 0x1fb00 && code <= 0x1fb3b) return true; // sextants
  if (code === 0x1fb82 || code === 0x1fb85) return true; // upper quarter blocks (octant set)
  if (code >= 0x1cd00 && code <= 0x1cde5) return true; // octants
  if (code === PLACEHOLDER) return true;
  return /\p{M}/u.test(char); // the placeholders' row/column diacritics are combining marks
}

/** The screen's lines that hold stray characters, each with its line number (1-based), trimmed. */
export function strayLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    if ([...line].some((c) => !isPictureCharacter(c))) out.push({ line: i + 1, text: line.trimEnd() });
  });
  return out;
}
