/** Small animated GIFs for tests, written with omggif. */
import omggif from 'omggif';

/** A GIF of `frames` frames of `width` x `height`, each a different colour; `loop` adds NETSCAPE2.0. */
export function makeGif(
  width: number,
  height: number,
  frames: number,
  options: { loop?: number; delayCs?: number } = {},
): Uint8Array {
  const buf = new Uint8Array(1024 + width * height * frames * 2);
  const palette = [0xff0000, 0x00ff00, 0x0000ff, 0xffffff];
  const writer = new omggif.GifWriter(buf, width, height, {
    palette,
    ...(options.loop === undefined ? {} : { loop: options.loop }),
  });
  for (let f = 0; f < frames; f++) {
    const pixels = new Array(width * height).fill(f % palette.length);
    writer.addFrame(0, 0, width, height, pixels, { delay: options.delayCs ?? 1 });
  }
  return buf.slice(0, writer.end());
}
