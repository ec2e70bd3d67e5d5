/**
 * The reducer's timing rules, each one a row with a synthetic clock: events in, the actions they
 * caused out, as a readable trace. Nothing sleeps and no real time is read.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import type { ProbeAction } from '../../src/probe/events.js';
import { createProbe, type ProbeState, probeNextTickAt, probeResult, stepProbe } from '../../src/probe/reducer.js';
import { event, label, type Step, summarize, type TraceRow, trace } from './trace.js';

/** A local xterm its environment names (XTERM_VERSION): the whole batch goes in one round. */
const LOCAL: Runtime = {
  env: { TERM: 'xterm-256color', XTERM_VERSION: 'XTerm(379)' },
  platform: 'linux',
  isTTY: { stdin: true, stdout: true },
};
const SSH: Runtime = { ...LOCAL, env: { ...LOCAL.env, SSH_CONNECTION: '10.0.0.1 5000 10.0.0.2 22' } };
const SSH_EMPTY: Runtime = { ...LOCAL, env: { ...LOCAL.env, SSH_TTY: '' } };
const TMUX: Runtime = { ...LOCAL, env: { TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0' } };
const SCREEN: Runtime = { ...LOCAL, env: { TERM: 'screen', STY: '1.pts-0.host' } };
/** Windows Terminal (WT_SESSION names it): everything but APC in one round. */
const WINDOWS: Runtime = { ...LOCAL, env: { TERM: 'xterm-256color', WT_SESSION: 'f00d' }, platform: 'win32' };
const PIPE: Runtime = { ...LOCAL, isTTY: { stdin: true, stdout: false } };
const DUMB: Runtime = { ...LOCAL, env: { TERM: 'dumb' } };

const DA1 = '\x1b[?62;c';
const TMUX_DA1 = '\x1b[?1;2c';
const KITTY_NAME = '\x1bP>|kitty(0.26.5)\x1b\\';
const TMUX_NAME = '\x1bP>|tmux 3.3a\x1b\\';
const BG = '\x1b]11;rgb:0000/0000/0000\x1b\\';
const TMUX_DA2 = '\x1b[>84;0;0c';
const SCREEN_DA2 = '\x1b[>83;40900;0c';
/** tmux 3.3a's own answers to the unwrapped batch, as recorded: XTVERSION, DA2, its 18 t, DA1. */
const TMUX_ROUND = `${TMUX_NAME + TMUX_DA2}\x1b[8;80;23t${TMUX_DA1}`;
/** A scrubbed environment inside tmux or screen (`env -i TERM=xterm-256color HOME PATH`): no TMUX, no STY. */
const SCRUBBED: Runtime = { ...LOCAL, env: { TERM: 'xterm-256color', HOME: '/home/user', PATH: '/usr/bin:/bin' } };
const TMUX_ROUND_IN = `in ${escapeBytes(TMUX_ROUND)}`;

/** Rounds told apart by how many queries went wrapped for tmux, not by their bytes. */
const summary = (action: ProbeAction) => summarize(action, { write: 'wrapped', owed: false });

const ROWS: readonly TraceRow[] = [
  {
    name: 'a silent terminal: done at the 100 ms deadline, timed out',
    runtime: LOCAL,
    steps: ['start', 50, 99, 100],
    expected: ['start: write', 't100: done timeout 100ms'],
  },
  {
    name: 'the sentinel: the result is due at the very next clock event',
    runtime: LOCAL,
    steps: ['start', 1, ['in', KITTY_NAME + DA1], 2],
    expected: ['start: write', 't2: done answered 2ms'],
  },
  {
    name: 'the next clock event ends it even at the same instant',
    runtime: LOCAL,
    steps: ['start', 3, ['in', DA1], 3],
    expected: ['start: write', 't3: done answered 3ms'],
  },
  {
    name: 'a first byte without the sentinel at the deadline: extended once by the budget',
    runtime: LOCAL,
    steps: ['start', ['in', '\x1bP>|kit'], 100, ['in', `ty(0.26.5)\x1b\\${DA1}`], 150],
    expected: ['start: write', 't100: extend 200', 't150: done answered 150ms'],
  },
  {
    name: 'extended at most once: silence after the extension times out',
    runtime: LOCAL,
    steps: ['start', ['in', KITTY_NAME], 100, 199, 200],
    expected: ['start: write', 't100: extend 200', 't200: done timeout 200ms'],
  },
  {
    name: 'a keystroke is not a first byte of a reply: no extension',
    runtime: LOCAL,
    steps: ['start', ['in', 'a'], 100],
    expected: ['start: write', 'in a: pass a', 't100: done timeout 100ms'],
  },
  {
    name: 'extendMs sets the extension',
    runtime: LOCAL,
    options: { budgetMs: 40, extendMs: 10 },
    steps: ['start', ['in', KITTY_NAME], 40, 49, 50],
    expected: ['start: write', 't40: extend 50', 't50: done timeout 50ms'],
  },
  {
    name: 'over ssh (any non-empty SSH_*) the budget is 1 s',
    runtime: SSH,
    steps: ['start', 100, 999, 1000],
    expected: ['start: write', 't1000: done timeout 1000ms'],
  },
  {
    name: 'an SSH_* variable exported empty does not count',
    runtime: SSH_EMPTY,
    steps: ['start', 100],
    expected: ['start: write', 't100: done timeout 100ms'],
  },
  {
    name: 'budgetMs overrides the default',
    runtime: SSH,
    options: { budgetMs: 30 },
    steps: ['start', 29, 30],
    expected: ['start: write', 't30: done timeout 30ms'],
  },
  {
    name: 'the deadline counts from the clock origin nowMs',
    runtime: LOCAL,
    options: { nowMs: 5000 },
    steps: ['start', 5099, 5100],
    expected: ['start: write', 't5100: done timeout 100ms'],
  },
  {
    name: 'not a TTY: nothing written, done at once',
    runtime: PIPE,
    steps: ['start', 100],
    expected: ['start: done skipped(not a terminal)'],
  },
  {
    name: 'tty: true overrides the runtime (the CLI talks to /dev/tty)',
    runtime: PIPE,
    options: { tty: true },
    steps: ['start', ['in', DA1], 1],
    expected: ['start: write', 't1: done answered 1ms'],
  },
  {
    name: 'TERM=dumb: nothing written',
    runtime: DUMB,
    steps: ['start'],
    expected: ['start: done skipped(TERM=dumb)'],
  },
  {
    name: 'a background process group: nothing written',
    runtime: LOCAL,
    options: { foreground: false },
    steps: ['start'],
    expected: ['start: done skipped(background process group)'],
  },
  {
    name: "skipped: every byte is the user's, even one shaped like a reply",
    runtime: PIPE,
    steps: ['start', ['in', `${DA1}x`]],
    expected: ['start: done skipped(not a terminal)', 'in \\e[?62;cx: pass \\e[?62;cx'],
  },
  {
    name: "input before start is the user's; a clock before start does nothing",
    runtime: LOCAL,
    steps: [['in', 'hi'], 50, 'start', 149, 150],
    expected: ['in hi: pass hi', 'start: write', 't150: done timeout 100ms'],
  },
  {
    name: 'a second start is ignored',
    runtime: LOCAL,
    steps: ['start', 'start', 100],
    expected: ['start: write', 't100: done timeout 100ms'],
  },
  {
    name: 'keys before, between and after replies come out exactly and in order',
    runtime: LOCAL,
    steps: ['start', ['in', 'a\x1b[A'], ['in', `${KITTY_NAME}b\x1b[6;19;10t`], ['in', `c${DA1}d`], 5],
    expected: [
      'start: write',
      'in a\\e[A: pass a\\e[A',
      'in \\eP>|kitty(0.26.5)\\e\\b\\e[6;19;10t: pass b',
      'in c\\e[?62;cd: pass c, pass d',
      't5: done answered 5ms',
    ],
  },
  {
    name: 'after done: late replies are drained, keys passed through',
    runtime: LOCAL,
    steps: ['start', ['in', DA1], 2, ['in', `x${BG}y`], ['in', '\x1b[6;19;10t']],
    expected: [
      'start: write',
      't2: done answered 2ms',
      'in x\\e]11;rgb:0000/0000/0000\\e\\y: pass x, drained \\e]11;rgb:0000/0000/0000\\e\\, pass y',
      'in \\e[6;19;10t: drained \\e[6;19;10t',
    ],
  },
  {
    name: 'a lone ESC held at done is the Escape key: passed through at done',
    runtime: LOCAL,
    steps: ['start', ['in', `${DA1}\x1b`], 2],
    expected: ['start: write', 't2: pass \\e, done answered 2ms'],
  },
  {
    name: 'after done a lone ESC (the Escape key) goes back at once, not held',
    runtime: LOCAL,
    steps: ['start', ['in', DA1], 2, ['in', '\x1b']],
    expected: ['start: write', 't2: done answered 2ms', 'in \\e: pass \\e'],
  },
  {
    name: 'a reply cut off at done is kept and its rest drained, never leaked',
    runtime: LOCAL,
    steps: ['start', ['in', '\x1bP>|kit'], 100, 200, ['in', 'ty\x1b\\z']],
    expected: [
      'start: write',
      't100: extend 200',
      't200: done timeout 200ms',
      'in ty\\e\\z: drained \\eP>|kitty\\e\\, pass z',
    ],
  },
  {
    name: 'tmux, passthrough on: tmux answers first, the outer DA1 ends the probe',
    runtime: TMUX,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 2, ['in', `${KITTY_NAME}\x1b_Gi=31;OK\x1b\\${DA1}`], 9],
    expected: ['start: write +8 wrapped', 't9: done answered 9ms'],
  },
  {
    name: 'tmux, passthrough off: nothing wrapped comes back, done when the 50 ms window closes',
    runtime: TMUX,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 3, 52, 53],
    expected: ['start: write +8 wrapped', 't53: done answered 53ms'],
  },
  {
    name: 'tmux: the window is min(budget/2, 50 ms); settleMs sets it',
    runtime: TMUX,
    options: { settleMs: 20 },
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 3, 22, 23],
    expected: ['start: write +8 wrapped', 't23: done answered 23ms'],
  },
  {
    name: 'tmux: a slow outer terminal that started answering is waited for (deadline, extended once)',
    runtime: TMUX,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 2, 40, ['in', KITTY_NAME], 53, 100, 120, ['in', DA1], 121],
    expected: ['start: write +8 wrapped', 't100: extend 200', 't121: done answered 121ms'],
  },
  {
    name: "tmux with askOuter: false: tmux's DA1 is the sentinel",
    runtime: TMUX,
    options: { askOuter: false },
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 2],
    expected: ['start: write', 't2: done answered 2ms'],
  },
  {
    name: "screen: OSC 11 arrives after screen's DA1; done at the clock after it",
    runtime: SCREEN,
    steps: ['start', ['in', TMUX_DA1], 2, 5, ['in', BG], 6],
    expected: ['start: write', 't6: done answered 6ms'],
  },
  {
    name: 'screen: without an OSC 11 answer the drain window closes 50 ms after the sentinel',
    runtime: SCREEN,
    steps: ['start', ['in', TMUX_DA1], 2, 51, 52],
    expected: ['start: write', 't52: done answered 52ms'],
  },
  {
    name: "scrubbed tmux, passthrough on: the wrapped round goes out the moment tmux's DA1 is in; the outer DA1 ends it",
    runtime: SCRUBBED,
    steps: ['start', 2, ['in', TMUX_ROUND], 3, ['in', `${KITTY_NAME}\x1b_Gi=31;OK\x1b\\${DA1}`], 9],
    expected: ['start: write', `${TMUX_ROUND_IN}: write +8 wrapped`, 't9: done answered 9ms'],
  },
  {
    name: "scrubbed tmux, passthrough off: the window opens at the clock after tmux's DA1 and lasts settleMs",
    runtime: SCRUBBED,
    steps: ['start', 2, ['in', TMUX_ROUND], 3, 52, 53],
    expected: ['start: write', `${TMUX_ROUND_IN}: write +8 wrapped`, 't53: done answered 53ms'],
  },
  {
    name: 'scrubbed tmux: DA2 type 84 alone shows tmux (a tmux without XTVERSION)',
    runtime: SCRUBBED,
    steps: ['start', ['in', TMUX_DA2 + TMUX_DA1], 1, 50, 51],
    expected: ['start: write', `in ${escapeBytes(TMUX_DA2 + TMUX_DA1)}: write +8 wrapped`, 't51: done answered 51ms'],
  },
  {
    name: 'scrubbed tmux: a slow first round widens the window to its own duration (80 ms > settleMs)',
    runtime: SCRUBBED,
    steps: ['start', 79, ['in', TMUX_ROUND], 80, 159, 160],
    expected: ['start: write', `${TMUX_ROUND_IN}: write +8 wrapped`, 't160: done answered 160ms'],
  },
  {
    name: 'scrubbed tmux: the widened window is capped at the budget (round 1 took 150 ms, window 100 ms)',
    runtime: SCRUBBED,
    steps: ['start', ['in', TMUX_NAME], 100, ['in', TMUX_DA2 + TMUX_DA1], 150, 249, 250],
    expected: [
      'start: write',
      't100: extend 200',
      `in ${escapeBytes(TMUX_DA2 + TMUX_DA1)}: write +8 wrapped`,
      't250: done answered 250ms',
    ],
  },
  {
    name: 'scrubbed tmux: an outer terminal that started answering is waited for up to the deadline, extended once',
    runtime: SCRUBBED,
    steps: ['start', 2, ['in', TMUX_ROUND], 3, 40, ['in', KITTY_NAME], 53, 99, 100, ['in', DA1], 120],
    expected: ['start: write', `${TMUX_ROUND_IN}: write +8 wrapped`, 't100: extend 200', 't120: done answered 120ms'],
  },
  {
    name: 'scrubbed tmux: an outer terminal that never finishes times out at the extended deadline',
    runtime: SCRUBBED,
    steps: ['start', 2, ['in', TMUX_ROUND], 3, ['in', KITTY_NAME], 100, 199, 200],
    expected: ['start: write', `${TMUX_ROUND_IN}: write +8 wrapped`, 't100: extend 200', 't200: done timeout 200ms'],
  },
  {
    name: "scrubbed tmux with askOuter: false: no second round, tmux's DA1 is the sentinel",
    runtime: SCRUBBED,
    options: { askOuter: false },
    steps: ['start', ['in', TMUX_ROUND], 2],
    expected: ['start: write', 't2: done answered 2ms'],
  },
  {
    name: 'scrubbed tmux that never sends its DA1: no second round, the deadline rules as ever',
    runtime: SCRUBBED,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA2], 100, 200],
    expected: ['start: write', 't100: extend 200', 't200: done timeout 200ms'],
  },
  {
    name: 'scrubbed screen: DA2 type 83 names it, and OSC 11 after its DA1 is waited for',
    runtime: SCRUBBED,
    steps: ['start', ['in', SCREEN_DA2 + TMUX_DA1], 2, 5, ['in', BG], 6],
    expected: ['start: write', 't6: done answered 6ms'],
  },
  {
    name: 'scrubbed screen without an OSC 11 answer: done when the 50 ms window after the sentinel closes',
    runtime: SCRUBBED,
    steps: ['start', ['in', SCREEN_DA2 + TMUX_DA1], 2, 51, 52],
    expected: ['start: write', 't52: done answered 52ms'],
  },
  {
    name: "a terminal's own DA2 (xterm: type 19) names no multiplexer: nothing named it, so its level-62 DA1 calls the guarded round, whose DA1 ends the probe",
    runtime: SCRUBBED,
    steps: ['start', ['in', `\x1b[>19;379;0c${DA1}`], 2, ['in', DA1], 3],
    expected: ['start: write', `in ${escapeBytes(`\x1b[>19;379;0c${DA1}`)}: write`, 't3: done answered 3ms'],
  },
  {
    // WT_SESSION leaks into child terminals, so it names no one: the level-62 DA1 calls the guarded
    // round (DECRQM; the APC stays out on Windows), and the drain window follows its DA1.
    name: 'Windows (ConPTY answers DA1 itself): the guarded round, then the same drain window',
    runtime: WINDOWS,
    steps: ['start', ['in', DA1], 1, ['in', DA1], 2, 51, 52],
    expected: ['start: write', 'in \\e[?62;c: write', 't52: done answered 52ms'],
  },
];

