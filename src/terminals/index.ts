/**
 * The terminal database: one typed row per terminal or multiplexer, and the views of it the other
 * layers read. Imports only core. See docs/terminals.md.
 */
export { TERMINALS } from './database.js';
export { type RowSummary, summarize } from './describe.js';
export { EMULATORS } from './emulators.js';
export { type Identified, identify, type Sighting, splitXtversion } from './identify.js';
export {
  answersAt,
  dottedVersion,
  drawsAt,
  factOf,
  glyphsAt,
  holds,
  reached,
  supports,
  terminalById,
  terminalByReplyName,
} from './lookup.js';
export { MULTIPLEXERS } from './multiplexers.js';
export { familiesPrintedBy, guardedFamilies, rowsNamedByEnv, rowsNamedByOwnEnv } from './query-gates.js';
export { answer, QUESTIONS, type Question } from './questions.js';
export { SLOW_LINKS, type SlowLink, slowLinkFromEnv } from './slow-links.js';
export type * from './types.js';
export { FACT_NAMES } from './types.js';
export {
  decisiveNames,
  graphicsRules,
  linkingTerminals,
  placeholdersSince,
  placementNames,
  placementRules,
  type TableRule,
  truecolorNames,
} from './views.js';
