/**
 * Issue 26: the WebAssembly JPEG decoder as the default path of the built package, and the
 * fallback to the TypeScript decoder. A preload counts the process's WebAssembly compiles and
 * instances; the same `show` runs from dist/ (module shipped in dist/wasm/) and from copies of
 * dist/ whose module is missing, damaged, or lacks the decoder's exports: every copy must draw
 * the same bytes, and only dist/ may have used the module. What never needs it (the main entry,
 * a PNG, a sequential JPEG whose components come in separate scans) must not compile it.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJpeg } from '../../src/decode/jpeg.js';
import type { JpegWasm } from '../../src/decode/jpeg-entropy-wasm.js';
import { compileJpegWasm, instantiateJpegWasm, jpegWasm } from '../../src/decode/jpeg-wasm-load.js';
import { ensureBuilt } from '../support/build.js';

const ROOT = join(import.meta.dirname, '..', '..');
const IMAGES = join(ROOT, 'test', 'fixtures', 'images');
const JPEG = join(IMAGES, 'jpeg');
const ENV = { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', NO_COLOR: '1' };
const TEMP = mkdtempSync(join(tmpdir(), 'termsight-wasm-default-'));
const PRELOAD = join(TEMP, 'count.mjs');

/** A package root (package.json + dist/) whose dist/wasm/jpeg-decoder.wasm is `wasm` (null: absent). */
function packageWith(name: string, wasm: Uint8Array | null): string {
  const root = join(TEMP, name);
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  cpSync(join(ROOT, 'dist'), join(root, 'dist'), {
    recursive: true,
    filter: (path) => !path.endsWith('.map') && !path.includes(`${join('dist', 'wasm')}`),
  });
  if (wasm) {
    cpSync(join(ROOT, 'dist', 'wasm'), join(root, 'dist', 'wasm'), { recursive: true });
    writeFileSync(join(root, 'dist', 'wasm', 'jpeg-decoder.wasm'), wasm);
  }
  return root;
}

interface Run {
  out: string;
  compiled: number;
  instances: number;
}

/** `node [preload] <root>/dist/cli/main.js ...args` (or a script with -e), its output and counts. */
function run(root: string, args: readonly string[]): Run {
  const done = spawnSync(process.execPath, ['--import', pathToFileURL(PRELOAD).href, ...args], {
    cwd: root,
    env: ENV,
    encoding: 'latin1',
    timeout: 60_000,
    maxBuffer: 1 << 26,
  });
  expect(done.status, done.stderr).toBe(0);
  const counts = /wasm-counts (\d+) (\d+)/.exec(done.stderr);
  expect(counts, done.stderr).not.toBeNull();
  // kitty's image id is random per run: the rest of every byte must be equal.
  const out = done.stdout.replace(/,i=\d+,/g, ',i=ID,');
  return { out, compiled: Number(counts?.[1]), instances: Number(counts?.[2]) };
}

const show = (root: string, file: string, ...more: string[]): Run =>
  run(root, [join(root, 'dist', 'cli', 'main.js'), 'show', '--no-probe', '--width', '60', ...more, file]);

let shipped: string;

beforeAll(() => {
  ensureBuilt();
  writeFileSync(
    PRELOAD,
    `const W = globalThis.WebAssembly;
const n = { module: 0, instance: 0 };
const count = (key) => ({ construct(target, args) { n[key]++; return Reflect.construct(target, args); } });
W.Module = new Proxy(W.Module, count('module'));
W.Instance = new Proxy(W.Instance, count('instance'));
process.on('exit', () => process.stderr.write('wasm-counts ' + n.module + ' ' + n.instance + '\\n'));
`,
  );
  shipped = packageWith('shipped', readFileSync(join(ROOT, 'dist', 'wasm', 'jpeg-decoder.wasm')));
}, 600_000);

afterAll(() => rmSync(TEMP, { recursive: true, force: true }));

// Fixtures the module takes: sequential scans of every component (restart intervals or not), and
// progressive files (every scan).
const TAKEN = [
  'baseline-420.jpg',
  'baseline-444.jpg',
  'grey.jpg',
  'cmyk-adobe.jpg',
  'baseline-odd-2x2-1x2-2x1.jpg',
  'restart-every-3-mcus.jpg',
  'progressive-420.jpg',
  'progressive-444.jpg',
  'progressive-grey.jpg',
  'progressive-restart.jpg',
];

