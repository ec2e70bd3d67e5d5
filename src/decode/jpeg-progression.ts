/**
 * Which scans of a progressive JPEG a scaled decode can step over unread. At scale 1/n the inverse
 * transform reads only the lowest coefficients of each block (`coefficientsRead`); a scan whose
 * band holds none of them changes nothing that is read, unless a refinement scan that is decoded
 * needs it: an AC refinement scan (Ah > 0) sends a correction bit for every coefficient of its
 * band that is already non-zero, so it must know all of them, and every earlier scan of those
 * coefficients must be decoded too. libjpeg's progression refines Y's 1..63 after sending 1..5 and
 * 6..63 apart, so at 1/4 (coefficients 0..4) nothing can be skipped; at 1/8 (the DC term alone)
 * every AC scan of a component transformed at 1x1 is. See docs/decode.md, "Progressive scans".
 */
import { u16be } from '../core/bytes.js';
import { entropyDataEnd } from './jpeg-bits.js';
import { type FrameHeader, isStandalone, Marker, parseScanHeader, type ScanHeader } from './jpeg-segments.js';

/** More scans than this and the walk gives up (the decoder refuses such a file anyway). */
const MAX_WALKED_SCANS = 256;

/**
 * The scans (numbered from 0 in file order, from `from` on) that can be skipped when component
 * `i`'s transform reads zigzag positions 0..`lastRead[i]`; null when the file's scans cannot all
 * be seen up to EOI (cut short, damaged): then every scan is decoded, as without scaling.
 *
 * @example skippableScans(bytes, afterFrameHeader, header, [0, 0, 0]) // Set {1, 2, 3, 4, 5, 7, 8, 9}
 */
export function skippableScans(
  bytes: Uint8Array,
  from: number,
  frame: FrameHeader,
  lastRead: readonly number[],
): Set<number> | null {
  const scans = scanHeaders(bytes, from, frame);
  if (!scans) return null;
  // needed[c][k]: zigzag coefficient k of component c must be decoded correctly.
  const needed = lastRead.map((last) => Uint8Array.from({ length: 64 }, (_, k) => (k <= last ? 1 : 0)));
  const decoded = new Uint8Array(scans.length);
  for (let changed = true; changed; ) {
    changed = false;
    scans.forEach((scan, i) => {
      if (decoded[i]) return;
      const touches = scan.components.some((sc) => needed[sc.index]?.subarray(scan.start, scan.end + 1).includes(1));
      if (!touches) return;
      decoded[i] = 1;
      changed = true;
      // A refinement reads the history of its whole band: those coefficients become needed.
      if (scan.high > 0) for (const sc of scan.components) needed[sc.index]?.fill(1, scan.start, scan.end + 1);
    });
  }
  const skipped = new Set<number>();
  decoded.forEach((d, i) => {
    if (!d) skipped.add(i);
  });
  return skipped;
}

/** Every scan header from `from` to EOI, stepping over segments and entropy-coded data; null when EOI is not reached cleanly. */
function scanHeaders(bytes: Uint8Array, from: number, frame: FrameHeader): ScanHeader[] | null {
  const scans: ScanHeader[] = [];
  const end = bytes.length;
  let p = from;
  while (p < end) {
    if (bytes[p] !== 0xff) {
      p = bytes.indexOf(0xff, p);
      if (p < 0) return null;
    }
    while (bytes[p + 1] === 0xff) p++;
    if (p + 1 >= end) return null;
    const marker = bytes[p + 1] as number;
    p += 2;
    if (marker === Marker.EOI) return scans;
    if (isStandalone(marker)) continue;
    if (p + 2 > end) return null;
    const length = u16be(bytes, p);
    if (length < 2 || p + length > end) return null;
    if (marker === Marker.SOS) {
      if (scans.length >= MAX_WALKED_SCANS) return null;
      try {
        scans.push(parseScanHeader(bytes.subarray(p + 2, p + length), frame));
      } catch {
        return null; // the decoder reports it when it gets there
      }
      p = entropyDataEnd(bytes, p + length);
      continue;
    }
    p += length;
  }
  return null;
}
