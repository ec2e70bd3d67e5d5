/**
 * HDR to SDR: a PQ (SMPTE ST 2084) or HLG (ITU-R BT.2100) signal per channel to display light,
 * tone-mapped by ITU-R BT.2390's EETF from a 1000 cd/m² source to SDR white at 203 cd/m² (BT.2408's
 * HDR reference white), as a 256-entry table of linear light relative to SDR white, which
 * colour.ts then converts like any other transfer. Why this curve: docs/decode.md#hdr.
 */

/** ST 2084's constants. */
const M1 = 2610 / 16384;
const M2 = (2523 / 4096) * 128;
const C1 = 3424 / 4096;
const C2 = (2413 / 4096) * 32;
const C3 = (2392 / 4096) * 32;
/** PQ's absolute scale: a signal of 1 is 10000 cd/m². */
const PQ_PEAK = 10000;

/** The luminance (cd/m²) a PQ signal in [0, 1] stands for (ST 2084's EOTF). */
export function pqToNits(signal: number): number {
  const p = Math.max(0, signal) ** (1 / M2);
  return PQ_PEAK * (Math.max(p - C1, 0) / (C2 - C3 * p)) ** (1 / M1);
}

/** The PQ signal of a luminance (ST 2084's inverse EOTF). */
export function nitsToPq(nits: number): number {
  const y = (Math.max(0, nits) / PQ_PEAK) ** M1;
  return ((C1 + C2 * y) / (1 + C3 * y)) ** M2;
}

/** BT.2100's HLG constants. */
const HLG_A = 0.17883277;
const HLG_B = 1 - 4 * HLG_A;
const HLG_C = 0.5 - HLG_A * Math.log(4 * HLG_A);

/** HLG's inverse OETF: a signal in [0, 1] to normalised scene light in [0, 1]. */
export function hlgToScene(signal: number): number {
  const e = Math.max(0, signal);
  return e <= 0.5 ? (e * e) / 3 : (Math.exp((e - HLG_C) / HLG_A) + HLG_B) / 12;
}

/** The HDR display the source is taken to be graded on: BT.2408's reference 1000 cd/m², black 0. */
export const SOURCE_PEAK_NITS = 1000;
/** SDR white: BT.2408's HDR reference white (and graphics white), 203 cd/m². */
export const SDR_WHITE_NITS = 203;
/** BT.2100's HLG system gamma at a 1000 cd/m² display. */
const HLG_GAMMA = 1.2;

/**
 * BT.2390's EETF (section 5.4) on a PQ signal: the source range [0, SOURCE_PEAK] onto
 * [0, SDR_WHITE], identity below the knee, a Hermite spline above it that reaches the target's
 * peak exactly at the source's peak. Signals past the source peak are held at it. Black is 0 on
 * both sides, so the black-level lift of the EETF's last step is zero.
 */
export function eetf(signal: number): number {
  const sourceMax = nitsToPq(SOURCE_PEAK_NITS);
  const e1 = Math.min(1, Math.max(0, signal / sourceMax));
  const maxLum = nitsToPq(SDR_WHITE_NITS) / sourceMax;
  const ks = 1.5 * maxLum - 0.5;
  let e2 = e1;
  if (e1 >= ks) {
    const t = (e1 - ks) / (1 - ks);
    const t2 = t * t;
    const t3 = t2 * t;
    e2 = (2 * t3 - 3 * t2 + 1) * ks + (t3 - 2 * t2 + t) * (1 - ks) + (-2 * t3 + 3 * t2) * maxLum;
  }
  return e2 * sourceMax;
}

/** The HDR transfers termsight tone-maps, by ITU-T H.273 code point. */
export type HdrTransfer = 16 | 18;

/**
 * One channel's 8-bit signal to linear light relative to SDR white (1 is 203 cd/m²), tone-mapped:
 * PQ through its EOTF; HLG through its inverse OETF and BT.2100's OOTF for a 1000 cd/m² display
 * (system gamma 1.2, applied to each channel: a table per channel, not on luminance); both then
 * through the EETF in PQ. Never above 1.
 */
export function hdrToSdrLinear(transfer: HdrTransfer, signal: number): number {
  const nits = transfer === 16 ? pqToNits(signal) : SOURCE_PEAK_NITS * hlgToScene(signal) ** HLG_GAMMA;
  return Math.min(1, pqToNits(eetf(nitsToPq(nits))) / SDR_WHITE_NITS);
}

/** `hdrToSdrLinear` of each 8-bit value, for colour.ts's per-channel tables. */
export function hdrTable8(transfer: HdrTransfer): Float32Array {
  const out = new Float32Array(256);
  for (let v = 0; v < 256; v++) out[v] = hdrToSdrLinear(transfer, v / 255);
  return out;
}
