/**
 * Which format a file is in, from its first bytes (never from its name: a `.png` that is a JPEG
 * is common, and a name can lie).
 */
import type { ImageFormat } from './image.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** The format of `bytes` by its magic number, or null when it is none termsight decodes. */
export function sniffFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  // SOI then the start of any marker: every JPEG (JFIF, Exif, raw) begins FF D8 FF.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/** Signatures of formats termsight does not decode, so the error can say what the file is. */
const OTHER_FORMATS: readonly { readonly name: string; readonly test: (b: Uint8Array) => boolean }[] = [
  { name: 'AVIF', test: (b) => startsWith(b, ascii('ftypavif'), 4) || startsWith(b, ascii('ftypavis'), 4) },
  { name: 'HEIF', test: (b) => startsWith(b, ascii('ftyphei'), 4) || startsWith(b, ascii('ftypmif1'), 4) },
  { name: 'BMP', test: (b) => startsWith(b, ascii('BM')) && b.length >= 26 },
  { name: 'TIFF', test: (b) => startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a]) },
  {
    name: 'JPEG XL',
    test: (b) => startsWith(b, [0xff, 0x0a]) || startsWith(b, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20]),
  },
  { name: 'ICO', test: (b) => startsWith(b, [0, 0, 1, 0]) },
  { name: 'PDF', test: (b) => startsWith(b, ascii('%PDF-')) },
  {
    name: 'SVG',
    test: (b) =>
      /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*<svg[\s>]/i.test(new TextDecoder().decode(b.subarray(0, 512))),
  },
];

/** A short name for a format termsight recognises but does not decode (`AVIF`, `TIFF`, …), else null. */
export function describeOtherFormat(bytes: Uint8Array): string | null {
  for (const format of OTHER_FORMATS) if (format.test(bytes)) return format.name;
  return null;
}
