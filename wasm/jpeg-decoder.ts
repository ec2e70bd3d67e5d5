// AssemblyScript: the JPEG decoder's hot part. The sequential (baseline Huffman) entropy decoding
// of one scan, with or without restart intervals, one MCU row a call, into a band of coefficient
// blocks laid out as the TypeScript decoder's band (src/decode/jpeg-entropy.ts `sequential`,
// jpeg-bits.ts `BitReader`); the progressive scans (`progressiveScan`: DC and AC, first and
// refinement) into whole-picture coefficient stores; both with the same bit reader semantics, the
// same lookahead tables (built by jpeg-segments.ts and copied in) and the same coefficients written;
// then the inverse transforms of jpeg-idct.ts into planes and jpeg-color.ts's YCbCr conversion.
// decodeJpeg's default for the scans it takes (issue 26; docs/decode.md, "WebAssembly").
// Built by `npm run build` (scripts/build-wasm.mjs) into dist/wasm/. All memory is laid out by the caller (`alloc`); nothing here
// checks bounds beyond what the TypeScript code checks, so the caller sizes every area.

// A Huffman table area, as laid out by the caller (jpeg-entropy-wasm.ts `TABLE`).
const FAST: usize = 0; // u16[512]: (length << 8) | symbol
const MAXCODE: usize = 1024; // i32[18]
const OFFSET: usize = 1096; // i32[18]
const SYMBOLS: usize = 1168; // u8[256]
const FASTAC: usize = 1424; // i32[512]
const SKIPAC: usize = 3472; // u16[512]

const FAST_BITS: u32 = 9;
const FAST_MASK: u32 = 511;

const ZIGZAG: usize = memory.data<u8>([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21,
  28, 35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61,
  54, 47, 55, 62, 63,
]);

// The reader (BitReader's fields).
let data: usize = 0;
let dataLen: i32 = 0;
let bits: u32 = 0;
let count: i32 = 0;
let pos: i32 = 0;
let stop: i32 = 0; // 0 none, 1 marker, 2 end
let padding: i32 = 0;
// Restart intervals (decodeScan's `restart`): MCUs per interval (0: none), MCUs left in this one.
let interval: i32 = 0;
let untilRestart: i32 = 0;

/** Why the last call trapped: 1 an invalid Huffman code (at `errorPos`), 2 a DC difference over 11 bits. */
export let errorKind: i32 = 0;
export let errorPos: i32 = 0;

// Components: up to 4, each a record of i32 fields.
const MAX_COMPONENTS = 4;
let components: i32 = 0;
let mcusWide: i32 = 0;
// Per component: h, v, storeWide, blocksWide, lastZigzag, naturalPtr, naturalLen, dcTable, acTable, band, pred
const C_H = 0;
const C_V = 1;
const C_STORE = 2;
const C_BLOCKS = 3;
const C_LAST = 4;
const C_NATURAL = 5;
const C_NATURAL_LEN = 6;
const C_DC = 7;
const C_AC = 8;
const C_BAND = 9;
const C_PRED = 10;
// For the inverse transform (idctRow): block size, dequantizer (f64[64]), output plane, its stride, block rows.
const C_SIZE = 11;
const C_Q = 12;
const C_PLANE = 13;
const C_STRIDE = 14;
const C_BLOCKS_HIGH = 15;
// Progressive scans: the component's `last` (one byte a block of its coefficient store).
const C_HISTORY = 16;
const C_FIELDS = 17;
const comps: usize = memory.data(MAX_COMPONENTS * C_FIELDS * 4);

@inline function field(c: i32, f: i32): i32 {
  return load<i32>(comps + ((c * C_FIELDS + f) << 2));
}

/** Memory for the caller's areas (the stub runtime's bump allocator: never freed). */
export function alloc(size: i32): usize {
  return heap.alloc(<usize>size);
}

/** Starts a scan over the entropy-coded data at `start` in the `length` bytes at `ptr`. */
export function begin(ptr: usize, length: i32, start: i32, n: i32, wide: i32): void {
  data = ptr;
  dataLen = length;
  pos = start;
  bits = 0;
  count = 0;
  stop = 0;
  padding = 0;
  components = n;
  mcusWide = wide;
  errorKind = 0;
  errorPos = 0;
  interval = 0;
  untilRestart = 0;
}

/** The scan's restart interval in MCUs (0: none); after `begin`. */
export function setRestart(mcus: i32): void {
  interval = mcus;
  untilRestart = mcus;
}

