/**
 * Whether a terminal keeps images under an id and places them again (kitty's `a=t` then `a=p`).
 * Understanding transmit-and-display does not imply it: a terminal that cannot place stores a
 * picture it never shows, then ignores the placement. Only terminals documented to keep and place
 * images are listed; anything else is `false`. A view of the terminal database, like the graphics table.
 */
import { placementRules } from '../terminals/views.js';
import type { Rule } from './rule.js';

/** The placements table, in priority order. `false` when no row matches. */
export const PLACEMENT_RULES: readonly Rule<boolean>[] = placementRules();
