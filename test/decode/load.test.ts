/**
 * `decodeImageLoading` (the CLI's decoder) against `decodeImage`: the same pictures and the same
 * failures, and in a fresh process only the decoder of the file's format is loaded.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { DecodeError } from '../../src/decode/error.js';
import type { DecodedImage, DecodeOptions } from '../../src/decode/image.js';
import { decodeImage } from '../../src/decode/index.js';
import { decodeImageLoading } from '../../src/decode/load.js';
import { gifCorpus, jpegCorpus, pngCorpus } from './corpus.js';
import { bmpFile, pnmFile } from './support/simple-files.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const photo = readFileSync(join(root, 'test/fixtures/images/hubble_deep_field.jpg'));
const png = readFileSync(join(root, 'test/fixtures/images/astronaut.png'));
const webp = readFileSync(join(root, 'test/fixtures/images/webp/lossless-z9.webp'));
const animatedWebp = readFileSync(join(root, 'test/fixtures/images/webp/anim-mux-1.webp'));
const bmp = bmpFile({ width: 7, height: 5, bits: 24 });
const pnm = pnmFile({ kind: 6, width: 7, height: 5, comment: true });
// For the fresh processes below, which read a file.
const scratch = mkdtempSync(join(tmpdir(), 'termsight-load-'));
const bmpPath = join(scratch, 'small.bmp');
const pnmPath = join(scratch, 'small.ppm');
writeFileSync(bmpPath, bmp);
writeFileSync(pnmPath, pnm);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FILES: readonly { name: string; bytes: Uint8Array; options: DecodeOptions }[] = [
  { name: 'a PNG', bytes: png, options: {} },
  { name: 'a JPEG at a box', bytes: photo, options: { maxSize: { width: 100, height: 80 } } },
  { name: 'a JPEG kept as stored', bytes: photo, options: { orientation: 'ignore' } },
  {
    name: 'an animated GIF, first frame',
    bytes: gifCorpus()[1]?.bytes ?? new Uint8Array(),
    options: { frames: 'first' },
  },
  { name: 'an animated GIF, all frames', bytes: gifCorpus()[1]?.bytes ?? new Uint8Array(), options: {} },
  { name: 'a lossless WebP', bytes: webp, options: {} },
  { name: 'an animated WebP, all frames', bytes: animatedWebp, options: {} },
  { name: 'an animated WebP, first frame', bytes: animatedWebp, options: { frames: 'first' } },
  { name: 'a BMP', bytes: bmp, options: {} },
  { name: 'a PNM', bytes: pnm, options: {} },
  ...pngCorpus()
    .slice(0, 4)
    .map((c) => ({ name: `corpus ${c.name}`, bytes: c.bytes, options: {} })),
  ...jpegCorpus()
    .slice(0, 4)
    .map((c) => ({ name: `corpus ${c.name}`, bytes: c.bytes, options: {} })),
];

/** A decoded image with each frame's pixels as a SHA-256 (deep equality of megabytes is slow). */
function digest(image: DecodedImage): unknown {
  const frames = image.frames.map(({ raster, delayMs }) => ({
    delayMs,
    width: raster.width,
    height: raster.height,
    sha256: createHash('sha256').update(raster.data).digest('hex'),
  }));
  return { ...image, frames };
}

describe('decodeImageLoading', () => {
  it.each(FILES)('decodes $name as decodeImage does', async ({ bytes, options }) => {
    expect(digest(await decodeImageLoading(bytes, options))).toEqual(digest(decodeImage(bytes, options)));
  });

  const BAD: readonly { name: string; bytes: Uint8Array; options?: DecodeOptions }[] = [
    { name: 'empty', bytes: new Uint8Array() },
    { name: 'a WebP cut short', bytes: new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 ') },
    { name: 'a WebP whose lossless data ends early', bytes: webp.subarray(0, webp.length - 100) },
    { name: 'text', bytes: new TextEncoder().encode('hello, world') },
    { name: 'a PNG over the limits', bytes: png, options: { limits: { maxPixels: 100 } } },
    { name: 'a truncated JPEG', bytes: photo.subarray(0, 2000) },
    { name: 'a truncated PNG', bytes: png.subarray(0, 200) },
    // Their size is read by a header reader load.ts loads for them alone.
    { name: 'a BMP over the limits', bytes: bmp, options: { limits: { maxPixels: 20 } } },
    { name: 'a BMP cut inside its DIB header', bytes: bmp.subarray(0, 30) },
    { name: 'a PNM over the limits', bytes: pnm, options: { limits: { maxPixels: 20 } } },
    { name: 'a PNM cut inside its header', bytes: pnm.subarray(0, 4) },
  ];
  it.each(BAD)('fails on $name with decodeImage’s DecodeError', async ({ bytes, options }) => {
    let expected: unknown;
    try {
      decodeImage(bytes, options);
    } catch (error) {
      expected = error;
    }
    expect(expected).toBeInstanceOf(DecodeError);
    const failure = await decodeImageLoading(bytes, options).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DecodeError);
    expect({ failure: (failure as DecodeError).failure, message: (failure as DecodeError).message }).toEqual({
      failure: (expected as DecodeError).failure,
      message: (expected as DecodeError).message,
    });
  });
});

