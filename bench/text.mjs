// Text renderers. Braille: encoding speed in megapixels (dots) per second on the fitted
// pictures taken as dot grids, and end to end (`toTerminal`, including the resize into 100
// columns) in source megapixels per second; goal: at least 50 MP/s of dots (issue 26). As a same-process yardstick (the
// machine may be loaded), a plain luminance pass over the same pixels is timed too, and the
// encoder's speed is printed as a ratio to it; both are also timed in CPU time (user + sys),
// which the other processes on a shared machine disturb far less than wall time. Blocks: PSNR of the picture the
// cells show (each cell's two colours read back from the SGR) against the source resized to the
// same pixels, for termsight and for `chafa --symbols=vhalf` (when installed) at 100x30 cells;
// goal: at least as good as chafa.
// Run: `npx tsc -p tsconfig.build.json && node bench/text.mjs`.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { layout, toTerminal } from '../dist/render/backend.js';
import { resize } from '../dist/render/geometry/resize.js';
import { encodeBraille } from '../dist/render/text/braille.js';
import { xterm256ToRgb } from '../dist/render/text/color.js';
import { ANSI16 } from '../dist/render/text/symbols-palette.js';
import { loadImages, writePng } from './images.mjs';
import { fmt, measure, median, psnr, table } from './quality.mjs';

const BOX = { columns: 100, rows: 30, cellPixels: { width: 10, height: 20 } };

/**
 * Median CPU milliseconds (user + sys) of `fn`, after one warm-up call: repeated until 300 ms of
 * CPU or 15 runs (at least 3). On a shared machine wall time counts the other processes' turns.
 */
function cpuMedianMs(fn) {
  const cpu = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  fn();
  const times = [];
  const start = cpu();
  while (times.length < 3 || (times.length < 15 && cpu() - start < 300)) {
    const t = cpu();
    fn();
    times.push(cpu() - t);
  }
  return median(times);
}

/** The yardstick: one pass computing each pixel's luminance, the least any braille encoder does. */
function luminancePass(raster) {
  const d = raster.data;
  let s = 0;
  for (let i = 0; i < d.length; i += 4) s += 54 * d[i] + 183 * d[i + 1] + 19 * d[i + 2];
  return s;
}

