/**
 * BMP (Windows and OS/2 bitmaps): 1, 2, 4, 8 bits through a palette, RLE8 and RLE4, 16 and 32
 * bits through bit masks (BI_BITFIELDS, BI_ALPHABITFIELDS, the V3..V5 headers' own masks), 24
 * bits, bottom-up and top-down, a V5 header's embedded ICC profile. See docs/decode.md#bmp.
 */
import type { Raster } from '../core/raster.js';
import { type BmpHeader, corrupt, cut, readBmpHeader, u32 } from './bmp-header.js';
import { DecodeError } from './error.js';
import type { ColourInfo } from './image.js';

/** One mask: where its lowest bit is and how many bits it holds (0 for no mask). */
interface Channel {
  readonly shift: number;
  readonly bits: number;
  readonly mask: number;
}

function channelOf(mask: number): Channel {
  if (mask === 0) return { shift: 0, bits: 0, mask: 0 };
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  let bits = 0;
  while (shift + bits < 32 && ((mask >>> (shift + bits)) & 1) === 1) bits++;
  // A mask with a gap (0b1011) is read as its lowest run of bits.
  return { shift, bits, mask: ((2 ** bits - 1) * 2 ** shift) >>> 0 };
}

/** A table from a channel's value to 8 bits: v * 255 / max, rounded (ImageMagick scales the same). */
function scaleTable(bits: number): Uint8Array | null {
  if (bits === 0) return null;
  const used = Math.min(bits, 16);
  const max = 2 ** used - 1;
  const table = new Uint8Array(max + 1);
  for (let v = 0; v <= max; v++) table[v] = Math.round((v * 255) / max);
  return table;
}

/** The masks of a 16- or 32-bit BMP: the header's, those after it, or the defaults (5-5-5, 8-8-8). */
function masksOf(b: Uint8Array, h: BmpHeader): [number, number, number, number] {
  if (h.compression === 3 || h.compression === 6) {
    // BITMAPINFOHEADER keeps them after itself; V2 and later headers inside.
    const at = h.headerSize === 40 ? h.headerEnd : 54;
    const withAlpha = h.compression === 6 || h.headerSize >= 56;
    if (b.length < at + (withAlpha ? 16 : 12)) throw cut('inside its bit masks');
    return [u32(b, at), u32(b, at + 4), u32(b, at + 8), withAlpha ? u32(b, at + 12) : 0];
  }
  if (h.bits === 16) return [0x7c00, 0x03e0, 0x001f, 0];
  return [0xff0000, 0x00ff00, 0x0000ff, 0];
}

/** The palette (RGBA, opaque), clipped to what fits before the pixels. */
function paletteOf(b: Uint8Array, h: BmpHeader): Uint8Array {
  const entrySize = h.headerSize === 12 ? 3 : 4;
  let start = h.headerEnd;
  if (h.headerSize === 40 && h.compression === 3) start += 12;
  if (h.headerSize === 40 && h.compression === 6) start += 16;
  const most = 2 ** h.bits;
  const wanted = h.coloursUsed > 0 && h.coloursUsed < most ? h.coloursUsed : most;
  const room = Math.floor((Math.min(h.pixelOffset, b.length) - start) / entrySize);
  const count = Math.max(0, Math.min(wanted, room));
  if (count === 0) throw corrupt(`a ${h.bits}-bit picture without a palette`);
  // Indices past the palette draw as black, as ImageMagick draws them.
  const palette = new Uint8Array(most * 4);
  for (let i = 0; i < most; i++) palette[i * 4 + 3] = 255;
  for (let i = 0; i < count; i++) {
    const at = start + i * entrySize;
    palette[i * 4] = b[at + 2] as number;
    palette[i * 4 + 1] = b[at + 1] as number;
    palette[i * 4 + 2] = b[at] as number;
  }
  return palette;
}

/** A V5 header's embedded ICC profile (colour space `MBED`), if it has one that fits in the file. */
function iccOf(b: Uint8Array, h: BmpHeader): Uint8Array | undefined {
  if (h.headerSize < 124 || b.length < 14 + 124) return undefined;
  if (u32(b, 70) !== 0x4d424544) return undefined;
  const start = 14 + u32(b, 14 + 112);
  const size = u32(b, 14 + 116);
  if (size === 0 || start + size > b.length) return undefined;
  return b.subarray(start, start + size);
}

/** A decoded BMP: its picture and the colour it declares. */
export interface DecodedBmp {
  readonly raster: Raster;
  readonly colour: ColourInfo;
}

