/**
 * The one EXIF fact a viewer must honour: orientation (tag 0x0112 in IFD0 of the TIFF structure
 * that JPEG's APP1 `Exif\0\0` segment and PNG's `eXIf` chunk both carry). The parser reads only
 * inside the bytes it is given and allocates nothing from the counts a file declares, so a
 * damaged or hostile EXIF block costs nothing and yields "no orientation". See docs/decode.md, "JPEG > EXIF orientation".
 */
import { isOrientation, type Orientation } from '../core/orientation.js';

const ORIENTATION_TAG = 0x0112;
const TYPE_SHORT = 3;
const TYPE_LONG = 4;

/**
 * The orientation in a TIFF structure (from `II*\0` or `MM\0*`), or null when there is none, it is
 * out of range, or the structure is malformed.
 *
 * @example
 * exifOrientation(app1.subarray(6)); // after the `Exif\0\0` of a JPEG APP1 segment
 * exifOrientation(exifChunkBody); // a PNG eXIf chunk holds the TIFF structure itself
 */
export function exifOrientation(tiff: Uint8Array): Orientation | null {
  const n = tiff.length;
  if (n < 8) return null;
  let little: boolean;
  if (tiff[0] === 0x49 && tiff[1] === 0x49) little = true;
  else if (tiff[0] === 0x4d && tiff[1] === 0x4d) little = false;
  else return null;
  const u16 = (at: number): number =>
    little
      ? (tiff[at] as number) | ((tiff[at + 1] as number) << 8)
      : ((tiff[at] as number) << 8) | (tiff[at + 1] as number);
  const u32 = (at: number): number =>
    (little
      ? (tiff[at] as number) |
        ((tiff[at + 1] as number) << 8) |
        ((tiff[at + 2] as number) << 16) |
        ((tiff[at + 3] as number) << 24)
      : ((tiff[at] as number) << 24) |
        ((tiff[at + 1] as number) << 16) |
        ((tiff[at + 2] as number) << 8) |
        (tiff[at + 3] as number)) >>> 0;
  if (u16(2) !== 42) return null;
  const ifd = u32(4);
  if (ifd < 8 || ifd + 2 > n) return null;
  const count = u16(ifd);
  // Only the entries that really lie inside the block are read, whatever the count says.
  const entries = Math.min(count, Math.floor((n - ifd - 2) / 12));
  for (let i = 0; i < entries; i++) {
    const at = ifd + 2 + i * 12;
    if (u16(at) !== ORIENTATION_TAG) continue;
    const type = u16(at + 2);
    if (u32(at + 4) < 1) return null;
    // The value sits in the first bytes of the 4-byte value field; some writers use LONG.
    const value = type === TYPE_SHORT ? u16(at + 8) : type === TYPE_LONG ? u32(at + 8) : 0;
    return isOrientation(value) ? value : null;
  }
  return null;
}
