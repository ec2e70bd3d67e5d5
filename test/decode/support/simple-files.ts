/**
 * Writers of BMP, QOI and PNM files for the tests, from the specifications (Microsoft's BITMAPINFOHEADER
 * family, qoiformat.org 1.0, netpbm's pbm/pgm/ppm/pam pages), sharing no code with the decoders:
 * every layout the decoders read (bit depths, RLE, bit masks, top-down, alpha, text and binary,
 * maxval past 255) is made here, and the expected pixels come from ImageMagick or from the
 * writer's input, never from the decoder.
 */

/** A deterministic pseudo-random source (xorshift32), so failures reproduce. */
export function random(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s;
  };
}

function le(value: number, bytes: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < bytes; i++) out.push(Math.floor(value / 256 ** i) & 255);
  return out;
}

export interface BmpSpec {
  readonly width: number;
  readonly height: number;
  readonly bits: 1 | 2 | 4 | 8 | 16 | 24 | 32;
  /** 0 RGB, 1 RLE8, 2 RLE4, 3 BITFIELDS, 6 ALPHABITFIELDS. */
  readonly compression?: 0 | 1 | 2 | 3 | 6;
  /** 12 (OS/2 1.x), 40, 56, 108 or 124. */
  readonly headerSize?: 12 | 40 | 56 | 108 | 124;
  readonly topDown?: boolean;
  /** R, G, B, A masks for 16/32 bits with compression 3 or 6 (A ignored for 3 with a 40-byte header). */
  readonly masks?: readonly [number, number, number, number];
  /** Palette entries written (≤ 2^bits); all when absent. */
  readonly paletteSize?: number;
  readonly seed?: number;
  /** 32-bit BI_RGB: the fourth byte zero everywhere. */
  readonly zeroTop?: boolean;
  /**
   * The pixels of this other spec, written in this one's layout: the same palette and indices,
   * or each masked channel scaled to this spec's masks (v * max / its max, rounded).
   */
  readonly sameAs?: BmpSpec;
}

/** A mask's lowest bit and its largest value. */
function maskParts(mask: number): { shift: number; max: number } {
  if (mask === 0) return { shift: 0, max: 0 };
  let shift = 0;
  while (Math.floor(mask / 2 ** shift) % 2 === 0) shift++;
  return { shift, max: mask / 2 ** shift };
}

/** Random words at `bits` (16 or 32) through `source`'s masks, re-packed into `masks`. */
function maskedWord(word: number, from: readonly number[], to: readonly number[]): number {
  let out = 0;
  for (let c = 0; c < 4; c++) {
    const a = maskParts(from[c] as number);
    const b = maskParts(to[c] as number);
    if (b.max === 0) continue;
    // A channel the source lacks is opaque alpha.
    const fraction = a.max === 0 ? 1 : (Math.floor(word / 2 ** a.shift) % (a.max + 1)) / a.max;
    out += Math.round(fraction * b.max) * 2 ** b.shift;
  }
  return out;
}

/**
 * A BMP of random content in the layout `spec` asks for. Palette pictures take random indices
 * (some past a short palette); RLE pictures are random runs, absolute runs, end-of-lines and
 * deltas; masked pictures random words.
 */
