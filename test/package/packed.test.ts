/**
 * The packed package: no `prepare` script (npm runs it on every install from git and warns about
 * it; the build runs on `prepack` and `npm start` builds a missing dist/), and no source maps in
 * the tarball (they were 2.4 MB of its 5.8 MB); the WebAssembly JPEG decoder the build makes in it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { scripts: Record<string, string> };

describe('the packed package', () => {
  it('has no prepare script; it builds on prepack, and npm start builds what is missing', () => {
    expect(pkg.scripts.prepare).toBeUndefined();
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
    expect(readFileSync(`${ROOT}scripts/start.mjs`, 'utf8')).toContain("['run', 'build']");
  });

  it('ships no source maps', () => {
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(packed.status).toBe(0);
    const [listing] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
    const paths = listing.files.map((f) => f.path);
    expect(paths).toContain('package.json');
    expect(paths.filter((p) => p.endsWith('.map'))).toEqual([]);
  });

  it('ships the WebAssembly JPEG decoder where the decoder looks for it (dist/wasm/)', () => {
    ensureBuilt();
    const packed = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(packed.status).toBe(0);
    const [listing] = JSON.parse(packed.stdout) as [{ files: { path: string }[] }];
    expect(listing.files.map((f) => f.path)).toContain('dist/wasm/jpeg-decoder.wasm');
  }, 600_000);
});
