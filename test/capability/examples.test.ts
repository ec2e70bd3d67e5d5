/**
 * The two founding example programs (examples/), run with node against the built package
 * (npx tsc -p tsconfig.build.json first): their output must be the founding output, byte for byte.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const FOUNDING: { name: string; file: string; expected: string }[] = [
  {
    name: 'node examples/supports.mjs prints the founding output',
    file: 'examples/supports.mjs',
    expected:
      '{"tty":true,"termProgram":["iTerm.app","WezTerm","ghostty","vscode","Hyper","Apple_Terminal"],"envAny":["VTE_VERSION","WT_SESSION"]}\ntrue\ntrue\ntrue\nfalse\nfalse\nfalse\n',
  },
  {
    name: 'node examples/override.mjs prints the founding output',
    file: 'examples/override.mjs',
    expected: '"Docs (https://x.dev)"\n"\\u001b]8;;https://x.dev\\u0007Docs\\u001b]8;;\\u0007"\n',
  },
];

describe('the founding example programs', () => {
  it('the package is built', () => {
    expect(existsSync(`${root}dist/index.js`)).toBe(true);
  });
  // Run exactly as a user runs them: `import 'termsight'` resolves through package.json's exports.
  it.each(FOUNDING)('$name', ({ file, expected }) => {
    const run = spawnSync(process.execPath, [file], {
      cwd: root,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '' },
    });
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(expected);
  });
});
