/**
 * Every case of supports-hyperlinks' own test suite (test.js), as rows of data, asked of the pure
 * form and, through the oracle, of supports-hyperlinks 4.6.0 and termsight's drop-in in a fresh
 * process each. Upstream's harness replaces process.env after supports-color has kept its own
 * reference to the runner's environment, so its colour gate sees the runner's terminal; here every
 * row runs as one consistent process, with that colour context written out (COLORTERM=truecolor,
 * which only the colour gate reads).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hyperlinksSupported, parseVersion } from '../../src/compat/hyperlinks.js';
import { type Oracle, startOracle } from './oracle.js';

interface Row {
  name: string;
  env?: Record<string, string>;
  argv?: string[];
  platform?: string;
  /** The stream handed in: none (undefined), or one with this isTTY. */
  stream?: boolean;
  supported: boolean;
}

const ROWS: Row[] = [
  {
    name: 'supported iTerm.app 3.1, tty stream',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.1.0' },
    stream: true,
    supported: true,
  },
  {
    name: 'supported iTerm.app 3.1, no stream supplied',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.1.0' },
    supported: true,
  },
  {
    name: 'supported iTerm.app 4.0, no stream supplied',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '4.0.0' },
    supported: true,
  },
  {
    name: 'not supported iTerm 3.0, tty stream',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.0' },
    stream: true,
    supported: false,
  },
  {
    name: 'not supported iTerm 3.1, non-tty stream',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.1.0' },
    stream: false,
    supported: false,
  },
  {
    name: 'WezTerm 20200620 no stream supplied',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200620-160318-e00b076c' },
    supported: true,
  },
  {
    name: 'not supported WezTerm 20200608 no stream supplied',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200608-110940-3fb3a61' },
    supported: false,
  },
  {
    name: 'supported WezTerm 20200620, tty stream',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200620-160318-e00b076c' },
    stream: true,
    supported: true,
  },
  {
    name: 'not supported WezTerm 20200608, tty stream',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200608-110940-3fb3a61' },
    stream: true,
    supported: false,
  },
  {
    name: 'supported WezTerm 20200620 packaged by Nix, tty stream',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '0-unstable-2020-06-20' },
    stream: true,
    supported: true,
  },
  {
    name: 'not supported WezTerm 20200608 packaged by Nix, tty stream',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '0-unstable-2020-06-08' },
    stream: true,
    supported: false,
  },
  {
    name: 'not supported vscode <= 1.0 no stream supplied',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '0.72.0' },
    supported: false,
  },
  {
    name: 'not supported vscode <= 1.0 tty stream',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '0.72.0' },
    stream: true,
    supported: false,
  },
  {
    name: 'supported vscode 2.70.0 no stream supplied',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '2.70.0' },
    supported: true,
  },
  {
    name: 'supported vscode 2.70.0 tty stream',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '2.70.0' },
    stream: true,
    supported: true,
  },
  {
    name: 'not supported vscode 1.0 no stream supplied',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.0.0' },
    supported: false,
  },
  {
    name: 'not supported vscode 1.0 tty stream',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.0.0' },
    stream: true,
    supported: false,
  },
  {
    name: 'supported vscode >= 1.72.0 no stream supplied',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.72.0' },
    supported: true,
  },
  {
    name: 'supported vscode >= 1.72.0 tty stream',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.72.0' },
    stream: true,
    supported: true,
  },
  {
    name: 'supported Cursor (vscode fork) no stream supplied',
    env: { CURSOR_TRACE_ID: 'some-trace-id', TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '0.49.6' },
    supported: true,
  },
  {
    name: 'supported Cursor (vscode fork) tty stream',
    env: { CURSOR_TRACE_ID: 'some-trace-id', TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '0.49.6' },
    stream: true,
    supported: true,
  },
  { name: 'supported ghostty no stream supplied', env: { TERM_PROGRAM: 'ghostty' }, supported: true },
  { name: 'supported ghostty tty stream', env: { TERM_PROGRAM: 'ghostty' }, stream: true, supported: true },
  { name: 'not supported in VTE 0.50.0', env: { VTE_VERSION: '0.50.0' }, supported: false },
  { name: 'supported in VTE 0.50.1', env: { VTE_VERSION: '0.50.1' }, supported: true },
  { name: 'supported in VTE 0.51.0', env: { VTE_VERSION: '0.51.0' }, supported: true },
  { name: 'supported in VTE 1.0.0', env: { VTE_VERSION: '1.0.0' }, supported: true },
  { name: 'not supported in VTE 4601 (0.46.1)', env: { VTE_VERSION: '4601' }, supported: false },
  { name: 'supported in VTE 5105 (0.51.5)', env: { VTE_VERSION: '5105' }, supported: true },
  { name: 'supported in alacritty', env: { TERM: 'alacritty' }, supported: true },
  { name: 'supported in kitty', env: { TERM: 'xterm-kitty' }, supported: true },
  { name: 'supported zed no stream supplied', env: { TERM_PROGRAM: 'zed' }, supported: true },
  { name: 'supported zed tty stream', env: { TERM_PROGRAM: 'zed' }, stream: true, supported: true },
  { name: 'empty env not supported', supported: false },
  // Upstream marks this test.failing: its harness changes argv after supports-color sniffed it. In a
  // process started with --no-color, the colour gate closes and the answer is false.
  { name: 'no-color flag disables support', argv: ['--no-color'], env: { VTE_VERSION: '1.0.0' }, supported: false },
  { name: 'not supported if no environment variables are set', supported: false },
  { name: 'supported if hyperlink=true flag is set', argv: ['--hyperlink=true'], supported: true },
  { name: 'supported if hyperlink=always flag is set', argv: ['--hyperlink=always'], supported: true },
  {
    name: 'hyperlink=false flag disables support',
    argv: ['--hyperlink=false'],
    env: { VTE_VERSION: '1.0.0' },
    supported: false,
  },
  {
    name: 'hyperlink=never flag disables support',
    argv: ['--hyperlink=never'],
    env: { VTE_VERSION: '1.0.0' },
    supported: false,
  },
  {
    name: 'no-hyperlink flag disables support',
    argv: ['--no-hyperlink'],
    env: { VTE_VERSION: '1.0.0' },
    supported: false,
  },
  {
    name: 'no-hyperlinks flag disables support',
    argv: ['--no-hyperlinks'],
    env: { VTE_VERSION: '1.0.0' },
    supported: false,
  },
  {
    name: 'hyperlink=always flag takes precedence over no-color flags',
    argv: ['--no-color', '--hyperlink=always'],
    env: { VTE_VERSION: '1.0.0' },
    supported: true,
  },
  { name: 'not supported on win32 platform', platform: 'win32', env: { VTE_VERSION: '1.0.0' }, supported: false },
  {
    name: 'hyperlink=always forces support on win32 platform',
    argv: ['--hyperlink=always'],
    platform: 'win32',
    supported: true,
  },
  { name: 'disabled in CI', env: { CI: 'Travis', VTE_VERSION: '1.0.0' }, supported: false },
  { name: 'disabled in TEAMCITY', env: { TEAMCITY_VERSION: '10.2.0', VTE_VERSION: '1.0.0' }, supported: false },
  { name: 'enabled in Netlify build logs', env: { CI: 'true', NETLIFY: 'true' }, supported: true },
  {
    name: 'not supported if TERM_PROGRAM exists, but TERM_VERSION does not',
    env: { TERM_PROGRAM: 'iTerm.app' },
    supported: false,
  },
  { name: 'FORCE_HYPERLINK=1 forces hyperlink support', env: { FORCE_HYPERLINK: '1' }, supported: true },
  {
    name: 'FORCE_HYPERLINK=0 disables hyperlink support',
    argv: ['--hyperlink=always'],
    env: { FORCE_HYPERLINK: '0' },
    supported: false,
  },
  // Beyond upstream's suite: the rules 4.6.0 added and the kept quirks, confirmed by the oracle.
  {
    name: 'quirk kept: VTE_VERSION=5000 (VTE 0.50.0, which crashes on OSC 8) answers true',
    env: { VTE_VERSION: '5000' },
    supported: true,
  },
  {
    name: 'Windows Terminal (WT_SESSION) on win32',
    platform: 'win32',
    env: { WT_SESSION: 'x' },
    stream: true,
    supported: true,
  },
  {
    name: 'quirk kept: WT_SESSION exported empty still counts',
    env: { WT_SESSION: '' },
    stream: true,
    supported: true,
  },
  { name: 'Orca', env: { TERM_PROGRAM: 'Orca' }, supported: true },
  { name: 'WarpTerminal', env: { TERM_PROGRAM: 'WarpTerminal' }, supported: true },
  { name: 'FORCE_HYPERLINK=00 disables', env: { FORCE_HYPERLINK: '00', TERM_PROGRAM: 'ghostty' }, supported: false },
  {
    name: 'FORCE_HYPERLINK=false enables (only a number 0 disables)',
    env: { FORCE_HYPERLINK: 'false' },
    supported: true,
  },
  {
    name: 'FORCE_COLOR=0 closes the colour gate',
    env: { FORCE_COLOR: '0', TERM_PROGRAM: 'ghostty' },
    supported: false,
  },
  { name: 'TERM=dumb closes the colour gate', env: { TERM: 'dumb', TERM_PROGRAM: 'ghostty' }, supported: false },
];

