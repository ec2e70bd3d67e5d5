// BMP and PNM as whole processes: decoding alone (a fresh Node running termsight's decodeImage
// against ImageMagick's `convert FILE rgba:-`) and `termsight show` against chafa, each with CPU
// (user + system) and peak memory from /usr/bin/time, medians of alternating runs. Inputs are made
// once from the committed Hubble photo (1000x872) with ImageMagick into .bench-cache/: a 24-bit
// BMP, an 8-bit RLE8 BMP, a 32-bit BMP with alpha, a binary PPM and a 16-bit PPM. (ImageMagick 6,
// Debian 12's, has no QOI; QOI's speed is not measured here.)
// Run alone, after `npm run build`: node bench/formats.mjs [runs]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cache = join(root, '.bench-cache');
const source = join(root, 'test/fixtures/images/hubble_deep_field.jpg');
const cli = join(root, 'dist/cli/main.js');
const runs = Number(process.argv[2]) > 0 ? Number(process.argv[2]) : 5;

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

/** CPU ms (user + system) and peak MiB of one run of argv, or null when it fails. */
function cost(argv) {
  const r = spawnSync('/usr/bin/time', ['-f', '%e %U %S %M', ...argv], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) return null;
  const [wall, user, system, kb] = r.stderr.trim().split('\n').pop().split(' ').map(Number);
  return { wall: wall * 1000, cpu: (user + system) * 1000, mib: kb / 1024 };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Medians of `runs` alternating runs of each command. */
function compare(commands) {
  const results = commands.map(() => []);
  for (let i = 0; i < runs; i++)
    commands.forEach((argv, k) => {
      const c = cost(argv);
      if (c) results[k].push(c);
    });
  return results.map((r) =>
    r.length
      ? { wall: median(r.map((c) => c.wall)), cpu: median(r.map((c) => c.cpu)), mib: median(r.map((c) => c.mib)) }
      : null,
  );
}

const show = (c) => (c ? `${c.wall.toFixed(0)} / ${c.cpu.toFixed(0)} / ${c.mib.toFixed(0)}` : 'n/a');
const ratio = (a, b) => (a && b ? `${(a.wall / b.wall).toFixed(2)} / ${(a.cpu / b.cpu).toFixed(2)}` : 'n/a');

function main() {
  if (!existsSync(cli)) throw new Error('run `npm run build` first');
  if (!has('convert')) throw new Error('ImageMagick (convert) is needed');
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average before: ${load}; medians of ${runs}; wall ms / CPU ms / peak MiB; ratios wall / CPU`);
  console.log(
    '| file | termsight decode | convert rgba:- | vs convert | termsight show sixel | chafa sixel | vs chafa |',
  );
  console.log('|---|---|---|---|---|---|---|');
  for (const { name, path } of inputs()) {
    const [ours, magick, showOurs, chafa] = compare([
      [process.execPath, fileURLToPath(import.meta.url), '--decode', path],
      ['convert', path, '-depth', '8', 'rgba:/dev/null'],
      [process.execPath, cli, 'show', '--no-probe', '--protocol', 'sixel', '--width', '80', path],
      ...(has('chafa') ? [['chafa', '-f', 'sixel', '-s', '80', path]] : []),
    ]);
    console.log(
      `| ${name} | ${show(ours)} | ${show(magick)} | ${ratio(ours, magick)} | ${show(showOurs)} | ${show(chafa)} | ${ratio(showOurs, chafa)} |`,
    );
  }
  console.log(`load average after: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

if (process.argv[2] === '--decode') {
  // The child: decode one file and touch every pixel, as the CLI would before resizing.
  const { decodeImage } = await import('../dist/decode/index.js');
  const image = decodeImage(readFileSync(process.argv[3]));
  let sum = 0;
  for (const b of image.frames[0].raster.data) sum += b;
  process.exitCode = sum < 0 ? 1 : 0;
} else main();
