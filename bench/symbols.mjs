// Symbols pictures against chafa and timg, on the committed photographs (test/fixtures/images).
//
// (a) Throughput: termsight's fit alone (symbolsLines on the already resampled sub-pixels, in
//     MP/s of sub-pixels), `toTerminal` end to end (MP/s of source pixels, resize included), and
//     whole processes: `termsight show --protocol symbols` against `chafa -f symbols` on the same
//     file and box, as a ratio of wall times in the same run.
// (b) Quality without a terminal: each program's text is painted back to pixels by a perfect
//     terminal (paintSymbols: every glyph's exact mask, cells of 10x20 pixels), and compared with
//     the photo resized to the same pixels by SSIM on luminance (Gaussian 11x11 window, sigma 1.5,
//     Wang et al. 2004). termsight symbols (block set, and block+sextant) vs termsight blocks vs
//     chafa symbols (--symbols block, and block+sextant) vs timg quarter blocks (-pq), each at
//     80x40 cells, 24-bit colour. Median over the photos, and the ratio to chafa.
// (c) The error metric: SSIM of termsight's block set fitted under plain RGB, the default
//     weights and luma weights.
// Run: `npm run build && node bench/symbols.mjs` (`--speed-only`: only (a)).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeImage } from '../dist/decode/index.js';
import { layout, toTerminal } from '../dist/render/backend.js';
import { resize } from '../dist/render/geometry/resize.js';
import { encodePng } from '../dist/render/pixels/png.js';
import { symbolsLines } from '../dist/render/text/symbols.js';
import { paintSymbols } from '../dist/render/text/symbols-paint.js';
import { resampleForSymbols } from '../dist/render/text/symbols-resample.js';
import { drawings } from './drawings.mjs';
import { canTimeProcesses, loadLine, processCost } from './machine.mjs';
import { fmt, measure, median, table } from './quality.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const IMAGES = join(root, 'test/fixtures/images');
const CLI = join(root, 'dist/cli/main.js');
const BOX = { columns: 80, rows: 40 };
const CELL = { width: 10, height: 20 };

function installed(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

/** Luminance of an RGBA raster as floats (Rec. 601 weights). */
function luma(r) {
  const out = new Float64Array(r.width * r.height);
  for (let i = 0; i < out.length; i++)
    out[i] = 0.299 * r.data[i * 4] + 0.587 * r.data[i * 4 + 1] + 0.114 * r.data[i * 4 + 2];
  return out;
}

const GAUSS = (() => {
  const w = [];
  let s = 0;
  for (let i = -5; i <= 5; i++) {
    const v = Math.exp(-(i * i) / (2 * 1.5 * 1.5));
    w.push(v);
    s += v;
  }
  return w.map((v) => v / s);
})();

/** Separable 11x11 Gaussian blur, valid region only (the window never leaves the image). */
function blur(a, width, height) {
  const w = width - 10;
  const h = height - 10;
  const tmp = new Float64Array(w * height);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let k = 0; k < 11; k++) s += GAUSS[k] * a[y * width + x + k];
      tmp[y * w + x] = s;
    }
  const out = new Float64Array(w * h);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let s = 0;
      for (let k = 0; k < 11; k++) s += GAUSS[k] * tmp[(y + k) * w + x];
      out[y * w + x] = s;
    }
  return out;
}

