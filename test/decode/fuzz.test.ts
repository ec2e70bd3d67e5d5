/**
 * Fuzzing the PNG and GIF decoders: structured mutations of small valid files (PNG chunk bodies
 * re-wrapped with a correct CRC so they get past the CRC check, IHDR fields, the inflated rows
 * themselves recompressed so they reach the unfilter and the expanders; GIF header fields, frame
 * descriptors and LZW bytes; WebP chunk sizes, VP8X/ANMF fields and the lossless bitstream of
 * cwebp's files). Every outcome is well-formed frames or one DecodeError with a
 * one-line message. Runs per property: 200, or TERMSIGHT_FUZZ_RUNS for a long session
 * (`TERMSIGHT_FUZZ_RUNS=20000 npx vitest run test/decode/fuzz.test.ts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync, inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { gifCorpus, pngChunk, pngCorpus } from './corpus.js';
import { bmpFile, pnmFile, qoiFile } from './support/simple-files.js';
import { anim, anmf, chunk, riff, vp8x } from './support/webp-files.js';

const RUNS = Number(process.env.TERMSIGHT_FUZZ_RUNS) > 0 ? Number(process.env.TERMSIGHT_FUZZ_RUNS) : 200;
const LIMITS = { maxPixels: 1_000_000, maxSide: 4000, maxAnimationPixels: 2_000_000 };

function checkOutcome(bytes: Uint8Array): void {
  try {
    const image = decodeImage(bytes, { limits: LIMITS, frames: 'all' });
    expect(image.frames.length).toBeGreaterThan(0);
    for (const f of image.frames) expect(f.raster.data.length).toBe(image.width * image.height * 4);
  } catch (error) {
    if (!(error instanceof DecodeError)) throw error;
    expect(error.message).not.toMatch(/[\n\r\x1b]/);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

interface Chunk {
  type: string;
  body: Uint8Array;
}

function chunksOf(png: Uint8Array): Chunk[] {
  const out: Chunk[] = [];
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  for (let p = 8; p + 12 <= png.length; ) {
    const length = view.getUint32(p);
    out.push({
      type: Buffer.from(png.subarray(p + 4, p + 8)).toString('latin1'),
      body: png.slice(p + 8, p + 8 + length),
    });
    p += 12 + length;
  }
  return out;
}

function pngFrom(chunks: readonly Chunk[]): Uint8Array {
  return new Uint8Array(
    Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      ...chunks.map((c) => pngChunk(c.type, c.body)),
    ]),
  );
}

/** Byte edits: [position as a fraction, new value]. */
const edits = fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
  minLength: 1,
  maxLength: 6,
});

function applyEdits(bytes: Uint8Array, changes: readonly (readonly [number, number])[]): Uint8Array {
  const out = bytes.slice();
  if (out.length === 0) return out;
  for (const [at, value] of changes) out[Math.min(out.length - 1, Math.floor(at * out.length))] = value;
  return out;
}

const pngSeeds = pngCorpus().filter((_, i) => [0, 1, 2, 5, 9, 10, 12, 14].includes(i));
const gifSeeds = gifCorpus();

