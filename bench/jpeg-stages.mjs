// Where the time of `termsight show` of the 12 MP JPEG goes, stage by stage: a whole process run
// under `node --cpu-prof` (`show --no-probe --width 100 --protocol P`, baseline and progressive,
// sixel, kitty and symbols), its samples' self time summed by the source file each function is
// declared in (src/decode/jpeg-entropy.ts and jpeg-bits.ts: entropy decoding; jpeg-idct.ts:
// inverse transform; jpeg-color.ts: upsampling and colour conversion; render/geometry/resize.ts:
// resize; the rest of render: encode), Node's own modules (module load, I/O), V8's
// garbage collector, each as its share of the samples times the process's CPU time less Node's
// start (`node -e 0`, its own column). Beside it, the same file through djpeg -scale 1/4 and 1/8 and chafa, as
// whole processes (CPU ms), and `node -e 0`, so each stage can be set against what the C tools
// spend on the whole job. Profiles are taken at 250 µs; the sampling adds a few per cent.
// Run alone: npm run build && node bench/jpeg-stages.mjs (TERMSIGHT_BENCH_RUNS, default 3)
// TERMSIGHT_BENCH_BASE=.bench-cache/base-dist profiles that build too, in alternation.
// `node bench/jpeg-stages.mjs first`: the progressive photo's first decode in a fresh process (decodeJpeg
// alone, to a 1000x750 box as `show --width 100` asks), CPU and wall ms by process.cpuUsage, this build
// and TERMSIGHT_BENCH_BASE alternating (TERMSIGHT_BENCH_RUNS, default 9), and the same decode warm.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputs } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';
import { functionStages, profileOnce } from './profile.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 3;
const BASE = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE) : null;

