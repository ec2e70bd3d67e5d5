/**
 * supports-terminal-graphics 0.1.0: every case of its own test suite (test.js, rewritten as rows of
 * data), asked of the installed incumbent, of the pure form and of the process-facing drop-in; then
 * a differential property test on generated environments built from the variables its rules read.
 * Where termsight answers differently the row names the correction, and the differential test
 * excludes exactly the environments where a correction applies (and checks what it does there).
 */
import fc from 'fast-check';
import incumbentDefault, { createSupportsTerminalGraphics as incumbentCreate } from 'supports-terminal-graphics';
import { describe, expect, it } from 'vitest';
import supportsTerminalGraphics, {
  createSupportsTerminalGraphics,
} from '../../src/compat/supports-terminal-graphics.js';
import {
  GRAPHICS_CORRECTIONS,
  graphicsFromReport,
  graphicsSupport,
  incumbentGraphicsSupport,
  type TerminalGraphicsSupport,
} from '../../src/compat/terminal-graphics.js';

type Partial3 = Partial<TerminalGraphicsSupport>;

interface Row {
  readonly name: string;
  readonly env: Record<string, string>;
  readonly stream?: { isTTY?: boolean };
  /** What the incumbent's test asserts (and the incumbent answers). */
  readonly expect: Partial3;
  /** Where termsight answers differently: its answer, and the correction that makes it. */
  readonly termsight?: Partial3;
  readonly correction?: string;
}

