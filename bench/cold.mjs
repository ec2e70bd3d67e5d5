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
// The start-up rows give wall and CPU time (the child's own CPU time at exit), the compile cache
// warm, off and on a first run, `node -e 0` with NODE_EXTRA_CA_CERTS where the machine sets it (every
// other row runs without it: machine.mjs), and with
// TERMSIGHT_BENCH_BASE=.bench-cache/base-dist (a copy of another build's dist/) that build too.
// Run alone: npm run build && node bench/cold.mjs (--load-only: only the loading rows;
// --encode-only: only the first-call rows)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import module from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { EXTRA_CA_CERTS, loadLine, median } from './machine.mjs';

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

/**
 * One whole node process running `args`: wall ms (measured here) and CPU ms (user + system of the
 * whole process, all threads), which the child reports itself at exit through a preloaded file
 * (`process.cpuUsage()`, microseconds; GNU time's 10 ms steps are too coarse for a start-up). The
 * preload costs every side the same.
 */
function processCost(args, env = process.env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, ['--require', cpuReporter(), ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const wall = Number(process.hrtime.bigint() - t) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  const cpu = Number(/CPU_MS (\S+)/.exec(r.stderr)?.[1]);
  return { wall, cpu };
}

let reporter;
/** The preloaded file: writes the process's CPU time on stderr as it exits. */
function cpuReporter() {
  if (reporter) return reporter;
  const dir = join(ROOT, '.bench-cache');
  mkdirSync(dir, { recursive: true });
  reporter = join(dir, 'cpu-at-exit.cjs');
  writeFileSync(
    reporter,
    "process.on('exit', () => { const u = process.cpuUsage(); process._rawDebug('CPU_MS ' + (u.user + u.system) / 1000); });\n",
  );
  return reporter;
}

/** A 1x1 opaque PNG: the smallest picture, so `show` of it is start-up and little else. */
const ONE_PIXEL_PNG =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4//8/AAX+Av4N70a4AAAAAElFTkSuQmCC';

/**
 * The import and start-up rows: medians of `runs` alternating fresh processes. The start-up rows:
 * `termsight show` of a 1x1 PNG (sixel, `--no-probe`) against `node -e 0`; with
 * TERMSIGHT_BENCH_BASE (a copy of another build's dist/ inside the repository), that build too, in
 * the same alternation; where Node has a compile cache (22.1+), the cache warm, switched off, and
 * a first run (an empty cache folder each time, so the run also writes the cache). Where
 * the machine sets NODE_EXTRA_CA_CERTS (taken out of every other row by machine.mjs), `node -e 0`
 * with it too: Node 20 reads and parses that file at every start, before any of termsight runs.
 */
function loadRows(log, runs) {
  const dir = join(ROOT, '.bench-cache');
  mkdirSync(dir, { recursive: true });
  const pixel = join(dir, 'pixel-1x1.png');
  writeFileSync(pixel, Buffer.from(ONE_PIXEL_PNG.split(',')[1], 'base64'));
  const show = (cli) => [cli, 'show', '--no-probe', '--protocol', 'sixel', pixel];
  const base = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE, 'cli/main.js') : null;
  const hasCache = typeof module.enableCompileCache === 'function';
  const cacheDir = join(dir, 'compile-cache');
  const withCache = (folder) => {
    const env = { ...process.env, NODE_COMPILE_CACHE: folder };
    delete env.NODE_DISABLE_COMPILE_CACHE;
    return env;
  };
  const uncachedEnv = { ...process.env, NODE_DISABLE_COMPILE_CACHE: '1' };
  const withCa = { ...process.env, NODE_EXTRA_CA_CERTS: EXTRA_CA_CERTS };
  let fresh = 0;
  const firstDir = () => {
    const folder = join(dir, `compile-cache-first-${fresh++}`);
    rmSync(folder, { recursive: true, force: true });
    return folder;
  };
  // Row name -> one run of it; each round runs every row once, in this order.
  const rows = new Map([
    ['node -e 0', () => processCost(['-e', '0'])],
    ...(EXTRA_CA_CERTS ? [['node -e 0, with NODE_EXTRA_CA_CERTS', () => processCost(['-e', '0'], withCa)]] : []),
    ['show 1x1 PNG, sixel', () => processCost(show(join(ROOT, 'dist/cli/main.js')))],
    ...(base ? [['show 1x1 PNG, sixel, base build', () => processCost(show(base))]] : []),
    ...(hasCache
      ? [
          ['show, compile cache warm', () => processCost(show(join(ROOT, 'dist/cli/main.js')), withCache(cacheDir))],
          ['show, compile cache off', () => processCost(show(join(ROOT, 'dist/cli/main.js')), uncachedEnv)],
          [
            'show, compile cache first run',
            () => processCost(show(join(ROOT, 'dist/cli/main.js')), withCache(firstDir())),
          ],
          ...(base
            ? [
                ['show, base build, cache warm', () => processCost(show(base), withCache(cacheDir))],
                ['show, base build, cache off', () => processCost(show(base), uncachedEnv)],
              ]
            : []),
        ]
      : []),
  ]);
  if (hasCache) {
    rmSync(cacheDir, { recursive: true, force: true });
    processCost(show(join(ROOT, 'dist/cli/main.js')), withCache(cacheDir));
    if (base) processCost(show(base), withCache(cacheDir));
  }
  const sides = {
    termsight: [],
    supportsColor: [],
    dropIn: [],
  };
  const starts = new Map([...rows.keys()].map((name) => [name, []]));
  const loadBefore = loadLine();
  for (let i = 0; i < runs; i++) {
    sides.termsight.push(importMs('termsight'));
    sides.supportsColor.push(importMs('supports-color'));
    sides.dropIn.push(importMs('termsight/supports-color'));
    for (const [name, once] of rows) starts.get(name).push(once());
  }
  for (let i = 0; i < fresh; i++) rmSync(join(dir, `compile-cache-first-${i}`), { recursive: true, force: true });
  const imports = (side) => ({ wall: median(side.map((s) => s.wall)), cpu: median(side.map((s) => s.cpu)) });
  const [ts, sc, dropIn] = [sides.termsight, sides.supportsColor, sides.dropIn].map(imports);
  log(loadBefore);
  log(`loading: medians of ${runs} fresh processes, alternating (wall ms / CPU ms), Node ${process.version}`);
  const row = (cells) => cells.map((c, i) => `${String(c).padEnd([36, 16, 26, 16, 14, 6][i] - 1)} `).join('');
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
  const started = new Map([...starts].map(([name, side]) => [name, imports(side)]));
  // Each start-up row against the row it is measured against (ratios wall / CPU).
  const against = {
    'node -e 0, with NODE_EXTRA_CA_CERTS': 'node -e 0',
    'show 1x1 PNG, sixel': 'node -e 0',
    'show 1x1 PNG, sixel, base build': 'node -e 0',
    'show, compile cache warm': 'show, compile cache off',
    'show, compile cache first run': 'show, compile cache off',
    'show, base build, cache warm': 'show, base build, cache off',
  };
  log('');
  log(row(['start-up', 'wall / CPU ms', 'against', 'wall / CPU ms', 'ratio', '']));
  for (const [name, m] of started) {
    const other = against[name] && started.get(against[name]);
    log(row([name, pair(m), other ? against[name] : '', other ? pair(other) : '', other ? ratios(m, other) : '']));
  }
  if (base) {
    const now = started.get('show 1x1 PNG, sixel');
    const before = started.get('show 1x1 PNG, sixel, base build');
    log(row(['show: this build / base build', '', '', '', ratios(now, before)]));
  }
  if (!hasCache) log(`compile cache: Node ${process.version} has none (22.1+)`);
  log(loadLine());
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
