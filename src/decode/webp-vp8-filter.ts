/**
 * The loop filter (RFC 6386 section 15): after a row of macroblocks is reconstructed, the edges
 * between blocks are smoothed where the step across them is small enough to be a coding artefact
 * rather than a real edge. Each macroblock filters its left edge, its inner vertical edges, its top
 * edge, then its inner horizontal edges. The simple filter touches luma only, one pixel each side;
 * the normal filter touches luma and chroma, up to three pixels each side on macroblock edges.
 * The strength of each macroblock comes from the frame's level, its segment, and whether it is
 * B_PRED (`filterStrengths`), as libwebp computes it.
 */
import type { FilterHeader, SegmentHeader } from './webp-vp8-header.js';

/** The filter parameters of one kind of macroblock: limit 0 means not filtered. */
export interface FilterStrength {
  /** Edge limit of inner edges (macroblock edges use `limit + 4`). */
  readonly limit: number;
  /** Interior limit: the largest step allowed between neighbours on one side. */
  readonly interior: number;
  /** High edge variance threshold. */
  readonly hevThreshold: number;
}

/** The strengths for [segment][B_PRED ? 1 : 0]. */
export function filterStrengths(filter: FilterHeader, segment: SegmentHeader): FilterStrength[][] {
  const out: FilterStrength[][] = [];
  for (let s = 0; s < 4; s++) {
    let base = filter.level;
    if (segment.enabled) {
      base = segment.filterLevel[s];
      if (!segment.absolute) base += filter.level;
    }
    const row: FilterStrength[] = [];
    for (let split = 0; split <= 1; split++) {
      let level = base;
      if (filter.useDeltas) {
        level += filter.refDelta[0]; // the intra frame
        if (split) level += filter.modeDelta[0]; // B_PRED
      }
      level = level < 0 ? 0 : Math.min(level, 63);
      if (level === 0) {
        row.push({ limit: 0, interior: 0, hevThreshold: 0 });
        continue;
      }
      let interior = level;
      if (filter.sharpness > 0) {
        interior >>= filter.sharpness > 4 ? 2 : 1;
        if (interior > 9 - filter.sharpness) interior = 9 - filter.sharpness;
      }
      if (interior < 1) interior = 1;
      row.push({ limit: 2 * level + interior, interior, hevThreshold: level >= 40 ? 2 : level >= 15 ? 1 : 0 });
    }
    out.push(row);
  }
  return out;
}

function clampSigned(v: number): number {
  return v < -128 ? -128 : Math.min(v, 127);
}

function clampStep(v: number): number {
  return v < -16 ? -16 : Math.min(v, 15);
}