/**
 * The decoder modules a fresh process loads to decode `file` with the built decodeImageLoading,
 * or to make ready for it with preloadDecoder.
 */
function decoderModulesFor(
  file: string,
  call: 'decodeImageLoading' | 'preloadDecoder' = 'decodeImageLoading',
): string[] {
  // Written synchronously: on Node 20 the hooks run on their own thread, whose buffered writes a
  // process that exits right after a dynamic import may never flush.
  const hook = {
    imports: "import { writeSync } from 'node:fs';",
    after: "(r) => { writeSync(2, 'LOADED ' + r.url + '\\n'); return r; }",
  };
  const script = `import { hookResolve } from ${JSON.stringify(pathToFileURL(join(root, 'test/support/resolve-hook.mjs')).href)};
import { readFileSync } from 'node:fs';
await hookResolve(${JSON.stringify(hook)});
const load = await import(${JSON.stringify(pathToFileURL(join(root, 'dist/decode/load.js')).href)});
await load.${call}(readFileSync(${JSON.stringify(file)}));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`decoding ${file} failed: ${run.stderr}`);
  // Resolved once per import, so a module imported twice is listed twice: keep each once.
  const lines = new Set(run.stderr.split('\n'));
  return [...lines]
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => l.slice(7))
    .filter((url) => /\/decode\/(jpeg|png|gif|webp|bmp|pnm|qoi|heif)[^/]*\.js$|omggif/.test(url))
    .map((url) => url.replace(/.*\/decode\//, '').replace(/.*omggif.*/, 'omggif'))
    .sort();
}

describe('what a one-shot process loads (the built package)', () => {
  it.each([
    {
      name: 'a PNG: the PNG decoder only',
      file: 'test/fixtures/images/astronaut.png',
      expected: [
        'png-chunks.js',
        'png-colour.js',
        'png-inflate.js',
        'png-pixels.js',
        'png-reduce.js',
        'png-unfilter.js',
        'png.js',
      ],
    },
    {
      name: 'a GIF: the GIF decoder only (its own LZW, no omggif)',
      file: 'test/fixtures/images/gif/coffee-optimized.gif',
      expected: ['gif-lzw.js', 'gif.js'],
    },
    {
      name: 'a WebP: the WebP decoder only',
      file: 'test/fixtures/images/webp/anim-mux-1.webp',
      // Every webp*.js module of the build (the lossy decoder's too) and nothing else.
      expected: readdirSync(join(root, 'dist/decode'))
        .filter((f) => /^webp.*\.js$/.test(f))
        .sort(),
    },
    {
      name: 'a JPEG: the JPEG decoder only',
      file: 'test/fixtures/images/hubble_deep_field.jpg',
      expected: [
        'jpeg-bits.js',
        'jpeg-color.js',
        // The WebAssembly decoder's drivers and loader (the module itself is a .wasm file).
        'jpeg-entropy-wasm.js',
        'jpeg-entropy.js',
        'jpeg-idct.js',
        'jpeg-progression.js',
        'jpeg-progressive-wasm.js',
        'jpeg-segments.js',
        'jpeg-wasm-load.js',
        'jpeg.js',
      ],
    },
    // The header readers of BMP and PNM too, and only for them (sniff.ts holds their magic); HEIF's
    // box reader (heif-boxes.js) for none of these.
    { name: 'a BMP: its header reader and decoder only', file: bmpPath, expected: ['bmp-header.js', 'bmp.js'] },
    { name: 'a PNM: its header reader and decoder only', file: pnmPath, expected: ['pnm-header.js', 'pnm.js'] },
  ])('$name', ({ file, expected }) => {
    expect(decoderModulesFor(resolve(root, file))).toEqual(expected);
    // What the CLI loads while the probe waits is exactly what the decode will need.
    expect(decoderModulesFor(resolve(root, file), 'preloadDecoder')).toEqual(expected);
  });

  it('preloadDecoder: a file no decoder takes loads none, and nothing is thrown', async () => {
    const { preloadDecoder } = await import('../../src/decode/load.js');
    await expect(preloadDecoder(Uint8Array.of(1, 2, 3))).resolves.toBeUndefined();
    await expect(preloadDecoder(new Uint8Array(0))).resolves.toBeUndefined();
  });
});
