/**
 * BMP, QOI and PNM decoded by termsight against ImageMagick's decode of the same file, pixel for
 * pixel. The files are made by support/simple-files.ts in every layout the decoders read.
 * ImageMagick is read at 16 bits a sample and each of termsight's 8-bit samples must be the
 * nearest to it (exactly ImageMagick's value for 8-bit sources): ImageMagick's own 8-bit output
 * truncates (a PGM of maxval 100 holding 1 comes out 2, not 3 = round(2.55)), and its 16-bit BMP
 * masks of 4 bits are shifted, not scaled (15 gives 240). Where ImageMagick has no decoder (QOI,
 * 2-bit and BI_ALPHABITFIELDS BMPs) the reference is another file of the same pixels that it reads.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { type BmpSpec, bmpFile, type PnmSpec, pnmFile, qoiFile, random } from './support/simple-files.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const hasMagick = spawnSync('sh', ['-c', 'command -v convert'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'termsight-simple-magick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** ImageMagick's RGBA of `bytes` (written to a file named with `ext`), 8 or 16 bits a sample. */
function magickRgba(bytes: Uint8Array, ext: string, depth: 8 | 16 = 8): Uint8Array | Uint16Array {
  const path = join(dir, `in-${Math.random().toString(36).slice(2)}.${ext}`);
  writeFileSync(path, bytes);
  const run = spawnSync('convert', [`${path}[0]`, '-depth', String(depth), '-endian', 'LSB', 'rgba:-'], {
    maxBuffer: 1 << 28,
  });
  if (run.status !== 0) throw new Error(`convert ${path}: ${run.stderr}`);
  const out = new Uint8Array(run.stdout);
  return depth === 8 ? out : new Uint16Array(out.buffer, out.byteOffset, out.length / 2);
}

/**
 * The first pixel where `ours` is not the 8-bit value nearest `reference` (8 or 16 bits a
 * sample; 1/100 of a step allowed for ImageMagick's own rounding to 16 bits), or off by more than
 * `tolerance` beyond that, for a readable failure; null when none is.
 */
function firstDifference(
  ours: Uint8Array,
  reference: Uint8Array | Uint16Array,
  width: number,
  tolerance = 0,
): string | null {
  if (ours.length !== reference.length) return `lengths ${ours.length} and ${reference.length}`;
  const unit = reference instanceof Uint16Array ? 257 : 1;
  for (let i = 0; i < ours.length; i++)
    if (Math.abs((ours[i] as number) - (reference[i] as number) / unit) > tolerance + (unit === 1 ? 0 : 0.51)) {
      const p = i >> 2;
      const theirs = [...reference.subarray(p * 4, p * 4 + 4)].map((v) => Math.round((v / unit) * 100) / 100);
      return `pixel (${p % width}, ${Math.floor(p / width)}): ${[...ours.subarray(p * 4, p * 4 + 4)]} vs ImageMagick ${theirs}`;
    }
  return null;
}

const MASKS_565: [number, number, number, number] = [0xf800, 0x07e0, 0x001f, 0];
const MASKS_4444: [number, number, number, number] = [0x0f00, 0x00f0, 0x000f, 0xf000];
const MASKS_1555: [number, number, number, number] = [0x7c00, 0x03e0, 0x001f, 0x8000];
const MASKS_8888: [number, number, number, number] = [0x00ff0000, 0x0000ff00, 0x000000ff, 0xff000000];
const MASKS_ABGR: [number, number, number, number] = [0x000000ff, 0x0000ff00, 0x00ff0000, 0xff000000];
const MASKS_10: [number, number, number, number] = [0x3ff00000, 0x000ffc00, 0x000003ff, 0];

