/**
 * HEIC (HEVC-coded HEIF): the boxes read before any decoder (heif-boxes.ts), which files are
 * HEIC (by the codec of the primary picture, not the brands alone), the sizes checked before a
 * peer is loaded (hostile `ispe`, a grid of one tile listed thousands of times), the pixels
 * through libheif-js against ImageMagick's decode of the same file (native libheif + libde265)
 * and against the pixels the file was encoded from, the `colr` through colour.ts, and
 * `termsight show` of a HEIC with each protocol, with and without the peers (their resolution made
 * to fail by a loader hook, as a package that is not installed fails): one line, exit 2.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyColour } from '../../src/decode/colour.js';
import { DecodeError } from '../../src/decode/error.js';
import { colourInfo, HEIC_MISSING } from '../../src/decode/heic.js';
import { HeifBoxError, readHeifPrimary } from '../../src/decode/heif-boxes.js';
import { decodeImageLoading } from '../../src/decode/load.js';
import { sniffPeerFormat } from '../../src/decode/sniff.js';
import { blockMeans } from './support/block-means.js';
import { colrIcc, colrNclx, fullBox, heifFile, ispe, withIrot, withIspe } from './support/heif-files.js';
import { CLI, showWithout } from './support/show-without.js';

const ROOT = join(import.meta.dirname, '../..');
const FIXTURE = join(ROOT, 'test/fixtures/images/peer/chelsea.heic');
const fixture = (): Uint8Array => new Uint8Array(readFileSync(FIXTURE));
const hasLibheif = existsSync(join(ROOT, 'node_modules/libheif-js/package.json'));

const hvc1 = (id: number, ...properties: Uint8Array[]) => ({ id, type: 'hvc1', properties });
const icc = Uint8Array.from({ length: 132 }, (_, i) => i);

describe('the boxes of a HEIF (read before any decoder)', () => {
  it.each<{ name: string; file: () => Uint8Array; expected: Record<string, unknown> }>([
    {
      name: 'the committed HEIC (ImageMagick, libheif 1.15)',
      file: fixture,
      expected: { codec: 'hevc', width: 48, height: 32 },
    },
    {
      name: 'one HEVC item with nclx',
      file: () => heifFile({ brands: ['mif1'], items: [hvc1(1, ispe(640, 480), colrNclx(12, 13, 6, true))] }),
      expected: {
        itemType: 'hvc1',
        codec: 'hevc',
        width: 640,
        height: 480,
        codedPixels: 640 * 480,
        colour: { kind: 'nclx', primaries: 12, transfer: 13, matrix: 6, fullRange: true },
      },
    },
    {
      name: 'an ICC profile wins over nclx (a file may carry both)',
      file: () => heifFile({ brands: ['heic'], items: [hvc1(1, ispe(8, 8), colrNclx(1, 13, 6, true), colrIcc(icc))] }),
      expected: { colour: { kind: 'icc', profile: icc } },
    },
    {
      name: 'a grid of HEVC tiles (as iPhones write): the grid size, the tiles’ pixels',
      file: () =>
        heifFile({
          brands: ['heic', 'mif1'],
          items: [
            { id: 1, type: 'grid', properties: [ispe(1000, 500)] },
            hvc1(2, ispe(512, 512)),
            hvc1(3, ispe(512, 512)),
          ],
          dimg: { from: 1, to: [2, 3, 2, 3] },
        }),
      expected: { itemType: 'grid', codec: 'hevc', width: 1000, height: 500, codedPixels: 4 * 512 * 512 },
    },
    {
      name: 'an AV1 item',
      file: () => heifFile({ brands: ['mif1'], items: [{ id: 1, type: 'av01', properties: [ispe(4, 4)] }] }),
      expected: { codec: 'av1' },
    },
    {
      name: 'the primary named by pitm, not the first item',
      file: () =>
        heifFile({
          brands: ['mif1'],
          primary: 7,
          items: [{ id: 3, type: 'av01', properties: [ispe(4, 4)] }, hvc1(7, ispe(20, 10))],
        }),
      expected: { itemType: 'hvc1', width: 20, height: 10 },
    },
  ])('$name', ({ file, expected }) => {
    expect(readHeifPrimary(file())).toMatchObject(expected);
  });

  it.each<{ name: string; file: () => Uint8Array; message: RegExp }>([
    { name: 'no meta box', file: () => fullBox('ftyp', 0, 0), message: /no meta box/ },
    { name: 'cut inside the meta box', file: () => fixture().subarray(0, 120), message: /does not fit/ },
    {
      name: 'no pitm',
      file: () => {
        const f = heifFile({ brands: ['mif1'], items: [hvc1(1, ispe(4, 4))] });
        const at = Buffer.from(f).indexOf('pitm');
        f.set([0x66, 0x72, 0x65, 0x65], at); // renamed to free
        return f;
      },
      message: /no primary item/,
    },
    {
      name: 'ipma declares 2^32-1 entries',
      file: () => {
        const f = heifFile({ brands: ['mif1'], items: [hvc1(1, ispe(4, 4))] });
        const at = Buffer.from(f).indexOf('ipma') + 8;
        f.set([255, 255, 255, 255], at);
        return f;
      },
      message: /ipma box lists more entries than it holds/,
    },
  ])('broken: $name', ({ file, message }) => {
    expect(() => readHeifPrimary(file())).toThrow(message);
  });
});

const RUNS = Number(process.env.TERMSIGHT_FUZZ_RUNS) > 0 ? Number(process.env.TERMSIGHT_FUZZ_RUNS) : 200;
/** Byte edits at relative positions, and a length change: structured mutations of a real file. */
const edits = fc.array(fc.tuple(fc.nat(1265), fc.nat(255)), { minLength: 1, maxLength: 8 });
function mutated(file: Uint8Array, changes: [number, number][], cut: number): Uint8Array {
  const out = file.slice(0, Math.max(0, file.length - cut));
  for (const [at, value] of changes) if (at < out.length) out[at] = value;
  return out;
}

