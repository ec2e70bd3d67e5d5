/**
 * Issue 26: the WebAssembly baseline entropy decoder (wasm/jpeg-decoder.ts, through
 * src/decode/jpeg-entropy-wasm.ts) against the TypeScript decoder (`decodeScan`, the reference).
 * Over the repository's baseline fixtures at every block size and the 12 MP bench photo at 1/4
 * and 1/1, every coefficient of every MCU row's band must be equal, and the reader must end at
 * the same byte with the same stop, and the planes the inverse transform writes (1/8, 1/4, 1/2)
 * must hold the same samples; over damaged copies (bytes changed, the file cut short) both
 * must give the same coefficients or fail with the same error. The same for progressive files
 * (wasm/jpeg-decoder.ts `progressiveScan`, through src/decode/jpeg-progressive-wasm.ts): every
 * coefficient and block history after all their scans, where each scan's reader stopped, the error,
 * and the pictures decodeJpeg draws with and without the module.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeJpeg } from '../../src/decode/jpeg.js';
import {
  type BaselineScan,
  decodeScanTs,
  decodeScanWasm,
  idctRowTs,
  type JpegWasm,
  planesTs,
  type ScanEnd,
  wasmCanDecode,
} from '../../src/decode/jpeg-entropy-wasm.js';
import type { BlockSize } from '../../src/decode/jpeg-idct.js';
import { firstScan, type ProgressiveOutcome, progressiveStores } from '../../src/decode/jpeg-wasm-harness.js';
import { freshInstance, shippedModule } from './support/jpeg-wasm.js';

const ROOT = join(import.meta.dirname, '..', '..');
// What `npm run build` makes of wasm/jpeg-decoder.ts (scripts/build-wasm.mjs) and the package ships.
const FIXTURES = join(ROOT, 'test', 'fixtures', 'images', 'jpeg');
const BASELINE = [
  'baseline-411.jpg',
  'baseline-420.jpg',
  'baseline-422.jpg',
  'baseline-440.jpg',
  'baseline-444.jpg',
  'baseline-odd-2x2-1x2-2x1.jpg',
  'baseline-optimized.jpg',
  'cmyk-adobe.jpg',
  'grey.jpg',
  'rgb-adobe.jpg',
  // Restart intervals: every 3 MCUs (4:2:0) and every MCU row.
  'restart-every-3-mcus.jpg',
  'restart-every-row.jpg',
];
const SIZES: BlockSize[] = [1, 2, 4, 8];

let module: object;

beforeAll(() => {
  module = shippedModule();
}, 600_000);

function instance(): JpegWasm {
  return freshInstance(module);
}

/** decodeJpeg with the module gives the picture it gives without, byte for byte, at each size. */
function expectSamePictures(bytes: Uint8Array, sizes: readonly { width: number; height: number }[]): void {
  for (const maxSize of sizes) {
    const a = decodeJpeg(bytes, { maxSize, wasm: false });
    const b = decodeJpeg(bytes, { maxSize, wasm: instance() });
    expect(b.raster.width).toBe(a.raster.width);
    expect(Buffer.compare(Buffer.from(b.raster.data), Buffer.from(a.raster.data))).toBe(0);
  }
}

interface Outcome {
  coefs: Int16Array[];
  end: ScanEnd | null;
  error: string | null;
}

/**
 * Every row's bands (or with `idct`, the planes the inverse transform writes), concatenated per
 * component, and how the scan ended.
 */
function run(bytes: Uint8Array, size: BlockSize, wasm: boolean, idct = false): Outcome {
  const scan: BaselineScan = firstScan(bytes, size);
  const rows: Int16Array[][] = scan.parts.map(() => []);
  const tsPlanes = planesTs(scan);
  const keep = (arrays: readonly ArrayLike<number>[]) => {
    arrays.forEach((a, i) => {
      rows[i]?.push(Int16Array.from(a));
    });
  };
  const onRow = (row: number, planes?: readonly Uint8ClampedArray[]) => {
    if (!idct) keep(scan.parts.map((p) => p.component.coefs));
    else if (planes) keep(planes);
    else {
      idctRowTs(scan, tsPlanes, row);
      keep(tsPlanes);
    }
  };
  let end: ScanEnd | null = null;
  let error: string | null = null;
  try {
    end = wasm ? decodeScanWasm(instance(), scan, onRow, idct) : decodeScanTs(scan, (row) => onRow(row));
  } catch (e) {
    error = String(e);
  }
  const coefs = rows.map((r) => {
    const all = new Int16Array(r.reduce((n, a) => n + a.length, 0));
    let at = 0;
    for (const a of r) {
      all.set(a, at);
      at += a.length;
    }
    return all;
  });
  return { coefs, end, error };
}