/** Describes component `c` of the scan (in scan order). */
export function component(
  c: i32,
  h: i32,
  v: i32,
  storeWide: i32,
  blocksWide: i32,
  lastZigzag: i32,
  natural: usize,
  naturalLen: i32,
  dc: usize,
  ac: usize,
  band: usize,
): void {
  const at = comps + <usize>((c * C_FIELDS) << 2);
  store<i32>(at, h, C_H << 2);
  store<i32>(at, v, C_V << 2);
  store<i32>(at, storeWide, C_STORE << 2);
  store<i32>(at, blocksWide, C_BLOCKS << 2);
  store<i32>(at, lastZigzag, C_LAST << 2);
  store<i32>(at, <i32>natural, C_NATURAL << 2);
  store<i32>(at, naturalLen, C_NATURAL_LEN << 2);
  store<i32>(at, <i32>dc, C_DC << 2);
  store<i32>(at, <i32>ac, C_AC << 2);
  store<i32>(at, <i32>band, C_BAND << 2);
  store<i32>(at, 0, C_PRED << 2);
}

/** Describes component `c`'s inverse transform: its block size (1, 2, 4 or 8), dequantizer and plane. */
export function transform(c: i32, size: i32, q: usize, plane: usize, stride: i32, blocksHigh: i32): void {
  const at = comps + <usize>((c * C_FIELDS) << 2);
  store<i32>(at, size, C_SIZE << 2);
  store<i32>(at, <i32>q, C_Q << 2);
  store<i32>(at, <i32>plane, C_PLANE << 2);
  store<i32>(at, stride, C_STRIDE << 2);
  store<i32>(at, blocksHigh, C_BLOCKS_HIGH << 2);
}

/** cos((2k+1)uπ/8), [k * 4 + u], as jpeg-idct.ts computes them (copied in: Math.cos is JavaScript's). */
let cos4: usize = 0;
export function setCos4(ptr: usize): void {
  cos4 = ptr;
}

const work: usize = memory.data(16 * 8);

/** Uint8ClampedArray's conversion: NaN and below 0 to 0, above 255 to 255, else to the nearest, ties to even. */
@inline function clamped(p: usize, x: f64): void {
  store<u8>(p, <u8>(<i32>(x > 0 ? (x < 255 ? nearest<f64>(x) : 255) : 0)));
}

/** jpeg-idct.ts idct2. */
@inline function idct2(coefs: usize, q: usize, out: usize, stride: usize): void {
  const c = Math.SQRT1_2;
  const f00 = <f64>load<i16>(coefs) * load<f64>(q);
  const f01 = <f64>load<i16>(coefs, 2) * load<f64>(q, 8) * c;
  const f10 = <f64>load<i16>(coefs, 16) * load<f64>(q, 64) * c;
  const f11 = <f64>load<i16>(coefs, 18) * load<f64>(q, 72) * 0.5;
  clamped(out, f00 + f01 + f10 + f11 + 128);
  clamped(out + 1, f00 - f01 + f10 - f11 + 128);
  clamped(out + stride, f00 + f01 - f10 - f11 + 128);
  clamped(out + stride + 1, f00 - f01 - f10 + f11 + 128);
}

/** jpeg-idct.ts idct4, the same operations in the same order. */
function idct4(coefs: usize, q: usize, out: usize, stride: usize): void {
  const w = work;
  const cs = cos4;
  for (let u: usize = 0; u < 4; u++) {
    const f0 = <f64>load<i16>(coefs + (u << 1)) * load<f64>(q + (u << 3));
    const a1 = load<i16>(coefs + ((8 + u) << 1));
    const a2 = load<i16>(coefs + ((16 + u) << 1));
    const a3 = load<i16>(coefs + ((24 + u) << 1));
    if (a1 == 0 && a2 == 0 && a3 == 0) {
      store<f64>(w + (u << 3), f0);
      store<f64>(w + ((4 + u) << 3), f0);
      store<f64>(w + ((8 + u) << 3), f0);
      store<f64>(w + ((12 + u) << 3), f0);
      continue;
    }
    const f1 = <f64>a1 * load<f64>(q + ((8 + u) << 3));
    const f2 = <f64>a2 * load<f64>(q + ((16 + u) << 3));
    const f3 = <f64>a3 * load<f64>(q + ((24 + u) << 3));
    for (let k: usize = 0; k < 4; k++) {
      const c = cs + (k << 5);
      store<f64>(w + ((k * 4 + u) << 3), f0 + f1 * load<f64>(c, 8) + f2 * load<f64>(c, 16) + f3 * load<f64>(c, 24));
    }
  }
  for (let k: usize = 0; k < 4; k++) {
    const r = w + (k << 5);
    const g0 = load<f64>(r);
    const g1 = load<f64>(r, 8);
    const g2 = load<f64>(r, 16);
    const g3 = load<f64>(r, 24);
    const o = out + k * stride;
    if (g1 == 0 && g2 == 0 && g3 == 0) {
      const flat = g0 + 128;
      clamped(o, flat);
      clamped(o + 1, flat);
      clamped(o + 2, flat);
      clamped(o + 3, flat);
      continue;
    }
    for (let x: usize = 0; x < 4; x++) {
      const c = cs + (x << 5);
      clamped(o + x, g0 + g1 * load<f64>(c, 8) + g2 * load<f64>(c, 16) + g3 * load<f64>(c, 24) + 128);
    }
  }
}

