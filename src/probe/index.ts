/**
 * `termsight/probe`: the pieces of the probe, for those who drive it themselves — the query
 * batch, the streaming reply scanner, the pure reducer and the classification of replies, and the
 * query broker (`askTerminal`: an application's queries in termsight's round, each reply routed to
 * its asker). The Node driver (`probeTty`, `probeTerminal`) is on the front door. See docs/probe.md.
 */

export { escapeBytes } from '../core/escape.js';
export {
  type AnswerKey,
  batchKeys,
  OWN_KEYS,
  type PendingAsk,
  queryKey,
  type Route,
  replyKey,
  routeReply,
  splitQueries,
} from './asks.js';
export { type ClassifyContext, factsFromReplies, protocolFromFacts } from './classify.js';
export { askTerminal, MAX_TIMER_MS, type TerminalAsk } from './driver.js';
export type { ProbeAction, ProbeEvent } from './events.js';
export type { ReplyRecord, TerminalName } from './facts.js';
export { planQuery, probeQuery, QUERIES, type QueryOptions, type QueryPlan } from './query.js';
export {
  createRecorder,
  MAX_RECORDING_BYTES,
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type RecordedEvent,
  type Recorder,
  type Recording,
  type Replayed,
  replay,
  SCRUBBED,
  scrubEnv,
  variablesRead,
} from './recording.js';
export {
  createProbe,
  defaultBudgetMs,
  type ProbeOptions,
  type ProbeState,
  probeNextTickAt,
  probeResult,
  stepProbe,
} from './reducer.js';
export { parseReply, type Reply } from './replies.js';
export {
  createResize,
  IN_BAND_OFF,
  IN_BAND_ON,
  type PixelSize,
  parseSizeReport,
  type ResizeAction,
  type ResizeEvent,
  type ResizeOptions,
  type ResizeState,
  reportsSizeInBand,
  resizedCell,
  resizeNextTickAt,
  SIZE_QUERY,
  stepResize,
  type TerminalSize,
  type WindowSize,
} from './resize.js';
export { type ResizeOutput, type ResizeWatch, type ResizeWatchOptions, watchResize } from './resize-watch.js';
export { createScanner, flushScanner, type ScannerState, type ScanToken, scanReplies } from './scanner.js';
export { type AskTmuxOptions, allowTmuxPassthrough, askTmux, TMUX_ASK_TIMEOUT_MS } from './tmux-client.js';
export { parseTmuxFormats, TMUX_DISPLAY_FORMAT, type TmuxFacts } from './tmux-formats.js';
