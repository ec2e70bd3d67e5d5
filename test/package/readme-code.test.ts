/**
 * The README's code is correct code, checked as an application would use it: every TypeScript
 * block is type-checked under `tsc --strict` in a fresh app folder whose `termsight` is the built
 * package (node_modules/termsight -> this repository, so `exports` and the declarations in dist/
 * are what resolves), then compiled and run headless (stdout a pipe) with the pictures it names;
 * the JavaScript blocks that can run headless run the same way, the others are syntax-checked
 * and listed here with the reason. The first library example is at most 8 lines of code.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt } from '../support/build.js';
import { type Block, codeBlocks, codeLines, firstLibraryExample } from '../support/readme.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '..', '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/**
 * The JavaScript blocks that cannot run headless, by their first line, and why; every other JS
 * block runs. A new block must run or be listed here.
 */
const NOT_HEADLESS: Readonly<Record<string, string>> = {
  "import { render, Box, Text } from 'ink';": 'an Ink app: it renders until its terminal closes it',
};

/** Pictures the blocks name, made from the repository's fixtures in the app's folder. */
const PICTURES: Readonly<Record<string, string>> = {
  'photo.png': 'test/fixtures/images/camera.png',
  'unicorn.png': 'test/fixtures/images/chelsea.png',
  'spinner.gif': 'test/fixtures/images/gif/chelsea-interlaced.gif',
};

describe('the block reader itself', () => {
  it.each([
    { name: 'none', text: 'text only', langs: [] },
    { name: 'two', text: '```ts\nconst a = 1;\n```\nprose\n```js\nb();\n```\n', langs: ['ts', 'js'] },
    { name: 'no language', text: '```\nx\n```', langs: [''] },
    { name: 'unclosed is no block', text: '```ts\nconst a = 1;\n', langs: [] },
  ])('$name', ({ text, langs }) => {
    expect(codeBlocks(text).map((b) => b.lang)).toEqual(langs);
  });
  it('counts lines of code, not blank lines or comments', () => {
    expect(codeLines('a();\n\n// note\n  b(); // c\n')).toBe(2);
  });
});

const blocks = codeBlocks(README);
const ts = blocks.filter((b) => b.lang === 'ts');
const js = blocks.filter((b) => b.lang === 'js');
let app = '';

/** Runs `file` (ES module) in the app folder, headless: stdin closed, stdout and stderr pipes, no terminal named. */
function runHeadless(file: string): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [file], {
    cwd: app,
    encoding: 'utf8',
    input: '',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', TERM: 'xterm-256color', HOME: app },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  ensureBuilt();
  app = mkdtempSync(join(tmpdir(), 'termsight-readme-'));
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'readme-app', private: true, type: 'module' }));
  mkdirSync(join(app, 'node_modules', '@types'), { recursive: true });
  symlinkSync(ROOT, join(app, 'node_modules', 'termsight'), 'dir');
  for (const dep of ['ink', 'react', '@types/node', '@types/react'])
    symlinkSync(join(ROOT, 'node_modules', dep), join(app, 'node_modules', dep), 'dir');
  for (const [name, from] of Object.entries(PICTURES)) copyFileSync(join(ROOT, from), join(app, name));
  writeFileSync(
    join(app, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        lib: ['ES2022'],
        types: ['node'],
        outDir: 'out',
        skipLibCheck: false,
      },
      include: ['block-*.ts'],
    }),
  );
  for (const [i, b] of ts.entries()) writeFileSync(join(app, `block-${i}.ts`), `${b.code}\n`);
  for (const [i, b] of js.entries()) writeFileSync(join(app, `block-${i}.mjs`), `${b.code}\n`);
}, 300_000);

afterAll(() => {
  if (app) rmSync(app, { recursive: true, force: true });
});

describe('README.md', () => {
  it('has TypeScript and JavaScript blocks', () => {
    expect(ts.length).toBeGreaterThanOrEqual(2);
    expect(js.length).toBeGreaterThanOrEqual(1);
  });

  it('opens the library with one call of at most 8 lines of code', () => {
    const first = firstLibraryExample(README) as Block;
    expect(first.lang).toBe('ts');
    expect(codeLines(first.code)).toBeLessThanOrEqual(8);
    expect(first.code).toMatch(/from 'termsight'/);
  });

  it('every TypeScript block type-checks under --strict against the built package', () => {
    const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', app], {
      cwd: app,
      encoding: 'utf8',
      timeout: 240_000,
    });
    // The errors name block-N.ts: the Nth ts block (README line in `ts[N].line`).
    const where = ts.map((b, i) => `block-${i}.ts: README line ${b.line}`).join('\n');
    expect(`${tsc.stdout}${tsc.stderr}`, where).toBe('');
    expect(tsc.status).toBe(0);
  }, 240_000);

  it('every TypeScript block runs headless (compiled by that check)', () => {
    for (const [i, b] of ts.entries()) {
      const r = runHeadless(join(app, 'out', `block-${i}.js`));
      expect(r.stderr, `README line ${b.line}`).toBe('');
      expect(r.status, `README line ${b.line}`).toBe(0);
      // Off a terminal the picture is symbols: block elements, no escape sequence of a pixel protocol.
      expect(r.stdout).not.toMatch(/\x1b[P_]|\x1b\]1337/);
    }
  }, 120_000);

  it('every JavaScript block is valid, and those that can run headless run', () => {
    for (const [i, b] of js.entries()) {
      const file = join(app, `block-${i}.mjs`);
      const check = spawnSync(process.execPath, ['--check', file], { encoding: 'utf8' });
      expect(check.stderr, `README line ${b.line}`).toBe('');
      const first = b.code.split('\n')[0] as string;
      if (first in NOT_HEADLESS) continue;
      const r = runHeadless(file);
      expect(r.stderr, `README line ${b.line}`).toBe('');
      expect(r.status, `README line ${b.line}`).toBe(0);
    }
  }, 120_000);
});
