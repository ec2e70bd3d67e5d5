/**
 * termsight's JPEG decoder: baseline, extended sequential and progressive Huffman-coded JPEG with
 * 8-bit samples, any sampling factors, restart intervals, grey, YCbCr, RGB and Adobe CMYK/YCCK;
 * decoded at full size or reduced 2, 4 or 8 times in the DCT domain, and turned upright by its
 * EXIF orientation. Every size is checked before anything is allocated from it. Why it is built
 * this way (memory, the end of the data, tolerance): docs/decode.md, "JPEG".
 */
import { u16be } from '../core/bytes.js';
import { type Orientation, orient, swapsAxes } from '../core/orientation.js';
import type { Raster } from '../core/raster.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import { checkDimensions } from './header.js';
import { type IccChunk, joinIccChunks, parseIccChunk } from './icc-chunks.js';
import { type ColourInfo, DEFAULT_DECODE_LIMITS, type DecodeLimits } from './image.js';
import { BitReader, entropyDataEnd, Stop } from './jpeg-bits.js';
import { type ColourModel, colourModel, columnMap, type Plane, writeRows } from './jpeg-color.js';
import { type ComponentState, decodeScan, type ScanPart, truncated } from './jpeg-entropy.js';
import {
  type BaselineScan,
  type ColourJob,
  decodeBandWasm,
  type JpegWasm,
  wasmCanDecode,
} from './jpeg-entropy-wasm.js';
import { type BlockSize, coefficientsRead, dequantizer, idctFor } from './jpeg-idct.js';
import { skippableScans } from './jpeg-progression.js';
import { decodeProgressiveScanWasm, placeStores, transformStoreWasm, type WasmStore } from './jpeg-progressive-wasm.js';
import {
  type FrameHeader,
  type HuffmanTable,
  isExifSegment,
  isFrameMarker,
  isStandalone,
  Marker,
  parseAdobeTransform,
  parseFrameHeader,
  parseHuffmanTables,
  parseQuantTables,
  parseRestartInterval,
  parseScanHeader,
} from './jpeg-segments.js';
import { jpegWasm } from './jpeg-wasm-load.js';

/** How to decode a JPEG. */
export interface JpegDecodeOptions {
  /** Size limits, checked against the frame header before anything is allocated. */
  readonly limits?: DecodeLimits;
  /**
   * The most pixels the caller will draw (after orientation). The decoder picks the smallest DCT
   * scale (1/8, 1/4, 1/2 or 1) whose picture is still at least this large on both axes.
   */
  readonly maxSize?: { readonly width: number; readonly height: number } | undefined;
  /** `'apply'` (default) turns the picture upright by its EXIF orientation; `'ignore'` keeps it as stored. */
  readonly orientation?: 'apply' | 'ignore' | undefined;
  /**
   * The WebAssembly decoder (entropy decoding and inverse transforms) for a sequential scan it can
   * take (jpeg-entropy-wasm.ts), with the same result: by default (undefined) the module the
   * package ships, compiled on first use; an instance's exports to use those; `false` for the
   * TypeScript decoder alone (the reference).
   */
  readonly wasm?: JpegWasm | false | undefined;
}

/** A decoded JPEG. */
export interface DecodedJpeg {
  /** The picture as decoded: scaled, and upright unless orientation was ignored. */
  readonly raster: Raster;
  /** The size the file declares, as stored (before scaling and orientation). */
  readonly sourceWidth: number;
  readonly sourceHeight: number;
  /** How many times smaller than the stored size each side was decoded: 1, 2, 4 or 8. */
  readonly scale: 1 | 2 | 4 | 8;
  /** The EXIF orientation the file declares (1 when it declares none), whether applied or not. */
  readonly orientation: Orientation;
  /** The colour the file declares: its ICC profile (APP2 chunks joined) and what its pixels are; colour.ts applies it. */
  readonly colour: ColourInfo;
}

/** More scans than any encoder writes (libjpeg's progression has 10); a bound on the work a file can ask for. */
export const MAX_SCANS = 256;

