/**
 * WebP lossless (VP8L, RFC 9649 sections 3-6): the header, the transforms, the entropy-coded
 * images (prefix code groups chosen per block by the entropy image, the colour cache, LZ77
 * backward references with the distance map), and the pixels as RGBA. Also the header-less
 * stream an ALPH chunk compresses its alpha plane with (`decodeLosslessStream`).
 * See docs/decode.md, "WebP".
 */
import { DecodeError } from './error.js';
import { LosslessBitReader } from './webp-bits.js';
import { buildPrefixCode, type PrefixCode } from './webp-prefix.js';
import {
  addGreen,
  inverseColorIndexing,
  inverseColorTransform,
  inversePredictor,
  subSampleSize,
} from './webp-transforms.js';

const SIGNATURE = 0x2f;
const LITERALS = 256;
const LENGTH_CODES = 24;
const DISTANCE_CODES = 40;
const CODE_LENGTH_ORDER = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] as const;
/** Prefix code tables of all groups together, in entries (4 bytes each): far past what encoders write. */
const MAX_TABLE_ENTRIES = 16 * 1024 * 1024;

/**
 * The 120 short distance codes as (dx, dy) pairs, dx to the left: code 1 is the pixel above,
 * 2 the one to the left (RFC 9649 section 5.2.2); DISTANCE_MAP packs each as `dy << 4 | (8 - dx)`.
 */
const DISTANCE_PAIRS = [
  0, 1, 1, 0, 1, 1, -1, 1, 0, 2, 2, 0, 1, 2, -1, 2, 2, 1, -2, 1, 2, 2, -2, 2, 0, 3, 3, 0, 1, 3, -1, 3, 3, 1, -3, 1, 2,
  3, -2, 3, 3, 2, -3, 2, 0, 4, 4, 0, 1, 4, -1, 4, 4, 1, -4, 1, 3, 3, -3, 3, 2, 4, -2, 4, 4, 2, -4, 2, 0, 5, 3, 4, -3, 4,
  4, 3, -4, 3, 5, 0, 1, 5, -1, 5, 5, 1, -5, 1, 2, 5, -2, 5, 5, 2, -5, 2, 4, 4, -4, 4, 3, 5, -3, 5, 5, 3, -5, 3, 0, 6, 6,
  0, 1, 6, -1, 6, 6, 1, -6, 1, 2, 6, -2, 6, 6, 2, -6, 2, 4, 5, -4, 5, 5, 4, -5, 4, 3, 6, -3, 6, 6, 3, -6, 3, 0, 7, 7, 0,
  1, 7, -1, 7, 5, 5, -5, 5, 7, 1, -7, 1, 4, 6, -4, 6, 6, 4, -6, 4, 2, 7, -2, 7, 7, 2, -7, 2, 3, 7, -3, 7, 7, 3, -7, 3,
  5, 6, -5, 6, 6, 5, -6, 5, 8, 0, 4, 7, -4, 7, 7, 4, -7, 4, 8, 1, 8, 2, 6, 6, -6, 6, 8, 3, 5, 7, -5, 7, 7, 5, -7, 5, 8,
  4, 6, 7, -6, 7, 7, 6, -7, 6, 8, 5, 7, 7, -7, 7, 8, 6, 8, 7,
];
const DISTANCE_MAP = Uint8Array.from(
  { length: 120 },
  (_, k) => ((DISTANCE_PAIRS[2 * k + 1] as number) << 4) | (8 - (DISTANCE_PAIRS[2 * k] as number)),
);

/** The linear distance of distance code `code` (1-based) in an image `width` wide. */
export function planeDistance(code: number, width: number): number {
  if (code > DISTANCE_MAP.length) return code - DISTANCE_MAP.length;
  const packed = DISTANCE_MAP[code - 1] as number;
  const distance = (packed >>> 4) * width + 8 - (packed & 0xf);
  return Math.max(distance, 1);
}

/** What a VP8L header declares. */
export interface LosslessHeader {
  readonly width: number;
  readonly height: number;
  /** The encoder's hint that some alpha is not 255 (the decoded alpha is used either way). */
  readonly alphaHint: boolean;
}

