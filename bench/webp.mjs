// WebP decoding: termsight's own decoder against @jsquash/webp (libwebp compiled to WebAssembly,
// what a Node program would install instead; sharp's native libwebp is the other, see
// docs/decode.md "Why not sharp") in the same process, and whole processes against dwebp
// (libwebp's own tool), a fresh Node running @jsquash/webp, and `termsight show` against chafa.
// Inputs are made once from the committed photos with cwebp into .bench-cache/: the 1000x872
// Hubble picture lossless and lossy (q80), plus the animated fixture made by gif2webp.
// Run alone: npx tsc -p tsconfig.build.json && node bench/webp.mjs
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeImage } from '../dist/decode/index.js';
import { canTimeProcesses, loadLine, median as middle, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');
const images = join(root, 'test/fixtures/images');

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function inputs() {
  mkdirSync(cache, { recursive: true });
  const lossless = join(cache, 'hubble-1000x872-lossless.webp');
  const lossy = join(cache, 'hubble-1000x872-q80.webp');
  const source = join(images, 'hubble_deep_field.jpg');
  if (!existsSync(lossless)) execFileSync('cwebp', ['-quiet', '-lossless', source, '-o', lossless]);
  if (!existsSync(lossy)) execFileSync('cwebp', ['-quiet', '-q', '80', source, '-o', lossy]);
  return { lossless, lossy, animated: join(images, 'webp/anim-coffee.webp') };
}

/** Median wall time of `runs` calls (after one warm-up), or null when the call throws. */
async function median(fn, runs) {
  try {
    await fn();
  } catch {
    return null;
  }
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Wall and CPU time (medians of `runs`) and peak resident memory (the largest) of a whole process,
 * by bench/machine.mjs's timer; null when it fails. On a shared machine the CPU a process spends
 * moves far less than its wall time.
 */
function processCosts(argv, runs = 5) {
  const results = [];
  for (let i = 0; i < runs; i++) {
    const cost = processCost(argv);
    if (!cost.ok) return null;
    results.push(cost);
  }
  return {
    wall: middle(results.map((r) => r.ms)),
    ms: middle(results.map((r) => r.cpu)),
    mib: Math.max(...results.map((r) => r.rss)),
  };
}

const f1 = (x) => (x === null ? 'n/a' : x.toFixed(1));
const ratio = (a, b) => (a === null || b === null ? 'n/a' : `${(a / b).toFixed(2)}x`);

/** @jsquash/webp's decoder, initialised from its wasm file (its default loader fetches a URL, which Node cannot). */
async function jsquash() {
  const wasm = join(root, 'node_modules/@jsquash/webp/codec/dec/webp_dec.wasm');
  if (!existsSync(wasm)) return null;
  const { default: decode, init } = await import('@jsquash/webp/decode.js');
  await init(await WebAssembly.compile(readFileSync(wasm)));
  return decode;
}

export async function run(log = console.log) {
  if (!has('cwebp')) {
    log('webp: skipped (cwebp, Debian package webp, makes the inputs)');
    return;
  }
  const files = inputs();
  const peer = await jsquash();
  log('webp: in-process decode (ms, median of 7; ratio = termsight / @jsquash/webp 1.5.0, > 1 is slower)');
  log('');
  log('| file | termsight | @jsquash/webp | ratio |');
  log('| --- | --- | --- | --- |');
  for (const [name, path, options] of [
    ['lossless 1000x872', files.lossless, {}],
    ['lossy q80 1000x872', files.lossy, {}],
    ['animated 80x60, 3 frames (termsight: all frames)', files.animated, { frames: 'all' }],
  ]) {
    const bytes = new Uint8Array(readFileSync(path));
    const ours = await median(() => decodeImage(bytes, options), 7);
    // @jsquash decodes an animation's first frame only.
    const theirs = peer ? await median(() => peer(bytes), 7) : null;
    log(`| ${name} (${f1(bytes.length / 1024)} KiB) | ${f1(ours)} | ${f1(theirs)} | ${ratio(ours, theirs)} |`);
  }

  if (!canTimeProcesses()) {
    log('');
    log('webp: whole-process comparison skipped (/usr/bin/time is not installed)');
    return;
  }
  const node = (code) => [process.execPath, '--input-type=module', '-e', code];
  const dist = pathToFileURL(join(root, 'dist/decode/load.js')).href;
  const cli = join(root, 'dist/cli/main.js');
  for (const [name, file] of [
    ['lossless', files.lossless],
    ['lossy', files.lossy],
  ]) {
    log('');
    log(`webp: whole process, ${name} 1000x872 (wall and CPU ms, medians of 5; peak RSS)`);
    log('');
    log(`before: ${loadLine()}`);
    const read = `const b = (await import('node:fs')).readFileSync(${JSON.stringify(file)});`;
    const cases = [
      [
        'termsight decodeImageLoading',
        node(`${read} await (await import(${JSON.stringify(dist)})).decodeImageLoading(b);`),
      ],
      ['dwebp -pam', ['dwebp', '-quiet', '-pam', file, '-o', '/dev/null']],
    ];
    if (peer) {
      const wasm = JSON.stringify(join(root, 'node_modules/@jsquash/webp/codec/dec/webp_dec.wasm'));
      cases.push([
        '@jsquash/webp',
        node(
          `${read} const m = await import('@jsquash/webp/decode.js'); await m.init(await WebAssembly.compile((await import('node:fs')).readFileSync(${wasm}))); await m.default(b);`,
        ),
      ]);
    }
    cases.push(
      [
        'termsight show --protocol symbols --width 100',
        [process.execPath, cli, 'show', '--no-probe', '--protocol', 'symbols', '--width', '100', file],
      ],
      ['chafa --format symbols --size 100x', ['chafa', '--format', 'symbols', '--size', '100x', file]],
      [
        'termsight show --protocol sixel --width 100',
        [process.execPath, cli, 'show', '--no-probe', '--protocol', 'sixel', '--width', '100', file],
      ],
      ['chafa --format sixels --size 100x', ['chafa', '--format', 'sixels', '--size', '100x', file]],
    );
    const results = cases
      .filter(([label]) => !label.startsWith('chafa') || has('chafa'))
      .map(([label, argv]) => ({ label, cost: processCosts(argv) }));
    log('| process | wall ms | CPU ms | MiB |');
    log('| --- | --- | --- | --- |');
    for (const { label, cost } of results)
      log(
        `| ${label} | ${cost ? cost.wall.toFixed(0) : 'failed'} | ${cost ? cost.ms.toFixed(0) : ''} | ${cost ? cost.mib.toFixed(0) : ''} |`,
      );
    log(`after: ${loadLine()}`);
    const by = (label) => results.find((r) => r.label === label)?.cost ?? null;
    const pairs = [
      ['termsight decodeImageLoading', 'dwebp -pam'],
      ['termsight decodeImageLoading', '@jsquash/webp'],
      ['termsight show --protocol symbols --width 100', 'chafa --format symbols --size 100x'],
      ['termsight show --protocol sixel --width 100', 'chafa --format sixels --size 100x'],
    ];
    log('');
    for (const [a, b] of pairs) {
      const x = by(a);
      const y = by(b);
      if (x && y)
        log(`${a} / ${b}: wall ${ratio(x.wall, y.wall)}, CPU ${ratio(x.ms, y.ms)}, memory ${ratio(x.mib, y.mib)}`);
    }
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
