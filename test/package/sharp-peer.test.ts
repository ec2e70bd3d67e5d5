/**
 * sharp, libheif-js and wasm-vips are optional peer dependencies, loaded only when a file of a format they
 * decode arrives: importing `termsight`, `termsight/decode` or the CLI, and decoding a PNG, JPEG
 * or GIF, never resolves any; a HEIC whose boxes, or a JPEG XL whose size header, declare a size
 * past the limits is refused before any is loaded. Each case runs the built package in a child process whose module
 * resolver records every package resolved; decoding an AVIF (sharp), a HEIC (libheif-js) and a JPEG XL
 * (wasm-vips) are the controls that show the recorder sees them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const dist = (entry: string): string => pathToFileURL(join(ROOT, 'dist', entry)).href;

const RESOLVE_HOOK = pathToFileURL(join(ROOT, 'test/support/resolve-hook.mjs')).href;

/** The packages resolved while running `body` (an ES module body) after the hook is registered. */
function packagesResolved(body: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-sharp-peer-'));
  const log = join(dir, 'packages');
  writeFileSync(log, '');
  const script = `import { logResolvedPackages } from ${JSON.stringify(RESOLVE_HOOK)};
await logResolvedPackages(${JSON.stringify(log)});
${body}`;
  // From a file, not `--input-type=module -e`: Node passes that flag to worker threads, where it
  // fails (wasm-vips's pthreads; jxl.ts refuses to start them under it).
  const file = join(dir, 'child.mjs');
  writeFileSync(file, script);
  const child = spawnSync(process.execPath, [file], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb' },
  });
  const out = readFileSync(log, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  if (child.status !== 0) throw new Error(`the child failed: ${child.stderr}`);
  return [...new Set([...out.matchAll(/^PKG (.+)$/gm)].map((m) => m[1]))].sort();
}

const picture = (name: string): string => JSON.stringify(join(ROOT, 'test/fixtures/images', name));

const PEERS = ['sharp', 'libheif-js', 'wasm-vips'];

describe.runIf(existsSync(join(ROOT, 'dist/index.js')))('the peers load only for the formats they decode', () => {
  it.each([
    { name: "import 'termsight'", body: `await import(${JSON.stringify(dist('index.js'))});` },
    { name: "import 'termsight/decode'", body: `await import(${JSON.stringify(dist('decode/index.js'))});` },
    {
      name: 'decodeImageLoading of a PNG, a JPEG and a GIF',
      body: `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
for (const f of [${picture('chelsea.png')}, ${picture('hubble_deep_field.jpg')}, ${picture('gif/coffee-optimized.gif')}])
  await decodeImageLoading(readFileSync(f));`,
    },
    {
      name: 'decodeImageLoading of a HEIC whose ispe says 100000x100000 (refused from its boxes)',
      body: `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
const bytes = readFileSync(${picture('peer/chelsea.heic')});
for (let at = bytes.indexOf('ispe'); at >= 0; at = bytes.indexOf('ispe', at + 4)) {
  bytes.writeUInt32BE(100000, at + 8);
  bytes.writeUInt32BE(100000, at + 12);
}
const error = await decodeImageLoading(bytes).catch((e) => e);
if (error.failure !== 'too-large') throw new Error('not refused: ' + error);`,
    },
    {
      name: 'decodeImageLoading of a JPEG XL whose size header says 100000x100000 (refused from it)',
      body: `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
// FF 0A, then SizeHeader: not small, height U32 selector 2 (18 bits) 99999, ratio 1 (square).
const bits = [0, 0, 1, ...Array.from({ length: 18 }, (_, i) => (99999 >> i) & 1), 1, 0, 0, 1];
const bytes = new Uint8Array(16);
bytes[0] = 0xff;
bytes[1] = 0x0a;
bits.forEach((bit, i) => { bytes[2 + (i >> 3)] |= bit << (i & 7); });
const error = await decodeImageLoading(bytes).catch((e) => e);
if (error.failure !== 'too-large' || !/100000x100000/.test(error.message)) throw new Error('not refused: ' + error);`,
    },
  ])('$name: no sharp, no libheif-js, no wasm-vips', ({ body }) => {
    const resolved = packagesResolved(body);
    for (const peer of PEERS) expect(resolved).not.toContain(peer);
  });

  it.runIf(existsSync(join(ROOT, 'node_modules/sharp')))('the control: decoding an AVIF resolves sharp', () => {
    const body = `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
await decodeImageLoading(readFileSync(${picture('peer/chelsea.avif')}));`;
    expect(packagesResolved(body)).toContain('sharp');
  });

  it.runIf(existsSync(join(ROOT, 'node_modules/libheif-js')))(
    'the control: decoding a HEIC resolves libheif-js',
    () => {
      const body = `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
await decodeImageLoading(readFileSync(${picture('peer/chelsea.heic')}));`;
      expect(packagesResolved(body)).toContain('libheif-js');
    },
  );

  it.runIf(existsSync(join(ROOT, 'node_modules/wasm-vips')))(
    'the control: decoding a JPEG XL resolves wasm-vips',
    () => {
      const body = `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
await decodeImageLoading(readFileSync(${picture('jxl/chelsea.jxl')}));`;
      expect(packagesResolved(body)).toContain('wasm-vips');
    },
  );
});
