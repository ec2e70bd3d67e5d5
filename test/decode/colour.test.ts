/**
 * Colour as the file means it: the curves by their formulas, the profile reader's bounds and
 * reasons, PNG's precedence (cICP > iCCP > sRGB > gAMA/cHRM), JPEG's APP2 chunks, and the one
 * place that applies it (decodeImage): untagged and sRGB-tagged pictures byte for byte as stored,
 * tagged ones equal to the profile's transform of the stored pixels.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { planColour, transformPixels } from '../../src/decode/colour.js';
import { SRGB_PRIMARIES } from '../../src/decode/colour-space.js';
import { MAX_TAGS, readIccProfile } from '../../src/decode/icc.js';
import { MAX_EMBEDDED_PROFILE } from '../../src/decode/icc-chunks.js';
import { evaluateCurve, type ToneCurve } from '../../src/decode/icc-curve.js';
import { type DecodedImage, decodeImage } from '../../src/decode/index.js';
import { encodePng } from '../../src/render/pixels/png.js';
import { COLOUR_CASES, photoSamples, SRGB_PROFILE } from './support/colour-cases.js';
import {
  chrmChunk,
  cicpChunk,
  gamaChunk,
  iccpChunk,
  pngChunk,
  srgbChunk,
  withJpegProfile,
  withPngChunks,
} from './support/colour-files.js';
import { writeProfile } from './support/icc-writer.js';

const ROOT = join(import.meta.dirname, '../..');
const jpegFixture = (name: string): Uint8Array =>
  new Uint8Array(readFileSync(join(ROOT, 'test/fixtures/images/jpeg', name)));

const profileNamed = (prefix: string): Uint8Array =>
  (COLOUR_CASES.find((c) => c.name.startsWith(prefix)) as { profile: Uint8Array }).profile;
const P3 = profileNamed('Display P3');
const ADOBE = profileNamed('Adobe RGB');
const GREY = profileNamed('grey gamma 2.2');

/** A 32x16 opaque PNG of the photographic samples. */
const photo = photoSamples();
const rgba = new Uint8Array(32 * 16 * 4);
for (let i = 0, j = 0; i < photo.length; i += 3, j += 4)
  rgba.set([photo[i], photo[i + 1], photo[i + 2], 255] as number[], j);
const PNG = encodePng({ width: 32, height: 16, data: rgba });

const pixels = (image: DecodedImage): Uint8Array => (image.frames[0] as { raster: { data: Uint8Array } }).raster.data;
const stored = (bytes: Uint8Array): Uint8Array => pixels(decodeImage(bytes, { colour: 'keep' }));

/** What `profile`'s transform makes of `bytes`' stored pixels. */
function converted(bytes: Uint8Array, profile: Uint8Array, model: 'rgb' | 'grey' = 'rgb'): Uint8Array {
  const plan = planColour({ icc: profile }, model);
  if (!plan.transform) throw new Error(plan.handling.why);
  const out = stored(bytes).slice();
  transformPixels(plan.transform, out);
  return out;
}

