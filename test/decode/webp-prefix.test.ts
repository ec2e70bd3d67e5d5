/**
 * The lossless decoder's parts on their own: prefix code tables against codes written here from
 * the canonical rule (RFC 9649 section 3.7.2), the transforms' arithmetic on chosen pixels, the
 * distance map, the alpha filters against a plain transcription of the spec.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { unfilterAlpha } from '../../src/decode/webp-alpha.js';
import { LosslessBitReader } from '../../src/decode/webp-bits.js';
import { planeDistance } from '../../src/decode/webp-lossless.js';
import { buildPrefixCode } from '../../src/decode/webp-prefix.js';
import { addGreen, inverseColorIndexing, inverseColorTransform, predict } from '../../src/decode/webp-transforms.js';

/** Canonical codes of `lengths` (by length, then symbol), as [code, length] per symbol. */
function canonical(lengths: readonly number[]): [number, number][] {
  const order = lengths
    .map((l, s) => [l, s] as const)
    .filter(([l]) => l > 0)
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out: [number, number][] = lengths.map(() => [0, 0]);
  let code = 0;
  let prev = order[0]?.[0] ?? 0;
  for (const [l, s] of order) {
    code <<= l - prev;
    prev = l;
    out[s] = [code, l];
    code++;
  }
  return out;
}

/** Bytes holding the codes of `symbols`, each sent most significant bit first into an LSB-first stream. */
function encode(codes: readonly [number, number][], symbols: readonly number[]): Uint8Array {
  const bits: number[] = [];
  for (const s of symbols) {
    const [code, length] = codes[s]!;
    for (let i = length - 1; i >= 0; i--) bits.push((code >>> i) & 1);
  }
  const out = new Uint8Array(Math.ceil(bits.length / 8) + 4);
  bits.forEach((b, i) => {
    out[i >> 3]! |= b << (i & 7);
  });
  return out;
}

/** Code lengths of a Huffman code over random weights (complete, at most 15 long). */
const completeLengths = fc
  .array(fc.integer({ min: 1, max: 1000 }), { minLength: 2, maxLength: 300 })
  .map((weights) => {
    // Package-free: repeated merging of the two lightest, depths as lengths.
    let nodes = weights.map((w, i) => ({ w, leaves: [i] }));
    const depth = weights.map(() => 0);
    while (nodes.length > 1) {
      nodes.sort((a, b) => a.w - b.w);
      const [a, b] = [nodes[0]!, nodes[1]!];
      for (const l of [...a.leaves, ...b.leaves]) depth[l]!++;
      nodes = [{ w: a.w + b.w, leaves: [...a.leaves, ...b.leaves] }, ...nodes.slice(2)];
    }
    return depth;
  })
  .filter((d) => Math.max(...d) <= 15);

describe('prefix codes', () => {
  it('decodes what the canonical code encodes (property)', () => {
    fc.assert(
      fc.property(completeLengths, fc.array(fc.nat(), { minLength: 1, maxLength: 200 }), (lengths, picks) => {
        const code = buildPrefixCode(Uint8Array.from(lengths));
        expect(code).not.toBeNull();
        const symbols = picks.map((p) => p % lengths.length);
        const reader = new LosslessBitReader(encode(canonical(lengths), symbols));
        expect(symbols.map(() => reader.symbol(code!))).toEqual(symbols);
      }),
      { numRuns: 200, seed: 99 },
    );
  });

  const rows: { name: string; lengths: number[]; valid: boolean }[] = [
    { name: 'complete: 1, 2, 2', lengths: [1, 2, 2], valid: true },
    { name: 'over-full: 1, 1, 1', lengths: [1, 1, 1], valid: false },
    { name: 'incomplete: 1, 2', lengths: [1, 2], valid: false },
    { name: 'no symbol', lengths: [0, 0, 0], valid: false },
    { name: 'one symbol (any length)', lengths: [0, 0, 7], valid: true },
    { name: 'a length past 15', lengths: [1, 16], valid: false },
  ];
  it.each(rows)('$name: valid $valid', ({ lengths, valid }) => {
    expect(buildPrefixCode(Uint8Array.from(lengths)) !== null).toBe(valid);
  });

  it('a one-symbol code is read in zero bits', () => {
    const code = buildPrefixCode(Uint8Array.of(0, 0, 5))!;
    const reader = new LosslessBitReader(Uint8Array.of(0b101));
    expect([reader.symbol(code), reader.symbol(code), reader.read(3)]).toEqual([2, 2, 0b101]);
  });

  it('reading past the end is remembered', () => {
    const reader = new LosslessBitReader(Uint8Array.of(0xff, 0xff));
    reader.read(16);
    expect(reader.exhausted).toBe(false);
    reader.read(1);
    expect(reader.exhausted).toBe(true);
  });
});

