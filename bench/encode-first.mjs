// The encoders' first call in a one-shot process (issue 26): what `termsight show` pays because its
// one encode runs before V8 has compiled the hot loops. A fresh child decodes the 1000x872 Hubble
// photo, fits it as `show` would (sixel and kitty: `resize` to 917x800; symbols:
// `resampleForSymbols` to 100x44 cells of 8x8), then times the encoder's first call and the median
// of five more (warm), in CPU time of the whole process (`process.cpuUsage`: V8's compiler threads
// count), the first call's main-thread CPU beside it where Linux gives it per thread (the rest is
// V8's background compiles and GC), and wall time. Each child runs RUNS times (TERMSIGHT_BENCH_RUNS, default 7), alternating
// with the same child on TERMSIGHT_BENCH_BASE (a copy of another build's dist/, e.g.
// .bench-cache/base-dist) when it is set, so the ratios are same-run. TERMSIGHT_BENCH_NODES: node
// binaries to run the children with, separated by ':' (default: this node).
// Run: npm run build && node bench/encode-first.mjs [sixel|symbols|kitty ...]
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLine, median } from './machine.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 7;
const NODES = (process.env.TERMSIGHT_BENCH_NODES ?? process.execPath).split(':').filter(Boolean);

/** The child: argv = [dist folder, protocol]; prints "fitCpu firstCpu warmCpu firstWall warmWall firstMainCpu" in ms. */
const CHILD = `
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
const [dist, protocol] = process.argv.slice(1);
const load = (p) => import(pathToFileURL(dist + '/' + p).href);
const { decodeImage } = await load('decode/index.js');
const { resize } = await load('render/geometry/resize.js');
const raster = decodeImage(readFileSync(${JSON.stringify(join(ROOT, 'test/fixtures/images/hubble_deep_field.jpg'))})).frames[0].raster;
let encode;
let fit;
if (protocol === 'sixel') {
  const { encodeSixelBytes } = await load('render/pixels/sixel.js');
  fit = () => resize(raster, 917, 800);
  encode = (r) => encodeSixelBytes(r);
} else if (protocol === 'kitty') {
  const { encodeKitty } = await load('render/pixels/kitty.js');
  fit = () => resize(raster, 917, 800);
  encode = (r) => encodeKitty(r);
} else if (protocol === 'symbols') {
  const { symbolsLines } = await load('render/text/symbols.js');
  const { resampleForSymbols } = await load('render/text/symbols-resample.js');
  fit = () => resampleForSymbols(raster, 800, 352);
  encode = (r) => symbolsLines(r, { colorDepth: 'truecolor' });
} else throw new Error('unknown protocol ' + protocol);
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
// The main thread's CPU ms, where Linux tells it per thread (the rest is V8's compiler and GC threads).
const { readFileSync: read, existsSync } = await import('node:fs');
const stat = '/proc/self/task/' + process.pid + '/schedstat';
const mainCpu = () => (existsSync(stat) ? Number(read(stat, 'utf8').split(' ')[0]) / 1e6 : NaN);
let c = cpu();
const fitted = fit();
const fitCpu = cpu() - c;
c = cpu();
const m = mainCpu();
let t = performance.now();
encode(fitted);
const firstWall = performance.now() - t;
const firstCpu = cpu() - c;
const firstMain = mainCpu() - m;
const warm = [];
const warmWall = [];
for (let i = 0; i < 5; i++) {
  c = cpu();
  t = performance.now();
  encode(fitted);
  warmWall.push(performance.now() - t);
  warm.push(cpu() - c);
}
warm.sort((a, b) => a - b);
warmWall.sort((a, b) => a - b);
process.stdout.write([fitCpu, firstCpu, warm[2], firstWall, warmWall[2], firstMain].join(' '));
`;

function child(node, dist, protocol) {
  const r = spawnSync(node, ['--input-type=module', '-e', CHILD, dist, protocol], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${node} ${protocol} ${dist}: ${r.stderr}`);
  return r.stdout.split(' ').map(Number);
}

const builds = [['this build', join(ROOT, 'dist')]];
if (process.env.TERMSIGHT_BENCH_BASE) builds.push(['base', join(ROOT, process.env.TERMSIGHT_BENCH_BASE)]);
const fmt = (n) => n.toFixed(1);

/** `npm run bench`'s entry (bench/run.mjs): every protocol, or those named on the command line. */
export async function run(log = console.log, protocols = ['sixel', 'symbols', 'kitty']) {
  log(loadLine());
  log(`encoders' first call, fresh processes, medians of ${RUNS} (CPU ms; wall ms in brackets)`);
  log(
    '| node | protocol | build | fit, first | encode, first | of which main thread | encode, warm | first / warm | first CPU vs base |',
  );
  log('|---|---|---|---|---|---|---|---|---|');
  for (const node of NODES) {
    const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
    for (const protocol of protocols) {
      const results = builds.map(() => []);
      for (let run = 0; run < RUNS; run++) {
        // Alternate which build goes first, so neither always follows the other.
        const order = run % 2 === 0 ? builds.map((_, i) => i) : builds.map((_, i) => builds.length - 1 - i);
        for (const i of order) results[i].push(child(node, builds[i][1], protocol));
      }
      const medians = results.map((rows) => [0, 1, 2, 3, 4, 5].map((k) => median(rows.map((r) => r[k]))));
      // The same-run ratio is a median of per-round ratios, steadier than a ratio of medians.
      const ratio = builds.length > 1 ? median(results[0].map((r, k) => r[1] / results[1][k][1])).toFixed(2) : '';
      builds.forEach(([name], i) => {
        const [fitCpu, first, warm, firstWall, warmWall, firstMain] = medians[i];
        log(
          `| ${version} | ${protocol} | ${name} | ${fmt(fitCpu)} | ${fmt(first)} (${fmt(firstWall)}) | ${Number.isNaN(firstMain) ? '–' : fmt(firstMain)} | ${fmt(warm)} (${fmt(warmWall)}) | ${(first / warm).toFixed(2)} | ${i === 0 ? ratio : ''} |`,
        );
      });
    }
  }
  log(loadLine());
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const named = process.argv.slice(2);
  await run(console.log, named.length > 0 ? named : undefined);
}
