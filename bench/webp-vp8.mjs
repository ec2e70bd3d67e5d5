// WebP lossy (VP8) decoding: termsight's decoder alone (dist/decode/webp-vp8.js, in process and as
// a whole Node process) against libwebp's `dwebp` as a whole process. The input is a phone-sized
// 4000x3000 photo made once into .bench-cache/: the four committed photos tiled with fine grain
// (as bench/jpeg.mjs makes its JPEG) by ImageMagick, then `cwebp -q 80`. Same run, interleaved;
// only the ratios mean much on a shared machine.
// Run alone: npx tsc -p tsconfig.build.json && node bench/webp-vp8.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeVp8 } from '../dist/decode/webp-vp8.js';
import { makeTiledPhoto } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The 4000x3000 lossy WebP, made once. */
function input() {
  mkdirSync(cache, { recursive: true });
  const webp = join(cache, 'phone-4000x3000-q80.webp');
  if (existsSync(webp)) return webp;
  const jpeg = join(cache, 'phone-4000x3000-for-webp.png');
  makeTiledPhoto(jpeg);
  execFileSync('cwebp', ['-quiet', '-q', '80', jpeg, '-o', webp]);
  return webp;
}

/** The payload of the 'VP8 ' chunk (the container is not what is measured here). */
function vp8Payload(file) {
  for (let p = 12; p + 8 <= file.length; ) {
    const size = file.readUInt32LE(p + 4);
    if (file.toString('latin1', p, p + 4) === 'VP8 ') return new Uint8Array(file.buffer, file.byteOffset + p + 8, size);
    p += 8 + size + (size & 1);
  }
  throw new Error('no VP8 chunk');
}

/** Wall and CPU time and peak resident memory of one whole process (bench/machine.mjs's timer). */
function processOnce(argv) {
  const cost = processCost(argv);
  if (!cost.ok) throw new Error(`${argv[0]} failed: ${cost.stderr}`);
  return { ms: cost.ms, cpu: cost.cpu, mib: cost.rss };
}

const f0 = (x) => x.toFixed(0);
const f2 = (x) => x.toFixed(2);
const LIMITS = { maxPixels: 50_000_000, maxSide: 30_000 };

export async function run(log = console.log) {
  if (!has('convert') || !has('cwebp') || !has('dwebp')) {
    log('webp-vp8: skipped (ImageMagick `convert`, `cwebp` and `dwebp` are needed; Debian: imagemagick, webp)');
    return;
  }
  const path = input();
  const file = readFileSync(path);
  const payload = vp8Payload(file);

  // In process: the decoder's own wall and CPU time, after one warm-up decode.
  decodeVp8(payload, LIMITS);
  const inProcess = [];
  const inProcessCpu = [];
  for (let i = 0; i < 5; i++) {
    const start = performance.now();
    const cpu = process.cpuUsage();
    decodeVp8(payload, LIMITS);
    const used = process.cpuUsage(cpu);
    inProcess.push(performance.now() - start);
    inProcessCpu.push((used.user + used.system) / 1000);
  }

  if (!canTimeProcesses()) {
    log(
      `webp-vp8: in-process decode of ${path}: ${f0(median(inProcess))} ms (median of 5); whole-process rows skipped (no /usr/bin/time)`,
    );
    return;
  }
  // Whole processes, interleaved: dwebp to PAM (RGBA, what termsight produces), and Node
  // reading the file, decoding the VP8 chunk with termsight, and exiting.
  const dist = pathToFileURL(join(root, 'dist/decode/webp-vp8.js')).href;
  const node = [
    process.execPath,
    '--input-type=module',
    '-e',
    `const f = (await import('node:fs')).readFileSync(${JSON.stringify(path)});
     const s = f.readUInt32LE(16);
     (await import(${JSON.stringify(dist)})).decodeVp8(new Uint8Array(f.buffer, f.byteOffset + 20, s), { maxPixels: 5e7, maxSide: 30000 });`,
  ];
  const dwebp = ['dwebp', '-quiet', path, '-pam', '-o', '/dev/null'];
  const ours = [];
  const theirs = [];
  log(`before: ${loadLine()}`);
  for (let i = 0; i < 5; i++) {
    theirs.push(processOnce(dwebp));
    ours.push(processOnce(node));
  }
  const pick = (runs, key) => median(runs.map((r) => r[key]));
  const dMs = pick(theirs, 'ms');
  const dCpu = pick(theirs, 'cpu');
  const dMib = Math.max(...theirs.map((r) => r.mib));
  log(
    `webp-vp8: a 4000x3000 lossy WebP (${(file.length / 1e6).toFixed(1)} MB, cwebp -q 80) to RGBA; medians of 5, interleaved`,
  );
  log('');
  log('| what | wall ms | CPU ms | peak RSS MiB | wall vs dwebp | CPU vs dwebp | memory vs dwebp |');
  log('| --- | --- | --- | --- | --- | --- | --- |');
  log(`| dwebp -pam, whole process | ${f0(dMs)} | ${f0(dCpu)} | ${f0(dMib)} | 1.00x | 1.00x | 1.00x |`);
  const oMs = pick(ours, 'ms');
  const oCpu = pick(ours, 'cpu');
  const oMib = Math.max(...ours.map((r) => r.mib));
  log(
    `| termsight decodeVp8, whole Node process | ${f0(oMs)} | ${f0(oCpu)} | ${f0(oMib)} | ${f2(oMs / dMs)}x | ${f2(oCpu / dCpu)}x | ${f2(oMib / dMib)}x |`,
  );
  const inMs = median(inProcess);
  const inCpu = median(inProcessCpu);
  log(
    `| termsight decodeVp8 in process (warm) | ${f0(inMs)} | ${f0(inCpu)} | | ${f2(inMs / dMs)}x | ${f2(inCpu / dCpu)}x | |`,
  );
  log(`after: ${loadLine()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
