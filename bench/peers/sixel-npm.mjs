// A whole-process peer for bench/show.mjs: what a Node program without termsight does to show a
// picture as sixel with the npm `sixel` package: decode the file with the usual pure-JS decoders
// (fast-png, jpeg-js, omggif's first frame), scale it to the width by averaging boxes of source
// pixels (the package does not scale), and write `image2sixel` (256 colours) to stdout.
// Usage: node bench/peers/sixel-npm.mjs FILE WIDTH_PX
import { readFileSync } from 'node:fs';
import { decode as decodePng } from 'fast-png';
import jpeg from 'jpeg-js';
import omggif from 'omggif';
import { image2sixel } from 'sixel';

const [file, widthArg] = process.argv.slice(2);
const bytes = readFileSync(file);

/** The file as RGBA, whatever the format. */
function decode() {
  if (bytes[0] === 0x89 && bytes[1] === 0x50) {
    const png = decodePng(bytes);
    const n = png.width * png.height;
    if (png.channels === 4 && png.depth === 8) return { width: png.width, height: png.height, data: png.data };
    const data = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      const c = png.channels;
      const grey = c < 3;
      data[i * 4] = png.data[i * c];
      data[i * 4 + 1] = png.data[i * c + (grey ? 0 : 1)];
      data[i * 4 + 2] = png.data[i * c + (grey ? 0 : 2)];
      data[i * 4 + 3] = c === 2 || c === 4 ? png.data[i * c + c - 1] : 255;
    }
    return { width: png.width, height: png.height, data };
  }
  if (bytes[0] === 0x47 && bytes[1] === 0x49) {
    const gif = new omggif.GifReader(bytes);
    const data = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(0, data);
    return { width: gif.width, height: gif.height, data };
  }
  const img = jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 1024 });
  return { width: img.width, height: img.height, data: img.data };
}

/** Box-averages `src` down to `width` pixels across (never up), keeping the aspect ratio. */
function scale(src, width) {
  if (src.width <= width) return src;
  const height = Math.max(1, Math.round((src.height * width) / src.width));
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * src.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * src.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / width));
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let sy = y0; sy < y1; sy++)
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * src.width + sx) * 4;
          r += src.data[i];
          g += src.data[i + 1];
          b += src.data[i + 2];
          a += src.data[i + 3];
        }
      const n = (y1 - y0) * (x1 - x0);
      const o = (y * width + x) * 4;
      data[o] = r / n;
      data[o + 1] = g / n;
      data[o + 2] = b / n;
      data[o + 3] = a / n;
    }
  }
  return { width, height, data };
}

const picture = scale(decode(), Number(widthArg));
process.stdout.write(image2sixel(picture.data, picture.width, picture.height, 256, 0));
