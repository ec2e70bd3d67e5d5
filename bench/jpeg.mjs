// JPEG decoding: termsight's own decoder against jpeg-js (in-process, same run, ratios), and whole
// processes against libjpeg-based peers (ImageMagick `convert`, `djpeg`, `chafa`) where installed.
// The input is a phone-sized 4000x3000 photo (baseline, quality 90, 4:2:0) and its progressive
// twin, made once with ImageMagick from the committed photos into .bench-cache/.
// Run alone: npm run build && node bench/jpeg.mjs (or `node bench/jpeg.mjs show` for the whole-process
// `show` rows alone; TERMSIGHT_BENCH_RUNS, TERMSIGHT_BENCH_BASE as in show.mjs)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import jpeg from 'jpeg-js';
import { decodeJpeg } from '../dist/decode/jpeg.js';
import { canTimeProcesses, loadLine, median as middle, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');
const images = join(root, 'test/fixtures/images');

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * Writes the 4000x3000 test photo to `path`: four committed photos tiled, with fine grain so it
 * compresses like a camera's; `options` are ImageMagick's output options (quality, sampling).
 */
export function makeTiledPhoto(path, options = []) {
  const i = (f) => join(images, f);
  execFileSync('convert', [
    '(',
    i('hubble_deep_field.jpg'),
    i('rocket.jpg'),
    '-resize',
    '2000x1500!',
    '+append',
    ')',
    '(',
    i('retina.jpg'),
    i('chelsea.png'),
    '-resize',
    '2000x1500!',
    '+append',
    ')',
    '-append',
    '-attenuate',
    '0.4',
    '+noise',
    'Gaussian',
    ...options,
    path,
  ]);
}

/** The 4000x3000 test photos: four committed photos tiled, with fine grain so it compresses like a camera's. */
export function inputs() {
  mkdirSync(cache, { recursive: true });
  const baseline = join(cache, 'phone-4000x3000-q90-420.jpg');
  const progressive = join(cache, 'phone-4000x3000-q90-420-progressive.jpg');
  if (!existsSync(baseline)) {
    makeTiledPhoto(baseline, ['-quality', '90', '-sampling-factor', '2x2']);
  }
  if (!existsSync(progressive)) execFileSync('convert', [baseline, '-interlace', 'JPEG', progressive]);
  return { baseline, progressive };
}

/** Median wall time of `runs` calls (after one warm-up). */
function median(fn, runs) {
  fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** Medians of 3 runs of a whole process: wall ms, CPU ms and peak memory (the largest of the runs). */
function processCostOf3(argv) {
  const runs = [0, 1, 2].map(() => processCost(argv));
  if (runs.some((r) => !r.ok)) return null;
  return {
    ms: middle(runs.map((r) => r.ms)),
    cpu: middle(runs.map((r) => r.cpu)),
    mib: Math.max(...runs.map((r) => r.rss)),
  };
}

const f1 = (x) => x.toFixed(1);
const f2 = (x) => x.toFixed(2);

export async function run(log = console.log) {
  if (!has('convert')) {
    log('jpeg: skipped (ImageMagick `convert` is needed to make the 4000x3000 input)');
    return;
  }
  const files = inputs();
  log('jpeg: in-process decode of a 4000x3000 photo (ms, median; ratio = jpeg-js / termsight)');
  log('');
  log(
    '| file | jpeg-js full | termsight full | ratio | termsight 1000x750 box (1/4) | ratio | termsight 500x375 box (1/8) | ratio |',
  );
  log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const [name, path] of [
    ['baseline', files.baseline],
    ['progressive', files.progressive],
  ]) {
    const bytes = new Uint8Array(readFileSync(path));
    const theirs = median(
      () => jpeg.decode(bytes, { useTArray: true, formatAsRGBA: true, maxMemoryUsageInMB: 2048 }),
      3,
    );
    const full = median(() => decodeJpeg(bytes), 3);
    const quarter = median(() => decodeJpeg(bytes, { maxSize: { width: 1000, height: 750 } }), 5);
    const eighth = median(() => decodeJpeg(bytes, { maxSize: { width: 500, height: 375 } }), 5);
    log(
      `| ${name} (${f1(bytes.length / 1e6)} MB) | ${f1(theirs)} | ${f1(full)} | ${f2(theirs / full)}x | ${f1(quarter)} | ${f2(theirs / quarter)}x | ${f1(eighth)} | ${f2(theirs / eighth)}x |`,
    );
  }

  if (!canTimeProcesses()) {
    log('');
    log('jpeg: whole-process comparison skipped (/usr/bin/time is not installed)');
    return;
  }
  log('');
  log('jpeg: whole process, decode of the baseline file for a 1000-pixel-wide picture (median of 3; peak RSS)');
  log('');
  const dist = pathToFileURL(join(root, 'dist/decode/index.js')).href;
  const jpegJs = pathToFileURL(join(root, 'node_modules/jpeg-js/index.js')).href;
  const file = files.baseline;
  const node = (code) => [process.execPath, '--input-type=module', '-e', code];
  const read = `const b = (await import('node:fs')).readFileSync(${JSON.stringify(file)});`;
  const cases = [
    [
      'termsight, 1000x750 box',
      node(
        `${read} (await import(${JSON.stringify(dist)})).decodeImage(b, { maxSize: { width: 1000, height: 750 } });`,
      ),
    ],
    ['termsight, full size', node(`${read} (await import(${JSON.stringify(dist)})).decodeImage(b);`)],
    [
      'jpeg-js, full size',
      node(
        `${read} (await import(${JSON.stringify(jpegJs)})).default.decode(b, { useTArray: true, maxMemoryUsageInMB: 2048 });`,
      ),
    ],
    ['convert -resize 1000x', ['convert', file, '-resize', '1000x', 'ppm:/dev/null']],
    [
      'convert -define jpeg:size=1000x750 -resize 1000x',
      ['convert', '-define', 'jpeg:size=1000x750', file, '-resize', '1000x', 'ppm:/dev/null'],
    ],
  ];
  if (has('djpeg')) cases.push(['djpeg -scale 1/4', ['djpeg', '-scale', '1/4', '-outfile', '/dev/null', file]]);
  if (has('chafa')) cases.push(['chafa --size 125x', ['chafa', '--size', '125x', '--format', 'symbols', file]]);
  const results = cases.map(([name, argv]) => ({ name, cost: processCostOf3(argv) }));
  const ours = results[0].cost;
  log(
    '| process | wall ms | CPU ms | MiB | time vs termsight (1000x750 box) | CPU vs termsight | memory vs termsight |',
  );
  log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const { name, cost } of results) {
    if (!cost) {
      log(`| ${name} | failed | | | | | |`);
      continue;
    }
    log(
      `| ${name} | ${cost.ms.toFixed(0)} | ${cost.cpu.toFixed(0)} | ${cost.mib.toFixed(0)} | ${f2(cost.ms / ours.ms)}x | ${f2(Math.max(10, cost.cpu) / Math.max(10, ours.cpu))}x | ${f2(cost.mib / ours.mib)}x |`,
    );
  }
  log('');
  showRows(log);
}