const work8: usize = memory.data(64 * 8);

/** jpeg-idct.ts transform8: one 8-point AAN inverse transform of d0..d7 to w[k * step], the same operations in the same order. */
@inline function transform8(
  w: usize,
  step: usize,
  d0: f64,
  d1: f64,
  d2: f64,
  d3: f64,
  d4: f64,
  d5: f64,
  d6: f64,
  d7: f64,
): void {
  const e10 = d0 + d4;
  const e11 = d0 - d4;
  const e13 = d2 + d6;
  const e12 = (d2 - d6) * Math.SQRT2 - e13;
  const e0 = e10 + e13;
  const e3 = e10 - e13;
  const e1 = e11 + e12;
  const e2 = e11 - e12;
  const z13 = d5 + d3;
  const z10 = d5 - d3;
  const z11 = d1 + d7;
  const z12 = d1 - d7;
  const o7 = z11 + z13;
  const o11 = (z11 - z13) * Math.SQRT2;
  const z5 = (z10 + z12) * 1.8477590650225735;
  const o10 = z5 - z12 * 1.0823922002923938;
  const o12 = z5 - z10 * 2.613125929752753;
  const o6 = o12 - o7;
  const o5 = o11 - o6;
  const o4 = o10 - o5;
  store<f64>(w, e0 + o7);
  store<f64>(w + 7 * step, e0 - o7);
  store<f64>(w + step, e1 + o6);
  store<f64>(w + 6 * step, e1 - o6);
  store<f64>(w + 2 * step, e2 + o5);
  store<f64>(w + 5 * step, e2 - o5);
  store<f64>(w + 3 * step, e3 + o4);
  store<f64>(w + 4 * step, e3 - o4);
}

/** jpeg-idct.ts idct8: columns (a column without AC terms is flat), then rows, `sample + 128` clamped. */
function idct8(coefs: usize, q: usize, out: usize, stride: usize): void {
  const w = work8;
  for (let c: usize = 0; c < 8; c++) {
    const i = coefs + (c << 1);
    const qc = q + (c << 3);
    if (
      load<i16>(i, 16) == 0 &&
      load<i16>(i, 32) == 0 &&
      load<i16>(i, 48) == 0 &&
      load<i16>(i, 64) == 0 &&
      load<i16>(i, 80) == 0 &&
      load<i16>(i, 96) == 0 &&
      load<i16>(i, 112) == 0
    ) {
      const dc = <f64>load<i16>(i) * load<f64>(qc);
      for (let r: usize = 0; r < 64; r += 8) store<f64>(w + ((r + c) << 3), dc);
      continue;
    }
    transform8(
      w + (c << 3),
      64,
      <f64>load<i16>(i) * load<f64>(qc),
      <f64>load<i16>(i, 16) * load<f64>(qc, 64),
      <f64>load<i16>(i, 32) * load<f64>(qc, 128),
      <f64>load<i16>(i, 48) * load<f64>(qc, 192),
      <f64>load<i16>(i, 64) * load<f64>(qc, 256),
      <f64>load<i16>(i, 80) * load<f64>(qc, 320),
      <f64>load<i16>(i, 96) * load<f64>(qc, 384),
      <f64>load<i16>(i, 112) * load<f64>(qc, 448),
    );
  }
  for (let r: usize = 0; r < 8; r++) {
    const row = w + (r << 6);
    transform8(
      row,
      8,
      load<f64>(row),
      load<f64>(row, 8),
      load<f64>(row, 16),
      load<f64>(row, 24),
      load<f64>(row, 32),
      load<f64>(row, 40),
      load<f64>(row, 48),
      load<f64>(row, 56),
    );
    const o = out + r * stride;
    for (let x: usize = 0; x < 8; x++) clamped(o + x, load<f64>(row + (x << 3)) + 128);
  }
}