describe('tone curves by their formulas (ICC.1:2022 10.6, 10.18)', () => {
  const g = 2.4;
  const [a, b, c, d, e, f] = [0.9, 0.1, 0.05, 0.2, 0.03, 0.01];
  it.each<{ name: string; curve: ToneCurve; x: number; y: number }>([
    { name: 'curv, no entries: identity', curve: { kind: 'gamma', gamma: 1 }, x: 0.3, y: 0.3 },
    { name: 'curv gamma', curve: { kind: 'gamma', gamma: 2.2 }, x: 0.5, y: 0.5 ** 2.2 },
    {
      name: 'curv table, between samples: linear',
      curve: { kind: 'table', values: Float64Array.from([0, 0.2, 1]) },
      x: 0.75,
      y: 0.6,
    },
    { name: 'para 0', curve: { kind: 'parametric', type: 0, params: [g] }, x: 0.5, y: 0.5 ** g },
    {
      name: 'para 1 above -b/a',
      curve: { kind: 'parametric', type: 1, params: [g, a, b] },
      x: 0.5,
      y: (a * 0.5 + b) ** g,
    },
    {
      name: 'para 1 below -b/a: 0',
      curve: { kind: 'parametric', type: 1, params: [g, 1, -0.5] },
      x: 0.25,
      y: 0,
    },
    {
      name: 'para 2 above -b/a',
      curve: { kind: 'parametric', type: 2, params: [g, a, b, c] },
      x: 0.5,
      y: (a * 0.5 + b) ** g + c,
    },
    {
      // At X = -b/a exactly ICC.1 gives 0^g + c = c (lcms 2.14 gives 0 there; skcms gives c).
      name: 'para 2 at -b/a: c',
      curve: { kind: 'parametric', type: 2, params: [g, 1, -0.5, c] },
      x: 0.5,
      y: c,
    },
    { name: 'para 2 below -b/a: c', curve: { kind: 'parametric', type: 2, params: [g, 1, -0.5, c] }, x: 0.25, y: c },
    {
      name: 'para 3 at d and above',
      curve: { kind: 'parametric', type: 3, params: [g, a, b, c, d] },
      x: 0.2,
      y: (a * 0.2 + b) ** g,
    },
    { name: 'para 3 below d: cX', curve: { kind: 'parametric', type: 3, params: [g, a, b, c, d] }, x: 0.1, y: c * 0.1 },
    {
      name: 'para 4 above d: (aX+b)^g + e',
      curve: { kind: 'parametric', type: 4, params: [g, a, b, c, d, e, f] },
      x: 0.5,
      y: (a * 0.5 + b) ** g + e,
    },
    {
      name: 'para 4 below d: cX + f',
      curve: { kind: 'parametric', type: 4, params: [g, a, b, c, d, e, f] },
      x: 0.1,
      y: c * 0.1 + f,
    },
    { name: 'clipped to 1', curve: { kind: 'parametric', type: 2, params: [1, 1, 0, 0.5] }, x: 0.9, y: 1 },
  ])('$name', ({ curve, x, y }) => {
    expect(evaluateCurve(curve, x)).toBeCloseTo(y, 9);
  });
});

/** A valid profile with one field changed at `at` (a u32, big-endian). */
function patched(profile: Uint8Array, at: number, value: number): Uint8Array {
  const out = profile.slice();
  new DataView(out.buffer).setUint32(at, value);
  return out;
}

/** The offset of `tag`'s entry in the tag table. */
function tagEntry(profile: Uint8Array, tag: string): number {
  const count = new DataView(profile.buffer, profile.byteOffset).getUint32(128);
  for (let i = 0; i < count; i++) {
    const at = 132 + i * 12;
    if (Buffer.from(profile.subarray(at, at + 4)).toString('latin1') === tag) return at;
  }
  throw new Error(`no ${tag}`);
}

