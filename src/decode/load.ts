/**
 * `decodeImageLoading`: `decodeImage` that loads only the decoder of the file's format, when
 * the file needs it. For a one-shot process (the CLI) that is what decides its start-up: a PNG
 * never loads the JPEG decoder's modules, nor a JPEG omggif (docs/decode.md#loading).
 */
import { bytesOf, checkedFormat, decodeFormat, limitsOf } from './decode-image.js';
import type { DecodedImage, DecodeOptions } from './image.js';
import { sniffFormat } from './sniff.js';

/**
 * As `decodeImage` (the same result, the same `DecodeError`s, thrown as rejections), loading the
 * one decoder the file's format needs.
 */
export async function decodeImageLoading(
  input: Uint8Array | ArrayBuffer | DataView,
  options: DecodeOptions = {},
): Promise<DecodedImage> {
  const bytes = bytesOf(input);
  const format = checkedFormat(bytes, limitsOf(options));
  switch (format) {
    case 'gif':
      return decodeFormat(bytes, format, options, { gif: (await import('./gif.js')).decodeGifFrames });
    case 'jpeg':
      return decodeFormat(bytes, format, options, { jpeg: (await import('./jpeg.js')).decodeJpeg });
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
  } catch {
    // A module that fails to load fails again, with its reason, in decodeImageLoading.
  }
}
