// The benchmark image set, shared by the renderers' benchmarks: the copyright-free photographs
// committed in test/fixtures/images (see its README for their sources and licences), plus
// synthetic pictures made here: a gradient, noise, a disc with soft transparent edges, a few-colour
// chart and a 1x1 pixel. Every picture is fitted into 1000x600 with the library's own resize (area
// averaging) before any encoder sees it. Set TERMSIGHT_BENCH_IMAGES to another folder holding the
// same file names to use other pictures.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { decode as decodePngFile, encode as encodePngFile } from 'fast-png';
import jpeg from 'jpeg-js';
import omggif from 'omggif';

/** Where the photographs are: inside the repository. */
export const PHOTO_DIR =
  process.env.TERMSIGHT_BENCH_IMAGES || fileURLToPath(new URL('../test/fixtures/images/', import.meta.url));

/** The box every picture is fitted into, in pixels. */
export const BOX = { width: 1000, height: 600 };

/** The pictures used: path under PHOTO_DIR and what kind of picture it is. */
export const FILES = [
  ['astronaut.png', 'photo'], // 512x512
  ['coffee.png', 'photo'], // 600x400
  ['chelsea.png', 'photo'], // 451x300
  ['camera.png', 'photo'], // 512x512, grey
  ['hubble_deep_field.jpg', 'photo'], // 1000x872
  ['rocket.jpg', 'photo'], // 640x427
  ['retina.jpg', 'photo'], // 1411x1411
];

let resizeModule;
async function fitter() {
  if (resizeModule === undefined) {
    try {
      resizeModule = await import('../dist/render/geometry/resize.js');
    } catch {
      resizeModule = null; // not built yet: fall back to the box filter below
    }
  }
  return resizeModule;
}

/** Fits a raster into `box` (never enlarging) with the library's resize when built. */
export async function fitImage(raster, box = BOX) {
  const mod = await fitter();
  if (mod) {
    const size = mod.fitPixels(raster, box);
    return mod.resize(raster, size.width, size.height);
  }
  const scale = Math.min(1, box.width / raster.width, box.height / raster.height);
  return boxResize(
    raster,
    Math.max(1, Math.round(raster.width * scale)),
    Math.max(1, Math.round(raster.height * scale)),
  );
}

/** Resizes a raster to exactly `width` x `height` (the library's resize when built). */
export async function resizeTo(raster, width, height) {
  const mod = await fitter();
  return mod ? mod.resize(raster, width, height) : boxResize(raster, width, height);
}

/**
 * A plain box-filter resize (integer source cells, premultiplied): used before dist exists, and by
 * the peers that stand for a program without termsight (bench/peers/).
 */
export function boxResize(src, width, height) {
  if (width === src.width && height === src.height) return src;
  const out = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    const y0 = Math.floor((y * src.height) / height);
    const y1 = Math.max(y0 + 1, Math.floor(((y + 1) * src.height) / height));
    for (let x = 0; x < width; x++) {
      const x0 = Math.floor((x * src.width) / width);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * src.width) / width));
      let r = 0,
        g = 0,
        b = 0,
        a = 0,
        n = 0;
      for (let sy = y0; sy < y1; sy++) {
        for (let sx = x0; sx < x1; sx++) {
          const i = (sy * src.width + sx) * 4;
          const al = src.data[i + 3];
          r += src.data[i] * al;
          g += src.data[i + 1] * al;
          b += src.data[i + 2] * al;
          a += al;
          n++;
        }
      }
      const o = (y * width + x) * 4;
      if (a > 0) {
        out[o] = r / a;
        out[o + 1] = g / a;
        out[o + 2] = b / a;
      }
      out[o + 3] = a / n;
    }
  }
  return { width, height, data: out };
}

/** Decodes a PNG or JPEG file into an RGBA raster. */
export function decodeFile(path) {
  return decodeBytes(readFileSync(path));
}

/** Decodes PNG, JPEG or GIF bytes (a GIF's first frame) into an RGBA raster. */
export function decodeBytes(bytes) {
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const img = jpeg.decode(bytes, {
      useTArray: true,
      formatAsRGBA: true,
      maxMemoryUsageInMB: 4096,
      maxResolutionInMP: 100,
    });
    return {
      width: img.width,
      height: img.height,
      data: new Uint8Array(img.data.buffer, img.data.byteOffset, img.data.length),
    };
  }
  if (bytes[0] === 0x47 && bytes[1] === 0x49 && bytes[2] === 0x46) {
    const gif = new omggif.GifReader(bytes);
    const data = new Uint8Array(gif.width * gif.height * 4);
    gif.decodeAndBlitFrameRGBA(0, data);
    return { width: gif.width, height: gif.height, data };
  }
  const png = decodePngFile(bytes);
  return pngToRgba(png);
}

