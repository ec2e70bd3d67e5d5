/**
 * An ICC-tagged HEIC against lcms: a photo tagged with each RGB profile of the colour cases
 * (ImageMagick `-profile` writes a PNG's iCCP), made into a HEIC by libheif's own `heif-enc`
 * (x265, lossless 4:4:4, which copies the PNG's profile into a `colr` `prof` box: ImageMagick 6
 * writes no colour box), decoded by termsight through the optional peer libheif-js, against
 * ImageMagick's conversion of the tagged PNG to sRGB (`-profile sRGB.icc`, lcms inside).
 * Mean ΔE76 ≤ 1.5, as for PNG and JPEG (colour-magick.test.ts); drawn as stored (the profile
 * ignored) it is further off, so the test fails if the profile stops being applied.
 * Runs where heif-enc, ImageMagick and libheif-js are installed (CI installs all three).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { DecodeOptions } from '../../src/decode/index.js';
import { decodeImageLoading } from '../../src/decode/load.js';
import { COLOUR_CASES, deltaE76, SRGB_PROFILE } from './support/colour-cases.js';

const ROOT = join(import.meta.dirname, '../..');
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const ready = has('convert') && has('heif-enc') && existsSync(join(ROOT, 'node_modules/libheif-js/package.json'));
const dir = mkdtempSync(join(tmpdir(), 'termsight-heic-colour-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string, ...args: string[]): void {
  const r = spawnSync(command, args, { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${r.stderr}`);
}

async function rgbOf(bytes: Uint8Array, options: DecodeOptions = {}): Promise<Uint8Array> {
  const frame = (await decodeImageLoading(bytes, options)).frames[0];
  if (!frame) throw new Error('no frame');
  return frame.raster.data.filter((_, i) => i % 4 !== 3);
}

const RGB_CASES = COLOUR_CASES.filter((c) => !c.grey);

describe.runIf(ready)("ICC-tagged HEIC against ImageMagick's -profile conversion (mean ΔE76 ≤ 1.5)", () => {
  const srgb = join(dir, 'sRGB.icc');
  const photo = join(dir, 'chelsea.png');
  it.each(RGB_CASES.map((c, i) => ({ c, i, name: c.name })))(
    '$name',
    async ({ c, i }) => {
      if (!existsSync(photo)) {
        writeFileSync(srgb, SRGB_PROFILE());
        run('convert', join(ROOT, 'test/fixtures/images/chelsea.png'), '-resize', '224x150!', photo);
      }
      const profile = join(dir, `${i}.icc`);
      writeFileSync(profile, c.profile);
      const tagged = join(dir, `${i}-tagged.png`);
      const heic = join(dir, `${i}.heic`);
      const reference = join(dir, `${i}-srgb.png`);
      run('convert', photo, '-profile', profile, tagged);
      run('heif-enc', '-L', '-p', 'chroma=444', tagged, '-o', heic);
      run('convert', tagged, '-intent', 'relative', '-profile', srgb, reference);
      const bytes = new Uint8Array(readFileSync(heic));
      const image = await decodeImageLoading(bytes);
      expect(image.format).toBe('heic');
      expect(image.colour.applied).toBe('converted');
      expect(image.colour.why).toMatch(/^ICC profile/);
      const want = await rgbOf(new Uint8Array(readFileSync(reference)));
      const got = await rgbOf(bytes);
      const dE = deltaE76(got, want);
      if (process.env.TERMSIGHT_COLOUR_REPORT === '1')
        process.stderr.write(`REPORT heic ${c.name}: mean ΔE76 ${dE.mean.toFixed(3)}, max ${dE.max.toFixed(2)}\n`);
      expect(dE.mean).toBeLessThanOrEqual(1.5);
      // The same file with its profile ignored: further off than the conversion, so it mattered.
      const asStored = deltaE76(await rgbOf(bytes, { colour: 'keep' }), want);
      expect(asStored.mean).toBeGreaterThan(dE.mean);
    },
    60_000,
  );
});
