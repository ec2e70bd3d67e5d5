/**
 * The chunk walk of a PNG: lengths inside the file, types made of letters, every CRC right, then
 * what the pixels need (IHDR, PLTE, tRNS, the IDAT pieces, eXIf). Nothing is inflated here, and
 * ancillary chunks termsight does not use (zTXt, iTXt, …) are only stepped over, so their size
 * costs a CRC and nothing else. The colour chunks (iCCP, cICP, sRGB, gAMA, cHRM) are kept as
 * bodies; png-colour.ts reads them. See docs/decode.md#png.
 */
import { ascii, u32be } from '../core/bytes.js';
import { crc32Range } from '../core/crc32.js';
import { DecodeError } from './error.js';

/** The fields of IHDR. */
export interface PngHeader {
  readonly width: number;
  readonly height: number;
  /** Bits per sample: 1, 2, 4, 8 or 16. */
  readonly depth: number;
  /** 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA. */
  readonly colorType: number;
  /** 0 none, 1 Adam7. */
  readonly interlace: number;
}

/** What a PNG holds, as chunk bodies (views into the file, nothing copied). */
export interface PngLayout {
  readonly header: PngHeader;
  /** PLTE: RGB triples. */
  readonly palette: Uint8Array | null;
  /** tRNS: palette alphas, or the transparent grey/RGB key as 16-bit samples. */
  readonly transparency: Uint8Array | null;
  /** The IDAT bodies in file order: together one zlib stream. */
  readonly data: readonly Uint8Array[];
  /** eXIf: a TIFF structure (orientation). */
  readonly exif: Uint8Array | null;
  /** Whether an acTL says this is an APNG (the IDAT image is then its first or default frame). */
  readonly animated: boolean;
  /** APNG: acTL's frame and play counts (0 plays: forever), or null. */
  readonly animation: { readonly frames: number; readonly plays: number } | null;
  /**
   * APNG: each fcTL's body (26 bytes, sequence number first) with its image data: the IDAT bodies
   * when the fcTL comes before IDAT (the default image is the first frame), else the fdAT bodies
   * without their sequence numbers. At most `maxFrames` (the rest are counted in `frameControls`).
   */
  readonly frames: readonly ApngFrameChunks[];
  /** APNG: how many fcTL chunks the file has (also past `maxFrames`). */
  readonly frameControls: number;
  /** The colour chunks before the image data (the first of each), as bodies; colour.ts applies them. */
  readonly colour: PngColourChunks;
}

/** The bodies of a PNG's colour chunks (null: absent), nothing inflated or applied. */
export interface PngColourChunks {
  readonly iCCP: Uint8Array | null;
  readonly cICP: Uint8Array | null;
  readonly sRGB: Uint8Array | null;
  readonly gAMA: Uint8Array | null;
  readonly cHRM: Uint8Array | null;
}

/** One APNG frame as chunks: its fcTL body and its image data's pieces. */
export interface ApngFrameChunks {
  readonly control: Uint8Array;
  readonly data: Uint8Array[];
}

/** The bit depths each colour type allows (PNG spec, table 11.1). */
const DEPTHS: Readonly<Record<number, readonly number[]>> = {
  0: [1, 2, 4, 8, 16],
  2: [8, 16],
  3: [1, 2, 4, 8],
  4: [8, 16],
  6: [8, 16],
};

/**
 * The pieces of one zlib stream (IDAT or an APNG frame's fdAT bodies), as views into the file;
 * pieces under 4 KiB are copied together into one growing buffer instead, so a file of millions
 * of tiny or empty chunks holds a few views, not a million objects (a 100 MB PNG of 12-byte IDAT
 * chunks held 1.1 GB of them). The copies cost at most the file's own size.
 */
class StreamPieces {
  readonly parts: Uint8Array[] = [];
  private joined: Uint8Array | null = null;
  private used = 0;

  push(body: Uint8Array): void {
    if (body.length === 0) return;
    if (body.length >= SMALL_PIECE) {
      this.close();
      this.parts.push(body);
      return;
    }
    if (this.joined === null || this.used + body.length > this.joined.length) {
      const grown = new Uint8Array(Math.max(256, 2 * (this.used + body.length)));
      if (this.joined) grown.set(this.joined.subarray(0, this.used));
      if (this.joined) this.parts.pop();
      this.joined = grown;
      this.parts.push(grown);
    }
    this.joined.set(body, this.used);
    this.used += body.length;
    this.parts[this.parts.length - 1] = this.joined.subarray(0, this.used);
  }

  /** A large piece comes next: the joined small ones before it stay as they are. */
  private close(): void {
    this.joined = null;
    this.used = 0;
  }
}
const SMALL_PIECE = 4096;

function isLetter(byte: number): boolean {
  return (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a);
}

function parseHeader(body: Uint8Array): PngHeader {
  const header: PngHeader = {
    width: u32be(body, 0),
    height: u32be(body, 4),
    depth: body[8] as number,
    colorType: body[9] as number,
    interlace: body[12] as number,
  };
  const depths = DEPTHS[header.colorType];
  if (!depths) throw new DecodeError('corrupt', `corrupt PNG: colour type ${header.colorType} does not exist`);
  if (!depths.includes(header.depth))
    throw new DecodeError(
      'corrupt',
      `corrupt PNG: bit depth ${header.depth} is not allowed for colour type ${header.colorType}`,
    );
  if (body[10] !== 0) throw new DecodeError('unsupported', `unsupported PNG: compression method ${body[10]}`);
  if (body[11] !== 0) throw new DecodeError('unsupported', `unsupported PNG: filter method ${body[11]}`);
  if (header.interlace > 1)
    throw new DecodeError('unsupported', `unsupported PNG: interlace method ${header.interlace}`);
  return header;
}

