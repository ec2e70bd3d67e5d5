// kitty: termsight's payload (RGB when opaque, zlib level by measured compressibility, no zlib
// for noise) against a plain encoder that sends the RGBA bytes through zlib at its default level,
// both base64-chunked into APC sequences. Goals (medians over the image set): payload within 10%
// of the plain encoder's, encoding at least twice as fast.
// Run: `npx tsc -p tsconfig.build.json && node bench/kitty.mjs`.

import { pathToFileURL } from 'node:url';
import { deflateSync } from 'node:zlib';
import { kittyChunks, kittySequences } from '../dist/render/pixels/kitty.js';
import { loadImages } from './images.mjs';
import { fmt, measure, median, table } from './quality.mjs';

/** The plain peer: RGBA, zlib default level, base64, 4096-byte chunks. */
function plainKitty(raster) {
  const z = deflateSync(raster.data);
  const keys = `a=T,f=32,s=${raster.width},v=${raster.height},o=z,i=1,q=2`;
  return kittyChunks(keys, Buffer.from(z.buffer, z.byteOffset, z.byteLength).toString('base64')).join('');
}

function ours(raster) {
  return kittySequences(raster, { imageId: 1 }).join('');
}

/** Runs the benchmark and prints its table through `log`. */
export async function run(log = console.log) {
  const images = await loadImages({ log });
  const rows = [['image', 'kind', 'size', 'plain ms', 'ours ms', 'speed x', 'plain KiB', 'ours KiB', 'bytes ratio']];
  const speed = [];
  const bytes = [];
  for (const { name, kind, raster } of images) {
    const p = await measure(() => plainKitty(raster));
    const o = await measure(() => ours(raster));
    const s = p.ms / o.ms;
    const b = o.result.length / p.result.length;
    speed.push(s);
    bytes.push(b);
    rows.push([
      name,
      kind,
      `${raster.width}x${raster.height}`,
      fmt(p.ms),
      fmt(o.ms),
      fmt(s, 2),
      fmt(p.result.length / 1024, 0),
      fmt(o.result.length / 1024, 0),
      fmt(b, 3),
    ]);
  }
  rows.push(['median', '', '', '', '', fmt(median(speed), 2), '', '', fmt(median(bytes), 3)]);
  log(table(rows));
  log('');
  const met = (ok) => (ok ? 'met' : 'NOT met');
  log(
    `kitty: ${fmt(median(speed), 2)}x the speed of zlib-default RGBA (goal >= 2: ${met(median(speed) >= 2)}), ` +
      `payload ${fmt(median(bytes), 3)}x its size (goal <= 1.10: ${met(median(bytes) <= 1.1)})`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
