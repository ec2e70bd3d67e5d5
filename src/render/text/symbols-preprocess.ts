/**
 * Preparing a picture for the 16 ANSI colours: its contrast stretched and its colours made more
 * saturated, so that the few palette colours it is fitted to spread over the picture's own range
 * instead of collapsing it onto greys. The 16 colours are far apart (the nearest colour of a
 * dusky sky or a dark red is a grey), so the picture's differences, not its exact values, are what
 * can survive. The same idea as chafa's preprocessing, which it turns on at 16 colours or fewer.
 * Measured: docs/render.md, "Colours". Pure code.
 */
import type { Raster } from '../../core/raster.js';

/** Share of the opaque pixels, at each end of the luminance range, stretched beyond black and white. */
export const STRETCH_CLIP = 0.02;

/** How far each colour is pushed from its own grey (its luma): 1 leaves it, 2 doubles its chroma. */
export const SATURATION_BOOST = 2;

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

/**
 * A copy of `raster` with its luminance stretched so that `STRETCH_CLIP` of its opaque pixels
 * (alpha >= 128) fall below black and as many above white (a flat picture is not stretched), and
 * each colour's distance from its luma multiplied by `SATURATION_BOOST`. Alpha is kept.
 *
 * @example enhanceForPalette(raster) // a dim, dusky photo comes back bright and coloured
 */
export function enhanceForPalette(raster: Raster, clip = STRETCH_CLIP, boost = SATURATION_BOOST): Raster {
  const { data } = raster;
  const histogram = new Float64Array(256);
  let opaque = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3] < 128) continue;
    histogram[Math.round(0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2])]++;
    opaque++;
  }
  let low = 0;
  let high = 255;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v];
    if (seen >= opaque * clip) {
      low = v;
      break;
    }
  }
  seen = 0;
  for (let v = 255; v >= 0; v--) {
    seen += histogram[v];
    if (seen >= opaque * clip) {
      high = v;
      break;
    }
  }
  const scale = high > low ? 255 / (high - low) : 1;
  const shift = high > low ? low : 0;
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i += 4) {
    const r = (data[i] - shift) * scale;
    const g = (data[i + 1] - shift) * scale;
    const b = (data[i + 2] - shift) * scale;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    out[i] = clampByte(y + (r - y) * boost);
    out[i + 1] = clampByte(y + (g - y) * boost);
    out[i + 2] = clampByte(y + (b - y) * boost);
    out[i + 3] = data[i + 3];
  }
  return { width: raster.width, height: raster.height, data: out };
}