describe('the built package decodes a JPEG with the module, and without it the same', () => {
  it('missing, damaged or foreign module: the same bytes drawn, by the TypeScript decoder', {
    timeout: 300_000,
  }, () => {
    const missing = packageWith('missing', null);
    const damaged = packageWith('damaged', Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, 0xff]));
    // A valid module with none of the decoder's exports: compiled and instantiated, then refused.
    const foreign = packageWith('foreign', Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    for (const name of TAKEN) {
      for (const protocol of ['sixel', 'kitty', 'symbols']) {
        const file = join(JPEG, name);
        const what = `${name} as ${protocol}`;
        const withModule = show(shipped, file, '--protocol', protocol);
        expect({ what, compiled: withModule.compiled, instances: withModule.instances }).toEqual({
          what,
          compiled: 1,
          instances: 1,
        });
        expect(withModule.out.length).toBeGreaterThan(100);
        const without = show(missing, file, '--protocol', protocol);
        expect({ what, compiled: without.compiled, same: without.out === withModule.out }).toEqual({
          what,
          compiled: 0,
          same: true,
        });
        const bad = show(damaged, file, '--protocol', protocol);
        expect({ what, instances: bad.instances, same: bad.out === withModule.out }).toEqual({
          what,
          instances: 0,
          same: true,
        });
        expect(show(foreign, file, '--protocol', protocol).out === withModule.out).toBe(true);
      }
    }
  });

  it('several JPEGs in one process: compiled once, an instance for each', () => {
    const files = TAKEN.map((name) => join(JPEG, name));
    const script = `import { readFileSync } from 'node:fs';
const { decodeImage } = await import(${JSON.stringify(pathToFileURL(join(shipped, 'dist', 'decode', 'index.js')).href)});
for (const file of ${JSON.stringify(files)}) decodeImage(readFileSync(file), { maxSize: { width: 30, height: 30 } });`;
    const r = run(shipped, ['--input-type=module', '-e', script]);
    expect({ compiled: r.compiled, instances: r.instances }).toEqual({ compiled: 1, instances: TAKEN.length });
  });

  it('the 12 MP progressive photo: the same bytes drawn with the module and without', {
    timeout: 300_000,
  }, async () => {
    // bench/jpeg.mjs makes it under .bench-cache/ (ImageMagick).
    const bench = (await import(pathToFileURL(join(ROOT, 'bench', 'jpeg.mjs')).href)) as {
      inputs(): { progressive: string };
    };
    const file = bench.inputs().progressive;
    const missing = packageWith('missing-12mp', null);
    for (const protocol of ['sixel', 'kitty', 'symbols']) {
      const withModule = show(shipped, file, '--protocol', protocol);
      expect({ protocol, compiled: withModule.compiled, instances: withModule.instances }).toEqual({
        protocol,
        compiled: 1,
        instances: 1,
      });
      const without = show(missing, file, '--protocol', protocol);
      expect({ protocol, compiled: without.compiled, same: without.out === withModule.out }).toEqual({
        protocol,
        compiled: 0,
        same: true,
      });
    }
  });

  it('what the module never takes does not compile it', () => {
    for (const file of [join(IMAGES, 'camera.png'), join(JPEG, 'baseline-one-scan-per-component.jpg')]) {
      const r = show(shipped, file, '--protocol', 'sixel');
      expect({ file, compiled: r.compiled }).toEqual({ file, compiled: 0 });
    }
    const main = `await import(${JSON.stringify(pathToFileURL(join(shipped, 'dist', 'index.js')).href)});`;
    expect(run(shipped, ['--input-type=module', '-e', main]).compiled).toBe(0);
  });
});

