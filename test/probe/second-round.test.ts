/**
 * A multiplexer the environment hides: the program runs inside tmux or GNU screen with a scrubbed
 * environment (`env -i TERM=xterm-256color HOME=… PATH=…`, what an ssh session sees), so no TMUX or
 * STY tells the query plan about it. The first round's replies name it (tmux's XTVERSION and DA2
 * type 84, screen's DA2 type 83); a second round then asks the outer terminal through the
 * multiplexer's passthrough (tmux's wrapper, screen's DCS packets). Every stream here is replayed from the recordings in test/fixtures/replies,
 * query by query, in the order the probe asked: in one chunk, byte by byte and in random splits.
 */

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapTmuxBytes } from '../../src/core/wrap.js';
import type { Runtime } from '../../src/env/runtime.js';
import { protocolFromFacts } from '../../src/probe/classify.js';
import type { ProbeAction } from '../../src/probe/events.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { planFollowUp, planQuery, probeQuery, QUERIES, queryBytes } from '../../src/probe/query.js';
import { createProbe, type ProbeOptions, stepProbe } from '../../src/probe/reducer.js';
import { bytesOf, type Fixture, loadFixtures, recordedAnswers } from './fixtures.js';

const SCRUBBED: Runtime = {
  env: { TERM: 'xterm-256color', HOME: '/home/user', PATH: '/usr/local/bin:/usr/bin:/bin' },
  platform: 'linux',
  isTTY: { stdin: true, stdout: true },
};

const fixtures = new Map(loadFixtures().map((f) => [f.file, f]));
function fixture(file: string): Fixture {
  const found = fixtures.get(file);
  if (!found) throw new Error(`no recording ${file}`);
  return found;
}

interface Scenario {
  readonly name: string;
  /** The recording that answers the first round: tmux or screen itself. */
  readonly first: string;
  /** The recording of the outer terminal that answers the wrapped second round; null: nothing comes back (passthrough off). */
  readonly outer?: string | null;
  readonly options?: ProbeOptions;
  /** How many writes: 1, or 2 with a second round. */
  readonly writes: 1 | 2;
  readonly protocol: 'kitty' | 'sixel' | null;
  readonly terminal?: string;
  readonly multiplexer: string;
  readonly passthrough?: boolean;
  readonly cell?: readonly [number, number];
  readonly dark?: boolean;
  readonly registers?: number;
}

const SCENARIOS: readonly Scenario[] = [
  {
    name: 'tmux, allow-passthrough on, in kitty',
    first: 'kitty+tmux-pt.json',
    outer: 'kitty+tmux-pt-wrapped-all.json',
    writes: 2,
    protocol: 'kitty',
    terminal: 'kitty 0.26.5',
    multiplexer: 'tmux 3.3a',
    passthrough: true,
    cell: [10, 19],
    dark: true,
  },
  {
    name: 'tmux, allow-passthrough on, in xterm as a VT340',
    first: 'xterm+tmux-pt.json',
    outer: 'xterm-vt340.json',
    writes: 2,
    protocol: 'sixel',
    terminal: 'XTerm 379',
    multiplexer: 'tmux 3.3a',
    passthrough: true,
    dark: false,
    registers: 256,
  },
  {
    name: 'tmux, allow-passthrough off, in kitty',
    first: 'kitty+tmux.json',
    outer: null,
    writes: 2,
    protocol: null,
    multiplexer: 'tmux 3.3a',
    passthrough: false,
  },
  {
    name: 'tmux, allow-passthrough off, in xterm',
    first: 'xterm+tmux.json',
    outer: null,
    writes: 2,
    protocol: null,
    multiplexer: 'tmux 3.3a',
    passthrough: false,
  },
  {
    name: 'tmux with askOuter false: no second round, passthrough unknown',
    first: 'kitty+tmux-pt.json',
    options: { askOuter: false },
    writes: 1,
    protocol: null,
    multiplexer: 'tmux 3.3a',
  },
  {
    // screen forwards the raw OSC 11 of the first round after its DA1, and the body of each of its
    // DCS packets (test/fixtures/screen/README.md): the second round reaches kitty, answered as recorded.
    name: 'GNU screen in kitty: DA2 type 83 names it; the wrapped round reaches kitty',
    first: 'kitty+screen.json',
    outer: 'kitty.json',
    writes: 2,
    protocol: 'kitty',
    terminal: 'kitty 0.26.5',
    multiplexer: 'screen 4.09.00',
    passthrough: true,
    cell: [10, 19],
    dark: true,
  },
  {
    name: 'GNU screen in xterm as a VT340: the wrapped round shows sixel',
    first: 'xterm+screen.json',
    outer: 'xterm-vt340.json',
    writes: 2,
    protocol: 'sixel',
    terminal: 'XTerm 379',
    multiplexer: 'screen 4.09.00',
    passthrough: true,
    dark: false,
    registers: 256,
  },
  {
    name: 'GNU screen with askOuter false: no second round',
    first: 'xterm+screen.json',
    options: { askOuter: false },
    writes: 1,
    protocol: null,
    multiplexer: 'screen 4.09.00',
    dark: false,
  },
];

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** The queries of a plan's list, as the recordings key them (unwrapped). */
const queriesOf = (names: readonly (keyof typeof QUERIES)[]) => names.map((n) => QUERIES[n]);

