/**
 * Whether OSC 8 hyperlinks work. A terminal that names itself in its XTVERSION reply knows better
 * than the environment (the terminal as the report identified it, `who`); otherwise the `link`
 * capability's `when` clause decides.
 */
import { supports } from '../capability/capability.js';
import type { Runtime } from '../env/runtime.js';
import type { ProbeFacts } from '../probe/facts.js';
import type { TmuxFacts } from '../probe/tmux-formats.js';
import type { Identified } from '../terminals/identify.js';
import { supports as rowSupports, terminalById } from '../terminals/lookup.js';
import type { TerminalRow } from '../terminals/types.js';
import { linkingTerminals } from '../terminals/views.js';
import type { MultiplexerInfo, Why } from './types.js';

/** Terminal names (lower-cased prefixes) that link, with the first version that does: a view of the terminal database. */
export const LINKING_TERMINALS: ReadonlyArray<readonly [prefix: string, sinceVersion: string]> = linkingTerminals();

/** The hint shown when tmux sits in between: it forwards OSC 8 only with its `hyperlinks` feature. */
export const TMUX_HYPERLINKS_HINT =
  "tmux 3.4+ forwards hyperlinks only with the hyperlinks terminal feature: set -as terminal-features ',*:hyperlinks'";

/**
 * The hyperlinks answer with its reason; `runtime.isTTY.stdout` is the stream the links would go
 * to. Inside tmux, tmux's own word (`tmux`: its version and `#{client_termfeatures}`) decides.
 */
export function hyperlinksAnswer(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  multiplexer: MultiplexerInfo | null,
  tmux: TmuxFacts | null = null,
  who: Identified | null = null,
): { readonly value: boolean; readonly why: Why } {
  if (multiplexer?.name === 'tmux') {
    const row = terminalById('tmux') as TerminalRow;
    const version = tmux?.version ?? multiplexer.version;
    if (tmux && rowSupports(row, 'hyperlinks', version) && tmux.clientFeatures.includes('hyperlinks')) {
      return {
        value: true,
        why: {
          source: 'multiplexer',
          detail: `tmux ${version} (database row tmux) forwards OSC 8: #{client_termfeatures} lists hyperlinks`,
          row: 'tmux',
          reference: row.facts.hyperlinks?.source ?? '',
        },
      };
    }
    return {
      value: false,
      why: { source: 'multiplexer', detail: `inside tmux: ${TMUX_HYPERLINKS_HINT}`, row: 'tmux' },
    };
  }
  if (multiplexer?.name === 'mosh') {
    const fact = terminalById('mosh')?.facts.hyperlinks;
    return {
      value: false,
      why: {
        source: 'multiplexer',
        detail: 'mosh (database row mosh) passes no OSC 8 hyperlinks',
        row: 'mosh',
        ...(fact ? { reference: fact.source } : {}),
      },
    };
  }
  if (multiplexer?.name === 'screen') {
    return { value: false, why: { source: 'multiplexer', detail: 'GNU screen does not forward OSC 8 hyperlinks' } };
  }
  // A terminal its XTVERSION names, where the report takes links from that name (the row's `byName`).
  const terminal = facts?.terminal;
  if (terminal && who?.by === 'reply' && who.row.identity.xtversion?.byName.includes('hyperlinks')) {
    const fact = who.row.facts.hyperlinks;
    const links = rowSupports(who.row, 'hyperlinks', who.version);
    return {
      value: links,
      why: {
        source: 'reply',
        detail: `XTVERSION names ${terminal.name}${links ? ', which shows hyperlinks' : `, older than ${fact?.since}: no hyperlinks`}`,
        reply: terminal.reply,
        row: who.row.id,
        ...(fact ? { reference: fact.source } : {}),
      },
    };
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
