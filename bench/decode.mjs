// decodeImage against a bare decoder on the same file, in the same process. PNG: termsight's own
// decoder (node:zlib, CRCs, bounded inflate) against fast-png's decode, the decoder it replaced;
// JPEG: termsight's own decoder against jpeg-js; GIF: termsight's own LZW and compositor (with
// its bounds and checks) against omggif's reader, the decoder it replaced (omggif's blit, no
// disposal). Ratios > 1 mean termsight is slower.
// Run alone: node bench/decode.mjs (after npx tsc -p tsconfig.build.json)

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { decode as pngDecode, encode as pngEncode } from 'fast-png';
import jpeg from 'jpeg-js';
import omggif from 'omggif';
import { decodeImage } from '../dist/decode/index.js';

function picture(width, height) {
  const data = new Uint8Array(width * height * 4);
  let s = 1;
  for (let y = 0, o = 0; y < height; y++) {
    for (let x = 0; x < width; x++, o += 4) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const n = (s >>> 27) - 16;
      data[o] = Math.max(0, Math.min(255, ((x * 255) / width + n) | 0));
      data[o + 1] = Math.max(0, Math.min(255, ((y * 255) / height + n) | 0));
      data[o + 2] = Math.max(0, Math.min(255, 128 + n));
      data[o + 3] = 255;
    }
  }
  return data;
}

function gif(width, height, frames) {
  const buffer = new Uint8Array(width * height * frames * 2 + 4096);
  const palette = Array.from({ length: 256 }, (_, i) => (i << 16) | ((255 - i) << 8) | ((i * 7) & 255));
  const writer = new omggif.GifWriter(buffer, width, height, { palette, loop: 0 });
  for (let f = 0; f < frames; f++) {
    const pixels = Array.from({ length: width * height }, (_, i) => ((i % width) + f * 9 + ((i / width) | 0)) & 255);
    writer.addFrame(0, 0, width, height, pixels, { delay: 5 });
  }
  return buffer.slice(0, writer.end());
}

function time(fn, minMs = 300) {
  fn();
  let runs = 0;
  const start = performance.now();
  while (performance.now() - start < minMs) {
    fn();
    runs++;
  }
  return (performance.now() - start) / runs;
}

export async function run(log = console.log) {
  const w = 1000;
  const h = 750;
  const rgba = picture(w, h);
  const photo = (name) => new Uint8Array(readFileSync(new URL(`../test/fixtures/images/${name}`, import.meta.url)));
  const files = [
    ['PNG RGB 512x512 astronaut', photo('astronaut.png'), (b) => pngDecode(b)],
    ['PNG grey 512x512 camera', photo('camera.png'), (b) => pngDecode(b)],
    ['PNG RGBA 1000x750', pngEncode({ width: w, height: h, data: rgba, channels: 4, depth: 8 }), (b) => pngDecode(b)],
    [
      'JPEG q85 1000x750',
      new Uint8Array(jpeg.encode({ width: w, height: h, data: rgba }, 85).data),
      (b) => jpeg.decode(b, { useTArray: true, formatAsRGBA: true }),
    ],
    [
      'GIF 400x300 x10 frames',
      gif(400, 300, 10),
      (b) => {
        const r = new omggif.GifReader(b);
        const px = new Uint8Array(r.width * r.height * 4);
        for (let i = 0; i < r.numFrames(); i++) r.decodeAndBlitFrameRGBA(i, px.slice());
      },
    ],
  ];
  log('decode: termsight decodeImage vs fast-png (PNG) / jpeg-js (JPEG) / omggif (GIF), ms per file, ratio');
  log(`${'file'.padEnd(28)} ${'termsight'.padStart(10)} ${'bare'.padStart(10)} ${'ratio'.padStart(7)}`);
  for (const [name, bytes, bare] of files) {
    const ours = time(() => decodeImage(bytes));
    const theirs = time(() => bare(bytes));
    log(
      `${name.padEnd(28)} ${ours.toFixed(2).padStart(10)} ${theirs.toFixed(2).padStart(10)} ${(ours / theirs).toFixed(2).padStart(7)}`,
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
