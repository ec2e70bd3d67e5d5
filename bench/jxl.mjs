// JPEG XL: `termsight show` of a 12 MP JPEG XL (decoded through the optional peer wasm-vips)
// against djxl (libjxl's own tool, native, one thread) as whole processes, alternating, medians
// of 3: wall, CPU, peak memory. The input is the JPEG benchmark's tiled photo (bench/jpeg.mjs)
// encoded by cjxl (distance 1, effort 3) into .bench-cache/.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTiledPhoto } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');
const has = (tool) => spawnSync(tool, ['--version']).status === 0;
const f0 = (n) => n.toFixed(0);
const f2 = (n) => n.toFixed(2);

function input() {
  mkdirSync(cache, { recursive: true });
  const png = join(cache, 'phone-4000x3000.png');
  const jxl = join(cache, 'phone-4000x3000-d1.jxl');
  if (!existsSync(png)) makeTiledPhoto(png);
  if (!existsSync(jxl)) execFileSync('cjxl', [png, jxl, '-d', '1', '-e', '3'], { stdio: 'ignore' });
  return jxl;
}

export async function run(log = console.log) {
  if (!has('convert') || !has('cjxl') || !has('djxl') || !canTimeProcesses()) {
    log('jxl: skipped (needs ImageMagick `convert`, libjxl-tools `cjxl`/`djxl` and /usr/bin/time)');
    return;
  }
  if (!existsSync(join(root, 'node_modules/wasm-vips'))) {
    log('jxl: skipped (the optional peer wasm-vips is not installed)');
    return;
  }
  const file = input();
  const cli = join(root, 'dist/cli/main.js');
  const runs = {
    termsight: () =>
      processCost([process.execPath, cli, 'show', file, '--no-probe', '--protocol', 'kitty', '--width', '80']),
    djxl: () => processCost(['djxl', file, join(tmpdir(), 'termsight-bench-jxl.ppm'), '--num_threads=0']),
  };
  const costs = { termsight: [], djxl: [] };
  log(`before: ${loadLine()}`);
  for (let round = 0; round < 3; round++)
    for (const [name, once] of Object.entries(runs)) {
      const cost = once();
      if (!cost.ok) throw new Error(`jxl: ${name} failed: ${cost.stderr}`);
      costs[name].push(cost);
    }
  const m = (name, key) => median(costs[name].map((c) => c[key]));
  log('jxl: whole process, a 4000x3000 JPEG XL (cjxl -d 1 -e 3) shown 80 cells wide by kitty, against djxl to PPM');
  log('(median of 3, alternating; ratio = termsight / djxl, > 1 is slower)');
  log('');
  log('| | wall ms | CPU ms | peak MiB |');
  log('| --- | --- | --- | --- |');
  for (const name of ['termsight', 'djxl'])
    log(`| ${name} | ${f0(m(name, 'ms'))} | ${f0(m(name, 'cpu'))} | ${f0(m(name, 'rss'))} |`);
  log(
    `| ratio | ${f2(m('termsight', 'ms') / m('djxl', 'ms'))}x | ${f2(m('termsight', 'cpu') / m('djxl', 'cpu'))}x | ${f2(m('termsight', 'rss') / m('djxl', 'rss'))}x |`,
  );
  log(`after: ${loadLine()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
