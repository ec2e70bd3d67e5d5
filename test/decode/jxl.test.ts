/**
 * JPEG XL: the size header read before any decoder (jxl-header.ts) against codestreams this test
 * writes bit by bit and against the committed files (as djxl sees them); the pictures against
 * djxl (libjxl's own tool, Debian's libjxl-tools: exact for the lossless files, PSNR for the lossy
 * ones), orientation, alpha, grey, 16 bits, the limits checked before the peer loads, broken
 * files (one `DecodeError`, fuzzed), and `termsight show` with and without the peer wasm-vips.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { orient } from '../../src/core/orientation.js';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { JXL_MISSING } from '../../src/decode/jxl.js';
import { isJxl, JxlHeaderError, readJxlHeader } from '../../src/decode/jxl-header.js';
import { decodeImageLoading } from '../../src/decode/load.js';
import { sniffFormat, sniffPeerFormat } from '../../src/decode/sniff.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { blockMeans } from './support/block-means.js';
import { CLI, showWithout } from './support/show-without.js';

const ROOT = join(import.meta.dirname, '../..');
const DIR = join(ROOT, 'test/fixtures/images/jxl');
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(DIR, name)));
const hasWasmVips = existsSync(join(ROOT, 'node_modules/wasm-vips/package.json'));
const hasDjxl = spawnSync('djxl', ['--version']).status === 0;

/** Bits written least significant first, as a JPEG XL codestream holds them (ISO/IEC 18181-1, 9.2). */
class BitWriter {
  private readonly bits: number[] = [];
  write(value: number, n: number): this {
    for (let i = 0; i < n; i++) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(Math.ceil(this.bits.length / 8));
    this.bits.forEach((bit, i) => {
      out[i >> 3] = (out[i >> 3] as number) | (bit << (i & 7));
    });
    return out;
  }
}

const U32_WIDTHS = [9, 13, 18, 30];

/** One side as the `U32(1 + u(9), 1 + u(13), 1 + u(18), 1 + u(30))` of a `SizeHeader`: the shortest form. */
function writeSide(w: BitWriter, side: number): void {
  const selector = U32_WIDTHS.findIndex((n) => side - 1 < 2 ** n);
  w.write(selector, 2).write(side - 1, U32_WIDTHS[selector] as number);
}

/**
 * A codestream's signature, `SizeHeader` and the start of `ImageMetadata`, written from the spec:
 * `small` sides (multiples of 8 up to 256) in 5 bits, else U32; the width by `ratio` (1-7) or its own;
 * `orientation` (1-8) with `extra_fields`, or `all_default`.
 */
function codestream(height: number, width: number | null, ratio: number, orientation = 1, small = false): Uint8Array {
  const w = new BitWriter()
    .write(0xff, 8)
    .write(0x0a, 8)
    .write(small ? 1 : 0, 1);
  if (small) w.write(height / 8 - 1, 5);
  else writeSide(w, height);
  w.write(ratio, 3);
  if (ratio === 0 && width !== null) {
    if (small) w.write(width / 8 - 1, 5);
    else writeSide(w, width);
  }
  if (orientation === 1) w.write(1, 1);
  else
    w.write(0, 1)
      .write(1, 1)
      .write(orientation - 1, 3);
  // What follows in a real file (the rest of ImageMetadata), so a reader may look ahead.
  w.write(0, 32);
  return w.bytes();
}

/** An ISO BMFF box: 32-bit size, type, content (`large`: size 1 then a 64-bit size). */
function box(type: string, content: Uint8Array, large = false): Uint8Array {
  const head = large ? 16 : 8;
  const out = new Uint8Array(head + content.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, large ? 1 : out.length);
  out.set(new TextEncoder().encode(type), 4);
  if (large) view.setBigUint64(8, BigInt(out.length));
  out.set(content, head);
  return out;
}

