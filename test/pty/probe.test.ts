/**
 * The real driver in a real pty, against a scripted terminal that answers with the recorded replies
 * of real terminals: fast, late, in pieces, out of order, not at all, or while the user types.
 * Each row asserts the answer, the time taken (within the budget rules, with generous slack), the
 * keys handed back byte for byte, the pty's mode afterwards, that nothing leaked, and that the
 * application exits on its own (nothing the probe left behind keeps it alive).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type AppConfig,
  type AppResult,
  answerFor,
  buildDist,
  hexOf,
  loadTerminal,
  type RecordedTerminal,
  repoRoot,
  ScriptedTerminal,
  sleep,
} from './harness.js';

beforeAll(() => buildDist(), 120_000);

const BASE_ENV = { TERM: 'xterm-256color' };
/**
 * The environment each recorded terminal gives its programs, so the whole batch goes in one round
 * (with TERM alone nobody is named, and the kitty query and DECRQM wait for the guarded round,
 * which test/pty/layers.test.ts covers).
 */
const NAMED_ENV: Record<string, Record<string, string>> = {
  kitty: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' },
  xterm: { TERM: 'xterm-256color', XTERM_VERSION: 'XTerm(379)' },
};

/** What the scripted terminal does once it has seen the probe's queries. */
type Script = (t: ScriptedTerminal, answer: Answer) => Promise<void>;

/** The recorded terminal's answer to the queries actually sent. */
interface Answer {
  /** Each reply before the sentinel, in query order. */
  readonly replies: string[];
  /** Replies the terminal sends after its DA1 (a multiplexer forwarding them). */
  readonly late: string[];
  readonly da1: string;
  /** Everything, in order, DA1 last. */
  readonly all: string;
}

interface Expectation {
  readonly sentinel?: boolean;
  readonly timedOut?: boolean;
  /** The terminal's name from XTVERSION, or null when the facts must not name one. */
  readonly terminal?: string | null;
  /** Elapsed ms of the probe as the application saw it: [at least, below]. */
  readonly elapsed: readonly [number, number];
  /** The user's keys the application must read, exactly. */
  readonly keys?: string;
  /** Facts fields that must be present. */
  readonly has?: readonly string[];
}

interface Row {
  readonly name: string;
  readonly fixture: string;
  readonly env?: Record<string, string>;
  readonly config: AppConfig;
  readonly script: Script;
  readonly expect: Expectation;
}

const answerOf = (terminal: RecordedTerminal, queries: readonly string[]): Answer => {
  const { replies, late } = answerFor(terminal, queries);
  return { replies, late, da1: terminal.da1, all: replies.join('') + terminal.da1 };
};

