// iTerm2: termsight's PNG encoder against fast-png's `encode` on the same fitted pictures (each
// given RGB when the picture is opaque and RGBA otherwise, as ours chooses), plus the whole
// OSC 1337 sequence. Goals (medians): at least twice as fast as fast-png, no larger.
// Run: `npx tsc -p tsconfig.build.json && node bench/iterm2.mjs`.
import { pathToFileURL } from 'node:url';
import { encode as fastPngEncode } from 'fast-png';
import { encodeIterm2 } from '../dist/render/pixels/iterm2.js';
import { encodePng } from '../dist/render/pixels/png.js';
import { loadImages } from './images.mjs';
import { fmt, measure, median, table } from './quality.mjs';

function opaque(raster) {
  for (let i = 3; i < raster.data.length; i += 4) if (raster.data[i] !== 255) return false;
  return true;
}

function fastPng(raster) {
  if (!opaque(raster))
    return fastPngEncode({ width: raster.width, height: raster.height, data: raster.data, channels: 4, depth: 8 });
  const n = raster.width * raster.height;
  const rgb = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++) {
    rgb[i * 3] = raster.data[i * 4];
    rgb[i * 3 + 1] = raster.data[i * 4 + 1];
    rgb[i * 3 + 2] = raster.data[i * 4 + 2];
  }
  return fastPngEncode({ width: raster.width, height: raster.height, data: rgb, channels: 3, depth: 8 });
}

/** Runs the benchmark and prints its table through `log`. */
export async function run(log = console.log) {
  const images = await loadImages({ log });
  const rows = [
    ['image', 'kind', 'size', 'fast-png ms', 'ours ms', 'speed x', 'fast-png KiB', 'ours KiB', 'bytes ratio', 'OSC ms'],
  ];
  const speed = [];
  const bytes = [];
  for (const { name, kind, raster } of images) {
    const f = await measure(() => fastPng(raster));
    const o = await measure(() => encodePng(raster));
    const seq = await measure(() => encodeIterm2(raster, { columns: 100, rows: 30 }));
    const s = f.ms / o.ms;
    const b = o.result.length / f.result.length;
    speed.push(s);
    bytes.push(b);
    rows.push([
      name,
      kind,
      `${raster.width}x${raster.height}`,
      fmt(f.ms),
      fmt(o.ms),
      fmt(s, 2),
      fmt(f.result.length / 1024, 0),
      fmt(o.result.length / 1024, 0),
      fmt(b, 3),
      fmt(seq.ms),
    ]);
  }
  rows.push(['median', '', '', '', '', fmt(median(speed), 2), '', '', fmt(median(bytes), 3), '']);
  log(table(rows));
  log('');
  log(
    `iTerm2 PNG: ${fmt(median(speed), 2)}x the speed of fast-png (goal >= 2), ${fmt(median(bytes), 3)}x its size (goal <= 1)`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