/**
 * Decodes a BMP to RGBA. The declared size must already be within the limits (header.ts);
 * uncompressed pixels must be in the file before anything is allocated. Throws `DecodeError`.
 */
export function decodeBmp(b: Uint8Array): DecodedBmp {
  const h = readBmpHeader(b);
  const { width, height, bits, compression } = h;
  // OS/2 2.x headers give 3 and 4 other meanings: Huffman 1D and RLE24.
  const os2 =
    h.headerSize !== 40 && h.headerSize !== 52 && h.headerSize !== 56 && h.headerSize >= 16 && h.headerSize <= 64;
  if (os2 && (compression === 3 || compression === 4))
    throw new DecodeError(
      'unsupported',
      `OS/2 BMP with ${compression === 3 ? 'Huffman' : 'RLE24'} compression is not supported`,
    );
  if (compression === 4 || compression === 5)
    throw new DecodeError('unsupported', `BMP with ${compression === 4 ? 'JPEG' : 'PNG'} compression is not supported`);
  const fits =
    (compression === 0 && [1, 2, 4, 8, 16, 24, 32].includes(bits)) ||
    (compression === 1 && bits === 8) ||
    (compression === 2 && bits === 4) ||
    ((compression === 3 || compression === 6) && (bits === 16 || bits === 32));
  if (!fits) {
    if (compression > 6) throw corrupt(`compression ${compression}`);
    throw corrupt(`${bits} bits a pixel with compression ${compression}`);
  }
  if (h.pixelOffset < h.headerEnd) throw corrupt(`pixels at byte ${h.pixelOffset}, inside the headers`);
  if (h.pixelOffset >= b.length) throw cut('before its pixels');
  const palette = bits <= 8 ? paletteOf(b, h) : null;
  const stride = Math.floor((bits * width + 31) / 32) * 4;
  if (compression === 0 || compression === 3 || compression === 6) {
    // Every row must be there before a byte is allocated (the last row may skip its padding).
    const needed = stride * (height - 1) + Math.ceil((bits * width) / 8);
    if (b.length - h.pixelOffset < needed)
      throw cut(
        `inside its pixels: ${width}x${height} at ${bits} bits needs ${needed} bytes, it has ${b.length - h.pixelOffset}`,
      );
  }
  // RLE data is walked once before the picture is allocated: cut or broken data fails first.
  if (compression === 1 || compression === 2) readRle(b.subarray(h.pixelOffset), h, null, null, () => 0);
  const data = new Uint8Array(width * height * 4);
  const rowAt = (y: number): number => (h.topDown ? y : height - 1 - y) * width * 4;
  if (compression === 1 || compression === 2) {
    readRle(b.subarray(h.pixelOffset), h, palette, data, rowAt);
  } else if (palette) {
    // Whole pixels as 32-bit words: one store a pixel (the byte order is the same both sides).
    const colours = new Uint32Array(palette.buffer, palette.byteOffset, palette.length / 4);
    const out = new Uint32Array(data.buffer, data.byteOffset, width * height);
    const perByte = 8 / bits;
    const mask = (1 << bits) - 1;
    for (let y = 0; y < height; y++) {
      const src = h.pixelOffset + y * stride;
      const o = rowAt(y) / 4;
      if (bits === 8) for (let x = 0; x < width; x++) out[o + x] = colours[b[src + x] as number] as number;
      else
        for (let x = 0; x < width; x++) {
          const byte = b[src + ((x / perByte) | 0)] as number;
          out[o + x] = colours[(byte >> (8 - bits * ((x % perByte) + 1))) & mask] as number;
        }
    }
  } else if (bits === 24) {
    for (let y = 0; y < height; y++) {
      let s = h.pixelOffset + y * stride;
      let o = rowAt(y);
      for (let x = 0; x < width; x++, s += 3, o += 4) {
        data[o] = b[s + 2] as number;
        data[o + 1] = b[s + 1] as number;
        data[o + 2] = b[s] as number;
        data[o + 3] = 255;
      }
    }
  } else {
    readMasked(b, h, stride, data, rowAt);
  }
  const icc = iccOf(b, h);
  return { raster: { width, height, data }, colour: icc ? { icc } : {} };
}

/**
 * 16- and 32-bit pixels through their masks; a zero alpha mask is opaque. A 32-bit BI_RGB
 * picture's fourth byte is its alpha unless it is zero everywhere (then the picture is opaque):
 * many programs write alpha there without saying so, and as many leave it zero.
 */
