// PNG `show` as whole processes: `termsight show --no-probe --width 100 --protocol P FILE` against
// chafa (`-f P -s 100`, the same output kind) and `pngtopnm` (netpbm on libpng: the C decode stage
// alone, inflate + unfilter + expansion, written to /dev/null), on the 1000x872 Hubble picture (the
// issue's row) and a 4000x3000 photo-like PNG (four committed photos tiled, with grain, as
// bench/jpeg.mjs makes its JPEG), both made once with ImageMagick into .bench-cache/.
// `node bench/png.mjs show`: wall ms / CPU ms / peak MiB, medians of RUNS interleaved processes.
// `node bench/png.mjs stages`: where a `show` spends its CPU, stage by stage (inflate, unfilter,
// expansion and averaging, other decode, colour, resize, encode, ...): a process under
// `node --cpu-prof`, its samples' self time summed by stage, each stage's share times the
// process's CPU time less Node's start (`node -e 0`, its own column).
// TERMSIGHT_BENCH_BASE=.bench-cache/base-dist (a copy of another build's dist/) runs that build
// too, alternating with this one, and prints this / base. TERMSIGHT_BENCH_RUNS (default 5; stages 3).
// The load average is printed before and after each table.
// Run alone: npm run build && node bench/png.mjs [show|stages] (both without an argument)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { makeTiledPhoto } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';
import { functionStages, profileOnce } from './profile.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.bench-cache');
const CLI = join(ROOT, 'dist/cli/main.js');
const BASE = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE, 'cli/main.js') : null;
const runsOr = (n) => (Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : n);
const PROTOCOLS = [
  ['sixel', 'sixels'],
  ['kitty', 'kitty'],
  ['symbols', 'symbols'],
];

const has = (command) => spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;

/** The two PNGs, made once: the 1000x872 picture (as bench/show.mjs makes it) and a 12 MP photo. */
export function inputs() {
  mkdirSync(CACHE, { recursive: true });
  const hubble = join(CACHE, 'hubble.png');
  const photo = join(CACHE, 'phone-4000x3000.png');
  if (!existsSync(hubble))
    spawnSync('convert', [join(ROOT, 'test/fixtures/images/hubble_deep_field.jpg'), hubble], { stdio: 'ignore' });
  if (!existsSync(photo)) makeTiledPhoto(photo);
  return [
    ['1000x872 RGB', hubble],
    ['4000x3000 RGB photo', photo],
  ];
}

const f0 = (x) => x.toFixed(0);
const f2 = (x) => x.toFixed(2);
const cell = (c) => (c ? `${f0(c.ms)} / ${f0(c.cpu)} / ${f0(c.mib)}` : '-');
const ratio = (a, b) =>
  a && b ? `${f2(a.ms / b.ms)} / ${f2(Math.max(10, a.cpu) / Math.max(10, b.cpu))} / ${f2(a.mib / b.mib)}` : '-';

/** Medians of interleaved runs of each command (null commands skipped; null when any run failed). */
function interleaved(commands, runs) {
  const got = commands.map(() => []);
  for (let i = 0; i < runs; i++)
    commands.forEach((c, k) => {
      if (c) got[k].push(processCost(c));
    });
  return got.map((r) =>
    r.length === 0 || r.some((x) => !x.ok)
      ? null
      : { ms: median(r.map((x) => x.ms)), cpu: median(r.map((x) => x.cpu)), mib: median(r.map((x) => x.rss)) },
  );
}

/** The `show` rows: termsight against chafa and pngtopnm (and the base build), interleaved. */
export function showRows(log = console.log) {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  if (!canTimeProcesses() || !has('convert')) {
    log('png show rows: skipped (needs ImageMagick convert and /usr/bin/time)');
    return;
  }
  const runs = runsOr(5);
  const files = inputs();
  log(`before: ${loadLine()}`);
  log(
    `png: termsight show as a whole process against chafa and pngtopnm (wall ms / CPU ms / peak MiB, median of ${runs}, interleaved; ratios wall / CPU / memory)`,
  );
  log('');
  const head = ['file', 'protocol', 'termsight', 'chafa', 'vs chafa', 'pngtopnm (decode only)', 'vs pngtopnm'];
  if (BASE) head.push('base build', 'this / base');
  log(`| ${head.join(' | ')} |`);
  log(`|${head.map(() => ' --- ').join('|')}|`);
  for (const [name, path] of files)
    for (const [protocol, chafa] of PROTOCOLS) {
      const show = ['show', '--no-probe', '--width', '100', '--protocol', protocol, path];
      const [ours, theirs, decodeOnly, before] = interleaved(
        [
          [process.execPath, CLI, ...show],
          has('chafa') ? ['chafa', '--animate=off', '-f', chafa, '-s', '100', path] : null,
          has('pngtopnm') ? ['pngtopnm', path] : null,
          BASE ? [process.execPath, BASE, ...show] : null,
        ],
        runs,
      );
      const row = [
        name,
        protocol,
        cell(ours),
        cell(theirs),
        ratio(ours, theirs),
        cell(decodeOnly),
        ratio(ours, decodeOnly),
      ];
      if (BASE) row.push(cell(before), ratio(ours, before));
      log(`| ${row.join(' | ')} |`);
    }
  log(`after: ${loadLine()}`);
}