/** The stage a source file's functions belong to. */
function stageOf(file) {
  if (/decode\/jpeg-(entropy|bits|progression)\.ts$/.test(file)) return 'entropy';
  if (/decode\/jpeg-idct\.ts$/.test(file)) return 'idct';
  if (/decode\/jpeg-color\.ts$/.test(file)) return 'colour+upsample';
  if (/decode\//.test(file)) return 'decode other';
  if (/render\/geometry\/resize\.ts$/.test(file)) return 'resize';
  if (/render\//.test(file)) return 'encode';
  return 'cli+rest';
}

const STAGES = [
  'modules+node',
  'entropy',
  'idct',
  'colour+upsample',
  'decode other',
  'resize',
  'encode',
  'cli+rest',
  'gc',
  'other',
];

/** A profiled frame's stage: Node's own code, else the function's declaring file, else its chunk. */
function frameStage(names) {
  return ({ functionName, url }) => {
    if (url.startsWith('node:') || url === '') return 'modules+node';
    // The WebAssembly decoder (wasm/jpeg-decoder.ts): its functions by what they do.
    if (url.startsWith('wasm://')) {
      if (/idct|transform/i.test(functionName)) return 'idct';
      if (/ycbcr|ycc/i.test(functionName)) return 'colour+upsample';
      return 'entropy';
    }
    // Closures without a name (the scan kinds' block decoders) are placed by their chunk.
    return names.get(functionName) ?? (/jpeg/.test(url) ? 'decode other' : 'cli+rest');
  };
}

const f0 = (x) => x.toFixed(0);

export async function run(log = console.log) {
  const cli = join(ROOT, 'dist/cli/main.js');
  if (!existsSync(cli)) throw new Error('build first: npm run build');
  if (!canTimeProcesses() || spawnSync('sh', ['-c', 'command -v convert']).status !== 0) {
    log('jpeg-stages: skipped (needs ImageMagick convert and /usr/bin/time)');
    return;
  }
  const names = functionStages(ROOT, stageOf);
  const nodeStart = median([0, 1, 2, 3, 4].map(() => processCost([process.execPath, '-e', '0']).cpu));
  const files = inputs();
  const builds = [['this build', cli]];
  if (BASE) builds.push(['base build', join(BASE, 'cli/main.js')]);
  log(
    `jpeg-stages: CPU ms by stage (each stage's share of the --cpu-prof samples times the process's CPU time), median of ${RUNS} processes (interleaved)`,
  );
  log('');
  log(`| file | protocol | build | node start | ${STAGES.join(' | ')} | process CPU |`);
  log(`| --- | --- | --- | --- | ${STAGES.map(() => '---').join(' | ')} | --- |`);
  for (const [name, path] of [
    ['baseline', files.baseline],
    ['progressive', files.progressive],
  ]) {
    for (const protocol of ['sixel', 'kitty', 'symbols']) {
      const args = ['show', '--no-probe', '--width', '100', '--protocol', protocol, path];
      const got = builds.map(() => []);
      for (let i = 0; i < RUNS; i++)
        builds.forEach(([, c], k) => {
          got[k].push(profileOnce(c, args, { stages: STAGES, frameStage: frameStage(names), nodeStart }).stages);
        });
      builds.forEach(([label], k) => {
        const m = Object.fromEntries(STAGES.map((s) => [s, median(got[k].map((g) => g[s]))]));
        const total = STAGES.reduce((a, s) => a + m[s], 0);
        log(
          `| ${name} | ${protocol} | ${label} | ${f0(nodeStart)} | ${STAGES.map((s) => f0(m[s])).join(' | ')} | ${f0(total + nodeStart)} |`,
        );
      });
    }
  }
  log('');
  log(`the C tools on the same files, whole process: CPU ms / wall ms / peak MiB (median of ${RUNS})`);
  log('');
  log('| file | node -e 0 | djpeg -scale 1/4 | djpeg -scale 1/8 | chafa -f sixels -s 100 |');
  log('| --- | --- | --- | --- | --- |');
  const cost = (argv) => {
    const r = [];
    for (let i = 0; i < RUNS; i++) r.push(processCost(argv));
    if (r.some((x) => !x.ok)) return 'failed';
    return `${f0(median(r.map((x) => x.cpu)))} / ${f0(median(r.map((x) => x.ms)))} / ${f0(median(r.map((x) => x.rss)))}`;
  };
  const has = (c) => spawnSync('sh', ['-c', `command -v ${c}`]).status === 0;
  for (const [name, path] of [
    ['baseline', files.baseline],
    ['progressive', files.progressive],
  ]) {
    log(
      `| ${name} | ${cost([process.execPath, '-e', '0'])} | ${has('djpeg') ? cost(['djpeg', '-scale', '1/4', '-outfile', '/dev/null', path]) : '-'} | ${has('djpeg') ? cost(['djpeg', '-scale', '1/8', '-outfile', '/dev/null', path]) : '-'} | ${has('chafa') ? cost(['chafa', '-f', 'sixels', '-s', '100', path]) : '-'} |`,
    );
  }
}

/** A child's script: decodes `file` with the build at `dist` `times` times, prints each decode's CPU and wall ms. */
const DECODE = `
const [dist, file, times] = process.argv.slice(1);
const { decodeJpeg } = await import(dist + '/decode/jpeg.js');
const bytes = (await import('node:fs')).readFileSync(file);
const out = [];
for (let i = 0; i < Number(times); i++) {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  decodeJpeg(bytes, { maxSize: { width: 1000, height: 750 } });
  const c = process.cpuUsage(c0);
  out.push({ cpu: (c.user + c.system) / 1000, ms: performance.now() - t0 });
}
console.log(JSON.stringify(out));
`;

/**
 * The progressive photo's entropy-heavy decode, first call in a fresh process (what a one-shot `show`
 * pays: V8 compiling as it goes) and warm (the third call in one process), this build against the base.
 */
export function firstDecodes(log = console.log) {
  const runs = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 9;
  const { progressive } = inputs();
  const builds = [['this build', join(ROOT, 'dist')]];
  if (BASE) builds.push(['base build', BASE]);
  const decode = (dist, times) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', DECODE, dist, progressive, String(times)], {
      encoding: 'utf8',
    });
    if (r.status !== 0) throw new Error(`decode failed: ${r.stderr.split('\n')[0]}`);
    return JSON.parse(r.stdout);
  };
  log(`before: ${loadLine()}`);
  const first = builds.map(() => []);
  const warm = builds.map(() => []);
  for (let i = 0; i < runs; i++)
    builds.forEach(([, dist], k) => {
      first[k].push(decode(dist, 1)[0]);
      if (i < 3) warm[k].push(decode(dist, 3)[2]);
    });
  log(
    `progressive 4000x3000 photo, decodeJpeg to 1000x750: CPU / wall ms, medians (first: ${runs} fresh processes, alternating; warm: the third decode of 3 processes)`,
  );
  log('');
  log('| build | first decode, CPU | first, wall | warm, CPU | warm, wall |');
  log('| --- | --- | --- | --- | --- |');
  const cells = (rs) => [median(rs.map((r) => r.cpu)), median(rs.map((r) => r.ms))];
  builds.forEach(([label], k) => {
    log(`| ${label} | ${[...cells(first[k]), ...cells(warm[k])].map(f0).join(' | ')} |`);
  });
  if (BASE) {
    const [a, b] = [cells(first[0]), cells(first[1])];
    log('');
    log(`first decode, this / base: CPU ${(a[0] / b[0]).toFixed(3)}, wall ${(a[1] / b[1]).toFixed(3)}`);
  }
  log(`after: ${loadLine()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === 'first') firstDecodes();
  else await run();
}