function readMasked(b: Uint8Array, h: BmpHeader, stride: number, data: Uint8Array, rowAt: (y: number) => number): void {
  const masks = masksOf(b, h);
  if (h.bits === 32 && h.compression === 0 && !allZeroTopBytes(b, h, stride)) masks[3] = 0xff000000;
  const channels = masks.map(channelOf);
  // A missing channel reads through a one-entry table: 0, or 255 for alpha.
  const tables = channels.map((c, i) => scaleTable(c.bits) ?? Uint8Array.of(i === 3 ? 255 : 0)) as [
    Uint8Array,
    Uint8Array,
    Uint8Array,
    Uint8Array,
  ];
  const [tr, tg, tb, ta] = tables;
  // Over 16 bits, a channel's top 16 are kept (a table has 2^16 entries at most).
  const [mr, mg, mb, ma] = channels.map((c) => c.mask | 0) as [number, number, number, number];
  const [sr, sg, sb, sa] = channels.map((c) => c.shift + Math.max(0, c.bits - 16)) as [number, number, number, number];
  const wide = h.bits === 32;
  for (let y = 0; y < h.height; y++) {
    let s = h.pixelOffset + y * stride;
    let o = rowAt(y);
    for (let x = 0; x < h.width; x++, o += 4) {
      let pixel = (b[s] as number) | ((b[s + 1] as number) << 8);
      if (wide) {
        pixel |= ((b[s + 2] as number) << 16) | ((b[s + 3] as number) << 24);
        s += 4;
      } else s += 2;
      data[o] = tr[(pixel & mr) >>> sr] as number;
      data[o + 1] = tg[(pixel & mg) >>> sg] as number;
      data[o + 2] = tb[(pixel & mb) >>> sb] as number;
      data[o + 3] = ta[(pixel & ma) >>> sa] as number;
    }
  }
}

/** Whether every 32-bit pixel's fourth byte is zero. */
function allZeroTopBytes(b: Uint8Array, h: BmpHeader, stride: number): boolean {
  for (let y = 0; y < h.height; y++)
    for (let x = 0, s = h.pixelOffset + y * stride + 3; x < h.width; x++, s += 4) if (b[s] !== 0) return false;
  return true;
}

/**
 * RLE8 and RLE4: runs, absolute runs (padded to 16 bits), end of line, end of picture and
 * deltas; pixels the data never reaches take the palette's first colour, as ImageMagick and
 * Windows' own decoder give them (browsers leave them transparent; see docs/decode.md#bmp). Every
 * step reads at least two bytes and writes inside the picture only, so hostile data costs the
 * time of its own length. Without `data` it only checks the data.
 */
function readRle(
  src: Uint8Array,
  h: BmpHeader,
  palette: Uint8Array | null,
  data: Uint8Array | null,
  rowAt: (y: number) => number,
): void {
  const four = h.compression === 2;
  const { width, height } = h;
  let x = 0;
  let y = 0;
  let p = 0;
  const colours = palette && new Uint32Array(palette.buffer, palette.byteOffset, palette.length / 4);
  const out = data && new Uint32Array(data.buffer, data.byteOffset, data.length / 4);
  if (out && colours) out.fill(colours[0] as number);
  let row = out ? rowAt(0) / 4 : 0;
  const put = (index: number): void => {
    if (out && x < width && y < height) out[row + x] = (colours as Uint32Array)[index] as number;
    x++;
  };
  while (y < height) {
    if (p + 2 > src.length) throw cut('inside its RLE data');
    const count = src[p] as number;
    const value = src[p + 1] as number;
    p += 2;
    if (count > 0) {
      if (four) for (let i = 0; i < count; i++) put(i % 2 === 0 ? value >> 4 : value & 15);
      else for (let i = 0; i < count; i++) put(value);
    } else if (value === 0) {
      x = 0;
      y++;
      if (out && y < height) row = rowAt(y) / 4;
    } else if (value === 1) {
      return;
    } else if (value === 2) {
      if (p + 2 > src.length) throw cut('inside an RLE delta');
      x += src[p] as number;
      y += src[p + 1] as number;
      if (out && y < height) row = rowAt(y) / 4;
      p += 2;
    } else {
      const bytes = four ? Math.ceil(value / 2) : value;
      if (p + bytes > src.length) throw cut('inside an RLE run');
      if (four)
        for (let i = 0; i < value; i++)
          put(i % 2 === 0 ? (src[p + (i >> 1)] as number) >> 4 : (src[p + (i >> 1)] as number) & 15);
      else for (let i = 0; i < value; i++) put(src[p + i] as number);
      p += bytes + (bytes & 1);
    }
  }
}