function corrupt(what: string): DecodeError {
  return new DecodeError('corrupt', `corrupt WebP: ${what}`);
}

/** Reads the 5-byte VP8L header (signature 0x2f, 14-bit width and height minus one, alpha hint, version 0). */
export function readLosslessHeader(data: Uint8Array): LosslessHeader {
  if (data.length < 5) throw new DecodeError('truncated', 'truncated WebP: the file ends inside its VP8L header');
  if (data[0] !== SIGNATURE) throw corrupt('the VP8L chunk does not start with its signature byte');
  const bits =
    ((data[1] as number) | ((data[2] as number) << 8) | ((data[3] as number) << 16) | ((data[4] as number) << 24)) >>>
    0;
  if (bits >>> 29 !== 0) throw corrupt(`VP8L version ${bits >>> 29} does not exist`);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1, alphaHint: ((bits >>> 28) & 1) === 1 };
}

/** The five prefix codes that decode one block's pixels. */
interface CodeGroup {
  readonly green: PrefixCode;
  readonly red: PrefixCode;
  readonly blue: PrefixCode;
  readonly alpha: PrefixCode;
  readonly distance: PrefixCode;
}

/** One decode: the bit reader and what has been allocated for tables so far. */
class LosslessDecoder {
  tableEntries = 0;
  constructor(readonly br: LosslessBitReader) {}

  checkNotExhausted(): void {
    if (this.br.exhausted) throw new DecodeError('truncated', 'truncated WebP: the lossless data ends early');
  }

  /** Reads one prefix code over `size` symbols: the simple form (one or two symbols) or code lengths coded by a code. */
  readCode(size: number): PrefixCode {
    const br = this.br;
    const lengths = new Uint8Array(size);
    if (br.read(1) === 1) {
      const symbols = br.read(1) + 1;
      const first = br.read(br.read(1) === 0 ? 1 : 8);
      // A symbol past the alphabet (the distance code's 40) is dropped, as libwebp does.
      if (first < size) lengths[first] = 1;
      if (symbols === 2) {
        const second = br.read(8);
        if (second < size) lengths[second] = 1;
      }
    } else {
      const lengthLengths = new Uint8Array(CODE_LENGTH_ORDER.length);
      const n = br.read(4) + 4;
      for (let i = 0; i < n; i++) lengthLengths[CODE_LENGTH_ORDER[i] as number] = br.read(3);
      const lengthCode = buildPrefixCode(lengthLengths);
      if (!lengthCode) throw corrupt('a code-length code is not a prefix code');
      let max = size;
      if (br.read(1) === 1) {
        max = 2 + br.read(2 + 2 * br.read(3));
        if (max > size) throw corrupt(`a prefix code lists ${max} lengths for ${size} symbols`);
      }
      let previous = 8;
      for (let s = 0; s < size && max-- > 0; ) {
        const length = br.symbol(lengthCode);
        if (length < 16) {
          lengths[s++] = length;
          if (length !== 0) previous = length;
          continue;
        }
        const repeat = length === 16 ? 3 + br.read(2) : length === 17 ? 3 + br.read(3) : 11 + br.read(7);
        if (s + repeat > size) throw corrupt('a prefix code repeats lengths past its alphabet');
        lengths.fill(length === 16 ? previous : 0, s, s + repeat);
        s += repeat;
      }
    }
    this.checkNotExhausted();
    const code = buildPrefixCode(lengths);
    if (!code) throw corrupt('code lengths that do not form a prefix code');
    this.tableEntries += code.table.length;
    if (this.tableEntries > MAX_TABLE_ENTRIES) throw corrupt('more prefix code tables than any image needs');
    return code;
  }

  readGroup(cacheSize: number): CodeGroup {
    return {
      green: this.readCode(LITERALS + LENGTH_CODES + cacheSize),
      red: this.readCode(LITERALS),
      blue: this.readCode(LITERALS),
      alpha: this.readCode(LITERALS),
      distance: this.readCode(DISTANCE_CODES),
    };
  }

  /** A length or distance from its prefix symbol and extra bits (RFC 9649 section 5.2.2). */
  copyValue(symbol: number): number {
    if (symbol < 4) return symbol + 1;
    const extra = (symbol - 2) >>> 1;
    return ((2 + (symbol & 1)) << extra) + this.br.read(extra) + 1;
  }

