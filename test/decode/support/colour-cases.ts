/**
 * The colour tests' cases: the profiles (built by icc-writer.ts, or copied from Debian's
 * icc-profiles-free into test/fixtures/colour/) and the sample colours converted through them,
 * saturated (the RGB cube) and photographic (pixels of a committed photo).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bradford, D50, SRGB_PRIMARIES, xyToXyz } from '../../../src/decode/colour-space.js';
import { decodeImage } from '../../../src/decode/index.js';
import { type ProfileSpec, writeProfile } from './icc-writer.js';

const ROOT = join(import.meta.dirname, '../../..');
const FIXTURES = join(ROOT, 'test/fixtures/colour');

const D65_XY: [number, number] = [0.3127, 0.329];
const P3 = { red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: D65_XY } as const;
const ADOBE = { red: [0.64, 0.33], green: [0.21, 0.71], blue: [0.15, 0.06], white: D65_XY } as const;
const PROPHOTO = {
  red: [0.7347, 0.2653],
  green: [0.1596, 0.8404],
  blue: [0.0366, 0.0001],
  white: [0.3457, 0.3585],
} as const;
const BT2020 = { red: [0.708, 0.292], green: [0.17, 0.797], blue: [0.131, 0.046], white: D65_XY } as const;

const SRGB_PARAMS = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045];

/** A sampled curve: a power of 2.6 with a linear toe (not any parametric form). */
const SAMPLED = Array.from({ length: 1024 }, (_, i) => {
  const x = i / 1023;
  return x < 0.05 ? x / 12 : ((x + 0.02) / 1.02) ** 2.6;
});

/** One profile of the colour tests. */
export interface ColourCase {
  readonly name: string;
  readonly grey: boolean;
  readonly profile: Uint8Array;
  /** Where the profile comes from, for the report. */
  readonly source: string;
}

const built = (name: string, spec: ProfileSpec): ColourCase => ({
  name,
  grey: spec.grey === true,
  profile: writeProfile(spec),
  source: 'icc-writer.ts',
});

const copied = (name: string, file: string, grey = false): ColourCase => ({
  name,
  grey,
  profile: new Uint8Array(readFileSync(join(FIXTURES, file))),
  source: `icc-profiles-free ${file}`,
});

/** The profiles checked against lcms. */
export const COLOUR_CASES: readonly ColourCase[] = [
  built('Display P3 (v4, para type 3, chad)', {
    description: 'Display P3',
    version: 4,
    space: P3,
    curves: { para: 3, params: SRGB_PARAMS },
    whitePoint: D50,
    chad: bradford(xyToXyz(...D65_XY), D50),
  }),
  built('Adobe RGB (1998) compatible (v2, curv gamma)', {
    description: 'Adobe RGB compatible',
    version: 2,
    space: ADOBE,
    curves: { gamma: 563 / 256 },
  }),
  built('ProPhoto-like (v2, D50 white, gamma 1.8)', {
    description: 'ProPhoto-like',
    version: 2,
    space: PROPHOTO,
    curves: { gamma: 1.8 },
  }),
  built('parametric types 1, 2, 4 (v4, P3 primaries)', {
    description: 'Parametric 1 2 4',
    version: 4,
    space: P3,
    curves: [
      { para: 1, params: [2.4, 0.95, 0.05] },
      // b > 0: at X = -b/a exactly lcms gives 0 where ICC.1 (and skcms) give c; icc-curve.test.ts pins ICC's value.
      { para: 2, params: [2.2, 0.98, 0.01, 0.02] },
      { para: 4, params: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045, -0.01, 0.005] },
    ],
  }),
  built('parametric types 0 and 3 (v4, sRGB primaries)', {
    description: 'Parametric 0 3',
    version: 4,
    space: SRGB_PRIMARIES,
    curves: [
      { para: 0, params: [2.0] },
      { para: 3, params: [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081] },
      { para: 3, params: [1.8, 1, 0, 1 / 16, 0.03125] },
    ],
  }),
  built('sampled curve, 1024 points (v2, BT.2020)', {
    description: 'Sampled BT.2020',
    version: 2,
    space: BT2020,
    curves: { table: SAMPLED },
  }),
  built('grey gamma 2.2 (v2)', { description: 'Grey 2.2', version: 2, grey: true, curves: { gamma: 2.2 } }),
  copied('icc-profiles-free compatibleWithAdobeRGB1998', 'compatibleWithAdobeRGB1998.icc'),
  copied('icc-profiles-free LStar-RGB (sampled L* curve)', 'LStar-RGB.icc'),
  copied('icc-profiles-free CineonLog_M (sampled log curve)', 'CineonLog_M.icc'),
  copied('icc-profiles-free Gray', 'Gray.icc', true),
  copied('icc-profiles-free Gray-CIE_L', 'Gray-CIE_L.icc', true),
];

