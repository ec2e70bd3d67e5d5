// Symbols pictures on a real terminal: xterm (DejaVu Sans Mono 12, block elements drawn from the
// font) under a private Xvfb, a screenshot with ImageMagick's `import`, and SSIM (luminance,
// Gaussian 11x11) of the picture's cells against the photo resized to the same pixels. For
// termsight symbols, termsight blocks, chafa symbols (--symbols block) and timg quarter blocks,
// at 80 columns, on the committed photographs and on drawings made by bench/drawings.mjs. Skipped when Xvfb, xterm, import or xwininfo is
// missing. Run: `npm run build && node bench/symbols-screen.mjs`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { decodeImage } from '../dist/decode/index.js';
import { toTerminal } from '../dist/render/backend.js';
import { resize } from '../dist/render/geometry/resize.js';
import { encodePng } from '../dist/render/pixels/png.js';
import { drawings } from './drawings.mjs';
import { fmt, median, table } from './quality.mjs';
import { ssim } from './symbols.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const IMAGES = join(here, '..', 'test/fixtures/images');
const COLUMNS = 80;
const ROWS = 40;
const XTERM_ROWS = ROWS + 2;
// DejaVu Sans Mono 12 gives 10x20-pixel cells whose full block fills the cell. At 10 (8x17 cells)
// the font's full block is one pixel row short: a program that draws solid cells as a full block
// in the foreground over the default background (chafa) gets a dark line under every cell row,
// which is the font, not the fit (measured: docs/render.md, "Symbols on a real terminal").
const FONT_SIZE = Number(process.env.SYMBOLS_SCREEN_FONT_SIZE ?? 12);
// Where to keep each screenshot as PNG (to look at them), from SYMBOLS_SCREEN_SAVE; none by default.
const SAVE = process.env.SYMBOLS_SCREEN_SAVE;

function installed(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).status === 0;
}

function startXvfb() {
  const child = spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1280x1024x24', '-nolisten', 'tcp', '-noreset'], {
    stdio: ['ignore', 'ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    const timer = setTimeout(() => reject(new Error('Xvfb gave no display')), 15000);
    child.stdio[3].on('data', (chunk) => {
      text += chunk.toString();
      const m = /^(\d+)\n/.exec(text);
      if (m) {
        clearTimeout(timer);
        resolve({ child, display: `:${m[1]}` });
      }
    });
    child.once('exit', () => reject(new Error('Xvfb exited')));
  });
}

/** Shows `file` in a fresh xterm at the top left of the screen; resolves with the window's size once mapped. */
async function showInXterm(display, file, title) {
  const child = spawn(
    'xterm',
    [
      '-display',
      display,
      '-title',
      title,
      '-geometry',
      `${COLUMNS}x${XTERM_ROWS}+0+0`,
      '-b',
      '0',
      '-bw',
      '0',
      '+sb',
      '-fa',
      'DejaVu Sans Mono',
      '-fs',
      String(FONT_SIZE),
      '-bg',
      'black',
      '-fg',
      'white',
      '-xrm',
      'XTerm*cursorColor: black',
      '-xrm',
      'XTerm*directColor: true',
      '-e',
      'sh',
      '-c',
      `printf '\\033[?25l'; cat '${file}'; exec sleep 600`,
    ],
    { stdio: 'ignore' },
  );
  for (let i = 0; i < 100; i++) {
    await sleep(100);
    const r = spawnSync('xwininfo', ['-display', display, '-name', title], { encoding: 'utf8' });
    const w = /Width: (\d+)/.exec(r.stdout);
    const h = /Height: (\d+)/.exec(r.stdout);
    if (r.status === 0 && w && h && /IsViewable/.test(r.stdout)) {
      return { child, width: Number(w[1]), height: Number(h[1]) };
    }
  }
  child.kill();
  throw new Error('xterm did not map its window');
}

/** A screenshot of the top-left `width` x `height` pixels as an opaque RGBA raster. */
function screenshot(display, width, height) {
  const r = spawnSync(
    'import',
    ['-display', display, '-window', 'root', '-crop', `${width}x${height}+0+0`, '-depth', '8', 'ppm:-'],
    {
      maxBuffer: 1 << 28,
    },
  );
  const buf = r.stdout;
  // P6\n<w> <h>\n255\n then RGB
  let pos = 0;
  const fields = [];
  while (fields.length < 4) {
    while (/\s/.test(String.fromCharCode(buf[pos]))) pos++;
    let s = '';
    while (!/\s/.test(String.fromCharCode(buf[pos]))) s += String.fromCharCode(buf[pos++]);
    fields.push(s);
  }
  pos++;
  const w = Number(fields[1]);
  const h = Number(fields[2]);
  if (fields[0] !== 'P6' || fields[3] !== '255')
    throw new Error(`screenshot: expected an 8-bit P6, got ${fields.join(' ')}`);
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    data[i * 4] = buf[pos + i * 3];
    data[i * 4 + 1] = buf[pos + i * 3 + 1];
    data[i * 4 + 2] = buf[pos + i * 3 + 2];
    data[i * 4 + 3] = 255;
  }
  return { width: w, height: h, data };
}

