// The encode stage of `termsight show --no-probe --width 100 --protocol symbols` of the 12 MP JPEG
// (bench/jpeg.mjs's phone-sized photo), in a fresh process as the CLI runs it: the file decoded
// once to the box `decodeBox` asks for, then the first `toTerminal` (resampling to the sub-pixels,
// the fit, the writing) timed, and then the median of 5 warm ones. Each process is run RUNS times
// (TERMSIGHT_BENCH_RUNS, default 7), alternating with the build in TERMSIGHT_BENCH_BASE (a copy of
// another build's dist/ inside the repository) when set; medians of wall and CPU time (the whole
// process's user + system, so V8's compiler threads count too), and the load average before and
// after. Then `termsight show --no-probe --width 100 --protocol symbols` of the baseline and the
// progressive file as whole processes (wall / CPU / peak MiB, medians of RUNS, alternating with
// the base build and chafa `-f symbols -s 100` where installed).
// Run alone: npm run build && node bench/symbols-show.mjs [256|truecolor|16 ...] (`--whole`: only
// the whole processes)
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inputs } from './jpeg.mjs';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 7;
const BASE = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE) : null;

/** The child: argv = dist folder, file, colour depth; prints "firstWall firstCpu warmWall warmCpu resample". */
const CHILD = `
import { readFileSync } from 'node:fs';
const [dist, file, colorDepth] = process.argv.slice(1);
const { decodeImage } = await import(dist + '/decode/index.js');
const { toTerminal, decodeBox } = await import(dist + '/render/backend.js');
const options = { columns: 100, upscale: true, colorDepth, symbols: ['block'] };
const raster = decodeImage(readFileSync(file), { maxSize: decodeBox('symbols', options) }).frames[0].raster;
const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
const once = () => { const c = cpu(); const t = performance.now(); const out = toTerminal(raster, 'symbols', options); return [performance.now() - t, cpu() - c, out.length]; };
const first = once();
const warm = [];
for (let i = 0; i < 5; i++) warm.push(once());
const mid = (k) => warm.map((w) => w[k]).sort((a, b) => a - b)[2];
console.log([first[0], first[1], mid(0), mid(1), raster.width, raster.height, first[2]].join(' '));
`;

function child(dist, file, depth) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', CHILD, pathToFileURL(dist).href, file, depth], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(r.stderr);
  return r.stdout.trim().split(' ').map(Number);
}

/** The first and warm encode in fresh processes, per colour depth. */
export function encodeRows(log = console.log, depths = ['256', 'truecolor']) {
  const dist = join(ROOT, 'dist');
  if (!existsSync(join(dist, 'render/backend.js'))) throw new Error('build first: npm run build');
  const { baseline } = inputs();
  log(`before: ${loadLine()}`);
  log(
    `symbols encode of the 12 MP JPEG in a fresh process (show --width 100's box), ms, median of ${RUNS}${BASE ? ', alternating with the base build' : ''}`,
  );
  log('');
  const head = ['depth', 'decoded', 'first wall', 'first CPU', 'warm wall', 'warm CPU'];
  if (BASE)
    head.push('base first wall', 'base first CPU', 'base warm wall', 'this / base first wall', 'first CPU', 'warm');
  log(`| ${head.join(' | ')} |`);
  log(`|${head.map(() => ' --- ').join('|')}|`);
  for (const depth of depths) {
    const ours = [];
    const theirs = [];
    for (let i = 0; i < RUNS; i++) {
      ours.push(child(dist, baseline, depth));
      if (BASE) theirs.push(child(BASE, baseline, depth));
    }
    const m = (runs, k) => median(runs.map((r) => r[k]));
    const row = [depth, `${ours[0][4]}x${ours[0][5]}`, ...[0, 1, 2, 3].map((k) => m(ours, k).toFixed(1))];
    if (BASE) {
      row.push(...[0, 1, 2].map((k) => m(theirs, k).toFixed(1)));
      row.push(...[0, 1, 2].map((k) => (m(ours, k) / m(theirs, k)).toFixed(2)));
    }
    log(`| ${row.join(' | ')} |`);
  }
  log(`after: ${loadLine()}`);
}

/** `show … --protocol symbols` of both 12 MP files as whole processes: this build, the base build, chafa. */
export function whole(log = console.log) {
  if (!canTimeProcesses()) {
    log('symbols show rows: skipped (/usr/bin/time is not installed)');
    return;
  }
  const files = inputs();
  const hasChafa = spawnSync('sh', ['-c', 'command -v chafa'], { stdio: 'ignore' }).status === 0;
  log(`before: ${loadLine()}`);
  log(
    `symbols: termsight show as a whole process (wall ms / CPU ms / peak MiB, median of ${RUNS}, interleaved; ratios wall / CPU)`,
  );
  log('');
  const head = [
    'file',
    'this build',
    ...(BASE ? ['base build', 'this / base'] : []),
    ...(hasChafa ? ['chafa', 'this / chafa'] : []),
  ];
  log(`| ${head.join(' | ')} |`);
  log(`|${head.map(() => ' --- ').join('|')}|`);
  const cell = (c) => `${c.ms.toFixed(0)} / ${c.cpu.toFixed(0)} / ${c.mib.toFixed(0)}`;
  const ratio = (a, b) => `${(a.ms / b.ms).toFixed(2)} / ${(Math.max(10, a.cpu) / Math.max(10, b.cpu)).toFixed(2)}`;
  for (const [name, path] of Object.entries(files)) {
    const show = ['show', '--no-probe', '--width', '100', '--protocol', 'symbols', path];
    const commands = [[process.execPath, join(ROOT, 'dist/cli/main.js'), ...show]];
    if (BASE) commands.push([process.execPath, join(BASE, 'cli/main.js'), ...show]);
    if (hasChafa) commands.push(['chafa', '--animate=off', '-f', 'symbols', '-s', '100', path]);
    const got = commands.map(() => []);
    for (let i = 0; i < RUNS; i++)
      commands.forEach((c, k) => {
        got[k].push(processCost(c));
      });
    if (got.some((r) => r.some((x) => !x.ok))) throw new Error(`a process failed: ${name}`);
    const [ours, ...others] = got.map((r) => ({
      ms: median(r.map((x) => x.ms)),
      cpu: median(r.map((x) => x.cpu)),
      mib: median(r.map((x) => x.rss)),
    }));
    const row = [name, cell(ours)];
    for (const other of others) row.push(cell(other), ratio(ours, other));
    log(`| ${row.join(' | ')} |`);
  }
  log(`after: ${loadLine()}`);
}

/** Both tables (`npm run bench` calls this). */
export function run(log = console.log, depths = undefined) {
  encodeRows(log, depths);
  log('');
  whole(log);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const depths = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  if (process.argv.includes('--whole')) whole();
  else run(console.log, depths.length > 0 ? depths : undefined);
}