export function bmpFile(spec: BmpSpec): Uint8Array {
  const { width, height, bits, compression = 0, headerSize = 40, topDown = false } = spec;
  const source = spec.sameAs ?? spec;
  const next = random(source.seed ?? 1);
  const paletteSize = bits <= 8 ? (source.paletteSize ?? 2 ** source.bits) : 0;
  const entry = headerSize === 12 ? 3 : 4;
  const palette: number[] = [];
  for (let i = 0; i < paletteSize; i++) {
    palette.push(next() & 255, next() & 255, next() & 255);
    if (entry === 4) palette.push(0);
  }
  const masks = spec.masks ?? [0, 0, 0, 0];
  const maskBytes = headerSize === 40 && compression === 3 ? 12 : headerSize === 40 && compression === 6 ? 16 : 0;
  const stride = Math.floor((bits * width + 31) / 32) * 4;
  let pixels: number[];
  if (compression === 1 || compression === 2) pixels = rle(width, height, compression === 2, paletteSize, next);
  else {
    pixels = [];
    for (let y = 0; y < height; y++) {
      const row = new Array<number>(stride).fill(0);
      for (let x = 0; x < width; x++) {
        if (bits <= 8) {
          const index = next() % paletteSize;
          if (index >= 2 ** bits) throw new Error('sameAs: an index the layout cannot hold');
          const perByte = 8 / bits;
          const at = Math.floor(x / perByte);
          row[at] = (row[at] as number) | (index << (8 - bits * ((x % perByte) + 1)));
        } else {
          const bytes = bits / 8;
          let word = source.bits === 32 ? next() : next() & (2 ** source.bits - 1);
          if (spec.zeroTop) word %= 2 ** 24;
          if (spec.sameAs) word = maskedWord(word, source.masks ?? [0, 0, 0, 0], masks);
          for (let i = 0; i < bytes; i++) row[x * bytes + i] = Math.floor(word / 256 ** i) & 255;
        }
      }
      pixels.push(...row);
    }
  }
  const dib: number[] = [];
  if (headerSize === 12) dib.push(...le(12, 4), ...le(width, 2), ...le(height, 2), ...le(1, 2), ...le(bits, 2));
  else {
    dib.push(...le(headerSize, 4), ...le(width, 4), ...le(topDown ? 2 ** 32 - height : height, 4), ...le(1, 2));
    dib.push(...le(bits, 2), ...le(compression, 4), ...le(pixels.length, 4), ...le(2835, 4), ...le(2835, 4));
    dib.push(...le(bits <= 8 && paletteSize < 2 ** bits ? paletteSize : 0, 4), ...le(0, 4));
    if (headerSize > 40) {
      dib.push(...le(masks[0], 4), ...le(masks[1], 4), ...le(masks[2], 4), ...le(masks[3], 4));
      while (dib.length < headerSize) dib.push(0);
      // V4 and V5: LCS_sRGB ('sRGB') as the colour space.
      if (headerSize >= 108) dib.splice(56, 4, 0x42, 0x47, 0x52, 0x73);
    }
  }
  if (maskBytes) dib.push(...le(masks[0], 4), ...le(masks[1], 4), ...le(masks[2], 4));
  if (maskBytes === 16) dib.push(...le(masks[3], 4));
  const offset = 14 + dib.length + palette.length;
  const file = [
    0x42,
    0x4d,
    ...le(offset + pixels.length, 4),
    0,
    0,
    0,
    0,
    ...le(offset, 4),
    ...dib,
    ...palette,
    ...pixels,
  ];
  return new Uint8Array(file);
}

/** Random RLE8/RLE4 data for a width x height picture. */
function rle(width: number, height: number, four: boolean, paletteSize: number, next: () => number): number[] {
  const out: number[] = [];
  const index = (): number => next() % paletteSize;
  let y = 0;
  while (y < height) {
    let x = 0;
    while (x < width) {
      const kind = next() % 10;
      const room = width - x;
      if (kind < 5) {
        const n = 1 + (next() % Math.min(room, 40));
        out.push(n, four ? (index() << 4) | index() : index());
        x += n;
      } else if (kind < 8 && room >= 3) {
        const n = 3 + (next() % Math.min(room - 2, 30));
        const values: number[] = [];
        if (four) for (let i = 0; i < n; i += 2) values.push((index() << 4) | (i + 1 < n ? index() : 0));
        else for (let i = 0; i < n; i++) values.push(index());
        if (values.length % 2) values.push(0);
        out.push(0, n, ...values);
        x += n;
      } else if (kind === 8 && room > 2 && y + 1 < height) {
        // A delta: right and down (pixels skipped are left undefined by the file).
        const dx = next() % Math.min(room, 4);
        out.push(0, 2, dx, 1);
        x += dx;
        y++;
      } else break;
    }
    out.push(0, 0);
    y++;
  }
  out.push(0, 1);
  return out;
}