const join8 = (...parts: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

const SIGNATURE_BOX = Uint8Array.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]);
const FTYP = box('ftyp', new TextEncoder().encode('jxl \0\0\0\0jxl '));
const index = (n: number, last = false): Uint8Array => Uint8Array.from([last ? 0x80 : 0, 0, 0, n]);

describe('readJxlHeader: the size header, as the spec writes it', () => {
  it.each<{ name: string; bytes: Uint8Array; width: number; height: number; orientation?: number }>([
    { name: 'small sides (multiples of 8)', bytes: codestream(32, 48, 0, 1, true), width: 48, height: 32 },
    { name: 'small height, ratio 2:1', bytes: codestream(256, null, 7, 1, true), width: 512, height: 256 },
    { name: 'U32 sides, 9 bits', bytes: codestream(300, 451, 0), width: 451, height: 300 },
    { name: 'U32 sides, 13 and 18 bits', bytes: codestream(3000, 40000, 0), width: 40000, height: 3000 },
    { name: 'U32 side of 30 bits', bytes: codestream(2 ** 30, 1, 0), width: 1, height: 2 ** 30 },
    { name: 'ratio 1: square', bytes: codestream(777, null, 1), width: 777, height: 777 },
    { name: 'ratio 2: 12/10', bytes: codestream(1001, null, 2), width: 1201, height: 1001 },
    { name: 'ratio 3: 4/3', bytes: codestream(3000, null, 3), width: 4000, height: 3000 },
    { name: 'ratio 4: 3/2', bytes: codestream(1001, null, 4), width: 1501, height: 1001 },
    { name: 'ratio 5: 16/9', bytes: codestream(1080, null, 5), width: 1920, height: 1080 },
    { name: 'ratio 6: 5/4', bytes: codestream(1001, null, 6), width: 1251, height: 1001 },
    { name: 'ratio 7: 2/1', bytes: codestream(1001, null, 7), width: 2002, height: 1001 },
    { name: 'orientation 6', bytes: codestream(300, 451, 0, 6), width: 451, height: 300, orientation: 6 },
    { name: 'orientation 8', bytes: codestream(300, 451, 0, 8), width: 451, height: 300, orientation: 8 },
    {
      name: 'the container, one jxlc box',
      bytes: join8(SIGNATURE_BOX, FTYP, box('jxlc', codestream(300, 451, 0, 3))),
      width: 451,
      height: 300,
      orientation: 3,
    },
    {
      name: 'the container, the header split over two jxlp boxes, an Exif box between',
      bytes: (() => {
        const c = codestream(3000, 4000, 0, 5);
        return join8(
          SIGNATURE_BOX,
          FTYP,
          box('jxlp', join8(index(0), c.subarray(0, 3))),
          box('Exif', new Uint8Array(10)),
          box('jxlp', join8(index(1, true), c.subarray(3))),
        );
      })(),
      width: 4000,
      height: 3000,
      orientation: 5,
    },
    {
      name: 'the container, a box with a 64-bit size',
      bytes: join8(SIGNATURE_BOX, FTYP, box('xml ', new Uint8Array(5), true), box('jxlc', codestream(64, 80, 0))),
      width: 80,
      height: 64,
    },
  ])('$name: $width x $height', ({ bytes, width, height, orientation = 1 }) => {
    expect(isJxl(bytes)).toBe(true);
    expect(sniffPeerFormat(bytes)).toBe('jxl');
    expect(sniffFormat(bytes)).toBeNull();
    expect(readJxlHeader(bytes)).toMatchObject({ width, height, orientation });
  });

  it('any size and orientation written is the one read (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 2 ** 30 }),
        fc.integer({ min: 1, max: 8 }),
        (height, width, orientation) => {
          expect(readJxlHeader(codestream(height, width, 0, orientation))).toEqual({
            width,
            height,
            orientation,
            container: false,
          });
        },
      ),
    );
  });

  it.each<{ name: string; bytes: Uint8Array; kind: 'truncated' | 'corrupt'; message: RegExp }>([
    { name: 'the signature alone', bytes: Uint8Array.from([0xff, 0x0a]), kind: 'truncated', message: /size header/ },
    {
      name: 'cut inside a 30-bit side',
      bytes: codestream(2 ** 30, 5, 0).subarray(0, 5),
      kind: 'truncated',
      message: /size header/,
    },
    {
      name: 'the container without a codestream box',
      bytes: join8(SIGNATURE_BOX, FTYP),
      kind: 'truncated',
      message: /no codestream/,
    },
    {
      name: 'a box of 4 bytes',
      bytes: join8(SIGNATURE_BOX, Uint8Array.from([0, 0, 0, 4, 0x6a, 0x78, 0x6c, 0x63])),
      kind: 'corrupt',
      message: /'jxlc' box of 4 bytes/,
    },
    {
      name: 'a jxlc box that is not a codestream',
      bytes: join8(SIGNATURE_BOX, box('jxlc', Uint8Array.from([0xff, 0xd8, 0xff, 0xe0]))),
      kind: 'corrupt',
      message: /does not start with FF 0A/,
    },
    {
      name: 'cut inside a box header',
      bytes: join8(SIGNATURE_BOX, Uint8Array.from([0, 0, 0])),
      kind: 'truncated',
      message: /box header/,
    },
  ])('$name: $kind', ({ bytes, kind, message }) => {
    const error = (() => {
      try {
        readJxlHeader(bytes);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(JxlHeaderError);
    expect((error as JxlHeaderError).kind).toBe(kind);
    expect((error as JxlHeaderError).message).toMatch(message);
  });

  it('any bytes after a signature: a header or a JxlHeaderError, never another throw (fuzzed)', () => {
    fc.assert(
      fc.property(fc.boolean(), fc.uint8Array({ maxLength: 200 }), (container, rest) => {
        const bytes = join8(container ? SIGNATURE_BOX : Uint8Array.from([0xff, 0x0a]), rest);
        try {
          const h = readJxlHeader(bytes);
          expect(h.width).toBeGreaterThanOrEqual(1);
          expect(h.height).toBeGreaterThanOrEqual(1);
        } catch (e) {
          expect(e).toBeInstanceOf(JxlHeaderError);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

const FILES: readonly { name: string; width: number; height: number; lossless: boolean; orientation?: number }[] = [
  { name: 'chelsea.jxl', width: 48, height: 32, lossless: false },
  { name: 'chelsea-container.jxl', width: 48, height: 32, lossless: false },
  { name: 'chelsea-lossless.jxl', width: 48, height: 32, lossless: true },
  { name: 'chelsea-gamma22.jxl', width: 48, height: 32, lossless: true },
  { name: 'chelsea-alpha.jxl', width: 48, height: 32, lossless: true },
  { name: 'chelsea-16bit.jxl', width: 48, height: 32, lossless: true },
  { name: 'camera-grey.jxl', width: 40, height: 40, lossless: true },
  { name: 'chelsea-orientation-6.jxl', width: 48, height: 32, lossless: false, orientation: 6 },
  { name: 'chelsea-animated.jxl', width: 24, height: 16, lossless: true },
];

describe('the committed files', () => {
  it('are every file in the folder', () => {
    expect(
      readdirSync(DIR)
        .filter((f) => f.endsWith('.jxl'))
        .sort(),
    ).toEqual(FILES.map((f) => f.name).sort());
  });

  it.each(FILES)('$name: the size header says $width x $height', ({ name, width, height, orientation = 1 }) => {
    expect(readJxlHeader(fixture(name))).toMatchObject({ width, height, orientation });
  });
});

/** djxl's picture of a file as RGBA8 (through its PNG, read by termsight's PNG decoder as stored, 16 bits to 8). */
function djxlRgba(name: string): { width: number; height: number; data: Uint8Array } {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-djxl-'));
  try {
    const out = join(dir, 'out.png');
    // Its own bit depth (Debian 12's djxl 0.7 writes noise into a PNG of --bits_per_sample=8 from 16 bits).
    const run = spawnSync('djxl', [join(DIR, name), out], { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`djxl failed: ${run.stderr}`);
    const png = decodeImage(readFileSync(out), { colour: 'keep' });
    const raster = png.frames[0]?.raster;
    if (!raster) throw new Error('no frame');
    return { width: raster.width, height: raster.height, data: raster.data };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PSNR (dB) over the RGBA channels of two pictures of one size; Infinity when equal. */
function psnr(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += ((a[i] as number) - (b[i] as number)) ** 2;
  return sum === 0 ? Number.POSITIVE_INFINITY : 10 * Math.log10((255 * 255) / (sum / a.length));
}

function maxDifference(a: Uint8Array, b: Uint8Array): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] as number) - (b[i] as number)));
  return max;
}

describe.runIf(hasWasmVips)('decodeImageLoading through wasm-vips', () => {
  describe.runIf(hasDjxl || process.env.CI === 'true')('against djxl', () => {
    it('djxl is installed (libjxl-tools)', () => expect(hasDjxl).toBe(true));

    it.each(FILES)(
      '$name: djxl’s pixels (lossless: within 1 of 255; lossy: above 40 dB)',
      async ({ name, lossless }) => {
        const ours = await decodeImageLoading(fixture(name), { colour: 'keep' });
        const ref = djxlRgba(name);
        expect([ours.width, ours.height]).toEqual([ref.width, ref.height]);
        const data = (ours.frames[0]?.raster.data ?? new Uint8Array()) as Uint8Array;
        // 16 bits to 8: libjxl rounds, libvips shifts; the other lossless files are exact.
        if (lossless) expect(maxDifference(data, ref.data)).toBeLessThanOrEqual(name.includes('16bit') ? 1 : 0);
        else expect(psnr(data, ref.data)).toBeGreaterThan(40);
      },
    );
  });

  it('a JPEG XL is what it says: format, sizes, one frame', async () => {
    const image = await decodeImageLoading(fixture('chelsea.jxl'));
    expect(image).toMatchObject({
      format: 'jxl',
      width: 48,
      height: 32,
      sourceWidth: 48,
      sourceHeight: 32,
      frameCount: 1,
    });
    expect(image.orientation).toBe(1);
  });

  it.each(FILES.map((f) => ({ name: f.name })).filter((f) => f.name !== 'chelsea-gamma22.jxl'))(
    '$name: sRGB (libjxl’s own profile of it), drawn as stored',
    async ({ name }) => {
      const image = await decodeImageLoading(fixture(name));
      expect(image.colour.applied).toBe('as-is');
      expect(image.colour.why).toMatch(/equal to sRGB/);
    },
  );

  it('gamma 2.2 declared: converted to sRGB through colour.ts (darker mid-tones), kept with colour: keep', async () => {
    const converted = await decodeImageLoading(fixture('chelsea-gamma22.jxl'));
    const kept = await decodeImageLoading(fixture('chelsea-gamma22.jxl'), { colour: 'keep' });
    expect(converted.colour).toMatchObject({ applied: 'converted' });
    expect(converted.colour.why).toMatch(
      /^ICC profile "RGB_D65_SRG_Per_g0\.45455" \(matrix\/TRC\): converted to sRGB$/,
    );
    expect(kept.colour.applied).toBe('unconverted');
    // Gamma 2.2 against sRGB's curve: the same ends, mid-tones apart by a few levels.
    const a = converted.frames[0]?.raster.data ?? new Uint8Array();
    const b = kept.frames[0]?.raster.data ?? new Uint8Array();
    expect(maxDifference(a, b)).toBeGreaterThan(1);
    expect(maxDifference(a, b)).toBeLessThan(12);
  });

  it('the container and the bare codestream of one encode give one picture', async () => {
    const a = await decodeImageLoading(fixture('chelsea.jxl'));
    const b = await decodeImageLoading(fixture('chelsea-container.jxl'));
    expect(Buffer.from(b.frames[0]?.raster.data ?? []).equals(Buffer.from(a.frames[0]?.raster.data ?? []))).toBe(true);
  });

  it('orientation 6: turned upright (32x48); orientation: ignore gives the stored picture, which turned is the same', async () => {
    const upright = await decodeImageLoading(fixture('chelsea-orientation-6.jxl'));
    const stored = await decodeImageLoading(fixture('chelsea-orientation-6.jxl'), { orientation: 'ignore' });
    expect([upright.width, upright.height, upright.orientation]).toEqual([32, 48, 6]);
    expect([stored.width, stored.height]).toEqual([48, 32]);
    const turned = orient(stored.frames[0]?.raster as never, 6);
    expect(Buffer.from(turned.data).equals(Buffer.from(upright.frames[0]?.raster.data ?? []))).toBe(true);
  });

  it('an animation: its first frame (djxl’s first, above), and how many it has', async () => {
    const image = await decodeImageLoading(fixture('chelsea-animated.jxl'));
    expect([image.frameCount, image.frames.length]).toEqual([2, 1]);
  });

  it('alpha kept; grey spread to RGB', async () => {
    const alpha = (await decodeImageLoading(fixture('chelsea-alpha.jxl'))).frames[0]?.raster.data ?? new Uint8Array();
    const alphas = new Set([...alpha].filter((_, i) => i % 4 === 3));
    expect(alphas.size).toBeGreaterThan(20);
    const grey = (await decodeImageLoading(fixture('camera-grey.jxl'))).frames[0]?.raster.data ?? new Uint8Array();
    for (let i = 0; i < grey.length; i += 4) {
      expect(grey[i + 1]).toBe(grey[i]);
      expect(grey[i + 2]).toBe(grey[i]);
      expect(grey[i + 3]).toBe(255);
    }
  });

  it('maxSize: shrunk by the whole factor that still covers the box, each pixel its block’s mean', async () => {
    const full = (await decodeImageLoading(fixture('chelsea-lossless.jxl'))).frames[0]?.raster;
    const small = await decodeImageLoading(fixture('chelsea-lossless.jxl'), { maxSize: { width: 20, height: 10 } });
    expect([small.width, small.height, small.sourceWidth]).toEqual([24, 16, 48]);
    const data = small.frames[0]?.raster.data ?? new Uint8Array();
    let worst = 0;
    for (let y = 0; y < 16; y++)
      for (let x = 0; x < 24; x++)
        for (let c = 0; c < 3; c++) {
          let sum = 0;
          for (const [dx, dy] of [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
          ] as const)
            sum += full?.data[((2 * y + dy) * 48 + 2 * x + dx) * 4 + c] as number;
          worst = Math.max(worst, Math.abs(sum / 4 - (data[(y * 24 + x) * 4 + c] as number)));
        }
    expect(worst).toBeLessThanOrEqual(1);
  });

  it.runIf(spawnSync('cjxl', ['--version']).status === 0)(
    'maxSize: a wholly transparent block is 0, 0, 0, 0 whatever colour its pixels keep (cjxl -d 0 keeps it)',
    async () => {
      // 8x8: the top-left 4x4 block transparent orange, the rest opaque blue.
      const data = new Uint8Array(8 * 8 * 4);
      for (let y = 0; y < 8; y++)
        for (let x = 0; x < 8; x++) data.set(x < 4 && y < 4 ? [200, 100, 50, 0] : [10, 20, 250, 255], (y * 8 + x) * 4);
      const dir = mkdtempSync(join(tmpdir(), 'termsight-jxl-'));
      try {
        writeFileSync(join(dir, 'in.png'), encodePng({ width: 8, height: 8, data }));
        const made = spawnSync('cjxl', [join(dir, 'in.png'), join(dir, 'out.jxl'), '-d', '0', '--keep_invisible=1']);
        expect(made.status, String(made.stderr)).toBe(0);
        const bytes = new Uint8Array(readFileSync(join(dir, 'out.jxl')));
        const full = await decodeImageLoading(bytes, { colour: 'keep' });
        // So the rule has something to hide: the transparent pixels decode with their colour.
        expect([...(full.frames[0]?.raster.data.subarray(0, 4) ?? [])]).toEqual([200, 100, 50, 0]);
        const small = await decodeImageLoading(bytes, { colour: 'keep', maxSize: { width: 2, height: 2 } });
        expect([...(small.frames[0]?.raster.data ?? [])]).toEqual([
          0, 0, 0, 0, 10, 20, 250, 255, 10, 20, 250, 255, 10, 20, 250, 255,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it('maxSize with alpha: block-average.ts’s rule (colour weighted by alpha, a wholly transparent block 0, 0, 0, 0)', async () => {
    const options = { colour: 'keep' } as const;
    const full = (await decodeImageLoading(fixture('chelsea-alpha.jxl'), options)).frames[0]?.raster;
    const small = await decodeImageLoading(fixture('chelsea-alpha.jxl'), {
      ...options,
      maxSize: { width: 12, height: 8 },
    });
    expect([small.width, small.height]).toEqual([12, 8]);
    const shape = { width: 48, height: 32, bands: 4, stride: 48 * 4, scale: 1 };
    expect([...(small.frames[0]?.raster.data ?? [])]).toEqual(blockMeans(full?.data ?? [], shape, 4));
  });

  it('broken files: a DecodeError (truncated or corrupt), never another throw (every cut, fuzzed bytes)', async () => {
    const whole = fixture('chelsea-lossless.jxl');
    for (let cut = 0; cut < whole.length; cut += 97) {
      const error = await decodeImageLoading(whole.subarray(0, cut)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DecodeError);
      expect(['truncated', 'corrupt']).toContain((error as DecodeError).failure);
      expect((error as DecodeError).message).not.toMatch(/\n|object/);
    }
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 16, max: whole.length - 1 }),
        fc.integer({ min: 0, max: 255 }),
        async (at, value) => {
          const bytes = whole.slice();
          bytes[at] = value;
          const result = await decodeImageLoading(bytes).catch((e: unknown) => e);
          if (result instanceof Error) expect(result).toBeInstanceOf(DecodeError);
          else expect(result).toMatchObject({ format: 'jxl' });
        },
      ),
      { numRuns: 60 },
    );
  });
});

describe('the limits, from the size header, before a decoder', () => {
  it.each([
    { name: '100000 x 100000', bytes: codestream(100_000, 100_000, 0), limits: {} },
    { name: 'a real file past a limit of 1000 pixels', bytes: fixture('chelsea.jxl'), limits: { maxPixels: 1000 } },
  ])('$name: too-large', async ({ bytes, limits }) => {
    const error = await decodeImageLoading(bytes, { limits }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).failure).toBe('too-large');
    expect((error as DecodeError).message).toMatch(/^JPEG XL image too large to decode safely/);
  });

  it('decodeImage (synchronous) names the packages and decodeImageLoading', () => {
    expect(() => decodeImage(fixture('chelsea.jxl'))).toThrow(
      /^JPEG XL images are decoded through the optional package wasm-vips or sharp, by decodeImageLoading/,
    );
  });
});

describe.runIf(existsSync(CLI))('termsight show x.jxl (the built CLI)', () => {
  const FILE = join(DIR, 'chelsea.jxl');
  describe.runIf(hasWasmVips)('with wasm-vips', () => {
    it.each([
      { name: 'kitty', protocol: 'kitty', sequence: /\x1b_G[^\x1b]*a=[tT]/, missing: [] },
      { name: 'sixel', protocol: 'sixel', sequence: /\x1bP[0-9;]*q"/, missing: [] },
      { name: 'symbols', protocol: 'symbols', sequence: /\x1b\[[0-9;]*[34]8;5;\d+m[\u2580-\u259f]/, missing: [] },
      { name: 'blocks, sharp missing', protocol: 'blocks', sequence: /\x1b\[[0-9;]*[34]8;5;/, missing: ['sharp'] },
    ])('$name: drawn, exit 0', ({ protocol, sequence, missing }) => {
      const run = showWithout(FILE, missing, protocol);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(sequence);
    });

    it('kitty: the pixels sent are wasm-vips’s decode of the file, as decodeImageLoading gives them', async () => {
      const run = showWithout(FILE, [], 'kitty');
      expect(run.status).toBe(0);
      const { inflateSync } = await import('node:zlib');
      const chunks = [...run.stdout.matchAll(/\x1b_G([^;\x1b]*);([^\x1b]*)\x1b\\/g)];
      const keys = Object.fromEntries((chunks[0]?.[1] ?? '').split(',').map((kv) => kv.split('=')));
      const payload = Buffer.from(chunks.map((c) => c[2]).join(''), 'base64');
      const sent = keys.o === 'z' ? inflateSync(payload) : payload;
      expect([keys.s, keys.v, keys.f]).toEqual(['48', '32', '24']);
      const ours = (await decodeImageLoading(fixture('chelsea.jxl'))).frames[0]?.raster.data ?? new Uint8Array();
      const rgb = Uint8Array.from(ours.filter((_, i) => i % 4 !== 3));
      expect(Buffer.from(sent).equals(Buffer.from(rgb))).toBe(true);
    });
  });

  it.each([
    { name: 'without wasm-vips (sharp’s prebuilt has no JPEG XL)', missing: ['wasm-vips'] },
    { name: 'without either', missing: ['wasm-vips', 'sharp'] },
  ])('$name: one line naming the package, exit 2', ({ missing }) => {
    const run = showWithout(FILE, missing);
    expect(run.stderr).toBe(`termsight: ${FILE}: ${JXL_MISSING}\n`);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
  });

  it('a hostile JPEG XL (100000x100000 in 12 bytes): one line, exit 2, in bounded memory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-jxl-bomb-'));
    try {
      const file = join(dir, 'bomb.jxl');
      writeFileSync(file, codestream(100_000, 100_000, 0));
      const run = showWithout(file, []);
      expect(run.stderr).toMatch(/^termsight: .*bomb\.jxl: JPEG XL image too large to decode safely: 100000x100000 \(/);
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.status).toBe(2);
      expect(run.rssMiB).toBeLessThan(160);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.runIf(hasWasmVips)(
    'under node --input-type=module -e: refused with its reason, not a wait for threads that never start',
    () => {
      const script = `const { decodeImageLoading } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/decode/load.js')).href)});
const { readFileSync } = await import('node:fs');
const error = await decodeImageLoading(readFileSync(${JSON.stringify(FILE)})).catch((e) => e);
console.log(error.failure, error.message);`;
      const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(
        /^unsupported JPEG XL images cannot be decoded by wasm-vips in a Node started with --input-type/,
      );
    },
  );

  it.runIf(hasWasmVips)('a broken JPEG XL (cut in half): one line, exit 2', () => {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-jxl-cut-'));
    try {
      const file = join(dir, 'cut.jxl');
      const whole = fixture('chelsea-lossless.jxl');
      writeFileSync(file, whole.subarray(0, whole.length >> 1));
      const run = showWithout(file, []);
      expect(run.stderr).toMatch(/^termsight: .*cut\.jxl: corrupt JPEG XL: \S/);
      expect(run.stderr.split('\n')).toHaveLength(2);
      expect(run.status).toBe(2);
      expect(run.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
