/**
 * Test images made with the encoders the decoders are checked against (fast-png, jpeg-js,
 * omggif's GifWriter), each with the RGBA the decoder must produce, computed here from the
 * encoder's input and never from the decoder.
 */
import { crc32 } from 'node:zlib';
import { encode as encodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import omggif from 'omggif';

/** An encoded image and the RGBA raster it holds. */
export interface CorpusImage {
  readonly name: string;
  readonly format: 'png' | 'jpeg' | 'gif';
  readonly bytes: Uint8Array;
  readonly width: number;
  readonly height: number;
  /** Expected RGBA of every frame. */
  readonly frames: readonly Uint8Array[];
  /** Expected delays in ms, per frame. */
  readonly delays?: readonly number[];
  /** Largest allowed difference per channel (lossy formats). */
  readonly tolerance?: number;
}

/** A deterministic pseudo-random byte source, so failures reproduce. */
export function bytesFrom(seed: number, length: number, max = 255): number[] {
  let s = seed >>> 0 || 1;
  const out: number[] = [];
  for (let i = 0; i < length; i++) {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    out.push((s >>> 0) % (max + 1));
  }
  return out;
}

/** Packs samples of `depth` bits into bytes, rows padded to a whole byte (PNG's layout). */
function packRows(samples: number[], width: number, height: number, depth: number): Uint8Array {
  const rowBytes = Math.ceil((width * depth) / 8);
  const out = new Uint8Array(rowBytes * height);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const bit = x * depth;
      out[y * rowBytes + (bit >> 3)]! |= samples[y * width + x]! << (8 - depth - (bit & 7));
    }
  }
  return out;
}

/** A PNG chunk with its length and CRC. */
export function pngChunk(type: string, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + body.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, body.length);
  out.set(Buffer.from(type, 'latin1'), 4);
  out.set(body, 8);
  view.setUint32(8 + body.length, crc32(out.subarray(4, 8 + body.length)));
  return out;
}

/** Inserts `chunk` into a PNG just before its first IDAT. */
export function insertBeforeIdat(png: Uint8Array, chunk: Uint8Array): Uint8Array {
  const at = Buffer.from(png).indexOf('IDAT') - 4;
  return new Uint8Array(Buffer.concat([png.subarray(0, at), chunk, png.subarray(at)]));
}

const W = 7;
const H = 5;
const N = W * H;

function rgbaFrom(n: number, pixel: (i: number) => [number, number, number, number]): Uint8Array {
  const out = new Uint8Array(n * 4);
  for (let i = 0; i < n; i++) out.set(pixel(i), i * 4);
  return out;
}