/**
 * `termsight show` of both 4000x3000 files as whole processes (`--no-probe --width 100`, sixel,
 * kitty and symbols) against chafa (`-s 100`, same output kind) and `djpeg -scale 1/4` and `1/8`
 * (libjpeg-turbo decoding alone, the floor for the decode stage), interleaved RUNS times; with
 * TERMSIGHT_BENCH_BASE (a copy of another build's dist/ inside the repository) that build too.
 * Wall ms, CPU ms (user + system) and peak MiB, medians; ratios termsight / peer of wall and CPU.
 */
export function showRows(log = console.log) {
  if (!canTimeProcesses()) {
    log('jpeg show rows: skipped (/usr/bin/time is not installed)');
    return;
  }
  const runs = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 5;
  const cli = join(root, 'dist/cli/main.js');
  const base = process.env.TERMSIGHT_BENCH_BASE ? join(root, process.env.TERMSIGHT_BENCH_BASE, 'cli/main.js') : null;
  const files = inputs();
  log(`before: ${loadLine()}`);
  const cell = (c) => (c ? `${c.ms.toFixed(0)} / ${c.cpu.toFixed(0)} / ${c.mib.toFixed(0)}` : '-');
  const ratio = (a, b) => (a && b ? `${f2(a.ms / b.ms)} / ${f2(Math.max(10, a.cpu) / Math.max(10, b.cpu))}` : '-');
  log(
    `jpeg: termsight show as a whole process against chafa and djpeg -scale (wall ms / CPU ms / peak MiB, median of ${runs}, interleaved; ratios: wall / CPU)`,
  );
  log('');
  const head = ['file', 'protocol', 'termsight', 'chafa', 'vs chafa', 'djpeg 1/4', 'vs djpeg 1/4', 'djpeg 1/8'];
  if (base) head.push('base build', 'this / base');
  log(`| ${head.join(' | ')} |`);
  log(`|${head.map(() => ' --- ').join('|')}|`);
  const chafaFormat = { sixel: 'sixels', kitty: 'kitty', symbols: 'symbols' };
  for (const [name, path] of [
    ['baseline', files.baseline],
    ['progressive', files.progressive],
  ]) {
    for (const protocol of ['sixel', 'kitty', 'symbols']) {
      const show = ['show', '--no-probe', '--width', '100', '--protocol', protocol, path];
      const commands = [
        [process.execPath, cli, ...show],
        has('chafa') ? ['chafa', '--animate=off', '-f', chafaFormat[protocol], '-s', '100', path] : null,
        has('djpeg') ? ['djpeg', '-scale', '1/4', '-outfile', '/dev/null', path] : null,
        has('djpeg') ? ['djpeg', '-scale', '1/8', '-outfile', '/dev/null', path] : null,
        base ? [process.execPath, base, ...show] : null,
      ];
      const got = commands.map(() => []);
      for (let i = 0; i < runs; i++)
        commands.forEach((c, k) => {
          if (c) got[k].push(processCost(c));
        });
      const [ours, chafa, quarter, eighth, before] = got.map((r) =>
        r.length === 0 || r.some((x) => !x.ok)
          ? null
          : { ms: middle(r.map((x) => x.ms)), cpu: middle(r.map((x) => x.cpu)), mib: middle(r.map((x) => x.rss)) },
      );
      const row = [
        name,
        protocol,
        cell(ours),
        cell(chafa),
        ratio(ours, chafa),
        cell(quarter),
        ratio(ours, quarter),
        cell(eighth),
      ];
      if (base) row.push(cell(before), ratio(ours, before));
      log(`| ${row.join(' | ')} |`);
    }
  }
  log(`after: ${loadLine()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === 'show') showRows();
  else await run();
}
