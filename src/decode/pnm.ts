/**
 * Netpbm's formats: PBM (P1 text, P4 binary), PGM (P2, P5), PPM (P3, P6) and PAM (P7), with a
 * maxval up to 65535 (two bytes a sample, most significant first, past 255). The first picture
 * of a file is decoded. See docs/decode.md#pnm.
 */
import type { Raster } from '../core/raster.js';
import { corrupt, cut, Numbers, type PnmHeader, readPnmHeader } from './pnm-header.js';
import { isPnmSpace } from './sniff.js';

/**
 * Decodes the first picture of a PNM to RGBA. The declared size must already be within the
 * limits (header.ts); the data must hold the declared samples before anything is allocated.
 * PBM's 1 is black; PAM's BLACKANDWHITE is grey with maxval 1 (1 is white). Throws `DecodeError`.
 */
export function decodePnm(b: Uint8Array): { readonly raster: Raster } {
  const h = readPnmHeader(b);
  const { kind, width, height, depth, maxval } = h;
  const pixels = width * height;
  const samples = pixels * depth;
  const have = b.length - h.dataStart;
  const wide = maxval > 255;
  const needed =
    kind === 4
      ? Math.ceil(width / 8) * height
      : kind === 1
        ? pixels // one digit a pixel, spaces optional
        : kind <= 3
          ? samples * 2 - 1 // a digit and a separator a sample
          : samples * (wide ? 2 : 1);
  if (have < needed)
    throw cut(
      `inside its samples: ${width}x${height}x${depth} needs at least ${needed} bytes, it has ${Math.max(0, have)}`,
    );
  const out = new Uint8Array(pixels * 4);
  const scale = new Uint8Array(maxval + 1);
  for (let v = 0; v <= maxval; v++) scale[v] = Math.round((v * 255) / maxval);
  const put = (i: number, c: number, v: number): void => {
    if (v > maxval) throw corrupt(`a sample of ${v}, over its maxval ${maxval}`);
    out[i * 4 + c] = scale[v] as number;
  };
  if (kind === 4) {
    const rowBytes = Math.ceil(width / 8);
    for (let y = 0, o = 0; y < height; y++)
      for (let x = 0; x < width; x++, o += 4) {
        const bit = ((b[h.dataStart + y * rowBytes + (x >> 3)] as number) >> (7 - (x & 7))) & 1;
        const v = bit ? 0 : 255;
        out[o] = v;
        out[o + 1] = v;
        out[o + 2] = v;
        out[o + 3] = 255;
      }
    return { raster: { width, height, data: out } };
  }
  if (kind === 1) {
    let at = h.dataStart;
    for (let i = 0; i < pixels; i++) {
      // Digits need no space between them in P1; comments may come anywhere between them.
      for (;;) {
        if (at >= b.length) throw cut('inside its bits');
        const c = b[at] as number;
        if (c === 0x23) while (at < b.length && b[at] !== 0x0a && b[at] !== 0x0d) at++;
        else if (isPnmSpace(c)) at++;
        else break;
      }
      const c = b[at++] as number;
      if (c !== 0x30 && c !== 0x31) throw corrupt('a PBM bit that is not 0 or 1');
      const v = c === 0x31 ? 0 : 255;
      out.fill(v, i * 4, i * 4 + 3);
      out[i * 4 + 3] = 255;
    }
    return { raster: { width, height, data: out } };
  }
  if (kind >= 5) {
    readBinary(b, h, scale, out);
    return { raster: { width, height, data: out } };
  }
  const numbers = new Numbers(b, h.dataStart);
  const sample = (): number => numbers.next('sample', 65535);
  for (let i = 0; i < pixels; i++) {
    if (depth <= 2) {
      put(i, 0, sample());
      out[i * 4 + 1] = out[i * 4] as number;
      out[i * 4 + 2] = out[i * 4] as number;
    } else for (let c = 0; c < 3; c++) put(i, c, sample());
    if (depth === 2 || depth === 4) put(i, 3, sample());
    else out[i * 4 + 3] = 255;
  }
  return { raster: { width, height, data: out } };
}

/**
 * Binary samples (P5, P6, P7), one or two bytes each, through `scale`; a sample over maxval is
 * corrupt. Grey is copied to all three colours; without alpha a pixel is opaque.
 */
function readBinary(b: Uint8Array, h: PnmHeader, scale: Uint8Array, out: Uint8Array): void {
  const { depth, maxval } = h;
  const wide = maxval > 255;
  // Where each sample of a pixel goes: grey to 0 (copied after), colour to 0..2, alpha to 3.
  const slots = depth === 1 ? [0] : depth === 2 ? [0, 3] : depth === 3 ? [0, 1, 2] : [0, 1, 2, 3];
  const opaque = depth === 1 || depth === 3;
  const grey = depth <= 2;
  const pixels = h.width * h.height;
  let at = h.dataStart;
  for (let i = 0, o = 0; i < pixels; i++, o += 4) {
    for (let c = 0; c < depth; c++) {
      let v = b[at++] as number;
      if (wide) v = (v << 8) | (b[at++] as number);
      if (v > maxval) throw corrupt(`a sample of ${v}, over its maxval ${maxval}`);
      out[o + (slots[c] as number)] = scale[v] as number;
    }
    if (grey) {
      out[o + 1] = out[o] as number;
      out[o + 2] = out[o] as number;
    }
    if (opaque) out[o + 3] = 255;
  }
}