describe('fuzz: PNG', () => {
  it.each(pngSeeds.map((s) => ({ name: s.name, bytes: s.bytes })))(
    '$name: chunk bodies changed, CRCs right',
    ({ bytes }) => {
      const chunks = chunksOf(bytes);
      fc.assert(
        fc.property(fc.nat(chunks.length - 1), edits, fc.integer({ min: -8, max: 8 }), (index, changes, resize) => {
          const copy = chunks.map((c) => ({ ...c }));
          const target = copy[index] as Chunk;
          let body = applyEdits(target.body, changes);
          if (resize < 0) body = body.subarray(0, Math.max(0, body.length + resize));
          else if (resize > 0) body = Uint8Array.from([...body, ...new Array(resize).fill(resize * 31)]);
          target.body = body;
          checkOutcome(pngFrom(copy));
        }),
        { numRuns: RUNS, seed: 1234 },
      );
    },
  );

  it.each(pngSeeds.map((s) => ({ name: s.name, bytes: s.bytes })))(
    '$name: inflated rows changed and recompressed (filters, samples, length)',
    ({ bytes }) => {
      const chunks = chunksOf(bytes);
      const raw = inflateSync(Buffer.concat(chunks.filter((c) => c.type === 'IDAT').map((c) => c.body)));
      const others = chunks.filter((c) => c.type !== 'IDAT' && c.type !== 'IEND');
      fc.assert(
        fc.property(edits, fc.integer({ min: -4, max: 4 }), (changes, resize) => {
          let rows = applyEdits(raw, changes);
          if (resize < 0) rows = rows.subarray(0, Math.max(0, rows.length + resize));
          else if (resize > 0) rows = Uint8Array.from([...rows, ...new Array(resize).fill(0)]);
          checkOutcome(
            pngFrom([...others, { type: 'IDAT', body: deflateSync(rows) }, { type: 'IEND', body: new Uint8Array() }]),
          );
        }),
        { numRuns: RUNS, seed: 4321 },
      );
    },
  );

  it('IHDR fields changed (size, depth, colour type, interlace), CRC right', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...pngSeeds),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 0, max: 40 }),
        fc.constantFrom(0, 1, 2, 3, 4, 5, 8, 16, 255),
        fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 7),
        fc.integer({ min: 0, max: 2 }),
        (seed, width, height, depth, colorType, interlace) => {
          const chunks = chunksOf(seed.bytes);
          const ihdr = (chunks[0] as Chunk).body;
          new DataView(ihdr.buffer, ihdr.byteOffset).setUint32(0, width);
          new DataView(ihdr.buffer, ihdr.byteOffset).setUint32(4, height);
          ihdr[8] = depth;
          ihdr[9] = colorType;
          ihdr[12] = interlace;
          checkOutcome(pngFrom(chunks));
        },
      ),
      { numRuns: RUNS, seed: 777 },
    );
  });
});

describe('fuzz: GIF', () => {
  it.each(gifSeeds.map((s) => ({ name: s.name, bytes: s.bytes })))(
    '$name: bytes changed, never a log line',
    ({ bytes }) => {
      const log = vi.spyOn(console, 'log');
      fc.assert(
        fc.property(edits, fc.integer({ min: 0, max: 16 }), (changes, cut) => {
          const changed = applyEdits(bytes, changes);
          checkOutcome(cut > 0 ? changed.subarray(0, Math.max(6, changed.length - cut)) : changed);
        }),
        { numRuns: RUNS, seed: 2468 },
      );
      expect(log).not.toHaveBeenCalled();
      log.mockRestore();
    },
  );

  it('screen and frame sizes changed', () => {
    const seed = gifSeeds[1]?.bytes ?? new Uint8Array();
    const descriptors = [...seed.keys()].filter((i) => seed[i] === 0x2c && seed[i - 1] === 0 && i > 13);
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            fc.constantFrom(6, 7, 8, 9, ...descriptors.flatMap((d) => [d + 1, d + 3, d + 5, d + 6, d + 7, d + 8])),
            fc.integer({ min: 0, max: 255 }),
          ),
          {
            minLength: 1,
            maxLength: 4,
          },
        ),
        (changes) => {
          const bytes = seed.slice();
          for (const [at, value] of changes) bytes[at] = value;
          checkOutcome(bytes);
        },
      ),
      { numRuns: RUNS, seed: 1357 },
    );
  });
});

const webpDir = new URL('../fixtures/images/webp/', import.meta.url).pathname;
const webpSeeds = [
  'lossless-z9.webp',
  'lossless-palette-3.webp',
  'lossless-alpha.webp',
  'lossy-alpha-raw-gradient.webp',
  'anim-mux-2.webp',
].map((name) => ({ name, bytes: new Uint8Array(readFileSync(join(webpDir, name))) }));

describe('fuzz: WebP', () => {
  it.each(webpSeeds)('$name: bytes changed or cut (header, chunks, prefix codes, transforms, pixels)', ({ bytes }) => {
    fc.assert(
      fc.property(edits, fc.integer({ min: 0, max: 64 }), (changes, cut) => {
        const changed = applyEdits(bytes, changes);
        checkOutcome(cut > 0 ? changed.subarray(0, Math.max(12, changed.length - cut)) : changed);
      }),
      { numRuns: RUNS, seed: 9753 },
    );
  });

  it('the lossless bitstream changed after its header, container kept whole', () => {
    const seed = webpSeeds[0]!.bytes;
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.integer({ min: 25, max: seed.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 4,
        }),
        (changes) => {
          const bytes = seed.slice();
          for (const [at, value] of changes) bytes[at] = value;
          checkOutcome(bytes);
        },
      ),
      { numRuns: RUNS, seed: 8642 },
    );
  });

  it('VP8X canvas and ANMF rectangles, flags and durations changed', () => {
    const frame = (seedBytes: Uint8Array) => chunk('VP8L', seedBytes);
    const tiny = new Uint8Array(readFileSync(join(webpDir, 'lossless-palette-2.webp'))).subarray(20);
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 300 }),
        fc.integer({ min: 1, max: 300 }),
        fc.array(
          fc.tuple(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 0, max: 200 }), fc.boolean(), fc.boolean()),
          { minLength: 1, maxLength: 4 },
        ),
        (width, height, frames) => {
          const file = riff([
            vp8x(0x12, width, height),
            anim(0),
            ...frames.map(([x, y, blend, dispose]) =>
              anmf({ x: x & ~1, y: y & ~1, width: 91, height: 61, durationMs: x, blend, dispose }, frame(tiny)),
            ),
          ]);
          checkOutcome(file);
        },
      ),
      { numRuns: RUNS, seed: 5555 },
    );
  });
});

