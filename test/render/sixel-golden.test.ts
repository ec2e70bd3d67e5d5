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
import { describe, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { resize } from '../../src/render/geometry/resize.js';
import { encodeSixelBytes, type SixelOptions } from '../../src/render/pixels/sixel.js';
import { expectRecorded, halfTransparent, photos, random, sha } from './support/golden.js';

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
  for (const [name, raster] of photos()) {
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
    expectRecorded('sixel-golden.json', 'SIXEL_GOLDEN_WRITE', outputs(), 120);
  }, 300_000);
});
