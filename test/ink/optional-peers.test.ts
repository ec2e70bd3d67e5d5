/**
 * `ink` and `react` are optional peer dependencies: `import 'termsight'` (and the drop-ins) must
 * never load them. Each entry is imported from dist/ in a child process whose module resolver
 * records every package it resolves; the `termsight/ink` entry is the control that shows the
 * recorder sees them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../pty/harness.js';
import { ensureDist } from './dist.js';

beforeAll(() => ensureDist(), 120_000);

const RESOLVE_HOOK = pathToFileURL(join(repoRoot, 'test/support/resolve-hook.mjs')).href;

/** The packages an entry's import graph resolves. */
function packagesLoaded(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-peers-'));
  const log = join(dir, 'packages');
  writeFileSync(log, '');
  const script = `import { logResolvedPackages } from ${JSON.stringify(RESOLVE_HOOK)};
await logResolvedPackages(${JSON.stringify(log)});
await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', entry)).href)});
// CommonJS packages (react) may load through require() without meeting the hook on some Node
// versions (24): their files are in the CommonJS cache either way.
const { createRequire } = await import('node:module');
const { appendFileSync } = await import('node:fs');
for (const file of Object.keys(createRequire(import.meta.url).cache)) {
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(file);
  if (m) appendFileSync(${JSON.stringify(log)}, 'PKG ' + m[1] + '\\n');
}`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', TERM: 'dumb' },
  });
  const out = readFileSync(log, 'utf8');
  rmSync(dir, { recursive: true, force: true });
  if (child.status !== 0) throw new Error(`importing ${entry} failed: ${child.stderr}`);
  return [...new Set([...out.matchAll(/^PKG (.+)$/gm)].map((m) => m[1]))].sort();
}

const ENTRIES = [
  { name: 'termsight', entry: 'index.js', loadsInk: false },
  { name: 'termsight/terminal-image', entry: 'compat/terminal-image.js', loadsInk: false },
  { name: 'termsight/supports-terminal-graphics', entry: 'compat/supports-terminal-graphics.js', loadsInk: false },
  { name: 'termsight/ink (the control)', entry: 'ink/index.js', loadsInk: true },
];

describe('ink and react load only with termsight/ink', () => {
  it.each(ENTRIES)('$name', ({ entry, loadsInk }) => {
    const loaded = packagesLoaded(entry);
    expect(loaded.includes('ink')).toBe(loadsInk);
    expect(loaded.includes('react')).toBe(loadsInk);
  });
});
