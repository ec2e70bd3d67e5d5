/**
 * What a one-shot `termsight show` loads, and that the build's shaping of it (chunks split by
 * command, minified) changes no picture: the bundled CLI against the same CLI run from the
 * unbundled modules tsc wrote (dist/cli/start.js), byte for byte (docs/cli.md, "Start-up").
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bmpFile, pnmFile } from '../decode/support/simple-files.js';
import { ensureBuilt } from '../support/build.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUNDLED = join(ROOT, 'dist/cli/main.js');
const UNBUNDLED = join(ROOT, 'dist/cli/start.js');
const IMAGES = join(ROOT, 'test/fixtures/images');
// The same terminal for every run: nothing inherited from the machine running the tests.
const ENV = { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', NO_COLOR: '1' };

beforeAll(() => ensureBuilt(), 600_000);

/**
 * The files of dist/ a fresh `termsight ...args` loads: a resolve hook appends each URL to a file,
 * synchronously (on Node 20 the hook runs on its own thread, whose stderr may not be flushed
 * before a short process exits).
 */
function loadedBy(args: readonly string[]): string[] {
  const log = join(mkdtempSync(join(tmpdir(), 'termsight-start-up-')), 'loaded.txt');
  const hook = {
    imports: "import { appendFileSync } from 'node:fs';",
    after: `(r) => { appendFileSync(${JSON.stringify(log)}, r.url + '\\n'); return r; }`,
  };
  const script = `import { hookResolve } from ${JSON.stringify(pathToFileURL(join(ROOT, 'test/support/resolve-hook.mjs')).href)};
await hookResolve(${JSON.stringify(hook)});
process.argv = [process.execPath, ${JSON.stringify(BUNDLED)}, ...${JSON.stringify(args)}];
await import(${JSON.stringify(pathToFileURL(BUNDLED).href)});`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: ENV,
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const loaded = readFileSync(log, 'utf8')
    .split('\n')
    .filter((url) => url.startsWith(`file://${ROOT}dist/`))
    .map((url) => fileURLToPath(url));
  rmSync(dirname(log), { recursive: true, force: true });
  return loaded;
}

/** The functions (by name) that the files define: a statement's start, as the chunks are one line each. */
function defined(files: readonly string[], names: readonly string[]): string[] {
  const pattern = new RegExp(`(?:^|[;{}])(?:async )?function\\*? ?(${names.join('|')})\\(`, 'gm');
  return [...new Set(files.flatMap((file) => [...readFileSync(file, 'utf8').matchAll(pattern)].map((m) => m[1])))]
    .filter((name): name is string => name !== undefined)
    .sort();
}

describe('termsight show --no-probe loads', () => {
  // The driver's own (probe/input-tap.ts, terminal-stream.ts, reducer.ts; src/probe/front.ts has
  // a probeTty of its own), the recorder's and the other commands'.
  const NOT_NEEDED = [
    'tapInput',
    'defaultTerminal',
    'createProbe',
    'createRecorder',
    'runRules',
    'runReplay',
    'runDemo',
  ];
  let files: string[];
  beforeAll(() => {
    files = loadedBy(['show', '--no-probe', '--protocol', 'sixel', '--width', '4', join(IMAGES, 'astronaut.png')]);
  }, 60_000);

  it('what drawing needs (the check can see a function in a minified chunk)', () => {
    expect(defined(files, ['runShow', 'detectReport', 'decodePng', 'encodeSixel'])).toEqual([
      'decodePng',
      'detectReport',
      'encodeSixel',
      'runShow',
    ]);
  });
  it('not the probe’s driver, the recorder, nor the other commands', () => {
    expect(defined(files, NOT_NEEDED)).toEqual([]);
  });
  it('the probe’s driver once it probes (detect), so the check above can fail', () => {
    const probing = loadedBy(['detect', '--timeout', '1']);
    expect(defined(probing, ['tapInput', 'defaultTerminal', 'createProbe'])).toEqual([
      'createProbe',
      'defaultTerminal',
      'tapInput',
    ]);
  });
});

describe('the header readers of BMP, PNM and HEIF: loaded for such a file only', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'termsight-start-up-'));
  const ppm = join(scratch, 'small.ppm');
  writeFileSync(ppm, pnmFile({ kind: 6, width: 7, height: 5 }));
  const bmp = join(scratch, 'small.bmp');
  writeFileSync(bmp, bmpFile({ width: 7, height: 5, bits: 24 }));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const READERS = ['readBmpHeader', 'readPnmHeader', 'readHeifPrimary'];
  const show = (file: string) => loadedBy(['show', '--no-probe', '--protocol', 'sixel', '--width', '4', file]);

  it.each([
    { name: 'a PNG: neither', file: join(IMAGES, 'astronaut.png'), want: [] },
    { name: 'a JPEG: neither', file: join(IMAGES, 'hubble_deep_field.jpg'), want: [] },
    // So the check can fail.
    { name: 'a BMP: its own', file: bmp, want: ['readBmpHeader'] },
    { name: 'a PNM: its own', file: ppm, want: ['readPnmHeader'] },
    // Through the dev dependency libheif-js.
    { name: 'a HEIC: its own', file: join(IMAGES, 'peer/chelsea.heic'), want: ['readHeifPrimary'] },
  ])(
    '$name',
    ({ file, want }) => {
      expect(defined(show(file), READERS)).toEqual(want);
    },
    60_000,
  );
});

describe('the bundled CLI draws byte for byte what the unbundled modules draw', () => {
  const PROTOCOLS = ['sixel', 'kitty', 'iterm2', 'symbols', 'blocks', 'braille'] as const;
  const FILES = ['hubble_deep_field.jpg', 'astronaut.png'] as const;
  const show = (cli: string, protocol: string, file: string): Buffer => {
    const run = spawnSync(
      process.execPath,
      [cli, 'show', '--no-probe', '--protocol', protocol, '--width', '24', join(IMAGES, file)],
      { cwd: ROOT, env: ENV, timeout: 60_000, maxBuffer: 1 << 26 },
    );
    expect(run.status, String(run.stderr)).toBe(0);
    expect(run.stdout.length).toBeGreaterThan(100);
    // kitty names each picture with a random image id.
    return protocol === 'kitty'
      ? Buffer.from(run.stdout.toString('latin1').replace(/i=\d+/g, 'i=#'), 'latin1')
      : run.stdout;
  };
  it.each(PROTOCOLS.flatMap((protocol) => FILES.map((file) => ({ name: `${protocol}, ${file}`, protocol, file }))))(
    '$name',
    ({ protocol, file }) => {
      expect(show(BUNDLED, protocol, file).equals(show(UNBUNDLED, protocol, file))).toBe(true);
    },
    120_000,
  );
});
