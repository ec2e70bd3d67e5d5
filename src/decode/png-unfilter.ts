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
  for (let y = 0, row = start + 1; y < rows; y++, row += rowBytes + 1) unfilterRow(data, row, y, rowBytes, bpp);
}

/**
 * Undoes the filter of the row whose first data byte is at `row` (its filter byte just before
 * it), row `y` of its image or pass: row 0 sees zeros above it, any other the `rowBytes + 1`
 * bytes before it, already undone. A row at a time lets the reduced decode average each row
 * while it is still in the cache (png-reduce.ts). Throws `DecodeError` for a filter type other than 0..4.
 *
 * @example unfilterRow(inflated, 1, 0, width * 3, 3)
 */
export function unfilterRow(data: Uint8Array, row: number, y: number, rowBytes: number, bpp: number): void {
  const up = row - rowBytes - 1; // the same byte one row up (only read when y > 0)
  const end = row + rowBytes;
  const filter = data[row - 1] as number;
  // One small function a filter: a one-shot decode runs each loop over a whole picture once,
  // and V8 optimizes a short function's loop far sooner than one inside a long switch.
  if (filter === 0) return;
  if (filter === 1 || (filter === 4 && y === 0))
    subRow(data, row, end, bpp); // Paeth over zeros is Sub
  else if (filter === 2) {
    if (y > 0) upRow(data, row, up, end);
  } else if (filter === 3) {
    if (y === 0) averageFirstRow(data, row, end, bpp);
    else if (bpp === 3) averageRow3(data, row, up, end);
    else if (bpp === 4) averageRow4(data, row, up, end);
    else averageRow(data, row, up, end, bpp);
  } else if (filter === 4) {
    if (bpp === 3) paethRow3(data, row, up, end);
    else if (bpp === 4) paethRow4(data, row, up, end);
    else paethRow(data, row, up, end, bpp);
  } else throw new DecodeError('corrupt', `corrupt PNG: unknown filter type ${filter} on row ${y + 1}`);
}

/** Sub: each byte plus the byte one pixel to its left. */
function subRow(data: Uint8Array, row: number, end: number, bpp: number): void {
  for (let i = row + bpp; i < end; i++) data[i] = ((data[i] as number) + (data[i - bpp] as number)) & 0xff;
}

/** Up: each byte plus the byte above it. */
function upRow(data: Uint8Array, row: number, up: number, end: number): void {
  for (let i = row, j = up; i < end; i++, j++) data[i] = ((data[i] as number) + (data[j] as number)) & 0xff;
}

/** Average on the first row: zeros above, so each byte plus half its left neighbour. */
function averageFirstRow(data: Uint8Array, row: number, end: number, bpp: number): void {
  for (let i = row + bpp; i < end; i++) data[i] = ((data[i] as number) + ((data[i - bpp] as number) >> 1)) & 0xff;
}

/** Average: each byte plus the floor of the mean of its left and upper neighbours. */
function averageRow(data: Uint8Array, row: number, up: number, end: number, bpp: number): void {
  for (let i = row, j = up; i < row + bpp; i++, j++)
    data[i] = ((data[i] as number) + ((data[j] as number) >> 1)) & 0xff;
  for (let i = row + bpp, j = up + bpp; i < end; i++, j++)
    data[i] = ((data[i] as number) + (((data[i - bpp] as number) + (data[j] as number)) >> 1)) & 0xff;
}

/**
 * Average on RGB8 rows (ImageMagick's choice for every row of a photo), each channel's left
 * neighbour kept in a local: the generic loop reads it back from the array it just wrote, a
 * dependency through memory (a 4000x3000 photo's rows: 1.3x less CPU).
 */
function averageRow3(data: Uint8Array, row: number, up: number, end: number): void {
  let r = 0;
  let g = 0;
  let b = 0;
  for (let i = row, j = up; i < end; i += 3, j += 3) {
    r = ((data[i] as number) + ((r + (data[j] as number)) >> 1)) & 0xff;
    g = ((data[i + 1] as number) + ((g + (data[j + 1] as number)) >> 1)) & 0xff;
    b = ((data[i + 2] as number) + ((b + (data[j + 2] as number)) >> 1)) & 0xff;
    data[i] = r;
    data[i + 1] = g;
    data[i + 2] = b;
  }
}

