/**
 * `readImageHeader` for every format termsight decodes itself: header.ts's readers with the BMP
 * and PNM ones, which a PNG or JPEG decode does not load (load.ts loads them only for a BMP or a
 * PNM). `decodeImage` (index.ts) loads every decoder anyway.
 */
import { readBmpHeader } from './bmp-header.js';
import { type HeaderReaders, type ImageHeader, readHeaderWith } from './header.js';
import type { OwnFormat } from './image.js';
import { readPnmHeader } from './pnm-header.js';

/** Every format's header reader that header.ts does not hold. */
export const ALL_HEADER_READERS: HeaderReaders = { bmp: readBmpHeader, pnm: readPnmHeader };

/**
 * Reads the declared width and height of an image of a known format, without decoding it.
 * Throws a `DecodeError` when the header is cut short or malformed, or declares a zero side.
 */
export function readImageHeader(bytes: Uint8Array, format: OwnFormat): ImageHeader {
  return readHeaderWith(bytes, format, ALL_HEADER_READERS);
}
