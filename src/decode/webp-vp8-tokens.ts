/**
 * The DCT/WHT coefficient tokens of a macroblock (RFC 6386 section 13): 25 blocks (the Y2 block of
 * a 16x16 macroblock, 16 luma, 4 + 4 chroma) of up to 16 coefficients in zigzag order, each token
 * read with probabilities chosen by the block type, the coefficient's band, and a context: for the
 * first token, how many of the blocks above and to the left had non-zero coefficients; after that,
 * whether the previous token was zero, one, or more. Coefficients are dequantised as they are read.
 */
import type { BoolDecoder } from './webp-vp8-bool.js';
import type { Dequant } from './webp-vp8-quant.js';
import { inverseWht } from './webp-vp8-transform.js';

/** Block types of the coefficient probabilities (RFC 6386 13.3). */
const TYPE_Y_AFTER_Y2 = 0;
const TYPE_Y2 = 1;
const TYPE_CHROMA = 2;
const TYPE_Y_WITH_DC = 3;

/** The band of each coefficient position (the 17th is where a block that ends at 16 would look). */
const BANDS = [0, 1, 2, 3, 6, 4, 5, 6, 6, 6, 6, 6, 6, 6, 6, 7, 0];

/** Zigzag position to raster position in a 4x4 block. */
const ZIGZAG = new Uint8Array([0, 1, 4, 8, 5, 2, 3, 6, 9, 12, 13, 10, 7, 11, 14, 15]);

/** The extra bits' probabilities of the large-value categories 3..6 (RFC 6386 13.2, Pcat3..Pcat6). */
const CATEGORY_PROBS = [
  new Uint8Array([173, 148, 140]),
  new Uint8Array([176, 155, 140, 135]),
  new Uint8Array([180, 157, 141, 134, 130]),
  new Uint8Array([254, 254, 243, 230, 196, 177, 153, 140, 133, 130, 129]),
];

/** What a block needs after its tokens: nothing, its DC added to every pixel, or the whole transform. */
export const Residual = { None: 0, Dc: 1, Full: 2 } as const;

/** Token decoding state across a frame: probabilities, the non-zero contexts, one macroblock's coefficients. */
export class TokenReader {
  /** Coefficients of the current macroblock: 16 luma blocks, 4 U, 4 V, 16 each, in raster order. */
  readonly coeffs = new Int16Array(384);
  /** `Residual` of each of the 24 blocks. */
  readonly residual = new Uint8Array(24);
  /** For each macroblock column, whether the blocks along the bottom of the one above had coefficients. */
  private readonly aboveY: Uint8Array;
  private readonly aboveU: Uint8Array;
  private readonly aboveV: Uint8Array;
  private readonly aboveY2: Uint8Array;
  private readonly leftY = new Uint8Array(4);
  private readonly leftU = new Uint8Array(2);
  private readonly leftV = new Uint8Array(2);
  private leftY2 = 0;
  private readonly y2 = new Int16Array(16);
  /** Per type, the probability offset of (position 0..16, context 0..2). */
  private readonly offsets: Int32Array[];

  constructor(
    private readonly probs: Uint8Array,
    mbWide: number,
  ) {
    this.aboveY = new Uint8Array(mbWide * 4);
    this.aboveU = new Uint8Array(mbWide * 2);
    this.aboveV = new Uint8Array(mbWide * 2);
    this.aboveY2 = new Uint8Array(mbWide);
    this.offsets = [0, 1, 2, 3].map((type) => {
      const o = new Int32Array(17 * 3);
      for (let n = 0; n < 17; n++) for (let c = 0; c < 3; c++) o[n * 3 + c] = ((type * 8 + BANDS[n]) * 3 + c) * 11;
      return o;
    });
  }

  /** At the start of a macroblock row: nothing to the left. */
  startRow(): void {
    this.leftY.fill(0);
    this.leftU.fill(0);
    this.leftV.fill(0);
    this.leftY2 = 0;
  }

  /** A macroblock whose "no coefficients" flag is set: clears its contexts (the Y2 one only for 16x16). */
  skip(mb: number, split: boolean): void {
    this.aboveY.fill(0, mb * 4, mb * 4 + 4);
    this.aboveU.fill(0, mb * 2, mb * 2 + 2);
    this.aboveV.fill(0, mb * 2, mb * 2 + 2);
    this.leftY.fill(0);
    this.leftU.fill(0);
    this.leftV.fill(0);
    if (!split) {
      this.aboveY2[mb] = 0;
      this.leftY2 = 0;
    }
    this.residual.fill(Residual.None);
  }

