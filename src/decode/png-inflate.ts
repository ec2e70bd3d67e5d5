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
    // chunkSize: one large output chunk instead of the default 16 KiB ones saves the copies of
    // joining them; capped so a tiny image does not allocate a large buffer.
    out = inflateSync(stream, { maxOutputLength: expected, chunkSize: Math.max(64, Math.min(expected, 1 << 22)) });
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