function expectSame(bytes: Uint8Array, size: BlockSize, idct = false): void {
  const ts = run(bytes, size, false, idct);
  const wasm = run(bytes, size, true, idct);
  expect(wasm.error).toBe(ts.error);
  expect(wasm.end).toEqual(ts.end);
  expect(wasm.coefs.length).toBe(ts.coefs.length);
  ts.coefs.forEach((c, i) => {
    const w = wasm.coefs[i] as Int16Array;
    expect(w.length).toBe(c.length);
    // Buffer.compare first (fast); on a difference, the first differing index for the message.
    if (
      Buffer.compare(
        Buffer.from(w.buffer, w.byteOffset, w.byteLength),
        Buffer.from(c.buffer, c.byteOffset, c.byteLength),
      ) !== 0
    ) {
      const at = c.findIndex((v, k) => v !== w[k]);
      expect({ component: i, at, wasm: w[at] }).toEqual({ component: i, at, wasm: c[at] });
    }
  });
}

/** The bench's 12 MP photos: bench/jpeg.mjs makes them under .bench-cache/ (ImageMagick) and needs dist/ (npm run build). */
async function benchPhotos(): Promise<{ baseline: string; progressive: string }> {
  const bench = (await import(pathToFileURL(join(ROOT, 'bench', 'jpeg.mjs')).href)) as {
    inputs(): { baseline: string; progressive: string };
  };
  return bench.inputs();
}

describe('WebAssembly baseline entropy decoding = decodeScan', () => {
  for (const name of BASELINE) {
    it(`${name}: every coefficient at every block size`, () => {
      const bytes = readFileSync(join(FIXTURES, name));
      expect(wasmCanDecode(firstScan(bytes, 8))).toBe(true);
      for (const size of SIZES) expectSame(bytes, size);
    });
    it(`${name}: every sample of the inverse transform at every block size`, () => {
      const bytes = readFileSync(join(FIXTURES, name));
      for (const size of SIZES) expectSame(bytes, size, true);
    });
  }

  it('the 12 MP bench photo: every coefficient at 1/4 and 1/1, every sample at 1/4, 1/2 and 1/1, the picture at 1/4 and 1/2', {
    timeout: 120_000,
  }, async () => {
    const bytes = readFileSync((await benchPhotos()).baseline);
    expect(wasmCanDecode(firstScan(bytes, 2))).toBe(true);
    expectSame(bytes, 2);
    expectSame(bytes, 8);
    expectSame(bytes, 2, true);
    expectSame(bytes, 4, true);
    expectSame(bytes, 8, true);
    // The whole decode (the colour conversion in the module too) at 1/4 and 1/2.
    expectSamePictures(bytes, [
      { width: 1000, height: 750 },
      { width: 2000, height: 1500 },
    ]);
  });

  it('decodeJpeg with the module: the same picture as without, at every scale', () => {
    for (const name of BASELINE) {
      const bytes = readFileSync(join(FIXTURES, name));
      for (const d of [1, 2, 4, 8]) {
        const maxSize = { width: 1, height: 1 };
        const ts = decodeJpeg(bytes, { maxSize: d === 8 ? maxSize : undefined });
        const scaled = { width: Math.ceil(ts.sourceWidth / d), height: Math.ceil(ts.sourceHeight / d) };
        const options = { maxSize: scaled, orientation: 'ignore' as const };
        const a = decodeJpeg(bytes, { ...options, wasm: false });
        const b = decodeJpeg(bytes, { ...options, wasm: instance() });
        expect({ name, d, scale: b.scale, width: b.raster.width }).toEqual({
          name,
          d,
          scale: a.scale,
          width: a.raster.width,
        });
        expect(Buffer.compare(Buffer.from(b.raster.data), Buffer.from(a.raster.data))).toBe(0);
      }
    }
  });

  it('damaged files: the same coefficients or the same error', () => {
    const files = ['baseline-420.jpg', 'baseline-optimized.jpg', 'grey.jpg', 'restart-every-3-mcus.jpg'].map((n) =>
      readFileSync(join(FIXTURES, n)),
    );
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 6,
        }),
        fc.double({ min: 0.3, max: 1, noNaN: true }),
        fc.constantFrom<BlockSize>(...SIZES),
        (which, changes, keep, size) => {
          const original = files[which] as Buffer;
          const start = firstScan(original, 8).start;
          const bytes = Uint8Array.from(original.subarray(0, start + Math.floor((original.length - start) * keep)));
          for (const [where, value] of changes) bytes[start + Math.floor(where * (bytes.length - start - 1))] = value;
          expectSame(bytes, size);
          expectSame(bytes, size, true);
          const whole = (wasm: boolean) => {
            try {
              const { raster } = decodeJpeg(bytes, {
                maxSize: { width: 1, height: 1 },
                wasm: wasm ? instance() : false,
              });
              return Buffer.from(raster.data).toString('base64');
            } catch (e) {
              return String(e);
            }
          };
          expect(whole(true)).toBe(whole(false));
        },
      ),
      { numRuns: 300 },
    );
  });
});

const PROGRESSIVE = ['progressive-420.jpg', 'progressive-444.jpg', 'progressive-grey.jpg', 'progressive-restart.jpg'];

