/** Decoding single replies. */
import { describe, expect, it } from 'vitest';
import { parseColor, parseReply, splitNameVersion } from '../../src/probe/replies.js';

describe('parseReply', () => {
  it.each([
    {
      name: 'XTVERSION kitty, version in parentheses',
      reply: '\x1bP>|kitty(0.26.5)\x1b\\',
      expected: { type: 'xtversion', name: 'kitty', version: '0.26.5' },
    },
    {
      name: 'XTVERSION tmux, version after a space',
      reply: '\x1bP>|tmux 3.3a\x1b\\',
      expected: { type: 'xtversion', name: 'tmux', version: '3.3a' },
    },
    {
      name: 'XTVERSION xterm',
      reply: '\x1bP>|XTerm(379)\x1b\\',
      expected: { type: 'xtversion', name: 'XTerm', version: '379' },
    },
    {
      name: 'XTVERSION WezTerm, a dated version',
      reply: '\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\',
      expected: { type: 'xtversion', name: 'WezTerm', version: '20240203-110809-5046fc22' },
    },
    {
      name: 'XTVERSION with no version',
      reply: '\x1bP>|foot\x1b\\',
      expected: { type: 'xtversion', name: 'foot', version: null },
    },
    {
      name: 'DA1 with an empty last parameter',
      reply: '\x1b[?62;c',
      expected: { type: 'da1', level: 62, attributes: [] },
    },
    {
      name: 'DA1 with sixel and colour',
      reply: '\x1b[?62;4;22c',
      expected: { type: 'da1', level: 62, attributes: [4, 22] },
    },
    {
      name: 'DA1 of xterm as a VT340',
      reply: '\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c',
      expected: { type: 'da1', level: 64, attributes: [1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28] },
    },
    { name: 'DA1 level 1', reply: '\x1b[?1;2c', expected: { type: 'da1', level: 1, attributes: [2] } },
    { name: 'DA1 level 4, no attributes', reply: '\x1b[?4c', expected: { type: 'da1', level: 4, attributes: [] } },
    {
      name: 'DA2 of kitty',
      reply: '\x1b[>1;4000;26c',
      expected: { type: 'da2', terminalType: 1, version: 4000, rom: 26 },
    },
    {
      name: 'DA2 of an old terminal',
      reply: '\x1b[>84;0;0c',
      expected: { type: 'da2', terminalType: 84, version: 0, rom: 0 },
    },
    {
      name: 'kitty graphics OK',
      reply: '\x1b_Gi=31;OK\x1b\\',
      expected: { type: 'kittyGraphics', id: 31, ok: true, message: 'OK' },
    },
    {
      name: 'kitty graphics error',
      reply: '\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\',
      expected: { type: 'kittyGraphics', id: 31, ok: false, message: 'ENOTSUPPORTED:no' },
    },
    { name: 'DECRQM 2026 reset', reply: '\x1b[?2026;2$y', expected: { type: 'decrqm', mode: 2026, value: 2 } },
    { name: 'DECRQM 2026 not recognised', reply: '\x1b[?2026;0$y', expected: { type: 'decrqm', mode: 2026, value: 0 } },
    { name: 'XTWINOPS cell size', reply: '\x1b[6;19;10t', expected: { type: 'windowOps', code: 6, a: 19, b: 10 } },
    {
      name: 'XTWINOPS text area in cells',
      reply: '\x1b[8;24;80t',
      expected: { type: 'windowOps', code: 8, a: 24, b: 80 },
    },
    {
      name: 'OSC 11 ended by ST',
      reply: '\x1b]11;rgb:0000/0000/0000\x1b\\',
      expected: { type: 'background', rgb: [0, 0, 0] },
    },
    {
      name: 'OSC 11 ended by BEL',
      reply: '\x1b]11;rgb:2828/2c2c/3434\x07',
      expected: { type: 'background', rgb: [40, 44, 52] },
    },
    {
      name: 'XTSMGRAPHICS colour registers',
      reply: '\x1b[?1;0;256S',
      expected: { type: 'xtsmgraphics', item: 1, status: 0, values: [256] },
    },
    {
      name: 'XTSMGRAPHICS failure, no values',
      reply: '\x1b[?1;3S',
      expected: { type: 'xtsmgraphics', item: 1, status: 3, values: [] },
    },
    {
      name: 'XTSMGRAPHICS sixel geometry',
      reply: '\x1b[?2;0;800;480S',
      expected: { type: 'xtsmgraphics', item: 2, status: 0, values: [800, 480] },
    },
  ] as const)('$name', ({ reply, expected }) => {
    expect(parseReply(reply)).toMatchObject(expected);
  });

  it('keeps the reply as escaped text', () => {
    expect(parseReply(Buffer.from('\x1b[?62;c'))?.text).toBe('\\e[?62;c');
  });

  it.each([
    { name: 'an arrow key', bytes: '\x1b[A' },
    { name: 'a cursor position report', bytes: '\x1b[1;1R' },
    { name: 'DA1 with no level', bytes: '\x1b[?c' },
    { name: 'DA2 with no parameters', bytes: '\x1b[>c' },
    { name: 'XTWINOPS with one number missing', bytes: '\x1b[6;19t' },
    { name: 'XTVERSION with no name', bytes: '\x1bP>|\x1b\\' },
    { name: 'a title (OSC 2)', bytes: '\x1b]2;title\x07' },
    { name: 'plain text', bytes: 'plain' },
    { name: 'DA1 with a letter among the numbers', bytes: '\x1b[?62;x4c' },
    { name: 'XTVERSION without its ST', bytes: '\x1bP>|kitty' },
    // Answers to queries termsight does not send: the scanner keeps them away from the keys, but
    // nothing decodes them.
    { name: 'DA3 (not sent)', bytes: '\x1bP!|00000000\x1b\\' },
    { name: 'XTGETTCAP (not sent)', bytes: '\x1bP1+r544e=787465726d2d6b69747479\x1b\\' },
    { name: 'DECRQSS (not sent)', bytes: '\x1bP1$r0m\x1b\\' },
    { name: 'kitty keyboard flags (not sent)', bytes: '\x1b[?0u' },
    { name: 'OSC 10 foreground (not sent)', bytes: '\x1b]10;rgb:dddd/dddd/dddd\x07' },
    { name: 'OSC 4 palette (not sent)', bytes: '\x1b]4;1;rgb:cd/00/00\x1b\\' },
    { name: 'DECRQM for an ANSI mode (no ?)', bytes: '\x1b[2026;2$y' },
  ])('$name is not a reply termsight reads', ({ bytes }) => {
    expect(parseReply(bytes)).toBeNull();
  });
});

