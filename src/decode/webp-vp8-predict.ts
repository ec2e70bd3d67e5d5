/**
 * Intra prediction (RFC 6386 section 12): each block is first filled from the pixels just above it
 * and to its left, then its residual is added. 16x16 luma and 8x8 chroma use DC, V, H or TM
 * ("TrueMotion"); 4x4 luma sub-blocks have ten modes that also use the four pixels above and to the
 * right. The prediction reads a work area (`BPS` bytes a row) whose row above and column to the
 * left hold the neighbours, with the frame's edges as the RFC sets them (127 above the top row,
 * 129 left of the left column); DC at an edge averages only the neighbours that exist.
 */
import { BMode } from './webp-vp8-probabilities.js';

/** Bytes per row of the work area. */
export const BPS = 32;

function clampByte(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

function fill(dst: Uint8Array, at: number, size: number, v: number): void {
  for (let y = 0; y < size; y++) {
    const row = at + y * BPS;
    for (let x = 0; x < size; x++) dst[row + x] = v;
  }
}

/** TrueMotion: above + left - above-left, clamped. */
function trueMotion(dst: Uint8Array, at: number, size: number): void {
  const corner = dst[at - BPS - 1];
  for (let y = 0; y < size; y++) {
    const row = at + y * BPS;
    const base = dst[row - 1] - corner;
    for (let x = 0; x < size; x++) dst[row + x] = clampByte(base + dst[at - BPS + x]);
  }
}

function vertical(dst: Uint8Array, at: number, size: number): void {
  for (let y = 0; y < size; y++) {
    const row = at + y * BPS;
    for (let x = 0; x < size; x++) dst[row + x] = dst[at - BPS + x];
  }
}

function horizontal(dst: Uint8Array, at: number, size: number): void {
  for (let y = 0; y < size; y++) {
    const row = at + y * BPS;
    const v = dst[row - 1];
    for (let x = 0; x < size; x++) dst[row + x] = v;
  }
}

/**
 * DC of a 16x16 or 8x8 block (`shift` is log2 of its side): the rounded mean of the neighbours
 * that exist (`top`/`left` false at the frame's top row / left column), 128 when there are none.
 */
function dc(dst: Uint8Array, at: number, size: number, shift: number, top: boolean, left: boolean): void {
  let sum = 0;
  if (top) for (let i = 0; i < size; i++) sum += dst[at - BPS + i];
  if (left) for (let i = 0; i < size; i++) sum += dst[at + i * BPS - 1];
  let v = 128;
  if (top && left) v = (sum + size) >> (shift + 1);
  else if (top || left) v = (sum + (size >> 1)) >> shift;
  fill(dst, at, size, v);
}

/** Predicts a 16x16 luma block (mode DC, TM, VE or HE) at `at`; `mbX`, `mbY` say which edges exist. */
export function predictLuma16(dst: Uint8Array, at: number, mode: number, mbX: number, mbY: number): void {
  predictBlock(dst, at, 16, 4, mode, mbX, mbY);
}

/** Predicts an 8x8 chroma block. */
export function predictChroma8(dst: Uint8Array, at: number, mode: number, mbX: number, mbY: number): void {
  predictBlock(dst, at, 8, 3, mode, mbX, mbY);
}

function predictBlock(
  dst: Uint8Array,
  at: number,
  size: number,
  shift: number,
  mode: number,
  mbX: number,
  mbY: number,
): void {
  switch (mode) {
    case BMode.DC:
      dc(dst, at, size, shift, mbY > 0, mbX > 0);
      break;
    case BMode.TM:
      trueMotion(dst, at, size);
      break;
    case BMode.VE:
      vertical(dst, at, size);
      break;
    default:
      horizontal(dst, at, size);
  }
}

function avg3(a: number, b: number, c: number): number {
  return (a + 2 * b + c + 2) >> 2;
}

function avg2(a: number, b: number): number {
  return (a + b + 1) >> 1;
}

/** Predicts a 4x4 luma sub-block with one of the ten `BMode`s. */
export function predictSub(d: Uint8Array, at: number, mode: number): void {
  const top = at - BPS;
  // Neighbours: X above-left, A..H above and above-right, I..L left.
  const X = d[top - 1];
  const A = d[top];
  const B = d[top + 1];
  const C = d[top + 2];
  const D = d[top + 3];
  const I = d[at - 1];
  const J = d[at + BPS - 1];
  const K = d[at + 2 * BPS - 1];
  const L = d[at + 3 * BPS - 1];
  const r0 = at;
  const r1 = at + BPS;
  const r2 = at + 2 * BPS;
  const r3 = at + 3 * BPS;
  switch (mode) {
    case BMode.DC: {
      fill(d, at, 4, (A + B + C + D + I + J + K + L + 4) >> 3);
      return;
    }
    case BMode.TM:
      trueMotion(d, at, 4);
      return;
    case BMode.VE: {
      // smoothed above row
      const E = d[top + 4];
      const v0 = avg3(X, A, B);
      const v1 = avg3(A, B, C);
      const v2 = avg3(B, C, D);
      const v3 = avg3(C, D, E);
      for (let r = r0; r <= r3; r += BPS) {
        d[r] = v0;
        d[r + 1] = v1;
        d[r + 2] = v2;
        d[r + 3] = v3;
      }
      return;
    }
    case BMode.HE: {
      d[r0] = d[r0 + 1] = d[r0 + 2] = d[r0 + 3] = avg3(X, I, J);
      d[r1] = d[r1 + 1] = d[r1 + 2] = d[r1 + 3] = avg3(I, J, K);
      d[r2] = d[r2 + 1] = d[r2 + 2] = d[r2 + 3] = avg3(J, K, L);
      d[r3] = d[r3 + 1] = d[r3 + 2] = d[r3 + 3] = avg3(K, L, L);
      return;
    }
    case BMode.RD: {
      d[r3] = avg3(J, K, L);
      d[r3 + 1] = d[r2] = avg3(I, J, K);
      d[r3 + 2] = d[r2 + 1] = d[r1] = avg3(X, I, J);
      d[r3 + 3] = d[r2 + 2] = d[r1 + 1] = d[r0] = avg3(A, X, I);
      d[r2 + 3] = d[r1 + 2] = d[r0 + 1] = avg3(B, A, X);
      d[r1 + 3] = d[r0 + 2] = avg3(C, B, A);
      d[r0 + 3] = avg3(D, C, B);
      return;
    }
    case BMode.VR: {
      d[r0] = d[r2 + 1] = avg2(X, A);
      d[r0 + 1] = d[r2 + 2] = avg2(A, B);
      d[r0 + 2] = d[r2 + 3] = avg2(B, C);
      d[r0 + 3] = avg2(C, D);
      d[r3] = avg3(K, J, I);
      d[r2] = avg3(J, I, X);
      d[r1] = d[r3 + 1] = avg3(I, X, A);
      d[r1 + 1] = d[r3 + 2] = avg3(X, A, B);
      d[r1 + 2] = d[r3 + 3] = avg3(A, B, C);
      d[r1 + 3] = avg3(B, C, D);
      return;
    }
    case BMode.LD: {
      const E = d[top + 4];
      const F = d[top + 5];
      const G = d[top + 6];
      const H = d[top + 7];
      d[r0] = avg3(A, B, C);
      d[r0 + 1] = d[r1] = avg3(B, C, D);
      d[r0 + 2] = d[r1 + 1] = d[r2] = avg3(C, D, E);
      d[r0 + 3] = d[r1 + 2] = d[r2 + 1] = d[r3] = avg3(D, E, F);
      d[r1 + 3] = d[r2 + 2] = d[r3 + 1] = avg3(E, F, G);
      d[r2 + 3] = d[r3 + 2] = avg3(F, G, H);
      d[r3 + 3] = avg3(G, H, H);
      return;
    }
    case BMode.VL: {
      const E = d[top + 4];
      const F = d[top + 5];
      const G = d[top + 6];
      const H = d[top + 7];
      d[r0] = avg2(A, B);
      d[r0 + 1] = d[r2] = avg2(B, C);
      d[r0 + 2] = d[r2 + 1] = avg2(C, D);
      d[r0 + 3] = d[r2 + 2] = avg2(D, E);
      d[r1] = avg3(A, B, C);
      d[r1 + 1] = d[r3] = avg3(B, C, D);
      d[r1 + 2] = d[r3 + 1] = avg3(C, D, E);
      d[r1 + 3] = d[r3 + 2] = avg3(D, E, F);
      // The RFC's two odd ones out: not continuing the pattern above.
      d[r2 + 3] = avg3(E, F, G);
      d[r3 + 3] = avg3(F, G, H);
      return;
    }
    case BMode.HD: {
      d[r0] = d[r1 + 2] = avg2(I, X);
      d[r1] = d[r2 + 2] = avg2(J, I);
      d[r2] = d[r3 + 2] = avg2(K, J);
      d[r3] = avg2(L, K);
      d[r0 + 3] = avg3(A, B, C);
      d[r0 + 2] = avg3(X, A, B);
      d[r0 + 1] = d[r1 + 3] = avg3(I, X, A);
      d[r1 + 1] = d[r2 + 3] = avg3(J, I, X);
      d[r2 + 1] = d[r3 + 3] = avg3(K, J, I);
      d[r3 + 1] = avg3(L, K, J);
      return;
    }
    default: {
      // HU
      d[r0] = avg2(I, J);
      d[r0 + 2] = d[r1] = avg2(J, K);
      d[r1 + 2] = d[r2] = avg2(K, L);
      d[r0 + 1] = avg3(I, J, K);
      d[r0 + 3] = d[r1 + 1] = avg3(J, K, L);
      d[r1 + 3] = d[r2 + 1] = avg3(K, L, L);
      d[r2 + 3] = d[r2 + 2] = d[r3] = d[r3 + 1] = d[r3 + 2] = d[r3 + 3] = L;
    }
  }
}
