/**
 * A BMP's file header and DIB header, read without a pixel: what the size check (header.ts,
 * given it by load.ts or image-header.ts) and the decoder (bmp.ts) need, in a module of its own
 * so that a BMP's size is checked before its decoder loads, and no other format loads it.
 */
import { DecodeError } from './error.js';
import { isBmpHeaderSize } from './sniff.js';

/** What a BMP's two headers say, read without a pixel . */
export interface BmpHeader {
  readonly width: number;
  readonly height: number;
  /** Rows stored from the top (a negative height), else from the bottom. */
  readonly topDown: boolean;
  readonly bits: number;
  /** BI_RGB 0, BI_RLE8 1, BI_RLE4 2, BI_BITFIELDS 3, BI_JPEG 4, BI_PNG 5, BI_ALPHABITFIELDS 6. */
  readonly compression: number;
  /** Where the DIB header starts its size field (14) plus its size: where masks or palette follow. */
  readonly headerEnd: number;
  readonly headerSize: number;
  /** Where the pixels start (the file header's offset). */
  readonly pixelOffset: number;
  /** Palette entries the header names (0: as many as the bit depth allows). */
  readonly coloursUsed: number;
}

export const cut = (where: string): DecodeError =>
  new DecodeError('truncated', `truncated BMP: the file ends ${where}`);
export const corrupt = (why: string): DecodeError => new DecodeError('corrupt', `corrupt BMP: ${why}`);

export function u16(b: Uint8Array, at: number): number {
  return (b[at] as number) | ((b[at + 1] as number) << 8);
}
export function u32(b: Uint8Array, at: number): number {
  return (
    ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
    (b[at + 3] as number) * 0x1000000
  );
}
function i32(b: Uint8Array, at: number): number {
  return u32(b, at) | 0;
}

/** A BMP's headers, checked; throws `DecodeError` when they are cut short or make no sense. */
export function readBmpHeader(b: Uint8Array): BmpHeader {
  if (b.length < 18) throw cut('inside its file header');
  const headerSize = u32(b, 14);
  if (!isBmpHeaderSize(headerSize)) throw corrupt(`a DIB header of ${headerSize} bytes`);
  if (b.length < 14 + Math.min(headerSize, 40)) throw cut('inside its DIB header');
  const pixelOffset = u32(b, 10);
  if (headerSize === 12) {
    // OS/2 1.x: unsigned 16-bit sides, always bottom-up and uncompressed.
    return {
      width: u16(b, 18),
      height: u16(b, 20),
      topDown: false,
      bits: u16(b, 24),
      compression: 0,
      headerEnd: 26,
      headerSize,
      pixelOffset,
      coloursUsed: 0,
    };
  }
  const width = i32(b, 18);
  const height = i32(b, 22);
  if (width < 0) throw corrupt(`a negative width (${width})`);
  if (height === -0x80000000) throw corrupt('a height of -2147483648');
  // A short OS/2 2.x header stops before the fields it leaves out, which are then zero.
  const field = (at: number): number => (headerSize >= at + 4 - 14 ? u32(b, at) : 0);
  return {
    width,
    height: Math.abs(height),
    topDown: height < 0,
    bits: u16(b, 28),
    compression: field(30),
    headerEnd: 14 + headerSize,
    headerSize,
    pixelOffset,
    coloursUsed: field(46),
  };
}
