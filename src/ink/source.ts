/**
 * An `<Image>`'s `src` as a raster: a path (read from disk), file bytes (decoded), or a raster as
 * it is. The one place the Ink component touches the file system.
 */
import { readFileSync } from 'node:fs';
import type { Raster } from '../core/raster.js';
import { decodeImage } from '../decode/index.js';

/** What `src` may be. */
export type ImageSource = string | Uint8Array | Raster;

/** A loaded source: the raster, or why there is none (shown as the `alt` text). */
export type LoadedSource = { readonly raster: Raster } | { readonly error: string };

function isRaster(value: unknown): value is Raster {
  return (
    typeof value === 'object' &&
    value !== null &&
    !(value instanceof Uint8Array) &&
    'data' in value &&
    'width' in value &&
    'height' in value
  );
}

/**
 * Loads `src`; never throws (a missing file or an undecodable one is an `error`).
 *
 * @example loadSource('photo.png') // { raster } or { error: 'ENOENT: …' }
 */
export function loadSource(src: ImageSource): LoadedSource {
  try {
    if (isRaster(src)) return { raster: src };
    const bytes = typeof src === 'string' ? readFileSync(src) : src;
    return { raster: decodeImage(bytes, { frames: 'first' }).frames[0].raster };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}
