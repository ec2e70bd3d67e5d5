import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeImage } from '../../src/decode/index.js';
import { decodeJpeg, jpegScale } from '../../src/decode/jpeg.js';
import {
  areaAverage,
  fixture,
  jpegJs,
  maxDifference,
  psnr,
  QUADRANT_COLOURS,
  quadrants,
  tiffWithOrientation,
  VARIANTS,
  variantNames,
  withExif,
} from './jpeg-helpers.js';

const reference: Record<string, string> = JSON.parse(readFileSync(join(VARIANTS, 'reference.json'), 'utf8'));
const decodable = variantNames().filter((n) => n !== 'arithmetic.jpg');
const photos = ['hubble_deep_field.jpg', 'rocket.jpg', 'retina.jpg'];

/** The RGB bytes (one channel for grey files, as djpeg writes PGM) of an RGBA raster. */
function pixelsAsDjpeg(data: Uint8Array, grey: boolean): Uint8Array {
  const step = grey ? 1 : 3;
  const out = new Uint8Array((data.length / 4) * step);
  for (let i = 0, o = 0; i < data.length; i += 4, o += step) for (let c = 0; c < step; c++) out[o + c] = data[i + c]!;
  return out;
}

describe('decodeJpeg: full size against libjpeg-turbo (bit for bit)', () => {
  // Same IDCT (AAN, floating point) and upsampling (nearest) as `djpeg -dct float -nosmooth`,
  // so the output must be identical; the oracle's hashes are in the fixtures' reference.json.
  it.each(decodable.map((name) => ({ name })))('$name', ({ name }) => {
    const { raster } = decodeJpeg(fixture(`jpeg/${name}`));
    expect([raster.width, raster.height]).toEqual([97, 61]);
    const sha = createHash('sha256')
      .update(pixelsAsDjpeg(raster.data, name.includes('grey')))
      .digest('hex');
    expect(sha).toBe(reference[name]);
  });
});

describe('decodeJpeg: against jpeg-js', () => {
  // jpeg-js rounds its integer IDCT and colour conversion differently, so the two differ by a few
  // levels: 45 dB PSNR (mean squared error under 2.1) and 4 levels at most allow that and nothing
  // more (a wrong coefficient, table or sampling factor costs far more). Measured: 50-60 dB, max 3-4.
  const rows = [
    ...photos.map((name) => ({ name, path: name })),
    ...decodable.filter((n) => n !== 'rgb-adobe.jpg').map((name) => ({ name, path: `jpeg/${name}` })),
  ];
  it.each(rows)('$name', ({ path }) => {
    const bytes = fixture(path);
    const ours = decodeJpeg(bytes, { orientation: 'ignore' }).raster;
    const theirs = jpegJs(bytes);
    expect([ours.width, ours.height]).toEqual([theirs.width, theirs.height]);
    expect(psnr(ours.data, theirs.data)).toBeGreaterThanOrEqual(45);
    expect(maxDifference(ours.data, theirs.data)).toBeLessThanOrEqual(4);
  });

  /** The 97x61 crop of chelsea.png the variants were made from (make.sh). */
  const crop = (() => {
    const source = decodeImage(fixture('chelsea.png')).frames[0]!.raster;
    const out = new Uint8Array(97 * 61 * 4);
    for (let y = 0; y < 61; y++)
      out.set(
        source.data.subarray(((90 + y) * source.width + 180) * 4, ((90 + y) * source.width + 277) * 4),
        y * 97 * 4,
      );
    return out;
  })();

  it('RGB with Adobe transform 0: jpeg-js converts it as YCbCr; termsight matches the source instead', () => {
    const ours = decodeJpeg(fixture('jpeg/rgb-adobe.jpg')).raster;
    expect(psnr(ours.data, crop)).toBeGreaterThan(35);
    expect(psnr(jpegJs(fixture('jpeg/rgb-adobe.jpg')).data, crop)).toBeLessThan(20);
  });

  it('CMYK (Adobe, inverted) is close to the source picture', () => {
    expect(psnr(decodeJpeg(fixture('jpeg/cmyk-adobe.jpg')).raster.data, crop)).toBeGreaterThan(30);
  });
});

