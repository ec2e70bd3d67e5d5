// kitty local transfer: time to pixels for a full-screen picture in a real kitty, sent by file
// (`t=t`, the pixels in /dev/shm, only the path through the pty) against inline (`t=d`, base64
// through the pty). Each round: encode (and, by file, write the file), write to the terminal,
// then a DA1 query; kitty answers in order, so its DA1 reply arrives once the picture is decoded
// and placed. Rounds alternate the two ways, each picture is deleted after its round.
//
// Run (needs kitty and an X display; DISPLAY=:69 with `Xvfb :69 -screen 0 1280x800x24`):
//   npm run build && DISPLAY=:69 node bench/kitty-local.mjs
// It starts kitty itself, runs the rounds inside it (`--inner`) and prints the table here.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROUNDS = Number(process.env.TERMSIGHT_BENCH_ROUNDS ?? 8);
const PHOTO = fileURLToPath(new URL('../test/fixtures/images/retina.jpg', import.meta.url));

async function inner(out) {
  const { decodeImage } = await import('../dist/decode/index.js');
  const { toTerminal } = await import('../dist/render/backend.js');
  const { kittyDelete } = await import('../dist/render/pixels/kitty.js');
  const { kittyFileSink, kittyFilesRead } = await import('../dist/render/pixels/kitty-file.js');
  const { columns, rows } = process.stdout;
  const stdin = process.stdin;
  stdin.setRawMode(true);
  // The cell size from the terminal (CSI 16 t), so the picture covers the window exactly.
  const ask = (query, done) =>
    new Promise((resolve) => {
      let got = '';
      const onData = (chunk) => {
        got += chunk.toString('latin1');
        if (done.test(got)) {
          stdin.off('data', onData);
          resolve(got);
        }
      };
      stdin.on('data', onData);
      process.stdout.write(query);
    });
  const cellReply = await ask('\x1b[16t', /\x1b\[6;\d+;\d+t/);
  const [, h, w] = /\x1b\[6;(\d+);(\d+)t/.exec(cellReply).map(Number);
  const cellPixels = { width: w, height: h };
  const raster = decodeImage(readFileSync(PHOTO)).frames[0].raster;
  const options = { columns, rows: rows - 1, cellPixels, fit: 'fill', exactPixels: true };
  const results = { file: [], inline: [], bytes: {}, size: null };
  for (let round = 0; round < ROUNDS * 2; round++) {
    const way = round % 2 === 0 ? 'file' : 'inline';
    const t0 = performance.now();
    const bytes = toTerminal(raster, 'kitty', {
      ...options,
      imageId: 7,
      ...(way === 'file' ? { kittyFile: kittyFileSink() } : {}),
    });
    process.stdout.write(`\x1b[H${bytes}`);
    await ask('\x1b[c', /\x1b\[\?[\d;]*c/);
    results[way].push(performance.now() - t0);
    results.bytes[way] = bytes.length;
    process.stdout.write(kittyDelete(7));
  }
  results.size = `${columns}x${rows - 1} cells of ${w}x${h} px`;
  results.left = await kittyFilesRead(1000);
  writeFileSync(out, JSON.stringify(results));
  stdin.setRawMode(false);
  process.exit(0);
}

/** Runs the benchmark and prints its table through `log`; skips (saying why) without kitty or a display. */
export async function run(log = console.log) {
  const onPath = (name) => (process.env.PATH ?? '').split(':').some((dir) => dir !== '' && existsSync(join(dir, name)));
  if (!process.env.DISPLAY || !onPath('kitty')) {
    log('skipped: needs kitty and an X display (DISPLAY), e.g. `Xvfb :69 & DISPLAY=:69 node bench/kitty-local.mjs`');
    return;
  }
  await outer(log);
}

async function outer(log) {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-bench-kitty-local-'));
  const out = join(dir, 'result.json');
  const kitty = spawn(
    'kitty',
    [
      '--config',
      'NONE',
      '-o',
      'linux_display_server=x11',
      '-o',
      'shell_integration=disabled',
      '-o',
      'initial_window_width=1280',
      '-o',
      'initial_window_height=800',
      '-o',
      'remember_window_size=no',
      '-o',
      'window_padding_width=0',
      process.execPath,
      fileURLToPath(import.meta.url),
      '--inner',
      out,
    ],
    { stdio: 'ignore', env: { ...process.env, LIBGL_ALWAYS_SOFTWARE: '1' } },
  );
  const deadline = Date.now() + 120_000;
  while (!existsSync(out) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  kitty.kill();
  if (!existsSync(out)) throw new Error('kitty gave no result (is DISPLAY set, is kitty installed?)');
  const r = JSON.parse(readFileSync(out, 'utf8'));
  rmSync(dir, { recursive: true, force: true });
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const f = median(r.file);
  const i = median(r.inline);
  log(`kitty local transfer, ${r.size}, ${ROUNDS} rounds each (medians; ratios only, the machine is shared)`);
  log(`  by file (t=t): ${r.bytes.file} bytes through the pty`);
  log(`  inline  (t=d): ${r.bytes.inline} bytes through the pty`);
  log(`  time to pixels, inline / by file: ${(i / f).toFixed(2)}x`);
  log(`  picture files left after the rounds: ${r.left.length}`);
}

if (process.argv[2] === '--inner') await inner(process.argv[3]);
else if (process.argv[1] === fileURLToPath(import.meta.url)) await run();
