// The whole process, as a user runs it: `termsight show --no-probe --protocol P --width 100 FILE
// > /dev/null` against chafa, timg, img2sixel and the npm `sixel` package (a small Node program
// around image2sixel: bench/peers/sixel-npm.mjs, sixel rows only) on the same files, where installed; medians of
// RUNS runs (TERMSIGHT_BENCH_RUNS, default 5) of wall time and peak RSS (`/usr/bin/time -f %M`),
// printed as ratios termsight/peer (below 1: termsight is faster or smaller). The runs of a row
// are interleaved (termsight, then each peer, RUNS times) so all see the same load; the summary
// also gives the ratio of CPU time (user + system), which a loaded machine distorts less. Inputs are made
// from the committed photos into .bench-cache/ with ImageMagick's `convert`: a 12-megapixel JPEG
// (baseline and progressive), the 1000x872 Hubble picture as PNG, a 4000x3000 PNG, an animated
// GIF (its first frame is shown) and a 64x64 icon. Also the time to import('termsight') against
// import('supports-color'), each in a fresh process. Animations: chafa --animate=off, timg
// --frames=1, img2sixel -S (all three would otherwise play the GIF), termsight shows the first
// frame by default. TERMSIGHT_BENCH_ONLY=GIF measures only the inputs whose name contains it;
// TERMSIGHT_BENCH_PROTOCOLS=sixel,kitty only those protocols.
// TERMSIGHT_BENCH_BASE=.bench-cache/base-dist (a copy of another build's dist/, inside the
// repository) runs that build too, interleaved with the others, and prints this build against it.
// Run alone: npm run build && node bench/show.mjs
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const CACHE = join(ROOT, '.bench-cache');
const PHOTOS = join(ROOT, 'test/fixtures/images');
const CLI = join(ROOT, 'dist/cli/main.js');
const RUNS = Number(process.env.TERMSIGHT_BENCH_RUNS) > 0 ? Number(process.env.TERMSIGHT_BENCH_RUNS) : 5;
// The npm `sixel` package as a whole process: a small Node program that decodes the file with the
// usual pure-JS decoders, scales it and calls image2sixel (bench/peers/sixel-npm.mjs).
const NPM_SIXEL = join(ROOT, 'bench/peers/sixel-npm.mjs');
const npmSixel = () =>
  ['sixel', 'fast-png', 'jpeg-js', 'omggif'].every((m) => existsSync(join(ROOT, 'node_modules', m)));
const BASE = process.env.TERMSIGHT_BENCH_BASE ? join(ROOT, process.env.TERMSIGHT_BENCH_BASE, 'cli/main.js') : null;

function have(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/** The benchmark's inputs, made once into .bench-cache/ from the committed photos. */
function inputs() {
  mkdirSync(CACHE, { recursive: true });
  const hubble = join(PHOTOS, 'hubble_deep_field.jpg');
  const made = [
    [
      '12 MP JPEG baseline',
      'photo-12mp.jpg',
      [hubble, '-resize', '4000x3000!', '-quality', '90', '-interlace', 'none'],
    ],
    [
      '12 MP JPEG progressive',
      'photo-12mp-progressive.jpg',
      [hubble, '-resize', '4000x3000!', '-quality', '90', '-interlace', 'JPEG'],
    ],
    ['1000x872 PNG', 'hubble.png', [hubble]],
    ['4000x3000 PNG', 'photo-12mp.png', [hubble, '-resize', '4000x3000!']],
    [
      'animated GIF 600x400 x3',
      'animation.gif',
      [
        '-delay',
        '10',
        '-loop',
        '0',
        ...['coffee.png', 'chelsea.png', 'astronaut.png'].map((f) => join(PHOTOS, f)),
        '-resize',
        '600x400!',
      ],
    ],
    ['64x64 PNG icon', 'icon.png', [join(PHOTOS, 'astronaut.png'), '-resize', '64x64']],
  ];
  return made.map(([name, file, args]) => {
    const path = join(CACHE, file);
    if (!existsSync(path)) {
      const r = spawnSync('convert', [...args, path], { stdio: ['ignore', 'ignore', 'pipe'] });
      if (r.status !== 0) throw new Error(`convert failed for ${file}: ${r.stderr}`);
    }
    return { name, path };
  });
}

/**
 * RUNS runs of each command, interleaved (one of each, then again), so that every command of a
 * row sees the same load on a shared machine; null commands are skipped.
 */
function measureAll(commands) {
  const runs = commands.map(() => []);
  for (let i = 0; i < RUNS; i++)
    commands.forEach((command, k) => {
      if (command) runs[k].push(processCost(command));
    });
  return runs.map((r, k) => {
    if (!commands[k]) return null;
    const failed = r.find((x) => !x.ok);
    return {
      ms: median(r.map((x) => x.ms)),
      rss: median(r.map((x) => x.rss)),
      cpu: median(r.map((x) => x.cpu)),
      failed: failed?.stderr ?? null,
    };
  });
}

function measure(command) {
  return measureAll([command])[0];
}

/** The protocols and how each peer is asked for the same output. */
const PROTOCOLS = [
  { p: 'sixel', chafa: 'sixels', timg: 's', img2sixel: true, npm: true },
  { p: 'kitty', chafa: 'kitty', timg: 'k' },
  { p: 'iterm2', chafa: 'iterm', timg: 'i' },
  { p: 'blocks', chafa: 'symbols', timg: 'q' },
];

function importTime(specifier) {
  const code = `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`;
  const times = [];
  for (let i = 0; i < Math.max(RUNS, 7); i++) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { cwd: ROOT, encoding: 'utf8' });
    times.push(Number(r.stdout));
  }
  return median(times);
}

