/**
 * A dry run of a GIF frame's LZW code stream: the same bit reading and table bookkeeping as a
 * decoder, without producing pixels. omggif trusts its input: a code past the next free table
 * slot can link table entries into a cycle, and its decoder then loops forever. Running this first
 * turns such a stream into an error, and counts the pixels the stream would produce.
 */

/** What a frame's LZW stream would give. */
export type LzwCheck = { readonly ok: true; readonly pixels: number } | { readonly ok: false; readonly reason: string };

/**
 * Checks the LZW data that starts at `offset` (the minimum code size byte, then sub-blocks) for
 * codes a decoder cannot follow, and returns how many pixels it decodes to (at most `expected`:
 * decoders stop there). The sub-block chain must already be known to lie inside `bytes`.
 */
export function checkGifLzw(bytes: Uint8Array, offset: number, expected: number): LzwCheck {
  const minCodeSize = bytes[offset] as number;
  if (minCodeSize < 1 || minCodeSize > 8) return { ok: false, reason: `LZW minimum code size ${minCodeSize}` };
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  const lengths = new Int32Array(4096);
  for (let i = 0; i < clear; i++) lengths[i] = 1;

  let p = offset + 1;
  let blockLeft = bytes[p++] as number;
  let bits = 0;
  let bitCount = 0;
  let codeSize = minCodeSize + 1;
  let mask = (1 << codeSize) - 1;
  let next = eoi + 1;
  let prev = -1;
  let pixels = 0;
  for (;;) {
    while (bitCount < codeSize && blockLeft > 0) {
      bits |= (bytes[p++] as number) << bitCount;
      bitCount += 8;
      if (--blockLeft === 0) blockLeft = bytes[p++] as number;
    }
    if (bitCount < codeSize) break; // data ran out without an end code; decoders stop here too
    const code = bits & mask;
    bits >>>= codeSize;
    bitCount -= codeSize;
    if (code === clear) {
      next = eoi + 1;
      codeSize = minCodeSize + 1;
      mask = (1 << codeSize) - 1;
      prev = -1;
      continue;
    }
    if (code === eoi) break;
    let length: number;
    if (code < next) {
      length = lengths[code] as number; // a pixel value, or an entry made since the last clear
    } else if (code === next && prev >= 0) {
      length = (lengths[prev] as number) + 1; // the KwKwK case: the previous string plus its own first pixel
    } else {
      return { ok: false, reason: `LZW code ${code} past the table (next free ${next})` };
    }
    pixels += length;
    if (pixels >= expected) return { ok: true, pixels: expected };
    if (prev >= 0 && next < 4096) {
      lengths[next] = (lengths[prev] as number) + 1;
      next++;
      if (next >= mask + 1 && codeSize < 12) {
        codeSize++;
        mask = (1 << codeSize) - 1;
      }
    }
    prev = code;
  }
  return { ok: true, pixels };
}

/**
 * The most pixels `dataBytes` bytes of LZW data can decode to, without reading them. Codes are at
 * least `minCodeSize + 1` bits, so there are at most `8 * dataBytes / (minCodeSize + 1)` of them;
 * the j-th code after a clear is at most j pixels long (each new table entry is one longer than
 * the code before it), and no entry is longer than the 4096-entry table allows.
 *
 * @example lzwPixelBound(1, 2) // 2 codes of 3 bits fit in a byte: at most 1 + 2 = 3 pixels
 */
export function lzwPixelBound(dataBytes: number, minCodeSize: number): number {
  if (minCodeSize < 1 || minCodeSize > 8) return 0;
  const codes = Math.floor((dataBytes * 8) / (minCodeSize + 1));
  if (codes <= 4096) return (codes * (codes + 1)) / 2;
  return (4096 * 4097) / 2 + (codes - 4096) * 4096;
}
