/**
 * `decodeWebp`: a WebP file to RGBA frames. The container (webp-riff.ts) locates the images;
 * each is decoded by the lossless decoder (webp-lossless.ts) or the lossy one (webp-vp8.ts)
 * with its ALPH plane (webp-alpha.ts); an animation's frames are composited as libwebp's
 * anim_decode does (webp-anim.ts). Sizes are checked against the limits before any pixel.
 * See docs/decode.md, "WebP".
 */

import { swapsAxes } from '../core/orientation.js';
import { DecodeError } from './error.js';
import { exifOrientation } from './exif.js';
import { animationFrameLimit } from './frame-budget.js';
import { checkDimensions } from './header.js';
import { DEFAULT_DECODE_LIMITS, type DecodedFrame, type DecodeLimits } from './image.js';
import { wholeReduction } from './reduction.js';
import { decodeAlpha, readAlphaHeader } from './webp-alpha.js';
import { WebpCompositor } from './webp-anim.js';
import { decodeLossless, readLosslessHeader } from './webp-lossless.js';
import { readWebpLayout, type WebpBitstream } from './webp-riff.js';
import { decodeVp8, decodeVp8Reduced, readVp8Size } from './webp-vp8.js';

/** A decoded WebP: its frames on the canvas, and what the file says beside its pixels. */
export interface DecodedWebp {
  /** The canvas size as the file declares it (a still picture's frame is smaller when reduced for `maxSize`). */
  readonly width: number;
  readonly height: number;
  readonly frames: DecodedFrame[];
  /** How many frames the file has (more than `frames.length` when frames were left out). */
  readonly frameCount: number;
  /** An animation's loop count (0 forever); absent for a still picture. */
  readonly plays?: number;
  /** The EXIF chunk's TIFF structure, for the orientation. */
  readonly exif?: Uint8Array;
  /** The colour the file declares: its ICCP chunk's profile, unparsed. */
  readonly colour?: { readonly icc?: Uint8Array };
}

/** A frame's display time: the browsers' rule for GIF and APNG delays holds here too (10 ms or less shows as 100 ms). */
export function webpDelayMs(durationMs: number): number {
  return durationMs <= 10 ? 100 : durationMs;
}

/**
 * The RGBA pixels of one bitstream, which must be `width` x `height` (the canvas of a still
 * picture, the rectangle of a frame); checked on its header before its pixels are decoded.
 */
function decodeBitstream(
  b: WebpBitstream,
  width: number,
  height: number,
  limits: DecodeLimits,
  what: string,
  factor = 1,
): { rgba: Uint8Array; hasAlpha: boolean; width: number; height: number } {
  const size = b.lossless ? readLosslessHeader(b.image) : readVp8Size(b.image);
  if (size.width !== width || size.height !== height)
    throw new DecodeError(
      'corrupt',
      `corrupt WebP: ${what} is ${size.width}x${size.height}, its chunks say ${width}x${height}`,
    );
  checkDimensions(width, height, limits, 'webp');
  if (b.lossless) {
    const alphaHint = readLosslessHeader(b.image).alphaHint;
    return { rgba: decodeLossless(b.image, limits).data, hasAlpha: alphaHint, width, height };
  }
  // The alpha's header is checked before the lossy pixels are spent on.
  if (b.alpha && b.alpha.length > 0) readAlphaHeader(b.alpha[0] as number);
  if (factor > 1) {
    const plane = b.alpha ? decodeAlpha(b.alpha, width, height) : null;
    const reduced = decodeVp8Reduced(b.image, limits, factor, plane);
    return { rgba: reduced.data, hasAlpha: plane !== null, width: reduced.width, height: reduced.height };
  }
  const rgba = decodeVp8(b.image, limits).data;
  if (b.alpha) {
    const plane = decodeAlpha(b.alpha, width, height);
    for (let i = 0; i < plane.length; i++) rgba[i * 4 + 3] = plane[i] as number;
  }
  return { rgba, hasAlpha: b.alpha !== undefined, width, height };
}

