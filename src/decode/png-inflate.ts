/**
 * The one inflate of a PNG, with a budget: node:zlib's native inflate told the most bytes the
 * declared image can need (`maxOutputLength`), so a stream that would inflate further stops there
 * and costs no more memory than an honest file of that size. See docs/decode.md#png.
 */
import { inflateSync } from 'node:zlib';
import { DecodeError, reasonOf } from './error.js';

/**
 * Inflates the zlib stream split across `parts` (the IDAT bodies) to exactly `expected` bytes.
 * Throws a `DecodeError`: `corrupt` when the stream would give more (a decompression bomb or a
 * lie in IHDR), gives less, or is damaged; `truncated` when it ends before its end.
 *
 * @example inflatePngData([idat], height * (rowBytes + 1))
 */
export function inflatePngData(parts: readonly Uint8Array[], expected: number): Uint8Array {
  const stream = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
  let out: Buffer;
  try {
    out = inflateSync(stream, { maxOutputLength: expected, chunkSize: outputChunk(expected, stream.length) });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'ERR_BUFFER_TOO_LARGE')
      throw new DecodeError(
        'corrupt',
        `corrupt PNG: the image data inflates to more than the ${expected} bytes its declared size needs`,
        { cause: error },
      );
    if (code === 'Z_BUF_ERROR')
      throw new DecodeError('truncated', 'truncated PNG: the compressed image data ends early', { cause: error });
    throw new DecodeError('corrupt', `corrupt PNG: the compressed image data is damaged (${reasonOf(error)})`, {
      cause: error,
    });
  }
  if (out.length < expected)
    throw new DecodeError(
      'corrupt',
      `corrupt PNG: the image data inflates to ${out.length} bytes; its declared size needs ${expected}`,
    );
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

/**
 * The size of zlib's output buffers. One buffer a byte larger than the whole image when the
 * compressed data could plausibly hold it (eight times its size: photos compress 2-3 times), so
 * zlib never joins chunks, which would hold the image twice (a 4000x3000 photo: 72 MB at the
 * peak instead of 36). Otherwise 4 MiB chunks, so a small file that lies about its size costs
 * only what it really inflates to.
 */
export function outputChunk(expected: number, compressed: number): number {
  const chunk = 1 << 22;
  if (expected < chunk || expected <= compressed * 8) return Math.max(64, expected + 1);
  return chunk;
}
