/**
 * Whether kitty pictures may go by file (`t=t`) instead of base64 through the pty: only on the
 * terminal's own word (its `OK` to the local-transfer query, probe/kitty-local.ts), only where the
 * pictures are kitty's and go straight to it. Over ssh the file would be on the wrong machine
 * (the query is not even sent); through a multiplexer no reply proves the terminal is local.
 */
import type { Protocol } from '../env/protocol.js';
import { isRemote, type Runtime } from '../env/runtime.js';
import type { ProbeFacts } from '../probe/facts.js';
import type { MultiplexerInfo, Why } from './types.js';

/** The answer and its reason. */
export function resolveKittyLocal(
  runtime: Runtime,
  facts: ProbeFacts | undefined,
  graphics: Protocol | null,
  multiplexer: MultiplexerInfo | null,
): { readonly value: boolean; readonly why: Why } {
  const no = (source: Why['source'], detail: string, reply?: string): { value: boolean; why: Why } => ({
    value: false,
    why: { source, detail, ...(reply ? { reply } : {}) },
  });
  if (isRemote(runtime.env))
    return no('rule', "an SSH_* variable is set: the terminal cannot read this machine's files");
  if (multiplexer !== null) return no('multiplexer', `behind ${multiplexer.name}: pictures go inline`);
  if (graphics !== 'kitty') return no('default', 'pictures are not kitty graphics here');
  const said = facts?.kittyLocal;
  if (!said) return no('default', 'the local-transfer query (t=t) was not asked or not answered: pictures go inline');
  if (!said.ok)
    return no('reply', 'the terminal refused the local-transfer query (t=t): pictures go inline', said.reply);
  if (said.deleted === false)
    return no('reply', 'the terminal read the probe file (t=t) but did not delete it: pictures go inline', said.reply);
  return {
    value: true,
    why: { source: 'reply', detail: 'the terminal read the probe file (t=t): pictures go by file', reply: said.reply },
  };
}
