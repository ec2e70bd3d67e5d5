/**
 * PLACEHOLDER for the VP8 (lossy) decoder, which engineer "vp8" writes in parallel with this
 * exact signature; the lead replaces this file with theirs at the merge. Here only the frame
 * header's size is read; pixels are refused as `unsupported`.
 */
import { DecodeError } from './error.js';

/** The size in a VP8 key frame header: 3-byte frame tag, start code 9d 01 2a, 14-bit width and height. */
export function readVp8Size(data: Uint8Array): { width: number; height: number } {
  if (data.length < 10) throw new DecodeError('truncated', 'truncated WebP: the file ends inside its VP8 frame header');
  if (((data[0] as number) & 1) !== 0)
    throw new DecodeError('corrupt', 'corrupt WebP: the VP8 frame is not a key frame');
  if (data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a)
    throw new DecodeError('corrupt', 'corrupt WebP: no VP8 start code');
  const width = ((data[6] as number) | ((data[7] as number) << 8)) & 0x3fff;
  const height = ((data[8] as number) | ((data[9] as number) << 8)) & 0x3fff;
  return { width, height };
}

/** Placeholder: refuses the pixels of a lossy WebP. */
export function decodeVp8(
  data: Uint8Array,
  _limits: { maxPixels: number; maxSide: number },
): { width: number; height: number; data: Uint8Array } {
  readVp8Size(data);
  throw new DecodeError('unsupported', 'lossy WebP (VP8) is not decoded yet');
}