function installed(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

// xterm's default first 16 colours, for peers that use them (the 16-colour fit's palette).
const BASE16 = ANSI16;
const indexed = (n) => (n < 16 ? BASE16[n] : xterm256ToRgb(n));

/**
 * Reads half-block text back into pixels: '▀' fg over bg, '▄' bg over fg, '█' fg, anything
 * else bg; SGR 0/39/49/7/27 and 24-bit colours tracked; the default background is transparent.
 */
export function decodeHalfBlocks(text) {
  const lines = text
    .replace(/\x1b\[\?[0-9;]*[hl]/g, '')
    .split('\n')
    .filter((l) => l.replace(/\x1b\[[0-9;]*m/g, '').length > 0);
  const rows = [];
  for (const line of lines) {
    let fg = null,
      bg = null,
      inverse = false;
    const top = [],
      bottom = [];
    const re = /\x1b\[([0-9;]*)m|\x1b\[[0-9;?]*[A-Za-z]|(.)/gsu;
    for (const m of line.matchAll(re)) {
      if (m[1] !== undefined) {
        const p = m[1] === '' ? [0] : m[1].split(';').map(Number);
        for (let i = 0; i < p.length; i++) {
          if (p[i] === 0) {
            fg = null;
            bg = null;
            inverse = false;
          } else if (p[i] === 39) fg = null;
          else if (p[i] === 49) bg = null;
          else if (p[i] === 7) inverse = true;
          else if (p[i] === 27) inverse = false;
          else if (p[i] === 38 && p[i + 1] === 2) {
            fg = p.slice(i + 2, i + 5);
            i += 4;
          } else if (p[i] === 48 && p[i + 1] === 2) {
            bg = p.slice(i + 2, i + 5);
            i += 4;
          } else if (p[i] === 38 && p[i + 1] === 5) {
            fg = indexed(p[i + 2]);
            i += 2;
          } else if (p[i] === 48 && p[i + 1] === 5) {
            bg = indexed(p[i + 2]);
            i += 2;
          } else if (p[i] >= 30 && p[i] <= 37) fg = BASE16[p[i] - 30];
          else if (p[i] >= 40 && p[i] <= 47) bg = BASE16[p[i] - 40];
          else if (p[i] >= 90 && p[i] <= 97) fg = BASE16[p[i] - 82];
          else if (p[i] >= 100 && p[i] <= 107) bg = BASE16[p[i] - 92];
        }
        continue;
      }
      if (m[2] === undefined) continue;
      const f = inverse ? bg : fg,
        b = inverse ? fg : bg;
      const ch = m[2];
      if (ch === '\u2580') {
        top.push(f);
        bottom.push(b);
      } else if (ch === '\u2584') {
        top.push(b);
        bottom.push(f);
      } else if (ch === '\u2588') {
        top.push(f);
        bottom.push(f);
      } else {
        top.push(b);
        bottom.push(b);
      }
    }
    rows.push(top, bottom);
  }
  const width = Math.max(...rows.map((r) => r.length));
  const height = rows.length;
  const data = new Uint8Array(width * height * 4);
  for (const [y, row] of rows.entries()) {
    for (const [x, c] of row.entries()) {
      if (c) data.set([c[0], c[1], c[2], 255], (y * width + x) * 4);
    }
  }
  return { width, height, data };
}

function crop(raster, height) {
  if (raster.height === height) return raster;
  return { width: raster.width, height, data: raster.data.slice(0, raster.width * height * 4) };
}

/** Runs the benchmark and prints its tables through `log`. */
export async function run(log = console.log) {
  const images = await loadImages({ log });
  const chafa = installed('chafa');
  const dir = mkdtempSync(join(tmpdir(), 'termsight-text-bench-'));
  const braille = [
    [
      'image',
      'size',
      'encode ms',
      'MP/s (dots)',
      'luminance MP/s',
      'ratio',
      'CPU MP/s (dots)',
      'CPU ratio',
      'toTerminal ms',
      'MP/s (source)',
    ],
  ];
  const blocks = [['image', 'kind', 'ours 24-bit dB', 'chafa 24-bit dB', 'ours 256 dB', 'chafa 256 dB']];
  const mps = [];
  const lumMps = [];
  const ratios = [];
  const mpsEnd = [];
  const cpuMps = [];
  const cpuRatios = [];
  const diffs = [];
  const oursDb = [];
  const oursDbTrue = [];
  const diffsTrue = [];
  try {
    for (const { name, kind, raster } of images) {
      const mp = (raster.width * raster.height) / 1e6;
      const enc = await measure(() => encodeBraille(raster));
      const lum = await measure(() => luminancePass(raster));
      const end = await measure(() => toTerminal(raster, 'braille', BOX));
      mps.push(mp / (enc.ms / 1000));
      lumMps.push(mp / (lum.ms / 1000));
      ratios.push(lum.ms / enc.ms);
      mpsEnd.push(mp / (end.ms / 1000));
      const encCpu = cpuMedianMs(() => encodeBraille(raster));
      const lumCpu = cpuMedianMs(() => luminancePass(raster));
      cpuMps.push(mp / (encCpu / 1000));
      cpuRatios.push(lumCpu / encCpu);
      braille.push([
        name,
        `${raster.width}x${raster.height}`,
        fmt(enc.ms),
        fmt(mps.at(-1), 0),
        fmt(lumMps.at(-1), 0),
        fmt(ratios.at(-1), 3),
        fmt(cpuMps.at(-1), 0),
        fmt(cpuRatios.at(-1), 3),
        fmt(end.ms),
        fmt(mpsEnd.at(-1), 0),
      ]);

      const lay = layout(raster, 'blocks', BOX);
      const row = [name, kind];
      for (const [depth, chafaColors] of [
        ['truecolor', 'full'],
        ['256', '256'],
      ]) {
        const text = toTerminal(raster, 'blocks', { ...BOX, colorDepth: depth });
        const shown = crop(decodeHalfBlocks(text), lay.units.height);
        const ours = psnr(resize(raster, shown.width, shown.height), shown);
        let theirs = NaN;
        if (chafa) {
          const file = join(dir, 'in.png');
          writePng(raster, file);
          const r = spawnSync(
            'chafa',
            [
              '--symbols=vhalf',
              '-f',
              'symbols',
              '-c',
              chafaColors,
              '--animate=off',
              `--size=${BOX.columns}x${BOX.rows}`,
              file,
            ],
            { encoding: 'utf8', maxBuffer: 1 << 28 },
          );
          if (r.status === 0) {
            const c = decodeHalfBlocks(r.stdout);
            theirs = psnr(resize(raster, c.width, c.height), c);
          }
        }
        (depth === '256' ? oursDb : oursDbTrue).push(ours);
        if (!Number.isNaN(theirs))
          (depth === '256' ? diffs : diffsTrue).push(Math.min(ours, 99) - Math.min(theirs, 99));
        row.push(fmt(ours, 2), fmt(theirs, 2));
      }
      blocks.push(row);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  braille.push([
    'median',
    '',
    '',
    fmt(median(mps), 0),
    fmt(median(lumMps), 0),
    fmt(median(ratios), 3),
    fmt(median(cpuMps), 0),
    fmt(median(cpuRatios), 3),
    '',
    fmt(median(mpsEnd), 0),
  ]);
  blocks.push(['median', '', fmt(median(oursDbTrue), 2), '', fmt(median(oursDb), 2), '']);
  log('### braille');
  log(table(braille));
  log('');
  log(
    `braille: ${fmt(median(mps), 0)} MP/s of dots encoded (goal >= 50: ${median(mps) >= 50 ? 'met' : 'NOT met'}; ${fmt(median(ratios), 3)}x a plain luminance pass), ${fmt(median(cpuMps), 0)} MP/s in CPU time (goal >= 50: ${median(cpuMps) >= 50 ? 'met' : 'NOT met'}; ${fmt(median(cpuRatios), 3)}x), ${fmt(median(mpsEnd), 0)} MP/s of source end to end`,
  );
  log('');
  log('### blocks');
  log(table(blocks));
  log('');
  log('(24-bit half blocks show the resized picture exactly, so "inf"; PSNR is capped at 99 dB for the differences)');
  log(
    chafa
      ? `blocks: median PSNR difference against chafa's half blocks: ${fmt(median(diffsTrue), 2)} dB at 24-bit, ${fmt(median(diffs), 2)} dB at 256 colours (goal >= 0)`
      : 'blocks: chafa not installed, no comparison',
  );
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
