/**
 * Tone curves of ICC profiles (ICC.1:2022 sections 10.6 `curv` and 10.18 `para`) and of the
 * other colour declarations (PNG gAMA, cICP transfers): from a stored sample in [0, 1] to linear
 * light in [0, 1]. See docs/decode.md, "Colour".
 */

/**
 * A tone curve. `gamma`: y = x^g (curv with one entry, gAMA). `table`: samples spaced evenly over
 * [0, 1], linearly interpolated (curv with more entries; an empty curv is the identity).
 * `parametric`: one of the five `para` function types with its parameters, in ICC order
 * (g, a, b, c, d, e, f).
 */
export type ToneCurve =
  | { readonly kind: 'gamma'; readonly gamma: number }
  | { readonly kind: 'table'; readonly values: Float64Array }
  | { readonly kind: 'parametric'; readonly type: 0 | 1 | 2 | 3 | 4; readonly params: readonly number[] };

/** How many parameters each `para` function type has (ICC.1:2022 table 68). */
export const PARAMETRIC_COUNTS: readonly number[] = [1, 3, 4, 5, 7];

/** The sRGB transfer (IEC 61966-2-1) as the parametric curve ICC profiles write for it (type 3). */
export const SRGB_CURVE: ToneCurve = {
  kind: 'parametric',
  type: 3,
  params: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045],
};

/** x^g for x ≥ 0; 0 below (a negative base has no real power). */
function pow(x: number, g: number): number {
  return x <= 0 ? 0 : x ** g;
}

/**
 * The curve's value at `x` in [0, 1], clipped to [0, 1] as a profile's output is. A NaN from a
 * malformed curve is 0, so a broken profile gives a dark picture, never NaN pixels.
 *
 * @example evaluateCurve({ kind: 'gamma', gamma: 2.2 }, 0.5) // 0.2176…
 */
export function evaluateCurve(curve: ToneCurve, x: number): number {
  const y = evaluateUnclipped(curve, x);
  return y > 0 ? Math.min(y, 1) : 0;
}

function evaluateUnclipped(curve: ToneCurve, x: number): number {
  switch (curve.kind) {
    case 'gamma':
      return pow(x, curve.gamma);
    case 'table': {
      const v = curve.values;
      const n = v.length;
      if (n === 0) return x;
      if (n === 1) return v[0] as number;
      const at = x * (n - 1);
      const i = Math.min(n - 2, Math.max(0, Math.floor(at)));
      const t = at - i;
      return (v[i] as number) * (1 - t) + (v[i + 1] as number) * t;
    }
    case 'parametric': {
      const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = curve.params;
      switch (curve.type) {
        case 0:
          return pow(x, g);
        case 1:
          // Below -b/a the function is 0 (a = 0 would divide by zero: then it is b^g everywhere).
          return a !== 0 && x < -b / a ? 0 : pow(a * x + b, g);
        case 2:
          return a !== 0 && x < -b / a ? c : pow(a * x + b, g) + c;
        case 3:
          return x < d ? c * x : pow(a * x + b, g);
        case 4:
          return x < d ? c * x + f : pow(a * x + b, g) + e;
      }
    }
  }
}

/**
 * The curve sampled at the 256 values of an 8-bit channel: linear light per stored value, the
 * table a transform reads per pixel.
 */
export function curveTable8(curve: ToneCurve): Float32Array {
  const out = new Float32Array(256);
  for (let i = 0; i < 256; i++) out[i] = evaluateCurve(curve, i / 255);
  return out;
}

/** The sRGB encoding of linear light in [0, 1] (the inverse of `SRGB_CURVE`). */
export function srgbEncode(linear: number): number {
  if (linear <= 0) return 0;
  if (linear >= 1) return 1;
  return linear <= 0.0031308 ? linear * 12.92 : 1.055 * linear ** (1 / 2.4) - 0.055;
}