let oracle: Oracle;
beforeAll(async () => {
  oracle = await startOracle();
});
afterAll(() => oracle?.close());

describe('supports-hyperlinks 4.6 suite, as data', () => {
  it.each(ROWS)('$name → $supported', async (row) => {
    const env = { COLORTERM: 'truecolor', ...row.env };
    const argv = ['/usr/bin/node', ...(row.argv ?? [])];
    const platform = row.platform ?? 'darwin';
    const stream = row.stream === undefined ? null : { isTTY: row.stream };
    expect(hyperlinksSupported({ env, argv, platform, isTTY: { stdout: true } }, stream)).toBe(row.supported);

    const { incumbent, termsight } = await oracle.ask({
      env,
      argv,
      platform,
      osRelease: '10.0.22631',
      stdoutTTY: true,
      stderrTTY: false,
      stream: row.stream === undefined ? 'none' : row.stream ? 'tty' : 'notty',
      link: { text: 'x', url: 'https://x.dev', fallback: 'default' },
    });
    expect(incumbent.hyperlinks).toBe(row.supported);
    expect(termsight.hyperlinks).toBe(incumbent.hyperlinks);
    expect(termsight.hyperlinksDefault).toEqual(incumbent.hyperlinksDefault);
  });

  it.each([
    { name: 'VTE 4601 as a number', text: '4601', version: { major: 0, minor: 46, patch: 1 } },
    { name: 'VTE 5000 as a number', text: '5000', version: { major: 0, minor: 50, patch: 0 } },
    { name: 'dotted 0.50.0', text: '0.50.0', version: { major: 0, minor: 50, patch: 0 } },
    { name: 'dotted 3.1.0', text: '3.1.0', version: { major: 3, minor: 1, patch: 0 } },
  ])('parseVersion: $name ($text)', ({ text, version }) => {
    expect(parseVersion(text)).toEqual(version);
  });

  it('stream names read the runtime: stderr not a TTY means no links there', () => {
    const runtime = {
      env: { TERM_PROGRAM: 'ghostty', COLORTERM: 'truecolor' },
      isTTY: { stdout: true, stderr: false },
    };
    expect([
      hyperlinksSupported(runtime, 'stdout'),
      hyperlinksSupported(runtime, 'stderr'),
      hyperlinksSupported(runtime),
    ]).toEqual([true, false, true]);
  });
});