/** jpeg.ts Output.row's transforms: MCU row `my` of every component's band into its plane. */
export function idctRow(my: i32): void {
  for (let c = 0; c < components; c++) {
    const size = field(c, C_SIZE);
    const v = field(c, C_V);
    const q = <usize>field(c, C_Q);
    const plane = <usize>field(c, C_PLANE);
    const stride = <usize>field(c, C_STRIDE);
    const storeWide = field(c, C_STORE);
    const blocksWide = field(c, C_BLOCKS);
    const blocksHigh = field(c, C_BLOCKS_HIGH);
    const band = <usize>field(c, C_BAND);
    for (let y = 0; y < v; y++) {
      if (my * v + y >= blocksHigh) break;
      const from = band + (<usize>(y * storeWide) << 7);
      const to = plane + <usize>(y * size) * stride;
      if (size == 2) for (let bx = 0; bx < blocksWide; bx++) idct2(from + (<usize>bx << 7), q, to + (<usize>bx << 1), stride);
      else if (size == 4) for (let bx = 0; bx < blocksWide; bx++) idct4(from + (<usize>bx << 7), q, to + (<usize>bx << 2), stride);
      else if (size == 8) for (let bx = 0; bx < blocksWide; bx++) idct8(from + (<usize>bx << 7), q, to + (<usize>bx << 3), stride);
      else for (let bx = 0; bx < blocksWide; bx++) clamped(to + <usize>bx, <f64>load<i16>(from + (<usize>bx << 7)) * load<f64>(q) + 128);
    }
  }
}

export function readerPos(): i32 {
  return pos;
}
export function readerStop(): i32 {
  return stop;
}
/** BitReader.overrun. */
export function overrun(): i32 {
  return padding > count ? padding - count : 0;
}

/**
 * BitReader.restart: drops the partial byte, then steps over the RSTn marker if it is there (after
 * any stray bytes); otherwise leaves the reader stopped at the other marker or the end. Whether
 * the marker was found.
 */
function restartReader(): bool {
  bits = 0;
  count = 0;
  if (stop == 2) return false;
  let p = pos;
  for (;;) {
    while (p < dataLen && load<u8>(data + <usize>p) != 0xff) p++;
    while (p + 1 < dataLen && load<u8>(data + <usize>p + 1) == 0xff) p++;
    if (p + 1 >= dataLen) {
      pos = p;
      stop = 2;
      return false;
    }
    const marker = <i32>load<u8>(data + <usize>p + 1);
    if (marker == 0) {
      p += 2; // a stuffed data byte: still inside stray data
      continue;
    }
    if (marker >= 0xd0 && marker <= 0xd7) {
      pos = p + 2;
      stop = 0;
      padding = 0;
      return true;
    }
    pos = p;
    stop = 1;
    return false;
  }
}

/** decodeScan's `restart` before each MCU: at an interval's end, the reader and the predictions start again. */
@inline function beforeMcu(): void {
  if (interval != 0) {
    if (untilRestart == 0) {
      restartReader();
      for (let c = 0; c < components; c++) store<i32>(comps + <usize>((c * C_FIELDS + C_PRED) << 2), 0);
      untilRestart = interval;
    }
    untilRestart--;
  }
}

/** BitReader.fill. */
function fill(): void {
  if (stop == 0) {
    const last = dataLen - 1;
    let b = bits;
    let c = count;
    let p = pos;
    while (c <= 24 && p < last) {
      const byte = <u32>load<u8>(data + <usize>p);
      if (byte == 0xff) {
        if (load<u8>(data + <usize>p + 1) != 0) break;
        p += 2;
      } else p++;
      b = (b << 8) | byte;
      c += 8;
    }
    bits = b;
    count = c;
    pos = p;
    if (c > 24) return;
  }
  fillSlowly();
}

/** BitReader.fillSlowly. */
function fillSlowly(): void {
  while (count <= 24) {
    let byte: u32 = 0;
    if (stop == 0) {
      const p = pos;
      if (p >= dataLen) {
        stop = 2;
      } else {
        byte = <u32>load<u8>(data + <usize>p);
        if (byte != 0xff) {
          pos = p + 1;
        } else if (p + 1 < dataLen && load<u8>(data + <usize>p + 1) == 0) {
          pos = p + 2;
        } else {
          stop = p + 1 >= dataLen ? 2 : 1;
          byte = 0;
        }
      }
    }
    if (stop != 0) padding += 8;
    bits = (bits << 8) | byte;
    count += 8;
  }
}

