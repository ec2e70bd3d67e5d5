/**
 * The reference of src/decode/block-average.ts, written pixel by pixel from the definition: each
 * `factor` x `factor` block of interleaved samples (1-4 bands, rows `stride` samples apart,
 * `scale` to 0..255) as one RGBA8 pixel; alpha the mean alpha; colour the mean of colour weighted
 * by alpha (premultiplied, then divided by the alpha again); a block with no alpha 0, 0, 0, 0; no
 * alpha band: opaque, the plain mean. At factor 1, each pixel as stored.
 */
export function blockMeans(
  src: ArrayLike<number>,
  shape: { width: number; height: number; bands: number; stride: number; scale: number },
  factor: number,
): number[] {
  const { width, height, bands, stride, scale } = shape;
  const out: number[] = [];
  for (let by = 0; by < height; by += factor)
    for (let bx = 0; bx < width; bx += factor) {
      const pixels: [number, number, number, number][] = [];
      for (let y = by; y < Math.min(height, by + factor); y++)
        for (let x = bx; x < Math.min(width, bx + factor); x++) {
          const s = Array.from({ length: bands }, (_, c) => src[y * stride + x * bands + c] as number);
          const [r, g, b] = bands <= 2 ? [s[0], s[0], s[0]] : [s[0], s[1], s[2]];
          const a = bands === 2 ? s[1] : bands === 4 ? s[3] : undefined;
          pixels.push([r as number, g as number, b as number, a ?? -1]);
        }
      const opaque = bands === 1 || bands === 3;
      if (factor === 1) {
        const [r, g, b, a] = (pixels[0] as number[]).map((v) => Math.round(v * scale));
        out.push(r as number, g as number, b as number, opaque ? 255 : (a as number));
        continue;
      }
      // Without an alpha band every pixel weighs the same: the plain mean.
      if (opaque) for (const p of pixels) p[3] = 1;
      const alpha = pixels.reduce((sum, p) => sum + p[3], 0);
      if (alpha === 0) out.push(0, 0, 0, 0);
      else
        out.push(
          ...[0, 1, 2].map((c) =>
            Math.round((pixels.reduce((sum, p) => sum + (p[c] as number) * p[3], 0) / alpha) * scale),
          ),
          opaque ? 255 : Math.round((alpha / pixels.length) * scale),
        );
    }
  return out;
}
