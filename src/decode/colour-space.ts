/**
 * RGB colour spaces as matrices: primaries and a white point to XYZ, Bradford chromatic
 * adaptation, and the matrix from a profile's D50 colorants to linear sRGB, computed as lcms
 * computes it for the relative colorimetric intent. See docs/decode.md, "Colour".
 */
import type { Matrix3, Xyz } from './icc.js';

/** The ICC profile connection space's illuminant, D50 (ICC.1:2022 7.2.16; lcms's cmsD50_XYZ). */
export const D50: Xyz = [0.9642, 1, 0.8249];

/** Chromaticities (x, y) of an RGB space: red, green, blue, white. */
export interface Chromaticities {
  readonly red: readonly [number, number];
  readonly green: readonly [number, number];
  readonly blue: readonly [number, number];
  readonly white: readonly [number, number];
}

/** sRGB and BT.709 (IEC 61966-2-1, ITU-R BT.709): D65 white. */
export const SRGB_PRIMARIES: Chromaticities = {
  red: [0.64, 0.33],
  green: [0.3, 0.6],
  blue: [0.15, 0.06],
  white: [0.3127, 0.329],
};

export function multiply(a: Matrix3, b: Matrix3): Matrix3 {
  const m: number[] = [];
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      m.push(
        (a[r * 3] as number) * (b[c] as number) +
          (a[r * 3 + 1] as number) * (b[3 + c] as number) +
          (a[r * 3 + 2] as number) * (b[6 + c] as number),
      );
  return m as unknown as Matrix3;
}

export function apply(m: Matrix3, v: Xyz): Xyz {
  return [
    m[0] * v[0] + m[1] * v[1] + m[2] * v[2],
    m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
    m[6] * v[0] + m[7] * v[1] + m[8] * v[2],
  ];
}

/** The inverse of `m`, or null when it is singular (a broken profile's colorants can be). */
export function invert(m: Matrix3): Matrix3 | null {
  const [a, b, c, d, e, f, g, h, i] = m;
  const A = e * i - f * h;
  const B = -(d * i - f * g);
  const C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (!Number.isFinite(det) || Math.abs(det) < 1e-9) return null;
  return [
    A / det,
    -(b * i - c * h) / det,
    (b * f - c * e) / det,
    B / det,
    (a * i - c * g) / det,
    -(a * f - c * d) / det,
    C / det,
    -(a * h - b * g) / det,
    (a * e - b * d) / det,
  ];
}

/** XYZ (Y = 1) of a chromaticity. */
export function xyToXyz(x: number, y: number): Xyz {
  return [x / y, 1, (1 - x - y) / y];
}

const BRADFORD: Matrix3 = [0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296];
const BRADFORD_INVERSE = invert(BRADFORD) as Matrix3;

/** Bradford chromatic adaptation from white `from` to white `to` (what lcms uses, cmsAdaptationMatrix). */
export function bradford(from: Xyz, to: Xyz): Matrix3 {
  const s = apply(BRADFORD, from);
  const d = apply(BRADFORD, to);
  const scale: Matrix3 = [d[0] / s[0], 0, 0, 0, d[1] / s[1], 0, 0, 0, d[2] / s[2]];
  return multiply(BRADFORD_INVERSE, multiply(scale, BRADFORD));
}

/**
 * The matrix from linear RGB to XYZ adapted to D50 (the colorants an ICC profile stores) of a
 * space given by its chromaticities, as lcms's cmsCreateRGBProfile builds them. Null when the
 * chromaticities do not make a space (collinear primaries, y = 0).
 */
export function colorantsOf(space: Chromaticities): Matrix3 | null {
  if ([space.red, space.green, space.blue, space.white].some(([, y]) => !(y > 0))) return null;
  const [r, g, b] = [space.red, space.green, space.blue].map(([x, y]) => xyToXyz(x, y)) as [Xyz, Xyz, Xyz];
  const primaries: Matrix3 = [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]];
  const inverse = invert(primaries);
  if (!inverse) return null;
  const white = xyToXyz(space.white[0], space.white[1]);
  const s = apply(inverse, white);
  const scaled: Matrix3 = [
    r[0] * s[0],
    g[0] * s[1],
    b[0] * s[2],
    r[1] * s[0],
    g[1] * s[1],
    b[1] * s[2],
    r[2] * s[0],
    g[2] * s[1],
    b[2] * s[2],
  ];
  return multiply(bradford(white, D50), scaled);
}

let toSrgb: Matrix3 | null = null;

/** XYZ (D50) to linear sRGB: the inverse of sRGB's own D50 colorants. */
export function xyzD50ToSrgb(): Matrix3 {
  toSrgb ??= invert(colorantsOf(SRGB_PRIMARIES) as Matrix3) as Matrix3;
  return toSrgb;
}
