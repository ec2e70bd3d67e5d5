/**
 * AC refinement (T.81 G.1.2.3) of one block, case by case, with the results worked out by hand
 * from the standard: which coefficients take a correction bit (those with history, within the
 * band), what a set bit does (2^Al away from zero unless bit Al is already set, for either sign),
 * where a new coefficient of magnitude 2^Al goes after its run of zero-history positions (past the
 * block's last non-zero coefficient the run is counted without correction bits), its sign, and
 * end-of-band runs. Independent of the reference model (jpeg-progressive-model.test.ts compares
 * the decoder with it on random data); this pins the arithmetic the decoder does without
 * branches, so a changed rule fails here on its own.
 */
import { describe, expect, it } from 'vitest';
import { BitReader } from '../../src/decode/jpeg-bits.js';
import { type ComponentState, decodeScan } from '../../src/decode/jpeg-entropy.js';
import { coefficientsRead, ZIGZAG } from '../../src/decode/jpeg-idct.js';
import { buildHuffmanTable } from '../../src/decode/jpeg-segments.js';

/** Four 2-bit codes: 00 end of band (this block), 01 a new coefficient after no zeros, 10 after one, 11 an end-of-band run of 2 or 3 blocks. */
const AC = buildHuffmanTable(
  Uint8Array.from([0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]),
  Uint8Array.from([0x00, 0x01, 0x11, 0x10]),
);

interface Case {
  readonly name: string;
  readonly band: readonly [number, number];
  readonly low: number;
  /** Coefficients before the scan, by zigzag position. */
  readonly history: Readonly<Record<number, number>>;
  /** The scan's bits: codes, then sign and correction bits in the order the standard sends them. */
  readonly bits: string;
  readonly after: Readonly<Record<number, number>>;
}

const CASES: readonly Case[] = [
  {
    name: 'end of band: a set bit moves each coefficient with history away from zero, unless its bit Al is set',
    band: [1, 63],
    low: 0,
    history: { 1: 2, 2: -2, 3: 3, 4: -3 },
    bits: '00' + '1111',
    after: { 1: 3, 2: -3, 3: 3, 4: -3 },
  },
  {
    name: 'end of band: a clear bit changes nothing',
    band: [1, 63],
    low: 0,
    history: { 1: 2, 2: -2, 3: 3 },
    bits: '00' + '010',
    after: { 1: 2, 2: -3, 3: 3 },
  },
  {
    name: 'at Al = 1 a correction adds 2, and a coefficient whose bit 1 is set keeps it',
    band: [1, 63],
    low: 1,
    history: { 1: 4, 2: -4, 5: 6, 6: -6 },
    bits: '00' + '1111',
    after: { 1: 6, 2: -6, 5: 6, 6: -6 },
  },
  {
    name: 'a new coefficient after corrections on the way, negative for a clear sign bit',
    band: [1, 63],
    low: 0,
    history: { 1: 2 },
    bits: '01' + '0' + '1' + '00',
    after: { 1: 3, 2: -1 },
  },
  {
    name: 'corrections on the way to a new coefficient follow the same rule, for either sign',
    band: [1, 63],
    low: 0,
    history: { 1: 3, 2: -3, 3: 2, 4: -2 },
    bits: '01' + '1' + '1111' + '00',
    after: { 1: 3, 2: -3, 3: 3, 4: -3, 5: 1 },
  },
  {
    name: 'a run of one zero-history position, a correction inside the run, a new +2^Al after it',
    band: [1, 63],
    low: 1,
    history: { 2: -4 },
    bits: '10' + '1' + '1' + '00',
    after: { 2: -6, 3: 2 },
  },
  {
    name: 'past the last non-zero coefficient the run is counted without correction bits',
    band: [1, 63],
    low: 0,
    history: { 1: 2 },
    bits: '10' + '1' + '0' + '00',
    after: { 1: 2, 3: 1 },
  },
  {
    name: 'two new coefficients, the second placed after the first',
    band: [1, 63],
    low: 0,
    history: {},
    bits: '01' + '1' + '10' + '0' + '00',
    after: { 1: 1, 3: -1 },
  },
  {
    name: 'the band ends the corrections: a coefficient with history past it takes no bit',
    band: [1, 2],
    low: 0,
    history: { 1: 2, 3: 2 },
    bits: '00' + '1',
    after: { 1: 3, 3: 2 },
  },
  {
    name: 'an end-of-band run with an extra bit covers this block: its corrections follow',
    band: [1, 63],
    low: 0,
    history: { 1: 2, 9: -2 },
    bits: '11' + '0' + '11',
    after: { 1: 3, 9: -3 },
  },
];

/** The bits as bytes, zero-padded, with zero bytes after so the reader never reaches the end. */
function bytesOf(bits: string): Uint8Array {
  const out = new Uint8Array(Math.ceil(bits.length / 8) + 4);
  for (let i = 0; i < bits.length; i++) if (bits[i] === '1') out[i >> 3]! |= 0x80 >> (i & 7);
  return out;
}

function refineOneBlock(c: Case) {
  const coefs = new Int16Array(64);
  let lastNonZero = 0;
  for (const [k, v] of Object.entries(c.history)) {
    coefs[ZIGZAG[Number(k)]!] = v;
    if (Number(k) > lastNonZero) lastNonZero = Number(k);
  }
  const component: ComponentState = {
    h: 1,
    v: 1,
    blocksWide: 1,
    blocksHigh: 1,
    storeWide: 1,
    coefs,
    last: Uint8Array.of(lastNonZero),
    firstRow: 0,
    pred: 0,
  };
  const reader = new BitReader(bytesOf(c.bits), 0);
  decodeScan(reader, {
    header: { components: [{ index: 0, dc: 0, ac: 0 }], start: c.band[0], end: c.band[1], high: c.low + 1, low: c.low },
    parts: [{ component, dc: null, ac: AC, read: coefficientsRead(8) }],
    restartInterval: 0,
    mcusWide: 1,
    mcusHigh: 1,
  });
  const after: Record<number, number> = {};
  for (let k = 0; k < 64; k++) if (coefs[ZIGZAG[k]!] !== 0) after[k] = coefs[ZIGZAG[k]!]!;
  return { after, used: reader.pos * 8 - reader.count, last: component.last[0] };
}

describe('AC refinement of one block, by hand', () => {
  it.each(CASES)('$name', (c) => {
    const got = refineOneBlock(c);
    expect(got.after).toEqual(c.after);
    expect(got.used).toBe(c.bits.length);
    expect(got.last).toBe(Math.max(0, ...Object.keys(c.after).map(Number)));
  });
});
