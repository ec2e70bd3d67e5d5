/**
 * termsight's VP8 (WebP lossy) decoder against libwebp: every committed fixture must decode to
 * the bytes dwebp 1.2.4 gives (recorded as SHA-256 in reference.json, and compared live with the
 * installed dwebp), the fixtures must hold the features they are named for, and a broken frame
 * must fail as libwebp fails, with the right kind.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/decode/error.js';
import { decodeVp8, readVp8Size } from '../../src/decode/webp-vp8.js';
import { parseFrameHeader } from '../../src/decode/webp-vp8-header.js';
import { dwebpRgba, hasDwebp, VP8_FIXTURES, vp8File, vp8FixtureNames, vp8Payload } from './vp8-helpers.js';

const LIMITS = { maxPixels: 50_000_000, maxSide: 30_000 };
const reference: Record<string, string> = JSON.parse(readFileSync(join(VP8_FIXTURES, 'reference.json'), 'utf8'));
const names = vp8FixtureNames();
const sha = (data: Uint8Array): string => createHash('sha256').update(data).digest('hex');

function decodeFixture(name: string) {
  return decodeVp8(vp8Payload(vp8File(name)), LIMITS);
}

/** What `fn` throws, as [failure, message]. */
function failureOf(fn: () => unknown): [string, string] | null {
  try {
    fn();
    return null;
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    return [error.failure, error.message];
  }
}

describe('decodeVp8: the fixtures decode to dwebp 1.2.4 bytes (recorded)', () => {
  it('every fixture has a recorded hash, and every hash a fixture', () => {
    expect(Object.keys(reference).sort()).toEqual(names);
  });
  it.each(names.map((name) => ({ name })))('$name', ({ name }) => {
    const image = decodeFixture(name);
    expect(image.data.length).toBe(image.width * image.height * 4);
    expect(sha(image.data)).toBe(reference[name]);
  });
});

describe.runIf(hasDwebp || process.env.CI === 'true')('decodeVp8: against the installed dwebp', () => {
  it('dwebp is installed (CI installs it: .ci/e2e-deps.sh)', () => {
    expect(hasDwebp).toBe(true);
  });
  it.each(names.map((name) => ({ name })))('$name', ({ name }) => {
    const ours = decodeFixture(name);
    const theirs = dwebpRgba(join(VP8_FIXTURES, name));
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expect(Buffer.from(ours.data).equals(Buffer.from(theirs.data))).toBe(true);
  });
});

