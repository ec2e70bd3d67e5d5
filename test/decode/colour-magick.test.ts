/**
 * Whole pictures, end to end: a photo tagged with a profile (ImageMagick `-profile` on an untagged
 * picture embeds it: PNG iCCP, JPEG APP2), decoded by termsight, against ImageMagick's own
 * conversion of the tagged file to sRGB (`-profile sRGB.icc`, lcms inside). Mean ΔE76 ≤ 1.5 for
 * each profile, in PNG and in JPEG (where the two JPEG decoders also differ a little). Runs where
 * ImageMagick is installed (CI installs it); the same conversion on committed numbers, without
 * the tool, is colour-lcms.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type DecodeOptions, decodeImage } from '../../src/decode/index.js';
import { COLOUR_CASES, deltaE76, SRGB_PROFILE } from './support/colour-cases.js';

const ROOT = join(import.meta.dirname, '../..');
const hasMagick = spawnSync('sh', ['-c', 'command -v convert'], { encoding: 'utf8' }).status === 0;
const dir = mkdtempSync(join(tmpdir(), 'termsight-colour-magick-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function convert(...args: string[]): void {
  const run = spawnSync('convert', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`convert ${args.join(' ')}: ${run.stderr}`);
}

/** RGB bytes of a decoded picture. */
function rgbOf(bytes: Uint8Array, options: DecodeOptions = {}): Uint8Array {
  const data = decodeImage(bytes, options).frames[0]?.raster.data as Uint8Array;
  return data.filter((_, i) => i % 4 !== 3);
}

const RGB_CASES = COLOUR_CASES.filter((c) => !c.grey);

describe.runIf(hasMagick)("tagged photos against ImageMagick's -profile conversion (mean ΔE76 ≤ 1.5)", () => {
  const srgb = join(dir, 'sRGB.icc');
  writeFileSync(srgb, SRGB_PROFILE());
  // The photo at 225x150: a whole photo's colours, in a fraction of the time.
  const photo = join(dir, 'chelsea.png');
  convert(join(ROOT, 'test/fixtures/images/chelsea.png'), '-resize', '225x150', photo);
  it.each(
    RGB_CASES.flatMap((c, i) => (['png', 'jpg'] as const).map((ext) => ({ c, i, ext, name: `${c.name}, ${ext}` }))),
  )('$name', ({ c, i, ext }) => {
    const profile = join(dir, `${i}.icc`);
    writeFileSync(profile, c.profile);
    const tagged = join(dir, `${i}-tagged.${ext}`);
    const reference = join(dir, `${i}-${ext}-srgb.png`);
    convert(photo, '-quality', '95', '-profile', profile, tagged);
    convert(tagged, '-intent', 'relative', '-profile', srgb, reference);
    const image = decodeImage(readFileSync(tagged));
    expect(image.colour.applied).toBe('converted');
    const dE = deltaE76(rgbOf(readFileSync(tagged)), rgbOf(readFileSync(reference)));
    if (process.env.TERMSIGHT_COLOUR_REPORT === '1')
      process.stderr.write(`REPORT ${c.name} ${ext}: mean ΔE76 ${dE.mean.toFixed(3)}, max ${dE.max.toFixed(2)}\n`);
    expect(dE.mean).toBeLessThanOrEqual(1.5);
  });
});

describe.runIf(hasMagick)(
  'a real Adobe RGB photo (test/fixtures/images/rocket.jpg, tagged by its camera software)',
  () => {
    it('drawn within ΔE76 1.5 of ImageMagick; drawn as sRGB it was off by more than 3', () => {
      const rocket = join(ROOT, 'test/fixtures/images/rocket.jpg');
      const srgb = join(dir, 'rocket-sRGB.icc');
      writeFileSync(srgb, SRGB_PROFILE());
      const reference = join(dir, 'rocket-srgb.png');
      convert(rocket, '-intent', 'relative', '-profile', srgb, reference);
      const bytes = readFileSync(rocket);
      expect(decodeImage(bytes).colour.why).toBe('ICC profile "Adobe RGB (1998)" (matrix/TRC): converted to sRGB');
      const want = rgbOf(readFileSync(reference));
      expect(deltaE76(rgbOf(bytes), want).mean).toBeLessThanOrEqual(1.5);
      const asStored = rgbOf(bytes, { colour: 'keep' });
      expect(deltaE76(asStored, want).mean).toBeGreaterThan(3);
    });
  },
);
