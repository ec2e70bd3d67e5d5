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

// The hook runs on its own thread (Node 22+) and appends to a file: a file write is never lost
// when the main thread exits first (on Node 24 the control once saw no ink through
// process.stderr), and never fails with EAGAIN as a synchronous write to the stderr pipe did once
// the pipe was full (Node 22, the clean-clone CI of 2 December 2026).
const hook = (log: string) => `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  const m = /node_modules\\/((?:@[^/]+\\/)?[^/]+)\\//.exec(resolved.url);
  if (m) appendFileSync(${JSON.stringify(log)}, 'PKG ' + m[1] + '\\n');
  return resolved;
}`;

/** The packages an entry's import graph resolves. */
function packagesLoaded(entry: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-peers-'));
  const log = join(dir, 'packages');
  writeFileSync(log, '');
  const script = `import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook(log))}));
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
