// BMP and PNM as whole processes: decoding alone (a fresh Node running termsight's decodeImage
// against ImageMagick's `convert FILE rgba:-`) and `termsight show` against chafa, each with CPU
// (user + system) and peak memory by bench/machine.mjs's timer, medians of alternating runs. Inputs are made
// once from the committed Hubble photo (1000x872) with ImageMagick into .bench-cache/: a 24-bit
// BMP, an 8-bit RLE8 BMP, a 32-bit BMP with alpha, a binary PPM and a 16-bit PPM. (ImageMagick 6,
// Debian 12's, has no QOI; QOI's speed is not measured here.)
// Run alone, after `npm run build`: node bench/formats.mjs [runs]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { canTimeProcesses, loadLine, median, processCost } from './machine.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');
const source = join(root, 'test/fixtures/images/hubble_deep_field.jpg');
const cli = join(root, 'dist/cli/main.js');

function has(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

function inputs() {
  mkdirSync(cache, { recursive: true });
  const made = [
    ['hubble-24.bmp', ['BMP3:']],
    ['hubble-rle8.bmp', ['-colors', '256', '-compress', 'RLE', 'BMP3:']],
    ['hubble-32-alpha.bmp', ['-alpha', 'set', '-channel', 'A', '-evaluate', 'set', '80%', '+channel', 'BMP:']],
    ['hubble.ppm', ['PPM:']],
    ['hubble-16.ppm', ['-depth', '16', 'PPM:']],
  ];
  return made.map(([name, args]) => {
    const path = join(cache, name);
    const prefix = args.at(-1);
    if (!existsSync(path)) execFileSync('convert', [source, ...args.slice(0, -1), `${prefix}${path}`]);
    return { name, path };
  });
}

/** Medians of `runs` alternating runs of each command (wall ms, CPU ms, peak MiB), or null when it fails. */
function compare(commands, runs) {
  const results = commands.map(() => []);
  for (let i = 0; i < runs; i++)
    commands.forEach((argv, k) => {
      const c = processCost(argv);
      if (c.ok) results[k].push(c);
    });
  return results.map((r) =>
    r.length
      ? { wall: median(r.map((c) => c.ms)), cpu: median(r.map((c) => c.cpu)), mib: median(r.map((c) => c.rss)) }
      : null,
  );
}

const show = (c) => (c ? `${c.wall.toFixed(0)} / ${c.cpu.toFixed(0)} / ${c.mib.toFixed(0)}` : 'n/a');
// GNU time counts CPU in 10 ms steps: a peer that took less counts 0, and has no CPU ratio.
const ratio = (a, b) =>
  a && b ? `${(a.wall / b.wall).toFixed(2)} / ${b.cpu > 0 ? (a.cpu / b.cpu).toFixed(2) : '-'}` : 'n/a';

/** Prints the table through `log`; `runs` alternating runs a command (default 5). */
export async function run(log = console.log, runs = 5) {
  if (!existsSync(cli)) throw new Error('run `npm run build` first');
  if (!has('convert') || !canTimeProcesses()) {
    log('formats: skipped (needs ImageMagick `convert` and /usr/bin/time)');
    return;
  }
  const files = inputs();
  log(`before: ${loadLine()}`);
  log(`formats: medians of ${runs}; wall ms / CPU ms / peak MiB; ratios wall / CPU`);
  log('| file | termsight decode | convert rgba:- | vs convert | termsight show sixel | chafa sixel | vs chafa |');
  log('|---|---|---|---|---|---|---|');
  for (const { name, path } of files) {
    const [ours, magick, showOurs, chafa] = compare(
      [
        [process.execPath, fileURLToPath(import.meta.url), '--decode', path],
        ['convert', path, '-depth', '8', 'rgba:/dev/null'],
        [process.execPath, cli, 'show', '--no-probe', '--protocol', 'sixel', '--width', '80', path],
        ...(has('chafa') ? [['chafa', '-f', 'sixel', '-s', '80', path]] : []),
      ],
      runs,
    );
    log(
      `| ${name} | ${show(ours)} | ${show(magick)} | ${ratio(ours, magick)} | ${show(showOurs)} | ${show(chafa)} | ${ratio(showOurs, chafa)} |`,
    );
  }
  log(`after: ${loadLine()}`);
}

if (process.argv[2] === '--decode') {
  // The child: decode one file and touch every pixel, as the CLI would before resizing.
  const { decodeImage } = await import('../dist/decode/index.js');
  const image = decodeImage(readFileSync(process.argv[3]));
  let sum = 0;
  for (const b of image.frames[0].raster.data) sum += b;
  process.exitCode = sum < 0 ? 1 : 0;
} else if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  await run(console.log, Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 5);
}
