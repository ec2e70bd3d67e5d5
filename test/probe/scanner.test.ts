/**
 * The reply scanner: which sequences are replies, which are the user's input, split anywhere.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import {
  createScanner,
  flushScanner,
  holdsReply,
  releaseInput,
  type ScannerState,
  type ScanToken,
  scanReplies,
} from '../../src/probe/scanner.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** Scans chunks then flushes; adjacent input tokens merged (their boundaries follow the chunking). */
function scanAll(chunks: readonly Uint8Array[], state: ScannerState = createScanner()): ScanToken[] {
  const tokens: ScanToken[] = [];
  for (const chunk of chunks) {
    const r = scanReplies(state, chunk);
    state = r.state;
    tokens.push(...r.tokens);
  }
  tokens.push(...flushScanner(state).tokens);
  return merge(tokens);
}

function merge(tokens: readonly ScanToken[]): ScanToken[] {
  const out: ScanToken[] = [];
  for (const t of tokens) {
    const last = out[out.length - 1];
    if (t.type === 'input' && last?.type === 'input')
      out[out.length - 1] = { type: 'input', bytes: Buffer.concat([last.bytes, t.bytes]) };
    else out.push(t);
  }
  return out;
}

/** A token as text: `reply csi \e[?62;c` or `input abc`. */
function show(t: ScanToken): string {
  return t.type === 'reply' ? `reply ${t.kind} ${escapeBytes(t.bytes)}` : `input ${escapeBytes(t.bytes)}`;
}

