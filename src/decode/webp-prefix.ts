/**
 * Canonical prefix (Huffman) codes of WebP lossless, as lookup tables: code lengths in, a table
 * the bit reader decodes a symbol with in one or two lookups out (RFC 9649 section 3.7.2). The
 * lengths must form a complete code, or a single symbol, which then takes no bits at all: that
 * is how an encoder says "every pixel has this red", and libwebp decodes it so.
 */

/** A prefix code as a lookup table (see `buildPrefixCode`). */
export interface PrefixCode {
  /**
   * Root entries then second-level tables. A leaf is `length << 16 | symbol`; a link to a
   * second-level table (negative) is `1 << 31 | bits << 24 | offset`.
   */
  readonly table: Int32Array;
  /** `(1 << rootBits) - 1`: the bits the root table is indexed by. */
  readonly mask: number;
  readonly rootBits: number;
}

/** The longest code WebP allows. */
export const MAX_CODE_LENGTH = 15;
const ROOT_BITS = 8;

/** `code`'s low `length` bits in reverse order: codes are sent most significant bit first. */
function reverseBits(code: number, length: number): number {
  let out = 0;
  for (let i = 0; i < length; i++) {
    out = (out << 1) | (code & 1);
    code >>>= 1;
  }
  return out;
}

/**
 * The lookup table of the canonical code with these lengths (0: symbol unused), or null when
 * they do not form one: no symbol, or lengths that over- or under-fill the code space (a code
 * of one symbol is the exception: it is read in zero bits).
 *
 * @example buildPrefixCode(Uint8Array.of(1, 1)) // symbol 0 is bit 0, symbol 1 is bit 1
 */
export function buildPrefixCode(lengths: Uint8Array, size = lengths.length): PrefixCode | null {
  const count = new Int32Array(MAX_CODE_LENGTH + 1);
  let used = 0;
  let only = 0;
  for (let s = 0; s < size; s++) {
    const length = lengths[s] as number;
    if (length > MAX_CODE_LENGTH) return null;
    if (length > 0) {
      count[length]++;
      used++;
      only = s;
    }
  }
  if (used === 0) return null;
  if (used === 1) return { table: Int32Array.of(only), mask: 0, rootBits: 0 };
  // The code must fill the code space exactly (Kraft's sum of 2^-length is 1).
  let open = 1;
  let maxLength = 0;
  for (let length = 1; length <= MAX_CODE_LENGTH; length++) {
    open = open * 2 - (count[length] as number);
    if (open < 0) return null;
    if ((count[length] as number) > 0) maxLength = length;
  }
  if (open !== 0) return null;

  const rootBits = Math.min(ROOT_BITS, maxLength);
  const rootSize = 1 << rootBits;
  // Canonical codes: by length, then by symbol.
  const next = new Int32Array(MAX_CODE_LENGTH + 2);
  for (let length = 1, code = 0; length <= MAX_CODE_LENGTH; length++) {
    code = (code + (count[length - 1] as number) * (length > 1 ? 1 : 0)) << 1;
    next[length] = code;
  }
  const reversed = new Int32Array(size);
  // The deepest code under each root entry decides the size of its second-level table.
  const subBits = new Uint8Array(rootSize);
  for (let s = 0; s < size; s++) {
    const length = lengths[s] as number;
    if (length === 0) continue;
    const r = reverseBits((next[length] as number)++, length);
    reversed[s] = r;
    if (length > rootBits) {
      const root = r & (rootSize - 1);
      subBits[root] = Math.max(subBits[root] as number, length - rootBits);
    }
  }
  const offset = new Int32Array(rootSize);
  let total = rootSize;
  for (let root = 0; root < rootSize; root++) {
    if ((subBits[root] as number) === 0) continue;
    offset[root] = total;
    total += 1 << (subBits[root] as number);
  }
  const table = new Int32Array(total);
  for (let root = 0; root < rootSize; root++) {
    const bits = subBits[root] as number;
    if (bits > 0) table[root] = 0x80000000 | (bits << 24) | (offset[root] as number) | 0;
  }
  for (let s = 0; s < size; s++) {
    const length = lengths[s] as number;
    if (length === 0) continue;
    const r = reversed[s] as number;
    const leaf = (length << 16) | s;
    if (length <= rootBits) {
      for (let i = r; i < rootSize; i += 1 << length) table[i] = leaf;
    } else {
      const root = r & (rootSize - 1);
      const bits = subBits[root] as number;
      const base = offset[root] as number;
      for (let i = r >>> rootBits; i < 1 << bits; i += 1 << (length - rootBits)) table[base + i] = leaf;
    }
  }
  return { table, mask: rootSize - 1, rootBits };
}
