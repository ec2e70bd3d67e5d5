/**
 * The CLI's compile cache: turned on where Node has it, never an error where it cannot be.
 * The host is a table of what `node:module` can answer; the real process runs under whatever
 * Node runs the tests (.ci/run runs them on 22 and 24 too, where the cache exists).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type CompileCacheHost, type CompileCacheOutcome, startCompileCache } from '../../src/cli/compile-cache.js';

const run = promisify(execFile);
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const PACKAGE = new URL('../../package.json', import.meta.url).pathname;
const VERSION = (JSON.parse(readFileSync(PACKAGE, 'utf8')) as { version: string }).version;
// Node's own numbering (FAILED 0, ENABLED 1, ALREADY_ENABLED 2, DISABLED 3); the code reads FAILED from the host.
const constants = { compileCacheStatus: { FAILED: 0 } };

describe('startCompileCache', () => {
  it.each<{ name: string; host: CompileCacheHost; outcome: CompileCacheOutcome }>([
    { name: 'Node 20: no enableCompileCache', host: {}, outcome: 'absent' },
    { name: 'enabled', host: { constants, enableCompileCache: () => ({ status: 1 }) }, outcome: 'on' },
    {
      name: 'already enabled (NODE_COMPILE_CACHE)',
      host: { constants, enableCompileCache: () => ({ status: 2 }) },
      outcome: 'on',
    },
    {
      name: 'disabled by NODE_DISABLE_COMPILE_CACHE',
      host: { constants, enableCompileCache: () => ({ status: 3 }) },
      outcome: 'on',
    },
    {
      name: 'failed (folder not writable)',
      host: { constants, enableCompileCache: () => ({ status: 0 }) },
      outcome: 'failed',
    },
    {
      name: 'throws',
      host: {
        constants,
        enableCompileCache: () => {
          throw new Error('EACCES');
        },
      },
      outcome: 'failed',
    },
  ])('$name: $outcome', ({ host, outcome }) => {
    expect(startCompileCache(host)).toBe(outcome);
  });

  it('asks for Node’s own place (no folder of its own)', () => {
    const asked: unknown[][] = [];
    startCompileCache({
      constants,
      enableCompileCache: (...args: unknown[]) => {
        asked.push(args);
        return { status: 1 };
      },
    });
    expect(asked).toEqual([[]]);
  });
});

describe('termsight with a cache folder it cannot use', () => {
  it.each<{ name: string; env: Record<string, string> }>([
    // A file where the folder should be: no folder can be made under it, even as root.
    { name: 'NODE_COMPILE_CACHE under a file', env: { NODE_COMPILE_CACHE: `${PACKAGE}/cache` } },
    { name: 'TMPDIR under a file', env: { TMPDIR: `${PACKAGE}/tmp` } },
    { name: 'cache switched off', env: { NODE_DISABLE_COMPILE_CACHE: '1' } },
  ])('$name: still runs', async ({ env }) => {
    const r = await run(process.execPath, [MAIN, '--version'], { env: { ...process.env, ...env }, timeout: 30_000 });
    expect(r.stdout).toBe(`${VERSION}\n`);
    expect(r.stderr).toBe('');
  });
});