/** A named stream and the tokens it scans to, shown as text. */
const CASES: ReadonlyArray<{ name: string; stream: string; tokens: readonly string[] }> = [
  { name: 'DA1', stream: '\x1b[?62;4;22c', tokens: ['reply csi \\e[?62;4;22c'] },
  { name: 'DA1 with an empty last parameter (kitty)', stream: '\x1b[?62;c', tokens: ['reply csi \\e[?62;c'] },
  { name: 'DA2', stream: '\x1b[>1;4000;26c', tokens: ['reply csi \\e[>1;4000;26c'] },
  { name: 'XTWINOPS', stream: '\x1b[6;19;10t', tokens: ['reply csi \\e[6;19;10t'] },
  { name: 'DECRQM', stream: '\x1b[?2026;2$y', tokens: ['reply csi \\e[?2026;2$y'] },
  { name: 'XTSMGRAPHICS', stream: '\x1b[?1;0;256S', tokens: ['reply csi \\e[?1;0;256S'] },
  { name: 'kitty keyboard flags', stream: '\x1b[?0u', tokens: ['reply csi \\e[?0u'] },
  { name: 'XTVERSION', stream: '\x1bP>|kitty(0.26.5)\x1b\\', tokens: ['reply dcs \\eP>|kitty(0.26.5)\\e\\'] },
  { name: 'XTGETTCAP', stream: '\x1bP1+r544e=787465726d\x1b\\', tokens: ['reply dcs \\eP1+r544e=787465726d\\e\\'] },
  { name: 'XTGETTCAP, unknown', stream: '\x1bP0+r524742\x1b\\', tokens: ['reply dcs \\eP0+r524742\\e\\'] },
  { name: 'DECRQSS', stream: '\x1bP1$r0m\x1b\\', tokens: ['reply dcs \\eP1$r0m\\e\\'] },
  { name: 'DA3', stream: '\x1bP!|00000000\x1b\\', tokens: ['reply dcs \\eP!|00000000\\e\\'] },
  { name: 'kitty graphics', stream: '\x1b_Gi=31;OK\x1b\\', tokens: ['reply apc \\e_Gi=31;OK\\e\\'] },
  {
    name: 'OSC 11, ST',
    stream: '\x1b]11;rgb:0000/0000/0000\x1b\\',
    tokens: ['reply osc \\e]11;rgb:0000/0000/0000\\e\\'],
  },
  { name: 'OSC 10, BEL', stream: '\x1b]10;rgb:ff/ff/ff\x07', tokens: ['reply osc \\e]10;rgb:ff/ff/ff\\a'] },
  { name: 'OSC 4', stream: '\x1b]4;1;rgb:cd/00/00\x1b\\', tokens: ['reply osc \\e]4;1;rgb:cd/00/00\\e\\'] },
  { name: 'arrow keys are input', stream: '\x1b[A\x1bOB', tokens: ['input \\e[A\\eOB'] },
  { name: 'F5 and Ctrl+Up are input', stream: '\x1b[15~\x1b[1;5A', tokens: ['input \\e[15~\\e[1;5A'] },
  {
    name: 'a cursor position report is input (termsight does not ask for it)',
    stream: '\x1b[1;1R',
    tokens: ['input \\e[1;1R'],
  },
  { name: 'F3 with Shift looks like CPR: input', stream: '\x1b[1;2R', tokens: ['input \\e[1;2R'] },
  { name: 'SGR mouse is input', stream: '\x1b[<0;10;20M\x1b[<0;10;20m', tokens: ['input \\e[<0;10;20M\\e[<0;10;20m'] },
  { name: 'focus events are input', stream: '\x1b[I\x1b[O', tokens: ['input \\e[I\\e[O'] },
  { name: 'kitty keyboard key events (no ?) are input', stream: '\x1b[97;5u', tokens: ['input \\e[97;5u'] },
  { name: 'Alt+key and Escape Escape are input', stream: '\x1bx\x1b\x1b', tokens: ['input \\ex\\e\\e'] },
  {
    name: 'Alt+P then text is input, released as soon as no reply can start so',
    stream: '\x1bPq',
    tokens: ['input \\ePq'],
  },
  { name: 'OSC 2 (a title) is not a reply', stream: '\x1b]2;hi\x07', tokens: ['input \\e]2;hi\\a'] },
  { name: 'APC not G is not a reply', stream: '\x1b_X\x1b\\', tokens: ['input \\e_X\\e\\'] },
  { name: 'UTF-8 text is input, 8-bit C1 bytes included', stream: 'h\xc3\xa9\xe2\x9b\x9b', tokens: ['input hé⛛'] },
  {
    name: 'bracketed paste: a reply inside is user text',
    stream: '\x1b[200~paste \x1b[?62;c here\x1b[201~\x1b[?62;c',
    tokens: ['input \\e[200~paste \\e[?62;c here\\e[201~', 'reply csi \\e[?62;c'],
  },
  {
    name: 'keys interleaved with replies keep their order',
    stream: 'a\x1bP>|XTerm(379)\x1b\\b\x1b[A\x1b[?64;1;2c\r',
    tokens: ['input a', 'reply dcs \\eP>|XTerm(379)\\e\\', 'input b\\e[A', 'reply csi \\e[?64;1;2c', 'input \\x0d'],
  },
  { name: 'a control byte cuts a CSI: all input', stream: '\x1b[1\x03x', tokens: ['input \\e[1\\x03x'] },
  {
    name: 'ESC inside a string cuts it: input, the ESC starts anew',
    stream: '\x1bP>|ki\x1b[?62;c',
    tokens: ['input \\eP>|ki', 'reply csi \\e[?62;c'],
  },
  { name: 'a lone ESC at the end is flushed as input', stream: 'ab\x1b', tokens: ['input ab\\e'] },
];

describe('scanner: what is a reply', () => {
  it.each(CASES)('$name', ({ stream, tokens }) => {
    expect(scanAll([bytes(stream)]).map(show)).toEqual(tokens);
  });

  it.each(CASES)('$name, byte by byte', ({ stream, tokens }) => {
    expect(scanAll([...bytes(stream)].map((b) => Uint8Array.of(b))).map(show)).toEqual(tokens);
  });
});

