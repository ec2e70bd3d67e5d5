// Sixel: termsight's encoder against its peers on the same fitted pictures, in one run.
// Peers: the npm `sixel` package's image2sixel (256 colours, in process), and where installed
// `img2sixel` (libsixel-bin) and `chafa -f sixel`, each timed as a whole process (wall and CPU,
// bench/machine.mjs's timer) reading a PNG of the same fitted raster. Every output is decoded with the `sixel` package's decoder and compared
// with the fitted source (PSNR over RGB, unpainted pixels showing a grey background).
// With TERMSIGHT_BENCH_BASE=<a copy of another build's dist/> that build is a peer too ("base"),
// and its pictures are decoded and compared with termsight's pixel for pixel.
// `--first`: only the first encode of a fresh process (what `termsight show` pays, V8's compiles
// included), this build against the base build in alternating processes (TERMSIGHT_BENCH_RUNS
// pairs, default 11): the Hubble photo fitted to 584 pixels wide, CPU and wall ms, medians.
// Run: `npx tsc -p tsconfig.build.json && node bench/sixel.mjs`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Decoder, image2sixel } from 'sixel';
import { encodeSixel } from '../dist/render/pixels/sixel.js';
import { loadImages, resizeTo, writePng } from './images.mjs';
import { canTimeProcesses, loadLine, processCost } from './machine.mjs';
import { fmt, measure, median, psnr, table } from './quality.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const BASE = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE) : null;
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 11;

/** The background unpainted pixels are compared on: grey, so painting them in any colour shows. */
const BACKGROUND = [128, 128, 128];

