/**
 * From component planes to RGBA: upsampling (each output pixel takes the nearest sample of every
 * component, which is what jpeg-js does and what a terminal-sized picture needs) and the colour
 * transform the file declares: grey, YCbCr (JFIF), RGB, or Adobe's inverted CMYK and YCCK.
 * See docs/decode.md, "JPEG > Colour".
 */

/** How the components of a JPEG are to be read. */
export type ColourModel = 'grey' | 'ycbcr' | 'rgb' | 'cmyk' | 'ycck';

/**
 * The colour model, from the number of components, their ids and Adobe's APP14 transform flag
 * (null when there is no Adobe segment). Without Adobe's flag three components are YCbCr unless
 * their ids spell R, G, B (as libjpeg-turbo reads them); four are CMYK.
 *
 * @example
 * colourModel([1, 2, 3], null); // 'ycbcr'
 * colourModel([1, 2, 3, 4], 2); // 'ycck'
 */
export function colourModel(ids: readonly number[], adobeTransform: number | null): ColourModel {
  if (ids.length === 1) return 'grey';
  if (ids.length === 3) {
    if (adobeTransform === 0) return 'rgb';
    if (adobeTransform === null && ids[0] === 0x52 && ids[1] === 0x47 && ids[2] === 0x42) return 'rgb';
    return 'ycbcr';
  }
  return adobeTransform === 2 ? 'ycck' : 'cmyk';
}

/** The samples of one component for a band of rows. */
export interface Plane {
  readonly data: Uint8ClampedArray;
  readonly stride: number;
  /** The component row that `data` starts at. */
  readonly firstRow: number;
  /** Output row y samples component row floor(y * rowsPer / rowsOf). */
  readonly rowsPer: number;
  readonly rowsOf: number;
}

const FIX = 16;
const HALF = 1 << (FIX - 1);
function table(f: number): Int32Array {
  const t = new Int32Array(256);
  for (let i = 0; i < 256; i++) t[i] = Math.round(f * (i - 128) * (1 << FIX));
  return t;
}
// JFIF's YCbCr to RGB (ITU-R BT.601, full range).
const CR_R = table(1.402);
const CB_G = table(-0.344136286);
const CR_G = table(-0.714136286);
const CB_B = table(1.772);
/** The four tables, for the WebAssembly copy of `ycbcrRow` (jpeg-entropy-wasm.ts). */
export const YCBCR_TABLES: readonly Int32Array[] = [CR_R, CB_G, CR_G, CB_B];

/**
 * For each output column x, the column of a component's plane it samples: floor(x * per / of),
 * where per/of is the plane's resolution relative to the output (nearest-sample upsampling).
 */
export function columnMap(width: number, per: number, of: number): Int32Array {
  const map = new Int32Array(width);
  for (let x = 0; x < width; x++) map[x] = Math.floor((x * per) / of);
  return map;
}

/**
 * Writes output rows [y0, y1) of RGBA into `out` (the whole picture, `width` pixels a row), from
 * planes that hold those rows' samples. `maps[c]` is `columnMap` of component c. One small row
 * function per colour model: V8 optimizes a function sooner the shorter it is, and a one-shot
 * decode spends its first rows waiting for that.
 */
export function writeRows(
  model: ColourModel,
  planes: readonly Plane[],
  maps: readonly Int32Array[],
  out: Uint8ClampedArray,
  width: number,
  y0: number,
  y1: number,
): void {
  // Grey reads plane 0 only; the others name their three or four planes.
  const plane = (c: number): Plane => (planes[c] ?? planes[0]) as Plane;
  const map = (c: number): Int32Array => (maps[c] ?? maps[0]) as Int32Array;
  const [q0, q1, q2, q3] = [plane(0), plane(1), plane(2), plane(3)];
  const [m0, m1, m2, m3] = [map(0), map(1), map(2), map(3)];
  for (let y = y0; y < y1; y++) {
    const o = y * width * 4;
    const r0 = rowStart(q0, y);
    if (model === 'grey') greyRow(out, o, width, q0.data, r0, m0);
    else if (model === 'ycbcr')
      ycbcrRow(out, o, width, q0.data, r0, m0, q1.data, rowStart(q1, y), m1, q2.data, rowStart(q2, y), m2);
    else if (model === 'rgb')
      rgbRow(out, o, width, q0.data, r0, m0, q1.data, rowStart(q1, y), m1, q2.data, rowStart(q2, y), m2);
    else {
      const [r1, r2, r3] = [rowStart(q1, y), rowStart(q2, y), rowStart(q3, y)];
      cmykRow(out, o, width, model === 'ycck', q0.data, r0, m0, q1.data, r1, m1, q2.data, r2, m2, q3.data, r3, m3);
    }
  }
}

