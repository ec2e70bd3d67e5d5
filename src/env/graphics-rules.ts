/**
 * Which picture protocol a terminal speaks, judged from its environment alone: a view of the
 * terminal database (each row carries its rules with a priority; the view sorts them). The first
 * eight rows are the founding table (marked `founding`: the rows termsight started from), in its
 * order; the rows after them add identity variables it misses and never change its answer for a
 * case it states. iTerm2 is never `kitty`: it answers kitty's query but cannot delete kitty
 * overlays, which then pile up.
 */
import { graphicsRules } from '../terminals/views.js';
import type { Protocol } from './protocol.js';
import type { Rule } from './rule.js';

/** A row of the graphics table. */
export type GraphicsRule = Rule<Protocol>;

/** The graphics rule table, in priority order. `braille` when no row matches. */
export const GRAPHICS_RULES: readonly GraphicsRule[] = graphicsRules();

/** What `detect` answers when no rule matches: braille needs no graphics support at all. */
export const GRAPHICS_DEFAULT: Protocol = 'braille';