const rows: Row[] = [
  {
    name: 'answers fast (kitty)',
    fixture: 'kitty',
    config: { budgetMs: 1000 },
    script: async (t, a) => t.send(a.all),
    expect: {
      sentinel: true,
      timedOut: false,
      terminal: 'kitty',
      elapsed: [0, 500],
      keys: '',
      has: ['kittyGraphics', 'cellPixels', 'background'],
    },
  },
  {
    name: 'answers fast (xterm)',
    fixture: 'xterm',
    config: { budgetMs: 1000 },
    script: async (t, a) => t.send(a.all),
    expect: {
      sentinel: true,
      timedOut: false,
      terminal: 'XTerm',
      elapsed: [0, 500],
      keys: '',
      has: ['da1', 'synchronizedOutput', 'background'],
    },
  },
  {
    name: 'answers late, within the budget',
    fixture: 'kitty',
    config: { budgetMs: 800 },
    script: async (t, a) => {
      await sleep(250);
      t.send(a.all);
    },
    expect: { sentinel: true, timedOut: false, terminal: 'kitty', elapsed: [240, 800] },
  },
  {
    name: 'answers late, beyond the budget but within the one extension',
    fixture: 'kitty',
    config: { budgetMs: 400 },
    script: async (t, a) => {
      await sleep(100);
      t.send(a.replies[0]!);
      await sleep(500);
      t.send(a.replies.slice(1).join('') + a.da1);
    },
    expect: { sentinel: true, timedOut: false, terminal: 'kitty', elapsed: [400, 800] },
  },
  {
    name: 'answers late, beyond the budget and the extension: gives up, swallows the rest',
    fixture: 'kitty',
    config: { budgetMs: 300, lateMs: 600, readMs: 900 },
    script: async (t, a) => {
      await sleep(100);
      t.send(a.replies[0]!);
      await sleep(650);
      t.send(a.replies.slice(1).join('') + a.da1);
    },
    // The XTVERSION reply came in time; the sentinel never did.
    expect: { sentinel: false, timedOut: true, terminal: 'kitty', elapsed: [600, 600 + 500], keys: '' },
  },
  {
    name: 'answers in pieces (byte by byte)',
    fixture: 'kitty',
    config: { budgetMs: 3000 },
    script: async (t, a) => t.trickle(a.all, 1),
    expect: {
      sentinel: true,
      timedOut: false,
      terminal: 'kitty',
      elapsed: [0, 6000],
      keys: '',
      has: ['kittyGraphics', 'cellPixels', 'synchronizedOutput'],
    },
  },
  {
    // screen answers its DA2 and DA1 at once; kitty's answers to the queries in screen's packets
    // (as recorded in test/fixtures/replies/kitty.json) come 10 ms later, its DA1 last.
    name: "behind screen: screen's own DA2 and DA1 first, the outer terminal's answers through its packets later",
    fixture: 'kitty+screen',
    env: { TERM: 'screen', STY: '4242.pts-0.host' },
    config: { budgetMs: 1000 },
    script: async (t) => {
      t.send('\x1b[>83;40900;0c\x1b[?1;2c');
      await sleep(10);
      t.send('\x1bP>|kitty(0.26.5)\x1b\\\x1b[>1;4000;26c\x1b[6;19;10t\x1b]11;rgb:0000/0000/0000\x1b\\\x1b[?62;c');
    },
    expect: {
      sentinel: true,
      timedOut: false,
      elapsed: [0, 500],
      keys: '',
      has: ['background', 'cellPixels', 'terminal', 'passthrough'],
    },
  },
  {
    name: 'answers out of order, late: replies after the sentinel and after done are swallowed',
    fixture: 'kitty',
    config: { budgetMs: 1000 },
    script: async (t, a) => {
      t.send(a.da1);
      await sleep(30);
      t.send(a.replies.join(''));
    },
    expect: { sentinel: true, timedOut: false, terminal: null, elapsed: [0, 500], keys: '' },
  },
  {
    name: 'a slow link: answers at 250 ms against a 100 ms budget; the late batch never reaches the application',
    fixture: 'kitty',
    config: { budgetMs: 100, readMs: 600 },
    script: async (t, a) => {
      await sleep(250);
      t.send(a.all);
      await sleep(20);
      t.send('k'); // typed while the late batch is swallowed: still the application's
    },
    expect: { sentinel: false, timedOut: true, terminal: null, elapsed: [100, 250], keys: 'k' },
  },
  {
    name: 'answers nothing: gives up at the budget',
    fixture: 'kitty',
    // The application reads past the late window (1.5 s while the sentinel is outstanding).
    config: { budgetMs: 300, readMs: 1800 },
    script: async () => {},
    expect: { sentinel: false, timedOut: true, terminal: null, elapsed: [300, 300 + 300 + 500], keys: '' },
  },
  {
    name: 'answers while the user types: keys before, between and after replies',
    fixture: 'kitty',
    config: { budgetMs: 1500 },
    script: async (t, a) => {
      const half = Math.floor(a.replies.length / 2);
      t.send('ab');
      await sleep(20);
      t.send(`${a.replies.slice(0, half).join('')}\x1b[A${a.replies.slice(half).join('')}q\x1bOB`);
      await sleep(20);
      t.send('\x1b'); // a lone ESC: the Escape key
      await sleep(40);
      t.send(`é${a.da1}z\x1b[D`);
    },
    expect: {
      sentinel: true,
      timedOut: false,
      terminal: 'kitty',
      elapsed: [0, 1500],
      keys: 'ab\x1b[Aq\x1bOB\x1béz\x1b[D',
      has: ['kittyGraphics'],
    },
  },
  {
    name: 'answers while the user types: keys go to onKeys when given',
    fixture: 'xterm',
    config: { budgetMs: 1500, onKeys: true },
    script: async (t, a) => {
      t.send(`k${a.replies.join('')}\x1b[B`);
      await sleep(20);
      t.send(a.da1);
    },
    expect: { sentinel: true, timedOut: false, terminal: 'XTerm', elapsed: [0, 1500], keys: '' },
  },
];

