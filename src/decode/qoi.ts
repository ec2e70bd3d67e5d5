/**
 * QOI, the "Quite OK Image" format (qoiformat.org, specification 1.0): a 14-byte header, then
 * one op a pixel or a run (RGB, RGBA, index into 64 recent colours, small and luma differences,
 * runs of up to 62), then seven zero bytes and a one. See docs/decode.md#qoi.
 */
import type { Raster } from '../core/raster.js';
import { DecodeError } from './error.js';
import { QOI_HEADER, readQoiHeader } from './header.js';
import type { ColourInfo } from './image.js';

/** The most pixels one op can stand for (a run); a file shorter than its pixels need is refused before allocating. */
const MOST_PIXELS_AN_OP = 62;

/** A decoded QOI: its picture and the colour it declares. */
export interface DecodedQoi {
  readonly raster: Raster;
  readonly colour: ColourInfo;
}

/**
 * Decodes a QOI to RGBA (alpha as the stream carries it, whatever `channels` says). The declared
 * size must already be within the limits (header.ts). Throws `DecodeError`.
 */
export function decodeQoi(b: Uint8Array): DecodedQoi {
  const { width, height, colorspace } = readQoiHeader(b);
  const pixels = width * height;
  if (Math.ceil(pixels / MOST_PIXELS_AN_OP) > b.length - QOI_HEADER)
    throw new DecodeError(
      'truncated',
      `truncated QOI: ${width}x${height} needs at least ${Math.ceil(pixels / MOST_PIXELS_AN_OP)} bytes of data, the file has ${b.length - QOI_HEADER}`,
    );
  const out = new Uint8Array(pixels * 4);
  const seen = new Uint8Array(64 * 4);
  let r = 0;
  let g = 0;
  let bl = 0;
  let a = 255;
  let p = QOI_HEADER;
  const end = b.length;
  for (let o = 0; o < out.length; ) {
    if (p >= end) throw new DecodeError('truncated', 'truncated QOI: the data ends before the last pixel');
    const op = b[p++] as number;
    let run = 1;
    if (op === 0xfe || op === 0xff) {
      const size = op === 0xff ? 4 : 3;
      if (p + size > end) throw new DecodeError('truncated', 'truncated QOI: the data ends inside a pixel');
      r = b[p] as number;
      g = b[p + 1] as number;
      bl = b[p + 2] as number;
      if (op === 0xff) a = b[p + 3] as number;
      p += size;
    } else {
      const tag = op >> 6;
      if (tag === 0) {
        const i = (op & 63) * 4;
        r = seen[i] as number;
        g = seen[i + 1] as number;
        bl = seen[i + 2] as number;
        a = seen[i + 3] as number;
      } else if (tag === 1) {
        r = (r + ((op >> 4) & 3) - 2) & 255;
        g = (g + ((op >> 2) & 3) - 2) & 255;
        bl = (bl + (op & 3) - 2) & 255;
      } else if (tag === 2) {
        if (p >= end) throw new DecodeError('truncated', 'truncated QOI: the data ends inside a pixel');
        const dg = (op & 63) - 32;
        const next = b[p++] as number;
        r = (r + dg + (next >> 4) - 8) & 255;
        g = (g + dg) & 255;
        bl = (bl + dg + (next & 15) - 8) & 255;
      } else {
        run = (op & 63) + 1;
      }
    }
    const h = ((r * 3 + g * 5 + bl * 7 + a * 11) & 63) * 4;
    seen[h] = r;
    seen[h + 1] = g;
    seen[h + 2] = bl;
    seen[h + 3] = a;
    // A run past the last pixel is cut at the picture's end.
    for (; run > 0 && o < out.length; run--, o += 4) {
      out[o] = r;
      out[o + 1] = g;
      out[o + 2] = bl;
      out[o + 3] = a;
    }
  }
  // The end marker (seven zeros and a one) is not required: the pixels are all there.
  const colour: ColourInfo =
    colorspace === 1 ? { cicp: { primaries: 1, transfer: 8, matrix: 0, fullRange: true, source: 'QOI header' } } : {};
  return { raster: { width, height, data: out }, colour };
}
