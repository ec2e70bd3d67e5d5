/**
 * The example application's own test (examples/picture-app/app.test.mjs), which uses only
 * termsight's published entries imported by package name (the package resolves itself through its
 * `exports`), run as its author would: `node --test`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { repoRoot } from '../pty/harness.js';
import { ensureBuilt } from '../support/build.js';

beforeAll(() => ensureBuilt(), 120_000);

it('passes with node --test', () => {
  // TAP named: Node 23+ prints `ℹ pass 4` (spec) by default, Node 20 and 22 `# pass 4`.
  const run = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=tap', join('examples', 'picture-app', 'app.test.mjs')],
    {
      cwd: repoRoot,
      encoding: 'utf8',
    },
  );
  expect(run.stdout).toMatch(/^# pass 4$/m);
  expect(run.stdout).toMatch(/^# fail 0$/m);
  expect(run.status).toBe(0);
});
