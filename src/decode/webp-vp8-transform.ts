/**
 * VP8's inverse transforms (RFC 6386 section 14.3-14.4), in the exact integer arithmetic every
 * conforming decoder uses: the Walsh-Hadamard transform that spreads a 16x16 macroblock's Y2 block
 * into the DC of its 16 luma blocks, and the 4x4 inverse DCT whose output is added to the
 * prediction and clamped to 0..255.
 */

/** cos(pi/8)*sqrt(2) - 1 and sin(pi/8)*sqrt(2), in 16-bit fixed point (RFC 6386 14.4). */
const C1 = 20091;
const C2 = 35468;

/** `a` times cos(pi/8)*sqrt(2), rounded as the RFC's reference code does. */
function mul1(a: number): number {
  return ((a * C1) >> 16) + a;
}

/** `a` times sin(pi/8)*sqrt(2). */
function mul2(a: number): number {
  return (a * C2) >> 16;
}

function clampByte(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

/** Scratch for the first pass of either transform (one transform at a time; the decoder is synchronous). */
const pass = new Int32Array(16);

/**
 * Inverse WHT of `input` (16 dequantised Y2 coefficients, raster order) into the DC coefficient
 * (`out[16 * k]`) of each of the 16 luma blocks.
 */
export function inverseWht(input: Int16Array, out: Int16Array): void {
  const t = pass;
  for (let i = 0; i < 4; i++) {
    const a0 = input[i] + input[12 + i];
    const a1 = input[4 + i] + input[8 + i];
    const a2 = input[4 + i] - input[8 + i];
    const a3 = input[i] - input[12 + i];
    t[i] = a0 + a1;
    t[8 + i] = a0 - a1;
    t[4 + i] = a3 + a2;
    t[12 + i] = a3 - a2;
  }
  for (let i = 0; i < 4; i++) {
    const dc = t[i * 4] + 3;
    const a0 = dc + t[i * 4 + 3];
    const a1 = t[i * 4 + 1] + t[i * 4 + 2];
    const a2 = t[i * 4 + 1] - t[i * 4 + 2];
    const a3 = dc - t[i * 4 + 3];
    const o = i * 64;
    out[o] = (a0 + a1) >> 3;
    out[o + 16] = (a3 + a2) >> 3;
    out[o + 32] = (a0 - a1) >> 3;
    out[o + 48] = (a3 - a2) >> 3;
  }
}

/**
 * Adds the inverse DCT of the 16 coefficients at `input[at]` (raster order) to the 4x4 pixels at
 * `dst[d]` (rows `stride` apart), clamping each to 0..255.
 */
export function addInverseDct(input: Int16Array, at: number, dst: Uint8Array, d: number, stride: number): void {
  const t = pass;
  for (let i = 0; i < 4; i++) {
    // vertical pass over column i
    const i0 = input[at + i];
    const i4 = input[at + 4 + i];
    const i8 = input[at + 8 + i];
    const i12 = input[at + 12 + i];
    const a = i0 + i8;
    const b = i0 - i8;
    const c = mul2(i4) - mul1(i12);
    const e = mul1(i4) + mul2(i12);
    t[i * 4] = a + e;
    t[i * 4 + 1] = b + c;
    t[i * 4 + 2] = b - c;
    t[i * 4 + 3] = a - e;
  }
  for (let i = 0; i < 4; i++) {
    // horizontal pass over row i, with rounding
    const dc = t[i] + 4;
    const a = dc + t[8 + i];
    const b = dc - t[8 + i];
    const c = mul2(t[4 + i]) - mul1(t[12 + i]);
    const e = mul1(t[4 + i]) + mul2(t[12 + i]);
    const o = d + i * stride;
    dst[o] = clampByte(dst[o] + ((a + e) >> 3));
    dst[o + 1] = clampByte(dst[o + 1] + ((b + c) >> 3));
    dst[o + 2] = clampByte(dst[o + 2] + ((b - c) >> 3));
    dst[o + 3] = clampByte(dst[o + 3] + ((a - e) >> 3));
  }
}

/** Adds the inverse DCT of a block whose only non-zero coefficient is its DC. */
export function addInverseDc(input: Int16Array, at: number, dst: Uint8Array, d: number, stride: number): void {
  const dc = (input[at] + 4) >> 3;
  for (let y = 0; y < 4; y++) {
    const o = d + y * stride;
    dst[o] = clampByte(dst[o] + dc);
    dst[o + 1] = clampByte(dst[o + 1] + dc);
    dst[o + 2] = clampByte(dst[o + 2] + dc);
    dst[o + 3] = clampByte(dst[o + 3] + dc);
  }
}
