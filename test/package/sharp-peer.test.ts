/**
 * sharp is an optional peer dependency, loaded only when a file of a format it decodes arrives:
 * importing `termsight`, `termsight/decode` or the CLI, and decoding a PNG, JPEG or GIF, never
 * resolves it. Each case runs the built package in a child process whose module resolver records
 * every package resolved; decoding an AVIF is the control that shows the recorder sees sharp.
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
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
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

describe.runIf(existsSync(join(ROOT, 'dist/index.js')))('sharp loads only for the formats it decodes', () => {
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
  ])('$name: no sharp', ({ body }) => {
    expect(packagesResolved(body)).not.toContain('sharp');
  });

  it.runIf(existsSync(join(ROOT, 'node_modules/sharp')))('the control: decoding an AVIF resolves sharp', () => {
    const body = `const { decodeImageLoading } = await import(${JSON.stringify(dist('decode/load.js'))});
const { readFileSync } = await import('node:fs');
await decodeImageLoading(readFileSync(${picture('peer/chelsea.avif')}));`;
    expect(packagesResolved(body)).toContain('sharp');
  });
});
