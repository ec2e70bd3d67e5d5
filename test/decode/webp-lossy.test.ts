/**
 * Lossy WebP (VP8, src/decode/webp-vp8.ts) through the container: pixels against libwebp. The
 * bar: within 45 dB PSNR of dwebp for the colour,
 * the ALPH alpha exact, and animated lossy frames as libwebp's WebPAnimDecoder composites them
 * (hashes in test/fixtures/images/webp/reference.json, compared here within the same PSNR).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { psnr } from './jpeg-helpers.js';
import { animReference } from './support/webp-reference.js';

const DIR = new URL('../fixtures/images/webp/', import.meta.url).pathname;
const reference: Record<string, { sha256?: string; alphaSha256?: string; frames?: { sha256: string }[] }> = JSON.parse(
  readFileSync(join(DIR, 'reference.json'), 'utf8'),
);
const lossy = readdirSync(DIR).filter((f) => f.startsWith('lossy') && f.endsWith('.webp'));
const hasDwebp = spawnSync('dwebp', ['-version']).status === 0;
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const read = (name: string) => new Uint8Array(readFileSync(join(DIR, name)));

function dwebpRgba(name: string): Uint8Array {
  const out = execFileSync('dwebp', ['-quiet', '-pam', join(DIR, name), '-o', '-'], { maxBuffer: 1 << 28 });
  return new Uint8Array(out.subarray(out.indexOf('ENDHDR\n') + 7));
}

describe('lossy (VP8) and VP8 + ALPH', () => {
  it.each(lossy.map((name) => ({ name })))('$name: alpha exact, colour within 45 dB of dwebp', ({ name }) => {
    const ours = decodeImage(read(name), { orientation: 'ignore' }).frames[0]!.raster.data;
    const alpha = ours.filter((_, i) => i % 4 === 3);
    if (reference[name]!.alphaSha256) expect(sha(alpha)).toBe(reference[name]!.alphaSha256);
    else expect(alpha.every((a) => a === 255)).toBe(true);
    if (sha(ours) === reference[name]!.sha256) return; // bit-exact
    if (!hasDwebp) throw new Error('not bit-exact, and dwebp is not installed to measure how close');
    expect(psnr(ours, dwebpRgba(name))).toBeGreaterThanOrEqual(45);
  });
});

describe('animated lossy frames', () => {
  const libwebpAnim = animReference(afterAll);
  it('anim-coffee-lossy.webp: every frame bit-exact, or within 45 dB of libwebp’s WebPAnimDecoder', () => {
    const name = 'anim-coffee-lossy.webp';
    const image = decodeImage(read(name), { frames: 'all' });
    const ref = reference[name]!.frames!;
    expect(image.frames.length).toBe(ref.length);
    if (image.frames.every((f, i) => sha(f.raster.data) === ref[i]!.sha256)) return;
    if (!libwebpAnim) throw new Error('not bit-exact, and gcc or libwebpdemux is missing to measure how close');
    const theirs = libwebpAnim(join(DIR, name)).frames;
    for (const [i, f] of image.frames.entries()) expect(psnr(f.raster.data, theirs[i]!)).toBeGreaterThanOrEqual(45);
  });
});