describe('reading a profile: bounded, a profile or a reason, never a throw', () => {
  const rgb = writeProfile({ description: 'Test', version: 4, space: SRGB_PRIMARIES, curves: { gamma: 2 } });
  it.each<{ name: string; bytes: Uint8Array; why: RegExp }>([
    { name: 'shorter than its header', bytes: rgb.subarray(0, 100), why: /shorter than its header/ },
    {
      name: 'declares more than it holds',
      bytes: rgb.subarray(0, rgb.length - 4),
      why: /declares \d+ bytes but holds/,
    },
    { name: 'no acsp', bytes: patched(rgb, 36, 0x61626364), why: /no acsp signature/ },
    {
      // Found by the fuzz below (5000 runs): a signature is printed only when it is letters and digits.
      name: 'a colour space signature with an escape in it',
      bytes: patched(rgb, 16, 0x1b524159),
      why: /^an unreadable profile, which is not converted$/,
    },
    { name: 'too many tags', bytes: patched(rgb, 128, MAX_TAGS + 1), why: /declares 257 tags/ },
    { name: 'a tag table past its end', bytes: patched(rgb, 128, 200), why: /200 tag entries do not fit/ },
    {
      name: 'a curve tag outside the profile',
      bytes: patched(rgb, tagEntry(rgb, 'rTRC') + 4, 0xfffffff0),
      why: /'rTRC' tag lies outside the profile/,
    },
    {
      name: 'a colorant that is not XYZ',
      bytes: patched(rgb, tagEntry(rgb, 'gXYZ') + 4, new DataView(rgb.buffer).getUint32(tagEntry(rgb, 'rTRC') + 4)),
      why: /gXYZ tag is not an XYZ value/,
    },
    {
      name: 'a LUT-based RGB profile',
      bytes: writeProfile({
        description: 'LUT',
        version: 4,
        space: SRGB_PRIMARIES,
        curves: { gamma: 2 },
        lutOnly: true,
        extra: { A2B0: new Uint8Array(32) },
      }),
      why: /LUT-based RGB profile/,
    },
    {
      name: 'CMYK',
      bytes: writeProfile({
        description: 'Print',
        version: 2,
        spaceSignature: 'CMYK',
        space: SRGB_PRIMARIES,
        curves: { gamma: 1 },
      }),
      why: /a CMYK profile, which is not converted/,
    },
    {
      name: 'Lab',
      bytes: writeProfile({
        description: 'Lab',
        version: 2,
        spaceSignature: 'Lab ',
        space: SRGB_PRIMARIES,
        curves: { gamma: 1 },
      }),
      why: /a Lab profile/,
    },
  ])('$name', ({ bytes, why }) => {
    const reading = readIccProfile(bytes);
    expect(reading.ok).toBe(false);
    if (!reading.ok) expect(reading.why).toMatch(why);
  });

  it('a curv whose point count is past its tag is refused, not read past', () => {
    const table = writeProfile({ description: 'T', version: 2, space: SRGB_PRIMARIES, curves: { table: [0, 0.5, 1] } });
    const at = new DataView(table.buffer).getUint32(tagEntry(table, 'rTRC') + 4);
    const reading = readIccProfile(patched(table, at + 8, 0x7fffffff));
    expect(reading).toMatchObject({
      ok: false,
      why: expect.stringMatching(/rTRC curve's 2147483647 points do not fit/),
    });
  });

  const RUNS = Number(process.env.TERMSIGHT_FUZZ_RUNS) > 0 ? Number(process.env.TERMSIGHT_FUZZ_RUNS) : 300;
  const valid = [rgb, ...COLOUR_CASES.map((c) => c.profile)];
  it('random bytes and mutated profiles: a profile or a reason (fuzz)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 600 }),
          fc
            .tuple(
              fc.constantFrom(...valid),
              fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 12 }),
              fc.nat(),
            )
            .map(([profile, edits, cut]) => {
              const out = profile.slice(0, profile.length - (cut % 8 === 0 ? cut % profile.length : 0));
              for (const [at, v] of edits) if (out.length > 0) out[at % out.length] = v;
              return out;
            }),
        ),
        (bytes) => {
          const reading = readIccProfile(bytes);
          if (!reading.ok) expect(reading.why.length).toBeGreaterThan(0);
          // And planning from it never throws, whatever the pixels are.
          for (const model of ['rgb', 'grey', 'cmyk'] as const) {
            const plan = planColour({ icc: bytes }, model);
            expect(plan.handling.why).not.toMatch(/[\r\n\u001b]/);
            if (plan.transform) {
              const px = Uint8Array.from([0, 0, 0, 255, 128, 64, 255, 255, 255, 255, 255, 0]);
              transformPixels(plan.transform, px);
            }
          }
        },
      ),
      { numRuns: RUNS, seed: 2326 },
    );
  });
});

