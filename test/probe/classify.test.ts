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
    { name: 'kitty by name', replies: '\x1bP>|kitty(0.32.2)\x1b\\\x1b[?62;22c', protocol: 'kitty' },
    { name: 'DA1 with sixel', replies: '\x1b[?62;4;6c', protocol: 'sixel' },
    { name: 'DA1 without sixel', replies: '\x1b[?62;22c', protocol: null },
  ] as const)('fromProbe: $name is $protocol', ({ replies, protocol }) => {
    expect(fromProbe(replies)).toBe(protocol);
  });

  it.each([
    { name: 'DA1 ends the batch', replies: '\x1b[?62;4c', complete: true },
    { name: 'no DA1 yet', replies: '\x1bP>|kitty(0.32.2)\x1b\\', complete: false },
  ] as const)('probeComplete: $name is $complete', ({ replies, complete }) => {
    expect(probeComplete(replies)).toBe(complete);
  });
});

describe('the order of decision', () => {
  it.each([
    {
      name: 'the name wins over DA1 sixel',
      replies: '\x1bP>|kitty(0.35.0)\x1b\\\x1b[?62;4c',
      protocol: 'kitty',
      rule: 'name',
    },
    { name: 'ghostty', replies: '\x1bP>|ghostty 1.1.0\x1b\\\x1b[?62;22c', protocol: 'kitty', rule: 'name' },
    {
      name: 'WezTerm',
      replies: '\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\\x1b[?65;4;6;18;22c',
      protocol: 'kitty',
      rule: 'name',
    },
    {
      name: 'iTerm2 answers the kitty query, yet is iterm2',
      replies: '\x1bP>|iTerm2 3.5.0\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;4c',
      protocol: 'iterm2',
      rule: 'name',
    },
    {
      name: 'foot says sixel by name',
      replies: '\x1bP>|foot(1.16.2)\x1b\\\x1b[?62;4;22c',
      protocol: 'sixel',
      rule: 'name',
    },
    {
      name: 'an unknown name: the kitty OK decides',
      replies: '\x1bP>|Mystery 1.0\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;4c',
      protocol: 'kitty',
      rule: 'kitty-graphics',
    },
    {
      name: 'no name: the kitty OK decides',
      replies: '\x1b_Gi=31;OK\x1b\\\x1b[?62;c',
      protocol: 'kitty',
      rule: 'kitty-graphics',
    },
    { name: 'a kitty error is no kitty', replies: '\x1b_Gi=31;EINVAL:bad\x1b\\\x1b[?62;c', protocol: null, rule: null },
    { name: 'DA1 4 means sixel', replies: '\x1b[?63;1;2;4;6;9c', protocol: 'sixel', rule: 'da1-sixel' },
    {
      name: 'XTerm by name decides nothing: DA1 4 still decides',
      replies: '\x1bP>|XTerm(379)\x1b\\\x1b[?63;1;2;4c',
      protocol: 'sixel',
      rule: 'da1-sixel',
    },
    { name: '14 is not 4', replies: '\x1b[?62;14c', protocol: null, rule: null },
    { name: '24 is not 4', replies: '\x1b[?62;24c', protocol: null, rule: null },
    { name: '42 is not 4', replies: '\x1b[?62;42c', protocol: null, rule: null },
    { name: 'a level of 4 is not attribute 4', replies: '\x1b[?4;22c', protocol: null, rule: null },
    {
      name: "tmux's own name decides nothing",
      replies: '\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c',
      protocol: null,
      rule: null,
    },
    { name: 'nothing at all', replies: '', protocol: null, rule: null },
  ] as const)('$name', ({ replies, protocol, rule }) => {
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
    { name: 'a 1 px cell', replies: '\x1b[6;1;1t' },
    { name: 'a 500 px cell', replies: '\x1b[6;500;10t' },
    { name: 'a window of 0 cells', replies: '\x1b[4;456;800t\x1b[8;0;0t' },
    { name: '14 t alone', replies: '\x1b[4;456;800t' },
  ])('no cell size from $name', ({ replies }) => {
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
    { name: 'set', value: 1, supported: true },
    { name: 'reset', value: 2, supported: true },
    { name: 'permanently set', value: 3, supported: true },
    { name: 'not recognised', value: 0, supported: false },
    { name: 'permanently reset', value: 4, supported: false },
  ])('DECRQM 2026 value $value ($name): synchronized output $supported', ({ value, supported }) => {
    expect(factsFromReplies(`\x1b[?2026;${value}$y`).synchronizedOutput?.supported).toBe(supported);
  });

  it.each([
    { name: 'black', rgb: [0, 0, 0], dark: true },
    { name: 'white', rgb: [255, 255, 255], dark: false },
    { name: 'a dark grey-blue (One Dark)', rgb: [0x28, 0x2c, 0x34], dark: true },
    { name: 'a light cream (Solarized Light)', rgb: [0xfd, 0xf6, 0xe3], dark: false },
    { name: 'mid grey is light', rgb: [0x80, 0x80, 0x80], dark: false },
    { name: 'a darker grey', rgb: [0x60, 0x60, 0x60], dark: true },
  ] as const)('background $name $rgb is dark: $dark', ({ rgb, dark }) => {
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
    {
      name: 'screen by its DA2 alone (STY scrubbed), version from 40900',
      replies: '\x1b[>83;40900;0c\x1b[?1;2c',
      multiplexer: 'screen',
      version: '4.09.00',
      because: '\\e[>83;40900;0c',
    },
    {
      name: 'tmux by its DA2 alone',
      replies: '\x1b[>84;0;0c\x1b[?1;2c',
      multiplexer: 'tmux',
      version: null,
      because: '\\e[>84;0;0c',
    },
    {
      name: "tmux's XTVERSION wins over its DA2 as the reason",
      replies: '\x1bP>|tmux 3.3a\x1b\\\x1b[>84;0;0c\x1b[?1;2c',
      multiplexer: 'tmux',
      version: '3.3a',
      because: '\\eP>|tmux 3.3a\\e\\',
    },
  ] as const)('with no multiplexer given, the replies name it: $name', ({ replies, multiplexer, version, because }) => {
    const facts = factsFromReplies(replies);
    expect(facts.multiplexer).toEqual({ name: multiplexer, version, reply: because });
    expect(facts.da2).toBeUndefined(); // a multiplexer's DA2 is not the terminal's
  });

  it("behind tmux, wrapped: only replies after tmux's DA1 prove passthrough (tmux 3.4+ answers OSC 11 itself)", () => {
    const tmux34 = '\x1bP>|tmux 3.4\x1b\\\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?2026;2$y\x1b[?1;2c';
    const off = factsFromReplies(tmux34, { multiplexer: 'tmux', wrapped: true });
    expect(off.passthrough).toBe(false);
    expect(off.synchronizedOutput).toBeUndefined(); // tmux's, not the terminal's
    // tmux's own answer (the pane's background, what tmux's own sixel is drawn on) where the
    // outer terminal said nothing.
    expect(off.background).toMatchObject({ rgb: [0x1c, 0x1c, 0x1c], dark: true });
    const on = factsFromReplies(`${tmux34}\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;c`, {
      multiplexer: 'tmux',
      wrapped: true,
    });
    expect(on.passthrough).toBe(true);
    expect(on.background?.dark).toBe(false); // the outer terminal's answer wins
  });

  it("behind screen, wrapped: a background before screen's DA1 is not taken (screen answers none itself, it forwards OSC 11)", () => {
    const early = '\x1b[>83;40900;0c\x1b]11;rgb:1c1c/1c1c/1c1c\x1b\\\x1b[?1;2c';
    expect(factsFromReplies(early, { multiplexer: 'screen', wrapped: true }).background).toBeUndefined();
    const forwarded = factsFromReplies(`${early}\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;c`, {
      multiplexer: 'screen',
      wrapped: true,
    });
    expect(forwarded.background?.rgb).toEqual([255, 255, 255]);
  });

  it.each([
    { name: 'tmux XTVERSION', text: '\x1bP>|tmux 3.3a\x1b\\', named: 'tmux', outerOnly: false },
    { name: 'tmux DA2', text: '\x1b[>84;0;0c', named: 'tmux', outerOnly: false },
    { name: 'screen DA2', text: '\x1b[>83;40900;0c', named: 'screen', outerOnly: false },
    { name: 'kitty XTVERSION', text: '\x1bP>|kitty(0.26.5)\x1b\\', named: null, outerOnly: true },
    { name: 'kitty DA2', text: '\x1b[>1;4000;26c', named: null, outerOnly: false },
    { name: 'xterm DA2', text: '\x1b[>19;379;0c', named: null, outerOnly: false },
    { name: 'the VT100-class DA1 tmux and screen send', text: '\x1b[?1;2c', named: null, outerOnly: false },
    { name: 'tmux text area in cells (18 t)', text: '\x1b[8;80;23t', named: null, outerOnly: false },
    { name: 'cell size (16 t)', text: '\x1b[6;19;10t', named: null, outerOnly: true },
    { name: 'background (OSC 11)', text: '\x1b]11;rgb:0000/0000/0000\x1b\\', named: null, outerOnly: false },
    { name: 'kitty graphics reply', text: '\x1b_Gi=31;OK\x1b\\', named: null, outerOnly: true },
  ] as const)('$name: names multiplexer $named; outer terminal only: $outerOnly', ({ text, named, outerOnly }) => {
    expect(multiplexerNamedBy(reply(text))).toBe(named);
    expect(isOuterOnlyReply(reply(text))).toBe(outerOnly);
  });

  it('DA2 of the terminal itself', () => {
    expect(factsFromReplies('\x1b[>1;4000;26c').da2).toMatchObject({ type: 1, version: 4000, rom: 26 });
  });
});
