/**
 * sixel pictures byte for byte as they were before the first-call work of issue 26: SHA-256 of the
 * sequence of every case below, recorded from the source at main e7834cd in
 * test/fixtures/render/sixel-golden.json. A change that moves one byte of one picture fails here.
 * The cases: the seven committed photos fitted to several sizes, each encoded with the default
 * options (palette, Floyd–Steinberg), with 16 and 64 registers, without dithering, at full error
 * strength, half transparent (unpainted pixels, a background, `transparency: false`), with
 * `registerZero`; synthetic pictures of many colours (noise: many cache misses in the colour
 * search) and of few (the exact path). Written anew only on purpose:
 * `SIXEL_GOLDEN_WRITE=1 npx vitest run test/render/sixel-golden.test.ts`.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { decodeImage } from '../../src/decode/index.js';
import { resize } from '../../src/render/geometry/resize.js';
import { encodeSixelBytes, type SixelOptions } from '../../src/render/pixels/sixel.js';

const here = dirname(fileURLToPath(import.meta.url));
const GOLDEN = join(here, '../fixtures/render/sixel-golden.json');
const PHOTOS = [
  'astronaut.png',
  'camera.png',
  'chelsea.png',
  'coffee.png',
  'hubble_deep_field.jpg',
  'retina.jpg',
  'rocket.jpg',
];

const sha = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 32);

/** A deterministic pseudo-random source (mulberry32). */
function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `raster` with alpha falling from 255 at the left to 0 at the right. */
function halfTransparent(raster: Raster): Raster {
  const data = new Uint8Array(raster.data);
  for (let y = 0; y < raster.height; y++)
    for (let x = 0; x < raster.width; x++)
      data[(y * raster.width + x) * 4 + 3] = 255 - Math.floor((x * 255) / raster.width);
  return { width: raster.width, height: raster.height, data };
}

/** `width` x `height` of uniform noise (`levels` levels a channel), opaque. */
function noise(width: number, height: number, seed: number, levels: number): Raster {
  const rand = random(seed);
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) {
    data[i] = Math.floor(rand() * levels) * Math.floor(255 / (levels - 1));
    data[i + 1] = Math.floor(rand() * levels) * Math.floor(255 / (levels - 1));
    data[i + 2] = Math.floor(rand() * levels) * Math.floor(255 / (levels - 1));
    data[i + 3] = 255;
  }
  return { width, height, data };
}

const OPTIONS: readonly [string, SixelOptions][] = [
  ['default', {}],
  ['16 registers', { sixelColors: 16 }],
  ['64 registers', { sixelColors: 64 }],
  ['no dither', { dither: 'none' }],
  ['strength 1', { ditherStrength: 1 }],
  ['register zero', { registerZero: [255, 255, 255] }],
];

const TRANSPARENT_OPTIONS: readonly [string, SixelOptions][] = [
  ['default', {}],
  ['background', { background: [30, 60, 90] }],
  ['painted', { transparency: false }],
  ['threshold 20', { alphaThreshold: 20, sixelColors: 32 }],
];

/** Every case's hash, by name. */
function outputs(): Record<string, string> {
  const got: Record<string, string> = {};
  const pictures: [string, Raster][] = PHOTOS.map((name) => [
    name,
    decodeImage(readFileSync(join(here, '../fixtures/images', name))).frames[0].raster,
  ]);
  for (const [name, raster] of pictures) {
    const sizes: [number, number][] = [
      [Math.min(640, raster.width), Math.round((Math.min(640, raster.width) * raster.height) / raster.width)],
      [97, 61],
    ];
    for (const [w, h] of sizes) {
      const fitted = resize(raster, w, h);
      for (const [option, options] of OPTIONS)
        got[`${name} ${w}x${h} ${option}`] = sha(encodeSixelBytes(fitted, options));
    }
    const clear = halfTransparent(resize(raster, 160, Math.max(1, Math.round((160 * raster.height) / raster.width))));
    for (const [option, options] of TRANSPARENT_OPTIONS)
      got[`${name} half transparent ${option}`] = sha(encodeSixelBytes(clear, options));
  }
  for (const [w, h, seed, levels] of [
    [300, 200, 1, 256],
    [64, 500, 2, 256],
    [200, 100, 3, 7],
    [123, 45, 4, 4],
  ] as const) {
    const raster = noise(w, h, seed, levels);
    for (const [option, options] of OPTIONS)
      got[`noise ${w}x${h} ${levels} levels ${option}`] = sha(encodeSixelBytes(raster, options));
  }
  return got;
}

describe('sixel pictures byte for byte as before (issue 26)', () => {
  it('every case hashes as recorded', () => {
    const got = outputs();
    if (process.env.SIXEL_GOLDEN_WRITE === '1') writeFileSync(GOLDEN, `${JSON.stringify(got, null, 1)}\n`);
    const recorded = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, string>;
    expect(Object.keys(got).length).toBeGreaterThan(120);
    expect(got).toEqual(recorded);
  }, 300_000);
});