describe('decodeJpeg: reduced in the DCT domain', () => {
  // A scaled decode samples each cell's low frequencies; an area average of the full decode is
  // the picture it should resemble. 30 dB holds for every file here (measured 32.7-54.9 dB); a
  // scaled IDCT with a wrong term or a misplaced block falls far below it.
  const rows = [...photos.map((p) => p), ...decodable.map((n) => `jpeg/${n}`)].flatMap((path) =>
    [2, 4, 8].map((d) => ({ name: `${path} at 1/${d}`, path, d })),
  );
  it.each(rows)('$name', ({ path, d }) => {
    const bytes = fixture(path);
    const full = decodeJpeg(bytes).raster;
    const box = { width: Math.ceil(full.width / d), height: Math.ceil(full.height / d) };
    const scaled = decodeJpeg(bytes, { maxSize: box });
    expect(scaled.scale).toBe(d);
    expect([scaled.sourceWidth, scaled.sourceHeight]).toEqual([full.width, full.height]);
    const expected = areaAverage(full, d);
    expect([scaled.raster.width, scaled.raster.height]).toEqual([expected.width, expected.height]);
    expect(psnr(scaled.raster.data, expected.data)).toBeGreaterThan(30);
  });

  it.each([
    { name: 'no box: full size', w: 4000, h: 3000, box: undefined, want: 1 },
    { name: '1000x600 box: 1/4 (1000x750)', w: 4000, h: 3000, box: { width: 1000, height: 600 }, want: 4 },
    { name: '500x375 box: exactly 1/8', w: 4000, h: 3000, box: { width: 500, height: 375 }, want: 8 },
    { name: 'one pixel more than 1/8 wide: 1/4', w: 4000, h: 3000, box: { width: 501, height: 10 }, want: 4 },
    { name: 'the height decides', w: 4000, h: 3000, box: { width: 10, height: 1500 }, want: 2 },
    { name: 'a box larger than the picture: full size', w: 640, h: 427, box: { width: 2000, height: 2000 }, want: 1 },
    { name: 'odd sides round up: 17 px at 1/8 is 3', w: 17, h: 17, box: { width: 3, height: 3 }, want: 8 },
  ])('jpegScale: $name', ({ w, h, box, want }) => {
    expect(jpegScale(w, h, box)).toBe(want);
  });

  it('decodeImage passes maxSize through and reports the source size', () => {
    const image = decodeImage(fixture('hubble_deep_field.jpg'), { maxSize: { width: 250, height: 200 } });
    expect([image.width, image.height]).toEqual([250, 218]);
    expect([image.sourceWidth, image.sourceHeight]).toEqual([1000, 872]);
    expect(image.frames[0]!.raster.width).toBe(250);
  });

  it.each([
    { name: 'full size', d: 1 },
    { name: 'scaled by 1/2', d: 2 },
    { name: 'scaled by 1/4', d: 4 },
    { name: 'scaled by 1/8', d: 8 },
  ])('a progressive file decodes to the same picture as its baseline twin: $name', ({ d }) => {
    const box = { width: Math.ceil(97 / d), height: Math.ceil(61 / d) };
    const a = decodeJpeg(fixture('jpeg/baseline-420.jpg'), { maxSize: box }).raster;
    const b = decodeJpeg(fixture('jpeg/progressive-420.jpg'), { maxSize: box }).raster;
    expect(b).toEqual(a);
  });
});

describe('decodeJpeg: EXIF orientation', () => {
  const base = quadrants(48, 32);
  /** The colour seen at the centre of each quadrant of the decoded picture. */
  const seen = (r: { width: number; height: number; data: Uint8Array }) =>
    [
      [0.25, 0.25],
      [0.75, 0.25],
      [0.25, 0.75],
      [0.75, 0.75],
    ].map(([fx, fy]) => {
      const i = (Math.floor(fy! * r.height) * r.width + Math.floor(fx! * r.width)) * 4;
      const px = [r.data[i]!, r.data[i + 1]!, r.data[i + 2]!];
      // The nearest of the four quadrant colours, by index.
      let best = 0;
      QUADRANT_COLOURS.forEach((c, k) => {
        const dist = (q: readonly number[]) => q.reduce((s, v, j) => s + (v - px[j]!) ** 2, 0);
        if (dist(c) < dist(QUADRANT_COLOURS[best]!)) best = k;
      });
      return best;
    });
  // Stored quadrants are 0 1 / 2 3 (TL TR / BL BR). What each orientation shows, derived from the
  // spec's definition of where the stored row 0 and column 0 go.
  it.each([
    { name: '1', o: 1, size: [48, 32], shows: [0, 1, 2, 3] },
    { name: '2 mirror', o: 2, size: [48, 32], shows: [1, 0, 3, 2] },
    { name: '3 rotate 180', o: 3, size: [48, 32], shows: [3, 2, 1, 0] },
    { name: '4 flip', o: 4, size: [48, 32], shows: [2, 3, 0, 1] },
    { name: '5 transpose', o: 5, size: [32, 48], shows: [0, 2, 1, 3] },
    { name: '6 rotate 90 clockwise', o: 6, size: [32, 48], shows: [2, 0, 3, 1] },
    { name: '7 transverse', o: 7, size: [32, 48], shows: [3, 1, 2, 0] },
    { name: '8 rotate 90 anticlockwise', o: 8, size: [32, 48], shows: [1, 3, 0, 2] },
  ])('orientation $name', ({ o, size, shows }) => {
    for (const order of ['II', 'MM'] as const) {
      const image = decodeImage(withExif(base, tiffWithOrientation(o, order)));
      expect(image.orientation).toBe(o);
      expect([image.width, image.height]).toEqual(size);
      expect([image.sourceWidth, image.sourceHeight]).toEqual([48, 32]);
      expect(seen(image.frames[0]!.raster)).toEqual(shows);
      const ignored = decodeImage(withExif(base, tiffWithOrientation(o, order)), { orientation: 'ignore' });
      expect(ignored.orientation).toBe(o);
      expect(seen(ignored.frames[0]!.raster)).toEqual([0, 1, 2, 3]);
    }
  });

  it('a quarter-turned file with a box: the box is matched against the upright picture', () => {
    // Stored 48x32, shown 32x48: a 16x24 box is met by 1/2 (24x16 stored = 16x24 shown).
    const image = decodeImage(withExif(base, tiffWithOrientation(6)), { maxSize: { width: 16, height: 24 } });
    expect([image.width, image.height]).toEqual([16, 24]);
  });

  it('a file without EXIF says orientation 1', () => {
    expect(decodeImage(base).orientation).toBe(1);
  });
});
