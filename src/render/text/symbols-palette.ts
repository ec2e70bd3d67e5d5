/**
 * The colours a symbols picture can name at each depth, as keys: a packed 0xRRGGBB for 24-bit,
 * an xterm palette index for 256 (the 6x6x6 cube and the grey ramp, 16-255) and for 16 (the ANSI
 * colours 0-15); with the SGR parameters that select them. Pure code.
 */
import { CUBE_LEVELS, nearest256, xterm256ToRgb } from './color.js';

/** The colour depths a symbols picture is written at. */
export type SymbolColorDepth = 'truecolor' | '256' | '16';

/**
 * The 16 ANSI colours as xterm draws them by default. A theme may change them; these are the
 * values the 16-colour fit aims at (the only ones known without asking the terminal).
 */
export const ANSI16: readonly (readonly [number, number, number])[] = Object.freeze([
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
]);

/** Channel weights of the colour distance (red, green, blue): squared differences are multiplied by them. */
export type ChannelWeights = readonly [number, number, number];

/**
 * The ANSI colour (0-15) nearest to an RGB colour under weighted squared distance.
 *
 * @example nearest16(250, 10, 10, [1, 1, 1]) // 9 (bright red)
 */
export function nearest16(r: number, g: number, b: number, w: ChannelWeights): number {
  let best = 0;
  let bestD = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 16; i++) {
    const c = ANSI16[i];
    const dr = r - c[0];
    const dg = g - c[1];
    const db = b - c[2];
    const d = w[0] * dr * dr + w[1] * dg * dg + w[2] * db * db;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  }
  return best;
}

function clampByte(v: number): number {
  const r = Math.round(v);
  return r < 0 ? 0 : Math.min(r, 255);
}

/**
 * The key of the colour shown for an RGB colour at a depth: 0xRRGGBB (rounded, clamped) for
 * 24-bit, else the nearest palette index.
 *
 * @example colorKey(255, 0, 0, '256', [1, 1, 1]) // 196
 */
export function colorKey(r: number, g: number, b: number, depth: SymbolColorDepth, w: ChannelWeights): number {
  const R = clampByte(r);
  const G = clampByte(g);
  const B = clampByte(b);
  if (depth === 'truecolor') return (R << 16) | (G << 8) | B;
  if (depth === '256') return nearest256(R, G, B);
  return nearest16(R, G, B, w);
}

/**
 * `colorKey(r, g, b, '256', w)` as one function without calls (the rounding and clamping of
 * `colorKey`, the cube and grey choice of `nearest256`, the same arithmetic in the same order): a
 * one-shot process runs it tens of thousands of times, most before it is optimised, where each
 * call costs.
 *
 * @example key256(255, 0, 0) // 196
 */
export function key256(r: number, g: number, b: number): number {
  let R = Math.round(r);
  R = R < 0 ? 0 : Math.min(R, 255);
  let G = Math.round(g);
  G = G < 0 ? 0 : Math.min(G, 255);
  let B = Math.round(b);
  B = B < 0 ? 0 : Math.min(B, 255);
  const ri = R < 48 ? 0 : R < 115 ? 1 : R < 155 ? 2 : R < 195 ? 3 : R < 235 ? 4 : 5;
  const gi = G < 48 ? 0 : G < 115 ? 1 : G < 155 ? 2 : G < 195 ? 3 : G < 235 ? 4 : 5;
  const bi = B < 48 ? 0 : B < 115 ? 1 : B < 155 ? 2 : B < 195 ? 3 : B < 235 ? 4 : 5;
  const cr = CUBE_LEVELS[ri];
  const cg = CUBE_LEVELS[gi];
  const cb = CUBE_LEVELS[bi];
  const cubeDist = (R - cr) * (R - cr) + (G - cg) * (G - cg) + (B - cb) * (B - cb);
  const mean = (R + G + B) / 3;
  let gray = Math.round((mean - 8) / 10);
  if (gray < 0) gray = 0;
  if (gray > 23) gray = 23;
  const gv = 8 + gray * 10;
  const grayDist = (R - gv) * (R - gv) + (G - gv) * (G - gv) + (B - gv) * (B - gv);
  return grayDist < cubeDist ? 232 + gray : 16 + 36 * ri + 6 * gi + bi;
}

/**
 * The RGB a key stands for at a depth (into `out`, which is returned).
 *
 * @example keyRgb(196, '256', [0, 0, 0]) // [255, 0, 0]
 */
export function keyRgb(key: number, depth: SymbolColorDepth, out: number[]): number[] {
  if (depth === 'truecolor') {
    out[0] = key >>> 16;
    out[1] = (key >>> 8) & 255;
    out[2] = key & 255;
  } else if (depth === '16') {
    const c = ANSI16[key];
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
  } else {
    out[0] = XTERM_RGB[key * 3];
    out[1] = XTERM_RGB[key * 3 + 1];
    out[2] = XTERM_RGB[key * 3 + 2];
  }
  return out;
}

/** The RGB of every xterm palette index 16-255 (0-15 read as the ANSI colours), 3 bytes each: `keyRgb` at 256 colours. */
export const XTERM_RGB: Uint8Array = (() => {
  const t = new Uint8Array(256 * 3);
  for (let i = 0; i < 256; i++) t.set(i < 16 ? ANSI16[i] : (xterm256ToRgb(i) ?? [0, 0, 0]), i * 3);
  return t;
})();

/**
 * SGR parameters selecting `key` as the foreground (`38;2;r;g;b`, `38;5;n`, `30`-`37`/`90`-`97`).
 *
 * @example foregroundParams(9, '16') // '91'
 */
export function foregroundParams(key: number, depth: SymbolColorDepth): string {
  if (depth === 'truecolor') return `38;2;${key >>> 16};${(key >>> 8) & 255};${key & 255}`;
  if (depth === '256') return `38;5;${key}`;
  return String(key < 8 ? 30 + key : 82 + key);
}

/** SGR parameters selecting `key` as the background (`48;2;…`, `48;5;n`, `40`-`47`/`100`-`107`). */
export function backgroundParams(key: number, depth: SymbolColorDepth): string {
  if (depth === 'truecolor') return `48;2;${key >>> 16};${(key >>> 8) & 255};${key & 255}`;
  if (depth === '256') return `48;5;${key}`;
  return String(key < 8 ? 40 + key : 92 + key);
}
