/**
 * termsight's WebP lossy decoder: a VP8 key frame (RFC 6386) to RGBA, with libwebp's choices where
 * the RFC leaves room (chroma upsampling, YUV to RGB, what a partition that runs out means), so the
 * pixels equal `dwebp`'s. The input is the payload of a RIFF 'VP8 ' chunk; the container, alpha and
 * animation are webp.ts's. Why it is built this way: docs/decode.md, "WebP lossy (VP8)".
 */
import { DecodeError } from './error.js';
import type { BoolDecoder } from './webp-vp8-bool.js';
import { type FilterStrength, filterStrengths, normalFilter, simpleFilter } from './webp-vp8-filter.js';
import { type FrameHeader, parseFrameHeader, readFrameTag } from './webp-vp8-header.js';
import { RowModes } from './webp-vp8-modes.js';
import { BPS, predictChroma8, predictLuma16, predictSub } from './webp-vp8-predict.js';
import { type Dequant, dequant } from './webp-vp8-quant.js';
import { reducedYuvToRgba } from './webp-vp8-reduce.js';
import { Residual, TokenReader } from './webp-vp8-tokens.js';
import { addInverseDc, addInverseDct } from './webp-vp8-transform.js';
import { type Planes, yuvToRgba } from './webp-vp8-yuv.js';

/** Size limits: checked against the frame header before anything is allocated for the picture. */
export interface Vp8Limits {
  readonly maxPixels: number;
  readonly maxSide: number;
}

/** A decoded frame: RGBA, alpha 255, `width * height * 4` bytes. */
export interface Vp8Image {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/**
 * The fewest bits of the first partition a macroblock can take. Every macroblock codes at least
 * its 16x16-or-not flag (probability 145/256) and its chroma mode's first bit (142/256), whatever
 * the header's probabilities: 1.67 bits or more. A first partition that holds less than this for
 * its declared macroblocks would run out, which libwebp refuses; it is refused before allocating.
 */
const MIN_MODE_BITS_PER_MACROBLOCK = 1.5;

/**
 * Reads a VP8 frame's size from its first ten bytes, without decoding.
 *
 * @example
 * readVp8Size(vp8Payload); // { width: 640, height: 480 }
 */
export function readVp8Size(data: Uint8Array): { width: number; height: number } {
  const { width, height } = readFrameTag(data);
  return { width, height };
}

/**
 * Decodes a VP8 key frame (the payload of a WebP 'VP8 ' chunk) to RGBA. Throws a `DecodeError`:
 * `too-large` past `limits` (before any pixel is allocated), `truncated` when the data ends before
 * the frame does, `corrupt` for a frame that is not a shown key frame, has no start code, or whose
 * partitions cannot hold what it declares.
 */
export function decodeVp8(data: Uint8Array, limits: Vp8Limits): Vp8Image {
  const { width, height, planes } = checkedPlanes(data, limits);
  return { width, height, data: yuvToRgba(planes, width, height) };
}

/**
 * `decodeVp8` `factor` times smaller on each side (rounded up), with `alpha` (the frame's
 * full-size alpha plane) averaged in: every macroblock is still decoded, but the chroma
 * upsampling and colour conversion are done per block (webp-vp8-reduce.ts). The full-size
 * decode averaged down, within the rounding the tests state.
 */
export function decodeVp8Reduced(
  data: Uint8Array,
  limits: Vp8Limits,
  factor: number,
  alpha: Uint8Array | null,
): Vp8Image {
  const { width, height, planes } = checkedPlanes(data, limits);
  return reducedYuvToRgba(planes, width, height, factor, alpha);
}

/** The frame's planes, after the checks of its size and first partition. */
function checkedPlanes(data: Uint8Array, limits: Vp8Limits): { width: number; height: number; planes: Planes } {
  const { width, height } = readFrameTag(data);
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels) {
    const mp = ((width * height) / 1e6).toFixed(1);
    throw new DecodeError(
      'too-large',
      `WebP image too large to decode safely: ${width}x${height} (${mp} megapixels); the limit is ${limits.maxPixels / 1e6} megapixels and ${limits.maxSide} pixels a side`,
    );
  }
  const header = parseFrameHeader(data);
  const macroblocks = header.mbWide * header.mbHigh;
  if (header.firstPartitionSize * 8 < macroblocks * MIN_MODE_BITS_PER_MACROBLOCK - 64) {
    throw new DecodeError(
      'corrupt',
      `corrupt WebP: a VP8 first partition of ${header.firstPartitionSize} bytes cannot hold the modes of the ${macroblocks} macroblocks of a ${width}x${height} frame`,
    );
  }
  return { width, height, planes: decodePlanes(header) };
}

/** Work-area offsets: luma at row 1, column 8; chroma below it, U then V side by side. */
const Y_AT = BPS + 8;
const U_AT = Y_AT + 16 * BPS + BPS;
const V_AT = U_AT + 16;
/** Offsets of the 16 luma sub-blocks in the work area, raster order. */
const SUB_AT = Array.from({ length: 16 }, (_, n) => (n >> 2) * 4 * BPS + (n & 3) * 4);