/** The valid PNGs: every colour type and depth fast-png writes, plus tRNS and Adam7. */
export function pngCorpus(): CorpusImage[] {
  const images: CorpusImage[] = [];
  const add = (name: string, bytes: Uint8Array, rgba: Uint8Array, width = W, height = H) =>
    images.push({ name, format: 'png', bytes, width, height, frames: [rgba] });

  const rgb = bytesFrom(1, N * 3);
  add(
    'png rgb 8',
    encodePng({ width: W, height: H, data: Uint8Array.from(rgb), channels: 3, depth: 8 }),
    rgbaFrom(N, (i) => [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!, 255]),
  );
  const rgba = bytesFrom(2, N * 4);
  add(
    'png rgba 8',
    encodePng({ width: W, height: H, data: Uint8Array.from(rgba), channels: 4, depth: 8 }),
    Uint8Array.from(rgba),
  );
  add(
    'png rgba 8 adam7',
    encodePng({ width: W, height: H, data: Uint8Array.from(rgba), channels: 4, depth: 8 }, { interlace: 'Adam7' }),
    Uint8Array.from(rgba),
  );
  const grey = bytesFrom(3, N);
  add(
    'png grey 8',
    encodePng({ width: W, height: H, data: Uint8Array.from(grey), channels: 1, depth: 8 }),
    rgbaFrom(N, (i) => [grey[i]!, grey[i]!, grey[i]!, 255]),
  );
  const ga = bytesFrom(4, N * 2);
  add(
    'png grey+alpha 8',
    encodePng({ width: W, height: H, data: Uint8Array.from(ga), channels: 2, depth: 8 }),
    rgbaFrom(N, (i) => [ga[i * 2]!, ga[i * 2]!, ga[i * 2]!, ga[i * 2 + 1]!]),
  );
  const to8 = (v: number) => Math.round((v * 255) / 65535);
  const rgb16 = bytesFrom(5, N * 3, 65535);
  add(
    'png rgb 16',
    encodePng({ width: W, height: H, data: Uint16Array.from(rgb16), channels: 3, depth: 16 }),
    rgbaFrom(N, (i) => [to8(rgb16[i * 3]!), to8(rgb16[i * 3 + 1]!), to8(rgb16[i * 3 + 2]!), 255]),
  );
  const rgba16 = bytesFrom(6, N * 4, 65535);
  add(
    'png rgba 16',
    encodePng({ width: W, height: H, data: Uint16Array.from(rgba16), channels: 4, depth: 16 }),
    rgbaFrom(N, (i) => [0, 1, 2, 3].map((c) => to8(rgba16[i * 4 + c]!)) as [number, number, number, number]),
  );
  const grey16 = bytesFrom(7, N, 65535);
  add(
    'png grey 16',
    encodePng({ width: W, height: H, data: Uint16Array.from(grey16), channels: 1, depth: 16 }),
    rgbaFrom(N, (i) => [to8(grey16[i]!), to8(grey16[i]!), to8(grey16[i]!), 255]),
  );
  const ga16 = bytesFrom(8, N * 2, 65535);
  add(
    'png grey+alpha 16',
    encodePng({ width: W, height: H, data: Uint16Array.from(ga16), channels: 2, depth: 16 }),
    rgbaFrom(N, (i) => [to8(ga16[i * 2]!), to8(ga16[i * 2]!), to8(ga16[i * 2]!), to8(ga16[i * 2 + 1]!)]),
  );

  for (const depth of [1, 2, 4] as const) {
    const max = (1 << depth) - 1;
    const samples = bytesFrom(10 + depth, N, max);
    const v = (s: number) => Math.round((s * 255) / max);
    add(
      `png grey ${depth}`,
      encodePng({ width: W, height: H, data: packRows(samples, W, H, depth), channels: 1, depth }),
      rgbaFrom(N, (i) => [v(samples[i]!), v(samples[i]!), v(samples[i]!), 255]),
    );
  }

  const palette = [
    [255, 0, 0],
    [0, 200, 0],
    [0, 0, 255],
    [250, 250, 10],
    [9, 9, 9],
  ];
  const indices = bytesFrom(20, N, palette.length - 1);
  add(
    'png palette 8',
    encodePng({ width: W, height: H, data: Uint8Array.from(indices), channels: 1, depth: 8, palette }),
    rgbaFrom(N, (i) => [...palette[indices[i]!]!, 255] as [number, number, number, number]),
  );
  const paletteAlpha = palette.map((c, i) => [...c, i * 60]);
  add(
    'png palette 8 + tRNS',
    encodePng({ width: W, height: H, data: Uint8Array.from(indices), channels: 1, depth: 8, palette: paletteAlpha }),
    rgbaFrom(N, (i) => paletteAlpha[indices[i]!] as [number, number, number, number]),
  );
  const idx4 = bytesFrom(21, N, 3);
  add(
    'png palette 2-bit',
    encodePng({
      width: W,
      height: H,
      data: packRows(idx4, W, H, 2),
      channels: 1,
      depth: 2,
      palette: palette.slice(0, 4),
    }),
    rgbaFrom(N, (i) => [...palette[idx4[i]!]!, 255] as [number, number, number, number]),
  );

  // tRNS colour keys on grey and RGB, added by hand: fast-png writes tRNS only for palettes.
  const keyGrey = grey[3]!;
  const trnsGrey = pngChunk('tRNS', Uint8Array.of(0, keyGrey));
  add(
    'png grey 8 + tRNS key',
    insertBeforeIdat(encodePng({ width: W, height: H, data: Uint8Array.from(grey), channels: 1, depth: 8 }), trnsGrey),
    rgbaFrom(N, (i) => [grey[i]!, grey[i]!, grey[i]!, grey[i] === keyGrey ? 0 : 255]),
  );
  const key = [rgb[9]!, rgb[10]!, rgb[11]!];
  const trnsRgb = pngChunk('tRNS', Uint8Array.of(0, key[0]!, 0, key[1]!, 0, key[2]!));
  add(
    'png rgb 8 + tRNS key',
    insertBeforeIdat(encodePng({ width: W, height: H, data: Uint8Array.from(rgb), channels: 3, depth: 8 }), trnsRgb),
    rgbaFrom(N, (i) => {
      const p = [rgb[i * 3]!, rgb[i * 3 + 1]!, rgb[i * 3 + 2]!] as const;
      return [...p, p[0] === key[0] && p[1] === key[1] && p[2] === key[2] ? 0 : 255];
    }),
  );
  const one = Uint8Array.of(12, 34, 56, 78);
  add('png 1x1', encodePng({ width: 1, height: 1, data: one, channels: 4, depth: 8 }), one, 1, 1);
  return images;
}

