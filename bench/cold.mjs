// Cold start. First what a program pays to load termsight: `import('termsight')` (the main
// entry, for detect/probeTerminal) against `import('supports-color')` in fresh processes
// alternating between the two (goal: at most 2x), and the CLI's start-up: `termsight show` of a
// 1x1 PNG (loading everything a picture needs, nearly no work) against `node -e 0` (Node's own
// floor), whole processes. Then what a one-shot process (`termsight show`) pays for its one
// encode, against the same encode once the code is warm. For each protocol, a fresh process decodes the 1000x872
// Hubble photo, then times its first `toTerminal` into a 100x40-cell box (10x20-pixel cells)
// and then the median of 9 more; ratio = first / warm (goal: at most 1.5), in wall time and in
// CPU time (steadier on a shared machine). Each fresh process is run RUNS times
// (TERMSIGHT_BENCH_RUNS, default 5) and the medians are printed.
// Run alone: npm run build && node bench/cold.mjs (--load-only: only the loading rows;
// --encode-only: only the first-call rows)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 5;
const PROTOCOLS = ['sixel', 'kitty', 'iterm2', 'blocks', 'braille', 'symbols'];

/**
 * The child: decode, then one cold encode and nine warm ones; prints "first warm firstCpu
 * warmCpu" in ms. CPU time (user + sys of the whole process, so V8's compiler threads count
 * too) suffers far less than wall time when other work shares the machine.
 */
const CHILD = `
import { readFileSync } from 'node:fs';
const { decodeImage } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/decode/index.js')).href)});
const { toTerminal } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist/render/backend.js')).href)});
const raster = decodeImage(readFileSync(${JSON.stringify(join(ROOT, 'test/fixtures/images/hubble_deep_field.jpg'))})).frames[0].raster;
const box = { columns: 100, rows: 40, cellPixels: { width: 10, height: 20 } };
const protocol = process.argv[1];
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
let c = cpu();
let t = performance.now();
toTerminal(raster, protocol, box);
const first = performance.now() - t;
const firstCpu = cpu() - c;
const warm = [];
const warmCpu = [];
for (let i = 0; i < 9; i++) {
  c = cpu();
  t = performance.now();
  toTerminal(raster, protocol, box);
  warm.push(performance.now() - t);
  warmCpu.push(cpu() - c);
}
warm.sort((a, b) => a - b);
warmCpu.sort((a, b) => a - b);
process.stdout.write(first + ' ' + warm[4] + ' ' + firstCpu + ' ' + warmCpu[4]);
`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n, d = 1) => n.toFixed(d);

/**
 * Wall and CPU (user + system) milliseconds a fresh process spends in `await import(specifier)`,
 * resolved from the repository. CPU time suffers far less than wall time from other processes on
 * a busy machine; it can exceed wall time, as V8 compiles on background threads too.
 */
function importMs(specifier) {
  const code = `const c = process.cpuUsage(); const t = performance.now(); await import(${JSON.stringify(specifier)});
const wall = performance.now() - t; const cpu = process.cpuUsage(c);
process.stdout.write(wall + ' ' + (cpu.user + cpu.system) / 1000);`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`import ${specifier}: ${r.stderr}`);
  const [wall, cpu] = r.stdout.split(' ').map(Number);
  return { wall, cpu };
}