describe('the fixtures hold what they are named for', () => {
  // filter: 'none' (level 0), 'simple' or 'normal'; skipFlag: the "no coefficients" flag is coded.
  const rows = [
    {
      name: 'chelsea-q75.webp',
      width: 451,
      height: 300,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'coffee-q95.webp',
      width: 256,
      height: 192,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'chelsea-q100-m0.webp',
      width: 200,
      height: 150,
      filter: 'none',
      sharpness: 0,
      partitions: 1,
      segments: false,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'astronaut-f0.webp',
      width: 512,
      height: 512,
      filter: 'none',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'camera-simple-sharpness3.webp',
      width: 512,
      height: 512,
      filter: 'simple',
      sharpness: 3,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'chelsea-segments1-sns0.webp',
      width: 451,
      height: 300,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: false,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'coffee-segments2-f100.webp',
      width: 600,
      height: 400,
      filter: 'normal',
      sharpness: 7,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'astronaut-q5.webp',
      width: 512,
      height: 512,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'chelsea-1x1.webp',
      width: 1,
      height: 1,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: false,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'chelsea-17x9.webp',
      width: 17,
      height: 9,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'chelsea-255x3.webp',
      width: 255,
      height: 3,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'coffee-33x47.webp',
      width: 33,
      height: 47,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: true,
      skipFlag: false,
      deltas: false,
    },
    {
      name: 'vpx-coffee-partitions8.webp',
      width: 600,
      height: 400,
      filter: 'normal',
      sharpness: 0,
      partitions: 8,
      segments: true,
      skipFlag: true,
      deltas: true,
    },
    {
      name: 'vpx-astronaut-partitions4-profile1.webp',
      width: 512,
      height: 512,
      filter: 'simple',
      sharpness: 0,
      partitions: 4,
      segments: true,
      skipFlag: true,
      deltas: true,
    },
    {
      name: 'vpx-camera-partitions2-low.webp',
      width: 512,
      height: 512,
      filter: 'normal',
      sharpness: 0,
      partitions: 2,
      segments: true,
      skipFlag: true,
      deltas: true,
    },
    {
      name: 'flat-grey-2048.webp',
      width: 2048,
      height: 2048,
      filter: 'normal',
      sharpness: 0,
      partitions: 1,
      segments: false,
      skipFlag: false,
      deltas: false,
    },
  ];
  it('every fixture is described', () => {
    expect(rows.map((r) => r.name).sort()).toEqual(names);
  });
  it.each(rows)('$name', ({ name, width, height, filter, sharpness, partitions, segments, skipFlag, deltas }) => {
    const payload = vp8Payload(vp8File(name));
    const h = parseFrameHeader(payload);
    expect(readVp8Size(payload)).toEqual({ width, height });
    expect([h.width, h.height]).toEqual([width, height]);
    expect(h.filter.level === 0 ? 'none' : h.filter.simple ? 'simple' : 'normal').toBe(filter);
    expect(h.filter.sharpness).toBe(sharpness);
    expect(h.tokens.length).toBe(partitions);
    expect(h.segment.enabled).toBe(segments);
    expect(h.skipProb >= 0).toBe(skipFlag);
    expect(h.filter.useDeltas).toBe(deltas);
  });
  it('profile 1 is in the frame tag of the vpxenc file', () => {
    expect((vp8Payload(vp8File('vpx-astronaut-partitions4-profile1.webp'))[0]! >> 1) & 7).toBe(1);
  });
});

/** A copy of `payload` with its bytes changed. */
function edited(payload: Uint8Array, edit: (b: Uint8Array) => void): Uint8Array {
  const b = payload.slice();
  edit(b);
  return b;
}

/** A VP8 frame tag + picture header: key frame, profile 0, shown, with this first partition size and picture size. */
function frameHeader(firstPartitionSize: number, width: number, height: number): Uint8Array {
  const tag = (firstPartitionSize << 5) | (1 << 4);
  return Uint8Array.of(
    tag & 255,
    (tag >> 8) & 255,
    (tag >> 16) & 255,
    0x9d,
    0x01,
    0x2a,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
  );
}