function installed(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

/** Decodes the first sixel sequence in `text` with the `sixel` package; unpainted pixels get alpha 0. */
export function decodeSixelText(text) {
  const start = text.indexOf('\x1bP');
  if (start < 0) throw new Error('no DCS in output');
  const q = text.indexOf('q', start);
  let end = text.indexOf('\x1b\\', q);
  if (end < 0) end = text.length;
  const decoder = new Decoder({ memoryLimit: 0 });
  decoder.init(0, undefined, 4096);
  const body = Buffer.from(text.slice(q + 1, end), 'latin1');
  decoder.decode(body);
  const { width, height } = decoder;
  const data = new Uint8Array(decoder.data8.slice(0, width * height * 4));
  return { width, height, data };
}

async function quality(source, text) {
  const decoded = decodeSixelText(text);
  let reference = source;
  // chafa may round the size to its cells; compare with the source fitted to what it drew.
  if (decoded.width !== source.width || decoded.height !== source.height) {
    reference = await resizeTo(source, decoded.width, decoded.height);
  }
  return psnr(reference, decoded, BACKGROUND);
}

/**
 * A process peer's runs (the slowest take seconds a run: at least one, then until 400 ms have
 * passed, at most 5) by bench/machine.mjs's timer: medians of wall and CPU ms (CPU in GNU time's
 * 10 ms steps), and the last run's output. Without /usr/bin/time, wall alone.
 */
function measureProcess(cmd, args) {
  const walls = [];
  const cpus = [];
  let output;
  const start = performance.now();
  while (walls.length < 1 || (walls.length < 5 && performance.now() - start < 400)) {
    if (canTimeProcesses()) {
      const cost = processCost([cmd, ...args], { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'latin1' });
      if (!cost.ok) throw new Error(`${cmd} failed: ${cost.stderr}`);
      walls.push(cost.ms);
      cpus.push(cost.cpu);
      output = cost.stdout;
    } else {
      const t0 = performance.now();
      const r = spawnSync(cmd, args, { encoding: 'latin1', maxBuffer: 1 << 30 });
      if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
      walls.push(performance.now() - t0);
      output = r.stdout;
    }
  }
  return { ms: median(walls), cpu: median(cpus), result: output };
}

/** Runs the benchmark and prints its tables through `log`. */
export async function run(log = console.log) {
  const images = await loadImages({ log });
  const dir = mkdtempSync(join(tmpdir(), 'termsight-sixel-bench-'));
  const peers = [
    { name: 'termsight', encode: (img) => encodeSixel(img.raster, { sixelColors: 256 }) },
    // image2sixel dithers in place, changing the pixels it is given: it gets a fresh copy each run.
    {
      name: 'image2sixel',
      setup: (img) => img.raster.data.slice(),
      encode: (img, copy) => image2sixel(copy, img.raster.width, img.raster.height, 256),
    },
  ];
  const samePixels = [];
  if (BASE) {
    const base = await import(pathToFileURL(join(BASE, 'render/pixels/sixel.js')).href);
    peers.splice(1, 0, { name: 'base', encode: (img) => base.encodeSixel(img.raster, { sixelColors: 256 }) });
    for (const img of images) {
      const a = decodeSixelText(encodeSixel(img.raster, { sixelColors: 256 }));
      const b = decodeSixelText(base.encodeSixel(img.raster, { sixelColors: 256 }));
      const same = a.width === b.width && a.height === b.height && a.data.every((v, i) => v === b.data[i]);
      if (!same) samePixels.push(img.name);
    }
  }
  if (installed('img2sixel')) {
    peers.push({
      name: 'img2sixel',
      process: true,
      encode: (img) => measureProcess('img2sixel', ['-p', '256', img.png]),
    });
  } else log('(img2sixel not installed: apt-get install libsixel-bin)');
  if (installed('chafa')) {
    peers.push({
      name: 'chafa',
      process: true,
      // 8x8-pixel cells at a 1/1 font ratio make chafa draw the picture at its own size.
      encode: (img) =>
        measureProcess('chafa', [
          '-f',
          'sixel',
          '--font-ratio',
          '1/1',
          '-s',
          `${Math.ceil(img.raster.width / 8)}x${Math.ceil(img.raster.height / 8)}`,
          img.png,
        ]),
    });
  } else log('(chafa not installed: apt-get install chafa)');

  log(loadLine());
  const results = []; // results[image][peer] = { ms, bytes, db }
  try {
    for (const [n, img] of images.entries()) {
      img.png = join(dir, `${n}.png`);
      writePng(img.raster, img.png);
      const row = {};
      for (const peer of peers) {
        try {
          const setup = peer.setup ? () => peer.setup(img) : undefined;
          // A process has no JIT to warm up: it times its own runs, CPU beside wall.
          const { ms, cpu, result } = peer.process
            ? peer.encode(img)
            : await measure((input) => peer.encode(img, input), { minRuns: 3, maxRuns: 9, minMs: 400, setup });
          row[peer.name] = { ms, cpu, bytes: result.length, db: await quality(img.raster, result) };
        } catch (err) {
          row[peer.name] = { ms: NaN, cpu: NaN, bytes: NaN, db: NaN, error: String(err.message ?? err).split('\n')[0] };
        }
      }
      results.push(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }

  const names = peers.map((p) => p.name);
  const others = names.slice(1);
  const mp = (img) => (img.raster.width * img.raster.height) / 1e6;
  const head = (what) => ['image', 'kind', 'size', ...names.map((n) => `${n} ${what}`)];
  const rows = (cell, extra) =>
    images.map((img, i) => [
      img.name,
      img.kind,
      `${img.raster.width}x${img.raster.height}`,
      ...names.map((n) => cell(results[i][n], img)),
      ...extra(i),
    ]);

  log('Time (median ms) and throughput ratio termsight/peer (process peers include process start):');
  log(
    table([
      [...head('ms'), ...others.map((o) => `x${o}`)],
      ...rows(
        (r) => fmt(r.ms, 1),
        (i) => others.map((o) => fmt(results[i][o].ms / results[i].termsight.ms, 2)),
      ),
    ]),
  );
  const processes = peers.filter((p) => p.process).map((p) => p.name);
  if (processes.length > 0) {
    log('');
    log('Whole-process peers: wall ms / CPU ms (medians; CPU in 10 ms steps), termsight in process beside them:');
    log(
      table([
        ['image', 'kind', 'size', 'termsight ms', ...processes.map((n) => `${n} wall / CPU`)],
        ...images.map((img, i) => [
          img.name,
          img.kind,
          `${img.raster.width}x${img.raster.height}`,
          fmt(results[i].termsight.ms, 1),
          ...processes.map((n) => `${fmt(results[i][n].ms, 0)} / ${fmt(results[i][n].cpu, 0)}`),
        ]),
      ]),
    );
  }
  log('');
  log('Throughput (megapixels per second):');
  log(
    table([
      head('MP/s'),
      ...rows(
        (r, img) => fmt(mp(img) / (r.ms / 1000), 2),
        () => [],
      ),
    ]),
  );
  log('');
  log('Size (kilobytes) and ratio termsight/peer:');
  log(
    table([
      [...head('KB'), ...others.map((o) => `/${o}`)],
      ...rows(
        (r) => fmt(r.bytes / 1024, 1),
        (i) => others.map((o) => fmt(results[i].termsight.bytes / results[i][o].bytes, 2)),
      ),
    ]),
  );
  log('');
  log(
    `Quality (PSNR dB against the fitted source; unpainted pixels on grey ${BACKGROUND.join(',')}) and termsight-peer:`,
  );
  log(
    table([
      [...head('dB'), ...others.map((o) => `-${o}`)],
      ...rows(
        (r) => fmt(r.db, 2),
        (i) => others.map((o) => fmt(results[i].termsight.db - results[i][o].db, 2)),
      ),
    ]),
  );
  for (const [i, img] of images.entries()) {
    for (const n of names) if (results[i][n].error) log(`  ${img.name} / ${n}: ${results[i][n].error}`);
  }

  log('');
  log('Medians over the set:');
  const summary = [['encoder', 'MP/s', 'KB', 'PSNR dB', 'throughput ts/peer', 'bytes ts/peer', 'PSNR ts-peer']];
  for (const n of names) {
    const col = (f) => median(images.map((img, i) => f(results[i][n], img, i)));
    summary.push([
      n,
      fmt(
        col((r, img) => mp(img) / (r.ms / 1000)),
        2,
      ),
      fmt(
        col((r) => r.bytes / 1024),
        1,
      ),
      fmt(
        col((r) => r.db),
        2,
      ),
      n === 'termsight'
        ? ''
        : fmt(
            col((r, _img, i) => r.ms / results[i].termsight.ms),
            2,
          ),
      n === 'termsight'
        ? ''
        : fmt(
            col((r, _img, i) => results[i].termsight.bytes / r.bytes),
            2,
          ),
      n === 'termsight'
        ? ''
        : fmt(
            col((r, _img, i) => results[i].termsight.db - r.db),
            2,
          ),
    ]);
  }
  log(table(summary));
  const ts = (f) => median(images.map((img, i) => f(results[i].termsight, img, i)));
  const peer = (f) => median(images.map((img, i) => f(results[i].image2sixel, img, i)));
  const speed = median(images.map((_img, i) => results[i].image2sixel.ms / results[i].termsight.ms));
  const dbOk = ts((r) => r.db) >= peer((r) => r.db);
  const bytesOk = ts((r) => r.bytes) <= peer((r) => r.bytes);
  // The medians of the two sizes can come from different pictures: the per-picture ratio too.
  const byteRatio = median(images.map((_img, i) => results[i].termsight.bytes / results[i].image2sixel.bytes));
  const larger = images.filter((_img, i) => results[i].termsight.bytes > results[i].image2sixel.bytes).length;
  log('');
  log(
    `Goal vs image2sixel (256 colours): throughput x${fmt(speed, 2)} (goal >= 3): ${speed >= 3 ? 'met' : 'NOT met'}; ` +
      `median PSNR ${fmt(
        ts((r) => r.db),
        2,
      )} vs ${fmt(
        peer((r) => r.db),
        2,
      )} dB: ${dbOk ? 'met' : 'NOT met'}; ` +
      `median bytes ${fmt(ts((r) => r.bytes) / 1024, 1)} vs ${fmt(peer((r) => r.bytes) / 1024, 1)} KB: ${bytesOk ? 'met' : 'NOT met'} ` +
      `(median of the per-picture ratios ${fmt(byteRatio, 3)}, larger on ${larger} of ${images.length}).`,
  );
  if (BASE) {
    log(
      samePixels.length === 0
        ? `The base build (${process.env.TERMSIGHT_BENCH_BASE}) draws the same pixels on all ${images.length} pictures.`
        : `The base build draws OTHER pixels on: ${samePixels.join(', ')}.`,
    );
  }
  log(loadLine());
  const transparent = images.map((img, i) => [img, i]).filter(([img]) => img.kind === 'transparent');
  for (const [img, i] of transparent) {
    // With the terminal's background known (the probe's answer), partly transparent pixels are blended onto it.
    const known = await quality(img.raster, encodeSixel(img.raster, { sixelColors: 256, background: BACKGROUND }));
    log(
      `Transparency, ${img.name}: termsight ${fmt(results[i].termsight.db, 2)} dB (${fmt(known, 2)} dB with the background known), ` +
        `image2sixel ${fmt(results[i].image2sixel.db, 2)} dB, img2sixel ${fmt(results[i].img2sixel?.db, 2)} dB.`,
    );
  }
}

/**
 * The child of `--first`: decodes and fits the photo, then times one encode; prints "wall cpu bytes".
 * CPU is the whole process's (user + system), so V8's compiler threads count.
 */
const FIRST_CHILD = `
import { readFileSync } from 'node:fs';
const dist = process.argv[1];
const { decodeImage } = await import(dist + '/decode/index.js');
const { resize } = await import(dist + '/render/geometry/resize.js');
const { encodeSixelBytes } = await import(dist + '/render/pixels/sixel.js');
const source = decodeImage(readFileSync(process.argv[2])).frames[0].raster;
const raster = resize(source, 584, Math.round((source.height * 584) / source.width));
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const c = cpu();
const t = performance.now();
const bytes = encodeSixelBytes(raster, { sixelColors: 256 });
process.stdout.write((performance.now() - t) + ' ' + (cpu() - c) + ' ' + bytes.length);
`;

/** `--first`: the first encode of fresh processes, this build and the base build alternating. */
export function first(log = console.log) {
  if (!BASE) throw new Error("--first needs TERMSIGHT_BENCH_BASE (a copy of the other build's dist/)");
  const photo = join(ROOT, 'test/fixtures/images/hubble_deep_field.jpg');
  const sides = { termsight: join(ROOT, 'dist'), base: BASE };
  const runs = { termsight: [], base: [] };
  log(loadLine());
  for (let i = 0; i < RUNS; i++) {
    for (const name of i % 2 ? ['base', 'termsight'] : ['termsight', 'base']) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', FIRST_CHILD, sides[name], photo], {
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`${name}: ${r.stderr}`);
      runs[name].push(r.stdout.split(' ').map(Number));
    }
  }
  log(loadLine());
  const col = (name, k) => median(runs[name].map((r) => r[k]));
  const rows = [['build', 'first encode wall ms', 'CPU ms', 'KB']];
  for (const name of ['termsight', 'base'])
    rows.push([name, fmt(col(name, 0), 1), fmt(col(name, 1), 1), fmt(col(name, 2) / 1024, 1)]);
  log(
    `First encode in a fresh process (Hubble photo at 584 px wide, 256 colours), medians of ${RUNS} alternating pairs:`,
  );
  log(table(rows));
  log(
    `termsight/base: wall ${fmt(col('termsight', 0) / col('base', 0), 3)}, CPU ${fmt(col('termsight', 1) / col('base', 1), 3)}, bytes ${fmt(col('termsight', 2) / col('base', 2), 3)}.`,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  if (process.argv.includes('--first')) first(console.log);
  else await run(console.log);
}
