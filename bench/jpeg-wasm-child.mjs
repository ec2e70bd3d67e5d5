// One measured process of bench/jpeg-wasm.mjs: reads the photo, parses it up to its scan with the
// decoder's own code (the harness bundle), then decodes the scan's entropy-coded data `reps` times
// by TypeScript (`ts`; `ts+idct` with the inverse transform at 1/4 after each row) or by
// WebAssembly (`wasm`, `wasm+idct`: reading the .wasm, WebAssembly.compile and
// instantiate counted in each rep). Prints one JSON line: per rep CPU and wall ms, process CPU ms.
// argv: mode reps harness.mjs photo.jpg module.wasm
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const [mode, repsArg, harnessPath, photo, wasmPath] = process.argv.slice(2);
// harnessPath: the bundle's folder (glue.mjs, harness.mjs, jpeg.mjs).
const load = (name) => import(pathToFileURL(`${harnessPath}/${name}.mjs`).href);
const { decodeScanTs, decodeScanWasm, idctRowTs, planesTs } = await load('glue');
const { firstScan } = await load('harness');
const { decodeJpeg } = await load('jpeg');
const bytes = readFileSync(photo);
const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const reps = [];
let sum = 0;
const onRow = () => {};
for (let i = 0; i < Number(repsArg); i++) {
  // 1/4 (block size 2) as `show` draws this photo, unless TERMSIGHT_BENCH_BLOCK says another.
  const scan = firstScan(bytes, Number(process.env.TERMSIGHT_BENCH_BLOCK ?? 2));
  const c0 = cpuMs();
  const w0 = performance.now();
  let end;
  let setup = { cpu: 0, wall: 0 };
  if (mode === 'decode-ts' || mode === 'decode-wasm') {
    let wasm = false; // decode-ts: the TypeScript decoder alone (the module is decodeJpeg's default)
    if (mode === 'decode-wasm') {
      const module = await WebAssembly.compile(readFileSync(wasmPath));
      wasm = (await WebAssembly.instantiate(module)).exports;
      setup = { cpu: cpuMs() - c0, wall: performance.now() - w0 };
    }
    const decoded = decodeJpeg(bytes, { maxSize: { width: 1000, height: 750 }, wasm });
    end = { pos: decoded.raster.data.length };
  } else if (mode === 'ts') end = decodeScanTs(scan, onRow);
  else if (mode === 'ts+idct') {
    const planes = planesTs(scan);
    end = decodeScanTs(scan, (row) => idctRowTs(scan, planes, row));
  } else {
    const module = await WebAssembly.compile(readFileSync(wasmPath));
    const instance = await WebAssembly.instantiate(module);
    setup = { cpu: cpuMs() - c0, wall: performance.now() - w0 };
    end = decodeScanWasm(instance.exports, scan, onRow, mode === 'wasm+idct');
  }
  reps.push({ cpu: cpuMs() - c0, wall: performance.now() - w0, setup });
  sum += end.pos;
}
process.stdout.write(`${JSON.stringify({ mode, reps, processCpu: cpuMs(), check: sum })}\n`);
