/**
 * A VP8 key frame's headers (RFC 6386 sections 9.1-9.11, 19.1-19.2): the 10-byte frame tag and
 * picture header, then the frame header inside the first partition (segments, loop filter,
 * partition count, quantizers, coefficient probabilities), and the token partitions it points to.
 */

import { DecodeError } from './error.js';
import { BoolDecoder } from './webp-vp8-bool.js';
import {
  COEFF_BANDS,
  COEFF_CONTEXTS,
  COEFF_NODES,
  COEFF_TYPES,
  COEFF_UPDATE_PROBS,
  DEFAULT_COEFF_PROBS,
} from './webp-vp8-probabilities.js';
import type { QuantHeader } from './webp-vp8-quant.js';

/** The frame tag (3 bytes) and the key frame's start code and size (7 bytes). */
export const VP8_HEADER_BYTES = 10;

/** Segment-based adjustments (RFC 6386 9.3). */
export interface SegmentHeader {
  readonly enabled: boolean;
  /** The segment of each macroblock is coded in the first partition. */
  readonly updateMap: boolean;
  /** `quantizer` and `filterLevel` replace the frame's values (true) or add to them (false). */
  readonly absolute: boolean;
  readonly quantizer: Int32Array;
  readonly filterLevel: Int32Array;
  /** The segment id tree's three probabilities. */
  readonly probs: Uint8Array;
}

/** The loop filter's fields (RFC 6386 9.6 and 15). */
export interface FilterHeader {
  readonly simple: boolean;
  readonly level: number;
  readonly sharpness: number;
  readonly useDeltas: boolean;
  /** Only the intra-frame entries matter in a key frame: reference 0 and mode 0 (B_PRED). */
  readonly refDelta: Int32Array;
  readonly modeDelta: Int32Array;
}

/** Everything a key frame declares before its macroblocks. */
export interface FrameHeader {
  readonly width: number;
  readonly height: number;
  readonly mbWide: number;
  readonly mbHigh: number;
  readonly segment: SegmentHeader;
  readonly filter: FilterHeader;
  readonly quant: QuantHeader;
  /** [type][band][context][node], see webp-vp8-probabilities.ts. */
  readonly coeffProbs: Uint8Array;
  /** The probability of a macroblock's "no coefficients" flag, or -1 when the flag is not coded. */
  readonly skipProb: number;
  /** The first partition, positioned at the first macroblock's modes. */
  readonly modes: BoolDecoder;
  /** The token partitions (1, 2, 4 or 8); macroblock row y reads partition y mod count. */
  readonly tokens: BoolDecoder[];
  /** The first partition's size in bytes. */
  readonly firstPartitionSize: number;
}

function corrupt(message: string): never {
  throw new DecodeError('corrupt', `corrupt WebP: ${message}`);
}

function truncated(message: string): never {
  throw new DecodeError('truncated', `truncated WebP: ${message}`);
}

/**
 * Checks the frame tag and picture header and returns the declared size and the first
 * partition's size. A WebP holds one key frame, shown; profiles above 3 do not exist.
 */
export function readFrameTag(data: Uint8Array): { width: number; height: number; firstPartitionSize: number } {
  if (data.length < VP8_HEADER_BYTES) truncated('the VP8 data ends inside its frame header');
  const tag = data[0] | (data[1] << 8) | (data[2] << 16);
  if ((tag & 1) !== 0) corrupt('the VP8 frame is not a key frame');
  if (((tag >> 1) & 7) > 3) corrupt(`the VP8 frame has profile ${(tag >> 1) & 7} (0..3 exist)`);
  if (((tag >> 4) & 1) === 0) corrupt('the VP8 frame is marked invisible');
  if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) corrupt('the VP8 key frame has no start code');
  // 14 bits of size; the top 2 bits ask for an upscaling that libwebp (and browsers) ignore.
  const width = (data[6] | (data[7] << 8)) & 0x3fff;
  const height = (data[8] | (data[9] << 8)) & 0x3fff;
  if (width === 0 || height === 0) corrupt(`the VP8 frame declares a size of ${width}x${height}`);
  return { width, height, firstPartitionSize: tag >>> 5 };
}

