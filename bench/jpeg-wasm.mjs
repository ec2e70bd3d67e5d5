// Issue 26: the baseline entropy decoding of the 12 MP photo at 1/4 by TypeScript
// (decodeScan) against WebAssembly (wasm/jpeg-decoder.ts), counting the module's compile and
// instantiate. Fresh processes in alternation (the first call, as in a one-shot `show`) and one
// process each decoding many times (warm). CPU by process.cpuUsage (all threads: V8's background
// compilers included), wall by performance.now; medians; the load average before and after.
// Run alone: npm run build && node bench/jpeg-wasm.mjs
// (TERMSIGHT_BENCH_RUNS fresh rounds, default 11; TERMSIGHT_BENCH_BLOCK=8: at 1/1, without the +idct rows); TERMSIGHT_BENCH_NODE: another node binary.
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
// One bundle per module the child uses (rolldown shares their code in chunks), as dist/ is bundled.
const bundle = await rolldown({
  input: {
    glue: join(ROOT, 'src', 'decode', 'jpeg-entropy-wasm.ts'),
    harness: join(ROOT, 'src', 'decode', 'jpeg-wasm-harness.ts'),
    jpeg: join(ROOT, 'src', 'decode', 'jpeg.ts'),
  },
  platform: 'node',
  resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
});
const harness = join(cache, 'bundle');
await bundle.write({ dir: harness, format: 'esm', entryFileNames: '[name].mjs' });
const wasm = join(ROOT, 'dist', 'wasm', 'jpeg-decoder.wasm'); // npm run build makes it
const photo = inputs().baseline;
const child = join(ROOT, 'bench', 'jpeg-wasm-child.mjs');

/** Variants: [label, node flags, mode]. */
const BLOCK = Number(process.env.TERMSIGHT_BENCH_BLOCK ?? 2);
const ALL = [
  ['ts', [], 'ts'],
  ['wasm', [], 'wasm'],
  ['wasm --no-liftoff', ['--no-liftoff'], 'wasm'],
  ['ts+idct', [], 'ts+idct'],
  ['wasm+idct', [], 'wasm+idct'],
  ['wasm+idct --no-liftoff', ['--no-liftoff'], 'wasm+idct'],
  ['decodeJpeg ts', [], 'decode-ts'],
  ['decodeJpeg wasm', [], 'decode-wasm'],
];
// The module transforms to 4x4 at most: at 1/1 only the entropy rows.
const VARIANTS = BLOCK === 8 ? ALL.slice(0, 3) : ALL;
// decodeJpeg rows: the whole decode (entropy, transform, colour) of the photo at 1/4, the module used through options.wasm.
// Ratios against a TypeScript row: [variant, its reference].
const PAIRS = [
  [1, 0],
  [2, 0],
  [4, 3],
  [5, 3],
  [7, 6],
].filter(([v]) => v < VARIANTS.length);

function once(flags, mode, reps) {
  const start = performance.now();
  const r = spawnSync(
    process.env.TERMSIGHT_BENCH_NODE ?? process.execPath,
    [...flags, child, mode, String(reps), harness, photo, wasm],
    {
      encoding: 'utf8',
    },
  );
  const wall = performance.now() - start;
  if (r.status !== 0) throw new Error(r.stderr);
  return { ...JSON.parse(r.stdout), processWall: wall };
}

console.log(loadLine());
const fresh = VARIANTS.map(() => []);
for (let i = 0; i < RUNS; i++)
  for (const [v, [, flags, mode]] of VARIANTS.entries()) fresh[v].push(once(flags, mode, 1));
console.log(loadLine());
const warm = VARIANTS.map(() => []);
for (let i = 0; i < 3; i++)
  for (const [v, [, flags, mode]] of VARIANTS.entries()) warm[v].push(once(flags, mode, WARM));
console.log(loadLine());

const f = (x) => x.toFixed(1);
console.log(
  `\n12 MP baseline at 1/${8 / BLOCK}, entropy decoding (+idct: and the inverse transform; decodeJpeg: the whole decode) (ms, medians; fresh: ${RUNS} alternating processes, first call; warm: reps 6..${WARM} of 3 processes)`,
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
// Same-round ratios against the TypeScript row (each round's processes ran one after another).
const warmCpu = (v) => median(warm[v].flatMap((r) => r.reps.slice(5).map((x) => x.cpu)));
for (const [v, t] of PAIRS) {
  const ratio = (pick) => median(fresh[v].map((r, i) => pick(r) / pick(fresh[t][i]))).toFixed(2);
  console.log(
    `${VARIANTS[v][0]} / ${VARIANTS[t][0]}: fresh (median of same-round ratios) stage CPU ${ratio((r) => r.reps[0].cpu)}, stage wall ${ratio((r) => r.reps[0].wall)}, process CPU ${ratio((r) => r.processCpu)}; warm stage CPU ${(warmCpu(v) / warmCpu(t)).toFixed(2)}`,
  );
}
