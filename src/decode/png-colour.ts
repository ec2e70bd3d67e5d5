/**
 * A PNG's colour chunks as a `ColourInfo`: cICP's four code points, iCCP's profile (inflated only
 * when no cICP outranks it), sRGB's intent, gAMA and cHRM. Malformed chunks are left out, as
 * libpng leaves them out. colour.ts decides what they mean (docs/decode.md, "Colour").
 */
import { inflateSync } from 'node:zlib';
import { u32be } from '../core/bytes.js';
import { MAX_EMBEDDED_PROFILE } from './icc-chunks.js';
import type { ColourInfo } from './image.js';
import type { PngColourChunks } from './png-chunks.js';

/** The colour a PNG declares; `colorType` says whether its pixels are grey (0, 4) or not. */
export function pngColourInfo(chunks: PngColourChunks, colorType: number): ColourInfo {
  const model = colorType === 0 || colorType === 4 ? 'grey' : 'rgb';
  const { cICP, iCCP, sRGB, gAMA, cHRM } = chunks;
  const info: { -readonly [K in keyof ColourInfo]: ColourInfo[K] } = { model };
  if (cICP && cICP.length === 4)
    info.cicp = {
      primaries: cICP[0] as number,
      transfer: cICP[1] as number,
      matrix: cICP[2] as number,
      fullRange: cICP[3] === 1,
    };
  if (iCCP && !info.cicp) {
    const result = inflateIccp(iCCP);
    if ('profile' in result) info.icc = result.profile;
    else info.problem = `PNG iCCP: ${result.why}`;
  }
  if (sRGB && sRGB.length === 1) info.srgbIntent = sRGB[0] as number;
  if (gAMA && gAMA.length === 4) info.gamma = u32be(gAMA, 0);
  if (cHRM && cHRM.length === 32) info.chromaticities = Array.from({ length: 8 }, (_, i) => u32be(cHRM, i * 4));
  return info;
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
