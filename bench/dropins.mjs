// Import cost and first answer of each termsight drop-in against its incumbent (supports-color
// 10.2.2, supports-hyperlinks 4.6.0, terminal-link 5.0.0). Each sample is a fresh node process that
// times its own `await import(...)` and the first call after it; the processes alternate between
// the two sides, and the table shows medians and termsight/incumbent ratios (below 1: faster).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadLine } from './machine.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const require = createRequire(import.meta.url);
const dist = (file) => new URL(`../dist/compat/${file}`, import.meta.url).href;
const incumbent = (name) => pathToFileURL(require.resolve(name)).href;

const PAIRS = [
  {
    name: 'supports-color',
    ours: dist('supports-color.js'),
    theirs: incumbent('supports-color'),
    call: 'm.createSupportsColor({ isTTY: true })',
  },
  {
    name: 'supports-hyperlinks',
    ours: dist('supports-hyperlinks.js'),
    theirs: incumbent('supports-hyperlinks'),
    call: 'm.createSupportsHyperlinks({ isTTY: true })',
  },
  {
    name: 'terminal-link',
    ours: dist('terminal-link.js'),
    theirs: incumbent('terminal-link'),
    call: "m.default('Docs', 'https://x.dev')",
  },
];

function sample(url, call) {
  const code = `const t0 = performance.now(); const m = await import(${JSON.stringify(url)}); const t1 = performance.now();
${call}; const t2 = performance.now(); const c = process.cpuUsage();
process.stdout.write(JSON.stringify({ load: t1 - t0, first: t2 - t1, cpu: (c.user + c.system) / 1000 }));`;
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    cwd: fileURLToPath(new URL('..', import.meta.url)),
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`${url}: ${child.stderr}`);
  return { ...JSON.parse(child.stdout), wall };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** Prints the table through `log` (one line per call) and returns the rows. */
export async function run(log = console.log) {
  const rows = [];
  log(`before: ${loadLine()}`);
  for (const pair of PAIRS) {
    const ours = [];
    const theirs = [];
    for (let i = 0; i < RUNS; i += 1) {
      ours.push(sample(pair.ours, pair.call));
      theirs.push(sample(pair.theirs, pair.call));
    }
    const m = (list, key) => median(list.map((s) => s[key]));
    rows.push({
      name: pair.name,
      importMs: [m(ours, 'load'), m(theirs, 'load')],
      firstMs: [m(ours, 'first'), m(theirs, 'first')],
      processMs: [m(ours, 'wall'), m(theirs, 'wall')],
      processCpuMs: [m(ours, 'cpu'), m(theirs, 'cpu')],
    });
  }
  const fmt = (n) => n.toFixed(3).padStart(8);
  const ratio = ([a, b]) => (a / b).toFixed(2).padStart(6);
  log(
    `drop-ins vs incumbents: medians of ${RUNS} fresh node processes each (ratio = termsight / incumbent, below 1 is faster)`,
  );
  log(
    `${'package'.padEnd(20)} ${'import ms (ts / inc)'.padEnd(22)} ratio  ${'first answer ms'.padEnd(20)} ratio  ${'whole process ms'.padEnd(20)} ratio  ${'its CPU ms'.padEnd(20)} ratio`,
  );
  for (const r of rows) {
    log(
      `${r.name.padEnd(20)} ${fmt(r.importMs[0])} /${fmt(r.importMs[1])}   ${ratio(r.importMs)} ${fmt(r.firstMs[0])} /${fmt(r.firstMs[1])} ${ratio(r.firstMs)} ${fmt(r.processMs[0])} /${fmt(r.processMs[1])} ${ratio(r.processMs)} ${fmt(r.processCpuMs[0])} /${fmt(r.processCpuMs[1])} ${ratio(r.processCpuMs)}`,
    );
  }
  log(`after: ${loadLine()}`);
  return rows;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await run();