it('sniffPeerFormat: a HEIF without the box reader passed in is the caller’s mistake, said at once', () => {
  expect(() => sniffPeerFormat(fixture())).toThrow(/box reader/);
  // Files that are no HEIF need no reader.
  expect(sniffPeerFormat(Uint8Array.from([0x49, 0x49, 0x2a, 0x00]))).toBe('tiff');
});

describe('fuzzed boxes (fast-check)', () => {
  it('a mutated HEIC: the boxes are read or refused with one HeifBoxError; the sniff never throws', () => {
    fc.assert(
      fc.property(edits, fc.nat(400), (changes, cut) => {
        const bytes = mutated(fixture(), changes, cut);
        expect(() => sniffPeerFormat(bytes, readHeifPrimary)).not.toThrow();
        try {
          readHeifPrimary(bytes);
        } catch (error) {
          expect(error).toBeInstanceOf(HeifBoxError);
          expect((error as Error).message).not.toMatch(/\n/);
        }
      }),
      { numRuns: RUNS, seed: 2323 },
    );
  });

  it.runIf(hasLibheif)(
    'a mutated HEIC decoded: a picture or one DecodeError (libheif-js never crashes the process)',
    async () => {
      const seen = { pictures: 0, errors: 0 };
      await fc.assert(
        // The boxes kept, the HEVC data (mdat) damaged: what reaches libde265.
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat(799), fc.nat(255)), { minLength: 1, maxLength: 8 }),
          async (changes) => {
            const file = fixture();
            const mdat = file.length - 800;
            for (const [at, value] of changes) file[mdat + at] = value;
            const outcome = await decodeImageLoading(file).catch((e: unknown) => e);
            if (outcome instanceof Error) {
              seen.errors++;
              expect(outcome).toBeInstanceOf(DecodeError);
              expect(outcome.message).not.toMatch(/\n/);
            } else {
              seen.pictures++;
              expect((outcome as { frames: unknown[] }).frames).toHaveLength(1);
            }
          },
        ),
        { numRuns: Math.ceil(RUNS / 2), seed: 3232 },
      );
      // Both ends were reached: damage libde265 decodes through, and damage that is refused.
      expect(seen.pictures).toBeGreaterThan(0);
      expect(seen.errors).toBeGreaterThan(0);
    },
  );
});

