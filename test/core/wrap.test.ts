import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SCREEN_PACKET_BODY, wrapForMultiplexer, wrapScreen, wrapTmux } from '../../src/core/wrap.js';
import { screenForward } from '../render/terminal-decoders.js';

const KITTY = '\x1b_Ga=T,f=24,s=1,v=1,i=7,q=2;AAAA\x1b\\';

describe('wrapTmux', () => {
  it.each([
    { name: 'a CSI query', seq: '\x1b[c', wrapped: '\x1bPtmux;\x1b\x1b[c\x1b\\' },
    { name: 'a kitty APC', seq: KITTY, wrapped: '\x1bPtmux;\x1b\x1b_Ga=T,f=24,s=1,v=1,i=7,q=2;AAAA\x1b\x1b\\\x1b\\' },
    { name: 'an OSC ended by BEL', seq: '\x1b]1337;FileEnd\x07', wrapped: '\x1bPtmux;\x1b\x1b]1337;FileEnd\x07\x1b\\' },
    { name: 'plain text', seq: 'plain', wrapped: '\x1bPtmux;plain\x1b\\' },
  ])('$name', ({ seq, wrapped }) => {
    expect(wrapTmux(seq)).toBe(wrapped);
  });

  it('doubles every ESC, and undoubling gives the sequence back', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('\x1b', '\\', 'P', 'a', ';', '\x07', 'é'), { maxLength: 60 }).map((a) => a.join('')),
        (seq) => {
          const w = wrapTmux(seq);
          expect(w.startsWith('\x1bPtmux;')).toBe(true);
          expect(w.endsWith('\x1b\\')).toBe(true);
          const body = w.slice(7, -2);
          expect(body.replace(/\x1b\x1b/g, '')).not.toContain('\x1b');
          expect(body.replaceAll('\x1b\x1b', '\x1b')).toBe(seq);
        },
      ),
    );
  });
});

describe('wrapScreen', () => {
  it.each([
    {
      name: 'an OSC ended by BEL, one packet',
      seq: '\x1b]1337;FileEnd\x07',
      packets: ['\x1bP\x1b]1337;FileEnd\x07\x1b\\'],
    },
    // The inner ST is split: the ESC ends one packet, the backslash starts the next.
    {
      name: 'an APC ended by ST, its ST split over two packets',
      seq: '\x1b_Gq=2\x1b\\',
      packets: ['\x1bP\x1b_Gq=2\x1b\x1b\\', '\x1bP\\\x1b\\'],
    },
  ])('$name', ({ seq, packets }) => {
    const w = wrapScreen(seq);
    expect(w).toBe(packets.join(''));
    expect(screenForward(w).forwarded).toBe(seq);
  });

  it.each([
    { name: 'a kitty APC 300 times', seq: KITTY.repeat(300) },
    { name: 'one kitty APC with 4096 bytes of payload', seq: `\x1b_Gm=1;${'A'.repeat(4096)}\x1b\\` },
    { name: 'a sixel DCS with 500 colour registers', seq: `\x1bPq${'#0;2;0;0;0'.repeat(500)}\x1b\\` },
  ])('long sequences go in packets under 768 bytes that screen forwards intact: $name', ({ seq }) => {
    const { forwarded, packets } = screenForward(wrapScreen(seq));
    expect(forwarded).toBe(seq);
    expect(packets.length).toBeGreaterThan(1);
    for (const p of packets) {
      expect(p.length).toBeLessThan(768);
      expect(p.startsWith('\x1bP')).toBe(true);
      expect(p.endsWith('\x1b\\')).toBe(true);
    }
  });

  it('any sequence round-trips through screen with every packet under the limit', () => {
    fc.assert(
      fc.property(
        fc
          .array(fc.constantFrom('\x1b', '\\', '\x1b\\', 'A', 'B', ';', '\x07', '\u{10EEEE}'), { maxLength: 3000 })
          .map((a) => a.join('')),
        fc.integer({ min: 2, max: 50 }),
        (seq, body) => {
          const w = wrapScreen(seq, body);
          const { forwarded, packets } = screenForward(w);
          expect(forwarded).toBe(seq);
          for (const p of packets) expect(p.length).toBeLessThanOrEqual(body + 4);
        },
      ),
    );
  });

  it('keeps the default packet body under the limit', () => {
    expect(SCREEN_PACKET_BODY + 4).toBeLessThan(768);
  });
});

describe('wrapForMultiplexer', () => {
  it.each([
    { name: 'no multiplexer: joined', mux: null, seqs: ['a', 'b'], out: 'ab' },
    { name: 'undefined: one string as is', mux: undefined, seqs: 'x', out: 'x' },
    {
      name: 'tmux: each wrapped',
      mux: 'tmux',
      seqs: ['\x1b[a', '\x1b[b'],
      out: '\x1bPtmux;\x1b\x1b[a\x1b\\\x1bPtmux;\x1b\x1b[b\x1b\\',
    },
    {
      name: 'screen: each wrapped',
      mux: 'screen',
      seqs: ['\x1b[a', '\x1b[b'],
      out: '\x1bP\x1b[a\x1b\\\x1bP\x1b[b\x1b\\',
    },
  ] as const)('$name', ({ mux, seqs, out }) => {
    expect(wrapForMultiplexer(seqs, mux)).toBe(out);
  });
});
