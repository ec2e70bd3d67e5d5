/**
 * The runtime smoke script (test/runtimes/smoke.mjs, which CI also runs on Bun and Deno) on this
 * Node: it must pass here too, so a change that breaks it shows in the ordinary suite.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../pty/harness.js';
import { ensureBuilt } from '../support/build.js';

beforeAll(() => ensureBuilt(), 120_000);

it('passes every check on Node', () => {
  const run = spawnSync(process.execPath, [join(repoRoot, 'test', 'runtimes', 'smoke.mjs')], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  expect(run.stdout).toContain('all checks passed');
  expect(run.stdout).not.toContain('FAIL');
  expect(run.status).toBe(0);
});
