/**
 * The formats decoded through the optional peer sharp: which signatures go there, what sharp
 * gives back (an AVIF, a TIFF and an SVG shown; HEIC, which sharp's prebuilt libvips cannot
 * decode, goes to libheif-js: heic.test.ts), and both paths of the CLI: with sharp the picture is
 * drawn; without it (its resolution made to fail by a loader hook, as a missing package fails)
 * one line naming the format and the package, exit 2.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readHeifPrimary } from '../../src/decode/heif-boxes.js';
import { DecodeError, decodeImage } from '../../src/decode/index.js';
import { decodeImageLoading } from '../../src/decode/load.js';
import { sniffFormat, sniffPeerFormat } from '../../src/decode/sniff.js';

const ROOT = join(import.meta.dirname, '../..');
const PEER = join(ROOT, 'test/fixtures/images/peer');
const file = (name: string): Uint8Array => new Uint8Array(readFileSync(join(PEER, name)));
const text = (s: string): Uint8Array => new TextEncoder().encode(s);
const ftyp = (major: string, ...compatible: string[]): Uint8Array => {
  const brands = [major, '\0\0\0\0', ...compatible].join('');
  const size = 8 + brands.length;
  return Uint8Array.from([0, 0, 0, size, ...text(`ftyp${brands}`), 0, 0, 0, 8]);
};

describe('which files go to sharp (by signature)', () => {
  it.each<{ name: string; bytes: Uint8Array; format: string | null }>([
    { name: 'AVIF (major brand avif)', bytes: ftyp('avif', 'mif1', 'miaf'), format: 'avif' },
    { name: 'AVIF sequence (avis)', bytes: ftyp('avis', 'msf1'), format: 'avif' },
    { name: 'AVIF listed only as compatible (major mif1)', bytes: ftyp('mif1', 'avif'), format: 'avif' },
    { name: 'HEIC (its boxes missing: by its brand)', bytes: ftyp('heic', 'mif1', 'heic'), format: 'heic' },
    { name: 'HEIF (mif1 alone)', bytes: ftyp('mif1', 'mif1'), format: 'heif' },
    { name: 'an MP4 (isom) is no picture', bytes: ftyp('isom', 'mp41'), format: null },
    { name: 'TIFF little-endian', bytes: Uint8Array.from([0x49, 0x49, 0x2a, 0, 8, 0, 0, 0]), format: 'tiff' },
    { name: 'TIFF big-endian', bytes: Uint8Array.from([0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8]), format: 'tiff' },
    { name: 'JPEG XL codestream', bytes: Uint8Array.from([0xff, 0x0a, 0xfa, 0x1f]), format: 'jxl' },
    {
      name: 'JPEG XL container',
      bytes: Uint8Array.from([0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]),
      format: 'jxl',
    },
    { name: 'SVG', bytes: text('<svg xmlns="http://www.w3.org/2000/svg"/>'), format: 'svg' },
    {
      name: 'SVG after a declaration, a comment and a doctype',
      bytes: text('<?xml version="1.0"?>\n<!-- x -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x">\n<svg>'),
      format: 'svg',
    },
    { name: 'HTML is not SVG', bytes: text('<html><svg></svg></html>'), format: null },
    {
      name: 'a PNG is termsight’s own',
      bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      format: null,
    },
  ])('$name: $format', ({ bytes, format }) => {
    expect(sniffPeerFormat(bytes, readHeifPrimary)).toBe(format);
    if (format) expect(sniffFormat(bytes)).toBeNull();
  });
});

const hasSharp = (() => {
  try {
    return existsSync(join(ROOT, 'node_modules/sharp/package.json'));
  } catch {
    return false;
  }
})();

/** Mean absolute difference of the RGB channels of two rasters of one size. */
function meanDifference(a: Uint8Array, b: Uint8Array): number {
  let sum = 0;
  let n = 0;
  for (let i = 0; i < a.length; i++) {
    if (i % 4 === 3) continue;
    sum += Math.abs((a[i] as number) - (b[i] as number));
    n++;
  }
  return sum / n;
}

