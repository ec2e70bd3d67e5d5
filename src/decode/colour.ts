/**
 * The one place colour is applied, for every format: from the `ColourInfo` a decoder hands back
 * (an ICC profile, PNG's cICP, sRGB, gAMA and cHRM) to a transform to sRGB, or the reason there is
 * none, and the transform run over the frames before anything resizes or encodes them. Which
 * declaration wins follows PNG (third edition, 4.3): cICP, then iCCP, then sRGB, then gAMA/cHRM.
 * See docs/decode.md, "Colour".
 */
import { type Chromaticities, colorantsOf, invert, multiply, SRGB_PRIMARIES, xyzD50ToSrgb } from './colour-space.js';
import { type HdrTransfer, hdrTable8, SDR_WHITE_NITS, SOURCE_PEAK_NITS } from './hdr-tone.js';
import { type IccProfile, type Matrix3, readIccProfile } from './icc.js';
import { curveTable8, SRGB_CURVE, srgbEncode, type ToneCurve } from './icc-curve.js';
import type { ColourHandling, ColourInfo, DecodedFrame } from './image.js';

/**
 * A conversion to sRGB: each channel's stored value to linear light (256 entries), then a matrix
 * to linear sRGB (null: none, the channels stay apart), then the sRGB encoding.
 */
export interface ColourTransform {
  readonly linear: readonly [Float32Array, Float32Array, Float32Array];
  readonly matrix: Matrix3 | null;
}

/** What to do with a picture's colour: a transform (null: keep the pixels) and the report. */
export interface ColourPlan {
  readonly transform: ColourTransform | null;
  readonly handling: ColourHandling;
}

/** What the stored pixels are, from the decoder: grey pixels take a grey profile; RGB ones do not. */
export type StoredModel = 'grey' | 'rgb' | 'cmyk';

/**
 * Decides how a picture's colour is handled. Never throws: a profile that cannot be read is a
 * reason in `handling.why`, and the picture is drawn as sRGB.
 *
 * @example planColour({}, 'rgb').handling // { applied: 'as-is', why: 'no colour space declared: sRGB' }
 */
export function planColour(info: ColourInfo, stored: StoredModel = 'rgb'): ColourPlan {
  if (info.cicp) return planCicp(info.cicp);
  if (info.problem) return unconverted(info.problem);
  if (info.icc) return planIcc(info.icc, stored);
  if (info.srgbIntent !== undefined) return asIs('PNG sRGB chunk: sRGB');
  if (info.gamma !== undefined || info.chromaticities) return planGammaChromaticities(info);
  return asIs('no colour space declared: sRGB');
}

function asIs(why: string): ColourPlan {
  return { transform: null, handling: { applied: 'as-is', why } };
}

function unconverted(why: string): ColourPlan {
  return { transform: null, handling: { applied: 'unconverted', why: `${why}; drawn as sRGB` } };
}

/** A transform, unless it changes no 8-bit value by more than `SRGB_TOLERANCE` (then: sRGB as is). */
function converted(transform: ColourTransform, what: string): ColourPlan {
  if (isSrgb(transform)) return asIs(`${what}: equal to sRGB, drawn as stored`);
  return { transform, handling: { applied: 'converted', why: `${what}: converted to sRGB` } };
}

function quoted(description: string): string {
  return description ? ` "${description}"` : '';
}

function planIcc(bytes: Uint8Array, stored: StoredModel): ColourPlan {
  const reading = readIccProfile(bytes);
  if (!reading.ok) return unconverted(`ICC profile${quoted(reading.description)}: ${reading.why}`);
  const profile = reading.profile;
  const what = `ICC profile${quoted(profile.description)}`;
  if (stored === 'cmyk') return unconverted(`${what} on a CMYK picture, which is not converted`);
  if (profile.kind === 'grey') {
    if (stored !== 'grey') return unconverted(`${what} is grey and the picture is not`);
    const table = curveTable8(profile.curve);
    // With a Lab connection space the curve gives L* (over 100): luminance is L*'s inverse.
    if (profile.pcs === 'Lab') for (let v = 0; v < 256; v++) table[v] = luminanceOfLightness(table[v] as number);
    return converted({ linear: [table, table, table], matrix: null }, `${what} (grey)`);
  }
  return matrixTransform(profile, what);
}