describe('scanner: bounded', () => {
  it.each([
    { name: 'DCS', long: `\x1bP>|${'x'.repeat(40)}\x1b\\` },
    { name: 'APC', long: `\x1b_G${'x'.repeat(40)}\x1b\\` },
    { name: 'OSC, BEL', long: `\x1b]11;${'x'.repeat(40)}\x07` },
    { name: 'CSI', long: `\x1b[?${'1;'.repeat(20)}c` },
  ])('a $name reply over the cap is dropped, and what follows is read normally', ({ long }) => {
    const tokens = scanAll([bytes(`a${long}b\x1b[?62;c`)], createScanner({ maxReplyBytes: 16 }));
    expect(tokens.map(show)).toEqual(['input ab', 'reply csi \\e[?62;c']);
  });

  it('holds at most the cap while dropping, however long the reply', () => {
    let state = createScanner({ maxReplyBytes: 32 });
    state = scanReplies(state, bytes('\x1bP>|')).state;
    for (let i = 0; i < 100; i++) {
      state = scanReplies(state, bytes('y'.repeat(100))).state;
      expect(state.held.length).toBeLessThanOrEqual(32);
    }
    expect(scanReplies(state, bytes('\x1b\\z')).tokens.map(show)).toEqual(['input z']);
  });

  it('a reply exactly at the cap is kept', () => {
    const reply = '\x1bP>|kitty(0.26.5)\x1b\\';
    const tokens = scanAll([bytes(reply)], createScanner({ maxReplyBytes: reply.length - 1 }));
    expect(tokens.map(show)).toEqual(['reply dcs \\eP>|kitty(0.26.5)\\e\\']);
  });
});

describe('scanner: held partials', () => {
  it.each([
    { name: 'a lone ESC', partial: '\x1b', reply: false, released: ['input \\e'] },
    { name: 'CSI introducer only', partial: '\x1b[', reply: false, released: ['input \\e['] },
    {
      name: 'a CSI with parameters that no reply starts with',
      partial: '\x1b[1;5',
      reply: false,
      released: ['input \\e[1;5'],
    },
    { name: 'the start of a DA1 reply', partial: '\x1b[?62', reply: true, released: [] },
    { name: 'the start of an XTVERSION reply', partial: '\x1bP>|kit', reply: true, released: [] },
    { name: 'DCS introducer only', partial: '\x1bP', reply: false, released: ['input \\eP'] },
    { name: 'inside a bracketed paste', partial: '\x1b[200~abc', reply: false, released: [] },
  ] as const)(
    '$name: holdsReply $reply; released at the end of a probe as $released',
    ({ partial, reply, released }) => {
      const state = scanReplies(createScanner(), bytes(partial)).state;
      expect(holdsReply(state)).toBe(reply);
      expect(releaseInput(state).tokens.map(show)).toEqual(released);
    },
  );

  it('a lone ESC at a chunk end is held until the next chunk decides', () => {
    const first = scanReplies(createScanner(), bytes('a\x1b'));
    expect(first.tokens.map(show)).toEqual(['input a']);
    expect(scanReplies(first.state, bytes('[?62;c')).tokens.map(show)).toEqual(['reply csi \\e[?62;c']);
  });

  it('the state value is never mutated', () => {
    const state = scanReplies(createScanner(), bytes('\x1bP>|ki')).state;
    const before = JSON.stringify({ ...state, held: [...state.held] });
    scanReplies(state, bytes('tty\x1b\\'));
    expect(JSON.stringify({ ...state, held: [...state.held] })).toBe(before);
  });
});

const REPLIES = [
  '\x1b[?62;c',
  '\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c',
  '\x1b[>1;4000;26c',
  '\x1b[6;19;10t',
  '\x1b[?2026;2$y',
  '\x1b[?1;0;256S',
  '\x1bP>|kitty(0.26.5)\x1b\\',
  '\x1bP1+r544e=787465726d2d6b69747479\x1b\\',
  '\x1b_Gi=31;OK\x1b\\',
  '\x1b]11;rgb:0000/0000/0000\x1b\\',
  '\x1b]10;rgb:dd/dd/dd\x07',
];

const KEYS = [
  'a',
  'Z',
  ' ',
  '\r',
  '\x7f',
  '\x03',
  '\xc3\xa9',
  '\x1b[A',
  '\x1bOA',
  '\x1b[15~',
  '\x1b[1;5C',
  '\x1b[<0;3;4M',
  '\x1b[I',
  '\x1bx',
  '\x1b[97;5u',
  '\x1b[1;2R',
];

