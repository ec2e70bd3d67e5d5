/** Reading numbers out of byte arrays, big-endian as PNG, JPEG and GIF headers store them. */

/** The unsigned 16-bit big-endian number at `at`. */
export function u16be(bytes: Uint8Array, at: number): number {
  return (((bytes[at] as number) << 8) | (bytes[at + 1] as number)) >>> 0;
}

/** The unsigned 32-bit big-endian number at `at`. */
export function u32be(bytes: Uint8Array, at: number): number {
  return (
    (((bytes[at] as number) << 24) |
      ((bytes[at + 1] as number) << 16) |
      ((bytes[at + 2] as number) << 8) |
      (bytes[at + 3] as number)) >>>
    0
  );
}

/** The unsigned 16-bit little-endian number at `at` (GIF). */
export function u16le(bytes: Uint8Array, at: number): number {
  return ((bytes[at] as number) | ((bytes[at + 1] as number) << 8)) >>> 0;
}

/** ASCII text of `bytes[start, end)`, one char a byte (chunk types, markers). */
export function ascii(bytes: Uint8Array, start: number, end: number): string {
  let out = '';
  for (let i = start; i < end && i < bytes.length; i++) out += String.fromCharCode(bytes[i] as number);
  return out;
}