describe('probe reducer timing', () => {
  it.each(ROWS)('$name', (row) => {
    expect(trace(row.runtime, row.options ?? {}, row.steps, summary).lines).toEqual(row.expected);
  });
});

describe('probe reducer results', () => {
  it('is pending until done, then holds the facts', () => {
    let state = createProbe(LOCAL);
    expect(probeResult(state)).toBeNull();
    [state] = stepProbe(state, { type: 'start' });
    [state] = stepProbe(state, {
      type: 'input',
      bytes: Buffer.from(`${KITTY_NAME}\x1b_Gi=31;OK\x1b\\${DA1}`, 'latin1'),
    });
    expect(probeResult(state)).toBeNull();
    [state] = stepProbe(state, { type: 'clock', nowMs: 4 });
    expect(probeResult(state)).toMatchObject({
      sentinel: true,
      timedOut: false,
      elapsedMs: 4,
      terminal: { name: 'kitty', version: '0.26.5' },
      kittyGraphics: { ok: true },
    });
  });

  it.each([
    {
      name: 'tmux passthrough on',
      runtime: TMUX,
      chunks: [TMUX_NAME + TMUX_DA1, `${KITTY_NAME}\x1b[6;19;10t${DA1}`],
      passthrough: true,
      terminal: 'kitty',
    },
    {
      name: 'tmux passthrough off',
      runtime: TMUX,
      chunks: [TMUX_NAME + TMUX_DA1],
      passthrough: false,
      terminal: undefined,
    },
  ] as const)(
    '$name: names both hops and says whether passthrough works',
    ({ runtime, chunks, passthrough, terminal }) => {
      let state = createProbe(runtime);
      [state] = stepProbe(state, { type: 'start' });
      for (const chunk of chunks) [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(chunk, 'latin1') });
      for (let t = 1; state.phase !== 'done'; t += 1) [state] = stepProbe(state, { type: 'clock', nowMs: t });
      const facts = probeResult(state)!;
      expect(facts.multiplexer).toMatchObject({ name: 'tmux', version: '3.3a' });
      expect(facts.passthrough).toBe(passthrough);
      expect(facts.terminal?.name).toBe(terminal);
      expect(facts.cellPixels?.width).toBe(passthrough ? 10 : undefined);
    },
  );

  it.each([
    { name: 'not started', advance: (s: ProbeState) => s, expected: null },
    { name: 'awaiting: the deadline', advance: (s: ProbeState) => stepProbe(s, { type: 'start' })[0], expected: 100 },
    {
      name: 'sentinel in: at once',
      advance: (s: ProbeState) =>
        stepProbe(stepProbe(stepProbe(s, { type: 'start' })[0], { type: 'clock', nowMs: 7 })[0], {
          type: 'input',
          bytes: Buffer.from(DA1),
        })[0],
      expected: 7,
    },
    {
      name: 'done: no timer',
      advance: (s: ProbeState) => stepProbe(stepProbe(s, { type: 'start' })[0], { type: 'clock', nowMs: 100 })[0],
      expected: null,
    },
  ] as const)('probeNextTickAt $name', ({ advance, expected }) => {
    expect(probeNextTickAt(advance(createProbe(LOCAL)))).toBe(expected);
  });

  it("probeNextTickAt follows a second round: at once to open its window, then the window's end", () => {
    let [state] = stepProbe(createProbe(SCRUBBED), { type: 'start' });
    [state] = stepProbe(state, { type: 'clock', nowMs: 30 });
    [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(TMUX_ROUND, 'latin1') });
    expect(probeNextTickAt(state)).toBe(30);
    [state] = stepProbe(state, { type: 'clock', nowMs: 31 });
    expect(probeNextTickAt(state)).toBe(31 + 50);
  });

  it.each([
    {
      name: 'passthrough on',
      chunks: [TMUX_ROUND, `${KITTY_NAME}\x1b[6;19;10t${BG}${DA1}`],
      passthrough: true,
      terminal: 'kitty',
      width: 10,
    },
    { name: 'passthrough off', chunks: [TMUX_ROUND], passthrough: false, terminal: undefined, width: undefined },
  ] as const)('scrubbed tmux, $name: the facts name both hops', ({ chunks, passthrough, terminal, width }) => {
    let state = createProbe(SCRUBBED);
    [state] = stepProbe(state, { type: 'start' });
    for (const chunk of chunks) {
      [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(chunk, 'latin1') });
      [state] = stepProbe(state, { type: 'clock', nowMs: state.nowMs + 1 });
    }
    for (let t = state.nowMs; state.phase !== 'done'; t += 1) [state] = stepProbe(state, { type: 'clock', nowMs: t });
    const facts = probeResult(state)!;
    expect(facts.multiplexer).toMatchObject({ name: 'tmux', version: '3.3a' });
    expect(facts.passthrough).toBe(passthrough);
    expect(facts.terminal?.name).toBe(terminal);
    expect(facts.cellPixels?.width).toBe(width);
    // tmux's 18 t (rows and columns swapped) is never the terminal's, and its DA2 names only tmux.
    expect(facts.da2).toBeUndefined();
  });

  it('scrubbed screen: the facts name screen by its DA2 and keep the background that came after its DA1', () => {
    let state = createProbe(SCRUBBED);
    [state] = stepProbe(state, { type: 'start' });
    [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(SCREEN_DA2 + TMUX_DA1, 'latin1') });
    [state] = stepProbe(state, { type: 'clock', nowMs: 1 });
    [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(BG, 'latin1') });
    [state] = stepProbe(state, { type: 'clock', nowMs: 2 });
    expect(probeResult(state)).toMatchObject({
      multiplexer: { name: 'screen', version: '4.09.00', reply: '\\e[>83;40900;0c' },
      background: { dark: true },
      sentinel: true,
    });
  });

  it('probeNextTickAt follows the tmux window: at once to open it, then its end', () => {
    let [state] = stepProbe(createProbe(TMUX), { type: 'start' });
    [state] = stepProbe(state, { type: 'clock', nowMs: 2 });
    [state] = stepProbe(state, { type: 'input', bytes: Buffer.from(TMUX_NAME + TMUX_DA1, 'latin1') });
    expect(probeNextTickAt(state)).toBe(2);
    [state] = stepProbe(state, { type: 'clock', nowMs: 3 });
    expect(probeNextTickAt(state)).toBe(53);
  });

  it('never lets a key go missing or a reply leak, whatever the chunking and clock (property)', () => {
    const pieces = fc.constantFrom(
      'a',
      'q',
      '\x1b[A',
      '\x1bOP',
      '\x1b[15~',
      '\x1b',
      KITTY_NAME,
      '\x1b[6;19;10t',
      BG,
      DA1,
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(pieces, fc.boolean()), { maxLength: 30 }),
        fc.integer({ min: 1, max: 120 }),
        (parts, tick) => {
          let state = createProbe(LOCAL);
          let passed = '';
          let drainedOrKept = '';
          let now = 0;
          const apply = (actions: ProbeAction[]) => {
            for (const a of actions) if (a.type === 'keys') passed += Buffer.from(a.bytes).toString('latin1');
          };
          [state] = stepProbe(state, { type: 'start' });
          for (const [text, clock] of parts) {
            let actions: ProbeAction[];
            [state, actions] = stepProbe(state, { type: 'input', bytes: Buffer.from(text, 'latin1') });
            apply(actions);
            if (clock) {
              now += tick;
              [state, actions] = stepProbe(state, { type: 'clock', nowMs: now });
              apply(actions);
            }
          }
          const keys = parts
            .map(([t]) => t)
            .filter((t) => !t.startsWith('\x1bP') && !t.startsWith('\x1b]') && !/\x1b\[(\?|6;)/.test(t));
          drainedOrKept = keys.join('');
          // Every key comes back, in order: a trailing lone ESC may still be held while the probe runs.
          expect(drainedOrKept.startsWith(passed)).toBe(true);
          expect(drainedOrKept.length - passed.length).toBeLessThanOrEqual(1);
        },
      ),
      { numRuns: 200 },
    );
  });
});