/** A stream cut at the given points. */
function split(stream: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [
    0,
    ...[...new Set(cuts)].filter((c) => c > 0 && c < stream.length).sort((a, b) => a - b),
    stream.length,
  ];
  return points.slice(1).map((end, i) => stream.subarray(points[i], end));
}

describe('scanner: properties', () => {
  it('any split of a stream gives the same tokens', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.constantFrom(...REPLIES), fc.constantFrom(...KEYS), fc.string({ maxLength: 4 })), {
          maxLength: 20,
        }),
        fc.array(fc.nat(400)),
        (pieces, cuts) => {
          const stream = bytes(pieces.join(''));
          expect(scanAll(split(stream, cuts)).map(show)).toEqual(scanAll([stream]).map(show));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keystrokes interleaved with replies come out exactly, byte for byte, and every reply is found', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...REPLIES).map((r) => ({ reply: true, t: r })),
            fc.constantFrom(...KEYS).map((k) => ({ reply: false, t: k })),
          ),
          {
            maxLength: 30,
          },
        ),
        fc.array(fc.nat(600)),
        (pieces, cuts) => {
          const tokens = scanAll(split(bytes(pieces.map((p) => p.t).join('')), cuts));
          const keys = pieces
            .filter((p) => !p.reply)
            .map((p) => p.t)
            .join('');
          expect(
            tokens
              .filter((t) => t.type === 'input')
              .map((t) => text(t.bytes))
              .join(''),
          ).toBe(keys);
          expect(tokens.filter((t) => t.type === 'reply').map((t) => text(t.bytes))).toEqual(
            pieces.filter((p) => p.reply).map((p) => p.t),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('random bytes never throw, and input plus replies is the whole stream', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), fc.array(fc.nat(300)), (stream, cuts) => {
        const tokens = scanAll(split(stream, cuts));
        expect(Buffer.concat(tokens.map((t) => t.bytes)).equals(Buffer.from(stream))).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it('random bytes rich in escape sequences: the same, also with a small cap', () => {
    const alphabet = fc.constantFrom(
      0x1b,
      0x5b,
      0x50,
      0x5f,
      0x5d,
      0x5c,
      0x07,
      0x3f,
      0x3e,
      0x3b,
      0x63,
      0x74,
      0x47,
      0x31,
      0x7c,
      0x32,
      0x30,
      0x7e,
      0x61,
    );
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 300 }), fc.array(fc.nat(300)), (codes, cuts) => {
        const stream = Uint8Array.from(codes);
        const tokens = scanAll(split(stream, cuts));
        expect(Buffer.concat(tokens.map((t) => t.bytes)).equals(Buffer.from(stream))).toBe(true);
        expect(tokens.map(show)).toEqual(scanAll([stream]).map(show));
      }),
      { numRuns: 500 },
    );
  });

  it('with a cap, the stream minus the dropped overlong replies comes out', () => {
    const long = fc.integer({ min: 30, max: 80 }).map((n) => `\x1bP>|${'v'.repeat(n)}\x1b\\`);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.constantFrom(...REPLIES).map((t) => ({ keep: true, t })),
            fc.constantFrom(...KEYS).map((t) => ({ keep: true, t })),
            long.map((t) => ({ keep: false, t })),
          ),
          {
            maxLength: 20,
          },
        ),
        fc.array(fc.nat(800)),
        (pieces, cuts) => {
          const tokens = scanAll(
            split(bytes(pieces.map((p) => p.t).join('')), cuts),
            createScanner({ maxReplyBytes: 24 }),
          );
          const kept = pieces.filter((p) => p.keep && !(REPLIES.includes(p.t) && p.t.length > 24 + 2));
          const dropped = pieces.filter((p) => !kept.includes(p));
          expect(tokens.map((t) => text(t.bytes)).join('')).toBe(kept.map((p) => p.t).join(''));
          expect(dropped.length + kept.length).toBe(pieces.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
