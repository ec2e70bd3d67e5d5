/**
 * Every flag's bad values: one line on stderr saying what was wrong and what is accepted, exit 2,
 * nothing else (no warning flood, no "argument is ambiguous"), in-process and as a real process.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { context } from './show-support.js';

const run = promisify(execFile);
const MAIN = new URL('../../dist/cli/main.js', import.meta.url).pathname;

const WIDTH =
  'a whole number of cells from 1 to 10000, a percentage of the terminal from 1% to 100%, or pixels from 1px to 10000000px';
const HEIGHT =
  'a whole number of rows from 1 to 10000, a percentage of the terminal from 1% to 100%, or pixels from 1px to 10000000px';
/** `demo --width` takes cells only. */
const DEMO_WIDTH = 'a whole number of cells from 1 to 10000';
const TIMEOUT = 'a whole number of milliseconds from 1 to 60000';
const PROTOCOL = /one of kitty, iterm2, sixel, braille, blocks/;

/** `show` needs a file name after its flags; the flags are refused before it is opened. */
const show = (...flags: string[]) => ['show', '--no-probe', ...flags, 'x.png'];

const ROWS: { name: string; args: string[]; message: string | RegExp }[] = [
  { name: '--width -5', args: show('--width', '-5'), message: `--width must be ${WIDTH}, got -5` },
  { name: '--width=-5', args: show('--width=-5'), message: `--width must be ${WIDTH}, got -5` },
  { name: '--width 0', args: show('--width', '0'), message: `--width must be ${WIDTH}, got 0` },
  { name: '--width 10001', args: show('--width', '10001'), message: `--width must be ${WIDTH}, got 10001` },
  { name: '--width 1e9', args: show('--width', '1000000000'), message: `--width must be ${WIDTH}, got 1000000000` },
  { name: '--width 1.5', args: show('--width', '1.5'), message: `--width must be ${WIDTH}, got 1.5` },
  { name: '--width -.5', args: show('--width', '-.5'), message: `--width must be ${WIDTH}, got -.5` },
  { name: '--width 1e3', args: show('--width', '1e3'), message: `--width must be ${WIDTH}, got 1e3` },
  { name: '--width 0x10', args: show('--width', '0x10'), message: `--width must be ${WIDTH}, got 0x10` },
  { name: '--width +5', args: show('--width', '+5'), message: `--width must be ${WIDTH}, got +5` },
  { name: '--width wide', args: show('--width', 'wide'), message: `--width must be ${WIDTH}, got wide` },
  { name: '--width empty', args: show('--width', ''), message: `--width must be ${WIDTH}, got ""` },
  { name: '--width " 5"', args: show('--width', ' 5'), message: `--width must be ${WIDTH}, got " 5"` },
  { name: '--width missing', args: ['show', 'x.png', '--width'], message: `--width needs a value: ${WIDTH}` },
  { name: '--width then a flag', args: show('--width', '--animate'), message: `--width needs a value: ${WIDTH}` },
  { name: '--height -3', args: show('--height', '-3'), message: `--height must be ${HEIGHT}, got -3` },
  { name: '--height 0', args: show('--height', '0'), message: `--height must be ${HEIGHT}, got 0` },
  { name: '--height 99999', args: show('--height', '99999'), message: `--height must be ${HEIGHT}, got 99999` },
  { name: '--height missing', args: ['show', 'x.png', '--height'], message: `--height needs a value: ${HEIGHT}` },
  {
    name: '--timeout 2^31',
    args: ['detect', '--timeout', '2147483648'],
    message: `--timeout must be ${TIMEOUT}, got 2147483648`,
  },
  {
    name: '--timeout 60001',
    args: ['detect', '--timeout', '60001'],
    message: `--timeout must be ${TIMEOUT}, got 60001`,
  },
  {
    name: '--timeout 0',
    args: ['detect', '--no-probe', '--timeout', '0'],
    message: `--timeout must be ${TIMEOUT}, got 0`,
  },
  { name: '--timeout -1', args: ['detect', '--timeout', '-1'], message: `--timeout must be ${TIMEOUT}, got -1` },
  { name: '--timeout soon', args: ['detect', '--timeout', 'soon'], message: `--timeout must be ${TIMEOUT}, got soon` },
  { name: '--timeout missing', args: ['detect', '--timeout'], message: `--timeout needs a value: ${TIMEOUT}` },
  {
    name: 'show --timeout 1e10',
    args: show('--timeout', '10000000000'),
    message: `--timeout must be ${TIMEOUT}, got 10000000000`,
  },
  {
    name: 'demo --width -1',
    args: ['demo', '--no-probe', '--width', '-1'],
    message: `--width must be ${DEMO_WIDTH}, got -1`,
  },
  { name: '--protocol png', args: show('--protocol', 'png'), message: PROTOCOL },
  { name: '--protocol empty', args: show('--protocol', ''), message: /--protocol must be one of .*, got ""\n$/ },
  { name: '--protocol -1', args: show('--protocol', '-1'), message: /--protocol must be one of .*, got -1\n$/ },
  {
    name: '--protocol missing',
    args: ['show', 'x.png', '--protocol'],
    message: /--protocol needs a value: one of kitty/,
  },
  { name: '--json=yes', args: ['detect', '--json=yes'], message: '--json is a switch and takes no value, got yes' },
  { name: '--animate=1', args: show('--animate=1'), message: '--animate is a switch and takes no value, got 1' },
  {
    name: '--no-probe=false',
    args: ['detect', '--no-probe=false'],
    message: '--no-probe is a switch and takes no value, got false',
  },
  { name: 'unknown option', args: ['rules', '--bogus'], message: 'rules: unknown option --bogus; it takes --json' },
  {
    name: 'unknown short option',
    args: ['detect', '-5'],
    message: /^termsight: detect: unknown option -5; it takes --json/,
  },
];

const line = (message: string | RegExp) =>
  typeof message === 'string'
    ? new RegExp(`^termsight: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n$`)
    : message;

describe('bad flag values, in-process', () => {
  it.each(ROWS)('$name', async ({ args, message }) => {
    const { ctx, stdout, stderr } = context();
    expect(await runCli(args, ctx)).toBe(2);
    expect(stderr.text).toMatch(line(message));
    expect(stderr.text.split('\n').filter(Boolean)).toHaveLength(1);
    expect(stdout.text).toBe('');
  });
});

describe('bad flag values, as a process', () => {
  it.each(ROWS)('$name', async ({ args, message }) => {
    const result = await run(process.execPath, [MAIN, ...args], {
      env: { PATH: process.env.PATH ?? '', TERM: 'dumb' },
      timeout: 20_000,
    }).then(
      () => ({ code: 0, stderr: '', stdout: '' }),
      (error: { code: number; stderr: string; stdout: string }) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(line(message));
    // One line: no TimeoutOverflowWarning, no stack trace.
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
    expect(result.stdout).toBe('');
  });
});