/**
 * Walks every chunk of a PNG (after its 8-byte signature) and returns what the pixels need.
 * Throws a one-line `DecodeError` for a file cut short, a bad CRC, a chunk out of place, or a
 * critical chunk termsight does not know.
 *
 * @example readPngChunks(bytes).header.colorType // 6
 */
export function readPngChunks(bytes: Uint8Array, maxFrames = Number.POSITIVE_INFINITY): PngLayout {
  let p = 8;
  let animation: { frames: number; plays: number } | null = null;
  let frameControls = 0;
  /** The frame whose image data the next IDAT or fdAT belongs to (null: none, or past maxFrames). */
  let open: StreamPieces | null = null;
  const framePieces: { control: Uint8Array; data: StreamPieces }[] = [];
  let sequence = 0;
  /** fcTL and fdAT are numbered from 0 in file order: one out of place is a broken animation. */
  const nextSequence = (body: Uint8Array, type: string): void => {
    if (body.length < 4 || u32be(body, 0) !== sequence)
      throw new DecodeError('corrupt', `corrupt APNG: ${type} chunk out of sequence (expected number ${sequence})`);
    sequence++;
  };
  let header: PngHeader | null = null;
  let palette: Uint8Array | null = null;
  let transparency: Uint8Array | null = null;
  let exif: Uint8Array | null = null;
  let animated = false;
  let seenData = false;
  const pieces = new StreamPieces();
  const colour: Record<string, Uint8Array | null> = { iCCP: null, cICP: null, sRGB: null, gAMA: null, cHRM: null };
  for (;;) {
    if (p + 8 > bytes.length) throw new DecodeError('truncated', 'truncated PNG: the file ends before its IEND chunk');
    const length = u32be(bytes, p);
    for (let i = p + 4; i < p + 8; i++)
      if (!isLetter(bytes[i] as number))
        throw new DecodeError('corrupt', `corrupt PNG: invalid chunk type at byte ${p + 4}`);
    const type = ascii(bytes, p + 4, p + 8);
    if (length > 0x7fffffff)
      throw new DecodeError('corrupt', `corrupt PNG: ${type} chunk length ${length} out of range`);
    if (p + 12 + length > bytes.length)
      throw new DecodeError('truncated', `truncated PNG: the file ends inside its ${type} chunk`);
    if (crc32Range(bytes, p + 4, p + 8 + length) !== u32be(bytes, p + 8 + length))
      throw new DecodeError('corrupt', `corrupt PNG: CRC mismatch in its ${type} chunk`);
    const body = bytes.subarray(p + 8, p + 8 + length);
    p += 12 + length;
    if (header === null) {
      if (type !== 'IHDR' || length !== 13)
        throw new DecodeError('corrupt', 'corrupt PNG: the first chunk is not a valid IHDR');
      header = parseHeader(body);
      continue;
    }
    if (type === 'IEND') break;
    switch (type) {
      case 'IDAT':
        seenData = true;
        pieces.push(body);
        open?.push(body);
        break;
      case 'PLTE':
        if (seenData) throw new DecodeError('corrupt', 'corrupt PNG: PLTE after the image data');
        if (length === 0 || length % 3 !== 0 || length > 768)
          throw new DecodeError('corrupt', `corrupt PNG: a PLTE chunk of ${length} bytes`);
        palette = body;
        break;
      case 'tRNS':
        if (!seenData) transparency = body; // after IDAT it is out of place: ignored, as libpng does
        break;
      case 'eXIf':
        exif = body;
        break;
      case 'iCCP':
      case 'cICP':
      case 'sRGB':
      case 'gAMA':
      case 'cHRM':
        // Only before the image data counts (the spec's order; libpng ignores them after it).
        if (!seenData && colour[type] === null) colour[type] = body;
        break;
      case 'acTL':
        animated = true;
        if (length === 8) animation = { frames: u32be(body, 0), plays: u32be(body, 4) };
        break;
      case 'fcTL':
        nextSequence(body, type);
        if (length !== 26) throw new DecodeError('corrupt', `corrupt APNG: an fcTL chunk of ${length} bytes`);
        frameControls++;
        open = framePieces.length < maxFrames ? new StreamPieces() : null;
        if (open) framePieces.push({ control: body, data: open });
        break;
      case 'fdAT':
        nextSequence(body, type);
        // Before any IDAT the frame would be the default image's: fdAT there is out of place.
        if (!seenData) throw new DecodeError('corrupt', 'corrupt APNG: fdAT before the image data');
        open?.push(body.subarray(4));
        break;
      case 'IHDR':
        throw new DecodeError('corrupt', 'corrupt PNG: a second IHDR chunk');
      default:
        // Bit 5 of the first letter clear means critical: the image cannot be drawn without it.
        if (((bytes[p - 12 - length + 4] as number) & 0x20) === 0)
          throw new DecodeError('unsupported', `unsupported PNG: unknown critical chunk ${type}`);
    }
  }
  if (header === null) throw new DecodeError('corrupt', 'corrupt PNG: no IHDR chunk');
  if (!seenData) throw new DecodeError('corrupt', 'corrupt PNG: no image data (IDAT) chunk');
  const data = pieces.parts;
  const frames = framePieces.map((f) => ({ control: f.control, data: f.data.parts }));
  if (header.colorType === 3 && palette === null)
    throw new DecodeError('corrupt', 'corrupt PNG: a palette image without a PLTE chunk');
  return {
    header,
    palette,
    transparency,
    data,
    exif,
    animated,
    animation,
    frames,
    frameControls,
    colour: colour as unknown as PngColourChunks,
  };
}
