/**
 * The braille renderer as a plain per-pixel model of its documented rules (docs/render.md#braille):
 * level = largest channel distance from the background x 256, threshold = round(mean of the 3x3
 * cells / 2) + 64 + Bayer offset, alpha < 128 never lit, others blended onto the background and
 * rounded per channel first, colour = rounded average of the lit dots, or of one group when they
 * split in two. Written for clarity, not speed: braille.ts's unrolled, 32-bit, table and XOR paths
 * must agree with it exactly, and the tests check that they do.
 */
import type { Raster } from '../../core/raster.js';
import { BRAILLE_BITS } from './braille.js';
import { fgParams } from './color.js';

/** The 4x4 ordered-dither matrix braille.ts uses. */
const BAYER = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];

/** A lit dot: its shown colour and its bit in the cell. */
type Dot = { rgb: number[]; bit: number };
const avg = (dots: Dot[]): number =>
  [0, 1, 2].reduce((acc, ch) => {
    const s = dots.reduce((t, d) => t + d.rgb[ch], 0);
    return (acc << 8) | Math.floor((s + (dots.length >> 1)) / dots.length);
  }, 0);

/**
 * The documented 2-means split of a cell's lit dots (in dot order), or null when they are alike
 * or not clearly two groups. A centre is kept as [count, sums]; distances to it are compared
 * exactly by scaling with the counts.
 */
