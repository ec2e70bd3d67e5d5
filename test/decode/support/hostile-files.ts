/**
 * Hostile inputs, made by code at test time (nothing fetched, nothing large committed): PNG
 * decompression bombs in IDAT, iCCP, zTXt and iTXt; a JPEG header that lies about its size; GIFs
 * of many large frames. Each comes with the outcome termsight must give. See docs/decode.md#limits.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';
import omggif from 'omggif';
import { crc32 } from '../../../src/core/crc32.js';
import { insertBeforeIdat, pngChunk } from '../corpus.js';

/**
 * A zlib stream of `bytes` zero bytes, built in milliseconds without ever holding them: one raw
 * deflate segment of 1 MiB of zeros, ended by a sync flush (so it refers to nothing before it and
 * ends on a byte), repeated; then a final empty block and the Adler-32 of n zeros, which is
 * ((n mod 65521) << 16) | 1. A test checks the construction on a small size.
 */
export function zerosDeflated(bytes: number): Uint8Array {
  const MIB = 1 << 20;
  const segment = (n: number) => deflateRawSync(Buffer.alloc(n), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const whole = segment(MIB);
  const parts: Uint8Array[] = [Uint8Array.of(0x78, 0xda)];
  for (let i = 0; i < Math.floor(bytes / MIB); i++) parts.push(whole);
  if (bytes % MIB) parts.push(segment(bytes % MIB));
  parts.push(deflateRawSync(Buffer.alloc(0)));
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE((((bytes % 65521) << 16) | 1) >>> 0);
  parts.push(adler);
  return new Uint8Array(Buffer.concat(parts));
}

const SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

function u32(v: number): Uint8Array {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, v);
  return out;
}

/** IHDR of an 8-bit image of colour type `colorType`. */
function ihdr(width: number, height: number, colorType = 6): Uint8Array {
  return pngChunk('IHDR', Uint8Array.from([...u32(width), ...u32(height), 8, colorType, 0, 0, 0]));
}

/** A PNG of the given chunks between IHDR and IEND. */
export function pngOf(width: number, height: number, chunks: readonly Uint8Array[], colorType = 6): Uint8Array {
  return new Uint8Array(
    Buffer.concat([SIGNATURE, ihdr(width, height, colorType), ...chunks, pngChunk('IEND', new Uint8Array(0))]),
  );
}

/** A valid 1x1 RGBA PNG (the carrier of the ancillary bombs). */
export function tinyPng(): Uint8Array {
  return pngOf(1, 1, [pngChunk('IDAT', deflateSync(Uint8Array.of(0, 10, 20, 30, 255)))]);
}

/** 1x1 PNG whose IDAT inflates to `inflated` bytes (the image needs 5). */
export function idatBomb(inflated: number): Uint8Array {
  return pngOf(1, 1, [pngChunk('IDAT', zerosDeflated(inflated))]);
}

/** A 1x1 PNG with an ancillary chunk whose compressed text or profile inflates to `inflated` bytes. */
export function ancillaryBomb(type: 'iCCP' | 'zTXt' | 'iTXt', inflated: number): Uint8Array {
  const latin1 = (s: string) => Buffer.from(s, 'latin1');
  // iCCP: name, 0, method 0, stream; zTXt: keyword, 0, method 0, stream; iTXt: keyword, 0, flag 1, method 0, language, 0, translated keyword, 0, stream.
  const head =
    type === 'iCCP' ? latin1('bomb\0\0') : type === 'zTXt' ? latin1('Comment\0\0') : latin1('Comment\0\x01\0en\0\0');
  const body = Buffer.concat([head, zerosDeflated(inflated)]);
  return insertBeforeIdat(tinyPng(), pngChunk(type, body));
}

/**
 * About 1 KB of JPEG that declares 7000x7000 (49 megapixels, under the 50 megapixel limit): SOI,
 * a quantization table, a baseline frame header, a Huffman table, a scan header, a few hundred
 * bytes of scan data and EOI. It cannot hold that many pixels.
 */
export function lyingJpeg(): Uint8Array {
  const size = 7000;
  const dqt = [0xff, 0xdb, 0, 67, 0, ...new Array(64).fill(1)];
  const sof = [
    0xff,
    0xc0,
    0,
    17,
    8,
    size >> 8,
    size & 255,
    size >> 8,
    size & 255,
    3,
    1,
    0x11,
    0,
    2,
    0x11,
    0,
    3,
    0x11,
    0,
  ];
  // One DC and one AC table, each with a single 1-bit code for symbol 0.
  const table = (cls: number) => [cls, 1, ...new Array(15).fill(0), 0];
  const dht = [0xff, 0xc4, 0, 2 + 2 * 18, ...table(0x00), ...table(0x10)];
  const sos = [0xff, 0xda, 0, 12, 3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0];
  const scan = new Array(1024 - 2 - dqt.length - sof.length - dht.length - sos.length - 2).fill(0x00);
  return Uint8Array.from([0xff, 0xd8, ...dqt, ...sof, ...dht, ...sos, ...scan, 0xff, 0xd9]);
}

