/**
 * Differential property test: on generated runtimes (environments built from the variables and
 * values the incumbents' rules read, argv flags, TTY or not, platforms, streams), termsight's
 * drop-ins answer exactly as supports-color 10.2.2, supports-hyperlinks 4.6.0 and terminal-link
 * 5.0.0 do, both the pure forms (handed the runtime) and the process-facing APIs (which the oracle
 * imports fresh under the same process state as the incumbents).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colorLevel, translateLevel } from '../../src/compat/color-level.js';
import { hyperlinksSupported } from '../../src/compat/hyperlinks.js';
import { terminalLinkFor } from '../../src/compat/link-format.js';
import type { Runtime } from '../../src/env/runtime.js';
import { type Answer, FALLBACK_FN, type Oracle, type Question, startOracle } from './oracle.js';

/** Values worth trying for each variable the incumbents read ('' is "exported empty"). */
const VALUES: Record<string, readonly string[]> = {
  FORCE_COLOR: ['', '0', '1', '2', '3', '4', 'true', 'false', '-1', 'x', ' 2', '1.5'],
  TF_BUILD: ['', 'True'],
  AGENT_NAME: ['', 'Hosted Agent'],
  TERM: [
    '',
    'dumb',
    'xterm',
    'xterm-256color',
    'screen',
    'screen-256color',
    'tmux-256color',
    'xterm-kitty',
    'xterm-ghostty',
    'wezterm',
    'alacritty',
    'linux',
    'vt100',
    'rxvt-unicode',
    'cygwin',
    'putty-256color',
    'foot',
    'ansi',
    'Eterm-color',
    'vt220-256',
  ],
  COLORTERM: ['', 'truecolor', '24bit', '1'],
  CI: ['', 'true', 'false', '1'],
  GITHUB_ACTIONS: ['', 'true'],
  GITEA_ACTIONS: ['true'],
  CIRCLECI: ['true'],
  TRAVIS: ['1', ''],
  APPVEYOR: ['True'],
  GITLAB_CI: ['true'],
  BUILDKITE: ['true'],
  DRONE: ['true'],
  CI_NAME: ['codeship', 'other', ''],
  TEAMCITY_VERSION: ['', '9.0.5 (build 32523)', '9.1.0 (build 32523)', '10.2.0', '2023.05', '9.01.2', '8.1'],
  TERM_PROGRAM: [
    '',
    'iTerm.app',
    'Apple_Terminal',
    'WezTerm',
    'vscode',
    'ghostty',
    'zed',
    'Orca',
    'WarpTerminal',
    'Hyper',
    'tmux',
    'other',
  ],
  TERM_PROGRAM_VERSION: [
    '',
    '3.0.10',
    '3.1.0',
    '2.9.3',
    '4.0.0',
    '3',
    '1.72.0',
    '1.71.9',
    '0.72.0',
    '2.70.0',
    '20200620-160318-e00b076c',
    '20200608-110940-3fb3a61',
    '0-unstable-2020-06-20',
    '0-unstable-2020-06-08',
    '1234',
    '3.5.0beta',
  ],
  FORCE_HYPERLINK: ['', '0', '1', 'true', 'false', '00', ' 0', 'x'],
  NETLIFY: ['', 'true'],
  WT_SESSION: ['', 'f00-ba5'],
  CURSOR_TRACE_ID: ['', 'abc'],
  VTE_VERSION: ['', '0.50.0', '0.50.1', '5000', '4601', '5105', '7600', '1.0.0', '0.49.9', '123', '12345'],
  TMUX: ['', '/tmp/tmux-1000/default,1234,0'],
};

/** TERM (usually set, and it opens the colour gate the hyperlink rules sit behind) plus a few others. */
const fewVariables = fc
  .tuple(
    fc.option(fc.constantFrom(...VALUES.TERM!), { freq: 4 }),
    fc.uniqueArray(fc.constantFrom(...Object.keys(VALUES).filter((name) => name !== 'TERM')), { maxLength: 3 }),
  )
  .chain(([term, names]) =>
    fc
      .tuple(...names.map((name) => fc.constantFrom(...VALUES[name]!).map((value) => [name, value] as const)))
      .map(
        (pairs) =>
          ({ ...(term === null ? {} : { TERM: term }), ...Object.fromEntries(pairs) }) as Record<string, string>,
      ),
  );
