/**
 * `termsight show FILE` by the built CLI in a child process whose named packages fail to resolve,
 * as packages that are not installed fail (test/support/resolve-hook.mjs), with its own peak RSS
 * (through rss-wrapper.mjs under a small sh, as hostile-cli.test.ts measures): the optional peers'
 * paths with and without them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const ROOT = join(import.meta.dirname, '../../..');
const RESOLVE_HOOK = pathToFileURL(join(ROOT, 'test/support/resolve-hook.mjs')).href;

/** The built CLI, which these runs need. */
export const CLI = join(ROOT, 'dist/cli/main.js');

/** The CLI's exit status, output and peak RSS in MiB for `show file --no-probe --protocol P --width 24`. */
export function showWithout(
  file: string,
  missing: readonly string[],
  protocol = 'blocks',
): { status: number | null; stdout: string; stderr: string; rssMiB: number } {
  const dir = mkdtempSync(join(tmpdir(), 'termsight-show-without-'));
  try {
    const register = join(dir, 'register.mjs');
    writeFileSync(
      register,
      `import { missingPackages } from ${JSON.stringify(RESOLVE_HOOK)};\nawait missingPackages(${JSON.stringify(missing)});\n`,
    );
    const rss = join(dir, 'rss');
    const run = spawnSync(
      'sh',
      [
        '-c',
        '"$@"; exit $?',
        'sh',
        process.execPath,
        '--max-old-space-size=256',
        '--import',
        pathToFileURL(register).href,
        join(ROOT, 'test/decode/support/rss-wrapper.mjs'),
        rss,
        'show',
        file,
        '--no-probe',
        '--protocol',
        protocol,
        '--width',
        '24',
      ],
      { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color' }, timeout: 120_000 },
    );
    const rssMiB = existsSync(rss) ? Number(readFileSync(rss, 'utf8')) / 1024 : Number.NaN;
    return { status: run.status, stdout: run.stdout, stderr: run.stderr, rssMiB };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