/** BitReader.decode. */
function decode(t: usize): i32 {
  if (count < 16) fill();
  const entry = <i32>load<u16>(t + FAST + (<usize>((bits >> <u32>(count - FAST_BITS)) & FAST_MASK) << 1));
  if (entry != 0) {
    count -= entry >> 8;
    return entry & 0xff;
  }
  for (let length = 10; length <= 16; length++) {
    const code = <i32>((bits >> <u32>(count - length)) & ((1 << length) - 1));
    if (code <= load<i32>(t + MAXCODE + (<usize>length << 2))) {
      count -= length;
      return <i32>load<u8>(t + SYMBOLS + <usize>(code + load<i32>(t + OFFSET + (<usize>length << 2))));
    }
  }
  if (stop != 0) {
    count = 0;
    return 0;
  }
  errorKind = 1;
  errorPos = pos;
  unreachable();
  return 0;
}

/** jpeg-entropy.ts `sequential`: one block into the band at `at` (an Int16 address). */
function sequential(c: i32, at: usize): void {
  const lastZigzag = field(c, C_LAST);
  if (lastZigzag == 63) memory.fill(at, 0, 128);
  else {
    const natural = <usize>field(c, C_NATURAL);
    const n = field(c, C_NATURAL_LEN);
    for (let i = 0; i < n; i++) store<i16>(at + (<usize>load<u8>(natural + <usize>i) << 1), 0);
  }
  const d = data;
  const lastPair = dataLen - 2;
  let b = bits;
  let k32 = count;
  let p = pos;
  if (k32 < 16) {
    const pair: u32 = p < lastPair ? (<u32>load<u8>(d + <usize>p) << 8) | <u32>load<u8>(d + <usize>p + 1) : 0xffff;
    if ((pair & 0xff00) != 0xff00 && (pair & 0xff) != 0xff) {
      b = (b << 16) | pair;
      p += 2;
      k32 += 16;
    } else {
      bits = b;
      count = k32;
      pos = p;
      fill();
      b = bits;
      k32 = count;
      p = pos;
    }
  }
  const dc = <usize>field(c, C_DC);
  const dcEntry = <i32>load<u16>(dc + FAST + (<usize>((b >> <u32>(k32 - FAST_BITS)) & FAST_MASK) << 1));
  let t: i32;
  if (dcEntry != 0) {
    k32 -= dcEntry >> 8;
    t = dcEntry & 0xff;
  } else {
    bits = b;
    count = k32;
    pos = p;
    fill();
    t = decode(dc);
    if (count < 16) fill();
    b = bits;
    k32 = count;
    p = pos;
  }
  if (t > 11) {
    errorKind = 2;
    errorPos = t;
    unreachable();
  }
  let pred = field(c, C_PRED);
  if (t != 0) {
    if (k32 < t) {
      bits = b;
      count = k32;
      pos = p;
      fill();
      b = bits;
      k32 = count;
      p = pos;
    }
    k32 -= t;
    const v = <i32>((b >> <u32>k32) & ((1 << t) - 1));
    pred += v < 1 << (t - 1) ? v - (1 << t) + 1 : v;
    store<i32>(comps + <usize>((c * C_FIELDS + C_PRED) << 2), pred);
  }
  store<i16>(at, <i16>pred);
  const table = <usize>field(c, C_AC);
  let k = 1;
  while (k < 64) {
    if (k32 < 16) {
      const pair: u32 = p < lastPair ? (<u32>load<u8>(d + <usize>p) << 8) | <u32>load<u8>(d + <usize>p + 1) : 0xffff;
      if ((pair & 0xff00) != 0xff00 && (pair & 0xff) != 0xff) {
        b = (b << 16) | pair;
        p += 2;
        k32 += 16;
      } else {
        bits = b;
        count = k32;
        pos = p;
        fill();
        b = bits;
        k32 = count;
        p = pos;
      }
    }
    const peek = <usize>((b >> <u32>(k32 - FAST_BITS)) & FAST_MASK);
    if (k > lastZigzag) {
      const skip = <i32>load<u16>(table + SKIPAC + (peek << 1));
      if (skip != 0) {
        k32 -= skip & 31;
        k += skip >> 5;
        continue;
      }
    } else {
      const term = load<i32>(table + FASTAC + (peek << 2));
      if (term != 0) {
        k32 -= term & 15;
        k += (term >> 4) & 15;
        if (k > 63) break;
        store<i16>(at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1), <i16>(term >> 8));
        k++;
        continue;
      }
    }
    const entry = <i32>load<u16>(table + FAST + (peek << 1));
    let rs: i32;
    if (entry != 0) {
      k32 -= entry >> 8;
      rs = entry & 0xff;
    } else {
      bits = b;
      count = k32;
      pos = p;
      fill();
      rs = decode(table);
      if (count < 16) fill();
      b = bits;
      k32 = count;
      p = pos;
    }
    const s = rs & 15;
    if (s == 0) {
      if (rs != 0xf0) break;
      k += 16;
      continue;
    }
    k += rs >> 4;
    if (k32 < s) {
      bits = b;
      count = k32;
      pos = p;
      fill();
      b = bits;
      k32 = count;
      p = pos;
    }
    k32 -= s;
    if (k > 63) break;
    if (k <= lastZigzag) {
      const v = <i32>((b >> <u32>k32) & ((1 << s) - 1));
      store<i16>(at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1), <i16>(v < 1 << (s - 1) ? v - (1 << s) + 1 : v));
    }
    k++;
  }
  bits = b;
  count = k32;
  pos = p;
}