describe('which ISO BMFF files are HEIC (the codec of the primary picture)', () => {
  it.each<{ name: string; file: () => Uint8Array; format: string | null }>([
    { name: 'the committed HEIC', file: fixture, format: 'heic' },
    {
      name: 'mif1 with an HEVC item',
      file: () => heifFile({ brands: ['mif1'], items: [hvc1(1, ispe(4, 4))] }),
      format: 'heic',
    },
    {
      name: 'mif1 with an AV1 item (an AVIF without its brand)',
      file: () => heifFile({ brands: ['mif1'], items: [{ id: 1, type: 'av01', properties: [ispe(4, 4)] }] }),
      format: 'avif',
    },
    {
      name: 'avif-branded but HEVC inside: the boxes decide',
      file: () => heifFile({ brands: ['avif', 'mif1'], items: [hvc1(1, ispe(4, 4))] }),
      format: 'heic',
    },
    {
      name: 'mif1 with a JPEG item: HEIF (sharp)',
      file: () => heifFile({ brands: ['mif1'], items: [{ id: 1, type: 'jpeg', properties: [ispe(4, 4)] }] }),
      format: 'heif',
    },
    { name: 'heic brand, boxes broken: by its brand', file: () => fixture().subarray(0, 120), format: 'heic' },
  ])('$name: $format', ({ file, format }) => {
    expect(sniffPeerFormat(file(), readHeifPrimary)).toBe(format);
  });
});

describe('sizes checked before a decoder is loaded', () => {
  it.each<{ name: string; file: () => Uint8Array; message: RegExp }>([
    {
      name: 'the real HEIC with ispe 100000x100000',
      file: () => withIspe(fixture(), 100_000, 100_000),
      message: /^HEIC image too large to decode safely: 100000x100000/,
    },
    {
      name: 'a grid within the limits made of one tile listed 60000 times',
      file: () =>
        heifFile({
          brands: ['heic'],
          items: [{ id: 1, type: 'grid', properties: [ispe(4000, 3000)] }, hvc1(2, ispe(512, 512))],
          dimg: { from: 1, to: Array.from({ length: 60_000 }, () => 2) },
        }),
      message: /^HEIC image too large to decode safely: its tiles hold 15729 megapixels/,
    },
    {
      name: 'a thumbnail item past the side limit',
      file: () => heifFile({ brands: ['heic'], items: [hvc1(1, ispe(64, 64)), hvc1(2, ispe(40_000, 1))] }),
      message: /^HEIC image too large to decode safely: 40000x1/,
    },
  ])('$name: too-large', async ({ file, message }) => {
    const error = await decodeImageLoading(file()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).failure).toBe('too-large');
    expect((error as DecodeError).message).toMatch(message);
  });

  it('no ispe on the primary picture: corrupt', async () => {
    const file = heifFile({ brands: ['heic'], items: [hvc1(1)] });
    await expect(decodeImageLoading(file)).rejects.toThrow('corrupt HEIC: its primary picture declares no size (ispe)');
  });
});

it('colour: nclx code points go to colour.ts as RGB full range (libheif has undone the matrix); ICC as is', () => {
  expect(colourInfo({ kind: 'nclx', primaries: 12, transfer: 13, matrix: 6, fullRange: false })).toEqual({
    cicp: { primaries: 12, transfer: 13, matrix: 0, fullRange: true, source: 'HEIF nclx' },
  });
  // Unspecified (2) is sRGB's, as libheif and browsers take it.
  expect(colourInfo({ kind: 'nclx', primaries: 2, transfer: 2, matrix: 2, fullRange: true }).cicp).toMatchObject({
    primaries: 1,
    transfer: 13,
  });
  expect(colourInfo({ kind: 'icc', profile: icc })).toEqual({ icc });
  expect(colourInfo(undefined)).toEqual({});
  // Display P3 as nclx is converted, and says where it came from.
  const frame = { raster: { width: 1, height: 1, data: Uint8Array.from([200, 100, 50, 255]) }, delayMs: 0 };
  const handling = applyColour(
    [frame],
    colourInfo({ kind: 'nclx', primaries: 12, transfer: 13, matrix: 6, fullRange: true }),
    'rgb',
  );
  expect(handling).toEqual({
    applied: 'converted',
    why: 'HEIF nclx (Display P3 primaries, sRGB transfer): converted to sRGB',
  });
  // A P3 orange is a more saturated sRGB orange.
  const [r, g, b] = frame.raster.data as Uint8Array;
  expect(r).toBeGreaterThan(200);
  expect(g).toBeLessThan(100);
  expect(b).toBeLessThan(50);
});

/** PSNR (dB) of the RGB channels of two RGBA rasters of one size. */
function psnr(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue;
    const d = (a[i] as number) - (b[i] as number);
    sum += d * d;
    n++;
  }
  return 10 * Math.log10((255 * 255) / (sum / n));
}

const magick = spawnSync('convert', ['-list', 'format'], { encoding: 'utf8' });
const magickHeic = magick.status === 0 && /^\s*HEIC\*?\s+HEIC\s+rw/m.test(magick.stdout);