const manyVariables = fc.record(
  Object.fromEntries(Object.entries(VALUES).map(([name, values]) => [name, fc.constantFrom(...values)])),
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;
const envArb = fc.oneof({ arbitrary: fewVariables, weight: 3 }, { arbitrary: manyVariables, weight: 1 });

const FLAGS = [
  '--no-color',
  '--no-colors',
  '--color=false',
  '--color=never',
  '--color',
  '--colors',
  '--color=true',
  '--color=always',
  '--color=256',
  '--color=16m',
  '--color=full',
  '--color=truecolor',
  '--no-hyperlink',
  '--no-hyperlinks',
  '--hyperlink=false',
  '--hyperlink=never',
  '--hyperlink=true',
  '--hyperlink=always',
  '--',
  'color',
  '-c',
];

/** Printable text without controls or bidi marks (the inputs where output must be byte-identical). */
const plain = fc.string({
  unit: fc.constantFrom('a', 'Z', ' ', '/', ':', ';', '.', '?', '=', '&', '%', '#', 'é', '世', '🙂'),
  maxLength: 12,
});

const questionArb: fc.Arbitrary<Question> = fc.record({
  env: envArb,
  argv: fc
    .oneof(fc.constant([]), fc.array(fc.constantFrom(...FLAGS), { maxLength: 3 }))
    .map((flags) => ['/usr/bin/node', '/app/cli.js', ...flags]),
  platform: fc.constantFrom('linux', 'darwin', 'win32', 'freebsd'),
  osRelease: fc.constantFrom(
    '10.0.10240',
    '10.0.10586',
    '10.0.14931',
    '10.0.22631',
    '6.1.0',
    '6.8.0-45-generic',
    '8.1',
  ),
  stdoutTTY: fc.boolean(),
  stderrTTY: fc.boolean(),
  stream: fc.constantFrom('none' as const, 'tty' as const, 'tty' as const, 'notty' as const),
  sniffFlags: fc.constantFrom(undefined, true, false),
  link: fc.record(
    {
      text: fc.oneof(fc.constantFrom('Docs', 'My Website', ''), plain),
      url: fc.oneof(
        fc.constantFrom('https://x.dev', 'https://sindresorhus.com', ''),
        plain.map((p) => `https://x.dev/${p}`),
      ),
      target: fc.constantFrom(undefined, 'stdout', 'stderr', 'elsewhere'),
      fallback: fc.constantFrom('default' as const, 'false' as const, 'true' as const, 'fn' as const),
    },
    { requiredKeys: ['text', 'url', 'fallback'] },
  ),
});

const FALLBACKS = { default: undefined, false: false, true: true, fn: FALLBACK_FN } as const;

/** The pure forms' answers for a question, shaped like the oracle's. */
function pureAnswer(q: Question): Answer {
  const runtime: Runtime = {
    env: q.env,
    argv: q.argv,
    platform: q.platform,
    isTTY: { stdout: q.stdoutTTY, stderr: q.stderrTTY },
  };
  const stream = q.stream === 'none' ? null : { isTTY: q.stream === 'tty' };
  const fallback = FALLBACKS[q.link.fallback];
  return {
    color: translateLevel(colorLevel(runtime, { stream, sniffFlags: q.sniffFlags, osRelease: q.osRelease })),
    colorDefault: {
      stdout: translateLevel(colorLevel(runtime, { stream: 'stdout', osRelease: q.osRelease })),
      stderr: translateLevel(colorLevel(runtime, { stream: 'stderr', osRelease: q.osRelease })),
    },
    hyperlinks: hyperlinksSupported(runtime, stream),
    hyperlinksDefault: {
      stdout: hyperlinksSupported(runtime, 'stdout'),
      stderr: hyperlinksSupported(runtime, 'stderr'),
    },
    link: terminalLinkFor(runtime, q.link.text, q.link.url, {
      fallback,
      ...(q.link.target === undefined ? {} : { target: q.link.target }),
    }),
    linkStderr: terminalLinkFor(runtime, q.link.text, q.link.url, { target: 'stderr', fallback }),
    linkSupported: { stdout: hyperlinksSupported(runtime, 'stdout'), stderr: hyperlinksSupported(runtime, 'stderr') },
  };
}

let oracle: Oracle;
beforeAll(async () => {
  oracle = await startOracle();
});
afterAll(() => oracle?.close());

describe('drop-ins against the incumbents on generated runtimes', () => {
  it('pure forms and process-facing APIs answer as supports-color 10.2.2, supports-hyperlinks 4.6.0, terminal-link 5.0.0', async () => {
    await fc.assert(
      fc.asyncProperty(questionArb, async (q) => {
        const { incumbent, termsight } = await oracle.ask(q);
        expect(termsight).toEqual(incumbent);
        expect(pureAnswer(q)).toEqual(incumbent);
      }),
      { numRuns: 800 },
    );
    // 800 round trips to the incumbents' process: about 20 s alone, more beside other suites on 2 cores.
  }, 120_000);

  it('the generator reaches every answer (so the property is not vacuous)', async () => {
    const seen = { level: new Set<number>(), hyperlinks: new Set<boolean>(), linked: new Set<boolean>() };
    for (const q of fc.sample(questionArb, { numRuns: 150, seed: 7 })) {
      const { incumbent } = await oracle.ask(q);
      seen.level.add(incumbent.color === false ? 0 : (incumbent.color as { level: number }).level);
      seen.hyperlinks.add(incumbent.hyperlinks);
      seen.linked.add(incumbent.link.includes('\u001b]8;;'));
    }
    expect([...seen.level].sort()).toEqual([0, 1, 2, 3]);
    expect([...seen.hyperlinks].sort()).toEqual([false, true]);
    expect([...seen.linked].sort()).toEqual([false, true]);
  });
});