function parseSegments(br: BoolDecoder): SegmentHeader {
  const quantizer = new Int32Array(4);
  const filterLevel = new Int32Array(4);
  const probs = new Uint8Array([255, 255, 255]);
  const enabled = br.flag();
  let updateMap = false;
  let absolute = true;
  if (enabled) {
    updateMap = br.flag();
    if (br.flag()) {
      absolute = br.flag();
      for (let s = 0; s < 4; s++) quantizer[s] = br.flag() ? br.signed(7) : 0;
      for (let s = 0; s < 4; s++) filterLevel[s] = br.flag() ? br.signed(6) : 0;
    }
    if (updateMap) for (let i = 0; i < 3; i++) probs[i] = br.flag() ? br.literal(8) : 255;
  }
  return { enabled, updateMap, absolute, quantizer, filterLevel, probs };
}

function parseFilter(br: BoolDecoder): FilterHeader {
  const simple = br.flag();
  const level = br.literal(6);
  const sharpness = br.literal(3);
  const useDeltas = br.flag();
  const refDelta = new Int32Array(4);
  const modeDelta = new Int32Array(4);
  if (useDeltas && br.flag()) {
    for (let i = 0; i < 4; i++) if (br.flag()) refDelta[i] = br.signed(6);
    for (let i = 0; i < 4; i++) if (br.flag()) modeDelta[i] = br.signed(6);
  }
  return { simple, level, sharpness, useDeltas, refDelta, modeDelta };
}

function parseQuant(br: BoolDecoder): QuantHeader {
  const baseIndex = br.literal(7);
  const delta = (): number => (br.flag() ? br.signed(4) : 0);
  const y1Dc = delta();
  const y2Dc = delta();
  const y2Ac = delta();
  const uvDc = delta();
  const uvAc = delta();
  return { baseIndex, y1Dc, y2Dc, y2Ac, uvDc, uvAc };
}

function parseCoeffProbs(br: BoolDecoder): Uint8Array {
  const probs = new Uint8Array(COEFF_TYPES * COEFF_BANDS * COEFF_CONTEXTS * COEFF_NODES);
  for (let i = 0; i < probs.length; i++)
    probs[i] = br.bit(COEFF_UPDATE_PROBS[i]) ? br.literal(8) : DEFAULT_COEFF_PROBS[i];
  return probs;
}

/**
 * Splits the data after the first partition into the token partitions: a table of 3-byte sizes
 * for all but the last, which takes the rest. libwebp's rules: a size past the data is cut to what
 * is left, and the last partition must have at least one byte.
 */
function splitPartitions(data: Uint8Array, start: number, count: number): BoolDecoder[] {
  const tableEnd = start + 3 * (count - 1);
  if (tableEnd > data.length) truncated('the VP8 data ends inside its partition table');
  const out: BoolDecoder[] = [];
  let at = tableEnd;
  for (let p = 0; p < count - 1; p++) {
    const q = start + 3 * p;
    const size = data[q] | (data[q + 1] << 8) | (data[q + 2] << 16);
    const end = Math.min(at + size, data.length);
    out.push(new BoolDecoder(data, at, end));
    at = end;
  }
  if (at >= data.length) truncated(`the VP8 data ends before its last token partition (of ${count})`);
  out.push(new BoolDecoder(data, at, data.length));
  return out;
}

/** Parses the headers of a key frame whose tag `readFrameTag` has accepted. */
export function parseFrameHeader(data: Uint8Array): FrameHeader {
  const { width, height, firstPartitionSize } = readFrameTag(data);
  const firstEnd = VP8_HEADER_BYTES + firstPartitionSize;
  if (firstEnd > data.length)
    truncated(`the VP8 data ends inside its first partition (${firstPartitionSize} bytes declared)`);
  const br = new BoolDecoder(data, VP8_HEADER_BYTES, firstEnd);
  br.flag(); // colour space: only 0 (YUV) is defined, and libwebp ignores it
  br.flag(); // clamping type: reconstruction always clamps
  const segment = parseSegments(br);
  if (br.eof) corrupt('the VP8 first partition ends inside its segment header');
  const filter = parseFilter(br);
  if (br.eof) corrupt('the VP8 first partition ends inside its loop filter header');
  const tokens = splitPartitions(data, firstEnd, 1 << br.literal(2));
  const quant = parseQuant(br);
  br.flag(); // refresh_entropy_probs: meaningless for a single frame
  const coeffProbs = parseCoeffProbs(br);
  const skipProb = br.flag() ? br.literal(8) : -1;
  return {
    width,
    height,
    mbWide: (width + 15) >> 4,
    mbHigh: (height + 15) >> 4,
    segment,
    filter,
    quant,
    coeffProbs,
    skipProb,
    modes: br,
    tokens,
    firstPartitionSize,
  };
}