describe.runIf(hasLibheif)('with libheif-js installed (the dev dependency)', () => {
  it('the committed 48x32 HEIC: the same picture as the lossless TIFF of it, within its compression', async () => {
    const heic = await decodeImageLoading(fixture());
    const tiff = await decodeImageLoading(readFileSync(join(ROOT, 'test/fixtures/images/peer/chelsea.tiff')));
    expect(heic).toMatchObject({
      format: 'heic',
      width: 48,
      height: 32,
      sourceWidth: 48,
      frameCount: 1,
      orientation: 1,
    });
    expect(heic.colour).toEqual({ applied: 'as-is', why: 'no colour space declared: sRGB' });
    expect(psnr(heic.frames[0]?.raster.data as Uint8Array, tiff.frames[0]?.raster.data as Uint8Array)).toBeGreaterThan(
      25,
    );
  });

  it('maxSize: averaged down by the largest whole factor that covers the box, as it leaves libheif', async () => {
    const full = await decodeImageLoading(fixture());
    const small = await decodeImageLoading(fixture(), { maxSize: { width: 12, height: 7 } });
    expect([small.width, small.height, small.sourceWidth, small.sourceHeight]).toEqual([12, 8, 48, 32]);
    expect(Array.from(small.frames[0]?.raster.data ?? [])).toEqual(
      blockMeans(
        full.frames[0]?.raster.data as Uint8Array,
        { width: 48, height: 32, bands: 4, stride: 48 * 4, scale: 1 },
        4,
      ),
    );
  });

  it('irot (HEIF’s own orientation) is applied by libheif: turned 90° anticlockwise; orientation stays 1 (no EXIF orientation applies)', async () => {
    const upright = await decodeImageLoading(fixture());
    const turned = await decodeImageLoading(withIrot(fixture(), 1));
    expect([turned.width, turned.height, turned.sourceWidth, turned.sourceHeight, turned.orientation]).toEqual([
      32, 48, 48, 32, 1,
    ]);
    const a = upright.frames[0]?.raster.data as Uint8Array;
    const b = turned.frames[0]?.raster.data as Uint8Array;
    // Anticlockwise: the upright picture's right column is the turned one's top row.
    let same = 0;
    for (let y = 0; y < 48; y++)
      for (let x = 0; x < 32; x++)
        for (let c = 0; c < 4; c++) if (b[(y * 32 + x) * 4 + c] === a[(x * 48 + (47 - y)) * 4 + c]) same++;
    expect(same).toBe(32 * 48 * 4);
  });

  it('a damaged HEVC stream inside good boxes: one DecodeError, never a crash', async () => {
    const file = fixture();
    for (let i = file.length - 700; i < file.length; i += 7) file[i] = (file[i] as number) ^ 0x5a;
    const outcome = await decodeImageLoading(file).then(
      (image) => image.width,
      (e: unknown) => e,
    );
    // libde265 conceals damage where it can; where it cannot, the error is one line.
    if (outcome instanceof Error) {
      expect(outcome).toBeInstanceOf(DecodeError);
      expect(outcome.message).not.toMatch(/\n/);
    } else expect(outcome).toBe(48);
  });

  describe.runIf(magickHeic)('against ImageMagick (libheif + libde265, native) on a HEIC it encoded (x265)', () => {
    let dir = '';
    let heic: Uint8Array;
    let reference: Uint8Array;
    let source: Uint8Array;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'termsight-heic-'));
      const png = join(ROOT, 'test/fixtures/images/chelsea.png');
      const file = join(dir, 'chelsea.heic');
      const run = (args: string[]): Buffer => {
        const r = spawnSync('convert', args, { maxBuffer: 1 << 26 });
        if (r.status !== 0) throw new Error(`convert ${args.join(' ')}: ${r.stderr}`);
        return r.stdout;
      };
      run([png, '-quality', '90', file]);
      heic = new Uint8Array(readFileSync(file));
      reference = new Uint8Array(run([file, '-depth', '8', 'rgba:-']));
      source = new Uint8Array(run([png, '-depth', '8', 'rgba:-']));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('451x300: within 40 dB of ImageMagick’s decode, and within 30 dB of the pixels it was encoded from', async () => {
      expect(sniffPeerFormat(heic, readHeifPrimary)).toBe('heic');
      const image = await decodeImageLoading(heic);
      expect([image.width, image.height]).toEqual([451, 300]);
      const data = image.frames[0]?.raster.data as Uint8Array;
      expect(data.length).toBe(reference.length);
      expect(psnr(data, reference)).toBeGreaterThan(40);
      expect(psnr(data, source)).toBeGreaterThan(30);
      // Not a flat grey: the control that the bounds can fail.
      expect(psnr(new Uint8Array(data.length).fill(128), source)).toBeLessThan(20);
    });

    it('a stream larger than its ispe (450x300 coded, 48x32 declared): refused by libheif before it decodes', async () => {
      // An even width: one HEVC item (451 makes libheif 1.15 write a grid, whose ispe are two). The
      // stream is coded at 456x304 (whole coding blocks), cropped by its conformance window.
      const file = join(dir, 'even.heic');
      spawnSync('convert', [join(ROOT, 'test/fixtures/images/chelsea.png'), '-resize', '450x300!', file]);
      const lying = withIspe(new Uint8Array(readFileSync(file)), 48, 32);
      expect(readHeifPrimary(lying)).toMatchObject({ itemType: 'hvc1', width: 48, height: 32 });
      const error = await decodeImageLoading(lying).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecodeError);
      expect((error as DecodeError).message).toMatch(
        /^corrupt HEIC: .*Security limit exceeded: Image size 45\dx30\d exceeds the maximum image size/,
      );
    });
  });
});