/** A QOI of `rgba` (width x height), encoded by the specification's encoder loop. */
export function qoiFile(
  rgba: Uint8Array,
  width: number,
  height: number,
  channels: 3 | 4 = 4,
  colorspace = 0,
): Uint8Array {
  const out: number[] = [0x71, 0x6f, 0x69, 0x66];
  for (const v of [width, height]) out.push((v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255);
  out.push(channels, colorspace);
  const seen = new Array<number>(64 * 4).fill(0);
  let [pr, pg, pb, pa] = [0, 0, 0, 255];
  let run = 0;
  const total = width * height;
  for (let i = 0; i < total; i++) {
    const [r, g, b, a] = [
      rgba[i * 4] as number,
      rgba[i * 4 + 1] as number,
      rgba[i * 4 + 2] as number,
      rgba[i * 4 + 3] as number,
    ];
    if (r === pr && g === pg && b === pb && a === pa) {
      run++;
      if (run === 62 || i === total - 1) {
        out.push(0xc0 | (run - 1));
        run = 0;
      }
      continue;
    }
    if (run > 0) {
      out.push(0xc0 | (run - 1));
      run = 0;
    }
    const h = (r * 3 + g * 5 + b * 7 + a * 11) % 64;
    if (seen[h * 4] === r && seen[h * 4 + 1] === g && seen[h * 4 + 2] === b && seen[h * 4 + 3] === a) out.push(h);
    else {
      seen.splice(h * 4, 4, r, g, b, a);
      if (a === pa) {
        const wrap = (d: number): number => ((d + 128) & 255) - 128;
        const dr = wrap(r - pr);
        const dg = wrap(g - pg);
        const db = wrap(b - pb);
        const drg = dr - dg;
        const dbg = db - dg;
        if (dr >= -2 && dr <= 1 && dg >= -2 && dg <= 1 && db >= -2 && db <= 1)
          out.push(0x40 | ((dr + 2) << 4) | ((dg + 2) << 2) | (db + 2));
        else if (dg >= -32 && dg <= 31 && drg >= -8 && drg <= 7 && dbg >= -8 && dbg <= 7)
          out.push(0x80 | (dg + 32), ((drg + 8) << 4) | (dbg + 8));
        else out.push(0xfe, r, g, b);
      } else out.push(0xff, r, g, b, a);
    }
    [pr, pg, pb, pa] = [r, g, b, a];
  }
  out.push(0, 0, 0, 0, 0, 0, 0, 1);
  return new Uint8Array(out);
}

export interface PnmSpec {
  readonly kind: 1 | 2 | 3 | 4 | 5 | 6 | 7;
  readonly width: number;
  readonly height: number;
  readonly maxval?: number;
  /** PAM only: samples a pixel and its TUPLTYPE. */
  readonly depth?: 1 | 2 | 3 | 4;
  readonly seed?: number;
  /** A comment in the header (P1..P6), to prove comments are skipped. */
  readonly comment?: boolean;
}

/** A PNM of random samples (text kinds with varied spacing). */
export function pnmFile(spec: PnmSpec): Uint8Array {
  const { kind, width, height } = spec;
  const next = random(spec.seed ?? 7);
  const bitmap = kind === 1 || kind === 4;
  const maxval = bitmap ? 1 : (spec.maxval ?? 255);
  const depth = kind === 7 ? (spec.depth ?? 4) : kind === 3 || kind === 6 ? 3 : 1;
  const samples: number[] = [];
  for (let i = 0; i < width * height * depth; i++) samples.push(next() % (maxval + 1));
  if (kind === 7) {
    const types = ['GRAYSCALE', 'GRAYSCALE_ALPHA', 'RGB', 'RGB_ALPHA'];
    const head = `P7\nWIDTH ${width}\nHEIGHT ${height}\nDEPTH ${depth}\nMAXVAL ${maxval}\n# a comment\nTUPLTYPE ${types[depth - 1]}\nENDHDR\n`;
    return new Uint8Array([...Buffer.from(head, 'latin1'), ...binary(samples, maxval)]);
  }
  const head = `P${kind}\n${spec.comment ? '# made by the tests\n' : ''}${width} ${height}\n${bitmap ? '' : `${maxval}\n`}`;
  let body: number[];
  if (kind === 4) {
    body = [];
    const rowBytes = Math.ceil(width / 8);
    for (let y = 0; y < height; y++) {
      const row = new Array<number>(rowBytes).fill(0);
      for (let x = 0; x < width; x++)
        if (samples[y * width + x]) row[x >> 3] = (row[x >> 3] as number) | (0x80 >> (x & 7));
      body.push(...row);
    }
  } else if (kind >= 5) body = binary(samples, maxval);
  else {
    // Text: separators vary (space, newline, tab); P1 digits sometimes run together.
    let text = '';
    samples.forEach((v, i) => {
      const sep = kind === 1 && i % 3 === 1 ? '' : ['  ', '\n', '\t', ' '][next() % 4];
      text += `${v}${sep}`;
    });
    body = [...Buffer.from(text, 'latin1')];
  }
  return new Uint8Array([...Buffer.from(head, 'latin1'), ...body]);
}

function binary(samples: readonly number[], maxval: number): number[] {
  if (maxval < 256) return [...samples];
  return samples.flatMap((v) => [v >> 8, v & 255]);
}