function pngToRgba(png) {
  const { width, height, channels, depth, palette, transparency } = png;
  const n = width * height;
  const out = new Uint8Array(n * 4);
  const src = png.data;
  const shift = depth === 16 ? 8 : 0;
  if (palette) {
    // Indexed: expand through the palette (entries may carry alpha).
    for (let p = 0; p < n; p++) {
      const c = palette[src[p]] ?? [0, 0, 0];
      out.set([c[0], c[1], c[2], c.length > 3 ? c[3] : 255], p * 4);
    }
    return { width, height, data: out };
  }
  for (let p = 0; p < n; p++) {
    const i = p * channels;
    const o = p * 4;
    if (channels >= 3) {
      out[o] = src[i] >> shift;
      out[o + 1] = src[i + 1] >> shift;
      out[o + 2] = src[i + 2] >> shift;
      out[o + 3] = channels === 4 ? src[i + 3] >> shift : 255;
    } else {
      out[o] = out[o + 1] = out[o + 2] = src[i] >> shift;
      out[o + 3] = channels === 2 ? src[i + 1] >> shift : 255;
    }
  }
  if (transparency && channels === 3 && transparency.length >= 3) {
    for (let p = 0; p < n; p++) {
      const i = p * 3;
      if (src[i] === transparency[0] && src[i + 1] === transparency[1] && src[i + 2] === transparency[2])
        out[p * 4 + 3] = 0;
    }
  }
  return { width, height, data: out };
}

/** Writes a raster as an RGBA PNG (for peers that run as a process and read a file). */
export function writePng(raster, path) {
  writeFileSync(
    path,
    encodePngFile({ width: raster.width, height: raster.height, data: raster.data, channels: 4, depth: 8 }),
  );
}

// A small seeded generator, so the synthetic pictures are the same on every run.
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Synthetic pictures, made at their final size. */
export function syntheticImages() {
  const gradient = { width: 1000, height: 600, data: new Uint8Array(1000 * 600 * 4) };
  for (let y = 0; y < 600; y++) {
    for (let x = 0; x < 1000; x++) {
      const o = (y * 1000 + x) * 4;
      gradient.data[o] = (x * 255) / 999;
      gradient.data[o + 1] = (y * 255) / 599;
      gradient.data[o + 2] = 255 - ((x + y) * 255) / 1598;
      gradient.data[o + 3] = 255;
    }
  }
  const rand = mulberry32(4);
  const noise = { width: 1000, height: 600, data: new Uint8Array(1000 * 600 * 4) };
  for (let i = 0; i < noise.data.length; i += 4) {
    noise.data[i] = rand() * 256;
    noise.data[i + 1] = rand() * 256;
    noise.data[i + 2] = rand() * 256;
    noise.data[i + 3] = 255;
  }
  // A shaded disc whose edge fades out over 20 pixels, on a fully transparent field.
  const disc = { width: 600, height: 600, data: new Uint8Array(600 * 600 * 4) };
  for (let y = 0; y < 600; y++) {
    for (let x = 0; x < 600; x++) {
      const o = (y * 600 + x) * 4;
      const d = Math.hypot(x - 300, y - 300);
      disc.data[o] = 40 + (x * 200) / 600;
      disc.data[o + 1] = 220 - (y * 180) / 600;
      disc.data[o + 2] = 120 + (d * 100) / 300;
      disc.data[o + 3] = Math.max(0, Math.min(255, ((280 - d) * 255) / 20));
    }
  }
  // A chart of 12 flat colours: the exact path.
  const chart = { width: 960, height: 600, data: new Uint8Array(960 * 600 * 4) };
  const colours = [
    [0, 0, 0],
    [255, 255, 255],
    [200, 30, 40],
    [30, 160, 60],
    [20, 60, 200],
    [250, 200, 0],
    [120, 0, 140],
    [0, 170, 170],
    [128, 128, 128],
    [250, 120, 20],
    [90, 60, 30],
    [255, 160, 200],
  ];
  for (let y = 0; y < 600; y++) {
    for (let x = 0; x < 960; x++) {
      const c = colours[(Math.floor(x / 80) + Math.floor(y / 100) * 3) % colours.length];
      chart.data.set([c[0], c[1], c[2], 255], (y * 960 + x) * 4);
    }
  }
  const dot = { width: 1, height: 1, data: new Uint8Array([200, 100, 50, 255]) };
  return [
    { name: 'gradient', kind: 'synthetic', source: '1000x600', raster: gradient },
    { name: 'noise', kind: 'synthetic', source: '1000x600', raster: noise },
    { name: 'disc (alpha)', kind: 'transparent', source: '600x600', raster: disc },
    { name: 'chart (12 colours)', kind: 'drawing', source: '960x600', raster: chart },
    { name: '1x1', kind: 'synthetic', source: '1x1', raster: dot },
  ];
}

/**
 * Loads the whole set, each picture fitted into `box`: [{ name, kind, source: 'WxH', raster }].
 * Installed pictures that are missing are skipped with a note through `log`.
 */
export async function loadImages({ box = BOX, log = () => {} } = {}) {
  const images = [];
  let missing = 0;
  for (const [file, kind] of FILES) {
    const path = join(PHOTO_DIR, file);
    if (!existsSync(path)) {
      missing++;
      continue;
    }
    const raster = decodeFile(path);
    images.push({
      name: file.split('/').pop(),
      kind,
      source: `${raster.width}x${raster.height}`,
      raster: await fitImage(raster, box),
    });
  }
  if (missing > 0) {
    log(`(${missing} pictures missing from ${PHOTO_DIR})`);
  }
  for (const img of syntheticImages()) images.push({ ...img, raster: await fitImage(img.raster, box) });
  return images;
}
