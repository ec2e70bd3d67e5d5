// Builds wasm/*.ts (AssemblyScript) to .wasm beside them under wasm/build/ (not committed): the
// issue 26 experiment of a WebAssembly baseline entropy decoder (docs/decode.md, "WebAssembly").
// Run: node scripts/build-wasm.mjs. Not part of `npm run build` yet.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'wasm', 'build');
mkdirSync(out, { recursive: true });
const asc = join(root, 'node_modules', '.bin', 'asc');
execFileSync(
  asc,
  [
    join(root, 'wasm', 'jpeg-baseline.ts'),
    '--outFile',
    join(out, 'jpeg-baseline.wasm'),
    '--textFile',
    join(out, 'jpeg-baseline.wat'),
    '-O3',
    '--noAssert',
    '--runtime',
    'stub',
    // No imports at all: a trap is reported through the exported errorKind/errorPos.
    '--use',
    'abort=',
    '--exportRuntime',
  ],
  { stdio: 'inherit' },
);
