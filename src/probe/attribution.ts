/**
 * Who answered a reply when a multiplexer sits between the program and the terminal: the
 * multiplexer itself (tmux, GNU screen) or the terminal outside it. One rule, written out in
 * docs/probe.md ("Who answered what"); `factsFromReplies` applies it to every reply.
 */
import type { Reply } from './replies.js';

/** Who answered a reply: the multiplexer itself, or the terminal (the outer one behind a multiplexer). */
export type Party = 'multiplexer' | 'terminal';

/** What the rule needs to know about one reply's place in the exchange. */
export interface ReplyPlace {
  /** The multiplexer in between, or null for none. */
  readonly multiplexer: 'tmux' | 'screen' | null;
  /** Whether queries went wrapped for the multiplexer's passthrough after one unwrapped DA1 it answers itself. */
  readonly wrapped: boolean;
  /** Whether the reply came after the multiplexer's own DA1 (the first DA1 of the exchange). */
  readonly afterOwnDa1: boolean;
  /** Whether the exchange proved that tmux forwards the outer terminal's answers (see `passthroughProven`). */
  readonly passthroughProven: boolean;
}

/** Names a multiplexer gives in XTVERSION. */
export function isMultiplexerName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'tmux' || lower === 'screen';
}

/** DA2 terminal types multiplexers report: 84 (`T`) tmux, 83 (`S`) screen. */
export function multiplexerOfDa2(type: number): 'tmux' | 'screen' | null {
  return type === 84 ? 'tmux' : type === 83 ? 'screen' : null;
}

/**
 * Whether tmux never produces this reply itself, so it can only be the outer terminal's. Not
 * DA1/DA2/`18 t` (tmux answers them), and not the background colour: tmux 3.4 and later answer
 * OSC 11 themselves (tmux/tmux#4127), 3.3a did not.
 */
export function isOuterOnlyReply(reply: Reply): boolean {
  switch (reply.type) {
    case 'xtversion':
      return !isMultiplexerName(reply.name);
    case 'windowOps':
      return reply.code !== 8; // tmux answers 18 t itself (rows and columns swapped in 3.3a)
    case 'da1':
    case 'da2':
    case 'background':
      return false;
    default:
      return true;
  }
}

/**
 * Whether the replies prove that the outer terminal answered through the multiplexer: with wrapped
 * queries, any reply after its own DA1 (tmux and screen answer their own at once, in order, before
 * anything forwarded can come back);
 * without, a reply tmux never makes itself.
 */
export function passthroughProven(replies: readonly Reply[], wrapped: boolean): boolean {
  if (!wrapped) return replies.some(isOuterOnlyReply);
  const ownDa1 = replies.findIndex((r) => r.type === 'da1');
  return ownDa1 >= 0 && ownDa1 < replies.length - 1;
}

/**
 * The one attribution rule:
 * 1. With no multiplexer, every reply is the terminal's.
 * 2. A reply that names its sender decides by itself: XTVERSION `tmux …`/`screen …` and a DA2 of the
 *    multiplexer's own type (84 tmux, 83 screen) are the multiplexer's; XTVERSION naming anything
 *    else is the terminal's.
 * 3. Behind tmux or screen with wrapped queries, a reply before the multiplexer's own DA1 (the
 *    first of the exchange, sent unwrapped before the wrapped ones) is the multiplexer's, one after
 *    it is the outer terminal's.
 * 4. Behind screen without wrapped queries, DA1 and DA2 are screen's and everything else is
 *    forwarded: the terminal's.
 * 5. Behind tmux without wrapped queries, a reply tmux never makes is the terminal's; any other is
 *    the terminal's only after tmux's own DA1 and once passthrough is proven, else tmux's.
 *
 * @example partyOf(parseReply('\x1b[?62;c')!, { multiplexer: 'tmux', wrapped: true, afterOwnDa1: true, passthroughProven: true }) === 'terminal'
 */
export function partyOf(reply: Reply, place: ReplyPlace): Party {
  const { multiplexer } = place;
  if (multiplexer === null) return 'terminal';
  if (reply.type === 'xtversion') return isMultiplexerName(reply.name) ? 'multiplexer' : 'terminal';
  if (reply.type === 'da2' && multiplexerOfDa2(reply.terminalType) === multiplexer) return 'multiplexer';
  if (place.wrapped) return place.afterOwnDa1 ? 'terminal' : 'multiplexer';
  if (multiplexer === 'screen') return reply.type === 'da1' || reply.type === 'da2' ? 'multiplexer' : 'terminal';
  if (isOuterOnlyReply(reply)) return 'terminal';
  return place.afterOwnDa1 && place.passthroughProven ? 'terminal' : 'multiplexer';
}
