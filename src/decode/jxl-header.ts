/**
 * A JPEG XL file's size and orientation, read from the start of its codestream (ISO/IEC 18181-1,
 * `SizeHeader` and the first fields of `ImageMetadata`) without decoding a pixel, so the size is
 * checked against the limits before the decoder (an optional peer) is loaded. The codestream is
 * the file itself (`FF 0A`) or, in the container (ISO/IEC 18181-2), the content of its `jxlc`
 * box or of its `jxlp` boxes joined. Pure: bytes in, a header or a `JxlHeaderError` out.
 */

/** What the start of a JPEG XL codestream declares. */
export interface JxlHeader {
  /** Width and height as stored (before orientation). */
  readonly width: number;
  readonly height: number;
  /** EXIF-style orientation 1-8 from `ImageMetadata` (1 when all its fields are the defaults). */
  readonly orientation: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
  /** Whether the file is the container (boxes) or a bare codestream. */
  readonly container: boolean;
}

/** A file that is not a JPEG XL, or one that ends or breaks inside what is read here. */
export class JxlHeaderError extends Error {
  override readonly name = 'JxlHeaderError';
  constructor(
    readonly kind: 'truncated' | 'corrupt',
    message: string,
  ) {
    super(message);
  }
}

const CONTAINER_SIGNATURE = [0, 0, 0, 0x0c, 0x4a, 0x58, 0x4c, 0x20, 0x0d, 0x0a, 0x87, 0x0a] as const;

/** Codestream bytes read: the signature (2), a `SizeHeader` (at most 9) and 4 bits of metadata. */
const HEADER_BYTES = 16;

/**
 * The `x`/`y` ratios a `SizeHeader` may give the width by (`ratio` 1..7), in the spec's order.
 */
const RATIOS: readonly (readonly [number, number])[] = [
  [1, 1],
  [12, 10],
  [4, 3],
  [3, 2],
  [16, 9],
  [5, 4],
  [2, 1],
];

/** Whether `bytes` start like a JPEG XL file: a bare codestream or the container's signature box. */
export function isJxl(bytes: Uint8Array): boolean {
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0x0a) return true;
  return bytes.length >= 12 && CONTAINER_SIGNATURE.every((b, i) => bytes[i] === b);
}

/** The size and orientation a JPEG XL file declares; a `JxlHeaderError` when they cannot be read. */
export function readJxlHeader(bytes: Uint8Array): JxlHeader {
  const container = !(bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0x0a);
  if (container && !isJxl(bytes)) throw new JxlHeaderError('corrupt', 'no JPEG XL signature');
  const codestream = container ? codestreamStart(bytes) : bytes.subarray(0, HEADER_BYTES);
  if (codestream.length < 2) throw new JxlHeaderError('truncated', 'the file ends before its codestream');
  if (codestream[0] !== 0xff || codestream[1] !== 0x0a)
    throw new JxlHeaderError('corrupt', 'its codestream does not start with FF 0A');
  const bits = new Bits(codestream, 2);
  const { width, height } = sizeHeader(bits);
  const allDefault = bits.bool();
  let orientation = 1;
  if (!allDefault && bits.bool()) orientation = 1 + bits.read(3);
  return { width, height, orientation: orientation as JxlHeader['orientation'], container };
}

/** `SizeHeader`: small sides in multiples of 8, else `U32` sides; the width maybe by a ratio. */
function sizeHeader(bits: Bits): { width: number; height: number } {
  const small = bits.bool();
  const side = (): number => (small ? 8 * (1 + bits.read(5)) : bits.u32([9, 13, 18, 30]));
  const height = side();
  const ratio = bits.read(3);
  if (ratio === 0) return { width: side(), height };
  const [x, y] = RATIOS[ratio - 1] as readonly [number, number];
  // The spec multiplies in 64 bits then divides: a height below 2^30 times 16 stays exact in a double.
  return { width: Math.floor((height * x) / y), height };
}

/**
 * The first `HEADER_BYTES` of the codestream inside the container: the `jxlc` box's content, or
 * the `jxlp` boxes' contents (each after its 4-byte index) in file order. Boxes are walked by
 * their sizes (`1`: a 64-bit size follows the type; `0`: to the end of the file), each checked
 * to lie inside the file, at most 4096 of them.
 */
function codestreamStart(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(HEADER_BYTES);
  let have = 0;
  let at = 0;
  for (let count = 0; at < b.length && have < HEADER_BYTES; count++) {
    if (count === 4096) throw new JxlHeaderError('corrupt', 'more than 4096 boxes before its codestream');
    if (at + 8 > b.length) throw new JxlHeaderError('truncated', 'the file ends inside a box header');
    let size = u32be(b, at);
    const type = String.fromCharCode(
      b[at + 4] as number,
      b[at + 5] as number,
      b[at + 6] as number,
      b[at + 7] as number,
    );
    let head = 8;
    if (size === 1) {
      if (at + 16 > b.length) throw new JxlHeaderError('truncated', 'the file ends inside a box header');
      // Sizes past 2^53 are no file this reads; the high word makes them so.
      size = u32be(b, at + 8) * 2 ** 32 + u32be(b, at + 12);
      head = 16;
    } else if (size === 0) size = b.length - at;
    if (size < head) throw new JxlHeaderError('corrupt', `a ${printable(type)} box of ${size} bytes`);
    const end = Math.min(b.length, at + size);
    let content = at + head;
    if (type === 'jxlp') content += 4;
    if (type === 'jxlc' || type === 'jxlp') {
      const piece = b.subarray(Math.min(content, end), end).subarray(0, HEADER_BYTES - have);
      out.set(piece, have);
      have += piece.length;
      if (type === 'jxlc') break;
    }
    at += size;
  }
  if (have === 0) throw new JxlHeaderError('truncated', 'no codestream box (jxlc or jxlp) before the file ends');
  return out.subarray(0, have);
}

function u32be(b: Uint8Array, at: number): number {
  return (
    (((b[at] as number) << 24) |
      ((b[at + 1] as number) << 16) |
      ((b[at + 2] as number) << 8) |
      (b[at + 3] as number)) >>>
    0
  );
}

/** A box type for a message: its four bytes if they are printable ASCII, else `?`. */
function printable(type: string): string {
  return /^[\x20-\x7e]{4}$/.test(type) ? `'${type}'` : '?';
}

/** The codestream's bits, least significant first within each byte (ISO/IEC 18181-1, 9.2). */
class Bits {
  private bit = 0;
  constructor(
    private readonly bytes: Uint8Array,
    private at: number,
  ) {}

  /** `n` bits (n ≤ 30) as an unsigned number. */
  read(n: number): number {
    let value = 0;
    for (let i = 0; i < n; i++) {
      if (this.at >= this.bytes.length) throw new JxlHeaderError('truncated', 'the file ends inside its size header');
      value |= (((this.bytes[this.at] as number) >> this.bit) & 1) << i;
      if (++this.bit === 8) {
        this.bit = 0;
        this.at++;
      }
    }
    return value >>> 0;
  }

  bool(): boolean {
    return this.read(1) === 1;
  }

  /** `U32(1 + u(a), 1 + u(b), ...)`: a 2-bit selector, then that many bits, plus one. */
  u32(widths: readonly [number, number, number, number]): number {
    return 1 + this.read(widths[this.read(2)] as number);
  }
}
