/**
 * Shared by the VP8 tests: the committed fixtures (test/fixtures/images/vp8/, made by its make.sh),
 * a test-only walk of the RIFF container to the 'VP8 ' chunk's payload (the container is webp.ts's
 * job, not the VP8 decoder's), and dwebp as the oracle where it is installed.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
export const VP8_FIXTURES = join(here, '../fixtures/images/vp8');

/** The committed .webp fixtures by name. */
export function vp8FixtureNames(): string[] {
  return readdirSync(VP8_FIXTURES)
    .filter((f) => f.endsWith('.webp'))
    .sort();
}

/** A committed fixture's whole file. */
export function vp8File(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(VP8_FIXTURES, name)));
}

/** The payload of the first 'VP8 ' chunk of a RIFF WebP file. */
export function vp8Payload(file: Uint8Array): Uint8Array {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  for (let p = 12; p + 8 <= file.length; ) {
    const type = String.fromCharCode(...file.subarray(p, p + 4));
    const size = view.getUint32(p + 4, true);
    if (type === 'VP8 ') return file.subarray(p + 8, p + 8 + size);
    p += 8 + size + (size & 1);
  }
  throw new Error('no VP8 chunk');
}

/** Whether dwebp runs here. Under CI it must: CI installs it (.ci/e2e-deps.sh). */
export const hasDwebp = spawnSync('dwebp', ['-version'], { encoding: 'utf8' }).status === 0;

/** dwebp's RGBA output (`-pam`, the bytes after the header) for a WebP file. */
export function dwebpRgba(path: string): { width: number; height: number; data: Uint8Array } {
  const r = spawnSync('dwebp', ['-quiet', path, '-pam', '-o', '-'], { maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`dwebp failed on ${path}: ${r.stderr}`);
  const out = r.stdout as Buffer;
  const end = out.indexOf('ENDHDR\n') + 7;
  const head = out.toString('latin1', 0, end);
  const width = Number(/WIDTH (\d+)/.exec(head)?.[1]);
  const height = Number(/HEIGHT (\d+)/.exec(head)?.[1]);
  return { width, height, data: new Uint8Array(out.buffer, out.byteOffset + end, out.length - end) };
}
