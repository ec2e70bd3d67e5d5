// The sixel band writer as termsight 0.3.0 wrote it, kept as the reference model the writer's
// stream is compared with: registers in palette order, one colour a pass (`$` after each), in order
// of first appearance in the band. Plain and slow on purpose; nothing of src/ but the types.
import { TRANSPARENT } from '../../src/render/pixels/quantize.js';
import type { IndexedImage } from '../../src/render/pixels/sixel.js';

const percent = (v: number): number => Math.round((v * 100) / 255);

/** `ch` written `count` times, as `!count ch` from four on. */
function run(ch: string, count: number): string {
  return count > 3 ? `!${count}${ch}` : ch.repeat(count);
}

/** The whole sequence, `ESC P … ESC \`, for an image without `registerZero`. */
export function referenceSixel(image: IndexedImage): string {
  const { width, height, indices, palette } = image;
  const register = new Map<number, number>();
  let transparent = false;
  for (const v of indices) {
    if (v === TRANSPARENT) transparent = true;
    else register.set(v, 0);
  }
  const used = [...register.keys()].sort((a, b) => a - b);
  for (const [r, v] of used.entries()) register.set(v, r);
  let out = `\x1bP0;${transparent ? 1 : 0};0q"1;1;${width};${height}`;
  for (const v of used) {
    const rgb = palette.rgb;
    out += `#${register.get(v)};2;${percent(rgb[v * 3])};${percent(rgb[v * 3 + 1])};${percent(rgb[v * 3 + 2])}`;
  }
  let selected = -1;
  for (let y0 = 0; y0 < height; y0 += 6) {
    if (y0 > 0) out += '-';
    // Each register's sixel bits by column, the registers in order of first appearance.
    const bits = new Map<number, number[]>();
    for (let x = 0; x < width; x++)
      for (let row = 0; row < 6 && y0 + row < height; row++) {
        const v = indices[(y0 + row) * width + x];
        if (v === TRANSPARENT) continue;
        const r = register.get(v)!;
        if (!bits.has(r)) bits.set(r, new Array<number>(width).fill(0));
        bits.get(r)![x] |= 1 << row;
      }
    let pass = 0;
    for (const [r, columns] of bits) {
      if (pass++ > 0) out += '$';
      if (r !== selected) out += `#${r}`;
      selected = r;
      let last = width - 1;
      while (columns[last] === 0) last--;
      let x = 0;
      while (x <= last) {
        let end = x + 1;
        while (end <= last && columns[end] === columns[x]) end++;
        out += run(String.fromCharCode(63 + columns[x]), end - x);
        x = end;
      }
    }
  }
  return `${out}\x1b\\`;
}
