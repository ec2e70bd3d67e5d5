// The CLI, the probe, the drop-ins and termsight/testing on another runtime (Bun, Deno; Node too):
// plain assertions, no test runner (vitest runs on Node only). Run from the repository root after
// `npm run build`:  bun test/runtimes/smoke.mjs  |  deno run -A test/runtimes/smoke.mjs
// Prints one line per check and exits 1 if any failed.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import process from 'node:process';

const dist = new URL('../../dist/', import.meta.url);
const load = (path) => import(new URL(path, dist).href);
const { probeTerminal } = await load('index.js');
const { askTerminal } = await load('probe/index.js');
const { drawn, scriptedTerminal } = await load('testing/index.js');
const { createTerminalImage } = await load('compat/terminal-image.js');
const { probeTerminalGraphics } = await load('compat/supports-terminal-graphics.js');
const camera = readFileSync(new URL('../fixtures/images/camera.png', import.meta.url));
const runtime =
  typeof globalThis.Bun !== 'undefined'
    ? `Bun ${globalThis.Bun.version}`
    : typeof globalThis.Deno !== 'undefined'
      ? `Deno ${globalThis.Deno.version.deno}`
      : `Node ${process.version}`;

// The probe's timers do not hold the process (by design); the checks do until they are done.
const keepAlive = setInterval(() => {}, 1000);
let failed = 0;
async function check(name, body) {
  try {
    await body();
    console.log(`ok   ${name}`);
  } catch (error) {
    failed += 1;
    console.log(`FAIL ${name}: ${error?.message ?? error}`);
  }
}
function equal(actual, expected, what) {
  if (JSON.stringify(actual) !== JSON.stringify(expected))
    throw new Error(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}
const streams = (t) => ({ runtime: t.runtime, input: t.input, output: t.output, budgetMs: 500, lateMs: 0 });

console.log(`termsight on ${runtime}`);
for (const [name, graphics] of [
  ['kitty', 'kitty'],
  ['iterm2', 'iterm2'],
  ['foot', 'sixel'],
  ['vscode-images', 'sixel'],
  ['silent', 'symbols'],
]) {
  await check(`probeTerminal answered as ${name}: ${graphics}`, async () => {
    const t = scriptedTerminal(name);
    equal((await probeTerminal(streams(t))).graphics, graphics, 'graphics');
    equal(t.rawModes, [true, false], 'raw mode set and restored once');
  });
}
await check('three probes at once share one round', async () => {
  const t = scriptedTerminal('kitty');
  const all = await Promise.all([probeTerminal(streams(t)), probeTerminal(streams(t)), probeTerminal(streams(t))]);
  equal(
    all.map((r) => r.graphics),
    ['kitty', 'kitty', 'kitty'],
    'answers',
  );
  equal(t.rounds(), 1, 'rounds');
});
await check("askTerminal: an app's DSR in its own round", async () => {
  const t = scriptedTerminal('kitty', { answers: { '\x1b[5n': '\x1b[0n' } });
  const [status] = await askTerminal(['\x1b[5n'], streams(t));
  equal(Buffer.from(status).toString('latin1'), '\x1b[0n', 'reply');
});
await check('the terminal-image drop-in draws kitty, drawn() reads it back', async () => {
  const t = scriptedTerminal('kitty');
  const image = createTerminalImage({
    report: () => probeTerminal(streams(t)),
    size: () => ({ columns: 80, rows: 24 }),
    write() {},
  });
  equal(drawn(await image.buffer(camera, { width: 8, height: 4 }))?.protocol, 'kitty', 'protocol');
});
await check('the supports-terminal-graphics drop-in asks the terminal', async () => {
  const t = scriptedTerminal('foot');
  const support = await probeTerminalGraphics(streams(t));
  equal([support.sixel, support.kitty], [true, false], 'sixel, kitty');
});
await check('the CLI: detect --json and show --protocol kitty to a pipe', async () => {
  const argv0 = process.execPath;
  const main = new URL('cli/main.js', dist).pathname;
  const prefix = typeof globalThis.Deno !== 'undefined' ? ['run', '-A', main] : [main];
  const env = { ...process.env, TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };
  const detect = spawnSync(argv0, [...prefix, 'detect', '--json'], {
    env,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  equal(detect.status, 0, `detect exit (${detect.stderr.slice(0, 200)})`);
  equal(JSON.parse(detect.stdout).terminal?.name, 'kitty', 'detect terminal');
  const picture = new URL('../fixtures/images/camera.png', import.meta.url).pathname;
  const show = spawnSync(argv0, [...prefix, 'show', picture, '--protocol', 'kitty', '--width', '8'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  equal(show.status, 0, `show exit (${String(show.stderr).slice(0, 200)})`);
  equal(drawn(show.stdout)?.protocol, 'kitty', 'show drew');
});
/**
 * Decodes a fixture JPEG with the shipped WebAssembly module and with the TypeScript decoder, and
 * counts the calls to one WebAssembly constructor meanwhile (`Module`: compiled once on the first
 * JPEG the decoder can take; `Instance`: one per decode).
 */
async function sameAsReference(fixture, counted, options, expected) {
  const wasm = globalThis.WebAssembly;
  const original = wasm[counted];
  let calls = 0;
  wasm[counted] = new Proxy(original, {
    construct(target, args) {
      calls += 1;
      return Reflect.construct(target, args);
    },
  });
  try {
    const { decodeImage } = await load('decode/index.js');
    const { decodeJpeg } = await load('decode/jpeg.js');
    const bytes = readFileSync(new URL(`../fixtures/images/jpeg/${fixture}`, import.meta.url));
    const module = decodeImage(bytes, options).frames[0].raster.data;
    equal(calls, 1, expected);
    const reference = decodeJpeg(bytes, { ...options, wasm: false }).raster.data;
    equal(Buffer.compare(Buffer.from(module), Buffer.from(reference)), 0, 'pixels against the TypeScript decoder');
  } finally {
    wasm[counted] = original;
  }
}
await check('a baseline JPEG is decoded by the shipped WebAssembly module, to the same pixels', () =>
  sameAsReference('baseline-420.jpg', 'Module', { maxSize: { width: 30, height: 30 } }, 'modules compiled'),
);
await check('a progressive JPEG is decoded by the shipped WebAssembly module, to the same pixels', () =>
  sameAsReference('progressive-420.jpg', 'Instance', {}, 'instances made'),
);
console.log(failed === 0 ? `all checks passed on ${runtime}` : `${failed} check(s) failed on ${runtime}`);
clearInterval(keepAlive);
process.exit(failed === 0 ? 0 : 1);
