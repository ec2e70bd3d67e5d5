/**
 * A GIF frame's LZW code stream to palette indices, checked as it goes: a minimum code size outside
 * 1–8, a code past the next free table slot (it would link entries into a cycle), a stream that
 * gives more pixels than the frame holds and one that ends short are each a reason, never a loop
 * or a write past the output. Every table entry is a run already in the output (the previous
 * string plus the first pixel of the next, which follow each other there), so a code is one copy
 * from earlier output, with no chain to chase. See docs/decode.md#gif.
 */

/** Whether a frame's LZW stream gave exactly its pixels, and why not. */
export type LzwResult = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const TABLE_SIZE = 4096;
/** Where each table entry's run starts in the output, and how long it is (reused: one frame at a time). */
const entryStart = new Int32Array(TABLE_SIZE);
const entryLength = new Int32Array(TABLE_SIZE);
const OK: LzwResult = { ok: true };
const LONGER: LzwResult = { ok: false, reason: 'the image data does not match its size' };
const SHORTER: LzwResult = { ok: false, reason: 'the image data is shorter than its size' };

/**
 * Decodes the LZW data that starts at `offset` (the minimum code size byte, then sub-blocks) into
 * `output`, one palette index per pixel; `output.length` is the frame's pixel count. The sub-block
 * chain must already be known to lie inside `bytes` (the layout walk checks it). Data that runs
 * out without an end code is accepted when it gave every pixel, as browsers do.
 */
export function decodeGifLzw(bytes: Uint8Array, offset: number, output: Uint8Array): LzwResult {
  const expected = output.length;
  const minCodeSize = bytes[offset] as number;
  if (minCodeSize < 1 || minCodeSize > 8) return { ok: false, reason: `LZW minimum code size ${minCodeSize}` };
  const data = joinSubBlocks(bytes, offset + 1);
  // Locals, not module variables: before the JIT, each module variable read is a lookup.
  const starts = entryStart;
  const lengths = entryLength;
  // Codes are read three bytes at a time from the joined data (two zero bytes pad its end), so the
  // loop has no sub-block or byte bookkeeping: a fresh process runs it before the JIT has, and
  // fewer steps per code is most of its speed there.
  const dataBits = (data.length - 2) * 8;
  const clear = 1 << minCodeSize;
  const eoi = clear + 1;
  // What a clear code resets to, computed once: a clear first seen after V8 has compiled the
  // loop then runs no arithmetic it has no feedback for (which would throw the compiled code away).
  const firstFree = eoi + 1;
  const firstSize = minCodeSize + 1;
  const firstMask = (1 << firstSize) - 1;
  let pos = 0;
  let codeSize = firstSize;
  let mask = firstMask;
  let next = firstFree;
  let prevStart = -1; // no previous string since the last clear
  let prevLength = 0;
  let op = 0;
  while (pos + codeSize <= dataBits) {
    const q = pos >> 3;
    const code =
      (((data[q] as number) | ((data[q + 1] as number) << 8) | ((data[q + 2] as number) << 16)) >>> (pos & 7)) & mask;
    pos += codeSize;
    let length: number;
    if (code > eoi && code < next) {
      // An entry made since the last clear: a run that ends at or before `op`, so never
      // overlapping. copyWithin, not a loop: a loop inside the loop makes V8 compile the
      // function once per loop it enters hot (measured: 2-3 compiles of ~17 ms in a fresh process).
      length = lengths[code] as number;
      if (op + length > expected) return LONGER;
      const from = starts[code] as number;
      output.copyWithin(op, from, from + length);
    } else if (code < clear) {
      length = 1;
      if (op >= expected) return LONGER;
      output[op] = code;
    } else if (code === clear) {
      next = firstFree;
      codeSize = firstSize;
      mask = firstMask;
      prevStart = -1;
      continue;
    } else if (code === eoi) {
      break;
    } else if (code === next && prevStart >= 0) {
      // The KwKwK case: the previous string plus its own first pixel.
      length = prevLength + 1;
      if (op + length > expected) return LONGER;
      output.copyWithin(op, prevStart, op); // the previous string ends at op
      output[op + prevLength] = output[prevStart] as number;
    } else {
      return { ok: false, reason: `LZW code ${code} past the table (next free ${next})` };
    }
    if (prevStart >= 0 && next < 4096) {
      // The previous string and this string's first pixel: the run from prevStart, one longer.
      starts[next] = prevStart;
      lengths[next] = prevLength + 1;
      next++;
      if (next > mask && codeSize < 12) {
        codeSize++;
        mask = (1 << codeSize) - 1;
      }
    }
    prevStart = op;
    prevLength = length;
    op += length;
  }
  return op === expected ? OK : SHORTER;
}

/** The data of the sub-blocks that start at `p`, in one buffer with two zero bytes after it. */
function joinSubBlocks(bytes: Uint8Array, p: number): Uint8Array {
  let total = 0;
  for (let q = p; (bytes[q] as number) > 0; q += (bytes[q] as number) + 1) total += bytes[q] as number;
  const data = new Uint8Array(total + 2);
  let at = 0;
  for (let q = p; (bytes[q] as number) > 0; q += (bytes[q] as number) + 1) {
    const size = bytes[q] as number;
    data.set(bytes.subarray(q + 1, q + 1 + size), at);
    at += size;
  }
  return data;
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
