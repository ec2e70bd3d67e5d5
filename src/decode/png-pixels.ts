/**
 * PNG samples to straight RGBA8, a row at a time: every colour type and bit depth, the palette,
 * and tRNS (palette alphas or a grey/RGB colour key, compared on the raw samples as the spec
 * says). Interlaced passes write every `step`-th pixel, so one expander serves both layouts.
 */
import { u16be } from '../core/bytes.js';
import type { PngHeader } from './png-chunks.js';

/**
 * Writes `count` pixels of one unfiltered row (`src` from `at`) as RGBA into `out` from `to`,
 * `step` bytes apart (4 for a plain row; 4 x the pass's column spacing for Adam7).
 */
export type RowExpander = (
  src: Uint8Array,
  at: number,
  count: number,
  out: Uint8Array,
  to: number,
  step: number,
) => void;

/** Whether this machine stores a Uint32Array's words little-endian (R, G, B, A in memory = A<<24|B<<16|G<<8|R). */
const LITTLE_ENDIAN = new Uint8Array(Uint32Array.of(1).buffer)[0] === 1;

/** An opaque pixel's alpha as a little-endian word's top byte. */
const OPAQUE = 0xff000000 | 0;

/**
 * `out` as 32-bit words from `to`, when one word is one RGBA pixel here (little-endian, `to`
 * aligned), else null. A view a row: a few hundred small objects for a picture.
 */
function wordsOf(out: Uint8Array, to: number, count: number): Uint32Array | null {
  if (!LITTLE_ENDIAN || (out.byteOffset + to) % 4 !== 0) return null;
  return new Uint32Array(out.buffer, out.byteOffset + to, count);
}

/** 16-bit to 8-bit, rounded: v * 255 / 65535. */
function to8(v: number): number {
  return ((v * 255 + 32767) / 65535) | 0;
}

/** 256 RGBA entries; indices past the palette are opaque black (as browsers draw them). */
export function paletteTable(palette: Uint8Array | null, transparency: Uint8Array | null): Uint8Array {
  const table = new Uint8Array(1024);
  for (let i = 0; i < 256; i++) table[i * 4 + 3] = 255;
  if (palette) for (let i = 0, n = palette.length / 3; i < n; i++) table.set(palette.subarray(i * 3, i * 3 + 3), i * 4);
  if (transparency)
    for (let i = 0, n = Math.min(256, transparency.length); i < n; i++) table[i * 4 + 3] = transparency[i] as number;
  return table;
}

/**
 * The row expander for a PNG's header, palette and tRNS.
 *
 * @example makeRowExpander(header, layout.palette, layout.transparency)(row, 1, width, rgba, 0, 4)
 */