function clampByte(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

/** Whether the step across the edge at `p` (neighbours `step` apart) is small enough: 2|p0-q0| + |p1-q1|/2 <= t. */
function small(d: Uint8Array, p: number, step: number, t2: number): boolean {
  return 4 * Math.abs(d[p - step] - d[p]) + Math.abs(d[p - 2 * step] - d[p + step]) <= t2;
}

/** Moves p0 and q0 towards each other (the simple filter, and any edge with high variance). */
function adjust2(d: Uint8Array, p: number, step: number): void {
  const p1 = d[p - 2 * step];
  const p0 = d[p - step];
  const q0 = d[p];
  const q1 = d[p + step];
  const a = 3 * (q0 - p0) + clampSigned(p1 - q1);
  const a1 = clampStep((a + 4) >> 3);
  const a2 = clampStep((a + 3) >> 3);
  d[p - step] = clampByte(p0 + a2);
  d[p] = clampByte(q0 - a1);
}

/** Inner edge without high variance: p1, p0, q0, q1. */
function adjust4(d: Uint8Array, p: number, step: number): void {
  const p1 = d[p - 2 * step];
  const p0 = d[p - step];
  const q0 = d[p];
  const q1 = d[p + step];
  const a = 3 * (q0 - p0);
  const a1 = clampStep((a + 4) >> 3);
  const a2 = clampStep((a + 3) >> 3);
  const a3 = (a1 + 1) >> 1;
  d[p - 2 * step] = clampByte(p1 + a3);
  d[p - step] = clampByte(p0 + a2);
  d[p] = clampByte(q0 - a1);
  d[p + step] = clampByte(q1 - a3);
}

/** Macroblock edge without high variance: three pixels each side, weights 27, 18, 9 (/128). */
function adjust6(d: Uint8Array, p: number, step: number): void {
  const p2 = d[p - 3 * step];
  const p1 = d[p - 2 * step];
  const p0 = d[p - step];
  const q0 = d[p];
  const q1 = d[p + step];
  const q2 = d[p + 2 * step];
  const a = clampSigned(3 * (q0 - p0) + clampSigned(p1 - q1));
  const a1 = (27 * a + 63) >> 7;
  const a2 = (18 * a + 63) >> 7;
  const a3 = (9 * a + 63) >> 7;
  d[p - 3 * step] = clampByte(p2 + a3);
  d[p - 2 * step] = clampByte(p1 + a2);
  d[p - step] = clampByte(p0 + a1);
  d[p] = clampByte(q0 - a1);
  d[p + step] = clampByte(q1 - a2);
  d[p + 2 * step] = clampByte(q2 - a3);
}

/**
 * The simple filter along one edge of `length` pixels: `p` is the first pixel past the edge,
 * `step` crosses the edge, `along` moves along it.
 */
function simpleEdge(d: Uint8Array, p: number, step: number, along: number, length: number, limit: number): void {
  const t2 = 2 * limit + 1;
  for (let i = 0; i < length; i++, p += along) if (small(d, p, step, t2)) adjust2(d, p, step);
}

/**
 * The normal filter along an edge: where the step across it is small and both sides are smooth,
 * a high-variance pixel gets `adjust2`; otherwise a macroblock edge gets `adjust6` and an inner
 * edge `adjust4`. Each position's eight pixels are read once for the tests.
 */
function normalEdge(
  d: Uint8Array,
  p: number,
  step: number,
  along: number,
  length: number,
  limit: number,
  s: FilterStrength,
  macroblock: boolean,
): void {
  const t2 = 2 * limit + 1;
  const interior = s.interior;
  const hevThreshold = s.hevThreshold;
  for (let i = 0; i < length; i++, p += along) {
    const p1 = d[p - 2 * step];
    const p0 = d[p - step];
    const q0 = d[p];
    const q1 = d[p + step];
    if (4 * Math.abs(p0 - q0) + Math.abs(p1 - q1) > t2) continue;
    const p3 = d[p - 4 * step];
    const p2 = d[p - 3 * step];
    const q2 = d[p + 2 * step];
    const q3 = d[p + 3 * step];
    if (
      Math.abs(p3 - p2) > interior ||
      Math.abs(p2 - p1) > interior ||
      Math.abs(p1 - p0) > interior ||
      Math.abs(q3 - q2) > interior ||
      Math.abs(q2 - q1) > interior ||
      Math.abs(q1 - q0) > interior
    )
      continue;
    if (Math.abs(p1 - p0) > hevThreshold || Math.abs(q1 - q0) > hevThreshold) adjust2(d, p, step);
    else if (macroblock) adjust6(d, p, step);
    else adjust4(d, p, step);
  }
}

/** The normal filter along a macroblock edge. */
function macroblockEdge(
  d: Uint8Array,
  p: number,
  step: number,
  along: number,
  length: number,
  s: FilterStrength,
): void {
  normalEdge(d, p, step, along, length, s.limit + 4, s, true);
}

/** The normal filter along an inner (sub-block) edge. */
function innerEdge(d: Uint8Array, p: number, step: number, along: number, length: number, s: FilterStrength): void {
  normalEdge(d, p, step, along, length, s.limit, s, false);
}

/**
 * Filters the luma of the macroblock whose top-left pixel is `y[at]` with the simple filter.
 * `inner` says whether its inner edges are filtered (B_PRED, or any coefficient).
 */
export function simpleFilter(
  y: Uint8Array,
  at: number,
  stride: number,
  mbX: number,
  mbY: number,
  s: FilterStrength,
  inner: boolean,
): void {
  if (mbX > 0) simpleEdge(y, at, 1, stride, 16, s.limit + 4);
  if (inner) for (let x = 4; x < 16; x += 4) simpleEdge(y, at + x, 1, stride, 16, s.limit);
  if (mbY > 0) simpleEdge(y, at, stride, 1, 16, s.limit + 4);
  if (inner) for (let r = 4; r < 16; r += 4) simpleEdge(y, at + r * stride, stride, 1, 16, s.limit);
}

/** Filters a macroblock's luma (`y[yAt]`) and chroma (`u[cAt]`, `v[cAt]`) with the normal filter. */
export function normalFilter(
  y: Uint8Array,
  yAt: number,
  yStride: number,
  u: Uint8Array,
  v: Uint8Array,
  cAt: number,
  cStride: number,
  mbX: number,
  mbY: number,
  s: FilterStrength,
  inner: boolean,
): void {
  if (mbX > 0) {
    macroblockEdge(y, yAt, 1, yStride, 16, s);
    macroblockEdge(u, cAt, 1, cStride, 8, s);
    macroblockEdge(v, cAt, 1, cStride, 8, s);
  }
  if (inner) {
    for (let x = 4; x < 16; x += 4) innerEdge(y, yAt + x, 1, yStride, 16, s);
    innerEdge(u, cAt + 4, 1, cStride, 8, s);
    innerEdge(v, cAt + 4, 1, cStride, 8, s);
  }
  if (mbY > 0) {
    macroblockEdge(y, yAt, yStride, 1, 16, s);
    macroblockEdge(u, cAt, cStride, 1, 8, s);
    macroblockEdge(v, cAt, cStride, 1, 8, s);
  }
  if (inner) {
    for (let r = 4; r < 16; r += 4) innerEdge(y, yAt + r * yStride, yStride, 1, 16, s);
    innerEdge(u, cAt + 4 * cStride, cStride, 1, 8, s);
    innerEdge(v, cAt + 4 * cStride, cStride, 1, 8, s);
  }
}
