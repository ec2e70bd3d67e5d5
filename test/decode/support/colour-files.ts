/**
 * Files that carry colour, made from committed pictures: PNG colour chunks (iCCP, cICP, sRGB,
 * gAMA, cHRM) put after IHDR or after IDAT, and JPEG APP2 ICC chunks put after SOI.
 */
import { deflateSync } from 'node:zlib';
import { crc32 } from '../../../src/core/crc32.js';

function u32(v: number): Uint8Array {
  return Uint8Array.from([(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255]);
}

/** One PNG chunk: length, type, body, CRC. */
export function pngChunk(type: string, body: Uint8Array): Uint8Array {
  const typed = Buffer.concat([Buffer.from(type, 'latin1'), body]);
  return Buffer.concat([u32(body.length), typed, u32(crc32(typed))]);
}

/** `png` with `chunks` put right after IHDR (`where: 'after-ihdr'`) or right before IEND. */
export function withPngChunks(
  png: Uint8Array,
  chunks: readonly Uint8Array[],
  where: 'after-ihdr' | 'before-iend' = 'after-ihdr',
): Uint8Array {
  const at = where === 'after-ihdr' ? 8 + 25 : png.length - 12;
  return Buffer.concat([png.subarray(0, at), ...chunks, png.subarray(at)]);
}

/** An iCCP chunk holding `profile`, deflated. */
export function iccpChunk(profile: Uint8Array, name = 'ICC profile'): Uint8Array {
  return pngChunk('iCCP', Buffer.concat([Buffer.from(`${name}\0\0`, 'latin1'), deflateSync(profile)]));
}

export const cicpChunk = (primaries: number, transfer: number, matrix = 0, fullRange = 1): Uint8Array =>
  pngChunk('cICP', Uint8Array.from([primaries, transfer, matrix, fullRange]));
export const srgbChunk = (intent = 0): Uint8Array => pngChunk('sRGB', Uint8Array.from([intent]));
export const gamaChunk = (gamma: number): Uint8Array => pngChunk('gAMA', u32(gamma));
export const chrmChunk = (values: readonly number[]): Uint8Array =>
  pngChunk('cHRM', Buffer.concat(values.map((v) => u32(v))));

/**
 * `jpeg` with `profile` in APP2 `ICC_PROFILE` segments after SOI: split into `parts` chunks,
 * written in the order `order` gives (1-based sequence numbers; default in order), `count` as
 * each chunk's total (default `parts`).
 */
export function withJpegProfile(
  jpeg: Uint8Array,
  profile: Uint8Array,
  parts = 1,
  order?: readonly number[],
  count = parts,
): Uint8Array {
  const size = Math.ceil(profile.length / parts);
  const chunks = Array.from({ length: parts }, (_, i) => profile.subarray(i * size, (i + 1) * size));
  const segments = (order ?? chunks.map((_, i) => i + 1)).map((seq) => {
    const data = chunks[seq - 1] as Uint8Array;
    const body = Buffer.concat([Buffer.from('ICC_PROFILE\0', 'latin1'), Uint8Array.from([seq, count]), data]);
    return Buffer.concat([Uint8Array.from([0xff, 0xe2, (body.length + 2) >> 8, (body.length + 2) & 255]), body]);
  });
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}
