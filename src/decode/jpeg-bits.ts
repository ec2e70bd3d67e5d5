/**
 * Reading an entropy-coded segment: bits most significant first, 0xFF 0x00 unstuffed, stopping at
 * the next marker. Past the end of the data it supplies zero bits and counts how many of them were
 * used, so a scan that needed data the file does not have is told apart from one that ended
 * exactly (see docs/decode.md, "JPEG > The end of the data, and tolerance").
 */
import { DecodeError } from './error.js';
import { FAST_BITS, type HuffmanTable } from './jpeg-segments.js';

/** What stopped the reader: nothing yet, a marker at `pos`, or the end of the file. */
export const Stop = { None: 0, Marker: 1, End: 2 } as const;

/** A bit reader over `data` from `pos`; `stop` says why data ran out, `pos` is where. */
export class BitReader {
  pos: number;
  /**
   * Bits not yet consumed, in the low `count` bits of `bits` (higher bits are stale). Public for
   * the sequential block decoder (jpeg-entropy.ts), which keeps them in locals for a block.
   */
  bits = 0;
  count = 0;
  /** Zero bits appended since the data ran out. */
  private padding = 0;
  stop: number = Stop.None;

  constructor(
    readonly data: Uint8Array,
    start: number,
  ) {
    this.pos = start;
  }

  /** Tops the buffer up to at least 25 bits (zeros once the data has run out). */
  fill(): void {
    if (this.stop === Stop.None) {
      // Whole bytes in locals while no 0xFF (a stuffed 0xFF 0x00 is one byte) and not at the end.
      const data = this.data;
      const lastByte = data.length - 1;
      let bits = this.bits;
      let count = this.count;
      let pos = this.pos;
      while (count <= 24 && pos < lastByte) {
        const byte = data[pos] as number;
        if (byte === 0xff) {
          if (data[pos + 1] !== 0x00) break;
          pos += 2;
        } else pos++;
        bits = (bits << 8) | byte;
        count += 8;
      }
      this.bits = bits;
      this.count = count;
      this.pos = pos;
      if (count > 24) return;
    }
    this.fillSlowly();
  }

  /** `fill` at a marker, at the end of the data, or after either. */
  private fillSlowly(): void {
    const data = this.data;
    while (this.count <= 24) {
      let byte = 0;
      if (this.stop === Stop.None) {
        const p = this.pos;
        if (p >= data.length) {
          this.stop = Stop.End;
        } else {
          byte = data[p] as number;
          if (byte !== 0xff) {
            this.pos = p + 1;
          } else {
            const next = data[p + 1];
            if (next === 0x00) {
              this.pos = p + 2;
            } else {
              // A marker (or fill bytes before one), or a lone 0xFF at the very end of the file.
              this.stop = next === undefined ? Stop.End : Stop.Marker;
              byte = 0;
            }
          }
        }
      }
      if (this.stop !== Stop.None) this.padding += 8;
      this.bits = (this.bits << 8) | byte;
      this.count += 8;
    }
  }

  /** How many of the zero bits supplied past the end of the data have been consumed. */
  overrun(): number {
    return this.padding > this.count ? this.padding - this.count : 0;
  }

  /** `n` bits (0..16) as an unsigned number. */
  read(n: number): number {
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.bits >>> this.count) & ((1 << n) - 1);
  }

  /** One bit. */
  bit(): number {
    if (this.count < 1) this.fill();
    this.count--;
    return (this.bits >>> this.count) & 1;
  }

  /** `s` bits read as a signed coefficient difference (T.81 F.2.2.1, EXTEND). */
  receive(s: number): number {
    if (s === 0) return 0;
    const v = this.read(s);
    return v < 1 << (s - 1) ? v - (1 << s) + 1 : v;
  }

  /** The next `FAST_BITS` bits, without consuming them. */
  peek(): number {
    if (this.count < 16) this.fill();
    return (this.bits >>> (this.count - FAST_BITS)) & ((1 << FAST_BITS) - 1);
  }

  /** Consumes `n` bits already seen with `peek` (n <= FAST_BITS). */
  skip(n: number): void {
    this.count -= n;
  }

  /** The next Huffman-coded symbol. */
  decode(table: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const entry = table.fast[(this.bits >>> (this.count - FAST_BITS)) & ((1 << FAST_BITS) - 1)] as number;
    if (entry !== 0) {
      this.count -= entry >> 8;
      return entry & 0xff;
    }
    for (let length = FAST_BITS + 1; length <= 16; length++) {
      const code = (this.bits >>> (this.count - length)) & ((1 << length) - 1);
      if (code <= (table.maxCode[length] as number)) {
        this.count -= length;
        return table.symbols[code + (table.offset[length] as number)] as number;
      }
    }
    // Zero bits past the end can spell no code; the caller reports the missing data.
    if (this.stop !== Stop.None) {
      this.count = 0;
      return 0;
    }
    throw new DecodeError('corrupt', `corrupt JPEG: invalid Huffman code before byte ${this.pos}`);
  }

  /**
   * At a restart interval's end: drops the partial byte, then steps over the RSTn marker if it is
   * there (after any stray bytes, as libjpeg resynchronizes). Returns false when the data stopped
   * at some other marker or at the end of the file, leaving the reader stopped.
   */
  restart(): boolean {
    const data = this.data;
    this.bits = 0;
    this.count = 0;
    if (this.stop === Stop.End) return false;
    let p = this.pos;
    for (;;) {
      while (p < data.length && data[p] !== 0xff) p++;
      while (p + 1 < data.length && data[p + 1] === 0xff) p++;
      if (p + 1 >= data.length) {
        this.pos = p;
        this.stop = Stop.End;
        return false;
      }
      const marker = data[p + 1] as number;
      if (marker === 0x00) {
        p += 2; // stuffed data byte: still inside stray data
        continue;
      }
      if (marker >= 0xd0 && marker <= 0xd7) {
        this.pos = p + 2;
        this.stop = Stop.None;
        this.padding = 0;
        return true;
      }
      this.pos = p;
      this.stop = Stop.Marker;
      return false;
    }
  }
}

/**
 * Where the entropy-coded data that starts at `from` ends: the next marker that is not RSTn (a
 * stuffed 0xFF 0x00 and fill bytes are stepped over), or the end of `data`.
 */
export function entropyDataEnd(data: Uint8Array, from: number): number {
  let p = from;
  for (;;) {
    p = data.indexOf(0xff, p);
    if (p < 0 || p + 1 >= data.length) return data.length;
    const next = data[p + 1] as number;
    if (next === 0x00 || (next >= 0xd0 && next <= 0xd7)) {
      p += 2;
      continue;
    }
    if (next === 0xff) {
      p++;
      continue;
    }
    return p;
  }
}