interface Replay {
  readonly facts: ProbeFacts;
  readonly writes: readonly Uint8Array[];
  readonly keys: string;
}

/**
 * Runs the probe against the scenario's recordings: round 1 answered by `first`, then (when the
 * probe wrote a second round) round 2 by `outer`, each cut into chunks by `split`. The clock ticks
 * once after each round, as the driver ticks after a chunk, then every 10 ms until done.
 */
function replay(scenario: Scenario, split: (bytes: Uint8Array) => Uint8Array[]): Replay {
  let now = 1000;
  let [state, actions] = stepProbe(createProbe(SCRUBBED, { nowMs: now, ...scenario.options }), { type: 'start' });
  const all: ProbeAction[] = [...actions];
  const feed = (stream: string) => {
    for (const bytes of split(bytesOf(stream))) {
      [state, actions] = stepProbe(state, { type: 'input', bytes });
      all.push(...actions);
    }
    now += 1;
    [state, actions] = stepProbe(state, { type: 'clock', nowMs: now });
    all.push(...actions);
  };
  const writes = () =>
    all.filter((a): a is Extract<ProbeAction, { type: 'write' }> => a.type === 'write').map((a) => a.bytes);

  const firstPlan = planQuery({ runtime: SCRUBBED, ...scenario.options });
  feed(recordedAnswers(fixture(scenario.first)).respond(queriesOf(firstPlan.direct)));
  if (writes().length === 2) {
    const shown = scenario.multiplexer.startsWith('screen') ? 'screen' : 'tmux';
    const followUp = planFollowUp(firstPlan, shown, { runtime: SCRUBBED });
    const outer = scenario.outer ? recordedAnswers(fixture(scenario.outer)).respond(queriesOf(followUp!.outer)) : '';
    feed(outer);
  }
  while (state.phase !== 'done' && now < 3000) {
    now += 10;
    [state, actions] = stepProbe(state, { type: 'clock', nowMs: now });
    all.push(...actions);
  }
  const done = all.find((a) => a.type === 'done');
  if (done?.type !== 'done') throw new Error('the probe did not end');
  const keys = all
    .filter((a) => a.type === 'keys')
    .map((a) => text(a.bytes))
    .join('');
  return { facts: done.facts, writes: writes(), keys };
}

const nameOf = (n: { name: string; version: string | null } | undefined) => (n ? `${n.name} ${n.version}` : undefined);

function expectReplay(r: Replay, s: Scenario): void {
  expect(r.writes.length).toBe(s.writes);
  expect(text(r.writes[0]!)).toBe(text(probeQuery({ runtime: SCRUBBED, ...s.options })));
  const f = r.facts;
  expect(nameOf(f.multiplexer)).toBe(s.multiplexer);
  expect(f.passthrough).toBe(s.passthrough);
  expect(protocolFromFacts(f)?.protocol ?? null).toBe(s.protocol);
  expect(nameOf(f.terminal)).toBe(s.terminal);
  expect(f.cellPixels ? [f.cellPixels.width, f.cellPixels.height] : undefined).toEqual(s.cell);
  expect(f.background?.dark).toBe(s.dark);
  expect(f.sixelColors?.registers).toBe(s.registers);
  expect(f.sentinel).toBe(true);
  expect(f.timedOut).toBe(false);
  expect(r.keys).toBe('');
}

describe('a multiplexer hidden by a scrubbed environment, replayed from the recordings', () => {
  it.each(SCENARIOS)('$name: in one chunk', (s) =>
    expectReplay(
      replay(s, (b) => (b.length > 0 ? [b] : [])),
      s,
    ),
  );

  it.each(SCENARIOS)('$name: byte by byte', (s) =>
    expectReplay(
      replay(s, (b) => [...b].map((x) => Uint8Array.of(x))),
      s,
    ),
  );

  it.each(SCENARIOS)('$name: in random splits', (s) => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 400 }), { maxLength: 10 }), (cuts) => {
        const split = (b: Uint8Array) => {
          const points = [0, ...new Set(cuts.filter((c) => c < b.length))].sort((x, y) => x - y);
          return [...points, b.length]
            .slice(1)
            .map((end, i) => b.subarray(points[i], end))
            .filter((c) => c.length > 0);
        };
        expectReplay(replay(s, split), s);
      }),
      { numRuns: 20 },
    );
  });

  it('the second round is exactly what a known tmux adds after its own DA1: each query wrapped, a wrapped DA1 last', () => {
    const r = replay(SCENARIOS[0]!, (b) => [b]);
    const known = planQuery({ runtime: { ...SCRUBBED, env: { ...SCRUBBED.env, TMUX: '/tmp/tmux-0/default,1,0' } } });
    expect(text(r.writes[1]!)).toBe(text(queryBytes({ ...known, direct: [] })));
    expect(text(r.writes[1]!).endsWith(text(wrapTmuxBytes('\x1b[c')))).toBe(true);
    expect(escapeBytes(r.writes[1]!)).not.toMatch(/^\\e\[/); // nothing unwrapped: tmux answered that already
  });
});