describe('DA1 attributes are parsed exactly', () => {
  it.each([
    { name: 'DA1 attribute 14', reply: '\x1b[?62;14c', attributes: [14] },
    { name: 'DA1 attribute 24', reply: '\x1b[?62;24c', attributes: [24] },
    { name: 'DA1 attribute 42', reply: '\x1b[?62;42c', attributes: [42] },
    { name: 'level 4 with attribute 22', reply: '\x1b[?4;22c', attributes: [22] },
    { name: 'DA1 attribute 4 (sixel)', reply: '\x1b[?62;4c', attributes: [4] },
  ] as const)('$name: $reply has attributes $attributes', ({ reply, attributes }) => {
    const parsed = parseReply(reply);
    expect(parsed?.type === 'da1' && parsed.attributes).toEqual(attributes);
  });
});

describe('colours', () => {
  it.each([
    { name: 'one hex digit per channel, zero', spec: 'rgb:0/0/0', rgb: [0, 0, 0] },
    { name: 'one hex digit per channel', spec: 'rgb:f/8/0', rgb: [255, 136, 0] },
    { name: 'two hex digits', spec: 'rgb:ff/80/00', rgb: [255, 128, 0] },
    { name: 'three hex digits', spec: 'rgb:fff/800/000', rgb: [255, 128, 0] },
    { name: 'four hex digits', spec: 'rgb:ffff/8000/0000', rgb: [255, 128, 0] },
    { name: 'upper case', spec: 'rgb:FFFF/FFFF/FFFF', rgb: [255, 255, 255] },
    { name: 'rgba, alpha ignored', spec: 'rgba:ffff/0000/0000/ffff', rgb: [255, 0, 0] },
    { name: '#rrggbb', spec: '#ff8000', rgb: [255, 128, 0] },
  ] as const)('$name: $spec is $rgb', ({ spec, rgb }) => {
    expect(parseColor(spec)).toEqual(rgb);
  });

  it.each([
    { name: 'two channels', spec: 'rgb:ff/ff' },
    { name: 'five hex digits', spec: 'rgb:fffff/0/0' },
    { name: 'not hex', spec: 'rgb:gg/00/00' },
    { name: 'another colour space', spec: 'cmy:1/1/1' },
    { name: 'four channels without rgba', spec: 'rgb:ff/ff/ff/ff' },
  ])('$name ($spec) is not a colour', ({ spec }) => {
    expect(parseColor(spec)).toBeNull();
  });
});

describe('names and versions', () => {
  it.each([
    { name: 'in parentheses', reply: 'kitty(0.32.2)', terminal: 'kitty', version: '0.32.2' },
    { name: 'after a space', reply: 'tmux 3.3a', terminal: 'tmux', version: '3.3a' },
    { name: 'ghostty', reply: 'ghostty 1.1.0', terminal: 'ghostty', version: '1.1.0' },
    { name: 'iTerm2', reply: 'iTerm2 3.5.0', terminal: 'iTerm2', version: '3.5.0' },
    { name: 'foot', reply: 'foot(1.16.2)', terminal: 'foot', version: '1.16.2' },
    { name: 'a name alone', reply: 'mystery', terminal: 'mystery', version: null },
  ] as const)('$name: $reply', ({ reply, terminal, version }) => {
    expect(splitNameVersion(reply)).toEqual({ name: terminal, version });
  });
});
