/**
 * The four inverse transforms of WebP lossless (RFC 9649 section 4), on ARGB pixels held as
 * 32-bit words (`a << 24 | r << 16 | g << 8 | b`). Each undoes what the encoder did before
 * entropy coding; they are applied in the reverse of the order the bitstream lists them.
 */

/** Adds two ARGB pixels channel by channel, each modulo 256. */
export function addPixels(a: number, b: number): number {
  return (
    ((((a & 0xff00ff00) + (b & 0xff00ff00)) & 0xff00ff00) | (((a & 0x00ff00ff) + (b & 0x00ff00ff)) & 0x00ff00ff)) >>> 0
  );
}

/** The channel-wise floor of the average of two ARGB pixels. */
function average2(a: number, b: number): number {
  return ((((a ^ b) & 0xfefefefe) >>> 1) + (a & b)) >>> 0;
}

function clip255(v: number): number {
  return v < 0 ? 0 : Math.min(v, 255);
}

/** Mode 11: whichever of left and top is nearer (channel sum of distances) to left + top - top-left. */
function select(left: number, top: number, topLeft: number): number {
  // |estimate - left| summed over the channels is the distance of top from top-left, and the other way round.
  const toLeft =
    Math.abs((top >>> 24) - (topLeft >>> 24)) +
    Math.abs(((top >>> 16) & 0xff) - ((topLeft >>> 16) & 0xff)) +
    Math.abs(((top >>> 8) & 0xff) - ((topLeft >>> 8) & 0xff)) +
    Math.abs((top & 0xff) - (topLeft & 0xff));
  const toTop =
    Math.abs((left >>> 24) - (topLeft >>> 24)) +
    Math.abs(((left >>> 16) & 0xff) - ((topLeft >>> 16) & 0xff)) +
    Math.abs(((left >>> 8) & 0xff) - ((topLeft >>> 8) & 0xff)) +
    Math.abs((left & 0xff) - (topLeft & 0xff));
  return toLeft < toTop ? left : top;
}

/** Mode 12: left + top - top-left, each channel clamped. */
function clampAddSubtractFull(a: number, b: number, c: number): number {
  return (
    ((clip255((a >>> 24) + (b >>> 24) - (c >>> 24)) << 24) |
      (clip255(((a >>> 16) & 0xff) + ((b >>> 16) & 0xff) - ((c >>> 16) & 0xff)) << 16) |
      (clip255(((a >>> 8) & 0xff) + ((b >>> 8) & 0xff) - ((c >>> 8) & 0xff)) << 8) |
      clip255((a & 0xff) + (b & 0xff) - (c & 0xff))) >>>
    0
  );
}

/** Mode 13: a + (a - b) / 2 per channel (division truncating toward zero, as in C), clamped. */
function clampAddSubtractHalf(a: number, b: number): number {
  let out = 0;
  for (let shift = 0; shift < 32; shift += 8) {
    const x = (a >>> shift) & 0xff;
    const y = (b >>> shift) & 0xff;
    out |= clip255(x + (((x - y) / 2) | 0)) << shift;
  }
  return out >>> 0;
}

/**
 * The prediction of predictor mode `mode` (0..13; 14 and 15, which the format leaves undefined,
 * predict black as libwebp does) from the left, top, top-right and top-left pixels.
 */
export function predict(mode: number, left: number, top: number, topRight: number, topLeft: number): number {
  switch (mode) {
    case 1:
      return left;
    case 2:
      return top;
    case 3:
      return topRight;
    case 4:
      return topLeft;
    case 5:
      return average2(average2(left, topRight), top);
    case 6:
      return average2(left, topLeft);
    case 7:
      return average2(left, top);
    case 8:
      return average2(topLeft, top);
    case 9:
      return average2(top, topRight);
    case 10:
      return average2(average2(left, topLeft), average2(top, topRight));
    case 11:
      return select(left, top, topLeft);
    case 12:
      return clampAddSubtractFull(left, top, topLeft);
    case 13:
      return clampAddSubtractHalf(average2(left, top), topLeft);
    default:
      return 0xff000000;
  }
}

/** `ceil(size / 2^bits)`: the size of an image of one entry per 2^bits block. */
export function subSampleSize(size: number, bits: number): number {
  return (size + (1 << bits) - 1) >>> bits;
}

/**
 * Undoes the predictor transform in place: each pixel adds the prediction its block's mode
 * (green channel of `modes`, one entry per 2^bits square) makes from pixels already undone.
 * The top row predicts from the left, the left column from the top, the first pixel black; the
 * top-right of the last column is the first pixel of its own row (the next one in memory).
 */
export function inversePredictor(
  px: Uint32Array,
  width: number,
  height: number,
  bits: number,
  modes: Uint32Array,
): void {
  px[0] = addPixels(px[0] as number, 0xff000000);
  for (let x = 1; x < width; x++) px[x] = addPixels(px[x] as number, px[x - 1] as number);
  const tilesWide = subSampleSize(width, bits);
  const tile = 1 << bits;
  for (let y = 1; y < height; y++) {
    const row = y * width;
    px[row] = addPixels(px[row] as number, px[row - width] as number);
    const modeRow = (y >>> bits) * tilesWide;
    for (let x0 = 0; x0 < width; x0 += tile) {
      const mode = ((modes[modeRow + (x0 >>> bits)] as number) >>> 8) & 0xf;
      const from = row + (x0 === 0 ? 1 : x0);
      const to = row + Math.min(x0 + tile, width);
      predictSpan(px, from, to, width, mode);
    }
  }
}