describe('the driver against a scripted terminal in a real pty', () => {
  it.each(rows)('$name', async (row) => {
    const recorded = loadTerminal(row.fixture);
    const t = new ScriptedTerminal(row.config, { ...BASE_ENV, ...NAMED_ENV[row.fixture], ...row.env });
    try {
      const queries = await t.queries();
      const answer = answerOf(recorded, queries);
      await row.script(t, answer);
      const { result, exitCode, screen } = await t.result();
      const e = row.expect;
      expect(result.error).toBeNull();
      const facts = result.facts;
      if (e.sentinel !== undefined) expect(facts.sentinel).toBe(e.sentinel);
      if (e.timedOut !== undefined) expect(facts.timedOut).toBe(e.timedOut);
      if (e.terminal !== undefined) expect(facts.terminal?.name ?? null).toBe(e.terminal);
      for (const field of e.has ?? []) expect(facts, field).toHaveProperty(field);
      expect(result.elapsedMs).toBeGreaterThanOrEqual(e.elapsed[0]);
      expect(result.elapsedMs).toBeLessThan(e.elapsed[1]);
      if (e.keys !== undefined) expect(result.keys).toBe(hexOf(e.keys));
      if (row.config.onKeys) {
        expect(result.handedKeys).toBe(hexOf('k\x1b[B'));
        expect(result.keys).toBe('');
      }
      expectClean(result, exitCode, screen, answer);
    } finally {
      t.kill();
    }
  });
});

/** The pty back in its mode, no reply among the keys or on the screen, the process gone by itself. */
function expectClean(result: AppResult, exitCode: number, screen: string, answer: Answer): void {
  expect(result.after).toBe(result.before);
  expect(result.before).not.toMatch(/^error/);
  expect(exitCode).toBe(0);
  const keys = Buffer.from(result.keys, 'hex').toString('latin1');
  for (const reply of [...answer.replies, ...answer.late, answer.da1]) {
    // Without its ESC: an echoed reply shows as ^[ followed by the rest.
    const body = reply.slice(1);
    expect(keys.includes(body), `reply ${JSON.stringify(reply)} among the keys`).toBe(false);
    expect(screen.includes(body), `reply ${JSON.stringify(reply)} on the screen`).toBe(false);
  }
}

describe('when nothing may be written', () => {
  const silent: { name: string; env?: Record<string, string>; config: AppConfig; shell?: string; skipped: string }[] = [
    {
      name: 'stdout is a pipe (probeTerminal, pictures go to stdout)',
      config: { report: true },
      shell: '$APP | cat',
      skipped: 'not a terminal',
    },
    {
      name: "stdout is a pipe (probeTty, stream: 'stdout')",
      config: { stream: 'stdout' },
      shell: '$APP | cat',
      skipped: 'not a terminal',
    },
    { name: 'TERM=dumb', env: { TERM: 'dumb' }, config: {}, skipped: 'TERM=dumb' },
    {
      name: 'a background process group',
      config: { noRead: true, readMs: 50 },
      shell: 'set -m; $APP & wait',
      skipped: 'background process group',
    },
  ];
  it.each(silent)('$name: zero bytes written', async (row) => {
    const t = new ScriptedTerminal(row.config, { ...BASE_ENV, ...row.env }, row.shell);
    try {
      const { result, exitCode, screen } = await t.result();
      expect(result.error).toBeNull();
      expect(result.trace.out).toBe(0);
      expect(screen).not.toContain('\x1b');
      if (row.config.report) {
        expect(result.report.probeMs).toBeNull();
      } else {
        expect(result.facts.skipped).toBe(row.skipped);
      }
      expect(result.after).toBe(result.before);
      expect(exitCode).toBe(0);
    } finally {
      t.kill();
    }
  });
});

