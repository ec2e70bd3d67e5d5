/**
 * The per-macroblock header of a key frame, read from the first partition a row at a time (RFC
 * 6386 sections 10, 11 and 19.3): the segment id, the "no coefficients" flag, and the intra
 * prediction modes, each sub-block mode coded with probabilities chosen by the modes above and to
 * its left.
 */
import type { BoolDecoder } from './webp-vp8-bool.js';
import type { FrameHeader } from './webp-vp8-header.js';
import { BMODE_PROBS, BMode } from './webp-vp8-probabilities.js';

/** The modes of one row of macroblocks, and the contexts carried to the next row. */
export class RowModes {
  readonly segment: Uint8Array;
  readonly skip: Uint8Array;
  /** 1 when the macroblock is predicted as sixteen 4x4 sub-blocks (B_PRED). */
  readonly split: Uint8Array;
  /** Sixteen sub-block modes per macroblock, or its 16x16 mode in the first entry (DC, TM, V, H = 0..3). */
  readonly luma: Uint8Array;
  readonly chroma: Uint8Array;
  /** The sub-block modes along the bottom of the row above (4 a macroblock), for contexts. */
  private readonly above: Uint8Array;
  private readonly left = new Uint8Array(4);

  constructor(readonly mbWide: number) {
    this.segment = new Uint8Array(mbWide);
    this.skip = new Uint8Array(mbWide);
    this.split = new Uint8Array(mbWide);
    this.luma = new Uint8Array(mbWide * 16);
    this.chroma = new Uint8Array(mbWide);
    this.above = new Uint8Array(mbWide * 4); // B_DC_PRED outside the frame
  }

  /** Reads one row's modes. Returns false when the partition ran out (libwebp refuses the frame). */
  read(br: BoolDecoder, header: FrameHeader): boolean {
    const { segment: seg, skipProb } = header;
    const above = this.above;
    const left = this.left;
    left.fill(BMode.DC);
    for (let mb = 0; mb < this.mbWide; mb++) {
      if (seg.updateMap) {
        const p = seg.probs;
        this.segment[mb] = br.bit(p[0]) === 0 ? br.bit(p[1]) : 2 + br.bit(p[2]);
      }
      this.skip[mb] = skipProb >= 0 ? br.bit(skipProb) : 0;
      const a = mb * 4;
      const out = mb * 16;
      if (br.bit(145) === 1) {
        // 16x16: DC, V, H or TM, which is also the context it leaves for sub-block modes.
        const mode = br.bit(156) ? (br.bit(128) ? BMode.TM : BMode.HE) : br.bit(163) ? BMode.VE : BMode.DC;
        this.split[mb] = 0;
        this.luma[out] = mode;
        above.fill(mode, a, a + 4);
        left.fill(mode);
      } else {
        this.split[mb] = 1;
        for (let y = 0; y < 4; y++) {
          let l = left[y];
          for (let x = 0; x < 4; x++) {
            l = subBlockMode(br, ((above[a + x] * 10 + l) * 9) | 0);
            above[a + x] = l;
            this.luma[out + y * 4 + x] = l;
          }
          left[y] = l;
        }
      }
      this.chroma[mb] = br.bit(142) === 0 ? BMode.DC : br.bit(114) === 0 ? BMode.VE : br.bit(183) ? BMode.TM : BMode.HE;
    }
    return !br.eof;
  }
}

/** The sub-block mode tree (RFC 6386 11.2, bmode_tree), its node probabilities from `p`. */
function subBlockMode(br: BoolDecoder, p: number): number {
  const P = BMODE_PROBS;
  if (br.bit(P[p]) === 0) return BMode.DC;
  if (br.bit(P[p + 1]) === 0) return BMode.TM;
  if (br.bit(P[p + 2]) === 0) return BMode.VE;
  if (br.bit(P[p + 3]) === 0) {
    if (br.bit(P[p + 4]) === 0) return BMode.HE;
    return br.bit(P[p + 5]) === 0 ? BMode.RD : BMode.VR;
  }
  if (br.bit(P[p + 6]) === 0) return BMode.LD;
  if (br.bit(P[p + 7]) === 0) return BMode.VL;
  return br.bit(P[p + 8]) === 0 ? BMode.HD : BMode.HU;
}