/**
 * Adds mode `mode`'s prediction to `px[from..to)` (one block's span of a row, not the first row
 * or column): the mode is chosen once, outside the loop, and only the neighbours it reads are read.
 */
function predictSpan(px: Uint32Array, from: number, to: number, width: number, mode: number): void {
  switch (mode) {
    case 1:
      for (let i = from; i < to; i++) px[i] = addPixels(px[i] as number, px[i - 1] as number);
      return;
    case 2:
      for (let i = from; i < to; i++) px[i] = addPixels(px[i] as number, px[i - width] as number);
      return;
    case 3:
      for (let i = from; i < to; i++) px[i] = addPixels(px[i] as number, px[i - width + 1] as number);
      return;
    case 4:
      for (let i = from; i < to; i++) px[i] = addPixels(px[i] as number, px[i - width - 1] as number);
      return;
    case 5:
      for (let i = from; i < to; i++)
        px[i] = addPixels(
          px[i] as number,
          average2(average2(px[i - 1] as number, px[i - width + 1] as number), px[i - width] as number),
        );
      return;
    case 6:
      for (let i = from; i < to; i++)
        px[i] = addPixels(px[i] as number, average2(px[i - 1] as number, px[i - width - 1] as number));
      return;
    case 7:
      for (let i = from; i < to; i++)
        px[i] = addPixels(px[i] as number, average2(px[i - 1] as number, px[i - width] as number));
      return;
    case 8:
      for (let i = from; i < to; i++)
        px[i] = addPixels(px[i] as number, average2(px[i - width - 1] as number, px[i - width] as number));
      return;
    case 9:
      for (let i = from; i < to; i++)
        px[i] = addPixels(px[i] as number, average2(px[i - width] as number, px[i - width + 1] as number));
      return;
    case 11:
      for (let i = from; i < to; i++)
        px[i] = addPixels(
          px[i] as number,
          select(px[i - 1] as number, px[i - width] as number, px[i - width - 1] as number),
        );
      return;
    case 12:
      for (let i = from; i < to; i++)
        px[i] = addPixels(
          px[i] as number,
          clampAddSubtractFull(px[i - 1] as number, px[i - width] as number, px[i - width - 1] as number),
        );
      return;
    case 13:
      for (let i = from; i < to; i++)
        px[i] = addPixels(
          px[i] as number,
          clampAddSubtractHalf(average2(px[i - 1] as number, px[i - width] as number), px[i - width - 1] as number),
        );
      return;
    default:
      for (let i = from; i < to; i++)
        px[i] = addPixels(
          px[i] as number,
          predict(
            mode,
            px[i - 1] as number,
            px[i - width] as number,
            px[i - width + 1] as number,
            px[i - width - 1] as number,
          ),
        );
  }
}

/** `(int8)a * (int8)b >> 5`, the colour transform's delta. */
function colorDelta(a: number, b: number): number {
  return (((a << 24) >> 24) * ((b << 24) >> 24)) >> 5;
}

/**
 * Undoes the colour transform in place: per 2^bits block, red gets back a multiple of green,
 * and blue multiples of green and of the restored red (`elements`: green-to-red in blue's byte,
 * green-to-blue in green's, red-to-blue in red's).
 */
export function inverseColorTransform(
  px: Uint32Array,
  width: number,
  height: number,
  bits: number,
  elements: Uint32Array,
): void {
  const tilesWide = subSampleSize(width, bits);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    const elementRow = (y >>> bits) * tilesWide;
    for (let x = 0; x < width; x++) {
      const e = elements[elementRow + (x >>> bits)] as number;
      const argb = px[row + x] as number;
      const green = (argb >>> 8) & 0xff;
      const red = (((argb >>> 16) & 0xff) + colorDelta(e & 0xff, green)) & 0xff;
      const blue = ((argb & 0xff) + colorDelta((e >>> 8) & 0xff, green) + colorDelta((e >>> 16) & 0xff, red)) & 0xff;
      px[row + x] = ((argb & 0xff00ff00) | (red << 16) | blue) >>> 0;
    }
  }
}

/** Undoes subtract-green in place: green is added back to red and blue. */
export function addGreen(px: Uint32Array): void {
  for (let i = 0; i < px.length; i++) {
    const argb = px[i] as number;
    const green = (argb >>> 8) & 0xff;
    px[i] = ((argb & 0xff00ff00) | (((argb & 0x00ff00ff) + ((green << 16) | green)) & 0x00ff00ff)) >>> 0;
  }
}

/**
 * Undoes colour indexing: each pixel's green is an index into `palette` (256 entries, zero past
 * the table, as libwebp pads it); with `bits` > 0, 2^bits indices are bundled in one green byte,
 * the first pixel in the low bits. `packed` is `packedWidth` wide; the result `width` wide.
 */
export function inverseColorIndexing(
  packed: Uint32Array,
  packedWidth: number,
  width: number,
  height: number,
  bits: number,
  palette: Uint32Array,
): Uint32Array {
  const out = bits === 0 && packedWidth === width ? packed : new Uint32Array(width * height);
  const bitsPerIndex = 8 >>> bits;
  const mask = (1 << bitsPerIndex) - 1;
  const perByte = (1 << bits) - 1;
  for (let y = 0; y < height; y++) {
    const from = y * packedWidth;
    const to = y * width;
    for (let x = 0; x < width; x++) {
      const g = ((packed[from + (x >>> bits)] as number) >>> 8) & 0xff;
      out[to + x] = palette[(g >>> (bitsPerIndex * (x & perByte))) & mask] as number;
    }
  }
  return out;
}