/** `tolerance`: ImageMagick scales 5-, 6- and 10-bit masks by replicating bits, which is off by up to one from v * 255 / max. */
const bmpCases: (BmpSpec & { name: string; tolerance?: number })[] = [
  { name: '1 bit', width: 37, height: 9, bits: 1 },
  { name: '1 bit, OS/2 1.x header', width: 21, height: 5, bits: 1, headerSize: 12 },
  { name: '4 bits', width: 23, height: 11, bits: 4 },
  { name: '4 bits, a palette of 5', width: 23, height: 11, bits: 4, paletteSize: 5 },
  { name: '8 bits', width: 33, height: 17, bits: 8 },
  { name: '8 bits, top-down', width: 33, height: 17, bits: 8, topDown: true },
  { name: '8 bits, OS/2 1.x header', width: 30, height: 6, bits: 8, headerSize: 12 },
  { name: '8 bits, a palette of 100', width: 40, height: 10, bits: 8, paletteSize: 100 },
  { name: 'RLE8', width: 61, height: 23, bits: 8, compression: 1, seed: 3 },
  { name: 'RLE8 with deltas', width: 80, height: 40, bits: 8, compression: 1, seed: 11 },
  { name: 'RLE4', width: 61, height: 23, bits: 4, compression: 2, seed: 5 },
  { name: 'RLE4, odd absolute runs', width: 77, height: 31, bits: 4, compression: 2, seed: 9 },
  { name: '16 bits, default 5-5-5', width: 29, height: 13, bits: 16, tolerance: 1 },
  {
    name: '16 bits, 5-6-5 bit fields',
    width: 29,
    height: 13,
    bits: 16,
    compression: 3,
    masks: MASKS_565,
    tolerance: 1,
  },
  { name: '24 bits', width: 31, height: 15, bits: 24 },
  { name: '24 bits, top-down', width: 31, height: 15, bits: 24, topDown: true },
  { name: '24 bits, OS/2 1.x header', width: 31, height: 15, bits: 24, headerSize: 12 },
  { name: '32 bits, BI_RGB, the fourth byte as alpha', width: 27, height: 12, bits: 32 },
  { name: '32 bits, BI_RGB, the fourth byte zero everywhere (opaque)', width: 27, height: 12, bits: 32, zeroTop: true },
  { name: '32 bits, 8-8-8 bit fields', width: 27, height: 12, bits: 32, compression: 3, masks: MASKS_8888 },
  {
    name: '32 bits, alpha in a V5 header',
    width: 27,
    height: 12,
    bits: 32,
    compression: 3,
    masks: MASKS_8888,
    headerSize: 124,
  },
  {
    name: '32 bits, alpha in a V4 header, top-down',
    width: 27,
    height: 12,
    bits: 32,
    compression: 3,
    masks: MASKS_8888,
    headerSize: 108,
    topDown: true,
  },
  {
    name: '32 bits, ABGR order in a V3 header',
    width: 27,
    height: 12,
    bits: 32,
    compression: 3,
    masks: MASKS_ABGR,
    headerSize: 56,
  },
  {
    name: '32 bits, 10-10-10 bit fields',
    width: 27,
    height: 12,
    bits: 32,
    compression: 3,
    masks: MASKS_10,
    tolerance: 1,
  },
];

describe.runIf(hasMagick)('BMP against ImageMagick', () => {
  it.each(bmpCases)('$name', (spec) => {
    const bytes = bmpFile(spec);
    const ours = decodeImage(bytes).frames[0]?.raster;
    const reference = magickRgba(bytes, 'bmp', 16);
    expect(firstDifference(ours?.data as Uint8Array, reference, spec.width, spec.tolerance)).toBeNull();
  });

  // What ImageMagick does not read, against a file of the same pixels that it does.
  it.each([
    {
      name: '2 bits, against the same indices at 4 bits',
      spec: { width: 19, height: 7, bits: 2 as const, seed: 4 },
      as: { bits: 4 as const },
    },
    {
      name: 'BI_ALPHABITFIELDS, against the same masks in a V4 header',
      spec: { width: 27, height: 12, bits: 32 as const, compression: 6 as const, masks: MASKS_8888 },
      as: { compression: 3 as const, headerSize: 108 as const },
    },
    {
      name: '16 bits, 4-4-4-4, against the same words at 8-8-8-8',
      spec: {
        width: 29,
        height: 13,
        bits: 16 as const,
        compression: 3 as const,
        masks: MASKS_4444,
        headerSize: 124 as const,
      },
      as: { bits: 32 as const, masks: MASKS_8888 },
    },
    {
      name: '16 bits, 1-5-5-5 in a V4 header, against the same words at 8-8-8-8',
      spec: {
        width: 29,
        height: 13,
        bits: 16 as const,
        compression: 3 as const,
        masks: MASKS_1555,
        headerSize: 108 as const,
      },
      as: { bits: 32 as const, masks: MASKS_8888, headerSize: 124 as const },
    },
  ])('$name', ({ spec, as }) => {
    const bytes = bmpFile(spec);
    const same = bmpFile({ ...spec, ...as, sameAs: spec });
    const ours = decodeImage(bytes).frames[0]?.raster;
    expect(firstDifference(ours?.data as Uint8Array, magickRgba(same, 'bmp', 16), spec.width)).toBeNull();
  });
});