describe('decodeImage applies colour in one place', () => {
  it('an untagged PNG: as stored, byte for byte', () => {
    const image = decodeImage(PNG);
    expect(image.colour).toEqual({ applied: 'as-is', why: 'no colour space declared: sRGB' });
    expect(pixels(image)).toEqual(rgba);
  });

  it.each<{ name: string; file: () => Uint8Array; why: RegExp }>([
    {
      name: 'PNG iCCP with the standard sRGB profile',
      file: () => withPngChunks(PNG, [iccpChunk(SRGB_PROFILE())]),
      why: /"sRGB".*equal to sRGB/,
    },
    { name: 'PNG sRGB chunk', file: () => withPngChunks(PNG, [srgbChunk()]), why: /PNG sRGB chunk/ },
    { name: 'PNG gAMA 1/2.2 alone', file: () => withPngChunks(PNG, [gamaChunk(45455)]), why: /gAMA 0.45455: sRGB's/ },
    { name: 'PNG cICP sRGB', file: () => withPngChunks(PNG, [cicpChunk(1, 13)]), why: /cICP.*sRGB/ },
    {
      name: 'PNG iCCP: a profile equal to sRGB within tolerance (v4, para type 3, written anew)',
      file: () =>
        withPngChunks(PNG, [
          iccpChunk(
            writeProfile({
              description: 'my sRGB',
              version: 4,
              space: SRGB_PRIMARIES,
              curves: { para: 3, params: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045] },
            }),
          ),
        ]),
      why: /"my sRGB".*equal to sRGB/,
    },
  ])('$name: sRGB, byte for byte as stored', ({ file, why }) => {
    const image = decodeImage(file());
    expect(image.colour.applied).toBe('as-is');
    expect(image.colour.why).toMatch(why);
    expect(pixels(image)).toEqual(rgba);
  });

  it('a Display P3 PNG (iCCP): the profile applied to the stored pixels', () => {
    const file = withPngChunks(PNG, [iccpChunk(P3)]);
    const image = decodeImage(file);
    expect(image.colour).toEqual({
      applied: 'converted',
      why: 'ICC profile "Display P3" (matrix/TRC): converted to sRGB',
    });
    expect(pixels(image)).toEqual(converted(file, P3));
    expect(pixels(image)).not.toEqual(rgba);
  });

  it("colour: 'keep' leaves the pixels and says what was declared", () => {
    const image = decodeImage(withPngChunks(PNG, [iccpChunk(P3)]), { colour: 'keep' });
    expect(pixels(image)).toEqual(rgba);
    expect(image.colour).toEqual({
      applied: 'unconverted',
      why: 'ICC profile "Display P3" (matrix/TRC): kept as stored (colour: keep)',
    });
  });

  /** The PNG precedence, third edition 4.3: cICP, iCCP, sRGB, gAMA/cHRM. */
  it.each<{ name: string; chunks: Uint8Array[]; same: Uint8Array | 'stored' }>([
    { name: 'cICP over iCCP', chunks: [iccpChunk(ADOBE), cicpChunk(12, 13)], same: P3 },
    { name: 'iCCP over sRGB', chunks: [srgbChunk(), iccpChunk(ADOBE)], same: ADOBE },
    { name: 'iCCP over gAMA and cHRM', chunks: [gamaChunk(100000), iccpChunk(P3)], same: P3 },
    { name: 'sRGB over gAMA', chunks: [gamaChunk(100000), srgbChunk()], same: 'stored' },
  ])('$name', ({ chunks, same }) => {
    const file = withPngChunks(PNG, chunks);
    const got = pixels(decodeImage(file));
    if (same === 'stored') expect(got).toEqual(rgba);
    else {
      const want = converted(file, same);
      // cICP's P3 is computed from its primaries, the profile's from rounded colorants: within one step.
      for (let i = 0; i < got.length; i++)
        expect(Math.abs((got[i] as number) - (want[i] as number))).toBeLessThanOrEqual(1);
    }
  });

  it('colour chunks after the image data are out of place: ignored', () => {
    const image = decodeImage(withPngChunks(PNG, [iccpChunk(P3)], 'before-iend'));
    expect(image.colour.applied).toBe('as-is');
    expect(pixels(image)).toEqual(rgba);
  });

  it.each<{ name: string; chunks: Uint8Array[]; applied: string; why: RegExp }>([
    {
      name: 'gAMA 1.0 (linear samples)',
      chunks: [gamaChunk(100000)],
      applied: 'converted',
      why: /gAMA 1.00000: converted/,
    },
    {
      name: 'gAMA 1/2.2 with Adobe RGB cHRM',
      chunks: [gamaChunk(45455), chrmChunk([31270, 32900, 64000, 33000, 21000, 71000, 15000, 6000])],
      applied: 'converted',
      why: /gAMA 0.45455 and cHRM: converted/,
    },
    {
      name: 'cICP BT.2020 with PQ (tone-mapped: hdr.test.ts)',
      chunks: [cicpChunk(9, 16)],
      applied: 'converted',
      why: /BT.2020 primaries, HDR transfer PQ \(SMPTE ST 2084\)\), tone-mapped to SDR by BT.2390's EETF/,
    },
    {
      name: 'cICP HLG',
      chunks: [cicpChunk(1, 18)],
      applied: 'converted',
      why: /HDR transfer HLG\), tone-mapped to SDR .*: converted to sRGB$/,
    },
    { name: 'cICP narrow range', chunks: [cicpChunk(1, 13, 0, 0)], applied: 'unconverted', why: /narrow-range/ },
    {
      name: 'cICP with a YCbCr matrix',
      chunks: [cicpChunk(1, 13, 1)],
      applied: 'unconverted',
      why: /matrix coefficients 1/,
    },
    {
      name: 'cICP Display P3 / BT.709 transfer',
      chunks: [cicpChunk(12, 1)],
      applied: 'converted',
      why: /Display P3 primaries, BT.709 transfer/,
    },
    {
      name: 'cICP BT.2020 / BT.2020 transfer',
      chunks: [cicpChunk(9, 14)],
      applied: 'converted',
      why: /BT.2020 primaries/,
    },
  ])('$name: $applied', ({ chunks, applied, why }) => {
    const image = decodeImage(withPngChunks(PNG, chunks));
    expect(image.colour.applied).toBe(applied);
    expect(image.colour.why).toMatch(why);
    if (applied === 'converted') expect(pixels(image)).not.toEqual(rgba);
    else expect(pixels(image)).toEqual(rgba);
  });

  it('gAMA 1.0 brightens: linear samples shown on an sRGB display', () => {
    const got = pixels(decodeImage(withPngChunks(PNG, [gamaChunk(100000)])));
    let brighter = 0;
    for (let i = 0; i < got.length; i += 4) if ((got[i] as number) > (rgba[i] as number)) brighter++;
    expect(brighter).toBeGreaterThan(400);
  });

  it('an iCCP bomb (a profile that inflates past the budget) costs the budget, and the picture is still drawn', () => {
    const bomb = pngChunk(
      'iCCP',
      Buffer.concat([Buffer.from('bomb\0\0', 'latin1'), deflateSync(Buffer.alloc(64 << 20))]),
    );
    const image = decodeImage(withPngChunks(PNG, [bomb]));
    expect(image.colour).toEqual({
      applied: 'unconverted',
      why: `PNG iCCP: an iCCP profile that inflates to more than ${MAX_EMBEDDED_PROFILE} bytes; drawn as sRGB`,
    });
    expect(pixels(image)).toEqual(rgba);
  });

  it('a damaged iCCP: the reason, and the picture drawn as sRGB', () => {
    const broken = pngChunk('iCCP', Buffer.from('x\0\0not zlib at all', 'latin1'));
    expect(decodeImage(withPngChunks(PNG, [broken])).colour.why).toBe(
      'PNG iCCP: an iCCP profile whose compressed data is damaged; drawn as sRGB',
    );
  });

  describe('JPEG APP2 ICC chunks', () => {
    const jpeg = jpegFixture('baseline-420.jpg');
    it('one chunk: converted as the profile says', () => {
      const file = withJpegProfile(jpeg, ADOBE);
      const image = decodeImage(file);
      expect(image.colour.applied).toBe('converted');
      expect(pixels(image)).toEqual(converted(file, ADOBE));
    });
    it('three chunks stored out of order: joined by sequence number, the same picture', () => {
      const one = pixels(decodeImage(withJpegProfile(jpeg, P3)));
      const three = decodeImage(withJpegProfile(jpeg, P3, 3, [2, 3, 1]));
      expect(three.colour.why).toMatch(/"Display P3".*converted/);
      expect(pixels(three)).toEqual(one);
    });
    it('a chunk missing: the reason, the picture drawn as sRGB', () => {
      const image = decodeImage(withJpegProfile(jpeg, P3, 3, [1, 3]));
      expect(image.colour.applied).toBe('unconverted');
      expect(image.colour.why).toMatch(/the profile (declares \d+ bytes but holds \d+|is \d+ bytes, shorter)/);
      expect(pixels(image)).toEqual(pixels(decodeImage(jpeg)));
    });
    it('the standard sRGB profile: byte for byte as untagged', () => {
      const image = decodeImage(withJpegProfile(jpeg, SRGB_PROFILE(), 2));
      expect(image.colour.applied).toBe('as-is');
      expect(pixels(image)).toEqual(pixels(decodeImage(jpeg)));
    });
    it('a grey profile on a grey JPEG: converted; on a colour JPEG: the reason', () => {
      const grey = jpegFixture('grey.jpg');
      const greyFile = withJpegProfile(grey, GREY);
      expect(decodeImage(greyFile).colour.applied).toBe('converted');
      expect(pixels(decodeImage(greyFile))).toEqual(converted(greyFile, GREY, 'grey'));
      expect(decodeImage(withJpegProfile(jpeg, GREY)).colour.why).toMatch(
        /is grey and the picture is not; drawn as sRGB/,
      );
    });
    it('a CMYK JPEG with a profile: the reason, drawn by the CMYK formula as before', () => {
      const cmyk = jpegFixture('cmyk-adobe.jpg');
      const image = decodeImage(withJpegProfile(cmyk, ADOBE));
      expect(image.colour.why).toMatch(/on a CMYK picture, which is not converted/);
      expect(pixels(image)).toEqual(pixels(decodeImage(cmyk)));
    });
  });
});
