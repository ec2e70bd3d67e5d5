/** Decoding single replies. */
import { describe, expect, it } from 'vitest';
import { parseColor, parseReply, splitNameVersion } from '../../src/probe/replies.js';

describe('parseReply', () => {
  it.each([
    ['\x1bP>|kitty(0.26.5)\x1b\\', { type: 'xtversion', name: 'kitty', version: '0.26.5' }],
    ['\x1bP>|tmux 3.3a\x1b\\', { type: 'xtversion', name: 'tmux', version: '3.3a' }],
    ['\x1bP>|XTerm(379)\x1b\\', { type: 'xtversion', name: 'XTerm', version: '379' }],
    [
      '\x1bP>|WezTerm 20240203-110809-5046fc22\x1b\\',
      { type: 'xtversion', name: 'WezTerm', version: '20240203-110809-5046fc22' },
    ],
    ['\x1bP>|foot\x1b\\', { type: 'xtversion', name: 'foot', version: null }],
    ['\x1b[?62;c', { type: 'da1', level: 62, attributes: [] }],
    ['\x1b[?62;4;22c', { type: 'da1', level: 62, attributes: [4, 22] }],
    [
      '\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c',
      { type: 'da1', level: 64, attributes: [1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28] },
    ],
    ['\x1b[?1;2c', { type: 'da1', level: 1, attributes: [2] }],
    ['\x1b[?4c', { type: 'da1', level: 4, attributes: [] }],
    ['\x1b[>1;4000;26c', { type: 'da2', terminalType: 1, version: 4000, rom: 26 }],
    ['\x1b[>84;0;0c', { type: 'da2', terminalType: 84, version: 0, rom: 0 }],
    ['\x1b_Gi=31;OK\x1b\\', { type: 'kittyGraphics', id: 31, ok: true, message: 'OK' }],
    ['\x1b_Gi=31;ENOTSUPPORTED:no\x1b\\', { type: 'kittyGraphics', id: 31, ok: false, message: 'ENOTSUPPORTED:no' }],
    ['\x1b[?2026;2$y', { type: 'decrqm', mode: 2026, value: 2 }],
    ['\x1b[?2026;0$y', { type: 'decrqm', mode: 2026, value: 0 }],
    ['\x1b[6;19;10t', { type: 'windowOps', code: 6, a: 19, b: 10 }],
    ['\x1b[8;24;80t', { type: 'windowOps', code: 8, a: 24, b: 80 }],
    ['\x1b]11;rgb:0000/0000/0000\x1b\\', { type: 'background', rgb: [0, 0, 0] }],
    ['\x1b]11;rgb:2828/2c2c/3434\x07', { type: 'background', rgb: [40, 44, 52] }],
    ['\x1b[?1;0;256S', { type: 'xtsmgraphics', item: 1, status: 0, values: [256] }],
    ['\x1b[?1;3S', { type: 'xtsmgraphics', item: 1, status: 3, values: [] }],
    ['\x1b[?2;0;800;480S', { type: 'xtsmgraphics', item: 2, status: 0, values: [800, 480] }],
  ] as const)('%j', (reply, expected) => {
    expect(parseReply(reply)).toMatchObject(expected);
  });

  it('keeps the reply as escaped text', () => {
    expect(parseReply(Buffer.from('\x1b[?62;c'))?.text).toBe('\\e[?62;c');
  });

  it.each([
    '\x1b[A',
    '\x1b[1;1R',
    '\x1b[?c',
    '\x1b[>c',
    '\x1b[6;19t',
    '\x1bP>|\x1b\\',
    '\x1b]2;title\x07',
    'plain',
    '\x1b[?62;x4c',
    '\x1bP>|kitty',
    // Answers to queries termsight does not send: the scanner keeps them away from the keys, but
    // nothing decodes them.
    '\x1bP!|00000000\x1b\\',
    '\x1bP1+r544e=787465726d2d6b69747479\x1b\\',
    '\x1bP1$r0m\x1b\\',
    '\x1b[?0u',
    '\x1b]10;rgb:dddd/dddd/dddd\x07',
    '\x1b]4;1;rgb:cd/00/00\x1b\\',
    '\x1b[2026;2$y',
  ])('%j is not a reply termsight reads', (bytes) => {
    expect(parseReply(bytes)).toBeNull();
  });
});

describe('DA1 attributes are parsed exactly', () => {
  it.each([
    ['\x1b[?62;14c', [14]],
    ['\x1b[?62;24c', [24]],
    ['\x1b[?62;42c', [42]],
    ['\x1b[?4;22c', [22]],
    ['\x1b[?62;4c', [4]],
  ] as const)('%j has attributes %j', (reply, attributes) => {
    const parsed = parseReply(reply);
    expect(parsed?.type === 'da1' && parsed.attributes).toEqual(attributes);
  });
});

describe('colours', () => {
  it.each([
    ['rgb:0/0/0', [0, 0, 0]],
    ['rgb:f/8/0', [255, 136, 0]],
    ['rgb:ff/80/00', [255, 128, 0]],
    ['rgb:fff/800/000', [255, 128, 0]],
    ['rgb:ffff/8000/0000', [255, 128, 0]],
    ['rgb:FFFF/FFFF/FFFF', [255, 255, 255]],
    ['rgba:ffff/0000/0000/ffff', [255, 0, 0]],
    ['#ff8000', [255, 128, 0]],
  ] as const)('%s is %j', (spec, rgb) => {
    expect(parseColor(spec)).toEqual(rgb);
  });

  it.each(['rgb:ff/ff', 'rgb:fffff/0/0', 'rgb:gg/00/00', 'cmy:1/1/1', 'rgb:ff/ff/ff/ff'])(
    '%s is not a colour',
    (spec) => {
      expect(parseColor(spec)).toBeNull();
    },
  );
});

describe('names and versions', () => {
  it.each([
    ['kitty(0.32.2)', 'kitty', '0.32.2'],
    ['tmux 3.3a', 'tmux', '3.3a'],
    ['ghostty 1.1.0', 'ghostty', '1.1.0'],
    ['iTerm2 3.5.0', 'iTerm2', '3.5.0'],
    ['foot(1.16.2)', 'foot', '1.16.2'],
    ['mystery', 'mystery', null],
  ] as const)('%s', (reply, name, version) => {
    expect(splitNameVersion(reply)).toEqual({ name, version });
  });
});