/**
 * How many times, on average, the scans may go over each coefficient. libjpeg's progression goes
 * over each about 3 times (a band, then its refinements); a file whose scans would go past this
 * asks for work out of proportion to its size (an AC refinement scan of a whole image can be a
 * few bytes long), so it is refused before that scan is decoded.
 */
export const MAX_PASSES = 32;

/**
 * The fewest bits a block's data can take: a sequential block needs a DC code and an end-of-block
 * code (each at least one bit); a progressive file's first DC scan still needs one bit a block.
 * A file smaller than half of that for its declared size cannot be a whole image.
 */
const MIN_BITS_PER_BLOCK = { sequential: 2, progressive: 1 } as const;

/**
 * The DCT scale for a picture of `width` x `height` that will be drawn at most `box` large: the
 * largest of 8, 4, 2 whose reduced picture still covers the box on both axes, else 1.
 *
 * @example
 * jpegScale(4000, 3000, { width: 1000, height: 600 }); // 4 (1000x750)
 */
export function jpegScale(
  width: number,
  height: number,
  box: { readonly width: number; readonly height: number } | undefined,
): 1 | 2 | 4 | 8 {
  if (!box) return 1;
  for (const d of [8, 4, 2] as const)
    if (Math.ceil(width / d) >= box.width && Math.ceil(height / d) >= box.height) return d;
  return 1;
}

/** The frame's components, their stores, and the output they are turned into. */
interface Frame {
  readonly header: FrameHeader;
  readonly components: ComponentState[];
  /** Quantization multipliers per component, latched at its first scan. */
  readonly quant: (Float64Array | null)[];
  readonly hmax: number;
  readonly vmax: number;
  readonly mcusWide: number;
  readonly mcusHigh: number;
  /** Blocks that hold samples, over all components. */
  readonly blocks: number;
  readonly blockSize: BlockSize;
  /** Each component's block size (see `componentBlockSize`). */
  readonly sizes: readonly BlockSize[];
  readonly width: number;
  readonly height: number;
  /** 'band': one MCU row at a time (a single sequential scan with every component); 'store': the whole image. */
  mode: 'band' | 'store' | null;
  done: boolean;
}

function corrupt(message: string): never {
  throw new DecodeError('corrupt', `corrupt JPEG: ${message}`);
}

/** Checks the frame header against the limits and the file's size, and lays out its components. */
function planFrame(
  header: FrameHeader,
  limits: DecodeLimits,
  bytesLeft: number,
  complete: boolean,
  blockSize: BlockSize,
): Omit<Frame, 'mode' | 'done'> {
  const { width, height } = header;
  checkDimensions(width, height, limits, 'jpeg');
  const hmax = Math.max(...header.components.map((c) => c.h));
  const vmax = Math.max(...header.components.map((c) => c.v));
  const mcusWide = Math.ceil(width / (8 * hmax));
  const mcusHigh = Math.ceil(height / (8 * vmax));
  let blocks = 0;
  const components = header.components.map((c): ComponentState => {
    const blocksWide = Math.ceil(Math.ceil((width * c.h) / hmax) / 8);
    const blocksHigh = Math.ceil(Math.ceil((height * c.v) / vmax) / 8);
    blocks += blocksWide * blocksHigh;
    return {
      h: c.h,
      v: c.v,
      blocksWide,
      blocksHigh,
      storeWide: mcusWide * c.h,
      coefs: new Int16Array(0),
      last: new Uint8Array(0),
      firstRow: 0,
      pred: 0,
    };
  });
  const minBits = header.progressive ? MIN_BITS_PER_BLOCK.progressive : MIN_BITS_PER_BLOCK.sequential;
  if (bytesLeft * 8 * 2 < blocks * minBits) {
    // A whole file (it ends with EOI) that is this small lies about its size; one without EOI may
    // simply be cut short.
    const kind = complete ? 'corrupt' : 'truncated';
    throw new DecodeError(
      kind,
      `${kind} JPEG: ${bytesLeft} bytes of data cannot hold the ${blocks} blocks of a ${width}x${height} image (at least ${minBits} bits a block)`,
    );
  }
  const d = 8 / blockSize;
  return {
    header,
    components,
    quant: components.map(() => null),
    hmax,
    vmax,
    mcusWide,
    mcusHigh,
    blocks,
    blockSize,
    sizes: components.map((c) => componentBlockSize(blockSize, c.h, c.v, hmax, vmax)),
    width: Math.ceil(width / d),
    height: Math.ceil(height / d),
  };
}