const pnmCases: (PnmSpec & { name: string })[] = [
  { name: 'P1 (text bitmap, digits run together)', kind: 1, width: 19, height: 7 },
  { name: 'P2 (text grey)', kind: 2, width: 17, height: 5, maxval: 255, comment: true },
  { name: 'P2, maxval 1000', kind: 2, width: 17, height: 5, maxval: 1000 },
  { name: 'P3 (text colour), maxval 15', kind: 3, width: 13, height: 6, maxval: 15 },
  { name: 'P3, maxval 65535', kind: 3, width: 13, height: 6, maxval: 65535 },
  { name: 'P4 (binary bitmap), width not a multiple of 8', kind: 4, width: 21, height: 9, comment: true },
  { name: 'P5 (binary grey)', kind: 5, width: 31, height: 9 },
  { name: 'P5, maxval 100', kind: 5, width: 31, height: 9, maxval: 100 },
  { name: 'P5, maxval 4095 (two bytes)', kind: 5, width: 31, height: 9, maxval: 4095 },
  { name: 'P6 (binary colour)', kind: 6, width: 29, height: 11 },
  { name: 'P6, maxval 65535', kind: 6, width: 29, height: 11, maxval: 65535 },
  { name: 'P6, maxval 300', kind: 6, width: 29, height: 11, maxval: 300 },
  { name: 'P7 grey', kind: 7, width: 15, height: 8, depth: 1 },
  { name: 'P7 grey and alpha', kind: 7, width: 15, height: 8, depth: 2 },
  { name: 'P7 RGB, maxval 1023', kind: 7, width: 15, height: 8, depth: 3, maxval: 1023 },
  { name: 'P7 RGB and alpha', kind: 7, width: 15, height: 8, depth: 4 },
  { name: 'P7 RGB and alpha, maxval 65535', kind: 7, width: 15, height: 8, depth: 4, maxval: 65535 },
];

describe.runIf(hasMagick)('PNM against ImageMagick', () => {
  it.each(pnmCases)('$name', (spec) => {
    const bytes = pnmFile(spec);
    const ours = decodeImage(bytes).frames[0]?.raster;
    const reference = magickRgba(bytes, spec.kind === 7 ? 'pam' : 'pnm', 16);
    expect(firstDifference(ours?.data as Uint8Array, reference, spec.width)).toBeNull();
  });
});

describe.runIf(hasMagick)("QOI of ImageMagick's pixels", () => {
  it.each([
    { name: 'a photo with alpha', file: 'test/fixtures/images/chelsea.png', alpha: true },
    { name: 'a photo, three channels', file: 'test/fixtures/images/chelsea.png', alpha: false },
  ])('$name', ({ file, alpha }) => {
    const path = join(dir, 'photo.png');
    const args = [join(ROOT, file), '-resize', '120x80!'];
    // Alpha from a gradient, so runs, index hits, differences and full RGBA ops all occur.
    if (alpha) args.push('(', '-size', '120x80', 'gradient:white-black', ')', '-compose', 'copy-opacity', '-composite');
    args.push(path);
    expect(spawnSync('convert', args).status).toBe(0);
    const rgba = magickRgba(new Uint8Array(readFileSync(path)), 'png') as Uint8Array;
    const decoded = decodeImage(qoiFile(rgba, 120, 80, alpha ? 4 : 3)).frames[0]?.raster;
    expect(firstDifference(decoded?.data as Uint8Array, rgba, 120)).toBeNull();
  });

  it('random pixels from a small palette (every op)', () => {
    const next = random(42);
    const colours = Array.from({ length: 90 }, () => [
      next() & 255,
      next() & 255,
      next() & 255,
      next() % 3 ? 255 : next() & 255,
    ]);
    const rgba = new Uint8Array(64 * 64 * 4);
    let c = colours[0] as number[];
    for (let i = 0; i < 64 * 64; i++) {
      const roll = next() % 8;
      if (roll < 3) c = colours[next() % colours.length] as number[];
      else if (roll < 5)
        c = [
          ((c[0] as number) + (next() % 5) - 2) & 255,
          ((c[1] as number) + (next() % 40) - 20) & 255,
          ((c[2] as number) + (next() % 5) - 2) & 255,
          c[3] as number,
        ];
      rgba.set(c, i * 4);
    }
    expect(
      firstDifference(decodeImage(qoiFile(rgba, 64, 64)).frames[0]?.raster.data as Uint8Array, rgba, 64),
    ).toBeNull();
  });
});
