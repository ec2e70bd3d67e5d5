// `termsight show` of the 12 MP baseline photo, of its copy with restart intervals (jpegtran
// -restart 1: one interval per MCU row, lossless, as phones and cameras write them) and of its
// progressive copy (ImageMagick's -interlace JPEG, libjpeg's progression) as whole
// processes: this build (the WebAssembly decoder by default) against other builds
// (TERMSIGHT_BENCH_BASE, copies of their dist/ inside the repository, comma-separated) and chafa; wall and CPU,
// medians of interleaved runs, the load average before and after. docs/decode.md, "WebAssembly".
// Run alone: npm run build && TERMSIGHT_BENCH_BASE=.bench-cache/base-dist node bench/jpeg-wasm-show.mjs
// (TERMSIGHT_BENCH_RUNS, default 7; TERMSIGHT_BENCH_PROTOCOLS, default sixel,kitty,symbols;
// TERMSIGHT_BENCH_FILES, default baseline,restart,progressive)
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inputs } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 7;
const protocols = (process.env.TERMSIGHT_BENCH_PROTOCOLS ?? 'sixel,kitty,symbols').split(',');
const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

if (!canTimeProcesses() || !has('jpegtran')) {
  console.log('jpeg-wasm-show: skipped (needs /usr/bin/time and jpegtran)');
  process.exit(0);
}
const { baseline, progressive } = inputs();
const files = (process.env.TERMSIGHT_BENCH_FILES ?? 'baseline,restart,progressive').split(',');
const restart = join(root, '.bench-cache', 'phone-4000x3000-q90-420-restart-row.jpg');
if (!existsSync(restart)) execFileSync('jpegtran', ['-restart', '1', '-copy', 'all', '-outfile', restart, baseline]);
const cli = join(root, 'dist/cli/main.js');
const bases = (process.env.TERMSIGHT_BENCH_BASE ?? '').split(',').filter((b) => b !== '');
const chafaFormat = { sixel: 'sixels', kitty: 'kitty', symbols: 'symbols' };
const cell = (c) => (c ? `${c.ms.toFixed(0)} / ${c.cpu.toFixed(0)}` : '-');
const ratio = (a, b) => (a && b ? `${(a.ms / b.ms).toFixed(2)} / ${(a.cpu / b.cpu).toFixed(2)}` : '-');

console.log(`before: ${loadLine()}`);
console.log(`show --no-probe --width 100, whole processes (wall ms / CPU ms, median of ${runs}, interleaved)`);
console.log('');
const head = ['file', 'protocol', 'this build', ...bases.flatMap((b) => [b, `this / ${b}`]), 'chafa', 'this / chafa'];
console.log(`| ${head.join(' | ')} |`);
console.log(`|${head.map(() => ' --- ').join('|')}|`);
for (const [name, path] of [
  ['baseline', baseline],
  ['restart every row', restart],
  ['progressive', progressive],
].filter((_, i) => files.includes(['baseline', 'restart', 'progressive'][i]))) {
  for (const protocol of protocols) {
    const show = ['show', '--no-probe', '--width', '100', '--protocol', protocol, path];
    const commands = [
      [process.execPath, cli, ...show],
      ...bases.map((b) => [process.execPath, join(root, b, 'cli/main.js'), ...show]),
      has('chafa') ? ['chafa', '--animate=off', '-f', chafaFormat[protocol], '-s', '100', path] : null,
    ];
    const got = commands.map(() => []);
    for (let i = 0; i < runs; i++)
      commands.forEach((c, k) => {
        if (c) got[k].push(processCost(c));
      });
    const [ours, ...others] = got.map((r) =>
      r.length === 0 || r.some((x) => !x.ok)
        ? null
        : { ms: median(r.map((x) => x.ms)), cpu: median(r.map((x) => x.cpu)) },
    );
    const row = [name, protocol, cell(ours), ...others.flatMap((o) => [cell(o), ratio(ours, o)])];
    console.log(`| ${row.join(' | ')} |`);
  }
}
console.log(`after: ${loadLine()}`);