/** Rows for the driver's `end` event and for a result that came before the sentinel. */
interface EndRow extends TraceRow {
  /** Whether the `done` action says the sentinel is still outstanding. */
  readonly outstanding: boolean;
}

const END_ROWS: readonly EndRow[] = [
  {
    name: 'end before any reply: done at once, timed out, at the time of the end',
    runtime: LOCAL,
    steps: ['start', 10, ['end', 30]],
    expected: ['start: write', 'end30: done timeout 30ms'],
    outstanding: true,
  },
  {
    name: 'end after a first reply: no extension, done at once with what arrived',
    runtime: LOCAL,
    steps: ['start', ['in', KITTY_NAME], ['end', 40], 100, 200],
    expected: ['start: write', 'end40: done timeout 40ms'],
    outstanding: true,
  },
  {
    name: 'end while settling behind screen: answered (the sentinel is in)',
    runtime: SCREEN,
    steps: ['start', ['in', TMUX_DA1], 2, ['end', 20]],
    expected: ['start: write', 'end20: done answered 20ms'],
    outstanding: false,
  },
  {
    name: 'end behind tmux before the outer terminal answered: passthrough off, answered',
    runtime: TMUX,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 2, ['end', 10]],
    expected: ['start: write +8 wrapped', 'end10: done answered 10ms'],
    outstanding: false,
  },
  {
    name: 'end behind tmux while the outer terminal answers: timed out, its DA1 outstanding',
    runtime: TMUX,
    steps: ['start', ['in', TMUX_NAME + TMUX_DA1], 2, ['in', KITTY_NAME], ['end', 10]],
    expected: ['start: write +8 wrapped', 'end10: done timeout 10ms'],
    outstanding: true,
  },
  {
    name: 'an end after done finishes nothing twice',
    runtime: LOCAL,
    steps: ['start', ['in', DA1], 2, ['end', 5], ['end', 6]],
    expected: ['start: write', 't2: done answered 2ms'],
    outstanding: false,
  },
  {
    name: 'silent until the deadline, then the late batch: swallowed, its DA1 is the late sentinel',
    runtime: LOCAL,
    steps: ['start', 100, ['in', `${KITTY_NAME}k${DA1}`], ['in', DA1]],
    expected: [
      'start: write',
      't100: done timeout 100ms',
      'in \\eP>|kitty(0.26.5)\\e\\k\\e[?62;c: drained \\eP>|kitty(0.26.5)\\e\\, pass k, drained \\e[?62;c, late sentinel',
      'in \\e[?62;c: drained \\e[?62;c',
    ],
    outstanding: true,
  },
  {
    name: 'behind tmux, wrapped, silent: two DA1s are owed, the second is the late sentinel',
    runtime: TMUX,
    steps: ['start', 100, ['in', TMUX_DA1], ['in', DA1]],
    expected: [
      'start: write +8 wrapped',
      't100: done timeout 100ms',
      'in \\e[?1;2c: drained \\e[?1;2c',
      'in \\e[?62;c: drained \\e[?62;c, late sentinel',
    ],
    outstanding: true,
  },
  {
    name: 'an answered probe owes nothing: a late DA1 is only swallowed',
    runtime: LOCAL,
    steps: ['start', ['in', DA1], 1, ['in', DA1]],
    expected: ['start: write', 't1: done answered 1ms', 'in \\e[?62;c: drained \\e[?62;c'],
    outstanding: false,
  },
];

