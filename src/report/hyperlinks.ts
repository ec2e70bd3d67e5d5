/**
 * Whether OSC 8 hyperlinks work. A terminal that names itself in its XTVERSION reply knows better
 * than the environment; otherwise the `link` capability's `when` clause decides.
 */
import { supports } from '../capability/capability.js';
import { compareVersions } from '../env/condition.js';
import type { Runtime } from '../env/runtime.js';
import type { ProbeFacts } from '../probe/facts.js';
import { linkingTerminals } from '../terminals/views.js';
import type { MultiplexerInfo, Why } from './types.js';

/** Terminal names (lower-cased prefixes) that link, with the first version that does: a view of the terminal database. */
export const LINKING_TERMINALS: ReadonlyArray<readonly [prefix: string, sinceVersion: string]> = linkingTerminals();

/** The hint shown when tmux sits in between: it forwards OSC 8 only with its `hyperlinks` feature. */
export const TMUX_HYPERLINKS_HINT =
  "tmux 3.4+ forwards hyperlinks only with the hyperlinks terminal feature: set -as terminal-features ',*:hyperlinks'";

/** The hyperlinks answer with its reason; `runtime.isTTY.stdout` is the stream the links would go to. */
export function hyperlinksAnswer(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  multiplexer: MultiplexerInfo | null,
): { readonly value: boolean; readonly why: Why } {
  if (multiplexer?.name === 'tmux') {
    return { value: false, why: { source: 'multiplexer', detail: `inside tmux: ${TMUX_HYPERLINKS_HINT}` } };
  }
  if (multiplexer?.name === 'screen') {
    return { value: false, why: { source: 'multiplexer', detail: 'GNU screen does not forward OSC 8 hyperlinks' } };
  }
  const terminal = facts?.terminal;
  if (terminal) {
    const name = terminal.name.toLowerCase();
    const hit = LINKING_TERMINALS.find(([prefix]) => name.startsWith(prefix));
    if (hit) {
      const version = terminal.version ?? '0';
      const links = compareVersions(version, hit[1]) >= 0;
      return {
        value: links,
        why: {
          source: 'reply',
          detail: `XTVERSION names ${terminal.name}${links ? ', which shows hyperlinks' : `, older than ${hit[1]}: no hyperlinks`}`,
          reply: terminal.reply,
        },
      };
    }
  }
  const linked = supports(runtime, 'link');
  return {
    value: linked,
    why: {
      source: 'rule',
      detail: linked
        ? "the link capability's when clause matches this environment"
        : "the link capability's when clause does not match",
    },
  };
}