/** A 256-colour grey palette as omggif wants it. */
const GREYS = Array.from({ length: 256 }, (_, i) => (i << 16) | (i << 8) | i);

/**
 * A GIF of `frames` frames of `width` x `height`, each frame's data a clear code, one pixel and
 * the end code: it declares `frames` large pictures in a few bytes each.
 */
export function gifFramesWithoutData(width: number, height: number, frames: number): Uint8Array {
  const header = Buffer.from([
    ...Buffer.from('GIF89a'),
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0x80, // global colour table of 2 entries
    0,
    0,
    0,
    0,
    0,
    255,
    255,
    255,
  ]);
  // min code size 2: codes clear(4), 0, end(5) in 3-bit codes, LSB first: 100 000 101 -> 0x44 0x01
  const frame = Buffer.from([
    0x2c,
    0,
    0,
    0,
    0,
    width & 255,
    width >> 8,
    height & 255,
    height >> 8,
    0,
    2,
    2,
    0x44,
    0x01,
    0,
  ]);
  return new Uint8Array(Buffer.concat([header, ...new Array(frames).fill(frame), Buffer.from([0x3b])]));
}

/**
 * A GIF of `frames` copies of one honest `width` x `height` frame (a smooth grey pattern, encoded
 * by omggif once, then repeated): a large animation whose every frame really decodes.
 */
export function gifManyHonestFrames(width: number, height: number, frames: number): Uint8Array {
  const pixels = new Array<number>(width * height);
  for (let i = 0; i < pixels.length; i++) pixels[i] = ((i % width) >> 4) & 255;
  const buffer = new Uint8Array(width * height + (1 << 20));
  const writer = new omggif.GifWriter(buffer, width, height, { palette: GREYS, loop: 0 });
  writer.addFrame(0, 0, width, height, pixels, { delay: 10 });
  const end = writer.end();
  // Where the header ends: the trailer's place in a GIF of the same header and no frame.
  // (addFrame returns where the frame ends, not where it starts: taken for its start, it gave
  // a GIF of one frame and no copies.)
  const start = new omggif.GifWriter(new Uint8Array(4096), width, height, { palette: GREYS, loop: 0 }).end() - 1;
  const head = buffer.subarray(0, start);
  // The first frame (its graphic control extension, descriptor and data) sits between start and
  // the trailer written by end().
  const frame = buffer.subarray(start, end - 1);
  return new Uint8Array(Buffer.concat([head, ...new Array(frames).fill(frame), Buffer.from([0x3b])]));
}

/**
 * A progressive JPEG whose refinement scans carry no data: `size` x `size`, SOF2, 1x1 sampling,
 * first a DC scan of zero differences (one bit a block and component). `dc`: three components,
 * then `refinements` DC refinement scans with no data (about 146 KB at 5000x5000, 255 of them).
 * `ac`: one grey component, an AC first scan of coefficient 1 (two bits a block), then
 * `refinements` AC refinement scans of coefficients 1..2 with no data (about 146 KB, 254 of
 * them: 256 scans in all, the most a file may have). `acFirst`: as `ac`, but the empty scans are
 * AC first scans of coefficient 2 (zero bits would place a -2 in every block). Each empty scan
 * declares a walk over every block; the file holds nothing for it.
 */
export function jpegEmptyRefinements(
  kind: 'dc' | 'ac' | 'acFirst',
  size = 5000,
  refinements = kind === 'dc' ? 255 : 254,
): Uint8Array {
  const components = kind === 'dc' ? 3 : 1;
  const dqt = [0xff, 0xdb, 0, 67, 0, ...new Array(64).fill(1)];
  const sof = [0xff, 0xc2, 0, 8 + 3 * components, 8, size >> 8, size & 255, size >> 8, size & 255, components];
  for (let c = 1; c <= components; c++) sof.push(c, 0x11, 0);
  // DC table 0: one 1-bit code for category 0; AC table 0: one 1-bit code for run 0, size 1.
  const table = (cls: number, symbol: number) => [cls, 1, ...new Array(15).fill(0), symbol];
  const dht = [0xff, 0xc4, 0, 2 + 2 * 18, ...table(0x00, 0), ...table(0x10, 0x01)];
  const sos = (start: number, end: number, high: number, low: number) => {
    const list = Array.from({ length: kind === 'dc' ? components : 1 }, (_, i) => [i + 1, 0x00]).flat();
    return [0xff, 0xda, 0, 6 + list.length, list.length / 2, ...list, start, end, (high << 4) | low];
  };
  const blocks = (size / 8) * (size / 8);
  const head = [0xff, 0xd8, ...dqt, ...sof, ...dht];
  // DC: a '0' (category 0) a block and component; AC: '0' (run 0, size 1) then the value bit 1 (+1): '01' a block.
  const dcScan = Buffer.concat([Buffer.from(sos(0, 0, 0, 1)), Buffer.alloc(Math.ceil((blocks * components) / 8))]);
  const first =
    kind === 'dc'
      ? dcScan
      : Buffer.concat([dcScan, Buffer.from(sos(1, 1, 0, 1)), Buffer.alloc(Math.ceil(blocks / 4), 0x55)]);
  // The AC refinements cover coefficients 1..2, so zero bits would place a new -1 at 2.
  const empty = Buffer.from(kind === 'dc' ? sos(0, 0, 1, 0) : kind === 'ac' ? sos(1, 2, 1, 0) : sos(2, 2, 0, 1));
  return new Uint8Array(
    Buffer.concat([Buffer.from(head), first, ...new Array(refinements).fill(empty), Buffer.from([0xff, 0xd9])]),
  );
}