/**
 * The block size a component is inverse-transformed to. A subsampled component is transformed
 * larger (4:2:0 chroma at scale 1/8 gives 2x2, not 1x1 then upsampled), as libjpeg does, when its
 * factors divide the frame's evenly on both axes: the picture keeps chroma detail for nearly no cost.
 */
export function componentBlockSize(blockSize: BlockSize, h: number, v: number, hmax: number, vmax: number): BlockSize {
  if (hmax % h !== 0 || vmax % v !== 0 || hmax / h !== vmax / v) return blockSize;
  const size = blockSize * (hmax / h);
  return size === 1 || size === 2 || size === 4 || size === 8 ? size : blockSize;
}

/** Turns decoded coefficients into RGBA, one MCU row at a time. */
class Output {
  readonly data: Uint8ClampedArray;
  private readonly planes: {
    data: Uint8ClampedArray;
    stride: number;
    firstRow: number;
    rowsPer: number;
    rowsOf: number;
  }[];
  private readonly maps: Int32Array[];
  private readonly sizes: BlockSize[];

  constructor(
    private readonly frame: Frame,
    private readonly model: ColourModel,
  ) {
    const bs = frame.blockSize;
    this.data = new Uint8ClampedArray(frame.width * frame.height * 4);
    this.sizes = frame.components.map((c) => frame.sizes[frame.components.indexOf(c)] as BlockSize);
    this.planes = frame.components.map((c, i) => {
      const size = this.sizes[i] as BlockSize;
      return {
        data: new Uint8ClampedArray(c.storeWide * size * c.v * size),
        stride: c.storeWide * size,
        firstRow: 0,
        rowsPer: c.v * size,
        rowsOf: frame.vmax * bs,
      };
    });
    this.maps = frame.components.map((c, i) =>
      columnMap(frame.width, c.h * (this.sizes[i] as number), frame.hmax * bs),
    );
  }

  /** What the WebAssembly module needs to write this picture's RGBA: YCbCr only. */
  colourJob(): ColourJob | undefined {
    const { frame } = this;
    if (this.model !== 'ycbcr') return undefined;
    const rowsOf = frame.vmax * frame.blockSize;
    return { out: this.data, width: frame.width, height: frame.height, rowsOf, maps: this.maps };
  }

  /**
   * Inverse-transforms MCU row `my` of every component and writes the output rows it covers;
   * `transformed`: the row's planes as the WebAssembly transform wrote them, by frame component;
   * `coloured`: the module wrote the row's RGBA too.
   */
  row(my: number, transformed?: readonly Uint8ClampedArray[], coloured = false): void {
    const { frame } = this;
    for (let i = 0; i < frame.components.length; i++) {
      const c = frame.components[i] as ComponentState;
      const plane = this.planes[i] as Plane & { firstRow: number; data: Uint8ClampedArray };
      if (transformed) {
        plane.firstRow = my * c.v * (this.sizes[i] as number);
        plane.data = transformed[i] as Uint8ClampedArray;
        continue;
      }
      const q = frame.quant[i] as Float64Array;
      const size = this.sizes[i] as BlockSize;
      const idct = idctFor(size);
      plane.firstRow = my * c.v * size;
      for (let v = 0; v < c.v; v++) {
        const blockRow = my * c.v + v;
        if (blockRow >= c.blocksHigh) break;
        const from = (blockRow - c.firstRow) * c.storeWide * 64;
        const to = v * size * plane.stride;
        for (let bx = 0; bx < c.blocksWide; bx++)
          idct(c.coefs, from + bx * 64, q, plane.data, to + bx * size, plane.stride);
      }
    }
    if (coloured) return; // the module wrote the RGBA rows (colourJob)
    const y0 = my * frame.vmax * frame.blockSize;
    const y1 = Math.min(frame.height, y0 + frame.vmax * frame.blockSize);
    writeRows(this.model, this.planes, this.maps, this.data, frame.width, y0, y1);
  }
}

