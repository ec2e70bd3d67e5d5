/**
 * VP8's boolean entropy decoder (RFC 6386 section 7): one binary arithmetic decoder per partition,
 * each bit read with an 8-bit probability of being 0. Past the end of its bytes it reads zeros, as
 * libwebp does, and remembers that it did (`eof`): the first time it needs a byte that is not there
 * it supplies eight zero bits and sets `eof`. libwebp refuses a frame whose partition reached that
 * point; the frame decoder checks `eof` where libwebp does (docs/decode.md, "WebP lossy (VP8)").
 */

/** A boolean decoder over `data[start, end)`. */
export class BoolDecoder {
  /** The bits not yet consumed: the 8-bit window on top, `bits` more below it. */
  value = 0;
  /** The current range minus one (127..254 between calls). */
  range = 254;
  /** How many bits are buffered below the 8-bit window; negative means the window needs bytes. */
  bits = -8;
  /** True once a byte past the end was asked for (eight zero bits were supplied). */
  eof = false;
  pos: number;

  constructor(
    readonly data: Uint8Array,
    start: number,
    readonly end: number,
  ) {
    this.pos = start;
    this.load();
  }

  /** Buffers up to three more bytes; past the end, zeros once (setting `eof`), then nothing. */
  load(): void {
    const pos = this.pos;
    if (pos + 3 <= this.end) {
      const d = this.data;
      this.value = (this.value << 24) | (d[pos] << 16) | (d[pos + 1] << 8) | d[pos + 2];
      this.pos = pos + 3;
      this.bits += 24;
    } else if (pos < this.end) {
      this.value = (this.value << 8) | this.data[pos];
      this.pos = pos + 1;
      this.bits += 8;
    } else if (!this.eof) {
      this.value <<= 8;
      this.bits += 8;
      this.eof = true;
    } else {
      // libwebp's behaviour past the padding (no more shifting); the frame is refused by then.
      this.bits = 0;
    }
  }

  /** One bit whose probability of being 0 is `prob`/256. */
  bit(prob: number): number {
    if (this.bits < 0) this.load();
    let range = this.range;
    const split = (range * prob) >>> 8;
    const bits = this.bits;
    let bit: number;
    if (this.value >>> bits > split) {
      range -= split;
      this.value -= (split + 1) << bits;
      bit = 1;
    } else {
      range = split + 1;
      bit = 0;
    }
    // Renormalize: shift the new range (1..255) back into 128..255.
    const shift = Math.clz32(range) - 24;
    this.range = (range << shift) - 1;
    this.bits = bits - shift;
    return bit;
  }

  /** An unsigned `n`-bit number, most significant bit first, each bit at even odds. */
  literal(n: number): number {
    let v = 0;
    for (let i = n - 1; i >= 0; i--) v |= this.bit(128) << i;
    return v;
  }

  /** An `n`-bit magnitude followed by a sign bit (1 = negative). */
  signed(n: number): number {
    const v = this.literal(n);
    return this.bit(128) ? -v : v;
  }

  /** One flag bit at even odds. */
  flag(): boolean {
    return this.bit(128) === 1;
  }
}
