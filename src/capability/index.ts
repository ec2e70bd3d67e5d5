/**
 * Capabilities as data: which terminals understand a sequence (`when`), the sequence, and the plain
 * text to write instead. `supports` and `emit` read only the runtime they are handed.
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
export { capabilities, capability, emit, register, resetCapabilities, supports } from './capability.js';
export { ARG_KINDS, type ArgKind, type Capability, type CapabilityArgs } from './types.js';
export { matchesWhen, validateWhen, WHEN_KEYS, type When } from './when.js';
