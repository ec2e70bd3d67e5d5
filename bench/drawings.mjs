// Drawings for the text-picture benchmarks, made here so that no test or tuning ever saw them:
// flat-colour shapes with anti-aliased outlines on white, thin line art, and the 12-colour chart
// of bench/images.mjs. Each is drawn by a seeded procedure, so every run sees the same pixels.
import { syntheticImages } from './images.mjs';

/** Coverage (0..1) of the pixel at (x, y) by a disc, from the distance of its centre to the edge. */
function discCover(x, y, cx, cy, radius) {
  const d = Math.hypot(x + 0.5 - cx, y + 0.5 - cy) - radius;
  return Math.max(0, Math.min(1, 0.5 - d));
}

function blank(width, height, rgb) {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...rgb, 255], i * 4);
  return { width, height, data };
}

function paint(r, x, y, rgb, cover) {
  if (cover <= 0) return;
  const o = (y * r.width + x) * 4;
  for (let c = 0; c < 3; c++) r.data[o + c] = Math.round(r.data[o + c] * (1 - cover) + rgb[c] * cover);
}

/** Flat-colour discs and rings with dark outlines on white, like a simple illustration. */
function shapes() {
  const r = blank(900, 600, [250, 248, 240]);
  const discs = [
    [220, 250, 150, [230, 80, 60]],
    [480, 330, 190, [60, 140, 220]],
    [700, 220, 120, [250, 200, 40]],
    [330, 470, 90, [90, 180, 90]],
  ];
  for (const [cx, cy, rad, rgb] of discs) {
    for (let y = Math.max(0, cy - rad - 6); y < Math.min(r.height, cy + rad + 6); y++)
      for (let x = Math.max(0, cx - rad - 6); x < Math.min(r.width, cx + rad + 6); x++) {
        paint(r, x, y, [30, 30, 40], discCover(x, y, cx, cy, rad + 4));
        paint(r, x, y, rgb, discCover(x, y, cx, cy, rad));
      }
  }
  return r;
}

/** Line art: dark strokes 1 to 4 pixels wide on white (a grid, diagonals, circles). */
function lineArt() {
  const r = blank(800, 600, [255, 255, 255]);
  const ink = [20, 20, 20];
  for (let y = 0; y < r.height; y++)
    for (let x = 0; x < r.width; x++) {
      let cover = 0;
      if (x % 100 < 2 || y % 100 < 2) cover = 1;
      const diag = Math.abs(((x - y) % 150) + 0.5) - 1.5;
      cover = Math.max(cover, Math.max(0, Math.min(1, 0.5 - diag)));
      for (const [cx, cy, rad, w] of [
        [400, 300, 220, 4],
        [400, 300, 150, 2],
        [400, 300, 80, 1],
      ]) {
        const d = Math.abs(Math.hypot(x + 0.5 - cx, y + 0.5 - cy) - rad) - w / 2;
        cover = Math.max(cover, Math.max(0, Math.min(1, 0.5 - d)));
      }
      paint(r, x, y, ink, cover);
    }
  return r;
}

/** The drawings: `{ name, raster }`, opaque. */
export function drawings() {
  const chart = syntheticImages().find((i) => i.kind === 'drawing');
  return [
    { name: 'drawing: shapes', raster: shapes() },
    { name: 'drawing: line art', raster: lineArt() },
    ...(chart ? [{ name: 'drawing: chart', raster: chart.raster }] : []),
  ];
}