describe('transforms', () => {
  const L = 0x10203040;
  const T = 0x50607080;
  const TR = 0x90a0b0c0;
  const TL = 0x0a141e28;
  const avg = (a: number, b: number) => {
    let out = 0;
    for (let s = 0; s < 32; s += 8) out |= ((((a >>> s) & 255) + ((b >>> s) & 255)) >> 1) << s;
    return out >>> 0;
  };
  const perChannel = (f: (l: number, t: number, tl: number) => number) => {
    let out = 0;
    for (let s = 0; s < 32; s += 8)
      out |= Math.min(255, Math.max(0, f((L >>> s) & 255, (T >>> s) & 255, (TL >>> s) & 255))) << s;
    return out >>> 0;
  };
  // RFC 9649 section 4.1's table, transcribed per mode.
  const modes: [number, number][] = [
    [0, 0xff000000],
    [1, L],
    [2, T],
    [3, TR],
    [4, TL],
    [5, avg(avg(L, TR), T)],
    [6, avg(L, TL)],
    [7, avg(L, T)],
    [8, avg(TL, T)],
    [9, avg(T, TR)],
    [10, avg(avg(L, TL), avg(T, TR))],
    [
      11,
      (() => {
        // Manhattan distances of the estimate L + T - TL to left and to top.
        let pL = 0;
        let pT = 0;
        for (let s = 0; s < 32; s += 8) {
          const p = ((L >>> s) & 255) + ((T >>> s) & 255) - ((TL >>> s) & 255);
          pL += Math.abs(p - ((L >>> s) & 255));
          pT += Math.abs(p - ((T >>> s) & 255));
        }
        return pL < pT ? L : T;
      })(),
    ],
    [12, perChannel((l, t, tl) => l + t - tl)],
    [
      13,
      (() => {
        const a = avg(L, T);
        let out = 0;
        for (let s = 0; s < 32; s += 8) {
          const x = (a >>> s) & 255;
          const y = (TL >>> s) & 255;
          out |= Math.min(255, Math.max(0, x + Math.trunc((x - y) / 2))) << s;
        }
        return out >>> 0;
      })(),
    ],
    [14, 0xff000000],
  ];
  it.each(modes.map(([mode, expected]) => ({ name: `mode ${mode}`, mode, expected })))(
    'predictor $name',
    ({ mode, expected }) => {
      expect(predict(mode, L, T, TR, TL)).toBe(expected);
    },
  );

  it('colour transform: red gets green x green_to_red / 32, blue green x green_to_blue / 32 + new red x red_to_blue / 32 (signed bytes)', () => {
    // green 0x90 (-112), green_to_red 0x20 (32): red + (-112 * 32 >> 5) = red - 112.
    const px = Uint32Array.of(0xff809030);
    inverseColorTransform(px, 1, 1, 2, Uint32Array.of((0x05 << 16) | (0xf0 << 8) | 0x20));
    const red = (0x80 - 112) & 255; // 16
    const blue = (0x30 + ((-16 * -112) >> 5) + ((5 * red) >> 5)) & 255;
    expect(px[0]).toBe((0xff000000 | (red << 16) | (0x90 << 8) | blue) >>> 0);
  });

  it('subtract green is undone modulo 256', () => {
    const px = Uint32Array.of(0x12f0c0e0);
    addGreen(px);
    expect(px[0]).toBe(0x12b0c0a0);
  });

  it('colour indexing unbundles 8, 4, 2 or 1 indices a byte, first pixel in the low bits; indices past the palette are 0', () => {
    const palette = new Uint32Array(256);
    palette.set([0xff000001, 0xff000002, 0xff000003]);
    // 2 colours: 1 bit each, 8 a byte: green 0b00000101 -> 1, 0, 1, 0, ...
    expect([...inverseColorIndexing(Uint32Array.of(0b101 << 8), 1, 4, 1, 3, palette)]).toEqual([
      0xff000002, 0xff000001, 0xff000002, 0xff000001,
    ]);
    // 4 colours: 2 bits each: 0b11_10 -> 2, 3 (index 3 is past the three entries: 0)
    expect([...inverseColorIndexing(Uint32Array.of(0b1110 << 8), 1, 2, 1, 2, palette)]).toEqual([0xff000003, 0]);
  });

  it('the distance map: 1 is the pixel above, 2 the one to the left, 3 above-left; past 120 linear; never below 1', () => {
    expect([planeDistance(1, 100), planeDistance(2, 100), planeDistance(3, 100), planeDistance(4, 100)]).toEqual([
      100, 1, 101, 99,
    ]);
    expect(planeDistance(121, 100)).toBe(1);
    expect(planeDistance(4, 1)).toBe(1); // (-1, 1) in a one-pixel-wide image
  });
});

describe('alpha filters', () => {
  /** The spec's filters, undone pixel by pixel from the predictor definitions (RFC 9649 section 2.7.1.1). */
  function plain(filtered: Uint8Array, w: number, h: number, method: number): Uint8Array {
    const out = new Uint8Array(w * h);
    const at = (x: number, y: number) => out[y * w + x]!;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        let p = 0;
        if (method !== 0) {
          if (x === 0 && y === 0) p = 0;
          else if (y === 0) p = at(x - 1, 0);
          else if (x === 0) p = at(0, y - 1);
          else if (method === 1) p = at(x - 1, y);
          else if (method === 2) p = at(x, y - 1);
          else p = Math.min(255, Math.max(0, at(x - 1, y) + at(x, y - 1) - at(x - 1, y - 1)));
        }
        out[y * w + x] = (filtered[y * w + x]! + p) & 255;
      }
    }
    return out;
  }
  it('horizontal, vertical, gradient (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 0, max: 3 }),
        fc.nat(),
        (w, h, method, seed) => {
          const data = Uint8Array.from({ length: w * h }, (_, i) => (Math.imul(seed + i, 2654435761) >>> 24) & 255);
          const ours = data.slice();
          unfilterAlpha(ours, w, h, method);
          expect([...ours]).toEqual([...plain(data, w, h, method)]);
        },
      ),
      { numRuns: 300, seed: 7 },
    );
  });
});