describe('jpeg-wasm-load', () => {
  it('null where the file is missing or not a module; an instance of the shipped one', () => {
    expect(compileJpegWasm(pathToFileURL(join(TEMP, 'nothing.wasm')))).toBeNull();
    const garbage = join(TEMP, 'garbage.wasm');
    writeFileSync(garbage, 'not a module');
    expect(compileJpegWasm(pathToFileURL(garbage))).toBeNull();
    expect(instantiateJpegWasm(null)).toBeNull();
    const empty = join(TEMP, 'empty.wasm');
    writeFileSync(empty, Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
    const module = compileJpegWasm(pathToFileURL(empty));
    expect(module).not.toBeNull();
    expect(instantiateJpegWasm(module)).toBeNull();
    const shippedModule = compileJpegWasm(pathToFileURL(join(ROOT, 'dist', 'wasm', 'jpeg-decoder.wasm')));
    const a = instantiateJpegWasm(shippedModule);
    const b = instantiateJpegWasm(shippedModule);
    expect(typeof a?.decodeRow).toBe('function');
    // A fresh instance each time: no memory shared between decodes.
    expect(a?.memory.buffer === b?.memory.buffer).toBe(false);
  });

  it('run from src/ (no src/wasm/): no module, so decodeJpeg falls back', () => {
    expect(jpegWasm()).toBeNull();
  });

  it.each([{ name: 'baseline-420.jpg' }, { name: 'progressive-420.jpg' }])(
    'a module whose memory cannot grow to hold the file: decodeJpeg falls back, the same picture ($name)',
    ({ name }) => {
      const module = compileJpegWasm(pathToFileURL(join(ROOT, 'dist', 'wasm', 'jpeg-decoder.wasm')));
      const bytes = readFileSync(join(JPEG, name));
      const maxSize = { width: 30, height: 30 };
      const reference = decodeJpeg(bytes, { maxSize, wasm: false });
      let calls = 0;
      const exports = instantiateJpegWasm(module) as JpegWasm;
      // The stub allocator traps where memory.grow fails: the file is the first thing placed.
      const full: JpegWasm = {
        ...exports,
        alloc: () => {
          calls++;
          throw new Error('RuntimeError: unreachable');
        },
      };
      const decoded = decodeJpeg(bytes, { maxSize, wasm: full });
      expect(calls).toBe(1);
      expect(Buffer.compare(Buffer.from(decoded.raster.data), Buffer.from(reference.raster.data))).toBe(0);
    },
  );

  it('a progressive file whose stores the module has room for only in part: the same picture, by the TypeScript decoder', () => {
    const module = compileJpegWasm(pathToFileURL(join(ROOT, 'dist', 'wasm', 'jpeg-decoder.wasm')));
    const bytes = readFileSync(join(JPEG, 'progressive-420.jpg'));
    const reference = decodeJpeg(bytes, { wasm: false });
    /** The module, its allocator failing (memory.grow) from call `failAt` on; how often it was called. */
    const failing = (failAt: number) => {
      const exports = instantiateJpegWasm(module) as JpegWasm;
      const counter = { calls: 0, scans: 0 };
      const wasm: JpegWasm = {
        ...exports,
        alloc: (size) => {
          if (++counter.calls >= failAt) throw new Error('RuntimeError: unreachable');
          return exports.alloc(size);
        },
        progressiveScan: (...args) => {
          counter.scans++;
          return exports.progressiveScan(...args);
        },
      };
      return { wasm, counter };
    };
    const whole = failing(Number.POSITIVE_INFINITY);
    const decoded = decodeJpeg(bytes, { wasm: whole.wasm });
    expect(Buffer.compare(Buffer.from(decoded.raster.data), Buffer.from(reference.raster.data))).toBe(0);
    // The file, 8 table areas, a store and a history for each of the 3 components, and the
    // transform's areas (a dequantizer, a plane and a column map each, cosines, colour tables, a
    // band of rows); every scan by the module.
    expect(whole.counter).toEqual({ calls: 1 + 8 + 3 * 2 + 3 * 3 + 3, scans: 10 });
    for (let failAt = 1; failAt <= whole.counter.calls; failAt++) {
      const { wasm, counter } = failing(failAt);
      const got = decodeJpeg(bytes, { wasm });
      expect({ failAt, scans: counter.scans }).toEqual({ failAt, scans: 0 });
      expect(Buffer.compare(Buffer.from(got.raster.data), Buffer.from(reference.raster.data))).toBe(0);
    }
  });
});
