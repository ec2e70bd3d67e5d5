/**
 * The WebP container (RFC 9649 section 2): a RIFF file of chunks. The simple form is one VP8
 * (lossy) or VP8L (lossless) chunk; the extended form starts with VP8X (feature flags and the
 * canvas size), then ICCP, ANIM and one ANMF per frame or an optional ALPH and the image, then
 * EXIF and XMP. Every size is checked against the bytes there are before anything is read
 * from a chunk; odd chunks are padded to even; unknown chunks are stepped over. Nothing is
 * decoded here. See docs/decode.md, "WebP".
 */
import { ascii } from '../core/bytes.js';
import { DecodeError } from './error.js';

/** One image bitstream and its alpha: a still picture, or what one ANMF chunk holds. */
export interface WebpBitstream {
  /** The VP8 or VP8L chunk's body. */
  readonly image: Uint8Array;
  readonly lossless: boolean;
  /** The ALPH chunk's body before a VP8 image (never used with VP8L). */
  readonly alpha?: Uint8Array;
}

/** One ANMF chunk: where its image goes on the canvas and how. */
export interface WebpFrame extends WebpBitstream {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
  /** The frame's duration as stored, in milliseconds. */
  readonly durationMs: number;
  /** Alpha-blended over the canvas (else its pixels replace the canvas's). */
  readonly blend: boolean;
  /** Its rectangle is cleared to transparent before the next frame. */
  readonly disposeToBackground: boolean;
}

/** What a WebP file holds, located, not decoded. */
export interface WebpLayout {
  /** The canvas: VP8X's, else the image's own. */
  readonly width: number;
  readonly height: number;
  /** A still picture's bitstream (absent for an animation). */
  readonly still?: WebpBitstream;
  /** An animation: the frames kept (at most `maxFrames`), how many there are, the loop count (0 forever), the background colour as stored (BGRA). */
  readonly animation?: {
    readonly frames: readonly WebpFrame[];
    readonly frameCount: number;
    readonly loopCount: number;
    readonly background: number;
  };
  readonly icc?: Uint8Array;
  /** The EXIF chunk's TIFF structure (an `Exif\0\0` prefix some writers add is removed). */
  readonly exif?: Uint8Array;
}

function truncated(what: string): DecodeError {
  return new DecodeError('truncated', `truncated WebP: ${what}`);
}

function corrupt(what: string): DecodeError {
  return new DecodeError('corrupt', `corrupt WebP: ${what}`);
}

function u24le(b: Uint8Array, at: number): number {
  return (b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16);
}

function u32le(b: Uint8Array, at: number): number {
  return (
    ((b[at] as number) |
      ((b[at + 1] as number) << 8) |
      ((b[at + 2] as number) << 16) |
      ((b[at + 3] as number) << 24)) >>>
    0
  );
}

/** Whether `bytes` start as a WebP file: `RIFF`, a size, `WEBP`. */
export function isWebp(bytes: Uint8Array): boolean {
  return bytes.length >= 12 && ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 12) === 'WEBP';
}

interface Chunk {
  readonly fourcc: string;
  readonly body: Uint8Array;
}

/**
 * The chunks in `bytes[start..end)`. A chunk whose size goes past `end` is a cut file; the pad
 * byte of a last odd chunk may be missing (writers forget it, readers forgive it).
 */
function* chunks(bytes: Uint8Array, start: number, end: number): Generator<Chunk> {
  let p = start;
  while (p < end) {
    if (p + 8 > end) throw truncated('the file ends inside a chunk header');
    const fourcc = ascii(bytes, p, p + 4);
    const size = u32le(bytes, p + 4);
    if (size > end - p - 8)
      throw truncated(`its ${printable(fourcc)} chunk declares ${size} bytes; ${end - p - 8} are left`);
    yield { fourcc, body: bytes.subarray(p + 8, p + 8 + size) };
    p += 8 + size + (size & 1);
  }
}

/** A FourCC as it can be printed (a hostile file's bytes are not). */
function printable(fourcc: string): string {
  return /^[\x20-\x7e]{4}$/.test(fourcc) ? `'${fourcc}'` : 'unnamed';
}

/** The bitstream among `list` (ALPH then VP8, or VP8L; other chunks skipped), or null. */
function bitstreamOf(list: Iterable<Chunk>): WebpBitstream | null {
  let alpha: Uint8Array | undefined;
  for (const chunk of list) {
    if (chunk.fourcc === 'ALPH') alpha ??= chunk.body;
    else if (chunk.fourcc === 'VP8 ') return { image: chunk.body, lossless: false, ...(alpha ? { alpha } : {}) };
    else if (chunk.fourcc === 'VP8L') return { image: chunk.body, lossless: true };
  }
  return null;
}

/**
 * Walks a WebP file's chunks and locates its image(s). Keeps at most `maxFrames` ANMF frames
 * (the others are counted). Throws `DecodeError`: `truncated` when a size goes past the data,
 * `corrupt` when the structure is wrong (no image, a frame outside the canvas, ...).
 */
