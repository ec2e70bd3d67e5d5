// Issue 26 experiment: the baseline entropy decoding of the 12 MP photo at 1/4 by TypeScript
// (decodeScan) against WebAssembly (wasm/jpeg-baseline.ts), counting the module's compile and
// instantiate. Fresh processes in alternation (the first call, as in a one-shot `show`) and one
// process each decoding many times (warm). CPU by process.cpuUsage (all threads: V8's background
// compilers included), wall by performance.now; medians; the load average before and after.
// Run alone: node scripts/build-wasm.mjs && npm run build && node bench/jpeg-wasm.mjs
// (TERMSIGHT_BENCH_RUNS fresh rounds, default 11). Node flags to try: TERMSIGHT_BENCH_WASM_FLAGS.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rolldown } from 'rolldown';
import { inputs } from './jpeg.mjs';
import { loadLine, median } from './machine.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 11;
const WARM = 15;
const cache = join(ROOT, '.bench-cache', 'jpeg-wasm');
mkdirSync(cache, { recursive: true });
const harness = join(cache, 'harness.mjs');
const bundle = await rolldown({
  input: join(ROOT, 'src', 'decode', 'jpeg-entropy-wasm.ts'),
  platform: 'node',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
});
await bundle.write({ file: harness, format: 'esm' });
const wasm = join(ROOT, 'wasm', 'build', 'jpeg-baseline.wasm');
const photo = inputs().baseline;
const child = join(ROOT, 'bench', 'jpeg-wasm-child.mjs');

/** Variants: [label, node flags, mode]. */
const VARIANTS = [
  ['ts', [], 'ts'],
  ['wasm', [], 'wasm'],
  ['wasm --no-liftoff', ['--no-liftoff'], 'wasm'],
  ['wasm --liftoff-only', ['--liftoff-only'], 'wasm'],
];

function once(flags, mode, reps) {
  const start = performance.now();
  const r = spawnSync(process.execPath, [...flags, child, mode, String(reps), harness, photo, wasm], {
    encoding: 'utf8',
  });
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(r.stderr);
  return { ...JSON.parse(r.stdout), processWall: wall };
}

console.log(loadLine());
const fresh = VARIANTS.map(() => []);
for (let i = 0; i < RUNS; i++) VARIANTS.forEach(([, flags, mode], v) => fresh[v].push(once(flags, mode, 1)));
console.log(loadLine());
const warm = VARIANTS.map(() => []);
for (let i = 0; i < 3; i++) VARIANTS.forEach(([, flags, mode], v) => warm[v].push(once(flags, mode, WARM)));
console.log(loadLine());

const f = (x) => x.toFixed(1);
console.log(
  `\n12 MP baseline at 1/4, entropy decoding (ms, medians; fresh: ${RUNS} alternating processes, first call; warm: reps 6..${WARM} of 3 processes)`,
);
console.log(
  '| variant | fresh CPU | fresh wall | of which read+compile+instantiate CPU / wall | process CPU | process wall | warm CPU | warm wall |',
);
console.log('|---|---|---|---|---|---|---|---|');
VARIANTS.forEach(([label], v) => {
  const fr = fresh[v];
  const wr = warm[v].flatMap((r) => r.reps.slice(5));
  console.log(
    `| ${label} | ${f(median(fr.map((r) => r.reps[0].cpu)))} | ${f(median(fr.map((r) => r.reps[0].wall)))} | ${f(median(fr.map((r) => r.reps[0].setup.cpu)))} / ${f(median(fr.map((r) => r.reps[0].setup.wall)))} | ${f(median(fr.map((r) => r.processCpu)))} | ${f(median(fr.map((r) => r.processWall)))} | ${f(median(wr.map((r) => r.cpu)))} | ${f(median(wr.map((r) => r.wall)))} |`,
  );
});
// Same-round ratios against ts (each round's processes ran one after another).
VARIANTS.slice(1).forEach(([label], k) => {
  const v = k + 1;
  const cpu = median(fresh[v].map((r, i) => r.reps[0].cpu / fresh[0][i].reps[0].cpu));
  const wall = median(fresh[v].map((r, i) => r.reps[0].wall / fresh[0][i].reps[0].wall));
  const proc = median(fresh[v].map((r, i) => r.processCpu / fresh[0][i].processCpu));
  console.log(
    `${label} / ts, fresh, median of same-round ratios: stage CPU ${cpu.toFixed(2)}, stage wall ${wall.toFixed(2)}, process CPU ${proc.toFixed(2)}`,
  );
});