describe('the end event and an outstanding sentinel', () => {
  it.each(END_ROWS)('$name', (row) => {
    let state = createProbe(row.runtime, row.options ?? {});
    const lines: string[] = [];
    let outstanding: boolean | null = null;
    for (const s of row.steps) {
      const [next, actions] = stepProbe(state, event(s));
      state = next;
      for (const a of actions) if (a.type === 'done') outstanding = a.outstanding;
      if (actions.length > 0) lines.push(`${label(s)}: ${actions.map(summary).join(', ')}`);
    }
    expect(lines).toEqual(row.expected);
    expect(outstanding).toBe(row.outstanding);
  });
});

describe('probeNextTickAt is the one tick rule', () => {
  const pieces = fc.constantFrom<Step>(
    ['in', 'a'],
    ['in', KITTY_NAME],
    ['in', TMUX_NAME],
    ['in', TMUX_DA2],
    ['in', SCREEN_DA2],
    ['in', BG],
    ['in', DA1],
    ['in', TMUX_DA1],
    ['in', '\x1bP>|kit'],
    // A terminal nobody knows, and what the guarded round brings back.
    ['in', '\x1bP>|newterm(1)\x1b\\'],
    ['in', '\x1b_Gi=31;OK\x1b\\'],
    ['in', '\x1b[?2026;2$y'],
  );
  const runtimes = fc.constantFrom(LOCAL, SSH, TMUX, SCREEN, SCRUBBED, WINDOWS);
  const script = fc.array(fc.oneof(pieces, fc.integer({ min: 0, max: 80 })), { maxLength: 25 });

  it('a clock before the tick changes nothing but the time; after any clock the next tick lies beyond it', () => {
    fc.assert(
      fc.property(runtimes, script, (runtime, steps) => {
        let [state] = stepProbe(createProbe(runtime), { type: 'start' });
        let now = 0;
        for (const s of steps) {
          if (typeof s !== 'number') {
            [state] = stepProbe(state, event(s));
            continue;
          }
          now += s;
          const due = probeNextTickAt(state);
          const [next, actions] = stepProbe(state, { type: 'clock', nowMs: now });
          if (due === null || now < due) {
            expect(actions).toEqual([]);
            expect({ ...next, nowMs: 0 }).toEqual({ ...state, nowMs: 0 });
          }
          const after = probeNextTickAt(next);
          if (after !== null) expect(after).toBeGreaterThan(now);
          state = next;
        }
      }),
      { numRuns: 300 },
    );
  });
});