// Upstream's getSupport: process.env replaced by the row's env, the stream as given (none by default).
const ROWS: Row[] = [
  { name: 'kitty: supported with KITTY_WINDOW_ID', env: { KITTY_WINDOW_ID: '1' }, expect: { kitty: true } },
  { name: 'kitty: supported with KITTY_PID', env: { KITTY_PID: '12345' }, expect: { kitty: true } },
  {
    name: 'kitty: supported with GHOSTTY_RESOURCES_DIR',
    env: { GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' },
    expect: { kitty: true },
  },
  { name: 'kitty: supported with WEZTERM_PANE', env: { WEZTERM_PANE: '0' }, expect: { kitty: true } },
  {
    name: 'kitty: supported with WEZTERM_UNIX_SOCKET',
    env: { WEZTERM_UNIX_SOCKET: '/tmp/wezterm.sock' },
    expect: { kitty: true },
  },
  { name: 'kitty: supported with LC_TERMINAL=WezTerm', env: { LC_TERMINAL: 'WezTerm' }, expect: { kitty: true } },
  { name: 'kitty: supported with TERM_PROGRAM=kitty', env: { TERM_PROGRAM: 'kitty' }, expect: { kitty: true } },
  { name: 'kitty: supported with TERM_PROGRAM=ghostty', env: { TERM_PROGRAM: 'ghostty' }, expect: { kitty: true } },
  { name: 'kitty: supported with TERM_PROGRAM=WezTerm', env: { TERM_PROGRAM: 'WezTerm' }, expect: { kitty: true } },
  {
    name: 'kitty: supported with TERM_PROGRAM=iTerm.app version 3.6+',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.6.0' },
    expect: { kitty: true },
    termsight: { kitty: false },
    correction: 'iterm2-never-kitty',
  },
  {
    name: 'kitty: not supported with TERM_PROGRAM=iTerm.app version 3.5',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
    expect: { kitty: false },
  },
  {
    name: 'kitty: not supported with TERM_PROGRAM=iTerm.app without version',
    env: { TERM_PROGRAM: 'iTerm.app' },
    expect: { kitty: false },
  },
  {
    name: 'kitty: supported with TERM_PROGRAM=Konsole and new version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '220400' },
    expect: { kitty: true },
  },
  {
    name: 'kitty: not supported with TERM_PROGRAM=Konsole and old version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '210000' },
    expect: { kitty: false },
  },
  {
    name: 'kitty: not supported with TERM_PROGRAM=Konsole and no version',
    env: { TERM_PROGRAM: 'Konsole' },
    expect: { kitty: false },
  },
  { name: 'kitty: supported with TERM_PROGRAM=rio', env: { TERM_PROGRAM: 'rio' }, expect: { kitty: true } },
  {
    name: 'kitty: supported with TERM_PROGRAM=WarpTerminal',
    env: { TERM_PROGRAM: 'WarpTerminal' },
    expect: { kitty: true },
  },
  { name: 'kitty: supported with TERM=xterm-kitty', env: { TERM: 'xterm-kitty' }, expect: { kitty: true } },
  { name: 'kitty: supported with TERM=xterm-ghostty', env: { TERM: 'xterm-ghostty' }, expect: { kitty: true } },
  {
    name: 'kitty: supported with KONSOLE_VERSION >= 220400',
    env: { KONSOLE_VERSION: '220400' },
    expect: { kitty: true },
  },
  {
    name: 'kitty: not supported with old KONSOLE_VERSION',
    env: { KONSOLE_VERSION: '210000' },
    expect: { kitty: false },
  },
  {
    name: 'kitty: not supported with non-tty stream',
    env: { TERM_PROGRAM: 'kitty' },
    stream: { isTTY: false },
    expect: { kitty: false },
  },
  { name: 'kitty: not supported with empty env', env: {}, expect: { kitty: false } },
  {
    name: 'iterm2: supported with iTerm.app version 2.9.20150512+',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '2.9.20150512' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: not supported with iTerm.app version 2.9.20150511',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '2.9.20150511' },
    expect: { iterm2: false },
  },
  { name: 'iterm2: supported with TERM_PROGRAM=WezTerm', env: { TERM_PROGRAM: 'WezTerm' }, expect: { iterm2: true } },
  {
    name: 'iterm2: not supported with WezTerm version before 20220319',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20220318-000000-00000000' },
    expect: { iterm2: false },
  },
  {
    name: 'iterm2: supported with WezTerm version 20220319+',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20220319-142410-0fcdea07' },
    expect: { iterm2: true },
  },
  { name: 'iterm2: supported with WEZTERM_PANE', env: { WEZTERM_PANE: '0' }, expect: { iterm2: true } },
  {
    name: 'iterm2: supported with WEZTERM_UNIX_SOCKET',
    env: { WEZTERM_UNIX_SOCKET: '/tmp/wezterm.sock' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: supported with vscode version 1.80+',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.80.0' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: supported with vscode version 2.0',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '2.0.0' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: not supported with vscode version 1.79',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.79.0' },
    expect: { iterm2: false },
  },
  { name: 'iterm2: supported with TERM_PROGRAM=mintty', env: { TERM_PROGRAM: 'mintty' }, expect: { iterm2: true } },
  {
    name: 'iterm2: supported with TERM_PROGRAM=Konsole and new version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '220400' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: not supported with TERM_PROGRAM=Konsole and old version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '210000' },
    expect: { iterm2: false },
  },
  {
    name: 'iterm2: supported with rio version 0.1.13+',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '0.1.13' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: supported with rio version 0.2.0',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '0.2.0' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: supported with rio version 1.0.0',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '1.0.0' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: not supported with rio version 0.1.12',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '0.1.12' },
    expect: { iterm2: false },
  },
  { name: 'iterm2: supported with LC_TERMINAL=iTerm2', env: { LC_TERMINAL: 'iTerm2' }, expect: { iterm2: true } },
  { name: 'iterm2: supported with LC_TERMINAL=WezTerm', env: { LC_TERMINAL: 'WezTerm' }, expect: { iterm2: true } },
  {
    name: 'iterm2: supported with KONSOLE_VERSION >= 220400',
    env: { KONSOLE_VERSION: '220400' },
    expect: { iterm2: true },
  },
  {
    name: 'iterm2: not supported with non-tty stream',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.0' },
    stream: { isTTY: false },
    expect: { iterm2: false },
  },
  { name: 'iterm2: not supported with empty env', env: {}, expect: { iterm2: false } },
  { name: 'sixel: supported with TERM_PROGRAM=WezTerm', env: { TERM_PROGRAM: 'WezTerm' }, expect: { sixel: true } },
  {
    name: 'sixel: not supported with WezTerm version before 20200620',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200619-000000-00000000' },
    expect: { sixel: false },
  },
  {
    name: 'sixel: supported with WezTerm version 20200620+',
    env: { TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20200620-160318-e00b076c' },
    expect: { sixel: true },
  },
  { name: 'sixel: supported with WEZTERM_PANE', env: { WEZTERM_PANE: '0' }, expect: { sixel: true } },
  {
    name: 'sixel: supported with WEZTERM_UNIX_SOCKET',
    env: { WEZTERM_UNIX_SOCKET: '/tmp/wezterm.sock' },
    expect: { sixel: true },
  },
  { name: 'sixel: supported with TERM=mlterm', env: { TERM: 'mlterm' }, expect: { sixel: true } },
  { name: 'sixel: supported with TERM=mlterm-256color', env: { TERM: 'mlterm-256color' }, expect: { sixel: true } },
  {
    name: 'sixel: supported with vscode version 1.80+',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.80.0' },
    expect: { sixel: true },
  },
  {
    name: 'sixel: not supported with vscode version 1.79',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.79.0' },
    expect: { sixel: false },
  },
  { name: 'sixel: supported with TERM_PROGRAM=mintty', env: { TERM_PROGRAM: 'mintty' }, expect: { sixel: true } },
  {
    name: 'sixel: supported with TERM_PROGRAM=rio version 0.1.12+',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '0.1.12' },
    expect: { sixel: true },
  },
  {
    name: 'sixel: not supported with TERM_PROGRAM=rio version 0.1.11',
    env: { TERM_PROGRAM: 'rio', TERM_PROGRAM_VERSION: '0.1.11' },
    expect: { sixel: false },
  },
  {
    name: 'sixel: supported with TERM_PROGRAM=Konsole and new version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '220400' },
    expect: { sixel: true },
  },
  {
    name: 'sixel: not supported with TERM_PROGRAM=Konsole and old version',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '210000' },
    expect: { sixel: false },
  },
  {
    name: 'sixel: not supported with iTerm.app',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.0.0' },
    expect: { sixel: false },
  },
  {
    name: 'sixel: supported with KONSOLE_VERSION >= 220400',
    env: { KONSOLE_VERSION: '220400' },
    expect: { sixel: true },
  },
  {
    name: 'sixel: not supported with non-tty stream',
    env: { TERM_PROGRAM: 'WezTerm' },
    stream: { isTTY: false },
    expect: { sixel: false },
  },
  { name: 'sixel: not supported with empty env', env: {}, expect: { sixel: false } },
  {
    name: 'WezTerm supports all three protocols',
    env: { TERM_PROGRAM: 'WezTerm' },
    expect: { kitty: true, iterm2: true, sixel: true },
  },
  {
    name: 'Ghostty detected via GHOSTTY_RESOURCES_DIR only supports kitty',
    env: { GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' },
    expect: { kitty: true, iterm2: false, sixel: false },
  },
  { name: 'mlterm only supports sixel', env: { TERM: 'mlterm' }, expect: { kitty: false, iterm2: false, sixel: true } },
  {
    name: 'Kitty only supports kitty protocol',
    env: { TERM_PROGRAM: 'kitty' },
    expect: { kitty: true, iterm2: false, sixel: false },
  },
  {
    name: 'Ghostty only supports kitty protocol',
    env: { TERM_PROGRAM: 'ghostty' },
    expect: { kitty: true, iterm2: false, sixel: false },
  },
  {
    name: 'VS Code 1.80+ supports iterm2 and sixel but not kitty',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.80.0' },
    expect: { kitty: false, iterm2: true, sixel: true },
  },
  {
    name: 'Konsole 22.04+ supports all three protocols',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '220400' },
    expect: { kitty: true, iterm2: true, sixel: true },
  },
  {
    name: 'Old Konsole supports nothing',
    env: { TERM_PROGRAM: 'Konsole', KONSOLE_VERSION: '210000' },
    expect: { kitty: false, iterm2: false, sixel: false },
  },
  {
    name: 'iTerm2 3.6+ supports kitty and iterm2',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.6.0' },
    expect: { kitty: true, iterm2: true, sixel: false },
    termsight: { kitty: false },
    correction: 'iterm2-never-kitty',
  },
  {
    name: 'iTerm2 3.4 supports iterm2 but not kitty or sixel',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.0' },
    expect: { kitty: false, iterm2: true, sixel: false },
  },
  {
    name: 'iTerm.app without version returns false for iterm2',
    env: { TERM_PROGRAM: 'iTerm.app' },
    expect: { iterm2: false },
  },
  {
    name: 'iTerm.app without version returns false for sixel',
    env: { TERM_PROGRAM: 'iTerm.app' },
    expect: { sixel: false },
  },
  { name: 'sixel: supported with LC_TERMINAL=WezTerm', env: { LC_TERMINAL: 'WezTerm' }, expect: { sixel: true } },
  { name: 'works with TTY stream', env: { TERM_PROGRAM: 'kitty' }, stream: { isTTY: true }, expect: { kitty: true } },
  {
    name: 'returns false for stream without isTTY property',
    env: { TERM_PROGRAM: 'kitty' },
    stream: {},
    expect: { kitty: false },
  },
];

/** Runs a process-facing function with `process.env` replaced, as upstream's getSupport does. */
function withEnv<T>(env: Record<string, string>, run: () => T): T {
  const saved = process.env;
  Object.defineProperty(process, 'env', { value: env, configurable: true, writable: true, enumerable: true });
  try {
    return run();
  } finally {
    Object.defineProperty(process, 'env', { value: saved, configurable: true, writable: true, enumerable: true });
  }
}

const pick = (answer: TerminalGraphicsSupport, keys: Partial3): Partial3 =>
  Object.fromEntries(Object.keys(keys).map((k) => [k, answer[k as keyof TerminalGraphicsSupport]]));

describe('supports-terminal-graphics 0.1.0 test suite, as data', () => {
  it.each(ROWS)('$name', (row) => {
    const incumbent = withEnv(row.env, () => incumbentCreate(row.stream));
    expect(pick(incumbent, row.expect)).toEqual(row.expect);
    expect(incumbentGraphicsSupport(row.env, row.stream)).toEqual(incumbent);
    const wanted = { ...incumbent, ...row.termsight };
    expect(graphicsSupport(row.env, row.stream)).toEqual(wanted);
    expect(withEnv(row.env, () => createSupportsTerminalGraphics(row.stream))).toEqual(wanted);
    const applied = GRAPHICS_CORRECTIONS.filter((c) => c.applies(row.env)).map((c) => c.id);
    expect(applied).toEqual(row.correction ? [row.correction] : []);
  });

  it('the default export has the incumbent shape for stdout and stderr', () => {
    expect(Object.keys(supportsTerminalGraphics).sort()).toEqual(Object.keys(incumbentDefault).sort());
    expect(Object.keys(supportsTerminalGraphics.stdout).sort()).toEqual(['iterm2', 'kitty', 'sixel']);
  });
});

/** The corrections' own cases: what termsight says where it disagrees on purpose. */
const CORRECTED: { name: string; env: Record<string, string>; incumbent: Partial3; termsight: Partial3 }[] = [
  {
    name: 'iTerm2 3.6 is not kitty',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.6.0' },
    incumbent: { kitty: true, iterm2: true },
    termsight: { kitty: false, iterm2: true },
  },
  {
    name: 'iTerm2 with a kitty id is not kitty',
    env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.4.0', KITTY_WINDOW_ID: '3' },
    incumbent: { kitty: true },
    termsight: { kitty: false },
  },
  {
    name: 'VS Code started from kitty is not kitty',
    env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.90.0', KITTY_WINDOW_ID: '1', TERM: 'xterm-256color' },
    incumbent: { kitty: true, iterm2: true, sixel: true },
    termsight: { kitty: false, iterm2: true, sixel: true },
  },
  {
    name: 'Apple Terminal with KITTY_PID is not kitty',
    env: { TERM_PROGRAM: 'Apple_Terminal', KITTY_PID: '77' },
    incumbent: { kitty: true },
    termsight: { kitty: false },
  },
  {
    name: 'a new Konsole with a stale kitty id is still kitty by its own rule',
    env: { TERM_PROGRAM: 'konsole', KONSOLE_VERSION: '230800', KITTY_WINDOW_ID: '1' },
    incumbent: { kitty: true },
    termsight: { kitty: true },
  },
  {
    name: 'inside tmux the kitty id is current',
    env: { TERM_PROGRAM: 'tmux', KITTY_WINDOW_ID: '1' },
    incumbent: { kitty: true },
    termsight: { kitty: true },
  },
];

describe('the documented corrections', () => {
  it.each(CORRECTED)('$name', (row) => {
    expect(
      pick(
        withEnv(row.env, () => incumbentCreate()),
        row.incumbent,
      ),
    ).toEqual(row.incumbent);
    expect(pick(graphicsSupport(row.env), row.termsight)).toEqual(row.termsight);
  });
});

/** Values worth trying for each variable the incumbent's rules read ('' is "exported empty"). */
const VALUES: Record<string, readonly string[]> = {
  TERM: [
    '',
    'xterm-256color',
    'xterm-kitty',
    'XTERM-KITTY',
    'xterm-ghostty',
    'mlterm',
    'mlterm-256color',
    'MLTERM',
    'tmux-256color',
    'wezterm',
  ],
  TERM_PROGRAM: [
    '',
    'iTerm.app',
    'ITERM.APP',
    'vscode',
    'WezTerm',
    'kitty',
    'ghostty',
    'rio',
    'WarpTerminal',
    'mintty',
    'Konsole',
    'konsole',
    'Apple_Terminal',
    'Hyper',
    'zed',
    'tmux',
    'other',
  ],
  TERM_PROGRAM_VERSION: [
    '',
    '3.6.0',
    '3.5.9',
    '3.10',
    '2.9.20150512',
    '2.9.20150511',
    '1.80.0',
    '1.79.9',
    '2',
    '0.1.13',
    '0.1.12',
    '0.1.11',
    '20220319-142410-0fcdea07',
    '20220318-000000-00000000',
    '20200620-160318-e00b076c',
    '20200619-000000-00000000',
    'x',
  ],
  LC_TERMINAL: ['', 'iTerm2', 'ITERM2', 'WezTerm', 'other'],
  KITTY_WINDOW_ID: ['', '1'],
  KITTY_PID: ['', '12345'],
  GHOSTTY_RESOURCES_DIR: ['', '/usr/share/ghostty'],
  WEZTERM_PANE: ['', '0'],
  WEZTERM_UNIX_SOCKET: ['', '/tmp/wezterm.sock'],
  KONSOLE_VERSION: ['', '220400', '220399', '210000', 'abc', '230800'],
};

const envArb = fc.record(
  Object.fromEntries(Object.entries(VALUES).map(([name, values]) => [name, fc.constantFrom(...values)])),
  { requiredKeys: [] },
) as fc.Arbitrary<Record<string, string>>;
const streamArb = fc.constantFrom(undefined, { isTTY: true }, { isTTY: false }, {});

describe('differential: generated environments against the installed incumbent', () => {
  it('answers as the incumbent wherever no correction applies, and only kitty changes where one does', () => {
    fc.assert(
      fc.property(envArb, streamArb, (env, stream) => {
        const incumbent = withEnv(env, () => incumbentCreate(stream));
        const ours = withEnv(env, () => createSupportsTerminalGraphics(stream));
        expect(incumbentGraphicsSupport(env, stream)).toEqual(incumbent);
        expect(graphicsSupport(env, stream)).toEqual(ours);
        const onTTY = !stream || stream.isTTY;
        const corrected = onTTY && GRAPHICS_CORRECTIONS.some((c) => c.applies(env));
        if (!corrected) {
          expect(ours).toEqual(incumbent);
        } else {
          expect(ours).toEqual({ ...incumbent, kitty: false });
          expect(incumbent.kitty).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('the generator reaches both answers of every protocol and every correction', () => {
    const seen = new Set<string>();
    for (const env of fc.sample(envArb, { numRuns: 3000, seed: 11 })) {
      const answer = incumbentGraphicsSupport(env);
      for (const key of ['kitty', 'iterm2', 'sixel'] as const) seen.add(`${key}=${answer[key]}`);
      for (const c of GRAPHICS_CORRECTIONS) if (c.applies(env)) seen.add(c.id);
    }
    expect([...seen].sort()).toEqual(
      [
        'iterm2-never-kitty',
        'iterm2=false',
        'iterm2=true',
        'kitty=false',
        'kitty=true',
        'sixel=false',
        'sixel=true',
        'stale-kitty-ids',
      ].sort(),
    );
  });
});

describe('the probe-backed answer', () => {
  const ALL = { kitty: true, iterm2: true, sixel: true };
  const NONE = { kitty: false, iterm2: false, sixel: false };
  const rows: {
    name: string;
    graphics: Parameters<typeof graphicsFromReport>[0]['graphics'];
    env: TerminalGraphicsSupport;
    want: TerminalGraphicsSupport;
  }[] = [
    { name: 'not a terminal: nothing', graphics: null, env: ALL, want: NONE },
    { name: 'text only (tmux without passthrough): nothing', graphics: 'braille', env: ALL, want: NONE },
    { name: 'blocks: nothing', graphics: 'blocks', env: ALL, want: NONE },
    {
      name: 'kitty chosen: kitty, and what the environment adds',
      graphics: 'kitty',
      env: { ...NONE, iterm2: true },
      want: { kitty: true, iterm2: true, sixel: false },
    },
    {
      name: 'sixel answered (DA1 4) where the environment knew nothing',
      graphics: 'sixel',
      env: NONE,
      want: { ...NONE, sixel: true },
    },
    {
      name: 'iTerm2 chosen: never kitty even when the environment said so',
      graphics: 'iterm2',
      env: { ...NONE, kitty: true },
      want: { ...NONE, iterm2: true },
    },
  ];
  it.each(rows)('$name', ({ graphics, env, want }) => {
    expect(graphicsFromReport({ graphics }, env)).toEqual(want);
  });
});