/**
 * One MCU row of an interleaved scan (or one block row of a one-component scan) into the
 * components' bands. Returns 1 when the file ended inside the row (zero bits were used past the
 * end: the caller reports a truncated file), else 0.
 */
export function decodeRow(): i32 {
  const n = components;
  if (n == 1) {
    const band = <usize>field(0, C_BAND);
    const cols = field(0, C_BLOCKS);
    for (let col = 0; col < cols; col++) {
      beforeMcu();
      sequential(0, band + (<usize>col << 7));
    }
  } else {
    const wide = mcusWide;
    for (let mx = 0; mx < wide; mx++) {
      beforeMcu();
      for (let c = 0; c < n; c++) {
        const h = field(c, C_H);
        const v = field(c, C_V);
        const storeWide = field(c, C_STORE);
        const band = <usize>field(c, C_BAND);
        for (let y = 0; y < v; y++) {
          const base = y * storeWide + mx * h;
          for (let x = 0; x < h; x++) sequential(c, band + (<usize>(base + x) << 7));
        }
      }
    }
  }
  return stop == 2 && overrun() > 0 ? 1 : 0;
}

/** jpeg-color.ts's YCbCr tables, i32[4][256]: CR_R, CB_G, CR_G, CB_B (copied in). */
let ycc: usize = 0;
export function setYcc(ptr: usize): void {
  ycc = ptr;
}

/** A Uint8ClampedArray store of an integer. */
@inline function clampedInt(p: usize, v: i32): void {
  store<u8>(p, <u8>(v < 0 ? 0 : v > 255 ? 255 : v));
}

/**
 * jpeg-color.ts ycbcrRow: one output row of RGBA at `out` from the rows of Y, Cb and Cr at p0..p2,
 * each output column x sampling column m[x] (nearest-sample upsampling), the same integer steps.
 */
export function ycbcrRow(out: usize, width: i32, p0: usize, m0: usize, p1: usize, m1: usize, p2: usize, m2: usize): void {
  const t = ycc;
  for (let x = 0; x < width; x++) {
    const xo = <usize>x << 2;
    const yy = (<i32>load<u8>(p0 + <usize>load<i32>(m0 + xo)) << 16) + 32768;
    const cb = <usize>load<u8>(p1 + <usize>load<i32>(m1 + xo)) << 2;
    const cr = <usize>load<u8>(p2 + <usize>load<i32>(m2 + xo)) << 2;
    const o = out + xo;
    clampedInt(o, (yy + load<i32>(t + cr)) >> 16);
    clampedInt(o + 1, (yy + load<i32>(t + 1024 + cb) + load<i32>(t + 2048 + cr)) >> 16);
    clampedInt(o + 2, (yy + load<i32>(t + 3072 + cb)) >> 16);
    store<u8>(o + 3, 255);
  }
}

// Progressive scans (T.81 G.1.2): jpeg-entropy.ts's DC first and refinement blocks (`dcFirstRow`,
// `dcRefineRow`, the same refills as `BitReader.decode` and `receive`), `acFirstBlock` and
// `refineBlock` line for line, walked as `decodeScan` walks a kept scan (the coefficient store's
// blocks in MCU order, restart intervals, a segment whose data ran out at a marker left as it is).
// The components (`component`, `history`) describe the whole coefficient store, firstRow 0.

/** The end-of-band run left (decodeScan's `state.eobrun`). */
let eobrun: i32 = 0;

/** Describes component `c`'s block history (`ComponentState.last`) and its block rows; after `component`. */
export function history(c: i32, last: usize, blocksHigh: i32): void {
  const at = comps + <usize>((c * C_FIELDS) << 2);
  store<i32>(at, <i32>last, C_HISTORY << 2);
  store<i32>(at, blocksHigh, C_BLOCKS_HIGH << 2);
}