/** The stage a source file's functions belong to. */
function stageOf(file) {
  if (/decode\/png-inflate\.ts$/.test(file)) return 'inflate';
  if (/decode\/png-unfilter\.ts$/.test(file)) return 'unfilter';
  if (/decode\/png-(pixels|reduce)\.ts$/.test(file)) return 'expand+average';
  if (/decode\/colou?r/.test(file) || /decode\/icc/.test(file)) return 'colour';
  if (/decode\//.test(file)) return 'decode other';
  if (/render\/geometry\/resize\.ts$/.test(file)) return 'resize';
  if (/render\//.test(file)) return 'encode';
  return 'cli+rest';
}

const STAGES = [
  'modules+node',
  'inflate',
  'unfilter',
  'expand+average',
  'decode other',
  'colour',
  'resize',
  'encode',
  'cli+rest',
  'gc',
  'other',
];

/** A profiled frame's stage: node:zlib's native inflate is charged to its JS caller's stage, inflate. */
function frameStage(names) {
  return ({ functionName, url }) => {
    if (url === 'node:zlib' && functionName !== 'crc32') return 'inflate';
    if (url.startsWith('node:') || url === '') return 'modules+node';
    return names.get(functionName) ?? (/\/png-[^/]*\.js$/.test(url) ? 'expand+average' : 'cli+rest');
  };
}

/** The stage table (this build, and the base build in alternation), then the C tools' whole CPU. */
export function stageRows(log = console.log) {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  if (!canTimeProcesses() || !has('convert')) {
    log('png stages: skipped (needs ImageMagick convert and /usr/bin/time)');
    return;
  }
  const runs = runsOr(3);
  const names = functionStages(ROOT, stageOf);
  const files = inputs();
  log(`before: ${loadLine()}`);
  const nodeStart = median([0, 1, 2, 3, 4].map(() => processCost([process.execPath, '-e', '0']).cpu));
  const builds = [['this build', CLI]];
  if (BASE) builds.push(['base build', BASE]);
  log(
    `png stages: CPU ms by stage (each stage's share of the --cpu-prof samples times the process's CPU time), median of ${runs} processes (interleaved); peak MiB under the profiler`,
  );
  log('');
  log(`| file | protocol | build | node start | ${STAGES.join(' | ')} | process CPU | peak MiB |`);
  log(`| --- | --- | --- | --- | ${STAGES.map(() => '---').join(' | ')} | --- | --- |`);
  for (const [name, path] of files)
    for (const [protocol] of PROTOCOLS) {
      const args = ['show', '--no-probe', '--width', '100', '--protocol', protocol, path];
      const got = builds.map(() => []);
      for (let i = 0; i < runs; i++)
        builds.forEach(([, c], k) => {
          got[k].push(profileOnce(c, args, { stages: STAGES, frameStage: frameStage(names), nodeStart }));
        });
      builds.forEach(([label], k) => {
        const m = Object.fromEntries(STAGES.map((s) => [s, median(got[k].map((g) => g.stages[s]))]));
        const total = STAGES.reduce((a, s) => a + m[s], 0);
        const mib = median(got[k].map((g) => g.mib));
        log(
          `| ${name} | ${protocol} | ${label} | ${f0(nodeStart)} | ${STAGES.map((s) => f0(m[s])).join(' | ')} | ${f0(total + nodeStart)} | ${f0(mib)} |`,
        );
      });
    }
  log('');
  log(`the C tools on the same files, whole process: CPU ms / wall ms / peak MiB (median of ${runs})`);
  log('');
  log('| file | node -e 0 | pngtopnm | chafa -f sixels -s 100 |');
  log('| --- | --- | --- | --- |');
  const cost = (argv) => {
    const [c] = interleaved([argv], runs);
    return c ? `${f0(c.cpu)} / ${f0(c.ms)} / ${f0(c.mib)}` : 'failed';
  };
  for (const [name, path] of files)
    log(
      `| ${name} | ${cost([process.execPath, '-e', '0'])} | ${has('pngtopnm') ? cost(['pngtopnm', path]) : '-'} | ${has('chafa') ? cost(['chafa', '-f', 'sixels', '-s', '100', path]) : '-'} |`,
    );
  log(`after: ${loadLine()}`);
}

export async function run(log = console.log) {
  showRows(log);
  log('');
  stageRows(log);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (process.argv[2] === 'show') showRows();
  else if (process.argv[2] === 'stages') stageRows();
  else await run();
}