describe('budgets, aborts and closing streams', () => {
  it('uses the 1 s budget when SSH_CONNECTION is set (silent terminal)', async () => {
    // The application reads past the late window (1.5 s while the sentinel is outstanding).
    const t = new ScriptedTerminal({ readMs: 1800 }, { ...BASE_ENV, SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' });
    try {
      await t.queries();
      const { result, exitCode } = await t.result();
      expect(result.facts.timedOut).toBe(true);
      expect(result.elapsedMs).toBeGreaterThanOrEqual(1000);
      expect(result.elapsedMs).toBeLessThan(1000 + 500);
      expect(result.after).toBe(result.before);
      expect(exitCode).toBe(0);
    } finally {
      t.kill();
    }
  });

  it('an AbortSignal rejects at once and restores the terminal', async () => {
    // The application reads past the late window (1.5 s while the sentinel is outstanding).
    const t = new ScriptedTerminal({ budgetMs: 5000, abortAfterMs: 100, readMs: 1800 }, BASE_ENV);
    try {
      await t.queries();
      const { result, exitCode } = await t.result();
      expect(result.error?.name).toBe('AbortError');
      expect(result.elapsedMs).toBeGreaterThanOrEqual(90);
      expect(result.elapsedMs).toBeLessThan(2500);
      expect(result.after).toBe(result.before);
      expect(exitCode).toBe(0);
    } finally {
      t.kill();
    }
  });

  it('the input stream closing mid-probe resolves and restores the terminal', async () => {
    const t = new ScriptedTerminal({ budgetMs: 5000, destroyInputAfterMs: 100 }, BASE_ENV);
    try {
      const queries = await t.queries();
      t.send(answerOf(loadTerminal('kitty'), queries).replies[0]!);
      const { result, exitCode } = await t.result();
      expect(result.error).toBeNull();
      expect(result.facts.sentinel).toBe(false);
      expect(result.facts.terminal?.name).toBe('kitty');
      expect(result.elapsedMs).toBeLessThan(2500);
      expect(result.after).toBe(result.before);
      expect(exitCode).toBe(0);
    } finally {
      t.kill();
    }
  });

  it('an application in raw mode gets keys typed during the late-reply drain, and keeps its mode', async () => {
    const t = new ScriptedTerminal({ budgetMs: 1000, lateMs: 400, appRaw: true, readMs: 600 }, BASE_ENV);
    try {
      const queries = await t.queries();
      const answer = answerOf(loadTerminal('kitty'), queries);
      t.send(answer.all);
      await sleep(100);
      // During the drain: a key, a late duplicate reply (swallowed), another key.
      t.send(`h${answer.replies[0]}i`);
      const { result, screen, exitCode } = await t.result();
      expect(result.facts.terminal?.name).toBe('kitty');
      expect(result.keys).toBe(hexOf('hi'));
      expectClean(result, exitCode, screen, answer);
    } finally {
      t.kill();
    }
  });

  it('probeTerminal resolves the report from the replies', async () => {
    const t = new ScriptedTerminal({ budgetMs: 1000, report: true }, BASE_ENV);
    try {
      const queries = await t.queries();
      const answer = answerOf(loadTerminal('kitty'), queries);
      t.send(answer.all);
      // Named by its replies alone (TERM only), kitty gets the guarded round that asks whether it
      // reads this machine's files (the kitty query, the local-transfer query, a DA1): answered as
      // recorded (no recording has the local query's random path: unanswered, as a refusal).
      const guarded = await t.round(2);
      expect(guarded.some((q) => q.startsWith('\x1b_Gi=32,'))).toBe(true);
      t.send(answerOf(loadTerminal('kitty'), guarded).all);
      const { result, screen, exitCode } = await t.result();
      expect(result.error).toBeNull();
      expect(result.report.terminal.name).toBe('kitty');
      expect(result.report.graphics).toBe('kitty');
      expect(typeof result.report.probeMs).toBe('number');
      expectClean(result, exitCode, screen, answer);
    } finally {
      t.kill();
    }
  });
});

/**
 * Answers every round the application writes with kitty's recorded replies, for as long as the
 * application runs: a driver that probed three times would get three answers (and three rounds
 * would show in `rounds`), so the assertions below are about sharing, not about silence.
 */
async function answerEveryRound(t: ScriptedTerminal, stop: () => boolean): Promise<number> {
  const kitty = loadTerminal('kitty');
  let n = 0;
  while (!stop()) {
    try {
      const round = await t.round(n + 1, 300);
      t.send(answerOf(kitty, round).all);
      n += 1;
    } catch {
      // No further round yet.
    }
  }
  return n;
}

describe('several probes at once on one terminal (issue 25)', () => {
  it.each([
    { name: 'probeTerminal, probeTerminal and probeTty', config: { concurrent: true } },
    { name: 'the terminal-image and supports-terminal-graphics drop-ins', config: { dropIns: true } },
  ])('$name: one round, the same kitty answer for each, the mode exactly as before', async ({ config }) => {
    const t = new ScriptedTerminal({ budgetMs: 1000, readMs: 400, ...config }, NAMED_ENV.kitty);
    let finished = false;
    try {
      const answering = answerEveryRound(t, () => finished);
      const { result, exitCode } = await t.result();
      finished = true;
      const rounds = await answering;
      const answers = (result as AppResult & { concurrent: string[] | null }).concurrent;
      expect(result.error).toBeNull();
      expect(answers).toEqual(config.dropIns ? ['kitty', 'kitty'] : ['kitty', 'kitty', 'kitty']);
      expect(rounds).toBe(1);
      // `stty -g` after the late window: the raw mode (-icanon -echo -isig) undone, and only once
      // (a second restore from a probe that had found the first's raw mode would leave it raw).
      expect(result.before).not.toMatch(/^error/);
      expect(result.after).toBe(result.before);
      expect(exitCode).toBe(0);
    } finally {
      finished = true;
      t.kill();
    }
  });
});

// The real CLI, once every command it imports exists (the lead wires it).
const cliReady = ['main', 'run', 'detect', 'demo', 'show'].every((name) =>
  existsSync(join(repoRoot, 'src', 'cli', `${name}.ts`)),
);

describe('the real CLI in a pty', () => {
  it.skipIf(!cliReady)('termsight detect --json names the scripted terminal and leaves the pty as it was', async () => {
    const cli = join(repoRoot, 'dist', 'cli', 'main.js');
    const t = new ScriptedTerminal({}, BASE_ENV, `stty -g; node ${cli} detect --json --timeout 1000; stty -g`);
    try {
      const queries = await t.queries();
      const answer = answerOf(loadTerminal('kitty'), queries);
      t.send(answer.all);
      const { exitCode, screen } = await t.exit();
      expect(exitCode).toBe(0);
      const json = screen.slice(screen.indexOf('{'), screen.lastIndexOf('}') + 1);
      const report = JSON.parse(json.replace(/\r\n/g, '\n'));
      expect(report.terminal.name).toBe('kitty');
      const modes = screen.split(/\r?\n/).filter((line) => /^[0-9a-f]+(:[0-9a-f]+){10,}$/.test(line.trim()));
      expect(modes).toHaveLength(2);
      expect(modes[1]).toBe(modes[0]);
      // Outside the JSON (which quotes replies as escaped text on purpose): no reply echoed.
      const outside = screen.slice(0, screen.indexOf('{')) + screen.slice(screen.lastIndexOf('}') + 1);
      for (const reply of answer.replies) expect(outside.includes(reply.slice(1))).toBe(false);
    } finally {
      t.kill();
    }
  });
});