/** CIE Y (0..1) of a lightness L* / 100 (CIE 15). */
function luminanceOfLightness(l: number): number {
  const f = (l * 100 + 16) / 116;
  return f > 6 / 29 ? f * f * f : 3 * (6 / 29) ** 2 * (f - 4 / 29);
}

function matrixTransform(profile: Extract<IccProfile, { kind: 'matrix-trc' }>, what: string): ColourPlan {
  if (invert(profile.colorants) === null) return unconverted(`${what}: its colorants are singular`);
  const matrix = multiply(xyzD50ToSrgb(), profile.colorants);
  const [r, g, b] = profile.curves;
  return converted({ linear: [curveTable8(r), curveTable8(g), curveTable8(b)], matrix }, `${what} (matrix/TRC)`);
}

/** cICP colour primaries (ITU-T H.273 table 2) termsight converts, with their names. */
const CICP_PRIMARIES: Readonly<Record<number, { name: string; space: Chromaticities }>> = {
  1: { name: 'BT.709/sRGB', space: SRGB_PRIMARIES },
  4: {
    name: 'BT.470M',
    space: { red: [0.67, 0.33], green: [0.21, 0.71], blue: [0.14, 0.08], white: [0.31, 0.316] },
  },
  5: {
    name: 'BT.601 625',
    space: { red: [0.64, 0.33], green: [0.29, 0.6], blue: [0.15, 0.06], white: [0.3127, 0.329] },
  },
  6: {
    name: 'BT.601 525',
    space: { red: [0.63, 0.34], green: [0.31, 0.595], blue: [0.155, 0.07], white: [0.3127, 0.329] },
  },
  9: {
    name: 'BT.2020',
    space: { red: [0.708, 0.292], green: [0.17, 0.797], blue: [0.131, 0.046], white: [0.3127, 0.329] },
  },
  11: {
    name: 'DCI-P3',
    space: { red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: [0.314, 0.351] },
  },
  12: {
    name: 'Display P3',
    space: { red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: [0.3127, 0.329] },
  },
};

/** BT.709's (and BT.601's, BT.2020's) transfer, inverted: the curve skcms and ICC's Rec. 709 profiles use. */
const BT709_CURVE: ToneCurve = {
  kind: 'parametric',
  type: 3,
  params: [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081],
};

/** cICP transfer characteristics (ITU-T H.273 table 3) termsight converts. */
const CICP_TRANSFERS: Readonly<Record<number, { name: string; curve: ToneCurve }>> = {
  1: { name: 'BT.709', curve: BT709_CURVE },
  4: { name: 'gamma 2.2', curve: { kind: 'gamma', gamma: 2.2 } },
  5: { name: 'gamma 2.8', curve: { kind: 'gamma', gamma: 2.8 } },
  6: { name: 'BT.601', curve: BT709_CURVE },
  8: { name: 'linear', curve: { kind: 'gamma', gamma: 1 } },
  13: { name: 'sRGB', curve: SRGB_CURVE },
  14: { name: 'BT.2020', curve: BT709_CURVE },
  15: { name: 'BT.2020', curve: BT709_CURVE },
};

/** HDR transfers: tone-mapped to SDR before the conversion (hdr-tone.ts). */
const CICP_HDR: Readonly<Record<HdrTransfer, string>> = { 16: 'PQ (SMPTE ST 2084)', 18: 'HLG' };

