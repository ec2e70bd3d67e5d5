/**
 * The one rule for who answered what behind a multiplexer (docs/probe.md, "Who answered what"):
 * every reply kind termsight reads, behind no multiplexer, tmux (queries wrapped or not, before or
 * after tmux's own DA1, passthrough proven or not) and GNU screen (queries wrapped or not, before
 * or after screen's own DA1), to the party that sent it.
 */
import { describe, expect, it } from 'vitest';
import { type Party, partyOf, passthroughProven, type ReplyPlace } from '../../src/probe/attribution.js';
import { replyTokens } from '../../src/probe/classify.js';
import { parseReply, type Reply } from '../../src/probe/replies.js';

const REPLIES = {
  'XTVERSION tmux': '\x1bP>|tmux 3.3a\x1b\\',
  'XTVERSION kitty': '\x1bP>|kitty(0.26.5)\x1b\\',
  DA1: '\x1b[?62;c',
  'DA2 tmux (84)': '\x1b[>84;0;0c',
  'DA2 screen (83)': '\x1b[>83;40900;0c',
  'DA2 terminal (1)': '\x1b[>1;4000;26c',
  '18 t (text cells)': '\x1b[8;24;80t',
  '16 t (cell pixels)': '\x1b[6;19;10t',
  '14 t (window pixels)': '\x1b[4;456;800t',
  'OSC 11 background': '\x1b]11;rgb:0000/0000/0000\x1b\\',
  'kitty graphics': '\x1b_Gi=31;OK\x1b\\',
  'DECRQM 2026': '\x1b[?2026;2$y',
  XTSMGRAPHICS: '\x1b[?1;0;256S',
} as const;
type Kind = keyof typeof REPLIES;

function reply(kind: Kind): Reply {
  const [token] = replyTokens(REPLIES[kind]);
  const parsed = token ? parseReply(token) : null;
  if (!parsed) throw new Error(`${kind} does not parse`);
  return parsed;
}

/** The places a reply can stand in, as the table's columns. */
const PLACES = {
  none: { multiplexer: null, wrapped: false, afterOwnDa1: false, passthroughProven: false },
  'tmux wrapped, before its DA1': { multiplexer: 'tmux', wrapped: true, afterOwnDa1: false, passthroughProven: true },
  'tmux wrapped, after its DA1': { multiplexer: 'tmux', wrapped: true, afterOwnDa1: true, passthroughProven: true },
  'tmux unwrapped, before its DA1': {
    multiplexer: 'tmux',
    wrapped: false,
    afterOwnDa1: false,
    passthroughProven: true,
  },
  'tmux unwrapped, after its DA1, passthrough proven': {
    multiplexer: 'tmux',
    wrapped: false,
    afterOwnDa1: true,
    passthroughProven: true,
  },
  'tmux unwrapped, after its DA1, passthrough not proven': {
    multiplexer: 'tmux',
    wrapped: false,
    afterOwnDa1: true,
    passthroughProven: false,
  },
  'screen, before its DA1': { multiplexer: 'screen', wrapped: false, afterOwnDa1: false, passthroughProven: false },
  'screen, after its DA1': { multiplexer: 'screen', wrapped: false, afterOwnDa1: true, passthroughProven: false },
  'screen wrapped, before its DA1': {
    multiplexer: 'screen',
    wrapped: true,
    afterOwnDa1: false,
    passthroughProven: true,
  },
  'screen wrapped, after its DA1': { multiplexer: 'screen', wrapped: true, afterOwnDa1: true, passthroughProven: true },
} as const satisfies Record<string, ReplyPlace>;
type Place = keyof typeof PLACES;
const COLUMNS = Object.keys(PLACES) as Place[];

const T: Party = 'terminal';
const M: Party = 'multiplexer';

/** Per reply kind, the party in each column, in COLUMNS order. */
const TABLE: Record<Kind, readonly Party[]> = {
  //                       none tw<  tw>  tu<  tu>p tu>n s<   s>   sw<  sw>
  'XTVERSION tmux': /*  */ [T, M, M, M, M, M, M, M, M, M],
  'XTVERSION kitty': /* */ [T, T, T, T, T, T, T, T, T, T],
  DA1: /*               */ [T, M, T, M, T, M, M, M, M, T],
  'DA2 tmux (84)': /*   */ [T, M, M, M, M, M, M, M, M, T],
  'DA2 screen (83)': /* */ [T, M, T, M, T, M, M, M, M, M],
  'DA2 terminal (1)': /**/ [T, M, T, M, T, M, M, M, M, T],
  '18 t (text cells)': /* */ [T, M, T, M, T, M, T, T, M, T],
  '16 t (cell pixels)': /* */ [T, M, T, T, T, T, T, T, M, T],
  '14 t (window pixels)': [T, M, T, T, T, T, T, T, M, T],
  'OSC 11 background': /* */ [T, M, T, M, T, M, T, T, M, T],
  'kitty graphics': /*  */ [T, M, T, T, T, T, T, T, M, T],
  'DECRQM 2026': /*     */ [T, M, T, T, T, T, T, T, M, T],
  XTSMGRAPHICS: /*      */ [T, M, T, T, T, T, T, T, M, T],
};

const rows = (Object.keys(TABLE) as Kind[]).flatMap((kind) =>
  COLUMNS.map((place, i) => ({ name: `${kind} | ${place} -> ${TABLE[kind][i]}`, kind, place, party: TABLE[kind][i] })),
);

describe('who answered what', () => {
  it('the table has a party for every column', () => {
    for (const parties of Object.values(TABLE)) expect(parties).toHaveLength(COLUMNS.length);
  });

  it.each(rows)('$name', ({ kind, place, party }) => {
    expect(partyOf(reply(kind), PLACES[place])).toBe(party);
  });
});

describe('passthrough proven', () => {
  const replies = (...kinds: Kind[]) => kinds.map(reply);
  it.each([
    {
      name: "wrapped: a reply after tmux's DA1",
      replies: replies('XTVERSION tmux', 'DA1', 'DA1'),
      wrapped: true,
      proven: true,
    },
    {
      name: "wrapped: tmux's own answers only, even ones tmux 3.4 gives (OSC 11)",
      replies: replies('XTVERSION tmux', 'OSC 11 background', 'DA1'),
      wrapped: true,
      proven: false,
    },
    {
      name: 'wrapped: no DA1 at all',
      replies: replies('XTVERSION tmux', 'kitty graphics'),
      wrapped: true,
      proven: false,
    },
    {
      name: 'unwrapped: a reply tmux never makes, anywhere',
      replies: replies('16 t (cell pixels)', 'DA1'),
      wrapped: false,
      proven: true,
    },
    {
      name: 'unwrapped: only kinds tmux answers itself',
      replies: replies('XTVERSION tmux', 'DA2 tmux (84)', '18 t (text cells)', 'DA1', 'DA1'),
      wrapped: false,
      proven: false,
    },
  ])('$name: $proven', ({ replies, wrapped, proven }) => {
    expect(passthroughProven(replies, wrapped)).toBe(proven);
  });
});