  /**
   * One entropy-coded image of `width` x `height` ARGB pixels. `main` (the image itself, after
   * its transforms) may use an entropy image of code groups; the sub-images (transform data,
   * the entropy image, the palette) have one group.
   */
  entropyImage(width: number, height: number, main: boolean): Uint32Array {
    const br = this.br;
    let cacheBits = 0;
    if (br.read(1) === 1) {
      cacheBits = br.read(4);
      if (cacheBits < 1 || cacheBits > 11) throw corrupt(`a colour cache of ${cacheBits} bits`);
    }
    let groupBits = 0;
    let groupIndex: Uint32Array | null = null;
    let groups: CodeGroup[];
    const cacheSize = cacheBits > 0 ? 1 << cacheBits : 0;
    if (main && br.read(1) === 1) {
      groupBits = br.read(3) + 2;
      groupIndex = this.entropyImage(subSampleSize(width, groupBits), subSampleSize(height, groupBits), false);
      // The group is in red and green; only the groups used are kept (the others are read and dropped).
      let count = 0;
      for (let i = 0; i < groupIndex.length; i++) {
        const g = ((groupIndex[i] as number) >>> 8) & 0xffff;
        groupIndex[i] = g;
        if (g >= count) count = g + 1;
      }
      const used = new Uint8Array(count);
      for (let i = 0; i < groupIndex.length; i++) used[groupIndex[i] as number] = 1;
      groups = new Array<CodeGroup>(count);
      for (let g = 0; g < count; g++) {
        const group = this.readGroup(cacheSize);
        if (used[g]) groups[g] = group;
        else this.tableEntries -= tableSize(group);
      }
    } else {
      groups = [this.readGroup(cacheSize)];
    }
    return this.pixels(width, height, groups, groupIndex, groupBits, cacheBits);
  }

