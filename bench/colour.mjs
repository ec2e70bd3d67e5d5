// The colour transform on a 12 MP picture (4000x3000 RGBA): planColour (read the profile, build
// the tables) and transformPixels (per channel to linear by table, the 3x3 matrix, sRGB by a
// 16385-entry table), for a Display P3 profile (matrix) and a grey profile (three 256-entry
// tables), on bench/jpeg.mjs's 4000x3000 photo, against decoding that photo (full size, and for
// a 1000x750 box, where the transform then runs on 1/16 of the pixels). Same process, medians of
// 5. Run alone: node bench/colour.mjs (after npm run build; ImageMagick makes the photo once).

import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { planColour, transformPixels } from '../dist/decode/colour.js';
import { colorantsOf } from '../dist/decode/colour-space.js';
import { decodeImage } from '../dist/decode/index.js';
import { inputs } from './jpeg.mjs';

const WIDTH = 4000;
const HEIGHT = 3000;

function picture() {
  const data = new Uint8Array(WIDTH * HEIGHT * 4);
  let s = 1;
  for (let y = 0, o = 0; y < HEIGHT; y++)
    for (let x = 0; x < WIDTH; x++, o += 4) {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      const n = (s >>> 26) - 32;
      data[o] = Math.max(0, Math.min(255, ((x * 255) / WIDTH + n) | 0));
      data[o + 1] = Math.max(0, Math.min(255, ((y * 255) / HEIGHT + n) | 0));
      data[o + 2] = Math.max(0, Math.min(255, 128 + n));
      data[o + 3] = 255;
    }
  return data;
}

/** A minimal v4 matrix/TRC profile: Display P3 primaries, the sRGB curve as para type 3. */
function p3Profile() {
  const m = colorantsOf({ red: [0.68, 0.32], green: [0.265, 0.69], blue: [0.15, 0.06], white: [0.3127, 0.329] });
  const parts = [];
  const tag = (name, body) => parts.push([name, body]);
  const s15 = (v) => {
    const b = Buffer.alloc(4);
    b.writeInt32BE(Math.round(v * 65536));
    return b;
  };
  const xyz = (x, y, z) => Buffer.concat([Buffer.from('XYZ \0\0\0\0', 'latin1'), s15(x), s15(y), s15(z)]);
  const para = Buffer.concat([
    Buffer.from('para\0\0\0\0\0\x03\0\0', 'latin1'),
    ...[2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045].map(s15),
  ]);
  tag('rXYZ', xyz(m[0], m[3], m[6]));
  tag('gXYZ', xyz(m[1], m[4], m[7]));
  tag('bXYZ', xyz(m[2], m[5], m[8]));
  for (const n of ['rTRC', 'gTRC', 'bTRC']) tag(n, para);
  return profileOf('RGB ', parts);
}

function greyProfile() {
  return profileOf('GRAY', [['kTRC', Buffer.from('curv\0\0\0\0\0\0\0\x01\x02\x33', 'latin1')]]);
}

function profileOf(space, tags) {
  let at = 132 + tags.length * 12;
  const table = Buffer.alloc(4 + tags.length * 12);
  table.writeUInt32BE(tags.length, 0);
  const bodies = [];
  tags.forEach(([name, body], i) => {
    table.write(name, 4 + i * 12, 'latin1');
    table.writeUInt32BE(at, 8 + i * 12);
    table.writeUInt32BE(body.length, 12 + i * 12);
    const padded = Buffer.alloc((body.length + 3) & ~3);
    body.copy(padded);
    bodies.push(padded);
    at += padded.length;
  });
  const header = Buffer.alloc(128);
  header.writeUInt32BE(at, 0);
  header.writeUInt32BE(0x04300000, 8);
  header.write('mntr', 12, 'latin1');
  header.write(space, 16, 'latin1');
  header.write('XYZ ', 20, 'latin1');
  header.write('acsp', 36, 'latin1');
  return new Uint8Array(Buffer.concat([header, table, ...bodies]));
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[s.length >> 1];
}

export async function run(print = console.log) {
  let source;
  let photo = null;
  try {
    photo = readFileSync(inputs().baseline);
    source = decodeImage(photo, { colour: 'keep' }).frames[0].raster.data;
  } catch {
    source = picture();
  }
  const rows = [];
  for (const [name, profile, model] of [
    ['Display P3 (matrix/TRC)', p3Profile(), 'rgb'],
    ['grey gamma 2.2 (tables only)', greyProfile(), 'grey'],
  ]) {
    const plans = [];
    const transforms = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      const plan = planColour({ icc: profile }, model);
      plans.push(performance.now() - t);
      const data = source.slice();
      t = performance.now();
      transformPixels(plan.transform, data);
      transforms.push(performance.now() - t);
    }
    rows.push([name, median(plans).toFixed(2), median(transforms).toFixed(0)]);
  }
  if (photo) {
    const full = [];
    const box = [];
    for (let i = 0; i < 5; i++) {
      let t = performance.now();
      decodeImage(photo, { colour: 'keep' });
      full.push(performance.now() - t);
      t = performance.now();
      decodeImage(photo, { colour: 'keep', maxSize: { width: 1000, height: 750 } });
      box.push(performance.now() - t);
    }
    print(
      `JPEG decode of the photo: full size ${median(full).toFixed(0)} ms, for a 1000x750 box ${median(box).toFixed(0)} ms`,
    );
  } else print('(ImageMagick missing: a synthetic 4000x3000 picture, no decode to compare)');
  print('| profile | plan (ms) | transform 4000x3000 (ms) |');
  print('| --- | --- | --- |');
  for (const r of rows) print(`| ${r.join(' | ')} |`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