/**
 * A GIF of a 1x1 screen and `frames` frames of `side` x `side` (0 or 1), as small as a frame can
 * be: 12 bytes for a 0x0 frame (5.5 million in 66 MB), 15 for a 1x1 one whose colour changes
 * from frame to frame (a 4-colour global table), so no two frames in a row are the same.
 */
export function gifTinyFrames(frames: number, side: 0 | 1): Uint8Array {
  const header = Buffer.from([
    ...Buffer.from('GIF89a'),
    1,
    0,
    1,
    0,
    0x81,
    0,
    0,
    ...[0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255],
  ]);
  const loop = Buffer.from([0x21, 0xff, 11, ...Buffer.from('NETSCAPE2.0'), 3, 1, 0, 0, 0]);
  const variants = [0, 1, 2, 3].map((index) =>
    side === 0
      ? Buffer.from([0x2c, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0])
      : // min code size 2: clear (4), the index, end (5) in 3-bit codes, LSB first.
        Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 4 | (index << 3) | 0x40, 1, 0]),
  );
  const body = Buffer.alloc(frames * (variants[0] as Buffer).length);
  for (let i = 0, p = 0; i < frames; i++) p += (variants[i % 4] as Buffer).copy(body, p);
  return new Uint8Array(Buffer.concat([header, loop, body, Buffer.from([0x3b])]));
}

/**
 * An APNG of a 1x1 canvas and `frames` frames, each an fcTL and an fdAT of one pixel (67 bytes a
 * frame), written straight into one buffer (600,000 frames in well under a second).
 */
export function apngTinyFrames(frames: number): Uint8Array {
  const pixel = deflateSync(Uint8Array.of(0, 200, 0, 0, 255));
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames, 0);
  const fctlBody = Buffer.alloc(26);
  fctlBody.writeUInt32BE(1, 4);
  fctlBody.writeUInt32BE(1, 8);
  fctlBody.writeUInt16BE(1, 20);
  fctlBody.writeUInt16BE(50, 22);
  const head = [pngChunk('acTL', actl), pngChunk('fcTL', fctlBody), pngChunk('IDAT', pixel)];
  const frameBytes = 12 + 26 + 12 + 4 + pixel.length;
  const body = Buffer.alloc((frames - 1) * frameBytes);
  let p = 0;
  const chunk = (type: string, sequence: number, rest: Uint8Array) => {
    body.writeUInt32BE(4 + rest.length, p);
    body.write(type, p + 4, 'latin1');
    body.writeUInt32BE(sequence, p + 8);
    body.set(rest, p + 12);
    const end = p + 12 + rest.length;
    body.writeUInt32BE(crc32(body.subarray(p + 4, end)), end);
    p = end + 4;
  };
  for (let i = 1, sequence = 1; i < frames; i++) {
    chunk('fcTL', sequence++, fctlBody.subarray(4));
    chunk('fdAT', sequence++, pixel);
  }
  return pngOf(1, 1, [...head, body]);
}

/**
 * A 1x1 PNG whose image data is split over `chunks` IDAT chunks: the zlib stream in the first,
 * then empty ones (12 bytes each, 8.3 million in 100 MB). Each is a piece the decoder must join.
 */
export function pngManyIdat(chunks: number): Uint8Array {
  const empty = pngChunk('IDAT', new Uint8Array(0));
  const body = Buffer.alloc(chunks * empty.length);
  for (let i = 0; i < chunks; i++) body.set(empty, i * empty.length);
  return pngOf(1, 1, [pngChunk('IDAT', deflateSync(Uint8Array.of(0, 10, 20, 30, 255))), body]);
}
