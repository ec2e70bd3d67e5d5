/**
 * Capabilities as data: which terminals understand a sequence (`when`), the sequence, and the plain
 * text to write instead. `supports` and `emit` read only the runtime they are handed.
 *
 * `termsight/capability`: the built-ins, the `when` clause on its own and the sanitizers. The
 * registry (`capability`, `register`, `supports`, `emit`, …) is on the front door.
 */

export {
  hasBidiControls,
  hasControls,
  isSafeParam,
  isSafeUrl,
  sanitizeText,
  stripControls,
  stripUnsafe,
} from '../core/sanitize.js';
export {
  BUILTINS,
  type BuiltinArgs,
  type ClipboardArgs,
  type LinkArgs,
  type NotifyArgs,
  notifyDialect,
  PROGRESS_STATES,
  type ProgressArgs,
  type SyncArgs,
  type TitleArgs,
} from './builtins.js';
export { ARG_KINDS, type ArgKind } from './types.js';
export { matchesWhen, validateWhen, WHEN_KEYS } from './when.js';