describe('decodeVp8: broken frames', () => {
  const small = vp8Payload(vp8File('chelsea-17x9.webp'));
  const cases: { name: string; data: Uint8Array; failure: string; message: RegExp }[] = [
    { name: 'nine bytes', data: small.subarray(0, 9), failure: 'truncated', message: /ends inside its frame header/ },
    {
      name: 'an inter frame',
      data: edited(small, (b) => (b[0]! |= 1)),
      failure: 'corrupt',
      message: /not a key frame/,
    },
    {
      name: 'profile 5',
      data: edited(small, (b) => (b[0] = (b[0]! & ~0x0e) | (5 << 1))),
      failure: 'corrupt',
      message: /profile 5/,
    },
    {
      name: 'an invisible frame',
      data: edited(small, (b) => (b[0]! &= ~0x10)),
      failure: 'corrupt',
      message: /invisible/,
    },
    { name: 'no start code', data: edited(small, (b) => (b[4] = 0x02)), failure: 'corrupt', message: /start code/ },
    {
      name: 'a zero width',
      data: edited(small, (b) => {
        b[6] = 0;
        b[7] = 0xc0; // scale bits only
      }),
      failure: 'corrupt',
      message: /size of 0x9/,
    },
    {
      name: 'a first partition past the data',
      data: Uint8Array.of(...frameHeader(5000, 17, 9), ...small.subarray(10)),
      failure: 'truncated',
      message: /ends inside its first partition/,
    },
    {
      name: 'the data ending at the first partition (no token partition)',
      data: small.subarray(0, 10 + ((small[0]! | (small[1]! << 8) | (small[2]! << 16)) >>> 5)),
      failure: 'truncated',
      message: /ends before its last token partition/,
    },
  ];
  it.each(cases)('$name: $failure', ({ data, failure, message }) => {
    const got = failureOf(() => decodeVp8(data, LIMITS));
    expect(got?.[0]).toBe(failure);
    expect(got?.[1]).toMatch(message);
    expect(got?.[1]).toMatch(/^(corrupt|truncated) WebP: /);
  });

  it('the header alone gives the size; readVp8Size refuses the same broken headers', () => {
    expect(readVp8Size(small.subarray(0, 10))).toEqual({ width: 17, height: 9 });
    for (const c of cases.slice(0, 6)) expect(failureOf(() => readVp8Size(c.data))?.[0]).toBe(c.failure);
  });

  it('past the limits: too-large, from the header alone', () => {
    const big = Uint8Array.of(...frameHeader(3, 16383, 16383), 0, 0, 0);
    expect(failureOf(() => decodeVp8(big, LIMITS))).toEqual([
      'too-large',
      'WebP image too large to decode safely: 16383x16383 (268.4 megapixels); the limit is 50 megapixels and 30000 pixels a side',
    ]);
    expect(failureOf(() => decodeFixture('chelsea-q75.webp'))).toBeNull();
    expect(
      failureOf(() => decodeVp8(vp8Payload(vp8File('chelsea-q75.webp')), { maxPixels: 1e9, maxSide: 450 }))?.[0],
    ).toBe('too-large');
    expect(
      failureOf(() =>
        decodeVp8(vp8Payload(vp8File('chelsea-q75.webp')), { maxPixels: 451 * 300 - 1, maxSide: 1000 }),
      )?.[0],
    ).toBe('too-large');
  });

  it('a first partition too small for the macroblocks it declares: corrupt before any plane is allocated', () => {
    // The 1x1 file's frame with its size changed to 16000x16000 (1M macroblocks): its 21-byte
    // first partition could hold the modes of about 100.
    const one = vp8Payload(vp8File('chelsea-1x1.webp'));
    const forged = edited(one, (b) => {
      b.set(frameHeader(0, 16000, 16000).subarray(6), 6);
    });
    const got = failureOf(() => decodeVp8(forged, { maxPixels: 1e9, maxSide: 16383 }));
    expect(got?.[0]).toBe('corrupt');
    expect(got?.[1]).toMatch(
      /first partition of \d+ bytes cannot hold the modes of the 1000000 macroblocks of a 16000x16000 frame/,
    );
  });

  it('the bound on the first partition is below what a real flat picture takes', () => {
    // A flat 2048x2048 grey, cwebp -m 6 -segments 1: the cheapest macroblocks an encoder writes.
    const payload = vp8Payload(vp8File('flat-grey-2048.webp'));
    const h = parseFrameHeader(payload);
    const bitsPerMacroblock = (h.firstPartitionSize * 8) / (h.mbWide * h.mbHigh);
    expect(bitsPerMacroblock).toBeGreaterThan(1.5 * 2);
    expect(decodeVp8(payload, LIMITS).width).toBe(2048);
  });

  it('a partition table cut short: truncated', () => {
    const eight = vp8Payload(vp8File('vpx-coffee-partitions8.webp'));
    const first = (eight[0]! | (eight[1]! << 8) | (eight[2]! << 16)) >>> 5;
    const got = failureOf(() => decodeVp8(eight.subarray(0, 10 + first + 10), LIMITS));
    expect(got?.[0]).toBe('truncated');
    expect(got?.[1]).toMatch(/partition table/);
  });
});