/** A smooth picture, so a lossy JPEG stays close to it. */
export function smoothRgba(width: number, height: number): Uint8Array {
  return rgbaFrom(width * height, (i) => {
    const x = i % width;
    const y = Math.floor(i / width);
    return [Math.round((x * 255) / (width - 1)), Math.round((y * 255) / (height - 1)), 128, 255];
  });
}

/** A JPEG of a smooth gradient, with its source as the expected picture (compared with a tolerance). */
export function jpegCorpus(): CorpusImage[] {
  return [
    [64, 48],
    [33, 17],
  ].map(([w, h]) => {
    const rgba = smoothRgba(w!, h!);
    const bytes = new Uint8Array(jpeg.encode({ width: w!, height: h!, data: rgba }, 95).data);
    return {
      name: `jpeg ${w}x${h}`,
      format: 'jpeg' as const,
      bytes,
      width: w!,
      height: h!,
      frames: [rgba],
      tolerance: 24,
    };
  });
}

/** An 8-colour palette as omggif wants it (0xRRGGBB numbers) and as RGB triples. */
const GIF_PALETTE = [0x000000, 0xff0000, 0x00ff00, 0x0000ff, 0xffff00, 0x00ffff, 0xff00ff, 0xffffff];
const rgbOf = (i: number): [number, number, number] => [
  (GIF_PALETTE[i]! >> 16) & 255,
  (GIF_PALETTE[i]! >> 8) & 255,
  GIF_PALETTE[i]! & 255,
];

/** One frame of a test GIF. */
interface GifFrameSpec {
  x: number;
  y: number;
  w: number;
  h: number;
  seed: number;
  delay: number;
  disposal: 0 | 1 | 2 | 3;
  transparent?: number;
  /** Rows stored in the four interlace passes (the descriptor's flag set). */
  interlaced?: boolean;
}

/** The stored order of an interlaced frame's rows: 0, 8, 16…; 4, 12…; 2, 6…; 1, 3… (GIF89a appendix E). */
export function interlacedRows(height: number): number[] {
  const rows: number[] = [];
  for (const [first, step] of [
    [0, 8],
    [4, 8],
    [2, 4],
    [1, 2],
  ] as const)
    for (let y = first; y < height; y += step) rows.push(y);
  return rows;
}

/** Encodes frames with omggif's GifWriter. */
function writeGif(
  width: number,
  height: number,
  frames: readonly GifFrameSpec[],
  pixelsOf: (f: GifFrameSpec) => number[],
): Uint8Array {
  const buffer = new Uint8Array(4096 + width * height * frames.length * 2);
  const writer = new omggif.GifWriter(buffer, width, height, { palette: GIF_PALETTE, loop: 0 });
  for (const f of frames) {
    const start = writer.getOutputBufferPosition();
    const pixels = pixelsOf(f);
    const stored = f.interlaced ? interlacedRows(f.h).flatMap((y) => pixels.slice(y * f.w, (y + 1) * f.w)) : pixels;
    writer.addFrame(f.x, f.y, f.w, f.h, stored, {
      delay: f.delay,
      disposal: f.disposal,
      ...(f.transparent !== undefined ? { transparent: f.transparent } : {}),
    });
    if (f.interlaced) {
      // omggif writes no interlaced frames: set the flag on the descriptor after the rows were reordered.
      const descriptor = buffer[start] === 0x21 ? start + 8 : start;
      if (buffer[descriptor] !== 0x2c) throw new Error('test GIF layout changed');
      buffer[descriptor + 9] = (buffer[descriptor + 9] as number) | 0x40;
    }
  }
  return buffer.slice(0, writer.end());
}