/** Both decoders' progressive outcomes equal: stores, histories, every scan's end, the error. */
function expectSameStores(bytes: Uint8Array): ProgressiveOutcome {
  const ts = progressiveStores(bytes, null);
  const wasm = progressiveStores(bytes, instance());
  expect(wasm.error).toBe(ts.error);
  expect(wasm.ends).toEqual(ts.ends);
  expect(wasm.coefs.length).toBe(ts.coefs.length);
  const same = (a: ArrayBufferView, b: ArrayBufferView) =>
    Buffer.compare(
      Buffer.from(a.buffer, a.byteOffset, a.byteLength),
      Buffer.from(b.buffer, b.byteOffset, b.byteLength),
    ) === 0;
  ts.coefs.forEach((c, i) => {
    const w = wasm.coefs[i] as Int16Array;
    if (!same(w, c)) {
      const at = c.findIndex((v, k) => v !== w[k]);
      expect({ component: i, at, wasm: w[at] }).toEqual({ component: i, at, wasm: c[at] });
    }
    expect(same(wasm.last[i] as Uint8Array, ts.last[i] as Uint8Array)).toBe(true);
  });
  return ts;
}

/** decodeJpeg's picture (base64) or error, with the module or without. */
function picture(bytes: Uint8Array, wasm: boolean, maxSize?: { width: number; height: number }): string {
  try {
    const { raster } = decodeJpeg(bytes, { maxSize, wasm: wasm ? instance() : false });
    return `${raster.width}x${raster.height} ${Buffer.from(raster.data).toString('base64')}`;
  } catch (e) {
    return String(e);
  }
}

describe('WebAssembly progressive entropy decoding = decodeScan', () => {
  for (const name of PROGRESSIVE) {
    it(`${name}: every coefficient and history after every scan, every scan's end; the picture at every scale`, () => {
      const bytes = readFileSync(join(FIXTURES, name));
      const ts = expectSameStores(bytes);
      expect(ts.error).toBeNull();
      expect(ts.ends.length).toBeGreaterThan(2);
      // Not all zero: the comparison compares something.
      expect(ts.coefs.some((c) => c.some((v) => v !== 0))).toBe(true);
      for (const d of [1, 2, 4, 8]) {
        const size = { width: Math.ceil(97 / d), height: Math.ceil(97 / d) };
        expect(picture(bytes, true, size)).toBe(picture(bytes, false, size));
      }
    });
  }

  it('the 12 MP progressive bench photo: every coefficient after its ten scans; the picture at 1/8, 1/4, 1/2', {
    timeout: 180_000,
  }, async () => {
    const bytes = readFileSync((await benchPhotos()).progressive);
    const ts = expectSameStores(bytes);
    expect({ error: ts.error, scans: ts.ends.length }).toEqual({ error: null, scans: 10 });
    expectSamePictures(bytes, [
      { width: 500, height: 375 },
      { width: 1000, height: 750 },
      { width: 2000, height: 1500 },
    ]);
  });

  it('damaged progressive files: the same coefficients, scan ends and error; the same picture or error', () => {
    const files = PROGRESSIVE.map((n) => readFileSync(join(FIXTURES, n)));
    // Where the first scan starts: damage goes into the scans and the segments between them.
    const firstSos = (b: Uint8Array) => {
      for (let i = 2; i + 1 < b.length; i++) if (b[i] === 0xff && b[i + 1] === 0xda) return i;
      return b.length;
    };
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.integer({ min: 0, max: 255 })), {
          maxLength: 8,
        }),
        fc.double({ min: 0.2, max: 1, noNaN: true }),
        fc.constantFrom(1, 2, 4, 8),
        (which, changes, keep, d) => {
          const original = files[which] as Buffer;
          const start = firstSos(original);
          const bytes = Uint8Array.from(original.subarray(0, start + Math.floor((original.length - start) * keep)));
          for (const [where, value] of changes) bytes[start + Math.floor(where * (bytes.length - start - 1))] = value;
          expectSameStores(bytes);
          const size = { width: Math.ceil(97 / d), height: Math.ceil(97 / d) };
          expect(picture(bytes, true, size)).toBe(picture(bytes, false, size));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('random bytes in every scan of the progressive fixtures: the same stores and errors', () => {
    // Denser damage than above: a byte in every scan's data, so later scans (refinements) start
    // from damaged histories.
    const files = PROGRESSIVE.map((n) => readFileSync(join(FIXTURES, n)));
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: files.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 255 }), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 1, max: 64 }),
        (which, values, every) => {
          const bytes = Uint8Array.from(files[which] as Buffer);
          let k = 0;
          for (let i = 2; i + 1 < bytes.length; i++) {
            if (bytes[i] === 0xff) continue;
            if (i % every === 0 && bytes[i - 1] !== 0xff) bytes[i] = values[k++ % values.length] as number;
          }
          expectSameStores(bytes);
        },
      ),
      { numRuns: 200 },
    );
  });
});
