/**
 * The bit reader of WebP's lossless bitstream (VP8L, also inside ALPH): bits are taken from the
 * least significant end of each byte, bytes in order (RFC 9649 section 3.2), unlike JPEG's.
 * Reading past the end gives zero bits and is remembered (`exhausted`), so a cut file is found
 * where it is checked instead of by a bounds test on every read.
 */
import type { PrefixCode } from './webp-prefix.js';

/** Reads bits, least significant first, from `data[start..end)`. */
export class LosslessBitReader {
  // Public for the pixel loop (webp-lossless.ts), which keeps them in locals while it runs.
  readonly data: Uint8Array;
  readonly end: number;
  /** The next byte to load (may go past `end`: those bytes read as zero). */
  pos: number;
  /** The bits loaded and not yet consumed, in the low `count` bits. */
  window = 0;
  count = 0;

  constructor(data: Uint8Array, start = 0, end = data.length) {
    this.data = data;
    this.pos = start;
    this.end = end;
  }

  /** Whether more bits were consumed than the data holds. */
  get exhausted(): boolean {
    return (this.pos - this.end) * 8 > this.count;
  }

  /** Loads whole bytes until at least 25 bits are held. */
  private fill(): void {
    while (this.count <= 24) {
      const byte = this.pos < this.end ? (this.data[this.pos] as number) : 0;
      this.pos++;
      this.window = (this.window | (byte << this.count)) >>> 0;
      this.count += 8;
    }
  }

  /** The next `n` bits (0 to 24) as an unsigned number. */
  read(n: number): number {
    if (this.count < n) this.fill();
    const value = this.window & ((1 << n) - 1);
    this.window >>>= n;
    this.count -= n;
    return value;
  }

  /** The next symbol of a prefix code (codes are at most 15 bits long). */
  symbol(code: PrefixCode): number {
    if (this.count < 15) this.fill();
    const table = code.table;
    let entry = table[this.window & code.mask] as number;
    if (entry < 0) {
      // A second-level table: its size in bits 24..30, its offset in the low 24 bits.
      const bits = (entry >>> 24) & 0x7f;
      entry = table[(entry & 0xffffff) + ((this.window >>> code.rootBits) & ((1 << bits) - 1))] as number;
    }
    const length = entry >>> 16;
    this.window >>>= length;
    this.count -= length;
    return entry & 0xffff;
  }
}
