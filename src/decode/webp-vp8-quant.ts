/**
 * Dequantisation (RFC 6386 sections 9.6 and 14.1): the frame header gives a base quantizer index
 * (0..127), per-segment overrides and five deltas; each becomes a pair of multipliers (DC, AC) for
 * the three kinds of block: Y, Y2 (the second-order luma DC block of 16x16 macroblocks) and chroma.
 */

/** Quantizer index to DC multiplier (RFC 6386 14.1, dc_qlookup). */
const DC_TABLE = new Uint16Array([
  4, 5, 6, 7, 8, 9, 10, 10, 11, 12, 13, 14, 15, 16, 17, 17, 18, 19, 20, 20, 21, 21, 22, 22, 23, 23, 24, 25, 25, 26, 27,
  28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 46, 47, 48, 49, 50, 51, 52, 53, 54,
  55, 56, 57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 69, 70, 71, 72, 73, 74, 75, 76, 76, 77, 78, 79, 80, 81, 82,
  83, 84, 85, 86, 87, 88, 89, 91, 93, 95, 96, 98, 100, 101, 102, 104, 106, 108, 110, 112, 114, 116, 118, 122, 124, 126,
  128, 130, 132, 134, 136, 138, 140, 143, 145, 148, 151, 154, 157,
]);

/** Quantizer index to AC multiplier (RFC 6386 14.1, ac_qlookup). */
const AC_TABLE = new Uint16Array([
  4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33, 34,
  35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 60, 62, 64, 66, 68,
  70, 72, 74, 76, 78, 80, 82, 84, 86, 88, 90, 92, 94, 96, 98, 100, 102, 104, 106, 108, 110, 112, 114, 116, 119, 122,
  125, 128, 131, 134, 137, 140, 143, 146, 149, 152, 155, 158, 161, 164, 167, 170, 173, 177, 181, 185, 189, 193, 197,
  201, 205, 209, 213, 217, 221, 225, 229, 234, 239, 245, 249, 254, 259, 264, 269, 274, 279, 284,
]);

/** The quantizer fields of a frame header. */
export interface QuantHeader {
  readonly baseIndex: number;
  readonly y1Dc: number;
  readonly y2Dc: number;
  readonly y2Ac: number;
  readonly uvDc: number;
  readonly uvAc: number;
}

/** One segment's multipliers, each pair [DC, AC]. */
export interface Dequant {
  readonly y1: Int32Array;
  readonly y2: Int32Array;
  readonly uv: Int32Array;
}

function index(q: number, max: number): number {
  return q < 0 ? 0 : Math.min(q, max);
}

/**
 * The multipliers of a segment whose quantizer index is `q`. Y2's DC is doubled and its AC is
 * scaled by 155/100 with a floor of 8; chroma DC stops at index 117 (a multiplier of 132): both as
 * the RFC's reference decoder does. x*155/100 equals (x*101581)>>16 for every table value.
 */
export function dequant(q: number, h: QuantHeader): Dequant {
  const y2Ac = (AC_TABLE[index(q + h.y2Ac, 127)] * 101581) >> 16;
  return {
    y1: Int32Array.of(DC_TABLE[index(q + h.y1Dc, 127)], AC_TABLE[index(q, 127)]),
    y2: Int32Array.of(DC_TABLE[index(q + h.y2Dc, 127)] * 2, Math.max(y2Ac, 8)),
    uv: Int32Array.of(DC_TABLE[index(q + h.uvDc, 117)], AC_TABLE[index(q + h.uvAc, 127)]),
  };
}
