/**
 * The database's answers as plain values, one question at a time: what the question table of the
 * tests asks, and what `termsight rules` prints per row. Lists come back as comma-joined text so
 * an answer compares with `===`.
 */
import { answersAt, drawsAt, glyphsAt, supports } from './lookup.js';
import { FACT_NAMES, type TerminalRow } from './types.js';

/** Every question the database answers. */
export const QUESTIONS = [
  ...FACT_NAMES,
  'passthrough',
  'passthroughHidden',
  'draws',
  'glyphs',
  'quirks',
  'answers',
] as const;

/** A question's name. */
export type Question = (typeof QUESTIONS)[number];

/**
 * The answer to `question` for `row` at `version` (dotted; null: unknown). `draws` lists the
 * protocols best first, `?` marking one DA1 must confirm, `?k` one the kitty query must; `quirks` is `family:effect`.
 *
 * @example answer(terminalById('tmux')!, 'draws', '3.4') // 'sixel?'
 */
export function answer(row: TerminalRow, question: Question, version: string | null): boolean | string {
  switch (question) {
    case 'draws':
      return drawsAt(row, version)
        .map((d) => `${d.protocol}${d.onlyIf === 'da1' ? '?' : d.onlyIf ? '?k' : ''}`)
        .join(',');
    case 'glyphs':
      return glyphsAt(row, version).join(',');
    case 'quirks':
      return (row.quirks ?? []).map((q) => `${q.family}:${q.effect}`).join(',');
    case 'answers':
      return answersAt(row, version).join(',');
    default:
      return supports(row, question, version);
  }
}