/**
 * Decodes a JPEG file to RGBA8; throws `DecodeError` (`truncated`, `corrupt`, `too-large`,
 * `unsupported`).
 *
 * @example
 * const { raster, sourceWidth } = decodeJpeg(bytes, { maxSize: { width: 1000, height: 600 } });
 */
export function decodeJpeg(bytes: Uint8Array, options: JpegDecodeOptions = {}): DecodedJpeg {
  const limits = options.limits ?? DEFAULT_DECODE_LIMITS;
  const end = bytes.length;
  if (end < 2 || bytes[0] !== 0xff || bytes[1] !== Marker.SOI) corrupt('no start-of-image marker');
  const quantTables: (Uint16Array | null)[] = [null, null, null, null];
  const dcTables: (HuffmanTable | null)[] = [null, null, null, null];
  const acTables: (HuffmanTable | null)[] = [null, null, null, null];
  let restartInterval = 0;
  let adobe: number | null = null;
  let orientation: Orientation | null = null;
  const iccChunks: IccChunk[] = [];
  let frame: Frame | null = null;
  let output: Output | null = null;
  let scans = 0;
  /** Coefficients the scans so far have gone over, for MAX_PASSES. */
  let passes = 0;
  let ended = false;
  /** Progressive scans (numbered from 0) a scaled decode steps over; see jpeg-progression.ts. */
  let skipped: ReadonlySet<number> | null = null;
  /** A progressive file's coefficient stores in the WebAssembly module, which decodes its scans. */
  let store: WasmStore | null = null;

  let p = 2;
  while (p < end) {
    if (bytes[p] !== 0xff) {
      // Stray bytes between segments: skipped after the first scan, as libjpeg does.
      if (scans === 0) corrupt(`no marker at byte ${p}`);
      const next = bytes.indexOf(0xff, p);
      if (next < 0) break;
      p = next;
    }
    while (bytes[p + 1] === 0xff) p++; // fill bytes
    if (p + 1 >= end) throw new DecodeError('truncated', 'truncated JPEG: the file ends inside a marker');
    const marker = bytes[p + 1] as number;
    p += 2;
    if (marker === Marker.EOI) {
      ended = true;
      break;
    }
    if (isStandalone(marker)) continue;
    if (p + 2 > end) throw new DecodeError('truncated', 'truncated JPEG: the file ends inside a marker');
    const length = u16be(bytes, p);
    if (length < 2) corrupt(`marker segment of length ${length}`);
    if (p + length > end) throw new DecodeError('truncated', 'truncated JPEG: the file ends inside a marker segment');
    const body = bytes.subarray(p + 2, p + length);
    p += length;

    if (isFrameMarker(marker)) {
      if (frame) corrupt('a second frame header');
      const header = parseFrameHeader(marker, body);
      const apply = options.orientation !== 'ignore' && orientation !== null && swapsAxes(orientation);
      const box =
        options.maxSize && apply ? { width: options.maxSize.height, height: options.maxSize.width } : options.maxSize;
      const scale = jpegScale(header.width, header.height, box);
      const complete = bytes[end - 2] === 0xff && bytes[end - 1] === Marker.EOI;
      frame = { ...planFrame(header, limits, end - p, complete, (8 / scale) as BlockSize), mode: null, done: false };
      if (header.progressive && scale > 1)
        skipped = skippableScans(
          bytes,
          p,
          header,
          frame.sizes.map((size) => coefficientsRead(size).lastZigzag),
        );
      continue;
    }
    switch (marker) {
      case Marker.DHT:
        for (const t of parseHuffmanTables(body)) (t.tableClass === 0 ? dcTables : acTables)[t.id] = t.table;
        break;
      case Marker.DQT:
        for (const t of parseQuantTables(body)) quantTables[t.id] = t.zigzag;
        break;
      case Marker.DRI:
        restartInterval = parseRestartInterval(body);
        break;
      case Marker.APP1:
        if (orientation === null && isExifSegment(body)) orientation = exifOrientation(body.subarray(6));
        break;
      case Marker.APP2: {
        const chunk = parseIccChunk(body);
        // Numbered 1..255: more chunks than that are not a profile (and would only cost memory).
        if (chunk && iccChunks.length < 255) iccChunks.push(chunk);
        break;
      }
      case Marker.APP14:
        adobe = parseAdobeTransform(body) ?? adobe;
        break;
      case Marker.SOS: {
        if (!frame) corrupt('scan data before the frame header');
        if (++scans > MAX_SCANS) corrupt(`more than ${MAX_SCANS} scans`);
        const f: Frame = frame;
        const scan = parseScanHeader(body, f.header);
        for (const sc of scan.components) {
          const c = f.components[sc.index] as ComponentState;
          passes += c.blocksWide * c.blocksHigh * (scan.end - scan.start + 1);
        }
        if (passes > MAX_PASSES * 64 * f.blocks)
          corrupt(`its scans would go over every coefficient more than ${MAX_PASSES} times`);
        if (f.done || skipped?.has(scans - 1)) {
          // A sequential image is whole after its one full scan; later scans are skipped unread.
          // So is a progressive scan whose coefficients the scaled transform never reads.
          p = entropyDataEnd(bytes, p);
          break;
        }
        const reader = new BitReader(bytes, p);
        if (f.mode === null) {
          const all = scan.components.length === f.components.length;
          f.mode = !f.header.progressive && all ? 'band' : 'store';
          // A progressive file's stores in the WebAssembly module's memory, where it is there and has room.
          if (f.header.progressive && options.wasm !== false) {
            const wasm = options.wasm ?? jpegWasm();
            const plan = { sizes: f.sizes, width: f.width, rowsOf: f.vmax * f.blockSize };
            store = wasm && placeStores(wasm, bytes, f.components, (c) => f.mcusHigh * c.v, plan);
          }
          if (!store)
            for (const c of f.components) {
              const rows = f.mode === 'band' ? c.v : f.mcusHigh * c.v;
              c.coefs = new Int16Array(c.storeWide * rows * 64);
              if (f.mode === 'store' && f.header.progressive) c.last = new Uint8Array(c.storeWide * rows);
            }
        }
        const parts: ScanPart[] = scan.components.map((sc) => {
          const component = f.components[sc.index] as ComponentState;
          if (!f.quant[sc.index]) {
            const table = quantTables[(f.header.components[sc.index] as { tq: number }).tq];
            if (!table) corrupt('a scan uses a quantization table that was never defined');
            f.quant[sc.index] = dequantizer(table, f.sizes[sc.index] as BlockSize);
          }
          const needsDc = scan.start === 0 && scan.high === 0;
          const needsAc = scan.end > 0;
          const dc = dcTables[sc.dc] ?? null;
          const ac = acTables[sc.ac] ?? null;
          if ((needsDc && !dc) || (needsAc && !ac)) corrupt('a scan uses a Huffman table that was never defined');
          return { component, dc, ac, read: coefficientsRead(f.sizes[sc.index] as BlockSize) };
        });
        let onRow: ((row: number, transformed?: readonly Uint8ClampedArray[], coloured?: boolean) => void) | undefined;
        if (f.mode === 'band') {
          const out = new Output(
            f,
            colourModel(
              f.header.components.map((c) => c.id),
              adobe,
            ),
          );
          output = out;
          onRow = (row, transformed, coloured) => {
            out.row(row, transformed, coloured);
            for (const c of f.components) c.firstRow = (row + 1) * c.v;
          };
        }
        if (onRow && options.wasm !== false) {
          // The WebAssembly decoder where it takes the scan; else (or without the module) decodeScan.
          const wasmScan: BaselineScan = {
            bytes,
            start: p,
            header: scan,
            frame: f.header,
            parts: parts.map((part, i) => {
              const index = (scan.components[i] as { index: number }).index;
              return { ...part, size: f.sizes[index] as BlockSize, q: f.quant[index] as Float64Array };
            }),
            mcusWide: f.mcusWide,
            mcusHigh: f.mcusHigh,
            restartInterval,
          };
          const wasm = wasmCanDecode(wasmScan) ? (options.wasm ?? jpegWasm()) : null;
          const ended = wasm ? decodeBandWasm(wasm, wasmScan, f.components.length, onRow, output?.colourJob()) : null;
          if (ended) {
            if (ended.stop === Stop.End && ended.overrun > 0) truncated();
            f.done = true;
            p = ended.pos;
            break;
          }
        }
        if (store) {
          const ended = decodeProgressiveScanWasm(store, scan, parts, p, restartInterval, f.mcusWide, f.mcusHigh);
          if (ended.stop === Stop.End && ended.overrun > 0) truncated();
          p = ended.pos;
          break;
        }
        decodeScan(reader, {
          header: scan,
          parts,
          restartInterval,
          mcusWide: f.mcusWide,
          mcusHigh: f.mcusHigh,
          ...(onRow ? { onRow } : { kept: true }),
        });
        if (reader.stop === Stop.End && reader.overrun() > 0) truncated();
        if (f.mode === 'band') f.done = true;
        p = reader.pos;
        break;
      }
      default:
        break; // APPn, COM, DNL (the frame header's height is used) and the rest carry nothing needed here
    }
  }

  if (!frame) {
    if (ended) corrupt('the image ends before its frame header');
    throw new DecodeError('truncated', 'truncated JPEG: the file ends before its frame header');
  }
  if (scans === 0) {
    if (ended) corrupt('the image has no scan data');
    throw new DecodeError('truncated', 'truncated JPEG: the file ends before its image data');
  }
  const f: Frame = frame;
  // Without EOI a sequential image is whole once every component has had its scan; a progressive
  // one could be missing any number of later scans, so only EOI says it is complete.
  if (!ended && (f.header.progressive || f.quant.some((q) => q === null)))
    throw new DecodeError('truncated', 'truncated JPEG: the file ends before its end-of-image marker');
  if (f.mode === 'store') {
    // Components no scan reached stay flat grey (their coefficients are zero).
    f.components.forEach((_c, i) => {
      if (!f.quant[i]) f.quant[i] = new Float64Array(64);
    });
    const out = new Output(
      f,
      colourModel(
        f.header.components.map((c) => c.id),
        adobe,
      ),
    );
    if (store)
      transformStoreWasm(
        store,
        f.components,
        f.quant as Float64Array[],
        f.mcusWide,
        f.mcusHigh,
        out.colourJob(),
        (my, t, c) => out.row(my, t, c),
      );
    else for (let my = 0; my < f.mcusHigh; my++) out.row(my);
    output = out;
  }
  if (!output) corrupt('the image has no scan data');
  const data = new Uint8Array(output.data.buffer, output.data.byteOffset, output.data.length);
  const stored: Raster = { width: f.width, height: f.height, data };
  const declared: Orientation = orientation ?? 1;
  const icc = joinIccChunks(iccChunks);
  const count = f.header.components.length;
  const colour: ColourInfo = { model: count === 1 ? 'grey' : count === 4 ? 'cmyk' : 'rgb', ...(icc ? { icc } : {}) };
  return {
    colour,
    raster: options.orientation === 'ignore' ? stored : orient(stored, declared),
    sourceWidth: f.header.width,
    sourceHeight: f.header.height,
    scale: (8 / f.blockSize) as 1 | 2 | 4 | 8,
    orientation: declared,
  };
}
