/**
 * PNG's five row filters undone in place (None, Sub, Up, Average, Paeth; PNG spec section 9).
 * Each row of the inflated data is a filter byte then `rowBytes` bytes; a row refers only to
 * itself and the row above, both already undone, so no second buffer is needed.
 */
import { DecodeError } from './error.js';

/**
 * Undoes the filters of `rows` rows of `rowBytes` bytes each (plus their filter byte), starting at
 * `start` in `data`; `bpp` is the bytes a complete pixel takes (at least 1). The first row sees a
 * row of zeros above it. Throws `DecodeError` for a filter type other than 0..4.
 *
 * @example unfilterRows(inflated, 0, height, width * 4, 4)
 */
export function unfilterRows(data: Uint8Array, start: number, rows: number, rowBytes: number, bpp: number): void {
  const stride = rowBytes + 1;
  for (let y = 0; y < rows; y++) {
    const row = start + y * stride + 1; // first data byte of this row
    const up = row - stride; // the same byte one row up (only read when y > 0)
    const end = row + rowBytes;
    const filter = data[row - 1] as number;
    switch (filter) {
      case 0:
        break;
      case 1:
        for (let i = row + bpp; i < end; i++) data[i] = ((data[i] as number) + (data[i - bpp] as number)) & 0xff;
        break;
      case 2:
        if (y === 0) break;
        for (let i = row, j = up; i < end; i++, j++) data[i] = ((data[i] as number) + (data[j] as number)) & 0xff;
        break;
      case 3:
        if (y === 0) {
          for (let i = row + bpp; i < end; i++)
            data[i] = ((data[i] as number) + ((data[i - bpp] as number) >> 1)) & 0xff;
          break;
        }
        for (let i = row, j = up; i < row + bpp; i++, j++)
          data[i] = ((data[i] as number) + ((data[j] as number) >> 1)) & 0xff;
        for (let i = row + bpp, j = up + bpp; i < end; i++, j++)
          data[i] = ((data[i] as number) + (((data[i - bpp] as number) + (data[j] as number)) >> 1)) & 0xff;
        break;
      case 4:
        if (y === 0) {
          // Above is zero, so Paeth picks the left byte: the Sub filter.
          for (let i = row + bpp; i < end; i++) data[i] = ((data[i] as number) + (data[i - bpp] as number)) & 0xff;
          break;
        }
        for (let i = row, j = up; i < row + bpp; i++, j++) data[i] = ((data[i] as number) + (data[j] as number)) & 0xff;
        for (let i = row + bpp, j = up + bpp; i < end; i++, j++) {
          const a = data[i - bpp] as number;
          const b = data[j] as number;
          const c = data[j - bpp] as number;
          // p = a + b - c; the distances from p to a, b and c without forming p.
          const pa = b > c ? b - c : c - b;
          const pb = a > c ? a - c : c - a;
          const abc = a + b - c - c;
          const pc = abc < 0 ? -abc : abc;
          const pred = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
          data[i] = ((data[i] as number) + pred) & 0xff;
        }
        break;
      default:
        throw new DecodeError('corrupt', `corrupt PNG: unknown filter type ${filter} on row ${y + 1}`);
    }
  }
}