/** BMPs of every layout, QOIs and PNMs of every kind: small, so edits land in headers and pixels alike. */
const simpleSeeds: { name: string; bytes: Uint8Array }[] = [
  { name: 'BMP 1 bit', bytes: bmpFile({ width: 13, height: 5, bits: 1 }) },
  { name: 'BMP 4 bits, OS/2 header', bytes: bmpFile({ width: 9, height: 4, bits: 4, headerSize: 12 }) },
  { name: 'BMP RLE8', bytes: bmpFile({ width: 30, height: 12, bits: 8, compression: 1, seed: 11 }) },
  { name: 'BMP RLE4', bytes: bmpFile({ width: 30, height: 12, bits: 4, compression: 2, seed: 5 }) },
  {
    name: 'BMP 16 bits 5-6-5',
    bytes: bmpFile({ width: 9, height: 4, bits: 16, compression: 3, masks: [0xf800, 0x7e0, 0x1f, 0] }),
  },
  { name: 'BMP 24 bits top-down', bytes: bmpFile({ width: 9, height: 4, bits: 24, topDown: true }) },
  {
    name: 'BMP 32 bits V5 alpha',
    bytes: bmpFile({
      width: 9,
      height: 4,
      bits: 32,
      compression: 3,
      headerSize: 124,
      masks: [0xff0000, 0xff00, 0xff, 0xff000000],
    }),
  },
  {
    name: 'QOI',
    bytes: qoiFile(
      Uint8Array.from({ length: 12 * 6 * 4 }, (_, i) => ((i * 37) % 256) & (i % 3 ? 255 : 0xf0)),
      12,
      6,
    ),
  },
  { name: 'PBM text', bytes: pnmFile({ kind: 1, width: 9, height: 4 }) },
  { name: 'PGM text, maxval 1000', bytes: pnmFile({ kind: 2, width: 7, height: 4, maxval: 1000, comment: true }) },
  { name: 'PBM binary', bytes: pnmFile({ kind: 4, width: 11, height: 4 }) },
  { name: 'PPM binary, maxval 65535', bytes: pnmFile({ kind: 6, width: 7, height: 4, maxval: 65535 }) },
  { name: 'PAM RGBA', bytes: pnmFile({ kind: 7, width: 7, height: 4, depth: 4 }) },
];

describe('fuzz: BMP, QOI, PNM', () => {
  it.each(simpleSeeds)('$name: bytes changed or cut', ({ bytes }) => {
    fc.assert(
      fc.property(edits, fc.integer({ min: -40, max: 8 }), (changes, resize) => {
        let out = applyEdits(bytes, changes);
        if (resize < 0) out = out.subarray(0, Math.max(0, out.length + resize));
        else if (resize > 0) out = Uint8Array.from([...out, ...new Array(resize).fill(resize * 29)]);
        checkOutcome(out);
      }),
      { numRuns: RUNS, seed: 3141 },
    );
  });

  it('header fields of a BMP set to hostile values (sizes, bits, compression, offsets, counts)', () => {
    const base = bmpFile({ width: 16, height: 8, bits: 8, paletteSize: 20 });
    fc.assert(
      fc.property(
        fc.constantFrom(2, 10, 14, 18, 22, 28, 30, 46),
        fc.oneof(fc.constantFrom(0, 1, 2, 3, 4, 5, 6, 16, 24, 32, 0x7fffffff, 0x80000000, 0xffffffff), fc.nat()),
        (at, value) => {
          const out = base.slice();
          const view = new DataView(out.buffer);
          if (at === 28) view.setUint16(at, value & 0xffff, true);
          else view.setUint32(at, value >>> 0, true);
          checkOutcome(out);
        },
      ),
      { numRuns: RUNS, seed: 2718 },
    );
  });
});
