/**
 * What the golden tests of render's encoders share (symbols-golden, sixel-golden): the committed
 * photos they draw, a short hash of an output, deterministic synthetic pictures, and the check of
 * every case's hash against the recorded file (written anew only when the named variable is 1).
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import type { Raster } from '../../../src/core/raster.js';
import { decodeImage } from '../../../src/decode/index.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../fixtures');

/** The seven committed photos, each name with its decoded first frame. */
export function photos(): [string, Raster][] {
  return [
    'astronaut.png',
    'camera.png',
    'chelsea.png',
    'coffee.png',
    'hubble_deep_field.jpg',
    'retina.jpg',
    'rocket.jpg',
  ].map((name) => [name, decodeImage(readFileSync(join(FIXTURES, 'images', name))).frames[0].raster]);
}

/** The first 32 hex digits of the SHA-256 of an output. */
export const sha = (output: string | Uint8Array): string =>
  createHash('sha256').update(output).digest('hex').slice(0, 32);

/** A deterministic pseudo-random source (mulberry32). */
export function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `raster` with alpha falling from 255 at the left to 0 at the right (every branch of an encoder's alpha). */
export function halfTransparent(raster: Raster): Raster {
  const data = new Uint8Array(raster.data);
  for (let y = 0; y < raster.height; y++)
    for (let x = 0; x < raster.width; x++)
      data[(y * raster.width + x) * 4 + 3] = 255 - Math.floor((x * 255) / raster.width);
  return { width: raster.width, height: raster.height, data };
}

/**
 * Every case's hash equals the one recorded in test/fixtures/render/`file`; with the environment
 * variable `writeVariable` set to 1 the file is written from `got` first (on purpose only).
 */
export function expectRecorded(
  file: string,
  writeVariable: string,
  got: Record<string, string>,
  atLeast: number,
): void {
  const path = join(FIXTURES, 'render', file);
  if (process.env[writeVariable] === '1') writeFileSync(path, `${JSON.stringify(got, null, 1)}\n`);
  const recorded = JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>;
  expect(Object.keys(got).length).toBeGreaterThan(atLeast);
  expect(got).toEqual(recorded);
}
