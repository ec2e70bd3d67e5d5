/**
 * Getting an embedded ICC profile out whole and bounded: JPEG's APP2 `ICC_PROFILE` segments (a
 * profile split over up to 255 numbered chunks, ICC.1:2022 annex B.4), and the budget every
 * embedded profile is held to (PNG's iCCP is inflated within it by png-colour.ts; this module
 * loads no zlib, so a JPEG never does). See docs/decode.md, "Colour".
 */
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
