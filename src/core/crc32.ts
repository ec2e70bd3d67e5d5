/** CRC-32 (ISO-HDLC, the polynomial PNG and zlib use). */
import { nodeZlib } from './node-builtins.js';

type Crc32 = (data: Uint8Array) => number;

/** node:zlib's native CRC-32 (Node 20.15+ and 22.2+), several times faster than a table; looked up on first use. */
let native: Crc32 | null | undefined;

let table: Uint32Array | null = null;

function crcTable(): Uint32Array {
  if (table === null) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  return table;
}

/**
 * The CRC-32 of `bytes`, as an unsigned 32-bit number: native where Node has it, else a table.
 *
 * @example crc32(new TextEncoder().encode('IEND')) // 0xae426082
 */
export function crc32(bytes: Uint8Array): number {
  native ??= (nodeZlib() as { crc32?: Crc32 }).crc32 ?? null;
  if (native !== null) return native(bytes) >>> 0;
  return crc32Table(bytes);
}

/**
 * The CRC-32 of `bytes[start..end)`. A short range is computed with the table in place: the
 * native call and the view it needs cost more than the table's few steps (a PNG of millions of
 * empty chunks walked 3x faster).
 */
export function crc32Range(bytes: Uint8Array, start: number, end: number): number {
  if (end - start > 64) return crc32(bytes.subarray(start, end));
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** The table form, always (kept callable so a test can check it against the native one). */
export function crc32Table(bytes: Uint8Array): number {
  const t = crcTable();
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = (t[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
