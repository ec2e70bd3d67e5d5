/**
 * What a decoder hands back, and the limits that keep a hostile file from exhausting memory.
 */
import type { Orientation } from '../core/orientation.js';
import type { Raster } from '../core/raster.js';

/** The image formats termsight decodes: its own decoders' and those of the optional peer sharp. */
export type ImageFormat = OwnFormat | PeerFormat;

/** The formats termsight decodes itself (`pnm`: PBM, PGM, PPM and PAM). */
export type OwnFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'bmp' | 'qoi' | 'pnm';

/**
 * The formats decoded through an optional peer dependency, when it is installed: sharp (libvips)
 * for AVIF, HEIF, TIFF, JPEG XL and SVG; for HEIC (HEVC-coded HEIF) sharp when its libvips decodes
 * HEVC, else libheif-js. Only by the asynchronous `decodeImageLoading`, which loads the peer when
 * such a file arrives.
 */
export type PeerFormat = 'avif' | 'heic' | 'heif' | 'tiff' | 'jxl' | 'svg';

/** One frame: a full-size RGBA raster (animations are composited) and how long to show it. */
export interface DecodedFrame {
  readonly raster: Raster;
  /** Display time in milliseconds; 0 for still images. */
  readonly delayMs: number;
}

/**
 * A decoded picture: at least one frame, every frame `width` x `height`. That is the size as
 * decoded and shown: smaller than the file's own size when `maxSize` let a JPEG or PNG be decoded
 * at a reduced scale, and with the sides swapped when an orientation that turns it a quarter was applied.
 */
export interface DecodedImage {
  readonly format: ImageFormat;
  readonly width: number;
  readonly height: number;
  /** The size the file itself declares, as stored (before any scaling or orientation). */
  readonly sourceWidth: number;
  readonly sourceHeight: number;
  /** The EXIF orientation the file declares (1 when none), whether it was applied or not. */
  readonly orientation: Orientation;
  readonly frames: readonly DecodedFrame[];
  /** How many frames the file has; more than `frames.length` when frames were skipped (`frames: 'first'` or the animation budget). */
  readonly frameCount: number;
  /** An animation: how many times it plays (0 forever), from the file's loop count; absent for a still picture. */
  readonly plays?: number;
  /**
   * What was done with the colour the file declares (an ICC profile, PNG's cICP/sRGB/gAMA/cHRM):
   * converted to sRGB, kept as it is (sRGB or nothing declared), or kept with the reason it could
   * not be converted.
   */
  readonly colour: ColourHandling;
}

/**
 * The colour a file declares, raw, as its decoder found it (nothing applied). Each decoder hands
 * this back beside its frames; `decodeFormat` (decode-image.ts) converts every format's frames to
 * sRGB from it in one place (colour.ts), so no decoder converts colour itself. Absent fields:
 * not declared. A WebP decoder fills `icc` with its ICCP chunk's body.
 */
export interface ColourInfo {
  /**
   * The embedded ICC profile, whole and unparsed: JPEG's APP2 `ICC_PROFILE` chunks joined in
   * sequence order, PNG's iCCP inflated, WebP's ICCP chunk body. Parsed (bounded) by icc.ts.
   */
  readonly icc?: Uint8Array;
  /**
   * A colour declaration that was there but could not be read (a damaged or oversized iCCP), as
   * a reason; reported in `DecodedImage.colour.why`, the picture drawn as sRGB.
   */
  readonly problem?: string;
  /** What the stored pixels are: grey, RGB (the default when absent) or CMYK; a grey profile fits grey pixels only. */
  readonly model?: 'grey' | 'rgb' | 'cmyk';
  /**
   * ITU-T H.273 code points (PNG cICP, a HEIF's nclx `colr`): colour primaries, transfer
   * characteristics, matrix, full range, and where they were declared (for `why`; `PNG cICP`
   * when absent).
   */
  readonly cicp?: {
    readonly primaries: number;
    readonly transfer: number;
    readonly matrix: number;
    readonly fullRange: boolean;
    readonly source?: string;
  };
  /** PNG sRGB: the rendering intent (0..3); the pixels are sRGB. */
  readonly srgbIntent?: number;
  /** PNG gAMA: the encoding gamma times 100000 (45455 is 1/2.2). */
  readonly gamma?: number;
  /** PNG cHRM: white point, red, green, blue as x, y pairs, each times 100000 (8 numbers). */
  readonly chromaticities?: readonly number[];
}

/** What colour handling was applied to a decoded picture, and why. */
export interface ColourHandling {
  /**
   * `'converted'`: the pixels were converted from the file's colour space to sRGB.
   * `'as-is'`: the pixels are drawn as stored, because they are sRGB (declared, or nothing declared).
   * `'unconverted'`: the file declares a colour space termsight does not convert (a LUT-based, CMYK
   * or Lab profile, a cICP transfer it does not model, …); drawn as if sRGB, `why` says what it was.
   */
  readonly applied: 'converted' | 'as-is' | 'unconverted';
  /** One line: what the file declared and what was done with it. */
  readonly why: string;
}

/** Limits checked against the declared dimensions before any pixel is decoded. */
export interface DecodeLimits {
  /** Largest width x height. Default 50 megapixels (200 MB as RGBA). */
  readonly maxPixels: number;
  /** Largest width or height. Default 30000. */
  readonly maxSide: number;
  /**
   * Largest sum of the pixels of all decoded frames of an animation, each frame counted as at
   * least `FRAME_COST_FLOOR` (4096) pixels however small it is; frames past it are dropped.
   * Default 64 megapixels.
   */
  readonly maxAnimationPixels: number;
  /** Most frames of an animation decoded; frames past it are dropped (still counted in `frameCount`). Default 10000. */
  readonly maxAnimationFrames: number;
}

/**
 * The default limits: 50 megapixels and 30000 pixels a side are beyond any camera photo a terminal
 * could show, yet stay under a few hundred megabytes once decoded; a decompression bomb that
 * declares 60000x60000 in a few bytes is refused before a byte is inflated.
 */
export const DEFAULT_DECODE_LIMITS: DecodeLimits = {
  maxPixels: 50_000_000,
  maxSide: 30_000,
  maxAnimationPixels: 64_000_000,
  maxAnimationFrames: 10_000,
};

/** How to decode. */
export interface DecodeOptions {
  /** `'first'` decodes only the first frame of an animation (what a still display needs). Default `'all'`. */
  readonly frames?: 'first' | 'all';
  /** Overrides part of the default limits. */
  readonly limits?: Partial<DecodeLimits>;
  /**
   * The most pixels the caller will draw, after orientation. The decoder may then return any size
   * at least this large on both axes, aspect kept: a JPEG is decoded at 1/2, 1/4 or 1/8 scale in
   * the DCT domain (far less time and memory); with `frames: 'first'`, an opaque, non-interlaced
   * PNG is averaged down by a whole factor as it is expanded; a still lossy WebP's planes (with
   * `frames: 'first'`, an animated WebP's lossy first frame that covers the canvas) are averaged
   * down by a whole factor before the colour conversion. Other pictures come at full size.
   */
  readonly maxSize?: { readonly width: number; readonly height: number };
  /** `'apply'` (default) turns the picture upright by its EXIF orientation; `'ignore'` keeps it as stored. */
  readonly orientation?: 'apply' | 'ignore';
  /**
   * `'srgb'` (default) converts the colour the file declares (ICC profile, PNG cICP, gAMA/cHRM) to
   * sRGB; `'keep'` leaves the stored pixels as they are (`colour` then says what was declared).
   */
  readonly colour?: 'srgb' | 'keep';
}