function planCicp(cicp: NonNullable<ColourInfo['cicp']>): ColourPlan {
  const source = cicp.source ?? 'PNG cICP';
  const what = `${source} ${cicp.primaries}/${cicp.transfer}/${cicp.matrix}/${cicp.fullRange ? 1 : 0}`;
  if (cicp.matrix !== 0) return unconverted(`${what}: matrix coefficients ${cicp.matrix} (PNG allows RGB, 0, only)`);
  if (!cicp.fullRange) return unconverted(`${what}: narrow-range samples, which are not converted`);
  const primaries = CICP_PRIMARIES[cicp.primaries];
  if (!primaries) return unconverted(`${what}: colour primaries ${cicp.primaries}, which are not converted`);
  if (cicp.transfer === 16 || cicp.transfer === 18) {
    const label = `${source} (${primaries.name} primaries, HDR transfer ${CICP_HDR[cicp.transfer]}), tone-mapped to SDR by BT.2390's EETF (${SOURCE_PEAK_NITS} cd/m² to white at ${SDR_WHITE_NITS})`;
    return fromSpace(primaries.space, hdrTable8(cicp.transfer), label);
  }
  const transfer = CICP_TRANSFERS[cicp.transfer];
  if (!transfer) return unconverted(`${what}: transfer characteristics ${cicp.transfer}, which are not converted`);
  const label = `${source} (${primaries.name} primaries, ${transfer.name} transfer)`;
  if (cicp.primaries === 1 && cicp.transfer === 13) return asIs(`${label}: sRGB`);
  return fromSpace(primaries.space, transfer.curve, label);
}

/** A conversion from RGB of `space` whose channels go to linear light by `curve` (or a table of it). */
function fromSpace(space: Chromaticities, curve: ToneCurve | Float32Array, what: string): ColourPlan {
  const colorants = colorantsOf(space);
  if (!colorants) return unconverted(`${what}: the primaries do not make a colour space`);
  const table = curve instanceof Float32Array ? curve : curveTable8(curve);
  return converted({ linear: [table, table, table], matrix: multiply(xyzD50ToSrgb(), colorants) }, what);
}

/**
 * gAMA and cHRM without sRGB, iCCP or cICP. gAMA near 1/2.2 with no cHRM, or sRGB's cHRM, is
 * what sRGB writers put there (libpng counts it as sRGB too), so it is drawn as stored; cHRM
 * without gAMA keeps the sRGB curve.
 */
function planGammaChromaticities(info: ColourInfo): ColourPlan {
  const g = info.gamma;
  const c = info.chromaticities;
  if (g !== undefined && !(g > 0)) return unconverted(`PNG gAMA ${g}, which is not a gamma`);
  let space = SRGB_PRIMARIES;
  if (c && c.length === 8) {
    const p = c.map((v) => v / 100000);
    space = {
      white: [p[0] as number, p[1] as number],
      red: [p[2] as number, p[3] as number],
      green: [p[4] as number, p[5] as number],
      blue: [p[6] as number, p[7] as number],
    };
  }
  const srgbPrimaries = Object.entries(space).every(([k, [x, y]]) => {
    const s = SRGB_PRIMARIES[k as keyof Chromaticities];
    return Math.abs(x - s[0]) < 0.01 && Math.abs(y - s[1]) < 0.01;
  });
  const srgbGamma = g === undefined || Math.abs(g - 45455) <= 500;
  const what = [g !== undefined ? `PNG gAMA ${(g / 100000).toFixed(5)}` : '', c ? 'cHRM' : '']
    .filter(Boolean)
    .join(' and ');
  if (srgbPrimaries && srgbGamma) return asIs(`${what}: sRGB's, drawn as stored`);
  const curve: ToneCurve = g === undefined ? SRGB_CURVE : { kind: 'gamma', gamma: 100000 / g };
  return fromSpace(space, curve, what);
}

/** Entries of the sRGB encoding table over linear light [0, 1]: a step is 0.2 of an 8-bit value at black. */
const ENCODE_STEPS = 1 << 14;
let encodeTable: Uint8Array | null = null;

/** Linear light (index / ENCODE_STEPS) to an 8-bit sRGB value, rounded. */
function srgbEncodeTable(): Uint8Array {
  if (!encodeTable) {
    encodeTable = new Uint8Array(ENCODE_STEPS + 1);
    for (let i = 0; i <= ENCODE_STEPS; i++) encodeTable[i] = Math.round(srgbEncode(i / ENCODE_STEPS) * 255);
  }
  return encodeTable;
}

/** The most an off-diagonal (or diagonal minus 1) matrix entry may be and still count as sRGB. */
const MATRIX_TOLERANCE = 0.005;