describe.runIf(existsSync(CLI))('termsight show x.heic (the built CLI)', () => {
  describe.runIf(hasLibheif)('with libheif-js', () => {
    it.each([
      { name: 'kitty', protocol: 'kitty', sequence: /\x1b_G[^\x1b]*a=[tT]/, missing: [] },
      { name: 'sixel', protocol: 'sixel', sequence: /\x1bP[0-9;]*q"/, missing: [] },
      { name: 'symbols', protocol: 'symbols', sequence: /\x1b\[[0-9;]*[34]8;5;\d+m[\u2580-\u259f]/, missing: [] },
      { name: 'blocks, sharp missing', protocol: 'blocks', sequence: /\x1b\[[0-9;]*[34]8;5;/, missing: ['sharp'] },
    ])('$name: drawn, exit 0', ({ protocol, sequence, missing }) => {
      const run = showWithout(FIXTURE, missing, protocol);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(sequence);
    });
  });

  it.runIf(hasLibheif && magickHeic)(
    'kitty: the pixels sent are ImageMagick’s decode of the file, within 40 dB',
    () => {
      const run = showWithout(FIXTURE, [], 'kitty');
      expect(run.status).toBe(0);
      const chunks = [...run.stdout.matchAll(/\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\/g)];
      const keys = Object.fromEntries((chunks[0]?.[1] ?? '').split(',').map((kv) => kv.split('=')));
      const payload = Buffer.from(chunks.map((c) => c[2]).join(''), 'base64');
      const sent = keys.o === 'z' ? inflateSync(payload) : payload;
      expect([keys.s, keys.v, keys.f]).toEqual(['48', '32', '24']);
      const rgba = new Uint8Array(48 * 32 * 4);
      for (let p = 0; p < 48 * 32; p++)
        rgba.set([sent[p * 3] ?? 0, sent[p * 3 + 1] ?? 0, sent[p * 3 + 2] ?? 0, 255], p * 4);
      const reference = spawnSync('convert', [FIXTURE, '-depth', '8', 'rgba:-']).stdout;
      expect(psnr(rgba, new Uint8Array(reference))).toBeGreaterThan(40);
    },
  );

  it.each([
    { name: 'without libheif-js (sharp’s prebuilt has no HEVC)', missing: ['libheif-js'] },
    { name: 'without either', missing: ['libheif-js', 'sharp'] },
  ])('$name: one line naming the package, exit 2', ({ missing }) => {
    const run = showWithout(FIXTURE, missing);
    expect(run.stderr).toBe(`termsight: ${FIXTURE}: ${HEIC_MISSING}\n`);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('a hostile HEIC (ispe 100000x100000): one line, exit 2, in bounded memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-heic-bomb-'));
    try {
      const file = join(dir, 'bomb.heic');
      writeFileSync(file, withIspe(fixture(), 100_000, 100_000));
      const run = showWithout(file, []);
      expect(run.stderr).toMatch(/^termsight: .*bomb\.heic: HEIC image too large to decode safely: 100000x100000 \(/);
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.status).toBe(2);
      expect(run.rssMiB).toBeLessThan(120);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