/** sRGB's own profile, the standard one (what an sRGB-tagged picture carries). */
export const SRGB_PROFILE = (): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, 'sRGB.icc')));

/** The saturated samples: the RGB cube at 8 levels a channel (512 colours, primaries and secondaries among them). */
export function saturatedSamples(): Uint8Array {
  const levels = [0, 36, 73, 109, 146, 182, 219, 255];
  const out: number[] = [];
  for (const r of levels) for (const g of levels) for (const b of levels) out.push(r, g, b);
  return Uint8Array.from(out);
}

/** The photographic samples: 512 pixels on a grid over a committed photo (NASA's astronaut). */
export function photoSamples(): Uint8Array {
  const image = decodeImage(readFileSync(join(ROOT, 'test/fixtures/images/astronaut.png')));
  const { width, height, data } = image.frames[0]?.raster ?? { width: 0, height: 0, data: new Uint8Array() };
  const out: number[] = [];
  for (let j = 0; j < 16; j++)
    for (let i = 0; i < 32; i++) {
      const x = Math.floor(((i + 0.5) * width) / 32);
      const y = Math.floor(((j + 0.5) * height) / 16);
      const at = (y * width + x) * 4;
      out.push(data[at] as number, data[at + 1] as number, data[at + 2] as number);
    }
  return Uint8Array.from(out);
}

/** Grey samples: every level once, then the photo's green channel. */
export function greySamples(photo: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let v = 0; v < 256; v++) out.push(v, v, v);
  for (let i = 1; i < photo.length; i += 3) out.push(photo[i] as number, photo[i] as number, photo[i] as number);
  return Uint8Array.from(out);
}

/** CIE L*a*b* (D65) of an 8-bit sRGB colour. */
export function labOf(r: number, g: number, b: number): [number, number, number] {
  const lin = [r, g, b].map((v) => {
    const c = v / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  const X = 0.4124564 * lin[0] + 0.3575761 * lin[1] + 0.1804375 * lin[2];
  const Y = 0.2126729 * lin[0] + 0.7151522 * lin[1] + 0.072175 * lin[2];
  const Z = 0.0193339 * lin[0] + 0.119192 * lin[1] + 0.9503041 * lin[2];
  const f = (t: number): number => (t > 216 / 24389 ? Math.cbrt(t) : (24389 / 27 / 116) * t + 16 / 116);
  const [fx, fy, fz] = [f(X / 0.95047), f(Y), f(Z / 1.08883)];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

/** Mean and largest ΔE*ab (CIE 1976) between two lists of RGB triples. */
export function deltaE76(a: Uint8Array, b: Uint8Array): { mean: number; max: number } {
  let sum = 0;
  let max = 0;
  const n = a.length / 3;
  for (let i = 0; i < a.length; i += 3) {
    const p = labOf(a[i] as number, a[i + 1] as number, a[i + 2] as number);
    const q = labOf(b[i] as number, b[i + 1] as number, b[i + 2] as number);
    const d = Math.hypot(p[0] - q[0], p[1] - q[1], p[2] - q[2]);
    sum += d;
    if (d > max) max = d;
  }
  return { mean: sum / n, max };
}