/**
 * Composites GIF frames the way the spec and browsers do, from the frame specs (a model the
 * decoder is compared with): transparent start, disposal 2 clears to transparent, 3 restores.
 */
function compositeModel(
  width: number,
  height: number,
  frames: readonly GifFrameSpec[],
  pixelsOf: (f: GifFrameSpec) => number[],
): Uint8Array[] {
  let canvas = new Uint8Array(width * height * 4);
  const out: Uint8Array[] = [];
  for (const f of frames) {
    const before = canvas.slice();
    const px = pixelsOf(f);
    for (let y = 0; y < f.h; y++) {
      for (let x = 0; x < f.w; x++) {
        const index = px[y * f.w + x]!;
        const cx = f.x + x;
        const cy = f.y + y;
        if (index === f.transparent || cx >= width || cy >= height) continue;
        canvas.set([...rgbOf(index), 255], (cy * width + cx) * 4);
      }
    }
    out.push(canvas.slice());
    if (f.disposal === 2) {
      for (let y = f.y; y < Math.min(height, f.y + f.h); y++)
        for (let x = f.x; x < Math.min(width, f.x + f.w); x++)
          canvas.fill(0, (y * width + x) * 4, (y * width + x + 1) * 4);
    } else if (f.disposal === 3) {
      canvas = before;
    }
  }
  return out;
}

/** GIFs: one frame; an animation exercising offsets, transparency and every disposal. */
export function gifCorpus(): CorpusImage[] {
  const pixelsOf = (f: GifFrameSpec) => bytesFrom(f.seed, f.w * f.h, 7);
  const make = (name: string, width: number, height: number, frames: GifFrameSpec[]): CorpusImage => ({
    name,
    format: 'gif',
    bytes: writeGif(width, height, frames, pixelsOf),
    width,
    height,
    frames: compositeModel(width, height, frames, pixelsOf),
    delays: frames.length > 1 ? frames.map((f) => (f.delay <= 1 ? 100 : f.delay * 10)) : [0],
  });
  return [
    make('gif single', 9, 6, [{ x: 0, y: 0, w: 9, h: 6, seed: 30, delay: 0, disposal: 0 }]),
    make('gif animated, disposals 1 2 3 0', 12, 8, [
      { x: 0, y: 0, w: 12, h: 8, seed: 31, delay: 5, disposal: 1 },
      { x: 2, y: 1, w: 5, h: 4, seed: 32, delay: 0, disposal: 2, transparent: 0 },
      { x: 4, y: 3, w: 6, h: 5, seed: 33, delay: 20, disposal: 3, transparent: 1 },
      { x: 1, y: 2, w: 3, h: 3, seed: 34, delay: 1, disposal: 0, transparent: 2 },
    ]),
  ];
}

/**
 * GIFs for what the compositor must get right beyond the two above: interlacing (with passes that
 * have no rows), each disposal on its own, transparency on the first frame, frames past the
 * screen's right and bottom edges.
 */
