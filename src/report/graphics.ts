/**
 * The picture protocol the probe's replies imply, as the report states it. The decision itself is
 * the probe's (`protocolFromFacts`: the terminal's own name, then a kitty graphics OK, then DA1
 * attribute 4); this adds one policy: a terminal that named itself and showed none of those has
 * no graphics we can use, so the probe says `braille`, which beats a stale environment variable
 * (a `KITTY_WINDOW_ID` inherited into an ssh session from another terminal).
 */
import type { Protocol } from '../env/protocol.js';
import { protocolFromFacts } from '../probe/classify.js';
import type { ProbeFacts } from '../probe/facts.js';
import { placementNames } from '../terminals/views.js';
import type { Why } from './types.js';

/** Terminal names (lower-cased, as XTVERSION gives them) that keep images under an id and place them again: a view of the terminal database. */
export const PLACEMENT_NAMES: readonly string[] = placementNames();

const DECIDED_BY = {
  name: (facts: ProbeFacts, protocol: Protocol) => `XTVERSION names ${facts.terminal?.name}, which speaks ${protocol}`,
  'kitty-graphics': () => 'the terminal answered the kitty graphics query with OK',
  'da1-sixel': () => 'DA1 lists attribute 4 (sixel graphics)',
} as const;

/** The protocol the facts imply with its reason, or null when the replies decide nothing. */
export function graphicsFromFacts(facts: ProbeFacts): { readonly protocol: Protocol; readonly why: Why } | null {
  const decision = protocolFromFacts(facts);
  if (decision) {
    return {
      protocol: decision.protocol,
      why: { source: 'reply', detail: DECIDED_BY[decision.rule](facts, decision.protocol), reply: decision.reply },
    };
  }
  if (!facts.terminal) return null;
  const da1 = facts.da1 ? `; DA1 ${facts.da1.reply} lists no sixel` : '';
  return {
    protocol: 'braille',
    why: {
      source: 'reply',
      detail: `XTVERSION names ${facts.terminal.name}, which did not answer the kitty graphics query${da1}`,
      reply: facts.terminal.reply,
    },
  };
}