/** Reconstructs and filters every macroblock into Y, U and V planes (macroblock-aligned). */
function decodePlanes(header: FrameHeader): {
  y: Uint8Array;
  u: Uint8Array;
  v: Uint8Array;
  yStride: number;
  uvStride: number;
} {
  const { mbWide, mbHigh, segment, filter } = header;
  const yStride = mbWide * 16;
  const uvStride = mbWide * 8;
  const y = new Uint8Array(yStride * mbHigh * 16);
  const u = new Uint8Array(uvStride * mbHigh * 8);
  const v = new Uint8Array(uvStride * mbHigh * 8);

  const quants: Dequant[] = [];
  for (let s = 0; s < 4; s++) {
    let q = header.quant.baseIndex;
    if (segment.enabled) q = segment.quantizer[s] + (segment.absolute ? 0 : q);
    quants.push(dequant(q, header.quant));
  }
  // libwebp filters only when the frame's level is not 0, whatever the segments say.
  const filtering = filter.level === 0 ? 0 : filter.simple ? 1 : 2;
  const strengths = filterStrengths(filter, segment);
  const rowStrength: FilterStrength[] = new Array(mbWide);
  const rowInner = new Uint8Array(mbWide);

  const modes = new RowModes(mbWide);
  const tokens = new TokenReader(header.coeffProbs, mbWide);
  const work = new Uint8Array(BPS * 17 + BPS * 9);
  // The same bytes as 32-bit words, for copying macroblocks out (the sizes are multiples of 4).
  const work32 = new Uint32Array(work.buffer);
  const y32 = new Uint32Array(y.buffer);
  const u32 = new Uint32Array(u.buffer);
  const v32 = new Uint32Array(v.buffer);
  // The unfiltered bottom row of each macroblock of the row above, for prediction.
  const topY = new Uint8Array(yStride);
  const topU = new Uint8Array(uvStride);
  const topV = new Uint8Array(uvStride);
  const partitions = header.tokens;

  for (let mbY = 0; mbY < mbHigh; mbY++) {
    if (!modes.read(header.modes, header)) {
      throw new DecodeError(
        'corrupt',
        `corrupt WebP: the VP8 first partition ends before the modes of macroblock row ${mbY} (of ${mbHigh})`,
      );
    }
    const index = mbY & (partitions.length - 1);
    const br = partitions[index] as BoolDecoder;
    tokens.startRow();
    startRow(work, mbY);
    for (let mbX = 0; mbX < mbWide; mbX++) {
      const split = modes.split[mbX] === 1;
      const seg = modes.segment[mbX];
      let coded = false;
      if (modes.skip[mbX]) tokens.skip(mbX, split);
      else coded = tokens.read(br, mbX, split, quants[seg] as Dequant);
      if (br.eof) {
        // libwebp refuses a frame whose token partition ran out; the last one ends at the end of the data.
        const last = index === partitions.length - 1;
        throw new DecodeError(
          last ? 'truncated' : 'corrupt',
          `${last ? 'truncated' : 'corrupt'} WebP: the VP8 token partition ${index + 1} (of ${partitions.length}) ends inside macroblock ${mbX},${mbY}`,
        );
      }
      reconstruct(work, header, modes, tokens, mbX, mbY, topY, topU, topV);
      // Copy the macroblock out of the work area.
      copyBlock(work32, Y_AT, y32, mbY * 16 * yStride + mbX * 16, yStride, 16);
      copyBlock(work32, U_AT, u32, mbY * 8 * uvStride + mbX * 8, uvStride, 8);
      copyBlock(work32, V_AT, v32, mbY * 8 * uvStride + mbX * 8, uvStride, 8);
      rowStrength[mbX] = (strengths[seg] as FilterStrength[])[split ? 1 : 0] as FilterStrength;
      rowInner[mbX] = split || coded ? 1 : 0;
    }
    if (filtering !== 0) {
      for (let mbX = 0; mbX < mbWide; mbX++) {
        const s = rowStrength[mbX] as FilterStrength;
        if (s.limit === 0) continue;
        const yAt = mbY * 16 * yStride + mbX * 16;
        if (filtering === 1) simpleFilter(y, yAt, yStride, mbX, mbY, s, rowInner[mbX] === 1);
        else {
          const cAt = mbY * 8 * uvStride + mbX * 8;
          normalFilter(y, yAt, yStride, u, v, cAt, uvStride, mbX, mbY, s, rowInner[mbX] === 1);
        }
      }
    }
  }
  return { y, u, v, yStride, uvStride };
}

/**
 * Copies a `size` x `size` block from the work area to a plane, four bytes at a time: every
 * offset and stride involved is a multiple of 4 (`from`, `to` and `stride` are in bytes).
 */
function copyBlock(
  work: Uint32Array,
  from: number,
  plane: Uint32Array,
  to: number,
  stride: number,
  size: number,
): void {
  const words = size >> 2;
  for (let j = 0; j < size; j++) {
    const a = (from + j * BPS) >> 2;
    const b = (to + j * stride) >> 2;
    for (let i = 0; i < words; i++) plane[b + i] = work[a + i];
  }
}