export function makeRowExpander(
  header: PngHeader,
  palette: Uint8Array | null,
  transparency: Uint8Array | null,
): RowExpander {
  const { colorType, depth } = header;
  if (colorType === 3) {
    const table = paletteTable(palette, transparency);
    if (depth === 8)
      return (src, at, count, out, to, step) => {
        for (let x = 0; x < count; x++, to += step) {
          const e = (src[at + x] as number) << 2;
          out[to] = table[e] as number;
          out[to + 1] = table[e + 1] as number;
          out[to + 2] = table[e + 2] as number;
          out[to + 3] = table[e + 3] as number;
        }
      };
    return packed(depth, (v, out, to) => {
      const e = v << 2;
      out[to] = table[e] as number;
      out[to + 1] = table[e + 1] as number;
      out[to + 2] = table[e + 2] as number;
      out[to + 3] = table[e + 3] as number;
    });
  }
  if (colorType === 0) {
    const key = transparency && transparency.length >= 2 ? u16be(transparency, 0) : -1;
    if (depth === 16)
      return (src, at, count, out, to, step) => {
        for (let x = 0, i = at; x < count; x++, i += 2, to += step) {
          const raw = u16be(src, i);
          const v = to8(raw);
          out[to] = v;
          out[to + 1] = v;
          out[to + 2] = v;
          out[to + 3] = raw === key ? 0 : 255;
        }
      };
    if (depth === 8)
      return (src, at, count, out, to, step) => {
        for (let x = 0; x < count; x++, to += step) {
          const v = src[at + x] as number;
          out[to] = v;
          out[to + 1] = v;
          out[to + 2] = v;
          out[to + 3] = v === key ? 0 : 255;
        }
      };
    const max = (1 << depth) - 1;
    return packed(depth, (v, out, to) => {
      const g = Math.round((v * 255) / max);
      out[to] = g;
      out[to + 1] = g;
      out[to + 2] = g;
      out[to + 3] = v === key ? 0 : 255;
    });
  }
  if (colorType === 2) {
    const key =
      transparency && transparency.length >= 6
        ? [u16be(transparency, 0), u16be(transparency, 2), u16be(transparency, 4)]
        : null;
    const [kr, kg, kb] = key ?? [-1, -1, -1];
    if (depth === 16)
      return (src, at, count, out, to, step) => {
        for (let x = 0, i = at; x < count; x++, i += 6, to += step) {
          const r = u16be(src, i);
          const g = u16be(src, i + 2);
          const b = u16be(src, i + 4);
          out[to] = to8(r);
          out[to + 1] = to8(g);
          out[to + 2] = to8(b);
          out[to + 3] = r === kr && g === kg && b === kb ? 0 : 255;
        }
      };
    if (key)
      return (src, at, count, out, to, step) => {
        for (let x = 0, i = at; x < count; x++, i += 3, to += step) {
          const r = src[i] as number;
          const g = src[i + 1] as number;
          const b = src[i + 2] as number;
          out[to] = r;
          out[to + 1] = g;
          out[to + 2] = b;
          out[to + 3] = r === kr && g === kg && b === kb ? 0 : 255;
        }
      };
    return (src, at, count, out, to, step) => {
      const words = step === 4 ? wordsOf(out, to, count) : null;
      if (words) {
        // One 32-bit store a pixel instead of four byte stores.
        for (let x = 0, i = at; x < count; x++, i += 3)
          words[x] = OPAQUE | ((src[i + 2] as number) << 16) | ((src[i + 1] as number) << 8) | (src[i] as number);
        return;
      }
      for (let x = 0, i = at; x < count; x++, i += 3, to += step) {
        out[to] = src[i] as number;
        out[to + 1] = src[i + 1] as number;
        out[to + 2] = src[i + 2] as number;
        out[to + 3] = 255;
      }
    };
  }
  if (colorType === 4) {
    if (depth === 16)
      return (src, at, count, out, to, step) => {
        for (let x = 0, i = at; x < count; x++, i += 4, to += step) {
          const v = to8(u16be(src, i));
          out[to] = v;
          out[to + 1] = v;
          out[to + 2] = v;
          out[to + 3] = to8(u16be(src, i + 2));
        }
      };
    return (src, at, count, out, to, step) => {
      for (let x = 0, i = at; x < count; x++, i += 2, to += step) {
        const v = src[i] as number;
        out[to] = v;
        out[to + 1] = v;
        out[to + 2] = v;
        out[to + 3] = src[i + 1] as number;
      }
    };
  }
  // Colour type 6, RGBA.
  if (depth === 16)
    return (src, at, count, out, to, step) => {
      for (let x = 0, i = at; x < count; x++, i += 8, to += step) {
        out[to] = to8(u16be(src, i));
        out[to + 1] = to8(u16be(src, i + 2));
        out[to + 2] = to8(u16be(src, i + 4));
        out[to + 3] = to8(u16be(src, i + 6));
      }
    };
  return (src, at, count, out, to, step) => {
    if (step === 4) {
      out.set(src.subarray(at, at + count * 4), to);
      return;
    }
    for (let x = 0, i = at; x < count; x++, i += 4, to += step) {
      out[to] = src[i] as number;
      out[to + 1] = src[i + 1] as number;
      out[to + 2] = src[i + 2] as number;
      out[to + 3] = src[i + 3] as number;
    }
  };
}

/** An expander for samples of 1, 2 or 4 bits, most significant first, one sample a pixel. */
function packed(depth: number, write: (value: number, out: Uint8Array, to: number) => void): RowExpander {
  const mask = (1 << depth) - 1;
  return (src, at, count, out, to, step) => {
    for (let x = 0, bit = 0; x < count; x++, bit += depth, to += step) {
      const byte = src[at + (bit >> 3)] as number;
      write((byte >> (8 - depth - (bit & 7))) & mask, out, to);
    }
  };
}