  /**
   * The entropy-coded pixels. The bit reader's state is kept in locals and each prefix code
   * lookup written out in place: the loop runs once per pixel or backward reference, and a
   * method call per symbol (four or five a pixel) cost about half its time.
   */
  private pixels(
    width: number,
    height: number,
    groups: readonly CodeGroup[],
    groupIndex: Uint32Array | null,
    groupBits: number,
    cacheBits: number,
  ): Uint32Array {
    const br = this.br;
    const data = br.data;
    const end = br.end;
    let pos = br.pos;
    let window = br.window;
    let count = br.count;
    const total = width * height;
    const out = new Uint32Array(total);
    const cache = cacheBits > 0 ? new Uint32Array(1 << cacheBits) : null;
    const cacheShift = 32 - cacheBits;
    const groupsWide = subSampleSize(width, groupBits);
    // With no entropy image every block is group 0: looked up again only at x = 0.
    const mask = groupIndex ? (1 << groupBits) - 1 : -1;
    let cached = 0;
    let x = 0;
    let y = 0;
    let i = 0;
    let group = groups[0] as CodeGroup;
    let code: PrefixCode;
    let entry = 0;
    while (i < total) {
      if ((x & mask) === 0 && groupIndex)
        group = groups[groupIndex[(y >>> groupBits) * groupsWide + (x >>> groupBits)] as number] as CodeGroup;
      // Each lookup: at least 15 bits in the window (the longest code), root entry, maybe a second level.
      if (count < 15) {
        while (count <= 24) {
          window |= (pos < end ? (data[pos] as number) : 0) << count;
          pos++;
          count += 8;
        }
      }
      code = group.green;
      entry = code.table[window & code.mask] as number;
      if (entry < 0)
        entry = code.table[
          (entry & 0xffffff) + ((window >>> code.rootBits) & ((1 << ((entry >>> 24) & 0x7f)) - 1))
        ] as number;
      window >>>= entry >>> 16;
      count -= entry >>> 16;
      const symbol = entry & 0xffff;
      if (symbol < LITERALS) {
        if (count < 15) {
          while (count <= 24) {
            window |= (pos < end ? (data[pos] as number) : 0) << count;
            pos++;
            count += 8;
          }
        }
        code = group.red;
        entry = code.table[window & code.mask] as number;
        if (entry < 0)
          entry = code.table[
            (entry & 0xffffff) + ((window >>> code.rootBits) & ((1 << ((entry >>> 24) & 0x7f)) - 1))
          ] as number;
        window >>>= entry >>> 16;
        count -= entry >>> 16;
        const red = entry & 0xffff;
        if (count < 15) {
          while (count <= 24) {
            window |= (pos < end ? (data[pos] as number) : 0) << count;
            pos++;
            count += 8;
          }
        }
        code = group.blue;
        entry = code.table[window & code.mask] as number;
        if (entry < 0)
          entry = code.table[
            (entry & 0xffffff) + ((window >>> code.rootBits) & ((1 << ((entry >>> 24) & 0x7f)) - 1))
          ] as number;
        window >>>= entry >>> 16;
        count -= entry >>> 16;
        const blue = entry & 0xffff;
        if (count < 15) {
          while (count <= 24) {
            window |= (pos < end ? (data[pos] as number) : 0) << count;
            pos++;
            count += 8;
          }
        }
        code = group.alpha;
        entry = code.table[window & code.mask] as number;
        if (entry < 0)
          entry = code.table[
            (entry & 0xffffff) + ((window >>> code.rootBits) & ((1 << ((entry >>> 24) & 0x7f)) - 1))
          ] as number;
        window >>>= entry >>> 16;
        count -= entry >>> 16;
        out[i++] = ((entry << 24) | (red << 16) | (symbol << 8) | blue) >>> 0;
        if (++x === width) {
          x = 0;
          y++;
          if ((pos - end) * 8 > count) break;
        }
      } else if (symbol < LITERALS + LENGTH_CODES) {
        br.pos = pos;
        br.window = window;
        br.count = count;
        const length = this.copyValue(symbol - LITERALS);
        const distance = planeDistance(this.copyValue(br.symbol(group.distance)), width);
        pos = br.pos;
        window = br.window;
        count = br.count;
        if (distance > i) throw corrupt(`a backward reference ${distance} pixels back from pixel ${i}`);
        if (length > total - i) throw corrupt('a backward reference past the end of the image');
        if (distance >= length) out.copyWithin(i, i - distance, i - distance + length);
        else for (let k = 0; k < length; k++) out[i + k] = out[i + k - distance] as number;
        i += length;
        x += length;
        while (x >= width) {
          x -= width;
          y++;
        }
        if ((pos - end) * 8 > count) break;
        if ((x & mask) !== 0 && i < total && groupIndex)
          group = groups[groupIndex[(y >>> groupBits) * groupsWide + (x >>> groupBits)] as number] as CodeGroup;
      } else {
        if (!cache) throw corrupt('a colour cache symbol without a colour cache');
        while (cached < i) {
          const argb = out[cached++] as number;
          cache[Math.imul(argb, 0x1e35a7bd) >>> cacheShift] = argb;
        }
        out[i++] = cache[symbol - LITERALS - LENGTH_CODES] as number;
        if (++x === width) {
          x = 0;
          y++;
          if ((pos - end) * 8 > count) break;
        }
      }
    }
    br.pos = pos;
    br.window = window;
    br.count = count;
    this.checkNotExhausted();
    return out;
  }