/** A screenshot once the terminal has drawn: two in a row alike and not all black (at most ~15 s). */
async function settledScreenshot(display, width, height) {
  let previous = null;
  for (let i = 0; i < 50; i++) {
    const shot = screenshot(display, width, height);
    const lit = shot.data.some((v, j) => j % 4 !== 3 && v !== 0);
    if (lit && previous && Buffer.compare(Buffer.from(previous.data), Buffer.from(shot.data)) === 0) return shot;
    previous = shot;
    await sleep(300);
  }
  throw new Error('the terminal never settled');
}

/** SGR parameters of a foreground colour as a background, or null for the default foreground. */
function asBackground(fg) {
  if (fg.startsWith('38;')) return `48;${fg.slice(3)}`;
  const v = Number(fg);
  if (v >= 30 && v <= 37) return String(v + 10);
  if (v >= 90 && v <= 97) return String(v + 10);
  return null;
}

/**
 * The same picture with every full block drawn as a space on its colour. DejaVu Sans Mono's
 * full block does not fill xterm's cell exactly (an antialiased row is left at the cell's
 * bottom), and a program that writes solid cells as a full block in the foreground over the
 * terminal's default background (chafa does) then shows a line under every cell row: the font,
 * not the fit. A perfect terminal draws both the same. Every program's text goes through this
 * unless SYMBOLS_SCREEN_RAW=1.
 */