function splitLitDots(dots: Dot[], bgc: readonly number[], parity: number): { bits: number; color: number } | null {
  const spread = [0, 1, 2].map(
    (ch) => Math.max(...dots.map((d) => d.rgb[ch])) - Math.min(...dots.map((d) => d.rgb[ch])),
  );
  if (spread.every((v) => v < 128)) return null;
  const ch = spread.indexOf(Math.max(...spread));
  const values = dots.map((d) => d.rgb[ch]);
  const seeds = [values.indexOf(Math.min(...values)), values.indexOf(Math.max(...values))];
  let centres = seeds.map((k) => ({ n: 1, s: [...dots[k].rgb] }));
  let groups: number[] = dots.map(() => -2);
  // |x - S/n|^2 x (n0 n1)^2
  const dist = (x: number[], c: { n: number; s: number[] }, other: { n: number }) =>
    x.reduce((t, v, i) => t + (c.n * v - c.s[i]) ** 2, 0) * other.n ** 2;
  for (let round = 0; round < 4; round++) {
    const [c0, c1] = centres;
    const sep = [0, 1, 2].reduce((t, i) => t + (c1.n * c0.s[i] - c0.n * c1.s[i]) ** 2, 0);
    const next = dots.map((d) => {
      const d0 = dist(d.rgb, c0, c1),
        d1 = dist(d.rgb, c1, c0);
      const g = d1 < d0 ? 1 : 0;
      return 9 * Math.min(d0, d1) > sep ? -1 : g;
    });
    const moved = next.some((g, k) => g !== groups[k]);
    groups = next;
    centres = centres.map((c, g) => {
      const members = dots.filter((_, k) => groups[k] === g);
      return members.length === 0
        ? c
        : { n: members.length, s: [0, 1, 2].map((i) => members.reduce((t, d) => t + d.rgb[i], 0)) };
    });
    if (!groups.includes(0) || !groups.includes(1)) return null;
    if (!moved) break;
  }
  const [c0, c1] = centres;
  if ([0, 1, 2].every((i) => Math.abs(c1.n * c0.s[i] - c0.n * c1.s[i]) < 128 * c0.n * c1.n)) return null;
  let show: number;
  if (c0.n !== c1.n) show = c0.n > c1.n ? 0 : 1;
  else {
    const contrast = [0, 1].map((g) =>
      dots
        .filter((_, k) => groups[k] === g)
        .reduce((t, d) => t + d.rgb.reduce((u, v, i) => u + (v - bgc[i]) ** 2, 0), 0),
    );
    const first = groups.find((g) => g >= 0) ?? 0;
    show = contrast[0] !== contrast[1] ? (contrast[0] > contrast[1] ? 0 : 1) : parity === 0 ? first : 1 - first;
  }
  const shown = dots.filter((_, k) => groups[k] === show);
  return { bits: shown.reduce((t, d) => t | d.bit, 0), color: avg(shown) };
}
/** Each cell's dot bits and its colour (packed 0xRRGGBB), in cell order, by the model. */
export function brailleReferenceDots(
  r: Raster,
  bgc: readonly [number, number, number] = [0, 0, 0],
): { bits: number[]; colors: number[] } {
  const cols = Math.ceil(r.width / 2),
    rows = Math.ceil(r.height / 4);
  const lum = (x: number, y: number): number | null => {
    const p = (y * r.width + x) * 4,
      a = r.data[p + 3];
    if (a < 128) return null;
    const k = a / 255,
      j = 1 - k;
    const shown = [0, 1, 2].map((ch) => (a === 255 ? r.data[p + ch] : (r.data[p + ch] * k + bgc[ch] * j + 0.5) | 0));
    return (
      Math.max(...shown.map((v, ch) => Math.round((Math.abs(v - bgc[ch]) * 255) / Math.max(bgc[ch], 255 - bgc[ch])))) *
      256
    );
  };
  const bits: number[] = [],
    colors: number[] = [];
  for (let cy = 0; cy < rows; cy++)
    for (let cx = 0; cx < cols; cx++) {
      let s = 0,
        n = 0;
      for (let y = Math.max(0, cy * 4 - 4); y < Math.min(r.height, cy * 4 + 8); y++) {
        for (let x = Math.max(0, cx * 2 - 2); x < Math.min(r.width, cx * 2 + 4); x++) {
          const v = lum(x, y);
          if (v !== null) {
            s += v;
            n++;
          }
        }
      }
      const base = Math.round((n > 0 ? s / n : 0) * 0.5) + 64 * 256;
      const lit: Dot[] = [];
      for (let y = cy * 4; y < Math.min(r.height, cy * 4 + 4); y++)
        for (let x = cx * 2; x < Math.min(r.width, cx * 2 + 2); x++) {
          const v = lum(x, y);
          if (v === null || v <= base + Math.round(((BAYER[(y & 3) * 4 + (x & 3)] + 0.5) / 16 - 0.5) * 120 * 256))
            continue;
          const p = (y * r.width + x) * 4,
            a = r.data[p + 3] / 255;
          const rgb = [0, 1, 2].map((ch) =>
            a === 1 ? r.data[p + ch] : (r.data[p + ch] * a + bgc[ch] * (1 - a) + 0.5) | 0,
          );
          lit.push({ rgb, bit: BRAILLE_BITS[(y & 3) * 2 + (x & 1)] });
        }
      const split = lit.length > 1 ? splitLitDots(lit, bgc, (cx + cy) & 1) : null;
      bits.push(split ? split.bits : lit.reduce((t, d) => t | d.bit, 0));
      colors.push(split ? split.color : lit.length === 0 ? 0 : avg(lit));
    }
  return { bits, colors };
}

/**
 * The text the model implies, written with plain strings: one line per cell row, the foreground
 * SGR only where it changes, each coloured line ended by a reset.
 *
 * @example brailleReferenceText({ width: 2, height: 4, data: new Uint8Array(32).fill(255) }, 'none') // '⣿'
 */
export function brailleReferenceText(
  r: Raster,
  color: 'truecolor' | '256' | 'none',
  bgc?: readonly [number, number, number],
): string {
  const { bits, colors } = brailleReferenceDots(r, bgc);
  const cols = Math.ceil(r.width / 2),
    lines: string[] = [];
  for (let cy = 0; cy * cols < bits.length; cy++) {
    let line = '',
      current = '';
    for (let c = cy * cols; c < (cy + 1) * cols; c++) {
      if (bits[c] !== 0 && color !== 'none') {
        const col = colors[c];
        const sgr = `\x1b[${fgParams(col >>> 16, (col >>> 8) & 255, col & 255, color)}m`;
        if (sgr !== current) {
          line += sgr;
          current = sgr;
        }
      }
      line += String.fromCharCode(0x2800 + bits[c]);
    }
    lines.push(color === 'none' ? line : `${line}\x1b[0m`);
  }
  return lines.join('\n');
}
