/**
 * Where files carry an ICC profile, and getting it out whole and bounded: JPEG's APP2
 * `ICC_PROFILE` segments (a profile split over up to 255 numbered chunks, ICC.1:2022 annex B.4)
 * and PNG's iCCP chunk (a name, then the profile deflated: inflated here with an output budget, so
 * a decompression bomb costs at most the budget). See docs/decode.md, "Colour".
 */
import { inflateSync } from 'node:zlib';

/** The most bytes an embedded profile may inflate or join to; beyond any profile a picture carries. */
export const MAX_EMBEDDED_PROFILE = 8 << 20;

const ICC_MARKER = 'ICC_PROFILE\0';

/** One APP2 `ICC_PROFILE` chunk: its number (from 1), how many there are, its part of the profile. */
export interface IccChunk {
  readonly sequence: number;
  readonly count: number;
  readonly data: Uint8Array;
}

/** The ICC chunk an APP2 segment's body holds, or null when it is some other APP2 (FlashPix, MPF…). */
export function parseIccChunk(body: Uint8Array): IccChunk | null {
  if (body.length < 14) return null;
  for (let i = 0; i < 12; i++) if (body[i] !== ICC_MARKER.charCodeAt(i)) return null;
  return { sequence: body[12] as number, count: body[13] as number, data: body.subarray(14) };
}

/**
 * The profile from a JPEG's ICC chunks: ordered by sequence number (writers may store them out of
 * order), the first of each number kept. Missing chunks leave a profile shorter than its header
 * declares, which the profile reader then reports. Null when there are none or the total is over
 * `MAX_EMBEDDED_PROFILE`.
 */
export function joinIccChunks(chunks: readonly IccChunk[]): Uint8Array | null {
  if (chunks.length === 0) return null;
  const bySequence = new Map<number, Uint8Array>();
  for (const c of chunks) if (!bySequence.has(c.sequence)) bySequence.set(c.sequence, c.data);
  const ordered = [...bySequence.entries()].sort((a, b) => a[0] - b[0]).map(([, data]) => data);
  let total = 0;
  for (const part of ordered) total += part.length;
  if (total > MAX_EMBEDDED_PROFILE) return null;
  if (ordered.length === 1) return ordered[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of ordered) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** Why a PNG's iCCP chunk gave no profile, or the profile. */
export type IccpResult = { readonly profile: Uint8Array } | { readonly why: string };

/**
 * The profile in an iCCP chunk's body: a 1-79 byte name, a zero, compression method 0, then a
 * zlib stream inflated to at most `MAX_EMBEDDED_PROFILE` bytes.
 */
export function inflateIccp(body: Uint8Array): IccpResult {
  const zero = body.indexOf(0);
  if (zero < 1 || zero > 79 || zero + 2 > body.length) return { why: 'a malformed iCCP chunk' };
  if (body[zero + 1] !== 0) return { why: `an iCCP chunk with compression method ${body[zero + 1]}` };
  try {
    const out = inflateSync(body.subarray(zero + 2), { maxOutputLength: MAX_EMBEDDED_PROFILE });
    return { profile: new Uint8Array(out.buffer, out.byteOffset, out.length) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      return { why: `an iCCP profile that inflates to more than ${MAX_EMBEDDED_PROFILE} bytes` };
    return { why: 'an iCCP profile whose compressed data is damaged' };
  }
}
