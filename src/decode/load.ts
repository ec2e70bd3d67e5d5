/**
 * `decodeImageLoading`: `decodeImage` that loads only the decoder of the file's format, when
 * the file needs it. For a one-shot process (the CLI) that is what decides its start-up: a PNG
 * never loads the JPEG decoder's modules, nor a JPEG the WebP decoder's (docs/decode.md#loading).
 */
import { bytesOf, checkedFormat, decodeFormat, limitsOf } from './decode-image.js';
import type { DecodedImage, DecodeOptions } from './image.js';
import { isHeif, sniffFormat, sniffPeerFormat } from './sniff.js';

/**
 * As `decodeImage` (the same result, the same `DecodeError`s, thrown as rejections), loading the
 * one decoder the file's format needs. AVIF, HEIF, TIFF, JPEG XL and SVG are decoded here too,
 * through the optional peer dependency sharp when it is installed (first frame, sRGB); without it
 * they are refused with one line naming the package (`npm install sharp`). HEIC (HEVC-coded HEIF,
 * what iPhones write) through sharp when its libvips decodes HEVC, else the optional peer
 * libheif-js; without either, one line (`npm install libheif-js`). JPEG XL through sharp when its
 * libvips reads it, else the optional peer wasm-vips; without either, one line (`npm install wasm-vips`).
 */
export async function decodeImageLoading(
  input: Uint8Array | ArrayBuffer | DataView,
  options: DecodeOptions = {},
): Promise<DecodedImage> {
  const bytes = bytesOf(input);
  // AVIF, HEIF, TIFF, JPEG XL and SVG through the optional peer sharp, HEIC through sharp or
  // libheif-js: loaded only now.
  const sniffed = bytes.length > 0 ? sniffFormat(bytes) : null;
  const peer = bytes.length > 0 && sniffed === null ? await sniffPeer(bytes) : null;
  if (peer === 'heic') return (await import('./heic.js')).decodeHeic(bytes, options, limitsOf(options));
  if (peer === 'jxl') return (await import('./jxl.js')).decodeJxl(bytes, options, limitsOf(options));
  if (peer) return (await import('./sharp.js')).decodeWithSharp(bytes, peer, options, limitsOf(options));
  // BMP's and PNM's header readers only for a BMP or a PNM (the other formats' are header.ts's own).
  const readers =
    sniffed === 'bmp'
      ? { bmp: (await import('./bmp-header.js')).readBmpHeader }
      : sniffed === 'pnm'
        ? { pnm: (await import('./pnm-header.js')).readPnmHeader }
        : {};
  const format = checkedFormat(bytes, limitsOf(options), readers);
  switch (format) {
    case 'gif':
      return decodeFormat(bytes, format, options, { gif: (await import('./gif.js')).decodeGifFrames });
    case 'jpeg':
      return decodeFormat(bytes, format, options, { jpeg: (await import('./jpeg.js')).decodeJpeg });
    case 'webp':
      return decodeFormat(bytes, format, options, { webp: (await import('./webp.js')).decodeWebp });
    case 'bmp':
      return decodeFormat(bytes, format, options, { bmp: (await import('./bmp.js')).decodeBmp });
    case 'qoi':
      return decodeFormat(bytes, format, options, { qoi: (await import('./qoi.js')).decodeQoi });
    case 'pnm':
      return decodeFormat(bytes, format, options, { pnm: (await import('./pnm.js')).decodePnm });
    case 'png': {
      const { decodePng } = await import('./png.js');
      // An APNG's other frames only when they are asked for (show without --animate never does).
      const apng = options.frames === 'first' ? undefined : (await import('./apng.js')).decodeApngFrames;
      return decodeFormat(bytes, format, options, { png: decodePng, ...(apng ? { apng } : {}) });
    }
  }
}

/**
 * Loads the decoder that `bytes` will need (none for a file no decoder takes), so that a later
 * `decodeImageLoading` of them starts decoding at once. The CLI calls it while the probe waits
 * for the terminal. Never rejects: whatever is wrong with the file is reported by the decode.
 */
export async function preloadDecoder(bytes: Uint8Array): Promise<void> {
  try {
    const format = sniffFormat(bytes);
    if (format === 'gif') await import('./gif.js');
    else if (format === 'jpeg') await import('./jpeg.js');
    else if (format === 'png') await import('./png.js');
    else if (format === 'webp') await import('./webp.js');
    else if (format === 'bmp') await import('./bmp.js');
    else if (format === 'qoi') await import('./qoi.js');
    else if (format === 'pnm') await import('./pnm.js');
    else {
      const peer = await sniffPeer(bytes);
      if (peer === 'heic') await (await import('./heic.js')).preloadHeic();
      else if (peer === 'jxl') await (await import('./jxl.js')).preloadJxl();
      else if (peer) await (await import('./sharp.js')).preloadSharp();
    }
  } catch {
    // A module that fails to load fails again, with its reason, in decodeImageLoading.
  }
}

/** `sniffPeerFormat` with HEIF's box reader (heif-boxes.ts), loaded only for a file whose brands say HEIF. */
async function sniffPeer(bytes: Uint8Array) {
  return sniffPeerFormat(bytes, isHeif(bytes) ? (await import('./heif-boxes.js')).readHeifPrimary : undefined);
}
