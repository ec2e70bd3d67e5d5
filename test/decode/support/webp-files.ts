/**
 * WebP files built by code for the tests: RIFF chunks, VP8X, ANIM/ANMF, and tiny VP8L streams
 * written bit by bit (a colour per pixel in the simplest codes the format has), so the container
 * rules, the bounds and the hostile cases need no fixture. Written from RFC 9649, not from the
 * decoder.
 */

/** A RIFF chunk: FourCC, little-endian size, body, a pad byte when the size is odd. */
export function chunk(fourcc: string, body: Uint8Array, size = body.length): Uint8Array {
  const out = new Uint8Array(8 + body.length + (body.length & 1));
  out.set(Buffer.from(fourcc, 'latin1'), 0);
  new DataView(out.buffer).setUint32(4, size, true);
  out.set(body, 8);
  return out;
}

/** `RIFF size WEBP` and the chunks (`riffSize` overrides the true size). */
export function riff(chunks: readonly Uint8Array[], riffSize?: number): Uint8Array {
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const head = Buffer.alloc(8);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(riffSize ?? body.length, 4);
  return new Uint8Array(Buffer.concat([head, body]));
}

function u24(v: number): number[] {
  return [v & 0xff, (v >>> 8) & 0xff, (v >>> 16) & 0xff];
}

/** The VP8X chunk: flags (0x20 ICC, 0x10 alpha, 0x08 EXIF, 0x04 XMP, 0x02 animation) and the canvas. */
export function vp8x(flags: number, width: number, height: number): Uint8Array {
  return chunk('VP8X', Uint8Array.from([flags, 0, 0, 0, ...u24(width - 1), ...u24(height - 1)]));
}

/** The ANIM chunk: background colour (BGRA) and loop count. */
export function anim(loopCount: number, background = 0): Uint8Array {
  const body = new Uint8Array(6);
  new DataView(body.buffer).setUint32(0, background, true);
  body[4] = loopCount & 0xff;
  body[5] = loopCount >>> 8;
  return chunk('ANIM', body);
}

/** An ANMF chunk: offset (even), size, duration, no-blend and dispose flags, then the frame's chunks. */
export function anmf(
  frame: {
    x: number;
    y: number;
    width: number;
    height: number;
    durationMs: number;
    blend?: boolean;
    dispose?: boolean;
  },
  ...inner: Uint8Array[]
): Uint8Array {
  const flags = (frame.blend === false ? 2 : 0) | (frame.dispose ? 1 : 0);
  const head = Uint8Array.from([
    ...u24(frame.x / 2),
    ...u24(frame.y / 2),
    ...u24(frame.width - 1),
    ...u24(frame.height - 1),
    ...u24(frame.durationMs),
    flags,
  ]);
  return chunk('ANMF', new Uint8Array(Buffer.concat([head, ...inner])));
}

/** Writes bits least significant first, as VP8L reads them. */
class BitWriter {
  private bytes: number[] = [];
  private bit = 0;
  write(value: number, n: number): this {
    for (let i = 0; i < n; i++) {
      if (this.bit === 0) this.bytes.push(0);
      if ((value >>> i) & 1) this.bytes[this.bytes.length - 1]! |= 1 << this.bit;
      this.bit = (this.bit + 1) & 7;
    }
    return this;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.bytes);
  }
}

/** A simple prefix code of one symbol (read in zero bits): 1 (simple), 0 (one symbol), then 1 bit or 8 bits. */
function oneSymbol(w: BitWriter, symbol: number): void {
  w.write(1, 1).write(0, 1);
  if (symbol < 2) w.write(0, 1).write(symbol, 1);
  else w.write(1, 1).write(symbol, 8);
}

/** A simple prefix code of two symbols, each one bit long. */
function twoSymbols(w: BitWriter, a: number, b: number): void {
  w.write(1, 1).write(1, 1).write(1, 1).write(a, 8).write(b, 8);
}

/**
 * A VP8L chunk body of `width` x `height`: no transforms, no colour cache, no entropy image, and
 * codes that make every pixel `argb`, each read in zero bits (a whole picture in a few bytes, as
 * the format allows). With `greens`, green is a two-symbol code, so every pixel costs one bit:
 * the pixels' bits follow (`pixelBits`, as bytes of alternating bits), which lets a test cut them short.
 */
export function vp8l(
  width: number,
  height: number,
  argb: number,
  options: { greens?: readonly [number, number]; pixelBytes?: number; alphaHint?: boolean; version?: number } = {},
): Uint8Array {
  const w = new BitWriter();
  w.write(0x2f, 8)
    .write(width - 1, 14)
    .write(height - 1, 14)
    .write(options.alphaHint ? 1 : 0, 1)
    .write(options.version ?? 0, 3);
  w.write(0, 1); // no transform
  w.write(0, 1); // no colour cache
  w.write(0, 1); // no entropy image
  if (options.greens) twoSymbols(w, options.greens[0], options.greens[1]);
  else oneSymbol(w, (argb >>> 8) & 0xff);
  oneSymbol(w, (argb >>> 16) & 0xff);
  oneSymbol(w, argb & 0xff);
  oneSymbol(w, argb >>> 24);
  oneSymbol(w, 0); // distance
  for (let i = 0; i < (options.pixelBytes ?? 0); i++) w.write(0b10101010, 8);
  return w.done();
}

/** A still lossless WebP in the simple format (one VP8L chunk). */
export function losslessWebp(width: number, height: number, argb: number): Uint8Array {
  return riff([chunk('VP8L', vp8l(width, height, argb))]);
}

/** An animation of `frames` 1x1 frames on a `width` x `height` canvas (1x1 by default). */
export function manyFrameWebp(frames: number, width = 1, height = 1): Uint8Array {
  const one = anmf({ x: 0, y: 0, width: 1, height: 1, durationMs: 20 }, chunk('VP8L', vp8l(1, 1, 0xff808080)));
  return riff([vp8x(0x02, width, height), anim(0), ...new Array<Uint8Array>(frames).fill(one)]);
}
