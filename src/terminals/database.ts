/**
 * The terminal database: every emulator and multiplexer termsight knows, one typed row each.
 * Everything else that knows about terminals (the env tables, the probe's decisive names, the
 * report's name lists) is a view of this table (views.ts).
 */
import { EMULATORS } from './emulators.js';
import { MULTIPLEXERS } from './multiplexers.js';
import type { TerminalRow } from './types.js';

/** Every row: the emulators, then the multiplexers. */
export const TERMINALS: readonly TerminalRow[] = [...EMULATORS, ...MULTIPLEXERS];