describe.runIf(hasSharp)('with sharp installed (the dev dependency)', () => {
  it('an AVIF is decoded: the same picture as the lossless TIFF of it, within its compression', async () => {
    const avif = await decodeImageLoading(file('chelsea.avif'));
    const tiff = await decodeImageLoading(file('chelsea.tiff'));
    expect(avif).toMatchObject({ format: 'avif', width: 48, height: 32, sourceWidth: 48, frameCount: 1 });
    expect(tiff).toMatchObject({ format: 'tiff', width: 48, height: 32 });
    const a = avif.frames[0]?.raster.data as Uint8Array;
    const t = tiff.frames[0]?.raster.data as Uint8Array;
    expect(a.length).toBe(48 * 32 * 4);
    expect(meanDifference(a, t)).toBeLessThan(12);
    // Not a flat or empty picture: the cat has contrast.
    expect(Math.max(...t) - Math.min(...t.filter((_, i) => i % 4 !== 3))).toBeGreaterThan(100);
  });

  it('maxSize: shrunk to cover the box, aspect kept', async () => {
    const image = await decodeImageLoading(file('chelsea.tiff'), { maxSize: { width: 12, height: 6 } });
    expect([image.width, image.height]).toEqual([12, 8]);
    expect([image.sourceWidth, image.sourceHeight]).toEqual([48, 32]);
  });

  it('an SVG is rendered at the size it is drawn: a red disc on white', async () => {
    const image = await decodeImageLoading(file('circle.svg'), { maxSize: { width: 160, height: 120 } });
    expect([image.width, image.height]).toEqual([160, 120]);
    const px = (x: number, y: number): number[] => [
      ...(image.frames[0]?.raster.data ?? []).subarray((y * 160 + x) * 4, (y * 160 + x) * 4 + 4),
    ];
    expect(px(80, 60)).toEqual([255, 0, 0, 255]);
    expect(px(2, 2)).toEqual([255, 255, 255, 255]);
  });

  it('an SVG that names a local file: the file is not loaded (librsvg has no base location for bytes)', async () => {
    const png = join(ROOT, 'test/fixtures/images/chelsea.png');
    const svg = text(
      `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20" fill="#000"/><image href="${pathToFileURL(png).href}" width="20" height="20"/><image href="${png}" width="20" height="20"/></svg>`,
    );
    const data = (await decodeImageLoading(svg)).frames[0]?.raster.data as Uint8Array;
    expect(data.filter((v, i) => i % 4 !== 3 && v !== 0)).toHaveLength(0);
  });

  it.each<{ name: string; bytes: () => Uint8Array; failure: string; message: RegExp }>([
    {
      name: 'a cut TIFF',
      bytes: () => file('chelsea.tiff').subarray(0, 200),
      failure: 'corrupt',
      message: /^corrupt TIFF: /,
    },
    {
      name: 'an SVG past the pixel limit',
      bytes: () => text('<svg xmlns="http://www.w3.org/2000/svg" width="40000" height="40000"/>'),
      failure: 'too-large',
      message: /SVG image too large to decode safely/,
    },
  ])('$name: one DecodeError ($failure)', async ({ bytes, failure, message }) => {
    const error = await decodeImageLoading(bytes()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DecodeError);
    expect((error as DecodeError).failure).toBe(failure);
    expect((error as DecodeError).message).toMatch(message);
    expect((error as DecodeError).message).not.toMatch(/\n/);
  });
});

it('decodeImage (synchronous) names decodeImageLoading for a peer format', () => {
  expect(() => decodeImage(file('chelsea.avif'))).toThrow(
    'AVIF images are decoded through the optional package sharp, by decodeImageLoading (asynchronous)',
  );
});

const CLI = join(ROOT, 'dist/cli/main.js');

const RESOLVE_HOOK = pathToFileURL(join(ROOT, 'test/support/resolve-hook.mjs')).href;

function show(name: string, withoutSharp: boolean): { status: number | null; stdout: string; stderr: string } {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-sharp-'));
  try {
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { missingPackages } from ${JSON.stringify(RESOLVE_HOOK)};\nawait missingPackages(['sharp']);\n`,
    );
    const run = spawnSync(
      process.execPath,
      [
        ...(withoutSharp ? ['--import', pathToFileURL(register).href] : []),
        CLI,
        'show',
        join(PEER, name),
        '--no-probe',
        '--protocol',
        'blocks',
        '--width',
        '24',
      ],
      { cwd: PEER, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color' }, timeout: 60_000 },
    );
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.runIf(existsSync(CLI))('termsight show, both paths (the built CLI)', () => {
  it.runIf(hasSharp)('with sharp: an AVIF is drawn, exit 0', () => {
    const run = show('chelsea.avif', false);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout.split('\n').filter((l) => l.includes('\x1b[')).length).toBeGreaterThanOrEqual(4);
  });
  it.each([
    { name: 'an AVIF', file: 'chelsea.avif', format: 'AVIF' },
    { name: 'a TIFF', file: 'chelsea.tiff', format: 'TIFF' },
    { name: 'an SVG', file: 'circle.svg', format: 'SVG' },
  ])('without sharp: $name gives one line naming the format and the package, exit 2', ({ file, format }) => {
    const run = show(file, true);
    expect(run.stderr).toBe(
      `termsight: ${join(PEER, file)}: ${format} images need the optional package sharp: npm install sharp\n`,
    );
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
  });
});
