/**
 * The built entries the child-process tests import. `npm test` builds before vitest runs, so the
 * build here happens only when dist/ lacks the Ink entry (a test file run on its own after a clean).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildDist, repoRoot } from '../pty/harness.js';

/** Builds dist/ unless the Ink entry is already there. */
export function ensureDist(): void {
  if (!existsSync(join(repoRoot, 'dist', 'ink', 'index.js'))) buildDist();
}