/**
 * Decodes a WebP file: a still picture (lossy, lossy with alpha, lossless), or an animation's
 * frames composited on the canvas (only the first with `frames: 'first'`; as many as
 * `limits.maxAnimationPixels` and `maxAnimationFrames` allow otherwise: frame-budget.ts). A frame after the first that cannot be decoded
 * ends the animation there. Throws `DecodeError`.
 *
 * @example decodeWebp(bytes, { frames: 'first' }).frames[0].raster
 */
export function decodeWebp(
  bytes: Uint8Array,
  options: {
    readonly frames?: 'first' | 'all';
    readonly limits?: DecodeLimits;
    /**
     * The most pixels the caller will draw (after orientation): a still lossy picture at least
     * twice as large on both axes, or with `frames: 'first'` an animation's lossy first frame that
     * covers the canvas, is converted a whole factor smaller (`wholeReduction`).
     */
    readonly maxSize?: { readonly width: number; readonly height: number } | undefined;
    /** `'ignore'` when the caller will not turn the picture by its EXIF orientation (the box is not turned then). */
    readonly orientation?: 'apply' | 'ignore' | undefined;
  } = {},
): DecodedWebp {
  const limits = options.limits ?? DEFAULT_DECODE_LIMITS;
  const head = readWebpLayout(bytes, 0);
  const { width, height } = head;
  checkDimensions(width, height, limits, 'webp');
  // Every frame is composited on the whole canvas: counted at the canvas's cost (frame-budget.ts).
  const budget = options.frames === 'first' ? 1 : animationFrameLimit(limits, width * height);
  const layout = head.animation ? readWebpLayout(bytes, budget) : head;
  const meta = {
    ...(layout.exif ? { exif: layout.exif } : {}),
    ...(layout.icc ? { colour: { icc: layout.icc } } : {}),
  };
  // A lossy picture drawn smaller is converted at a reduced size (webp-vp8-reduce.ts); the box
  // describes the upright picture, so it is turned when the EXIF orientation will turn it.
  const turned =
    options.orientation !== 'ignore' && layout.exif !== undefined && swapsAxes(exifOrientation(layout.exif) ?? 1);
  const box =
    options.maxSize && turned ? { width: options.maxSize.height, height: options.maxSize.width } : options.maxSize;
  if (layout.still) {
    const factor = layout.still.lossless ? 1 : wholeReduction(width, height, box);
    const still = decodeBitstream(layout.still, width, height, limits, 'the image', factor);
    const raster = { width: still.width, height: still.height, data: still.rgba };
    return { width, height, frames: [{ raster, delayMs: 0 }], frameCount: 1, ...meta };
  }
  const animation = layout.animation;
  if (!animation) throw new DecodeError('corrupt', 'corrupt WebP: no image');
  const first = animation.frames[0];
  if (options.frames === 'first' && first && !first.lossless && first.width === width && first.height === height) {
    // The first frame alone, covering the canvas, is composited onto a transparent canvas: the
    // canvas is the frame's own pixels, so it may be converted smaller as a still picture is.
    const factor = wholeReduction(width, height, box);
    if (factor > 1) {
      const one = decodeBitstream(first, width, height, limits, 'frame 1', factor);
      const raster = { width: one.width, height: one.height, data: one.rgba };
      const frames = [{ raster, delayMs: webpDelayMs(first.durationMs) }];
      return { width, height, frames, frameCount: animation.frameCount, plays: animation.loopCount, ...meta };
    }
  }
  const compositor = new WebpCompositor(width, height);
  const frames: DecodedFrame[] = [];
  for (const [i, frame] of animation.frames.entries()) {
    let decoded: { rgba: Uint8Array; hasAlpha: boolean };
    try {
      decoded = decodeBitstream(frame, frame.width, frame.height, limits, `frame ${i + 1}`);
    } catch (error) {
      if (i === 0) throw error;
      break; // keep the frames that decoded whole
    }
    const last = i === animation.frames.length - 1;
    const data = compositor.next({ frame, hasAlpha: decoded.hasAlpha, rgba: decoded.rgba }, last);
    frames.push({ raster: { width, height, data }, delayMs: webpDelayMs(frame.durationMs) });
  }
  return { width, height, frames, frameCount: animation.frameCount, plays: animation.loopCount, ...meta };
}