export function readWebpLayout(bytes: Uint8Array, maxFrames = Number.POSITIVE_INFINITY): WebpLayout {
  if (!isWebp(bytes)) throw corrupt('no RIFF WEBP header');
  const riffSize = u32le(bytes, 4);
  if (riffSize < 12) throw corrupt(`a RIFF size of ${riffSize}`);
  // A file shorter than its RIFF says is refused, except an animation whose kept frames are all there (below).
  const short = riffSize > bytes.length - 8;
  const cutShort = () => truncated(`the RIFF header declares ${riffSize + 8} bytes; the file has ${bytes.length}`);
  const end = short ? bytes.length : 8 + riffSize; // bytes after the RIFF's end are not part of the picture
  const list = chunks(bytes, 12, end);
  let first: IteratorResult<Chunk>;
  try {
    first = list.next();
  } catch (error) {
    throw short ? cutShort() : error;
  }
  if (first.done) throw truncated('no chunk after the RIFF header');
  const head = first.value;
  if (short && !(head.fourcc === 'VP8X' && head.body.length >= 1 && ((head.body[0] as number) & 0x02) !== 0))
    throw cutShort();
  if (head.fourcc === 'VP8 ' || head.fourcc === 'VP8L') {
    const still = { image: head.body, lossless: head.fourcc === 'VP8L' };
    const size = head.fourcc === 'VP8L' ? losslessSize(head.body) : lossySize(head.body);
    return { ...size, still };
  }
  if (head.fourcc !== 'VP8X') throw corrupt(`the first chunk is ${printable(head.fourcc)}, not VP8, VP8L or VP8X`);
  if (head.body.length < 10) throw corrupt('a VP8X chunk shorter than 10 bytes');
  const animated = ((head.body[0] as number) & 0x02) !== 0;
  const width = 1 + u24le(head.body, 4);
  const height = 1 + u24le(head.body, 7);
  let icc: Uint8Array | undefined;
  let exif: Uint8Array | undefined;
  let anim: { loopCount: number; background: number } | undefined;
  const frames: WebpFrame[] = [];
  let frameCount = 0;
  const rest: Chunk[] = [];
  // Past the frames kept, a cut file only loses frames that are counted, not decoded (and a
  // trailing EXIF): the first frame of a partly downloaded animation is still shown.
  const allKept = () => animated && frameCount > 0 && frames.length >= maxFrames;
  try {
    walk();
  } catch (error) {
    const cut = error instanceof DecodeError && error.failure === 'truncated';
    if (!(cut && allKept())) throw short ? cutShort() : error;
  }
  if (short && !allKept()) throw cutShort();
  function walk(): void {
    for (const chunk of list) {
      if (chunk.fourcc === 'ICCP') icc ??= chunk.body;
      else if (chunk.fourcc === 'EXIF') exif ??= withoutExifPrefix(chunk.body);
      else if (animated && chunk.fourcc === 'ANIM') {
        if (chunk.body.length < 6) throw corrupt('an ANIM chunk shorter than 6 bytes');
        anim ??= {
          background: u32le(chunk.body, 0),
          loopCount: (chunk.body[4] as number) | ((chunk.body[5] as number) << 8),
        };
      } else if (animated && chunk.fourcc === 'ANMF') {
        if (!anim) throw corrupt('an ANMF frame before the ANIM chunk');
        frameCount++;
        if (frames.length < maxFrames) frames.push(readFrame(bytes, chunk.body, frameCount, width, height));
      } else if (!animated) rest.push(chunk);
    }
  }
  const meta = { ...(icc ? { icc } : {}), ...(exif ? { exif } : {}) };
  if (animated) {
    if (!anim || frameCount === 0) throw corrupt('an animation without frames');
    return { width, height, animation: { frames, frameCount, ...anim }, ...meta };
  }
  const still = bitstreamOf(rest);
  if (!still) throw corrupt('no VP8 or VP8L image chunk');
  return { width, height, still, ...meta };
}

function readFrame(
  bytes: Uint8Array,
  body: Uint8Array,
  n: number,
  canvasWidth: number,
  canvasHeight: number,
): WebpFrame {
  if (body.length < 16) throw corrupt(`frame ${n}: an ANMF chunk shorter than 16 bytes`);
  const x = 2 * u24le(body, 0);
  const y = 2 * u24le(body, 3);
  const width = 1 + u24le(body, 6);
  const height = 1 + u24le(body, 9);
  if (x + width > canvasWidth || y + height > canvasHeight)
    throw corrupt(
      `frame ${n}: ${width}x${height} at ${x},${y} reaches outside the ${canvasWidth}x${canvasHeight} canvas`,
    );
  const flags = body[15] as number;
  const start = body.byteOffset - bytes.byteOffset + 16;
  const bitstream = bitstreamOf(chunks(bytes, start, start + body.length - 16));
  if (!bitstream) throw corrupt(`frame ${n}: no VP8 or VP8L image chunk`);
  return {
    ...bitstream,
    x,
    y,
    width,
    height,
    durationMs: u24le(body, 12),
    blend: (flags & 0x02) === 0,
    disposeToBackground: (flags & 0x01) !== 0,
  };
}

function withoutExifPrefix(body: Uint8Array): Uint8Array {
  return body.length >= 6 && ascii(body, 0, 6) === 'Exif\0\0' ? body.subarray(6) : body;
}

/** A VP8L image's size from the 5 bytes of its header. */
function losslessSize(body: Uint8Array): { width: number; height: number } {
  if (body.length < 5) throw truncated('the file ends inside its VP8L header');
  if (body[0] !== 0x2f) throw corrupt('the VP8L chunk does not start with its signature byte');
  const bits = u32le(body, 1);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

/** A VP8 key frame's size from its frame header (tag, start code 9d 01 2a, 14-bit sides). */
function lossySize(body: Uint8Array): { width: number; height: number } {
  if (body.length < 10) throw truncated('the file ends inside its VP8 frame header');
  if (body[3] !== 0x9d || body[4] !== 0x01 || body[5] !== 0x2a) throw corrupt('no VP8 start code');
  return {
    width: ((body[6] as number) | ((body[7] as number) << 8)) & 0x3fff,
    height: ((body[8] as number) | ((body[9] as number) << 8)) & 0x3fff,
  };
}
