/**
 * Preparing a picture for the 16 ANSI colours: contrast stretched between the 2nd and 98th
 * percentile of the opaque pixels' luma, chroma doubled about each pixel's luma, alpha kept; and
 * what it changes in a 16-colour symbols picture.
 */
import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { encodeSymbols } from '../../src/render/text/symbols.js';
import { paintSymbols } from '../../src/render/text/symbols-paint.js';
import { enhanceForPalette, SATURATION_BOOST, STRETCH_CLIP } from '../../src/render/text/symbols-preprocess.js';

/** A raster of `width` x 8 whose pixel x is `pixel(x)`. */
function strip(width: number, pixel: (x: number) => readonly [number, number, number, number]): Raster {
  const data = new Uint8Array(width * 8 * 4);
  for (let y = 0; y < 8; y++) for (let x = 0; x < width; x++) data.set(pixel(x), (y * width + x) * 4);
  return { width, height: 8, data };
}
const px = (r: Raster, x: number) => [...r.data.subarray(x * 4, x * 4 + 4)];

describe('enhanceForPalette', () => {
  it('stretches a low-contrast grey ramp over black to white', () => {
    // Greys 100..149: the 2nd percentile is 101, the 98th 148.
    const out = enhanceForPalette(strip(50, (x) => [100 + x, 100 + x, 100 + x, 255]));
    expect(px(out, 0)).toEqual([0, 0, 0, 255]);
    expect(px(out, 49)).toEqual([255, 255, 255, 255]);
    const mid = px(out, 25)[0];
    expect(mid).toBeGreaterThan(110);
    expect(mid).toBeLessThan(150);
  });

  it.each<{ name: string; pixel: readonly [number, number, number, number]; want: number[] }>([
    { name: 'a flat grey is left as it is', pixel: [64, 64, 64, 255], want: [64, 64, 64, 255] },
    {
      name: 'a flat colour keeps its luma and doubles its chroma',
      pixel: [120, 100, 100, 255],
      want: [134, 94, 94, 255],
    },
    { name: 'transparent pixels keep their alpha', pixel: [120, 100, 100, 0], want: [134, 94, 94, 0] },
  ])('$name', ({ pixel, want }) => {
    // Flat pictures: nothing to stretch; luma of (120,100,100) is 105.98, chroma (14.02, -5.98, -5.98) doubled: 2c - luma.
    const out = enhanceForPalette(strip(4, () => pixel));
    expect(px(out, 0)).toEqual(want);
  });

  it('counts only opaque pixels for the stretch', () => {
    // Half the picture transparent white: the stretch follows the opaque greys 100..109 alone.
    const out = enhanceForPalette(strip(20, (x) => (x < 10 ? [100 + x, 100 + x, 100 + x, 255] : [255, 255, 255, 0])));
    expect(px(out, 9)).toEqual([255, 255, 255, 255]);
    expect(px(out, 0)).toEqual([0, 0, 0, 255]);
  });

  it('the constants are what docs/render.md measured', () => {
    expect(STRETCH_CLIP).toBe(0.02);
    expect(SATURATION_BOOST).toBe(2);
  });
});

describe('16-colour symbols are fitted to the enhanced picture', () => {
  /** A dusky evening sky: dark blue shading to a lighter blue. */
  const sky = strip(64, (x) => [20 + x / 4, 25 + x / 3, 45 + x / 2, 255]);
  const colours = (text: string) => {
    const painted = paintSymbols(text).raster;
    const seen = new Set<string>();
    for (let i = 0; i < painted.data.length; i += 4) seen.add(painted.data.slice(i, i + 3).join(','));
    return seen;
  };

  it('a dusky sky shows blue, not only black and grey', () => {
    const enhanced = colours(encodeSymbols(sky, { colorDepth: '16' }));
    const plain = colours(encodeSymbols(sky, { colorDepth: '16', preprocess: false }));
    // ANSI blue (0,0,238) or bright blue (92,92,255) appear only with the enhancement.
    const blue = (set: Set<string>) => set.has('0,0,238') || set.has('92,92,255');
    expect(blue(enhanced)).toBe(true);
    expect(blue(plain)).toBe(false);
  });

  it('other depths are not enhanced', () => {
    expect(encodeSymbols(sky, { colorDepth: '256' })).toBe(encodeSymbols(sky, { colorDepth: '256', preprocess: true }));
    expect(encodeSymbols(sky, { colorDepth: 'truecolor' })).toBe(
      encodeSymbols(sky, { colorDepth: 'truecolor', preprocess: true }),
    );
  });
});
