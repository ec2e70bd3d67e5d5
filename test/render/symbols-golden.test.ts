/**
 * Symbols pictures byte for byte as they were before the speed work of issue 26: SHA-256 of the
 * output of every case below, recorded from the build at main 8869cfc (before the resampling and
 * the fit were made faster) in test/fixtures/render/symbols-golden.json. A change that moves one
 * byte of one picture fails here. The cases: the seven committed photos resampled to the
 * sub-pixels at several sizes (enlarged, shrunk by 1-3 rows, by more, by hundreds: every branch of
 * symbols-resample.ts) and drawn by `toTerminal` in two boxes, then fitted at every depth
 * with several sets, opaque and half transparent, with diffusion and with another refit count
 * (every branch of symbols-fit.ts's `load`, `choose` and `chooseExact`), and two synthetic
 * pictures (one very tall, one with a transparent edge). Written anew only on purpose:
 * `SYMBOLS_GOLDEN_WRITE=1 npx vitest run test/render/symbols-golden.test.ts`.
 */
import { describe, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { layout, toTerminal } from '../../src/render/backend.js';
import { symbolsLines } from '../../src/render/text/symbols.js';
import type { SymbolSetName } from '../../src/render/text/symbols-glyphs.js';
import { resampleForSymbols } from '../../src/render/text/symbols-resample.js';
import { expectRecorded, halfTransparent, photos, random, sha } from './support/golden.js';

/** A smooth synthetic picture with noise, `width` x `height`, opaque. */
function synthetic(width: number, height: number, seed: number): Raster {
  const rand = random(seed);
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const o = (y * width + x) * 4;
      data[o] = (x * 7 + y * 3 + rand() * 60) & 255;
      data[o + 1] = (((x ^ y) & 64) * 3 + rand() * 40) & 255;
      data[o + 2] = (128 + 100 * Math.sin(y / 37) + rand() * 20) & 255;
      data[o + 3] = 255;
    }
  return { width, height, data };
}

/**
 * Sizes to resample a picture of `width` x `height` to: enlarged across and shrunk down (the usual
 * symbols grid), shrunk by about 1.5, 2.5, 5 and 40 rows an output row, enlarged on both axes.
 */
function sizes(width: number, height: number): [number, number][] {
  const down = (factor: number) => Math.max(1, Math.round(height / factor));
  return [
    [Math.min(800, width * 3), down(1.5)],
    [Math.round(width / 2.5), down(2.5)],
    [Math.round(width / 1.3), down(5)],
    [56, down(40)],
    [Math.round(width * Math.min(1.7, 900 / width)), Math.round(height * Math.min(1.3, 700 / height))],
  ];
}

const FIT_CASES: readonly { name: string; sets: readonly SymbolSetName[]; options: object }[] = [
  { name: 'block', sets: ['block'], options: {} },
  { name: 'all', sets: ['all'], options: {} },
  { name: 'block+sextant', sets: ['block', 'sextant'], options: {} },
  { name: 'octant', sets: ['octant'], options: {} },
  { name: 'braille', sets: ['braille'], options: {} },
  { name: 'half', sets: ['half'], options: {} },
  { name: 'block refit 3', sets: ['block'], options: { refit: 3 } },
  { name: 'block weights', sets: ['block'], options: { weights: [1, 1, 1] } },
];

const DEPTHS = ['truecolor', '256', '16', 'none'] as const;

/** Every case's hash, by name. */
function outputs(): Record<string, string> {
  const got: Record<string, string> = {};
  const pictures = photos();
  pictures.push(['synthetic 97x3001', synthetic(97, 3001, 7)], ['synthetic 333x61', synthetic(333, 61, 11)]);
  for (const [name, raster] of pictures) {
    for (const [w, h] of sizes(raster.width, raster.height))
      got[`${name} resampled ${w}x${h}`] = sha(resampleForSymbols(raster, w, h).data);
    for (const box of [
      { columns: 100, rows: 30 },
      { columns: 24, rows: 2 },
    ])
      got[`${name} toTerminal 256 ${box.columns}x${box.rows}`] = sha(
        toTerminal(raster, 'symbols', { ...box, upscale: true, colorDepth: '256' }),
      );
    // The fits, on the sub-pixels of a 24-column picture.
    const units = layout(raster, 'symbols', { columns: 24, upscale: true }).units;
    const sub = resampleForSymbols(raster, units.width, units.height);
    for (const depth of DEPTHS)
      for (const c of FIT_CASES)
        got[`${name} ${depth} ${c.name}`] = sha(
          symbolsLines(sub, { colorDepth: depth, symbols: c.sets, ...c.options }).join('\n'),
        );
    const clear = halfTransparent(sub);
    for (const depth of DEPTHS)
      got[`${name} ${depth} half transparent`] = sha(
        symbolsLines(clear, { colorDepth: depth, background: [30, 60, 90] }).join('\n'),
      );
    got[`${name} 16 diffused`] = sha(symbolsLines(sub, { colorDepth: '16', diffusion: 0.75 }).join('\n'));
    got[`${name} 16 diffused all`] = sha(
      symbolsLines(sub, { colorDepth: '16', diffusion: 0.75, symbols: ['all'] }).join('\n'),
    );
    got[`${name} 16 not preprocessed`] = sha(symbolsLines(sub, { colorDepth: '16', preprocess: false }).join('\n'));
    // Not opaque: resize's path, and the alpha in the fit's loader.
    got[`${name} half transparent toTerminal 256`] = sha(
      toTerminal(halfTransparent(raster), 'symbols', { columns: 40, upscale: true, colorDepth: '256' }),
    );
  }
  return got;
}

describe('symbols pictures byte for byte as before (issue 26)', () => {
  it('every case hashes as recorded', () => {
    expectRecorded('symbols-golden.json', 'SYMBOLS_GOLDEN_WRITE', outputs(), 400);
  }, 300_000);
});