/** Wall milliseconds of a whole node process running `args`. */
function processMs(args, env = process.env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

/** A 1x1 opaque PNG: the smallest picture, so `show` of it is start-up and little else. */
const ONE_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';

/** The import and start-up rows: medians of `runs` alternating fresh processes, with ratios. */
function loadRows(log, runs) {
  const dir = join(ROOT, '.bench-cache');
  mkdirSync(dir, { recursive: true });
  const pixel = join(dir, 'pixel-1x1.png');
  writeFileSync(pixel, Buffer.from(ONE_PIXEL_PNG.split(',')[1], 'base64'));
  const cli = join(ROOT, 'dist/cli/main.js');
  const sides = {
    termsight: [],
    supportsColor: [],
    dropIn: [],
    show: [],
    node: [],
    cached: [],
    uncached: [],
  };
  // The CLI turns on Node's compile cache (Node 22.8+); here it lives in .bench-cache, filled by
  // one run first, against the same process with the cache switched off.
  const hasCache = typeof module.enableCompileCache === 'function';
  const cacheDir = join(dir, 'compile-cache');
  const cachedEnv = { ...process.env, NODE_COMPILE_CACHE: cacheDir };
  delete cachedEnv.NODE_DISABLE_COMPILE_CACHE;
  const uncachedEnv = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const showArgs = [cli, 'show', '--no-probe', '--protocol', 'sixel', pixel];
  if (hasCache) processMs(showArgs, cachedEnv);
  for (let i = 0; i < runs; i++) {
    sides.termsight.push(importMs('termsight'));
    sides.supportsColor.push(importMs('supports-color'));
    sides.dropIn.push(importMs('termsight/supports-color'));
    sides.show.push(processMs([cli, 'show', '--no-probe', '--protocol', 'sixel', pixel]));
    sides.node.push(processMs(['-e', '0']));
    if (hasCache) {
      sides.cached.push(processMs(showArgs, cachedEnv));
      sides.uncached.push(processMs(showArgs, uncachedEnv));
    }
  }
  const [show, node] = [sides.show, sides.node].map(median);
  const imports = (side) => ({ wall: median(side.map((s) => s.wall)), cpu: median(side.map((s) => s.cpu)) });
  const [ts, sc, dropIn] = [sides.termsight, sides.supportsColor, sides.dropIn].map(imports);
  log(`loading: medians of ${runs} fresh processes, alternating (imports: wall ms / CPU ms)`);
  const row = (cells) => cells.map((c, i) => String(c).padEnd([36, 16, 26, 16, 14, 6][i])).join('');
  log(row(['what', 'termsight ms', 'peer', 'peer ms', 'ratio', 'goal']));
  const pair = (m) => `${fmt(m.wall)} / ${fmt(m.cpu)}`;
  const ratios = (a, b) => `${fmt(a.wall / b.wall, 2)} / ${fmt(a.cpu / b.cpu, 2)}`;
  log(row(["import('termsight')", pair(ts), "import('supports-color')", pair(sc), ratios(ts, sc), '<= 2']));
  log(
    row([
      "import('termsight/supports-color')",
      pair(dropIn),
      "import('supports-color')",
      pair(sc),
      ratios(dropIn, sc),
      '<= 1',
    ]),
  );
  log(row(['show 1x1 PNG, sixel', fmt(show), 'node -e 0', fmt(node), fmt(show / node, 2), '']));
  if (hasCache) {
    const [cached, uncached] = [sides.cached, sides.uncached].map(median);
    log(row(['show, compile cache', fmt(cached), 'cache off', fmt(uncached), fmt(cached / uncached, 2), '']));
  } else log(`show, compile cache: Node ${process.version} has none (22.8+)`);
  log('');
}

export async function run(log = console.log) {
  if (!existsSync(join(ROOT, 'dist/render/backend.js'))) throw new Error('build first: npm run build');
  if (!process.argv.includes('--encode-only')) loadRows(log, Math.max(RUNS, 15));
  if (process.argv.includes('--load-only')) return;
  log(
    `cold start: first encode in a fresh process vs the warm median, median of ${RUNS} processes; goal first/warm <= 1.5`,
  );
  log(
    ['protocol', 'first ms', 'warm ms', 'first / warm', 'first CPU ms', 'warm CPU ms', 'CPU first / warm']
      .map((c) => c.padEnd(14))
      .join(''),
  );
  for (const protocol of PROTOCOLS) {
    const firsts = [];
    const warms = [];
    const firstCpus = [];
    const warmCpus = [];
    for (let i = 0; i < RUNS; i++) {
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, protocol], {
        cwd: ROOT,
        encoding: 'utf8',
      });
      if (r.status !== 0) throw new Error(`cold ${protocol}: ${r.stderr}`);
      const [first, warm, firstCpu, warmCpu] = r.stdout.split(' ').map(Number);
      firsts.push(first);
      warms.push(warm);
      firstCpus.push(firstCpu);
      warmCpus.push(warmCpu);
    }
    const f = median(firsts);
    const w = median(warms);
    const fc = median(firstCpus);
    const wc = median(warmCpus);
    log(
      [protocol, fmt(f), fmt(w), fmt(f / w, 2), fmt(fc), fmt(wc), fmt(fc / wc, 2)]
        .map((c) => String(c).padEnd(14))
        .join(''),
    );
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