/** Average on RGBA8 (or grey+alpha 16-bit) rows, as averageRow3 with four channels. */
function averageRow4(data: Uint8Array, row: number, up: number, end: number): void {
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  for (let i = row, j = up; i < end; i += 4, j += 4) {
    c0 = ((data[i] as number) + ((c0 + (data[j] as number)) >> 1)) & 0xff;
    c1 = ((data[i + 1] as number) + ((c1 + (data[j + 1] as number)) >> 1)) & 0xff;
    c2 = ((data[i + 2] as number) + ((c2 + (data[j + 2] as number)) >> 1)) & 0xff;
    c3 = ((data[i + 3] as number) + ((c3 + (data[j + 3] as number)) >> 1)) & 0xff;
    data[i] = c0;
    data[i + 1] = c1;
    data[i + 2] = c2;
    data[i + 3] = c3;
  }
}

/**
 * Paeth's predictor (PNG spec section 9.4) without branches: photos make its three-way choice
 * unpredictable, and the mispredicted branches cost more than the arithmetic (2.5x on a
 * 4000x3000 photo). The distances are |b - c|, |a - c| and |a + b - 2c|; the masks are -1 where
 * the spec's comparison holds, so ties go to a, then b, as the spec orders them.
 */
function paeth(a: number, b: number, c: number): number {
  let pa = b - c;
  let pb = a - c;
  let pc = pa + pb;
  pa = (pa ^ (pa >> 31)) - (pa >> 31);
  pb = (pb ^ (pb >> 31)) - (pb >> 31);
  pc = (pc ^ (pc >> 31)) - (pc >> 31);
  const bOverC = ~((pc - pb) >> 31); // pb <= pc
  const x = c ^ ((b ^ c) & bOverC);
  const px = pc ^ ((pb ^ pc) & bOverC);
  const aOverX = ~((px - pa) >> 31); // pa <= min(pb, pc)
  return x ^ ((a ^ x) & aOverX);
}

/** A Paeth row of any pixel width. The first pixel has zeros for a and c, so it predicts b (Up). */
function paethRow(data: Uint8Array, row: number, up: number, end: number, bpp: number): void {
  for (let i = row, j = up; i < row + bpp; i++, j++) data[i] = ((data[i] as number) + (data[j] as number)) & 0xff;
  for (let i = row + bpp, j = up + bpp; i < end; i++, j++)
    data[i] = ((data[i] as number) + paeth(data[i - bpp] as number, data[j] as number, data[j - bpp] as number)) & 0xff;
}

/** A Paeth row of RGB8 pixels, each channel's left and upper-left kept in locals (the common photo PNG). */
function paethRow3(data: Uint8Array, row: number, up: number, end: number): void {
  let ar = 0;
  let ag = 0;
  let ab = 0;
  let cr = 0;
  let cg = 0;
  let cb = 0;
  for (let i = row, j = up; i < end; i += 3, j += 3) {
    let b = data[j] as number;
    ar = ((data[i] as number) + paeth(ar, b, cr)) & 0xff;
    data[i] = ar;
    cr = b;
    b = data[j + 1] as number;
    ag = ((data[i + 1] as number) + paeth(ag, b, cg)) & 0xff;
    data[i + 1] = ag;
    cg = b;
    b = data[j + 2] as number;
    ab = ((data[i + 2] as number) + paeth(ab, b, cb)) & 0xff;
    data[i + 2] = ab;
    cb = b;
  }
}

/** A Paeth row of RGBA8 (or grey+alpha 16-bit) pixels, as paethRow3 with four channels. */
function paethRow4(data: Uint8Array, row: number, up: number, end: number): void {
  let a0 = 0;
  let a1 = 0;
  let a2 = 0;
  let a3 = 0;
  let c0 = 0;
  let c1 = 0;
  let c2 = 0;
  let c3 = 0;
  for (let i = row, j = up; i < end; i += 4, j += 4) {
    let b = data[j] as number;
    a0 = ((data[i] as number) + paeth(a0, b, c0)) & 0xff;
    data[i] = a0;
    c0 = b;
    b = data[j + 1] as number;
    a1 = ((data[i + 1] as number) + paeth(a1, b, c1)) & 0xff;
    data[i + 1] = a1;
    c1 = b;
    b = data[j + 2] as number;
    a2 = ((data[i + 2] as number) + paeth(a2, b, c2)) & 0xff;
    data[i + 2] = a2;
    c2 = b;
    b = data[j + 3] as number;
    a3 = ((data[i + 3] as number) + paeth(a3, b, c3)) & 0xff;
    data[i + 3] = a3;
    c3 = b;
  }
}
