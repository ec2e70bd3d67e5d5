/**
 * Which format a file is in, from its first bytes (never from its name: a `.png` that is a JPEG
 * is common, and a name can lie).
 */
import type { OwnFormat, PeerFormat } from './image.js';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

function startsWith(bytes: Uint8Array, prefix: readonly number[], at = 0): boolean {
  if (bytes.length < at + prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (bytes[at + i] !== prefix[i]) return false;
  return true;
}

function u32le(b: Uint8Array, at: number): number {
  return (
    ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
    (b[at + 3] as number) * 0x1000000
  );
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** Whether `c` is whitespace in a PNM header (Netpbm's: space, tab, LF, CR, VT, FF). */
export function isPnmSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d || c === 0x0b || c === 0x0c;
}

/**
 * Whether `b` starts like a PNM: `P1`..`P7` then a space or a comment. Here, not in
 * pnm-header.ts, so that sniffing loads no header reader: only a PNM does (header.ts).
 */
export function isPnm(b: Uint8Array): boolean {
  if (b.length < 3 || b[0] !== 0x50) return false;
  const kind = (b[1] as number) - 0x30;
  return kind >= 1 && kind <= 7 && (isPnmSpace(b[2] as number) || b[2] === 0x23);
}

/**
 * The DIB header sizes there are: OS/2 1.x (12), BITMAPINFOHEADER (40) and its V2..V5 (52, 56,
 * 108, 124), OS/2 2.x (16..64). Here for the same reason as `isPnm`.
 */
export function isBmpHeaderSize(size: number): boolean {
  return (
    size === 12 ||
    size === 40 ||
    size === 52 ||
    size === 56 ||
    size === 108 ||
    size === 124 ||
    (size >= 16 && size <= 64 && size % 4 === 0)
  );
}

/** The format of `bytes` by its magic number, or null when it is none termsight decodes. */
export function sniffFormat(bytes: Uint8Array): OwnFormat | null {
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  // SOI then the start of any marker: every JPEG (JFIF, Exif, raw) begins FF D8 FF.
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  if (startsWith(bytes, ascii('qoif'))) return 'qoi';
  if (isPnm(bytes)) return 'pnm';
  // `BM` then a DIB header size there is (or a file too short to say): text that starts `BM` is no BMP.
  if (startsWith(bytes, ascii('BM')) && (bytes.length < 18 || isBmpHeaderSize(u32le(bytes, 14)))) return 'bmp';
  return null;
}

/** HEIF brands (ISO/IEC 23008-12) that require HEVC: images and sequences. */
const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'hevm', 'hevs']);
/** HEIF brands of any codec (the generic image and sequence brands). */
const HEIF_BRANDS = new Set(['mif1', 'msf1']);
const AVIF_BRANDS = new Set(['avif', 'avis']);

/**
 * How a HEIF's primary picture is coded, read from its boxes: heif-boxes.ts's `readHeifPrimary`,
 * passed in by whoever has loaded it (load.ts only for a file whose brands say HEIF), so that
 * sniffing any other file loads no box reader. It throws on broken boxes.
 */
export type HeifPrimaryReader = (bytes: Uint8Array) => { readonly codec: string };

/** Whether `b`'s ftyp brands say HEIF (HEIC, AVIF or another codec's): then `sniffPeerFormat` reads its boxes. */
export function isHeif(b: Uint8Array): boolean {
  const brands = ftypBrands(b);
  return brands !== null && anyHeifBrand(brands);
}

function anyHeifBrand(brands: readonly string[]): boolean {
  return brands.some((brand) => AVIF_BRANDS.has(brand) || HEVC_BRANDS.has(brand) || HEIF_BRANDS.has(brand));
}

/**
 * An ISO BMFF file's brands (the ftyp box: major brand, then compatible brands), or null. Read
 * only inside the box and the first 64 bytes.
 */
function ftypBrands(b: Uint8Array): string[] | null {
  if (!startsWith(b, ascii('ftyp'), 4) || b.length < 12) return null;
  const size = Math.min(
    64,
    b.length,
    ((b[0] as number) << 24) | ((b[1] as number) << 16) | ((b[2] as number) << 8) | (b[3] as number),
  );
  const brands = [String.fromCharCode(...b.subarray(8, 12))];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(String.fromCharCode(...b.subarray(at, at + 4)));
  return brands;
}

const SVG_START = /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>]/i;

/**
 * The format of a file termsight decodes through an optional peer, by its signature: a HEIF by
 * the codec of its primary picture (HEVC: HEIC; AV1: AVIF; other: HEIF), read from its boxes, or
 * when they cannot be read by its ftyp brands (AVIF wins when both are listed); TIFF (`II*\0`, `MM\0*`),
 * JPEG XL (codestream `FF 0A`, or the container's signature box), SVG (text that opens with
 * `<svg`, after an XML declaration, comments or a doctype). Null for anything else. A HEIF's boxes
 * are read by `readPrimary`, which must be given for a file `isHeif` says is one.
 */
export function sniffPeerFormat(b: Uint8Array, readPrimary?: HeifPrimaryReader): PeerFormat | null {
  const brands = ftypBrands(b);
  if (brands) {
    const avif = brands.some((brand) => AVIF_BRANDS.has(brand));
    const hevc = brands.some((brand) => HEVC_BRANDS.has(brand));
    if (!anyHeifBrand(brands)) return null;
    if (!readPrimary) throw new Error('sniffPeerFormat: a HEIF needs the box reader (readHeifPrimary) passed in');
    try {
      const { codec } = readPrimary(b);
      if (codec === 'hevc') return 'heic';
      if (codec === 'av1') return 'avif';
      return avif ? 'avif' : 'heif';
    } catch {
      // Broken boxes: the brands say what it claims to be, and its decoder says what is wrong.
      return avif ? 'avif' : hevc ? 'heic' : 'heif';
    }
  }
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(b, [0xff, 0x0a]) || startsWith(b, [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a]))
    return 'jxl';
  if (SVG_START.test(new TextDecoder().decode(b.subarray(0, 1024)))) return 'svg';
  return null;
}

/** Signatures of formats termsight does not decode, so the error can say what the file is. */
const OTHER_FORMATS: readonly { readonly name: string; readonly test: (b: Uint8Array) => boolean }[] = [
  { name: 'ICO', test: (b) => startsWith(b, [0, 0, 1, 0]) },
  { name: 'PDF', test: (b) => startsWith(b, ascii('%PDF-')) },
];

/** A short name for a format termsight recognises but does not decode (`AVIF`, `TIFF`, …), else null. */
export function describeOtherFormat(bytes: Uint8Array): string | null {
  for (const format of OTHER_FORMATS) if (format.test(bytes)) return format.name;
  return null;
}