function greyRow(out: Uint8ClampedArray, o: number, width: number, p0: Uint8ClampedArray, r0: number, m0: Int32Array) {
  for (let x = 0; x < width; x++, o += 4) {
    const g = p0[r0 + (m0[x] as number)] as number;
    out[o] = g;
    out[o + 1] = g;
    out[o + 2] = g;
    out[o + 3] = 255;
  }
}

function rgbRow(
  out: Uint8ClampedArray,
  o: number,
  width: number,
  p0: Uint8ClampedArray,
  r0: number,
  m0: Int32Array,
  p1: Uint8ClampedArray,
  r1: number,
  m1: Int32Array,
  p2: Uint8ClampedArray,
  r2: number,
  m2: Int32Array,
) {
  for (let x = 0; x < width; x++, o += 4) {
    out[o] = p0[r0 + (m0[x] as number)] as number;
    out[o + 1] = p1[r1 + (m1[x] as number)] as number;
    out[o + 2] = p2[r2 + (m2[x] as number)] as number;
    out[o + 3] = 255;
  }
}

function ycbcrRow(
  out: Uint8ClampedArray,
  o: number,
  width: number,
  p0: Uint8ClampedArray,
  r0: number,
  m0: Int32Array,
  p1: Uint8ClampedArray,
  r1: number,
  m1: Int32Array,
  p2: Uint8ClampedArray,
  r2: number,
  m2: Int32Array,
) {
  for (let x = 0; x < width; x++, o += 4) {
    const yy = ((p0[r0 + (m0[x] as number)] as number) << FIX) + HALF;
    const cb = p1[r1 + (m1[x] as number)] as number;
    const cr = p2[r2 + (m2[x] as number)] as number;
    out[o] = (yy + (CR_R[cr] as number)) >> FIX;
    out[o + 1] = (yy + (CB_G[cb] as number) + (CR_G[cr] as number)) >> FIX;
    out[o + 2] = (yy + (CB_B[cb] as number)) >> FIX;
    out[o + 3] = 255;
  }
}

/** Adobe CMYK is stored inverted (255 = no ink), so the visible colour is stored C times stored K. */
function cmykRow(
  out: Uint8ClampedArray,
  o: number,
  width: number,
  ycck: boolean,
  p0: Uint8ClampedArray,
  r0: number,
  m0: Int32Array,
  p1: Uint8ClampedArray,
  r1: number,
  m1: Int32Array,
  p2: Uint8ClampedArray,
  r2: number,
  m2: Int32Array,
  p3: Uint8ClampedArray,
  r3: number,
  m3: Int32Array,
) {
  for (let x = 0; x < width; x++, o += 4) {
    let c = p0[r0 + (m0[x] as number)] as number;
    let m = p1[r1 + (m1[x] as number)] as number;
    let ye = p2[r2 + (m2[x] as number)] as number;
    const k = p3[r3 + (m3[x] as number)] as number;
    if (ycck) {
      // YCC encodes 255 minus the stored C, M, Y.
      const yy = (c << FIX) + HALF;
      const r = clamp8((yy + (CR_R[ye] as number)) >> FIX);
      const g = clamp8((yy + (CB_G[m] as number) + (CR_G[ye] as number)) >> FIX);
      const b = clamp8((yy + (CB_B[m] as number)) >> FIX);
      c = 255 - r;
      m = 255 - g;
      ye = 255 - b;
    }
    out[o] = (c * k) / 255;
    out[o + 1] = (m * k) / 255;
    out[o + 2] = (ye * k) / 255;
    out[o + 3] = 255;
  }
}

/** Where output row y's samples start in a plane. (A plain function: a closure made per call would deoptimize the loop that inlined the previous one.) */
function rowStart(p: Plane, y: number): number {
  return (Math.floor((y * p.rowsPer) / p.rowsOf) - p.firstRow) * p.stride;
}

function clamp8(v: number): number {
  return Math.min(255, Math.max(0, v));
}