/** Mean SSIM of two same-sized rasters on luminance (Wang et al.: K1 0.01, K2 0.03, L 255). */
export function ssim(a, b) {
  if (a.width !== b.width || a.height !== b.height)
    throw new Error(`ssim: ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  const { width, height } = a;
  const x = luma(a);
  const y = luma(b);
  const xx = x.map((v) => v * v);
  const yy = y.map((v) => v * v);
  const xy = x.map((v, i) => v * y[i]);
  const mx = blur(x, width, height);
  const my = blur(y, width, height);
  const sxx = blur(xx, width, height);
  const syy = blur(yy, width, height);
  const sxy = blur(xy, width, height);
  const C1 = (0.01 * 255) ** 2;
  const C2 = (0.03 * 255) ** 2;
  let sum = 0;
  for (let i = 0; i < mx.length; i++) {
    const vx = sxx[i] - mx[i] * mx[i];
    const vy = syy[i] - my[i] * my[i];
    const cov = sxy[i] - mx[i] * my[i];
    sum += ((2 * mx[i] * my[i] + C1) * (2 * cov + C2)) / ((mx[i] ** 2 + my[i] ** 2 + C1) * (vx + vy + C2));
  }
  return sum / mx.length;
}

/** The yardstick: one pass reading every sub-pixel's channels, the least any fit does. */
function readPass(r) {
  const d = r.data;
  let s = 0;
  for (let i = 0; i < d.length; i += 4) s += d[i] + d[i + 1] + d[i + 2];
  return s;
}

/** Mean absolute difference of each cell's average colour (cells of CELL pixels), per channel. */
function cellMeanError(a, b) {
  let err = 0;
  let n = 0;
  for (let y = 0; y + CELL.height <= a.height; y += CELL.height)
    for (let x = 0; x + CELL.width <= a.width; x += CELL.width)
      for (let c = 0; c < 3; c++) {
        let sa = 0;
        let sb = 0;
        for (let yy = 0; yy < CELL.height; yy++)
          for (let xx = 0; xx < CELL.width; xx++) {
            const o = ((y + yy) * a.width + x + xx) * 4 + c;
            sa += a.data[o];
            sb += b.data[o];
          }
        err += Math.abs(sa - sb) / (CELL.width * CELL.height);
        n++;
      }
  return err / n;
}

/** Paints text as a perfect terminal would, and scores it against the photo at the same pixels. */
function score(text, photo) {
  const painted = paintSymbols(text, { cell: CELL });
  const want = resize(photo, painted.raster.width, painted.raster.height);
  return { ssim: ssim(want, painted.raster), unknown: painted.unknown, cells: `${painted.columns}x${painted.rows}` };
}

function run1(cmd, args, env) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 1 << 28, env: { ...process.env, ...env } });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/**
 * Medians of wall and CPU ms of `runs` runs of a whole process after one untimed run, by
 * bench/machine.mjs's timer (CPU in 10 ms steps; NaN without /usr/bin/time).
 */
function timeProcess(cmd, args, env, runs = 7) {
  run1(cmd, args, env);
  const walls = [];
  const cpus = [];
  for (let i = 0; i < runs; i++) {
    if (!canTimeProcesses()) {
      const t0 = performance.now();
      run1(cmd, args, env);
      walls.push(performance.now() - t0);
      continue;
    }
    const cost = processCost([cmd, ...args], { env: { ...process.env, ...env } });
    if (!cost.ok) throw new Error(`${cmd} ${args.join(' ')}: ${cost.stderr}`);
    walls.push(cost.ms);
    cpus.push(cost.cpu);
  }
  return { ms: median(walls), cpu: median(cpus) };
}

const chafaArgs = (symbols, file) => [
  '-f',
  'symbols',
  '--symbols',
  symbols,
  '--colors',
  'full',
  '--animate',
  'off',
  '-s',
  `${BOX.columns}x${BOX.rows}`,
  file,
];
const showArgs = (file) => [
  CLI,
  'show',
  '--protocol',
  'symbols',
  '--no-probe',
  '--width',
  String(BOX.columns),
  '--height',
  String(BOX.rows + 2),
  file,
];

/** Runs the benchmark and prints its tables through `log`. */
export async function run(log = console.log) {
  const chafa = installed('chafa');
  const timg = installed('timg');
  const files = readdirSync(IMAGES)
    .filter((f) => /\.(png|jpe?g)$/i.test(f))
    .sort();
  const photos = files.map((f) => ({
    name: f,
    file: join(IMAGES, f),
    raster: decodeImage(readFileSync(join(IMAGES, f))).frames[0].raster,
  }));
  const opts = { ...BOX, upscale: true, cellPixels: CELL };

  // (a) throughput
  log(`before: ${loadLine()}`);
  const speed = [
    [
      'image',
      'source',
      'cells',
      'fit MP/s (sub-px)',
      'read pass MP/s',
      'toTerminal ms',
      'MP/s (source)',
      'show ms',
      'show CPU',
      'chafa ms',
      'chafa CPU',
      'chafa/toTerminal',
      'chafa/show',
    ],
  ];
  const fitMps = [];
  const passMps = [];
  const endMps = [];
  const inRatios = [];
  const procRatios = [];
  for (const { name, file, raster } of photos) {
    const lay = layout(raster, 'symbols', opts);
    // The sub-pixels toTerminal fits (resampled rows first, as it does).
    const fitted = resampleForSymbols(raster, lay.units.width, lay.units.height);
    const fit = await measure(() => symbolsLines(fitted), { minRuns: 5, minMs: 300, warmup: 3 });
    const end = await measure(() => toTerminal(raster, 'symbols', opts), { minRuns: 5, minMs: 300, warmup: 3 });
    const pass = await measure(() => readPass(fitted), { minRuns: 5, minMs: 300, warmup: 3 });
    fitMps.push((fitted.width * fitted.height) / 1e3 / fit.ms);
    passMps.push((fitted.width * fitted.height) / 1e3 / pass.ms);
    endMps.push((raster.width * raster.height) / 1e3 / end.ms);
    let showMs = NaN;
    let chafaMs = NaN;
    let showCpu = NaN;
    let chafaCpu = NaN;
    if (chafa) {
      ({ ms: showMs, cpu: showCpu } = timeProcess(process.execPath, showArgs(file), { COLORTERM: 'truecolor' }));
      ({ ms: chafaMs, cpu: chafaCpu } = timeProcess('chafa', chafaArgs('block', file), {}));
      procRatios.push(chafaMs / showMs);
      inRatios.push(chafaMs / end.ms);
    }
    speed.push([
      name,
      `${raster.width}x${raster.height}`,
      `${lay.columns}x${lay.rows}`,
      fmt(fitMps.at(-1), 1),
      fmt(passMps.at(-1), 1),
      fmt(end.ms, 1),
      fmt(endMps.at(-1), 1),
      fmt(showMs, 1),
      fmt(showCpu, 0),
      fmt(chafaMs, 1),
      fmt(chafaCpu, 0),
      fmt(chafaMs / end.ms, 2),
      fmt(chafaMs / showMs, 2),
    ]);
  }
  speed.push([
    'median',
    '',
    '',
    fmt(median(fitMps), 1),
    fmt(median(passMps), 1),
    '',
    fmt(median(endMps), 1),
    '',
    '',
    '',
    '',
    fmt(median(inRatios), 2),
    fmt(median(procRatios), 2),
  ]);
  log('### throughput (24-bit, block set, 80x40 box; show and chafa whole processes, wall ms and CPU ms)');
  log(table(speed));
  log(`after: ${loadLine()}`);
  log('');
  log(
    `symbols: fit ${fmt(median(fitMps), 1)} MP/s of sub-pixels (${fmt(median(fitMps) / median(passMps), 3)}x a plain read pass over them), end to end ${fmt(median(endMps), 1)} MP/s of source (goal >= 50); ${chafa ? `in-process ${fmt(median(inRatios), 2)}x and whole process ${fmt(median(procRatios), 2)}x chafa's whole-process speed (goal >= 5)` : 'chafa not installed'}`,
  );
  log('');

  if (process.argv.includes('--speed-only')) return;

  // (b) quality
  const rows = [['image', 'symbols', 'symbols+sextant', 'blocks', 'chafa block', 'chafa block+sextant', 'timg -pq']];
  const cols = { ours: [], oursSex: [], blocks: [], chafa: [], chafaSex: [], timg: [] };
  let unknown = 0;
  for (const { name, file, raster } of photos) {
    const r = {
      ours: score(toTerminal(raster, 'symbols', opts), raster),
      oursSex: score(toTerminal(raster, 'symbols', { ...opts, symbols: ['block', 'sextant'] }), raster),
      blocks: score(toTerminal(raster, 'blocks', opts), raster),
      chafa: chafa ? score(run1('chafa', chafaArgs('block', file)), raster) : null,
      chafaSex: chafa ? score(run1('chafa', chafaArgs('block+sextant', file)), raster) : null,
      timg: timg ? score(run1('timg', ['-pq', `-g${BOX.columns}x${BOX.rows}`, file]), raster) : null,
    };
    for (const [k, v] of Object.entries(r)) {
      if (!v) continue;
      cols[k].push(v.ssim);
      unknown += v.unknown;
    }
    rows.push([name, ...Object.values(r).map((v) => (v ? `${fmt(v.ssim, 3)} (${v.cells})` : '-'))]);
  }
  rows.push(['median', ...Object.values(cols).map((v) => fmt(median(v), 3))]);
  log('### quality: SSIM (luminance, Gaussian 11x11) of a perfect terminal painting, 24-bit, 80x40 cells of 10x20 px');
  log(table(rows));
  log('');
  if (unknown > 0) log(`(${unknown} characters had no known mask and were painted as spaces)`);
  const ratio = (a, b) => (b.length ? fmt(median(a) / median(b), 3) : '-');
  log(
    `symbols: median SSIM ${fmt(median(cols.ours), 3)}, ${ratio(cols.ours, cols.chafa)}x chafa's block symbols, ${ratio(cols.ours, cols.timg)}x timg's quarter blocks, ${ratio(cols.ours, cols.blocks)}x termsight blocks; with sextants ${fmt(median(cols.oursSex), 3)}, ${ratio(cols.oursSex, cols.chafaSex)}x chafa's (goal >= 1)`,
  );
  log('');

  // (b2) indexed colours: termsight's block set against chafa's at 256 and 16 colours
  if (chafa) {
    const drows = [['depth', 'symbols median SSIM', 'chafa block median SSIM', 'ratio']];
    for (const [depth, chafaColors] of [
      ['256', '256'],
      ['16', '16'],
    ]) {
      const ours = [];
      const theirs = [];
      for (const { file, raster } of photos) {
        ours.push(score(toTerminal(raster, 'symbols', { ...opts, colorDepth: depth }), raster).ssim);
        const args = chafaArgs('block', file);
        args[args.indexOf('full')] = chafaColors;
        theirs.push(score(run1('chafa', args), raster).ssim);
      }
      drows.push([depth, fmt(median(ours), 3), fmt(median(theirs), 3), fmt(median(ours) / median(theirs), 3)]);
    }
    log("### indexed colours (16: both painted with xterm's default ANSI colours)");
    log(table(drows));
    log('');
  }

  // (b3) 16 colours: preprocessing (contrast and saturation stretched) and error diffusion between cells
  const frows = [['16 colours', 'median SSIM', 'median cell-mean colour error']];
  for (const [label, more] of [
    ['enhanced, no diffusion (default)', {}],
    ['enhanced, diffusion 0.75', { diffusion: 0.75 }],
    ['plain, no diffusion', { preprocess: false }],
    ['plain, diffusion 0.75 (the default before)', { preprocess: false, diffusion: 0.75 }],
  ]) {
    const s = [];
    const e = [];
    for (const { raster } of photos) {
      const lay = layout(raster, 'symbols', opts);
      const fitted = resize(raster, lay.units.width, lay.units.height);
      const text = symbolsLines(fitted, { colorDepth: '16', ...more }).join('\n');
      const painted = paintSymbols(text, { cell: CELL }).raster;
      const want = resize(raster, painted.width, painted.height);
      s.push(ssim(want, painted));
      e.push(cellMeanError(want, painted));
    }
    frows.push([label, fmt(median(s), 3), fmt(median(e), 2)]);
  }
  log(
    "### 16 colours: preprocessing and diffusion (cell-mean error: mean |dRGB| of each cell's average colour against the photo's)",
  );
  log(table(frows));
  log('');

  // (b4) drawings made for the benchmark (bench/drawings.mjs), which no choice of the renderer was tuned on
  if (chafa) {
    const dir = mkdtempSync(join(tmpdir(), 'termsight-drawings-'));
    try {
      const drows = [['drawing', 'depth', 'symbols', 'chafa block', 'timg -pq']];
      const byDepth = { truecolor: [[], [], []], 256: [[], [], []], 16: [[], [], []] };
      for (const [i, d] of drawings().entries()) {
        const file = join(dir, `drawing${i}.png`);
        writeFileSync(file, encodePng(d.raster));
        for (const [depth, chafaColors] of [
          ['truecolor', 'full'],
          ['256', '256'],
          ['16', '16'],
        ]) {
          const ours = score(toTerminal(d.raster, 'symbols', { ...opts, colorDepth: depth }), d.raster).ssim;
          const args = chafaArgs('block', file);
          args[args.indexOf('full')] = chafaColors;
          const theirs = score(run1('chafa', args), d.raster).ssim;
          const t =
            depth === 'truecolor' && timg
              ? score(run1('timg', ['-pq', `-g${BOX.columns}x${BOX.rows}`, file]), d.raster).ssim
              : Number.NaN;
          byDepth[depth][0].push(ours);
          byDepth[depth][1].push(theirs);
          if (!Number.isNaN(t)) byDepth[depth][2].push(t);
          drows.push([d.name, depth, fmt(ours, 3), fmt(theirs, 3), fmt(t, 3)]);
        }
      }
      for (const [depth, [ours, theirs, t]] of Object.entries(byDepth)) {
        drows.push([
          'median',
          depth,
          fmt(median(ours), 3),
          `${fmt(median(theirs), 3)} (${fmt(median(ours) / median(theirs), 3)}x)`,
          t.length ? `${fmt(median(t), 3)} (${fmt(median(ours) / median(t), 3)}x)` : '-',
        ]);
      }
      log('### drawings (made by bench/drawings.mjs; nothing was tuned on them): perfect-terminal SSIM');
      log(table(drows));
      log('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  // (c) the metric
  const metrics = [
    ['plain RGB (1,1,1)', [1, 1, 1]],
    ['default (3,4,2)', [3, 4, 2]],
    ['luma (0.299,0.587,0.114)', [0.299, 0.587, 0.114]],
  ];
  const mrows = [['weights', 'median SSIM', 'median PSNR-free colour error (mean |dRGB|)']];
  for (const [label, weights] of metrics) {
    const s = [];
    const e = [];
    for (const { raster } of photos) {
      const lay = layout(raster, 'symbols', opts);
      const fitted = resize(raster, lay.units.width, lay.units.height);
      const text = symbolsLines(fitted, { weights }).join('\n');
      const painted = paintSymbols(text, { cell: CELL });
      const want = resize(raster, painted.raster.width, painted.raster.height);
      s.push(ssim(want, painted.raster));
      let d = 0;
      for (let i = 0; i < want.data.length; i += 4)
        for (let c = 0; c < 3; c++) d += Math.abs(want.data[i + c] - painted.raster.data[i + c]);
      e.push(d / ((want.data.length / 4) * 3));
    }
    mrows.push([label, fmt(median(s), 4), fmt(median(e), 2)]);
  }
  log('### error metric (block set, 24-bit)');
  log(table(mrows));
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