/**
 * Whether a transform is sRGB within tolerance: its matrix within `MATRIX_TOLERANCE` of the
 * identity, and each channel's curve, encoded back to sRGB, within one 8-bit step of every value.
 * The standard sRGB profiles (HP's, the ICC's v4, lcms's, Apple's) differ from the exact
 * primaries by rounding alone; their pictures are then drawn byte for byte as stored.
 */
export function isSrgb(transform: ColourTransform): boolean {
  const m = transform.matrix;
  if (m)
    for (let i = 0; i < 9; i++) if (Math.abs((m[i] as number) - (i % 4 === 0 ? 1 : 0)) > MATRIX_TOLERANCE) return false;
  for (const table of transform.linear)
    for (let v = 0; v < 256; v++) if (Math.abs(Math.round(srgbEncode(table[v] as number) * 255) - v) > 1) return false;
  return true;
}

/** Whether the matrix keeps channels apart (then three 256-entry tables do the whole transform). */
function isDiagonal(m: Matrix3 | null): boolean {
  return m === null || [1, 2, 3, 5, 6, 7].every((i) => Math.abs(m[i] as number) < 1e-6);
}

/**
 * Converts RGBA8 pixels to sRGB in place (alpha untouched): per channel to linear light by table,
 * the 3x3 matrix, clipped to [0, 1], sRGB-encoded by table.
 */
export function transformPixels(transform: ColourTransform, data: Uint8Array): void {
  const enc = srgbEncodeTable();
  const [lr, lg, lb] = transform.linear;
  const m = transform.matrix;
  if (isDiagonal(m)) {
    // Each channel on its own: one 256-entry table per channel.
    const tables = [lr, lg, lb].map((t, c) => {
      const scale = m ? (m[c * 4] as number) : 1;
      const out = new Uint8Array(256);
      for (let v = 0; v < 256; v++) {
        const x = (t[v] as number) * scale;
        out[v] = enc[x <= 0 ? 0 : x >= 1 ? ENCODE_STEPS : (x * ENCODE_STEPS + 0.5) | 0] as number;
      }
      return out;
    }) as [Uint8Array, Uint8Array, Uint8Array];
    const [tr, tg, tb] = tables;
    for (let i = 0; i < data.length; i += 4) {
      data[i] = tr[data[i] as number] as number;
      data[i + 1] = tg[data[i + 1] as number] as number;
      data[i + 2] = tb[data[i + 2] as number] as number;
    }
    return;
  }
  const S = ENCODE_STEPS;
  const [m0, m1, m2, m3, m4, m5, m6, m7, m8] = (m as Matrix3).map((v) => v * S);
  for (let i = 0; i < data.length; i += 4) {
    const r = lr[data[i] as number] as number;
    const g = lg[data[i + 1] as number] as number;
    const b = lb[data[i + 2] as number] as number;
    const x = (m0 as number) * r + (m1 as number) * g + (m2 as number) * b;
    const y = (m3 as number) * r + (m4 as number) * g + (m5 as number) * b;
    const z = (m6 as number) * r + (m7 as number) * g + (m8 as number) * b;
    data[i] = enc[x <= 0 ? 0 : x >= S ? S : (x + 0.5) | 0] as number;
    data[i + 1] = enc[y <= 0 ? 0 : y >= S ? S : (y + 0.5) | 0] as number;
    data[i + 2] = enc[z <= 0 ? 0 : z >= S ? S : (z + 0.5) | 0] as number;
  }
}

/**
 * Applies the colour a decoder found to its frames (in place; each pixel buffer once) and says
 * what was done. `mode: 'keep'` leaves the pixels and reports what was declared.
 */
export function applyColour(
  frames: readonly DecodedFrame[],
  info: ColourInfo,
  stored: StoredModel,
  mode: 'srgb' | 'keep' = 'srgb',
): ColourHandling {
  const plan = planColour(info, stored);
  if (!plan.transform) return plan.handling;
  if (mode === 'keep')
    return {
      applied: 'unconverted',
      why: plan.handling.why.replace(/: converted to sRGB$/, ': kept as stored (colour: keep)'),
    };
  const done = new Set<Uint8Array>();
  for (const frame of frames) {
    const data = frame.raster.data;
    if (done.has(data)) continue;
    done.add(data);
    transformPixels(plan.transform, data);
  }
  return plan.handling;
}