export function gifFeatureCorpus(): CorpusImage[] {
  const pixelsOf = (f: GifFrameSpec) => bytesFrom(f.seed, f.w * f.h, 7);
  const make = (name: string, width: number, height: number, frames: GifFrameSpec[]): CorpusImage => ({
    name,
    format: 'gif',
    bytes: writeGif(width, height, frames, pixelsOf),
    width,
    height,
    frames: compositeModel(width, height, frames, pixelsOf),
    delays: frames.length > 1 ? frames.map((f) => (f.delay <= 1 ? 100 : f.delay * 10)) : [0],
  });
  const full = (seed: number, w: number, h: number): GifFrameSpec => ({
    x: 0,
    y: 0,
    w,
    h,
    seed,
    delay: 4,
    disposal: 1,
  });
  return [
    make('gif interlaced, 19 rows (all four passes)', 7, 19, [{ ...full(50, 7, 19), interlaced: true }]),
    make('gif interlaced, 3 rows (the 4-row pass is empty)', 5, 3, [{ ...full(51, 5, 3), interlaced: true }]),
    make('gif interlaced, 1 row', 6, 1, [{ ...full(52, 6, 1), interlaced: true }]),
    make('gif interlaced frame at an offset, transparent, over a plain one', 10, 12, [
      full(53, 10, 12),
      { x: 2, y: 1, w: 6, h: 10, seed: 54, delay: 4, disposal: 0, transparent: 3, interlaced: true },
    ]),
    make('gif disposal 2 clears only its rectangle to transparent', 8, 6, [
      full(55, 8, 6),
      { x: 2, y: 2, w: 3, h: 2, seed: 56, delay: 4, disposal: 2 },
      { x: 0, y: 0, w: 8, h: 6, seed: 57, delay: 4, disposal: 1, transparent: 0 },
    ]),
    make('gif disposal 3 restores the picture before the frame', 8, 6, [
      full(58, 8, 6),
      { x: 1, y: 1, w: 5, h: 4, seed: 59, delay: 4, disposal: 3 },
      { x: 4, y: 3, w: 4, h: 3, seed: 60, delay: 4, disposal: 1, transparent: 1 },
    ]),
    make('gif disposal 3 on the first frame restores to transparent', 6, 5, [
      { x: 1, y: 1, w: 3, h: 3, seed: 61, delay: 4, disposal: 3 },
      { x: 3, y: 2, w: 3, h: 3, seed: 62, delay: 4, disposal: 1 },
    ]),
    make('gif disposal 0 and 1 keep the frame', 7, 5, [
      { x: 0, y: 0, w: 4, h: 5, seed: 63, delay: 4, disposal: 0 },
      { x: 3, y: 0, w: 4, h: 5, seed: 64, delay: 4, disposal: 1 },
      { x: 2, y: 1, w: 3, h: 3, seed: 65, delay: 4, disposal: 0, transparent: 2 },
    ]),
    // The second frame has no graphic control extension: the first one's transparent index is not its.
    make('gif a transparent index applies to its own frame only', 6, 4, [
      { x: 0, y: 0, w: 6, h: 4, seed: 71, delay: 4, disposal: 1, transparent: 0 },
      { x: 1, y: 1, w: 4, h: 3, seed: 72, delay: 0, disposal: 0 },
    ]),
    make('gif transparent pixels in the first frame stay transparent', 9, 4, [
      { x: 0, y: 0, w: 9, h: 4, seed: 66, delay: 0, disposal: 0, transparent: 0 },
    ]),
    make('gif frames past the right and bottom edges, cleared by disposal 2', 6, 5, [
      full(67, 6, 5),
      { x: 4, y: 3, w: 7, h: 6, seed: 68, delay: 4, disposal: 2, interlaced: true },
      { x: 5, y: 0, w: 3, h: 9, seed: 69, delay: 4, disposal: 1, transparent: 4 },
      { x: 9, y: 9, w: 2, h: 2, seed: 70, delay: 4, disposal: 1 },
    ]),
  ];
}

/** A GIF whose second frame reaches past the logical screen (clipped, never wrapped into the next row). */
export function gifFramePastScreen(): CorpusImage {
  const pixelsOf = (f: GifFrameSpec) => bytesFrom(f.seed, f.w * f.h, 7);
  const frames: GifFrameSpec[] = [
    { x: 0, y: 0, w: 6, h: 4, seed: 40, delay: 10, disposal: 1 },
    { x: 0, y: 0, w: 6, h: 4, seed: 41, delay: 10, disposal: 1 },
  ];
  const buffer = new Uint8Array(4096);
  const writer = new omggif.GifWriter(buffer, 6, 4, { palette: GIF_PALETTE, loop: 0 });
  const afterFirst = writer.addFrame(0, 0, 6, 4, pixelsOf(frames[0]!), { delay: 10, disposal: 1 });
  writer.addFrame(0, 0, 6, 4, pixelsOf(frames[1]!), { delay: 10, disposal: 1 });
  const bytes = buffer.slice(0, writer.end());
  // Move the second frame to x=3 (its descriptor follows an 8-byte graphic control extension):
  // its right half now lies outside the 6-pixel-wide screen.
  if (bytes[afterFirst + 8] !== 0x2c) throw new Error('test GIF layout changed');
  bytes[afterFirst + 9] = 3;
  const moved = [frames[0]!, { ...frames[1]!, x: 3 }];
  return {
    name: 'gif frame past the screen',
    format: 'gif',
    bytes,
    width: 6,
    height: 4,
    frames: compositeModel(6, 4, moved, pixelsOf),
    delays: [100, 100],
  };
}
