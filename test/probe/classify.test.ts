/** Classification: the founding doctests, the order of decision, and what the facts say. */
import { describe, expect, it } from 'vitest';
import { isOuterOnlyReply } from '../../src/probe/attribution.js';
import {
  factsFromReplies,
  fromProbe,
  isDark,
  multiplexerNamedBy,
  probeComplete,
  protocolFromFacts,
  replyTokens,
} from '../../src/probe/classify.js';
import { parseReply } from '../../src/probe/replies.js';

/** The one reply in a string, parsed. */
const reply = (text: string) => {
  const tokens = replyTokens(text);
  expect(tokens).toHaveLength(1);
  return parseReply(tokens[0]!)!;
};

describe('the founding doctests', () => {
  it.each([
    ['\x1bP>|kitty(0.32.2)\x1b\\\x1b[?62;22c', 'kitty'],
    ['\x1b[?62;4;6c', 'sixel'],
    ['\x1b[?62;22c', null],
  ] as const)('fromProbe(%j) is %s', (replies, protocol) => {
    expect(fromProbe(replies)).toBe(protocol);
  });

  it.each([
    ['\x1b[?62;4c', true],
    ['\x1bP>|kitty(0.32.2)\x1b\\', false],
  ] as const)('probeComplete(%j) is %s', (replies, complete) => {
    expect(probeComplete(replies)).toBe(complete);
  });
});

describe('the order of decision', () => {
  it.each([
    ['the name wins over DA1 sixel', '\x1bP>|kitty(0.35.0)\x1b\\\x1b[?62;4c', 'kitty', 'name'],
    ['ghostty', '\x1bP>|ghostty 1.1.0\x1b\\\x1b[?62;22c', 'kitty', 'name'],
    ['WezTerm', '\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\\x1b[?65;4;6;18;22c', 'kitty', 'name'],
    [
      'iTerm2 answers the kitty query, yet is iterm2',
      '\x1bP>|iTerm2 3.5.0\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;4c',
      'iterm2',
      'name',
    ],
    ['foot says sixel by name', '\x1bP>|foot(1.16.2)\x1b\\\x1b[?62;4;22c', 'sixel', 'name'],
    [
      'an unknown name: the kitty OK decides',
      '\x1bP>|Mystery 1.0\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;4c',
      'kitty',
      'kitty-graphics',
    ],
    ['no name: the kitty OK decides', '\x1b_Gi=31;OK\x1b\\\x1b[?62;c', 'kitty', 'kitty-graphics'],
    ['a kitty error is no kitty', '\x1b_Gi=31;EINVAL:bad\x1b\\\x1b[?62;c', null, null],
    ['DA1 4 means sixel', '\x1b[?63;1;2;4;6;9c', 'sixel', 'da1-sixel'],
    [
      'XTerm by name decides nothing: DA1 4 still decides',
      '\x1bP>|XTerm(379)\x1b\\\x1b[?63;1;2;4c',
      'sixel',
      'da1-sixel',
    ],
    ['14 is not 4', '\x1b[?62;14c', null, null],
    ['24 is not 4', '\x1b[?62;24c', null, null],
    ['42 is not 4', '\x1b[?62;42c', null, null],
    ['a level of 4 is not attribute 4', '\x1b[?4;22c', null, null],
    ["tmux's own name decides nothing", '\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c', null, null],
    ['nothing at all', '', null, null],
  ] as const)('%s', (_, replies, protocol, rule) => {
    const decision = protocolFromFacts(factsFromReplies(replies));
    expect(decision?.protocol ?? null).toBe(protocol);
    expect(decision?.rule ?? null).toBe(rule);
    expect(fromProbe(replies)).toBe(protocol);
  });
});

