// Builds the WebAssembly JPEG decoder (wasm/jpeg-decoder.ts, AssemblyScript, a pinned dev
// dependency) into <dist>/wasm/jpeg-decoder.wasm, which the package ships: dist/wasm/ is one
// folder below dist/, as dist/chunks/ and dist/decode/ are, so the decoder's
// `new URL('../wasm/jpeg-decoder.wasm', import.meta.url)` finds it from a bundled chunk and from
// tsc's module alike (src/decode/jpeg-wasm-load.ts; docs/decode.md, "WebAssembly").
// `npm run build` runs it after tsc. Usage: node scripts/build-wasm.mjs [distDir] [--wat]
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const out = join(resolve(args.find((a) => !a.startsWith('--')) ?? join(root, 'dist')), 'wasm');
mkdirSync(out, { recursive: true });
// asc's own entry run by this Node (not node_modules/.bin's shell script: Windows, other shells).
const asc = join(root, 'node_modules', 'assemblyscript', 'bin', 'asc.js');
execFileSync(
  process.execPath,
  [
    asc,
    join(root, 'wasm', 'jpeg-decoder.ts'),
    '--outFile',
    join(out, 'jpeg-decoder.wasm'),
    ...(args.includes('--wat') ? ['--textFile', join(out, 'jpeg-decoder.wat')] : []),
    '-O3',
    '--noAssert',
    '--runtime',
    'stub',
    // No imports at all: a trap is reported through the exported errorKind/errorPos.
    '--use',
    'abort=',
    '--exportRuntime',
    // The name section only (1.1 KB; the code section is byte for byte the same without it): a
    // profile or a trap's stack names idct8 or sequential, not wasm-function[17].
    '--debug',
  ],
  { stdio: 'inherit' },
);
