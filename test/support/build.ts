/**
 * dist/ for the tests that run the built package in child processes. `npm test` builds before
 * vitest starts, so here the build is only checked: it runs again only when a source is newer than
 * the stamp the build writes last (dist/.built), and then in one test process at a time, under a
 * lock, because a build rewrites dist/ in place (tsc, then the bundler) and a test importing dist/
 * meanwhile would load a half-written entry.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const STAMP = join(ROOT, 'dist', '.built');
const LOCK = join(ROOT, 'dist.building');
/** What a build reads besides src/. */
const INPUTS = [
  'package.json',
  'tsconfig.build.json',
  'scripts/bundle.mjs',
  'scripts/build-wasm.mjs',
  'wasm/jpeg-decoder.ts',
];

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Whether dist/ was built after the last change to what it is built from. */
export function distIsCurrent(): boolean {
  let built: number;
  try {
    built = statSync(STAMP).mtimeMs;
  } catch {
    return false;
  }
  const newest = Math.max(newestSource(join(ROOT, 'src')), ...INPUTS.map((f) => statSync(join(ROOT, f)).mtimeMs));
  return built >= newest;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/** Builds dist/ (`npm run build`) unless it is current; waits for a build another test process runs. */
export function ensureBuilt(): void {
  const deadline = Date.now() + 300_000;
  while (!distIsCurrent()) {
    try {
      mkdirSync(LOCK);
    } catch {
      // Another test process is building: wait for it, then look again. A lock older than the
      // longest build is a crashed run's.
      const since = statSync(LOCK, { throwIfNoEntry: false })?.mtimeMs;
      if (since !== undefined && Date.now() - since > 300_000) rmdirSync(LOCK, { recursive: false });
      if (Date.now() > deadline) throw new Error(`waited 5 minutes for ${LOCK} to go`);
      pause(250);
      continue;
    }
    try {
      if (distIsCurrent()) return;
      try {
        execFileSync('npm', ['run', '--silent', 'build'], { cwd: ROOT, stdio: 'pipe' });
      } catch {
        // tsc exits non-zero on a type error but still emits; the caller checks what it needs.
      }
      return;
    } finally {
      rmdirSync(LOCK);
    }
  }
}