/** A DC first scan's block (dcFirstRow's inner step): the difference added to the prediction, scaled by 2^Al. */
function dcFirstBlock(c: i32, at: usize, low: i32): void {
  const table = <usize>field(c, C_DC);
  let b = bits;
  let k = count;
  if (k < 16) {
    fill();
    b = bits;
    k = count;
  }
  const entry = <i32>load<u16>(table + FAST + (<usize>((b >> <u32>(k - FAST_BITS)) & FAST_MASK) << 1));
  let t: i32;
  if (entry != 0) {
    k -= entry >> 8;
    t = entry & 0xff;
  } else {
    count = k;
    t = decode(table);
    b = bits;
    k = count;
  }
  if (t > 11) {
    errorKind = 2;
    errorPos = t;
    unreachable();
  }
  let pred = field(c, C_PRED);
  if (t != 0) {
    if (k < t) {
      count = k;
      fill();
      b = bits;
      k = count;
    }
    k -= t;
    const d = <i32>(b >> <u32>k) & ((1 << t) - 1);
    pred += d + (((d >> (t - 1)) - 1) & (1 - (1 << t)));
    store<i32>(comps + <usize>((c * C_FIELDS + C_PRED) << 2), pred);
  }
  store<i16>(at, <i16>(pred << low));
  count = k;
}

/** A DC refinement scan's block: one bit, ORed in at 2^Al. */
@inline function dcRefineBlock(at: usize, low: i32): void {
  if (count < 1) fill();
  count--;
  if (((bits >> <u32>count) & 1) != 0) store<i16>(at, <i16>(<i32>load<i16>(at) | (1 << low)));
}

/** jpeg-entropy.ts acFirstBlock. */
function acFirstBlock(table: usize, at: usize, last: usize, start: i32, end: i32, low: i32): void {
  if (eobrun > 0) {
    eobrun--;
    return;
  }
  let b = bits;
  let k32 = count;
  let placed = 0;
  for (let k = start; k <= end; ) {
    if (k32 < 25) {
      count = k32;
      fill();
      b = bits;
      k32 = count;
    }
    const peek = <usize>((b >> <u32>(k32 - FAST_BITS)) & FAST_MASK);
    const term = load<i32>(table + FASTAC + (peek << 2));
    if (term != 0) {
      k32 -= term & 15;
      k += (term >> 4) & 15;
      if (k > 63) break;
      store<i16>(at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1), <i16>((term >> 8) << low));
      placed = k;
      k++;
      continue;
    }
    const entry = <i32>load<u16>(table + FAST + (peek << 1));
    let rs: i32;
    if (entry != 0) {
      k32 -= entry >> 8;
      rs = entry & 0xff;
    } else {
      count = k32;
      rs = decode(table);
      if (count < 16) fill();
      b = bits;
      k32 = count;
    }
    const s = rs & 15;
    const r = rs >> 4;
    if (s == 0) {
      if (r < 15) {
        let run = (1 << r) - 1;
        if (r > 0) {
          k32 -= r;
          run += <i32>(b >> <u32>k32) & ((1 << r) - 1);
        }
        eobrun = run;
        break;
      }
      k += 16;
      continue;
    }
    k += r;
    if (k > 63) break; // a run past the block: damaged data, the rest is dropped
    k32 -= s;
    const v = <i32>(b >> <u32>k32) & ((1 << s) - 1);
    store<i16>(at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1), <i16>((v + (((v >> (s - 1)) - 1) & (1 - (1 << s)))) << low));
    placed = k;
    k++;
  }
  if (placed > <i32>load<u8>(last)) store<u8>(last, <u8>placed);
  bits = b;
  count = k32;
}

