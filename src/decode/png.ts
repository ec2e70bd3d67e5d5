/**
 * PNG to RGBA8 with fast-png: every colour type (grey, grey+alpha, RGB, RGBA, palette), every bit
 * depth (1, 2, 4, 8, 16) and `tRNS` transparency. The chunk structure is walked first, so a file cut
 * short is reported as truncated rather than as whatever the decoder trips over.
 */
import { type DecodedPng, decode as decodePng } from 'fast-png';
import { u32be } from '../core/bytes.js';
import { crc32 } from '../core/crc32.js';
import type { Raster } from '../core/raster.js';
import { DecodeError, reasonOf } from './error.js';

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

/**
 * Checks the chunk layout before anything is inflated: lengths inside the file, chunk types made
 * of letters, every CRC right, IDAT present, IEND reached. (fast-png inflates a chunk before it
 * checks that chunk's CRC, so a damaged chunk would be reported as a zlib error.)
 */
export function checkPngStructure(bytes: Uint8Array): void {
  let p = 8;
  let sawData = false;
  for (;;) {
    if (p + 8 > bytes.length) throw new DecodeError('truncated', 'truncated PNG: the file ends before its IEND chunk');
    const length = u32be(bytes, p);
    const typeBytes = bytes.subarray(p + 4, p + 8);
    if (!typeBytes.every(isLetter))
      throw new DecodeError('corrupt', `corrupt PNG: invalid chunk type at byte ${p + 4}`);
    const type = String.fromCharCode(...typeBytes);
    if (length > 0x7fffffff)
      throw new DecodeError('corrupt', `corrupt PNG: ${type} chunk length ${length} out of range`);
    if (p + 12 + length > bytes.length)
      throw new DecodeError('truncated', `truncated PNG: the file ends inside its ${type} chunk`);
    if (crc32(bytes.subarray(p + 4, p + 8 + length)) !== u32be(bytes, p + 8 + length)) {
      throw new DecodeError('corrupt', `corrupt PNG: CRC mismatch in its ${type} chunk`);
    }
    if (type === 'IDAT') sawData = true;
    if (type === 'IEND') break;
    p += 12 + length;
  }
  if (!sawData) throw new DecodeError('corrupt', 'corrupt PNG: no image data (IDAT) chunk');
}

/** Scales an n-bit sample to 8 bits. */
function scaleTable(depth: number): Uint8Array {
  const max = (1 << depth) - 1;
  const table = new Uint8Array(max + 1);
  for (let v = 0; v <= max; v++) table[v] = Math.round((v * 255) / max);
  return table;
}

/** Reads sample `i` of a row of packed samples of 1, 2 or 4 bits. */
function packedSample(data: ArrayLike<number>, rowStart: number, i: number, depth: number): number {
  const bit = i * depth;
  const byte = data[rowStart + (bit >> 3)]!;
  return (byte >> (8 - depth - (bit & 7))) & ((1 << depth) - 1);
}

/** Converts fast-png's output (any depth, any colour type) to straight RGBA8. */
export function pngToRaster(png: DecodedPng): Raster {
  const { width, height, depth, channels, data, palette, transparency } = png;
  const out = new Uint8Array(width * height * 4);
  const rowSamples = width * channels;
  const rowBytes = depth < 8 ? Math.ceil((rowSamples * depth) / 8) : rowSamples;
  const expected = rowBytes * height;
  if (data.length < expected) throw new DecodeError('corrupt', 'corrupt PNG: the image data is shorter than its size');

  // Raw sample n of row y, before any scaling (the value tRNS keys and palettes refer to).
  const raw = (y: number, n: number): number =>
    depth < 8 ? packedSample(data, y * rowBytes, n, depth) : data[y * rowBytes + n]!;
  const to8 =
    depth === 16
      ? (v: number) => ((v * 255 + 32767) / 65535) | 0
      : depth === 8
        ? (v: number) => v
        : (
            (t) => (v: number) =>
              t[v]!
          )(scaleTable(depth));

  if (palette) {
    for (let y = 0, o = 0; y < height; y++) {
      for (let x = 0; x < width; x++, o += 4) {
        const entry = palette[raw(y, x)];
        // An index past the palette is an error by the spec; draw it black like browsers do.
        out[o] = entry?.[0] ?? 0;
        out[o + 1] = entry?.[1] ?? 0;
        out[o + 2] = entry?.[2] ?? 0;
        out[o + 3] = entry?.[3] ?? 255;
      }
    }
    return { width, height, data: out };
  }

  // tRNS on grey or RGB: one colour, in raw samples, that is fully transparent.
  const key =
    transparency && transparency.length >= (channels === 1 ? 1 : 3) && (channels === 1 || channels === 3)
      ? transparency
      : null;
  // The common cases (8-bit RGBA and RGB) skip the per-sample dispatch: photos are large.
  if (depth === 8 && channels === 4) {
    out.set(data.subarray(0, out.length));
    return { width, height, data: out };
  }
  if (depth === 8 && channels === 3 && !key) {
    for (let i = 0, o = 0; o < out.length; i += 3, o += 4) {
      out[o] = data[i]!;
      out[o + 1] = data[i + 1]!;
      out[o + 2] = data[i + 2]!;
      out[o + 3] = 255;
    }
    return { width, height, data: out };
  }
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0, n = 0; x < width; x++, o += 4, n += channels) {
      if (channels <= 2) {
        const g = raw(y, n);
        const v = to8(g);
        out[o] = v;
        out[o + 1] = v;
        out[o + 2] = v;
        out[o + 3] = channels === 2 ? to8(raw(y, n + 1)) : key && g === key[0] ? 0 : 255;
      } else {
        const r = raw(y, n);
        const g = raw(y, n + 1);
        const b = raw(y, n + 2);
        out[o] = to8(r);
        out[o + 1] = to8(g);
        out[o + 2] = to8(b);
        out[o + 3] =
          channels === 4 ? to8(raw(y, n + 3)) : key && r === key[0] && g === key[1] && b === key[2] ? 0 : 255;
      }
    }
  }
  return { width, height, data: out };
}

/** Decodes a PNG file (the default image of an APNG) to RGBA8; throws `DecodeError`. */
export function decodePngRaster(bytes: Uint8Array): Raster {
  checkPngStructure(bytes);
  let png: DecodedPng;
  try {
    png = decodePng(bytes); // CRCs were checked above
  } catch (error) {
    const cause = error instanceof Error && error.cause !== undefined ? `: ${reasonOf(error.cause)}` : '';
    throw new DecodeError('corrupt', `corrupt PNG: ${reasonOf(error)}${cause}`.replace(/:\s*:/, ':'), { cause: error });
  }
  return pngToRaster(png);
}
