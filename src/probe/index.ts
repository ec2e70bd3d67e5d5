/**
 * `termsight/probe`: the pieces of the probe, for those who drive it themselves — the query
 * batch, the streaming reply scanner, the pure reducer and the classification of replies. The
 * Node driver (`probeTty`, `probeTerminal`) is on the front door. See docs/probe.md.
 */

export { escapeBytes } from '../core/escape.js';
export { type ClassifyContext, factsFromReplies, protocolFromFacts } from './classify.js';
export type { ProbeAction, ProbeEvent } from './events.js';
export type { ReplyRecord, TerminalName } from './facts.js';
export { planQuery, probeQuery, QUERIES, type QueryOptions, type QueryPlan } from './query.js';
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
export { createScanner, flushScanner, type ScannerState, type ScanToken, scanReplies } from './scanner.js';
export { type AskTmuxOptions, askTmux, TMUX_ASK_TIMEOUT_MS } from './tmux-client.js';
export { parseTmuxFormats, TMUX_DISPLAY_FORMAT, type TmuxFacts } from './tmux-formats.js';