export function solidAsSpace(text) {
  let fg = '39';
  let bg = '49';
  let inverse = false;
  let out = '';
  for (const m of text.matchAll(/\x1b\[([0-9;]*)m|(\x1b\[[0-9;?]*[@-ln-~])|([^\x1b])/gsu)) {
    if (m[3] !== undefined) {
      // The ink's colour as a background (inverse: the background itself); the default
      // foreground has no background form, so that block stays.
      const ink = inverse ? bg : asBackground(fg);
      if (m[3] === '\u2588' && ink !== null) out += `\x1b[0;${ink}m \x1b[0;${fg};${bg}${inverse ? ';7' : ''}m`;
      else out += m[3];
      continue;
    }
    if (m[2] !== undefined) {
      out += m[2];
      continue;
    }
    out += m[0];
    const p = m[1] === '' ? ['0'] : m[1].split(';');
    for (let i = 0; i < p.length; i++) {
      const v = Number(p[i] || '0');
      if (v === 0) {
        fg = '39';
        bg = '49';
        inverse = false;
      } else if (v === 7) inverse = true;
      else if (v === 27) inverse = false;
      else if (v === 38 || v === 48) {
        const n = p[i + 1] === '5' ? 3 : 5;
        const value = p.slice(i, i + n).join(';');
        if (v === 38) fg = value;
        else bg = value;
        i += n - 1;
      } else if ((v >= 30 && v <= 37) || (v >= 90 && v <= 97) || v === 39) fg = String(v);
      else if ((v >= 40 && v <= 47) || (v >= 100 && v <= 107) || v === 49) bg = String(v);
    }
  }
  return out;
}

/** The cells a text picture covers: its longest line's glyph count and its line count. */
function cellsOf(text) {
  const lines = text.split('\n').map((l) => [...l.replace(/\x1b\[[0-9;?]*[@-~]/g, '')].length);
  while (lines.length && lines.at(-1) === 0) lines.pop();
  return { columns: Math.max(...lines), rows: lines.length };
}

/** Runs the benchmark and prints its table through `log`. */
export async function run(log = console.log) {
  for (const cmd of ['Xvfb', 'xterm', 'import', 'xwininfo']) {
    if (!installed(cmd)) {
      log(`(symbols-screen skipped: ${cmd} is not installed)`);
      return;
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'termsight-symbols-screen-'));
  const { child: xvfb, display } = await startXvfb();
  try {
    // The cell size: an xterm's window divided by its columns and rows.
    const probeFile = join(dir, 'empty.txt');
    writeFileSync(probeFile, '');
    const probe = await showInXterm(display, probeFile, 'probe');
    probe.child.kill();
    const cell = { width: probe.width / COLUMNS, height: probe.height / XTERM_ROWS };
    log(`xterm cell: ${cell.width}x${cell.height} px`);
    const opts = { columns: COLUMNS, rows: ROWS, upscale: true, cellPixels: cell };
    const programs = [
      ['symbols', (raster) => toTerminal(raster, 'symbols', opts)],
      ['blocks', (raster) => toTerminal(raster, 'blocks', opts)],
      ...(installed('chafa')
        ? [
            [
              'chafa block',
              (_raster, file) =>
                spawnSync(
                  'chafa',
                  [
                    '-f',
                    'symbols',
                    '--symbols',
                    'block',
                    '--colors',
                    'full',
                    '--animate',
                    'off',
                    '--font-ratio',
                    `${cell.width}/${cell.height}`,
                    '-s',
                    `${COLUMNS}x${ROWS}`,
                    file,
                  ],
                  { encoding: 'utf8', maxBuffer: 1 << 28 },
                ).stdout,
            ],
          ]
        : []),
      ...(installed('timg')
        ? [
            [
              'timg -pq',
              (_raster, file) =>
                spawnSync('timg', ['-pq', `-g${COLUMNS}x${ROWS}`, file], { encoding: 'utf8', maxBuffer: 1 << 28 })
                  .stdout,
            ],
          ]
        : []),
    ];
    // The photographs, then drawings made for this benchmark (bench/drawings.mjs), as PNG files
    // so that chafa and timg read the same pixels.
    const inputs = readdirSync(IMAGES)
      .filter((f) => /\.(png|jpe?g)$/i.test(f))
      .sort()
      .map((name) => ({ name, file: join(IMAGES, name), kind: 'photo' }));
    for (const [i, d] of drawings().entries()) {
      const file = join(dir, `drawing${i}.png`);
      writeFileSync(file, encodePng(d.raster));
      inputs.push({ name: d.name, file, kind: 'drawing' });
    }
    const rows = [['image', ...programs.map(([n]) => n)]];
    const scores = programs.map(() => []);
    const kinds = [];
    let k = 0;
    for (const { name, file, kind } of inputs) {
      const raster = decodeImage(readFileSync(file)).frames[0].raster;
      kinds.push(kind);
      const row = [name];
      for (const [p, [, make]] of programs.entries()) {
        const made = make(raster, file);
        const text = process.env.SYMBOLS_SCREEN_RAW === '1' ? made : solidAsSpace(made);
        const textFile = join(dir, `t${k}.txt`);
        writeFileSync(textFile, text);
        const shown = await showInXterm(display, textFile, `pic${k++}`);
        const { columns, rows: r } = cellsOf(text);
        const w = Math.round(columns * cell.width);
        const h = Math.round(r * cell.height);
        const shot = await settledScreenshot(display, w, h);
        shown.child.kill();
        const s = ssim(resize(raster, shot.width, shot.height), shot);
        if (SAVE)
          writeFileSync(
            join(SAVE, `${name.replace(/[^\w.-]+/g, '_')}-${programs[p][0].replace(/\W+/g, '_')}.png`),
            encodePng(shot),
          );
        scores[p].push(s);
        row.push(`${fmt(s, 3)} (${columns}x${r})`);
      }
      rows.push(row);
    }
    const of = (list, kind) => list.filter((_s, i) => kinds[i] === kind);
    rows.push(['median, photos', ...scores.map((s) => fmt(median(of(s, 'photo')), 3))]);
    rows.push(['median, drawings', ...scores.map((s) => fmt(median(of(s, 'drawing')), 3))]);
    rows.push(['median, all', ...scores.map((s) => fmt(median(s), 3))]);
    log(`### real terminal: xterm, DejaVu Sans Mono ${FONT_SIZE}, screenshot SSIM (luminance, Gaussian 11x11)`);
    log(table(rows));
    log('');
    const at = (n) => scores[programs.findIndex(([p]) => p === n)] ?? [];
    const ratio = (a, b) => (b.length ? fmt(median(a) / median(b), 3) : '-');
    for (const kind of ['photo', 'drawing', null]) {
      const pick = (n) => (kind ? of(at(n), kind) : at(n));
      log(
        `symbols on screen (${kind ? `${kind}s` : 'all'}): ${ratio(pick('symbols'), pick('chafa block'))}x chafa's block symbols, ${ratio(pick('symbols'), pick('timg -pq'))}x timg's quarter blocks, ${ratio(pick('symbols'), pick('blocks'))}x termsight blocks`,
      );
    }
  } finally {
    xvfb.kill();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) await run();