  /**
   * An image with its transforms (the main image of a VP8L stream, or an ALPH plane): the
   * transforms are read, then the entropy-coded pixels at the width the last one leaves, and
   * the transforms undone in reverse.
   */
  transformedImage(width: number, height: number): Uint32Array {
    const br = this.br;
    type Step =
      | { kind: 'predictor' | 'color'; bits: number; data: Uint32Array; width: number }
      | { kind: 'green'; width: number }
      | { kind: 'index'; bits: number; palette: Uint32Array; width: number; packedWidth: number };
    const steps: Step[] = [];
    let seen = 0;
    let codedWidth = width;
    while (br.read(1) === 1) {
      const type = br.read(2);
      if (seen & (1 << type)) throw corrupt('a transform used twice');
      seen |= 1 << type;
      if (type === 0 || type === 1) {
        const bits = br.read(3) + 2;
        const data = this.entropyImage(subSampleSize(codedWidth, bits), subSampleSize(height, bits), false);
        steps.push({ kind: type === 0 ? 'predictor' : 'color', bits, data, width: codedWidth });
      } else if (type === 2) {
        steps.push({ kind: 'green', width: codedWidth });
      } else {
        const colors = br.read(8) + 1;
        const bits = colors > 16 ? 0 : colors > 4 ? 1 : colors > 2 ? 2 : 3;
        const table = this.entropyImage(colors, 1, false);
        const palette = new Uint32Array(256);
        // Each entry is coded as its difference from the one before, channel by channel.
        let previous = 0;
        for (let k = 0; k < colors; k++) {
          previous = addChannels(previous, table[k] as number);
          palette[k] = previous;
        }
        const packedWidth = subSampleSize(codedWidth, bits);
        steps.push({ kind: 'index', bits, palette, width: codedWidth, packedWidth });
        codedWidth = packedWidth;
      }
    }
    let px = this.entropyImage(codedWidth, height, true);
    for (let k = steps.length - 1; k >= 0; k--) {
      const step = steps[k] as Step;
      if (step.kind === 'predictor') inversePredictor(px, step.width, height, step.bits, step.data);
      else if (step.kind === 'color') inverseColorTransform(px, step.width, height, step.bits, step.data);
      else if (step.kind === 'green') addGreen(px);
      else if (step.kind === 'index')
        px = inverseColorIndexing(px, step.packedWidth, step.width, height, step.bits, step.palette);
    }
    return px;
  }
}

function tableSize(group: CodeGroup): number {
  return (
    group.green.table.length +
    group.red.table.length +
    group.blue.table.length +
    group.alpha.table.length +
    group.distance.table.length
  );
}

function addChannels(a: number, b: number): number {
  return (
    ((((a & 0xff00ff00) + (b & 0xff00ff00)) & 0xff00ff00) | (((a & 0x00ff00ff) + (b & 0x00ff00ff)) & 0x00ff00ff)) >>> 0
  );
}

/**
 * The ARGB pixels of a header-less lossless stream of a known size (an ALPH chunk's, whose
 * alpha is in the green channel), from `data[start..end)`.
 */
export function decodeLosslessStream(data: Uint8Array, width: number, height: number): Uint32Array {
  return new LosslessDecoder(new LosslessBitReader(data)).transformedImage(width, height);
}

/**
 * Decodes a VP8L chunk's body to RGBA (`limits` checked on its header before any pixel).
 *
 * @example decodeLossless(vp8lChunkBody, DEFAULT_DECODE_LIMITS) // { width, height, data }
 */
export function decodeLossless(
  data: Uint8Array,
  limits: { readonly maxPixels: number; readonly maxSide: number },
): { width: number; height: number; data: Uint8Array } {
  const { width, height } = readLosslessHeader(data);
  if (width > limits.maxSide || height > limits.maxSide || width * height > limits.maxPixels)
    throw new DecodeError('too-large', `WebP image too large to decode safely: ${width}x${height}`);
  const argb = new LosslessDecoder(new LosslessBitReader(data, 5)).transformedImage(width, height);
  return { width, height, data: argbToRgba(argb) };
}

/** ARGB words to RGBA bytes, in place: on a little-endian machine a word's bytes are B G R A, so R and B swap. */
export function argbToRgba(argb: Uint32Array): Uint8Array {
  const bytes = new Uint8Array(argb.buffer, argb.byteOffset, argb.length * 4);
  if (LITTLE_ENDIAN) {
    for (let i = 0; i < bytes.length; i += 4) {
      const b = bytes[i] as number;
      bytes[i] = bytes[i + 2] as number;
      bytes[i + 2] = b;
    }
    return bytes;
  }
  for (let i = 0; i < argb.length; i++) {
    const v = argb[i] as number;
    bytes[i * 4] = (v >>> 16) & 0xff;
    bytes[i * 4 + 1] = (v >>> 8) & 0xff;
    bytes[i * 4 + 2] = v & 0xff;
    bytes[i * 4 + 3] = v >>> 24;
  }
  return bytes;
}

const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;