/** Copies `n` bytes inside the work area (no overlap). */
function move(work: Uint8Array, to: number, from: number, n: number): void {
  for (let i = 0; i < n; i++) work[to + i] = work[from + i];
}

/** Copies `n` bytes of a saved row into the work area. */
function put(work: Uint8Array, to: number, row: Uint8Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) work[to + i] = row[from + i];
}

/** Saves `n` bytes of the work area into a row. */
function save(row: Uint8Array, to: number, work: Uint8Array, from: number, n: number): void {
  for (let i = 0; i < n; i++) row[to + i] = work[from + i];
}

/** The work area's edges at the start of a macroblock row: 129 to the left; 127 above the frame. */
function startRow(work: Uint8Array, mbY: number): void {
  for (let j = 0; j < 16; j++) work[Y_AT + j * BPS - 1] = 129;
  for (let j = 0; j < 8; j++) {
    work[U_AT + j * BPS - 1] = 129;
    work[V_AT + j * BPS - 1] = 129;
  }
  if (mbY > 0) {
    work[Y_AT - BPS - 1] = 129;
    work[U_AT - BPS - 1] = 129;
    work[V_AT - BPS - 1] = 129;
  } else {
    // Above the frame (and its above-right, and the corner): 127.
    work.fill(127, Y_AT - BPS - 1, Y_AT - BPS + 20);
    work.fill(127, U_AT - BPS - 1, U_AT - BPS + 8);
    work.fill(127, V_AT - BPS - 1, V_AT - BPS + 8);
  }
}

/** Predicts macroblock (`mbX`, `mbY`) in the work area and adds its residual. */
function reconstruct(
  work: Uint8Array,
  header: FrameHeader,
  modes: RowModes,
  tokens: TokenReader,
  mbX: number,
  mbY: number,
  topY: Uint8Array,
  topU: Uint8Array,
  topV: Uint8Array,
): void {
  const { mbWide, mbHigh } = header;
  if (mbX > 0) {
    // The previous macroblock's right columns become this one's left neighbours (and the corner).
    for (let j = -1; j < 16; j++) move(work, Y_AT + j * BPS - 4, Y_AT + j * BPS + 12, 4);
    for (let j = -1; j < 8; j++) {
      move(work, U_AT + j * BPS - 4, U_AT + j * BPS + 4, 4);
      move(work, V_AT + j * BPS - 4, V_AT + j * BPS + 4, 4);
    }
  }
  if (mbY > 0) {
    put(work, Y_AT - BPS, topY, mbX * 16, 16);
    put(work, U_AT - BPS, topU, mbX * 8, 8);
    put(work, V_AT - BPS, topV, mbX * 8, 8);
  }
  const coeffs = tokens.coeffs;
  const residual = tokens.residual;
  const coded = !modes.skip[mbX];
  if (modes.split[mbX] === 1) {
    const topRight = Y_AT - BPS + 16;
    if (mbY > 0) {
      // Above-right of the macroblock: the next one's bottom row, or this one's last pixel repeated at the right edge.
      if (mbX < mbWide - 1) put(work, topRight, topY, mbX * 16 + 16, 4);
      else work.fill(topY[mbX * 16 + 15], topRight, topRight + 4);
    }
    // The right column of sub-blocks takes its above-right from there too, on every row.
    for (let r = 4; r < 16; r += 4) move(work, topRight + r * BPS, topRight, 4);
    for (let n = 0; n < 16; n++) {
      const at = Y_AT + (SUB_AT[n] as number);
      predictSub(work, at, modes.luma[mbX * 16 + n]);
      if (coded) addResidual(coeffs, residual[n], n * 16, work, at);
    }
  } else {
    predictLuma16(work, Y_AT, modes.luma[mbX * 16], mbX, mbY);
    if (coded)
      for (let n = 0; n < 16; n++) addResidual(coeffs, residual[n], n * 16, work, Y_AT + (SUB_AT[n] as number));
  }
  const chromaMode = modes.chroma[mbX];
  predictChroma8(work, U_AT, chromaMode, mbX, mbY);
  predictChroma8(work, V_AT, chromaMode, mbX, mbY);
  if (coded) {
    for (let n = 0; n < 4; n++) {
      const off = (n >> 1) * 4 * BPS + (n & 1) * 4;
      addResidual(coeffs, residual[16 + n], (16 + n) * 16, work, U_AT + off);
      addResidual(coeffs, residual[20 + n], (20 + n) * 16, work, V_AT + off);
    }
  }
  if (mbY < mbHigh - 1) {
    save(topY, mbX * 16, work, Y_AT + 15 * BPS, 16);
    save(topU, mbX * 8, work, U_AT + 7 * BPS, 8);
    save(topV, mbX * 8, work, V_AT + 7 * BPS, 8);
  }
}

function addResidual(coeffs: Int16Array, kind: number, at: number, work: Uint8Array, d: number): void {
  if (kind === Residual.Full) addInverseDct(coeffs, at, work, d, BPS);
  else if (kind === Residual.Dc) addInverseDc(coeffs, at, work, d, BPS);
}