  /**
   * Reads and dequantises the coefficients of macroblock column `mb`. Returns true when any block
   * has a non-zero coefficient (which, with B_PRED, turns on the loop filter's inner edges).
   */
  read(br: BoolDecoder, mb: number, split: boolean, dq: Dequant): boolean {
    const coeffs = this.coeffs;
    const residual = this.residual;
    coeffs.fill(0);
    let any = false;
    let first = 0;
    let yType = TYPE_Y_WITH_DC;
    if (!split) {
      const y2 = this.y2;
      y2.fill(0);
      const nz = this.block(br, TYPE_Y2, this.aboveY2[mb] + this.leftY2, dq.y2, 0, y2, 0);
      this.aboveY2[mb] = this.leftY2 = nz > 0 ? 1 : 0;
      if (nz > 1) {
        inverseWht(y2, coeffs);
      } else {
        const dc = (y2[0] + 3) >> 3;
        for (let i = 0; i < 256; i += 16) coeffs[i] = dc;
      }
      first = 1;
      yType = TYPE_Y_AFTER_Y2;
    }
    const aboveY = this.aboveY;
    const leftY = this.leftY;
    for (let y = 0; y < 4; y++) {
      for (let x = 0; x < 4; x++) {
        const b = y * 4 + x;
        const ctx = aboveY[mb * 4 + x] + leftY[y];
        const nz = this.block(br, yType, ctx, dq.y1, first, coeffs, b * 16);
        const flag = nz > first ? 1 : 0;
        aboveY[mb * 4 + x] = flag;
        leftY[y] = flag;
        residual[b] = nz > 1 ? Residual.Full : coeffs[b * 16] !== 0 ? Residual.Dc : Residual.None;
        if (residual[b] !== Residual.None) any = true;
      }
    }
    for (let c = 0; c < 2; c++) {
      const above = c === 0 ? this.aboveU : this.aboveV;
      const left = c === 0 ? this.leftU : this.leftV;
      for (let y = 0; y < 2; y++) {
        for (let x = 0; x < 2; x++) {
          const b = 16 + c * 4 + y * 2 + x;
          const nz = this.block(br, TYPE_CHROMA, above[mb * 2 + x] + left[y], dq.uv, 0, coeffs, b * 16);
          const flag = nz > 0 ? 1 : 0;
          above[mb * 2 + x] = flag;
          left[y] = flag;
          residual[b] = nz > 1 ? Residual.Full : coeffs[b * 16] !== 0 ? Residual.Dc : Residual.None;
          if (residual[b] !== Residual.None) any = true;
        }
      }
    }
    return any;
  }

  /**
   * One block's tokens from position `n`, dequantised into `out` at `at` (raster order). Returns
   * the position after the last token read before the end of block (16 when it ran to the end).
   */
  private block(
    br: BoolDecoder,
    type: number,
    ctx: number,
    dq: Int32Array,
    n: number,
    out: Int16Array,
    at: number,
  ): number {
    const probs = this.probs;
    const offsets = this.offsets[type];
    let p = offsets[n * 3 + ctx];
    // The decoder's state in locals for the three common decisions (BoolDecoder.bit, inlined);
    // written back around the rare large values and on return.
    let value = br.value;
    let range = br.range;
    let bits = br.bits;
    let prob = 0;
    let bit = 0;
    let split = 0;
    let shift = 0;
    for (; n < 16; n++) {
      // end of block?
      prob = probs[p];
      if (bits < 0) {
        br.value = value;
        br.bits = bits;
        br.load();
        value = br.value;
        bits = br.bits;
      }
      split = (range * prob) >>> 8;
      if (value >>> bits > split) {
        range -= split;
        value -= (split + 1) << bits;
        bit = 1;
      } else {
        range = split + 1;
        bit = 0;
      }
      shift = Math.clz32(range) - 24;
      range = (range << shift) - 1;
      bits -= shift;
      if (bit === 0) break;
      for (;;) {
        // zero (0) or not (1); after a zero, an end of block cannot follow
        prob = probs[p + 1];
        if (bits < 0) {
          br.value = value;
          br.bits = bits;
          br.load();
          value = br.value;
          bits = br.bits;
        }
        split = (range * prob) >>> 8;
        if (value >>> bits > split) {
          range -= split;
          value -= (split + 1) << bits;
          bit = 1;
        } else {
          range = split + 1;
          bit = 0;
        }
        shift = Math.clz32(range) - 24;
        range = (range << shift) - 1;
        bits -= shift;
        if (bit === 1) break;
        n++;
        if (n === 16) {
          br.value = value;
          br.range = range;
          br.bits = bits;
          return 16;
        }
        p = offsets[n * 3];
      }
      // one (0) or more (1)
      prob = probs[p + 2];
      if (bits < 0) {
        br.value = value;
        br.bits = bits;
        br.load();
        value = br.value;
        bits = br.bits;
      }
      split = (range * prob) >>> 8;
      if (value >>> bits > split) {
        range -= split;
        value -= (split + 1) << bits;
        bit = 1;
      } else {
        range = split + 1;
        bit = 0;
      }
      shift = Math.clz32(range) - 24;
      range = (range << shift) - 1;
      bits -= shift;
      br.value = value;
      br.range = range;
      br.bits = bits;
      let v: number;
      if (bit === 0) {
        v = 1;
        p = offsets[(n + 1) * 3 + 1];
      } else {
        v = largeValue(br, probs, p);
        p = offsets[(n + 1) * 3 + 2];
      }
      if (br.bit(128) === 1) v = -v;
      value = br.value;
      range = br.range;
      bits = br.bits;
      out[at + ZIGZAG[n]] = v * dq[n > 0 ? 1 : 0];
    }
    br.value = value;
    br.range = range;
    br.bits = bits;
    return n;
  }
}

/** A coefficient of 2 or more: the rest of the token tree and a category's extra bits. */
function largeValue(br: BoolDecoder, probs: Uint8Array, p: number): number {
  if (br.bit(probs[p + 3]) === 0) {
    if (br.bit(probs[p + 4]) === 0) return 2;
    return 3 + br.bit(probs[p + 5]);
  }
  if (br.bit(probs[p + 6]) === 0) {
    if (br.bit(probs[p + 7]) === 0) return 5 + br.bit(159); // category 1: 5..6
    return 7 + 2 * br.bit(165) + br.bit(145); // category 2: 7..10
  }
  const high = br.bit(probs[p + 8]);
  const category = 2 * high + br.bit(probs[p + 9 + high]);
  const extra = CATEGORY_PROBS[category];
  let v = 0;
  for (let i = 0; i < extra.length; i++) v = v + v + br.bit(extra[i]);
  return v + 3 + (8 << category);
}
