/**
 * Composites an animated WebP's frames onto its canvas the way libwebp's WebPAnimDecoder does
 * (src/demux/anim_decode.c), so the frames are libwebp's to the byte: the canvas starts
 * transparent (the ANIM background colour is ignored, as anim_decode does by default and
 * browsers do); a key frame (the first; a full-canvas frame that is opaque or not blended; one
 * after a full-canvas or key frame disposed to background) starts from a transparent canvas;
 * another starts from the previous canvas with the previous frame's rectangle cleared when it
 * was disposed to background. The frame's pixels are written into its rectangle, and then,
 * when it blends, each pixel that is not opaque is blended over what was there before, except
 * where the previous frame's disposed rectangle left nothing to blend with.
 * ImageMagick's `-coalesce` disposes differently, so it is no reference (docs/decode.md, "WebP").
 */
import type { WebpFrame } from './webp-riff.js';

/** A frame as anim_decode needs it: its rectangle, its flags and whether it carries alpha. */
export interface CompositedFrame {
  readonly frame: WebpFrame;
  /** ALPH present, or a VP8L image whose header says it uses alpha (libwebp's `has_alpha`). */
  readonly hasAlpha: boolean;
  /** The frame's decoded RGBA, `frame.width` x `frame.height`. */
  readonly rgba: Uint8Array;
}

/** libwebp's non-premultiplied "over": `src` (a pixel that is not opaque) onto `dst`, 32-bit RGBA words read little-endian. */
function blendPixel(src: number, dst: number): number {
  const srcA = src >>> 24;
  if (srcA === 0) return dst;
  const dstA = dst >>> 24;
  // (dst_a * (255 - src_a)) / 255 as libwebp approximates it
  const dstFactor = (dstA * (256 - srcA)) >>> 8;
  const outA = srcA + dstFactor;
  const scale = Math.floor((1 << 24) / outA);
  let out = outA << 24;
  for (let shift = 0; shift < 24; shift += 8) {
    const unscaled = ((src >>> shift) & 0xff) * srcA + ((dst >>> shift) & 0xff) * dstFactor;
    out |= Math.floor((unscaled * scale) / 16777216) << shift;
  }
  return out >>> 0;
}

/**
 * The compositing state of one animation: feed frames in order with `next`, each returns the
 * whole canvas after it (a new array).
 */
export class WebpCompositor {
  private readonly current: Uint32Array;
  /** The canvas after the previous frame and its disposal; made only once a second frame comes. */
  private disposed: Uint32Array | null = null;
  private previous: { frame: WebpFrame; key: boolean } | null = null;

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.current = new Uint32Array(width * height);
  }

  private full(f: WebpFrame): boolean {
    return f.width === this.width && f.height === this.height;
  }

  private isKey(c: CompositedFrame): boolean {
    const prev = this.previous;
    if (!prev) return true;
    if ((!c.hasAlpha || !c.frame.blend) && this.full(c.frame)) return true;
    return prev.frame.disposeToBackground && (this.full(prev.frame) || prev.key);
  }

  /**
   * Draws the next frame and returns the canvas as RGBA bytes: a copy, or with `last` (no frame
   * follows) the canvas itself, so a first frame drawn alone costs one canvas.
   */
  next(c: CompositedFrame, last = false): Uint8Array {
    const { frame: f } = c;
    const key = this.isKey(c);
    const { current, disposed, width } = this;
    if (key || !disposed) current.fill(0);
    else current.set(disposed);
    const rgba = c.rgba.byteOffset % 4 === 0 ? c.rgba : c.rgba.slice();
    const src = new Uint32Array(rgba.buffer, rgba.byteOffset, f.width * f.height);
    const prev = this.previous;
    const blend = prev !== null && f.blend && !key;
    // Pixels inside the previous frame's cleared rectangle are not blended (libwebp's FindBlendRangeAtRow).
    const cleared = prev?.frame.disposeToBackground ? prev.frame : null;
    for (let y = 0; y < f.height; y++) {
      const row = (f.y + y) * width + f.x;
      const canvasY = f.y + y;
      const rowCleared = cleared !== null && canvasY >= cleared.y && canvasY < cleared.y + cleared.height;
      for (let x = 0; x < f.width; x++) {
        const s = src[y * f.width + x] as number;
        if (!blend || s >>> 24 === 0xff) {
          current[row + x] = s;
          continue;
        }
        const canvasX = f.x + x;
        if (rowCleared && cleared && canvasX >= cleared.x && canvasX < cleared.x + cleared.width) {
          current[row + x] = s;
          continue;
        }
        current[row + x] = blendPixel(s, current[row + x] as number);
      }
    }
    this.previous = { frame: f, key };
    if (last) return new Uint8Array(current.buffer);
    const kept = disposed ?? new Uint32Array(current.length);
    this.disposed = kept;
    kept.set(current);
    if (f.disposeToBackground) {
      for (let y = 0; y < f.height; y++) {
        const row = (f.y + y) * width + f.x;
        kept.fill(0, row, row + f.width);
      }
    }
    return new Uint8Array(current.buffer.slice(0));
  }
}