const fmt = (n, d = 0) => n.toFixed(d);

export async function run(log = console.log) {
  if (!existsSync(CLI)) throw new Error('build first: npm run build');
  if (!have('convert') || !canTimeProcesses()) {
    log('show: skipped (needs ImageMagick convert and /usr/bin/time)');
    return;
  }
  const peers = { chafa: have('chafa'), timg: have('timg'), img2sixel: have('img2sixel'), 'sixel (npm)': npmSixel() };
  log(`before: ${loadLine()}`);
  log(
    `show, whole process: median of ${RUNS} runs; wall ms / CPU ms / peak RSS MiB; ratio = termsight / peer in the same three (< 1: termsight better)`,
  );
  log(
    `peers: ${Object.entries(peers)
      .map(([k, v]) => `${k} ${v ? 'yes' : 'not installed'}`)
      .join(', ')}`,
  );
  if (BASE && !existsSync(BASE)) throw new Error(`TERMSIGHT_BENCH_BASE: no ${BASE}`);
  const header = [
    'input',
    'protocol',
    'termsight',
    'chafa',
    'ratio',
    'timg',
    'ratio',
    'img2sixel',
    'ratio',
    'sixel (npm)',
    'ratio',
  ];
  const widths = [24, 8, 18, 18, 16, 18, 16, 18, 16, 18, 16];
  if (BASE) {
    header.push('base build', 'ratio (time / RSS / CPU)');
    widths.push(14, 18);
  }
  const print = (r) => log(r.map((c, i) => String(c).padEnd(widths[i])).join(' '));
  print(header);
  const ratios = {
    chafa: { ms: [], rss: [], cpu: [] },
    timg: { ms: [], rss: [], cpu: [] },
    img2sixel: { ms: [], rss: [], cpu: [] },
    'sixel (npm)': { ms: [], rss: [], cpu: [] },
    base: { ms: [], rss: [], cpu: [] },
  };
  const only = process.env.TERMSIGHT_BENCH_ONLY;
  const protocols = process.env.TERMSIGHT_BENCH_PROTOCOLS?.split(',');
  for (const input of inputs().filter((i) => !only || i.name.includes(only))) {
    for (const proto of PROTOCOLS.filter((x) => !protocols || protocols.includes(x.p))) {
      const show = ['show', '--no-probe', '--protocol', proto.p, '--width', '100', input.path];
      const [ours, chafa, timg, img2sixel, npm, base] = measureAll([
        [process.execPath, CLI, ...show],
        peers.chafa ? ['chafa', '--animate=off', '-f', proto.chafa, '-s', '100', input.path] : null,
        peers.timg ? ['timg', '--frames=1', `-p${proto.timg}`, '-g100x50', input.path] : null,
        peers.img2sixel && proto.img2sixel ? ['img2sixel', '-S', '-w', '1000', input.path] : null,
        peers['sixel (npm)'] && proto.npm ? [process.execPath, NPM_SIXEL, input.path, '1000'] : null,
        BASE ? [process.execPath, BASE, ...show] : null,
      ]);
      const cell = (m) => (m ? (m.failed ? `fail` : `${fmt(m.ms)} / ${fmt(m.cpu)} / ${fmt(m.rss)}`) : '-');
      const ratio = (peer, m) => {
        if (!m || m.failed || ours.failed) return '-';
        ratios[peer].ms.push(ours.ms / m.ms);
        ratios[peer].rss.push(ours.rss / m.rss);
        // /usr/bin/time counts CPU in 10 ms steps: a peer that took less counts as 10 ms.
        ratios[peer].cpu.push(Math.max(10, ours.cpu) / Math.max(10, m.cpu));
        return `${fmt(ours.ms / m.ms, 2)} / ${fmt(ratios[peer].cpu.at(-1), 2)} / ${fmt(ours.rss / m.rss, 2)}`;
      };
      const row = [
        input.name,
        proto.p,
        ours.failed ? `fail: ${ours.failed}` : cell(ours),
        cell(chafa),
        ratio('chafa', chafa),
        cell(timg),
        ratio('timg', timg),
        cell(img2sixel),
        ratio('img2sixel', img2sixel),
        cell(npm),
        ratio('sixel (npm)', npm),
      ];
      if (BASE) {
        const r = ratio('base', base);
        const cpu = base && !base.failed && !ours.failed ? ` / ${fmt(ratios.base.cpu.at(-1), 2)}` : '';
        row.push(cell(base), `${r}${cpu}`);
      }
      print(row);
    }
  }
  log('');
  for (const [peer, r] of Object.entries(ratios)) {
    if (r.ms.length === 0) continue;
    log(
      `median ratio vs ${peer} over ${r.ms.length} cases: time ${fmt(median(r.ms), 2)}x, peak RSS ${fmt(median(r.rss), 2)}x, CPU time ${fmt(median(r.cpu), 2)}x`,
    );
  }
  // The floor under every termsight row: Node starting and exiting with nothing to do.
  const node = measure([process.execPath, '-e', '0']);
  log(`node -e 0 (the floor of any termsight row): ${fmt(node.ms)} ms / ${fmt(node.rss)} MiB, ${fmt(node.cpu)} ms CPU`);
  const ours = importTime('termsight');
  const theirs = importTime('supports-color');
  log(
    `import('termsight') ${fmt(ours, 1)} ms vs import('supports-color') ${fmt(theirs, 1)} ms: ${fmt(ours / theirs, 2)}x (fresh processes, median)`,
  );
  log(`after: ${loadLine()}`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