/** jpeg-entropy.ts refineBlock. */
function refineBlock(table: usize, at: usize, last: usize, start: i32, end: i32, low: i32): void {
  const plus = 1 << low;
  let b = bits;
  let k32 = count;
  let k = start;
  let run = eobrun;
  let lastNonZero = <i32>load<u8>(last);
  if (run == 0) {
    for (; k <= end; k++) {
      if (k32 < 25) {
        count = k32;
        fill();
        b = bits;
        k32 = count;
      }
      const entry = <i32>load<u16>(table + FAST + (<usize>((b >> <u32>(k32 - FAST_BITS)) & FAST_MASK) << 1));
      let rs: i32;
      if (entry != 0) {
        k32 -= entry >> 8;
        rs = entry & 0xff;
      } else {
        count = k32;
        rs = decode(table);
        if (count < 16) fill();
        b = bits;
        k32 = count;
      }
      let r = rs >> 4;
      let value = 0;
      if ((rs & 15) != 0) {
        k32--;
        const clear = <i32>((b >> <u32>k32) & 1) - 1;
        value = (plus ^ clear) - clear;
      } else if (r != 15) {
        run = 1 << r;
        if (r > 0) {
          k32 -= r;
          run += <i32>(b >> <u32>k32) & ((1 << r) - 1);
        }
        break;
      }
      const stop = min(lastNonZero, end);
      for (; k <= stop; k++) {
        const i = at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1);
        const c = <i32>load<i16>(i);
        if (k32 == 0 && c != 0) {
          count = k32;
          fill();
          b = bits;
          k32 = count;
        }
        const nz = <i32>(<u32>(c | -c) >> 31);
        k32 -= nz;
        const sign = c >> 31;
        store<i16>(i, <i16>(c + (((plus ^ sign) - sign) & -(<i32>(b >> <u32>k32) & ~(c >> low) & nz))));
        r -= nz ^ 1;
        if (r < 0) break;
      }
      if (k > stop) {
        if (stop == end) continue;
        k += r;
      }
      if (value != 0 && k <= end) {
        store<i16>(at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1), <i16>value);
        if (k > lastNonZero) lastNonZero = k;
      }
    }
    store<u8>(last, <u8>lastNonZero);
  }
  if (run > 0) {
    const stop = min(lastNonZero, end);
    for (; k <= stop; k++) {
      const i = at + (<usize>load<u8>(ZIGZAG + <usize>k) << 1);
      const c = <i32>load<i16>(i);
      if (k32 == 0 && c != 0) {
        count = k32;
        fill();
        b = bits;
        k32 = count;
      }
      const nz = <i32>(<u32>(c | -c) >> 31);
      k32 -= nz;
      const sign = c >> 31;
      store<i16>(i, <i16>(c + (((plus ^ sign) - sign) & -(<i32>(b >> <u32>k32) & ~(c >> low) & nz))));
    }
    run--;
  }
  eobrun = run;
  bits = b;
  count = k32;
}

/**
 * One progressive scan (after `begin`, `setRestart`, and `component` and `history` for each of its
 * components), walked as decodeScan walks a kept scan. Returns 1 when the file ended inside a row
 * (zero bits were used past the end: the caller reports a truncated file), else 0; the reader's
 * `readerPos`, `readerStop` and `overrun` then say where it stopped.
 */
export function progressiveScan(start: i32, end: i32, high: i32, low: i32, mcusHigh: i32, kept: i32): i32 {
  const n = components;
  const single = n == 1;
  const rows = single ? field(0, C_BLOCKS_HIGH) : mcusHigh;
  const cols = single ? field(0, C_BLOCKS) : mcusWide;
  const kind = start == 0 ? (high == 0 ? 0 : 1) : high == 0 ? 2 : 3;
  for (let c = 0; c < n; c++) store<i32>(comps + <usize>((c * C_FIELDS + C_PRED) << 2), 0);
  eobrun = 0;
  let starved = false;
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      // decodeScan's `restart`: at an interval's end the reader, the predictions and the run start again.
      if (interval != 0) {
        if (untilRestart == 0) {
          const found = restartReader();
          if (kept != 0 && !found) return 0;
          starved = false;
          for (let c = 0; c < n; c++) store<i32>(comps + <usize>((c * C_FIELDS + C_PRED) << 2), 0);
          eobrun = 0;
          untilRestart = interval;
        }
        untilRestart--;
      }
      if (starved) continue;
      for (let c = 0; c < n; c++) {
        const bh = single ? 1 : field(c, C_H);
        const bv = single ? 1 : field(c, C_V);
        const storeWide = field(c, C_STORE);
        const band = <usize>field(c, C_BAND);
        const last = <usize>field(c, C_HISTORY);
        const table = <usize>field(c, C_AC);
        for (let v = 0; v < bv; v++) {
          const base = (row * bv + v) * storeWide + col * bh;
          for (let h = 0; h < bh; h++) {
            const block = <usize>(base + h);
            const at = band + (block << 7);
            if (kind == 0) dcFirstBlock(c, at, low);
            else if (kind == 1) dcRefineBlock(at, low);
            else if (kind == 2) acFirstBlock(table, at, last + block, start, end, low);
            else refineBlock(table, at, last + block, start, end, low);
          }
        }
      }
      // decodeScan's `ranOut`: a kept scan's data ran out at a marker.
      if (stop != 0 && kept != 0 && stop == 1 && overrun() > 0) {
        if (interval == 0) return 0;
        starved = true;
      }
    }
    if (stop == 2 && overrun() > 0) return 1;
  }
  return 0;
}
