/**
 * The CLI in-process (commands that need no terminal) and as a real process (exit codes, the
 * one-line message for bad usage).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { GRAPHICS_RULES } from '../../src/env/graphics-rules.js';
import { PLACEMENT_RULES } from '../../src/env/placement-rules.js';
import { TERMINALS } from '../../src/terminals/database.js';
import { context } from './show-support.js';

const run = promisify(execFile);
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;
const VERSION = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('termsight (in-process)', () => {
  it.each<{ name: string; args: string[]; code: number; pattern: RegExp; stream: 'stdout' | 'stderr' }>([
    {
      name: '--version',
      args: ['--version'],
      code: 0,
      pattern: new RegExp(`^${VERSION.replace(/\./g, '\\.')}\\n$`),
      stream: 'stdout',
    },
    { name: '--help', args: ['--help'], code: 0, pattern: /Usage:\n\s+termsight detect/, stream: 'stdout' },
    {
      name: 'help for a command',
      args: ['detect', '--help'],
      code: 0,
      pattern: /termsight show FILE/,
      stream: 'stdout',
    },
    {
      name: 'no command',
      args: [],
      code: 2,
      pattern: /^termsight: missing command; try termsight --help\n$/,
      stream: 'stderr',
    },
    {
      name: 'unknown command',
      args: ['frobnicate'],
      code: 2,
      pattern: /^termsight: unknown command "frobnicate"; try termsight --help\n$/,
      stream: 'stderr',
    },
    {
      name: 'unknown flag',
      args: ['detect', '--nope'],
      code: 2,
      pattern:
        /^termsight: detect: unknown option --nope; it takes --json, --record, --no-probe, --tmux-passthrough, --timeout, --trace\n$/,
      stream: 'stderr',
    },
    {
      name: 'bad timeout',
      args: ['detect', '--no-probe', '--timeout', 'soon'],
      code: 2,
      pattern: /^termsight: --timeout must be a whole number of milliseconds from 1 to 60000, got soon\n$/,
      stream: 'stderr',
    },
    {
      name: 'zero timeout',
      args: ['detect', '--no-probe', '--timeout', '0'],
      code: 2,
      pattern: /--timeout must be a whole number of milliseconds from 1 to 60000, got 0/,
      stream: 'stderr',
    },
    {
      name: 'stray argument',
      args: ['rules', 'extra'],
      code: 2,
      pattern: /^termsight: rules: Unexpected argument 'extra'/,
      stream: 'stderr',
    },
  ])('$name', async ({ args, code, pattern, stream }) => {
    const { ctx, stdout, stderr } = context();
    expect(await runCli(args, ctx)).toBe(code);
    expect((stream === 'stdout' ? stdout : stderr).text).toMatch(pattern);
    if (code === 2) expect(stderr.text.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('detect --no-probe --json reports the environment with its reasons', async () => {
    const { ctx, stdout } = context({ env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1', COLORTERM: 'truecolor' } });
    expect(await runCli(['detect', '--no-probe', '--json'], ctx)).toBe(0);
    const report = JSON.parse(stdout.text);
    expect(report).toMatchObject({ graphics: 'kitty', placements: true, truecolor: true, probeMs: null });
    expect(report.why.graphics).toEqual({
      source: 'rule',
      detail: expect.stringContaining('kitty-window-id'),
      rule: 'kitty-window-id',
      row: 'kitty',
      reference: 'https://sw.kovidgoyal.net/kitty/glossary/#envvar-KITTY_WINDOW_ID',
    });
  });

  it('detect describes the terminal itself even when stdout is not a terminal', async () => {
    const { ctx, stdout } = context({ env: { TERM: 'foot' }, stdoutTTY: false });
    await runCli(['detect', '--no-probe', '--json'], ctx);
    expect(JSON.parse(stdout.text).graphics).toBe('sixel');
  });

  it('detect honours TERMSIGHT_GRAPHICS and says so', async () => {
    const { ctx, stdout } = context({ env: { TERM: 'xterm-kitty', TERMSIGHT_GRAPHICS: 'off' } });
    await runCli(['detect', '--no-probe', '--json'], ctx);
    const report = JSON.parse(stdout.text);
    expect(report.graphics).toBeNull();
    expect(report.why.graphics).toMatchObject({ source: 'override', detail: 'TERMSIGHT_GRAPHICS=off: draw no images' });
  });

  // The text picture: symbols where text has colour, braille under NO_COLOR.
  it.each<{ name: string; env: Record<string, string>; tty: boolean; styled: boolean; picture: string }>([
    { name: 'a terminal gets bold labels', env: {}, tty: true, styled: true, picture: 'symbols' },
    { name: 'NO_COLOR makes it plain', env: { NO_COLOR: '1' }, tty: true, styled: false, picture: 'braille' },
    { name: 'a pipe gets plain text', env: {}, tty: false, styled: false, picture: 'symbols' },
  ])('detect text: $name', async ({ env, tty, styled, picture }) => {
    const { ctx, stdout } = context({ env: { TERM: 'xterm-256color', ...env }, stdoutTTY: tty });
    await runCli(['detect', '--no-probe'], ctx);
    expect(stdout.text.includes('\x1b[')).toBe(styled);
    expect(stdout.text).toMatch(/^(\x1b\[1m)?graphics/m);
    expect(stdout.text).toMatch(new RegExp(`${picture}\\s+(\x1b\\[2m)?default: no rule matched`));
  });

  it('rules lists every rule in priority order, and --json gives the table', async () => {
    const text = context();
    await runCli(['rules'], text.ctx);
    const positions = GRAPHICS_RULES.map((r) => text.stdout.text.indexOf(` ${r.id} `));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Every row cites a document a reader can open, never an internal name.
    expect(text.stdout.text).not.toMatch(/\[seed\]/);
    expect(text.stdout.text.match(/\[https:\/\/[^\]]+\]/g)?.length).toBe(
      GRAPHICS_RULES.length + PLACEMENT_RULES.length,
    );
    const json = context();
    await runCli(['rules', '--json'], json.ctx);
    expect(JSON.parse(json.stdout.text).graphics.map((r: { id: string }) => r.id)).toEqual(
      GRAPHICS_RULES.map((r) => r.id),
    );
  });

  it('rules prints the whole terminal database after the tables, and --json gives every row', async () => {
    const text = context();
    await runCli(['rules'], text.ctx);
    const table = text.stdout.text.slice(text.stdout.text.indexOf('terminals (the database'));
    expect(table.length).toBeGreaterThan(0);
    const lines = table.split('\n');
    for (const row of TERMINALS) expect(lines.some((line) => line.startsWith(`  ${row.name} `))).toBe(true);
    expect(table).toMatch(/^ {2}kitty +kitty +placements, placeholders 0\.28\+/m);
    expect(table).toMatch(/^ {2}tmux +sixel 3\.4\+ \(DA1 4\) .*passthrough 3\.3\+/m);
    const json = context();
    await runCli(['rules', '--json'], json.ctx);
    expect(JSON.parse(json.stdout.text).terminals).toEqual(JSON.parse(JSON.stringify(TERMINALS)));
  });
});

describe('termsight (as a process)', () => {
  it.each<{ name: string; args: string[]; code: number; out: RegExp }>([
    {
      name: '--version prints the version',
      args: ['--version'],
      code: 0,
      out: new RegExp(`^${VERSION.replace(/\./g, '\\.')}\\n$`),
    },
    { name: 'an unknown flag', args: ['detect', '--bogus'], code: 2, out: /^$/ },
    { name: 'show without a file', args: ['show'], code: 2, out: /^$/ },
  ])('$name: $args exits $code', async ({ args, code, out }) => {
    const result = await run(process.execPath, [MAIN, ...args], { env: { PATH: process.env.PATH, TERM: 'dumb' } }).then(
      (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
      (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
    );
    expect(result.code).toBe(code);
    expect(result.stdout).toMatch(out);
    if (code === 2) expect(result.stderr).toMatch(/^termsight: .+\n$/);
  });

  it('detect --json with no terminal at all answers from the environment', async () => {
    // setsid-less child with piped stdio: /dev/tty may still exist here, so force the environment answer.
    const { stdout } = await run(process.execPath, [MAIN, 'detect', '--json', '--no-probe'], {
      env: { PATH: process.env.PATH, TERM: 'xterm-kitty' },
    });
    expect(JSON.parse(stdout)).toMatchObject({ graphics: 'kitty', probeMs: null });
  });
});