/** A RIFF WebP file around a 'VP8 ' payload (with the pad byte an odd size needs). */
function riff(payload: Uint8Array): Uint8Array {
  const pad = payload.length & 1;
  const out = new Uint8Array(20 + payload.length + pad);
  const view = new DataView(out.buffer);
  out.set(new TextEncoder().encode('RIFF'), 0);
  view.setUint32(4, 12 + payload.length + pad, true);
  out.set(new TextEncoder().encode('WEBPVP8 '), 8);
  view.setUint32(16, payload.length, true);
  out.set(payload, 20);
  return out;
}

/** Where the cut tests cut a payload: 24 even steps, and 1, 2, 3 and 8 bytes from its end. */
function cutsOf(length: number): number[] {
  const cuts = new Set<number>();
  for (let i = 1; i <= 24; i++) cuts.add(Math.floor((length * i) / 25));
  for (const k of [1, 2, 3, 8]) cuts.add(length - k);
  return [...cuts].sort((a, b) => a - b);
}

/**
 * The cuts dwebp 1.2.4 decodes (every other cut it refuses), recorded from the live comparison
 * below: a last partition may end up to two bytes early, and the pad byte counts.
 */
const DWEBP_DECODES_CUT: Record<string, number[]> = {
  'chelsea-17x9.webp': [85, 86, 87],
  'coffee-33x47.webp': [199, 200, 201],
  'vpx-camera-partitions2-low.webp': [6941],
  'vpx-coffee-partitions8.webp': [34445],
};

describe('decodeVp8: cut short, as dwebp 1.2.4 saw it (recorded)', () => {
  it.each(Object.keys(DWEBP_DECODES_CUT).map((name) => ({ name })))('$name', ({ name }) => {
    const payload = vp8Payload(vp8File(name));
    const decoded = cutsOf(payload.length).filter(
      (cut) => failureOf(() => decodeVp8(riff(payload.subarray(0, cut)).subarray(20), LIMITS)) === null,
    );
    expect(decoded).toEqual(DWEBP_DECODES_CUT[name]);
  });
});

describe.runIf(hasDwebp || process.env.CI === 'true')('decodeVp8: cut short, as dwebp sees it', () => {
  // Each fixture cut at many places, put back in a RIFF WebP whose chunk says the cut length:
  // termsight fails exactly when dwebp fails, and decodes to dwebp's pixels when both succeed.
  // libwebp gives its VP8 decoder the file from the chunk's payload to its end (the pad byte of an
  // odd-sized chunk included, which can save a last partition one byte short), so this does too.
  const dir = mkdtempSync(join(tmpdir(), 'termsight-vp8-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const rows = [
    'chelsea-17x9.webp',
    'coffee-33x47.webp',
    'vpx-camera-partitions2-low.webp',
    'vpx-coffee-partitions8.webp',
  ];
  it.each(rows.map((name) => ({ name })))('$name', ({ name }) => {
    const payload = vp8Payload(vp8File(name));
    let agreedFailures = 0;
    for (const cut of cutsOf(payload.length)) {
      const file = riff(payload.subarray(0, cut));
      const part = file.subarray(20);
      const path = join(dir, `${name}-${cut}.webp`);
      writeFileSync(path, file);
      let theirs: Uint8Array | null = null;
      try {
        theirs = dwebpRgba(path).data;
      } catch {
        theirs = null;
      }
      const got = failureOf(() => decodeVp8(part, LIMITS));
      expect({ cut, fails: got !== null }).toEqual({ cut, fails: theirs === null });
      if (got) {
        agreedFailures++;
        expect(got[0]).toMatch(/^(truncated|corrupt)$/);
      } else {
        expect(sha(decodeVp8(part, LIMITS).data)).toBe(sha(theirs as Uint8Array));
      }
    }
    expect(agreedFailures).toBeGreaterThan(10);
  });
});
