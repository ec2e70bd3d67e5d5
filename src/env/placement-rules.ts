/**
 * Whether a terminal keeps images under an id and places them again (kitty's `a=t` then `a=p`).
 * Understanding transmit-and-display does not imply it: a terminal that cannot place stores a
 * picture it never shows, then ignores the placement. Only terminals documented to keep and place
 * images are listed; anything else is `false`.
 */
import type { Rule } from './rule.js';

/** The placements table, in priority order. `false` when no row matches. */
export const PLACEMENT_RULES: readonly Rule<boolean>[] = [
  {
    id: 'kitty-window-id',
    when: [{ variable: 'KITTY_WINDOW_ID', test: 'set' }],
    answer: true,
    note: 'kitty is the reference implementation: images are kept under ids and placed with a=p.',
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#controlling-displayed-images',
  },
  {
    id: 'term-kitty',
    when: [{ variable: 'TERM', test: 'contains', values: ['kitty'] }],
    answer: true,
    note: 'kitty is the reference implementation: images are kept under ids and placed with a=p.',
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#controlling-displayed-images',
  },
  {
    id: 'ghostty',
    when: [{ variable: 'TERM', test: 'contains', values: ['ghostty'] }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'term-program-ghostty',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'ghostty' }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'ghostty-resources-dir',
    when: [{ variable: 'GHOSTTY_RESOURCES_DIR', test: 'set' }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'wezterm-partial',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WezTerm' }],
    answer: false,
    note: 'WezTerm maps kitty placements onto cells and lists placement options it lacks (wezterm issue 986).',
    source: 'https://github.com/wezterm/wezterm/issues/986',
  },
];