describe('facts', () => {
  it('cell size from 16 t', () => {
    expect(factsFromReplies('\x1b[6;19;10t\x1b[4;456;800t\x1b[8;24;80t').cellPixels).toMatchObject({
      width: 10,
      height: 19,
    });
  });

  it('cell size from 14 t divided by 18 t when 16 t is absent', () => {
    expect(factsFromReplies('\x1b[4;456;800t\x1b[8;24;80t').cellPixels).toMatchObject({ width: 10, height: 19 });
  });

  it.each([
    ['a 1 px cell', '\x1b[6;1;1t'],
    ['a 500 px cell', '\x1b[6;500;10t'],
    ['a window of 0 cells', '\x1b[4;456;800t\x1b[8;0;0t'],
    ['14 t alone', '\x1b[4;456;800t'],
  ])('no cell size from %s', (_, replies) => {
    expect(factsFromReplies(replies).cellPixels).toBeUndefined();
  });

  it("never from tmux's own 18 t (3.3a swaps rows and columns)", () => {
    const facts = factsFromReplies('\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c\x1b[4;456;800t\x1b[8;80;23t', {
      multiplexer: 'tmux',
      wrapped: false,
    });
    expect(facts.cellPixels).toBeUndefined();
  });

  it.each([
    [1, true],
    [2, true],
    [3, true],
    [0, false],
    [4, false],
  ])('DECRQM 2026 value %i: synchronized output %s', (value, supported) => {
    expect(factsFromReplies(`\x1b[?2026;${value}$y`).synchronizedOutput?.supported).toBe(supported);
  });

  it.each([
    [[0, 0, 0], true],
    [[255, 255, 255], false],
    [[0x28, 0x2c, 0x34], true],
    [[0xfd, 0xf6, 0xe3], false],
    [[0x80, 0x80, 0x80], false],
    [[0x60, 0x60, 0x60], true],
  ] as const)('background %j is dark: %s', (rgb, dark) => {
    expect(isDark(rgb)).toBe(dark);
  });

  it('background from OSC 11; the foreground (OSC 10, not asked) is not read', () => {
    const facts = factsFromReplies('\x1b]10;rgb:dddd/dddd/dddd\x1b\\\x1b]11;rgb:2828/2c2c/3434\x07');
    expect(facts.background).toMatchObject({ rgb: [40, 44, 52], dark: true });
    expect(facts).not.toHaveProperty('foreground');
  });

  it('sixel registers only from a successful XTSMGRAPHICS', () => {
    expect(factsFromReplies('\x1b[?1;0;256S').sixelColors?.registers).toBe(256);
    expect(factsFromReplies('\x1b[?1;3S').sixelColors).toBeUndefined();
  });

  it('every reply is kept, escaped, in order', () => {
    expect(factsFromReplies('\x1b[?62;c\x1b_Gi=31;OK\x1b\\').replies).toEqual([
      { kind: 'csi', text: '\\e[?62;c' },
      { kind: 'apc', text: '\\e_Gi=31;OK\\e\\' },
    ]);
  });

  it('behind tmux: both hops, the outer DA1, passthrough proven', () => {
    const facts = factsFromReplies('\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c\x1bP>|kitty(0.26.5)\x1b\\\x1b[?62;4c', {
      multiplexer: 'tmux',
      wrapped: true,
    });
    expect(facts.multiplexer).toMatchObject({ name: 'tmux', version: '3.3a' });
    expect(facts.terminal).toMatchObject({ name: 'kitty', version: '0.26.5' });
    expect(facts.passthrough).toBe(true);
    expect(facts.da1).toMatchObject({ level: 62, attributes: [4] });
  });

  it('behind tmux: a second DA1 alone proves passthrough when queries were wrapped', () => {
    const facts = factsFromReplies('\x1b[?1;2c\x1b[?62;4c', { multiplexer: 'tmux', wrapped: true });
    expect(facts.passthrough).toBe(true);
    expect(fromProbe('\x1b[?1;2c')).toBeNull();
    expect(protocolFromFacts(facts)?.protocol).toBe('sixel');
  });

  it('behind screen: screen named by its DA2, its DA1 its own, OSC 11 from the terminal', () => {
    const facts = factsFromReplies('\x1b[?1;2c\x1b[>83;40900;0c\x1b]11;rgb:ffff/ffff/ffff\x1b\\', {
      multiplexer: 'screen',
    });
    expect(facts.multiplexer).toMatchObject({ name: 'screen', version: '4.09.00' });
    expect(facts.da2).toBeUndefined();
    expect(facts.background?.dark).toBe(false);
  });

  it.each([
    [
      'screen by its DA2 alone (STY scrubbed), version from 40900',
      '\x1b[>83;40900;0c\x1b[?1;2c',
      'screen',
      '4.09.00',
      '\\e[>83;40900;0c',
    ],
    ['tmux by its DA2 alone', '\x1b[>84;0;0c\x1b[?1;2c', 'tmux', null, '\\e[>84;0;0c'],
    [
      "tmux's XTVERSION wins over its DA2 as the reason",
      '\x1bP>|tmux 3.3a\x1b\\\x1b[>84;0;0c\x1b[?1;2c',
      'tmux',
      '3.3a',
      '\\eP>|tmux 3.3a\\e\\',
    ],
  ] as const)('with no multiplexer given, the replies name it: %s', (_, replies, name, version, because) => {
    const facts = factsFromReplies(replies);
    expect(facts.multiplexer).toEqual({ name, version, reply: because });
    expect(facts.da2).toBeUndefined(); // a multiplexer's DA2 is not the terminal's
  });

  it("behind tmux, wrapped: only replies after tmux's DA1 prove passthrough (tmux 3.4+ answers OSC 11 itself)", () => {
    const tmux34 = '\x1bP>|tmux 3.4\x1b\\\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?2026;2$y\x1b[?1;2c';
    const off = factsFromReplies(tmux34, { multiplexer: 'tmux', wrapped: true });
    expect(off.passthrough).toBe(false);
    expect(off.synchronizedOutput).toBeUndefined(); // tmux's, not the terminal's
    expect(off.background).toBeUndefined(); // tmux's own answer, not the terminal's: not taken
    const on = factsFromReplies(`${tmux34}\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;c`, {
      multiplexer: 'tmux',
      wrapped: true,
    });
    expect(on.passthrough).toBe(true);
    expect(on.background?.dark).toBe(false); // the outer terminal's answer wins
  });

  it.each([
    ['\x1bP>|tmux 3.3a\x1b\\', 'tmux', false],
    ['\x1b[>84;0;0c', 'tmux', false],
    ['\x1b[>83;40900;0c', 'screen', false],
    ['\x1bP>|kitty(0.26.5)\x1b\\', null, true],
    ['\x1b[>1;4000;26c', null, false],
    ['\x1b[>19;379;0c', null, false],
    ['\x1b[?1;2c', null, false],
    ['\x1b[8;80;23t', null, false],
    ['\x1b[6;19;10t', null, true],
    ['\x1b]11;rgb:0000/0000/0000\x1b\\', null, false],
    ['\x1b_Gi=31;OK\x1b\\', null, true],
  ] as const)('%j: names multiplexer %s; outer terminal only: %s', (text, named, outerOnly) => {
    expect(multiplexerNamedBy(reply(text))).toBe(named);
    expect(isOuterOnlyReply(reply(text))).toBe(outerOnly);
  });

  it('DA2 of the terminal itself', () => {
    expect(factsFromReplies('\x1b[>1;4000;26c').da2).toMatchObject({ type: 1, version: 4000, rom: 26 });
  });
});
