/**
 * The recorded replies of every real terminal in test/fixtures/replies, classified: each
 * batch (and what came late) through the reducer in one chunk, byte by byte and in random splits,
 * and each single-query recording through the classifier.
 */

import { readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies, fromProbe, probeComplete, protocolFromFacts } from '../../src/probe/classify.js';
import type { ProbeAction } from '../../src/probe/events.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { QUERIES } from '../../src/probe/query.js';
import { createProbe, type ProbeOptions, stepProbe } from '../../src/probe/reducer.js';
import { bytesOf, type Fixture, loadFixtures, REPLIES_DIR, REPO_ROOT } from './fixtures.js';

/** What each recording must say. `undefined`: the replies must not say it at all. */
interface Expected {
  readonly file: string;
  readonly protocol: 'kitty' | 'sixel' | null;
  readonly terminal?: string;
  readonly multiplexer?: string;
  readonly passthrough?: boolean;
  readonly cell?: readonly [number, number];
  readonly sync?: boolean;
  readonly dark?: boolean;
  readonly registers?: number;
  readonly kittyOk?: boolean;
  /** Whether the batch was wrapped for tmux passthrough (the reducer's plan must match the recording's query). */
  readonly wrapped?: boolean;
  readonly timedOut?: boolean;
  /** Bytes that are not replies to termsight's queries (the recorder also asked CPR): handed back as input. */
  readonly passthroughText?: string;
}

const CPR = '\x1b[1;1R';
const KITTY = { terminal: 'kitty 0.26.5', cell: [10, 19], sync: true, dark: true, kittyOk: true } as const;
const TMUX_ALONE = { protocol: null, multiplexer: 'tmux 3.3a', passthroughText: CPR } as const;

const EXPECTED: readonly Expected[] = [
  { file: 'kitty.json', protocol: 'kitty', ...KITTY },
  { file: 'kitty-scrubbed.json', protocol: 'kitty', ...KITTY },
  { file: 'xterm.json', protocol: null, terminal: 'XTerm 379', sync: false, dark: false },
  {
    file: 'xterm-scrubbed.json',
    protocol: null,
    terminal: 'XTerm 379',
    sync: false,
    dark: false,
  },
  {
    file: 'xterm-vt340.json',
    protocol: 'sixel',
    terminal: 'XTerm 379',
    sync: false,
    dark: false,
    registers: 256,
  },
  { file: 'xterm-headless.json', protocol: null, sync: true },
  // xterm.js 6.0.0 in headless Chromium (recorded by test/e2e/xtermjs-suite.ts), without and with the image addon.
  { file: 'xtermjs.json', protocol: null, sync: true, dark: false },
  {
    file: 'xtermjs-image.json',
    protocol: 'sixel',
    sync: true,
    dark: false,
    registers: 256,
    cell: [8, 15],
  },
  { file: 'kitty+tmux.json', ...TMUX_ALONE },
  { file: 'kitty+tmux-pt.json', ...TMUX_ALONE },
  { file: 'xterm+tmux.json', ...TMUX_ALONE },
  { file: 'xterm+tmux-pt.json', ...TMUX_ALONE },
  {
    file: 'kitty+tmux-pt-wrapped.json',
    protocol: 'kitty',
    ...KITTY,
    passthrough: true,
    wrapped: true,
    // The outer kitty's answers to the recorder's other queries, as recorded (its single-query
    // recordings each carry tmux's DA1 too, so othersOf cannot cut them out).
    passthroughText:
      '\x1b[?2027;0$y\x1b]10;rgb:dddd/dddd/dddd\x1b\\\x1b[?0u\x1bP1+r544e=787465726d2d6b69747479\x1b\\' +
      '\x1bP0+r524742\x1b\\\x1bP1+r536d756c78=5c455b343a25703125646d\x1b\\\x1bP1+r436f=323536\x1b\\' +
      '\x1bP1$rm\x1b\\\x1b[1;1R',
  },
  {
    file: 'kitty+tmux-pt-wrapped-all.json',
    protocol: 'kitty',
    ...KITTY,
    passthrough: true,
    wrapped: true,
  },
  {
    file: 'kitty+tmux-wrapped-all.json',
    protocol: null,
    passthrough: false,
    wrapped: true,
    timedOut: true,
    passthroughText: '',
  },
  { file: 'kitty+screen.json', protocol: null, multiplexer: 'screen 4.09.00', dark: true, passthroughText: CPR },
  { file: 'xterm+screen.json', protocol: null, multiplexer: 'screen 4.09.00', dark: false, passthroughText: CPR },
];

const fixtures = new Map(loadFixtures().map((f) => [f.file, f]));

function fixture(file: string): Fixture {
  const found = fixtures.get(file);
  if (!found) throw new Error(`no recording ${file}`);
  return found;
}

function runtimeOf(f: Fixture): Runtime {
  return { env: f.env, platform: 'linux', isTTY: { stdin: true, stdout: true } };
}

function optionsOf(row: Expected): ProbeOptions {
  return { tty: true, askOuter: row.wrapped === true, nowMs: 1000, budgetMs: 100 };
}

/** Runs the reducer: start, every chunk as input (no clock in between), then clock ticks until done. */
function runChunks(
  f: Fixture,
  row: Expected,
  chunks: readonly Uint8Array[],
): { facts: ProbeFacts; passthrough: string; actions: ProbeAction[] } {
  let [state, actions] = stepProbe(createProbe(runtimeOf(f), optionsOf(row)), { type: 'start' });
  const all: ProbeAction[] = [...actions];
  for (const bytes of chunks) {
    [state, actions] = stepProbe(state, { type: 'input', bytes });
    all.push(...actions);
  }
  for (let t = 1001; state.phase !== 'done' && t < 2000; t += 10) {
    [state, actions] = stepProbe(state, { type: 'clock', nowMs: t });
    all.push(...actions);
  }
  const done = all.find((a) => a.type === 'done');
  if (done?.type !== 'done') throw new Error('the probe did not end');
  const passthrough = all
    .filter((a) => a.type === 'keys')
    .map((a) => Buffer.from(a.bytes).toString('latin1'))
    .join('');
  return { facts: done.facts, passthrough, actions: all };
}

/** termsight's own queries, as the recorder wrote them. */
const OWN_QUERIES = new Set<string>([...Object.values(QUERIES), '\x1b_Gi=32,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\']);

/**
 * What the recorder asked beyond termsight's queries (DA3, DECRQM 2027, OSC 10, kitty keyboard,
 * XTGETTCAP, DECRQSS, iTerm2's cell size, CPR) is answered to nobody termsight knows: those replies
 * go on to the application, in the order the terminal sent them. Read from the single-query
 * recordings (each alone, its DA1 cut off), in the batch's order.
 */
function othersOf(f: Fixture): string {
  const da1 = f.results.find((r) => r.name === 'DA1');
  const sentinel = da1 ? da1.reply.slice(da1.reply.length / 2) : '';
  return f.results
    .filter((r) => !OWN_QUERIES.has(r.query) && r.name !== 'DA1')
    .map((r) => (sentinel !== '' && r.reply.endsWith(sentinel) ? r.reply.slice(0, -sentinel.length) : r.reply))
    .join('');
}

function nameOf(name: { name: string; version: string | null } | undefined): string | undefined {
  return name ? `${name.name} ${name.version}` : undefined;
}

function expectFacts(facts: ProbeFacts, row: Expected): void {
  expect(protocolFromFacts(facts)?.protocol ?? null).toBe(row.protocol);
  expect(nameOf(facts.terminal)).toBe(row.terminal);
  expect(nameOf(facts.multiplexer)).toBe(row.multiplexer);
  expect(facts.passthrough).toBe(row.passthrough);
  expect(facts.cellPixels ? [facts.cellPixels.width, facts.cellPixels.height] : undefined).toEqual(row.cell);
  expect(facts.synchronizedOutput?.supported).toBe(row.sync);
  expect(facts.background?.dark).toBe(row.dark);
  expect(facts.sixelColors?.registers).toBe(row.registers);
  expect(facts.kittyGraphics?.ok).toBe(row.kittyOk);
  expect(facts.timedOut).toBe(row.timedOut ?? false);
}

describe('every recorded terminal is classified through the reducer', () => {
  it('has an expectation for every recording', () => {
    expect([...fixtures.keys()].sort()).toEqual(EXPECTED.map((r) => r.file).sort());
  });

  it.each(EXPECTED)('$file in one chunk', (row) => {
    const f = fixture(row.file);
    const stream = bytesOf(f.batch.reply + f.batch.late);
    const { facts, passthrough } = runChunks(f, row, stream.length > 0 ? [stream] : []);
    expectFacts(facts, row);
    expect(passthrough).toBe(row.passthroughText ?? othersOf(f));
    expect(facts.sentinel).toBe(f.batch.sentinel);
  });

  it.each(EXPECTED)('$file byte by byte', (row) => {
    const f = fixture(row.file);
    const stream = bytesOf(f.batch.reply + f.batch.late);
    const { facts, passthrough } = runChunks(
      f,
      row,
      [...stream].map((b) => Uint8Array.of(b)),
    );
    expectFacts(facts, row);
    expect(passthrough).toBe(row.passthroughText ?? othersOf(f));
  });

  it.each(EXPECTED)('$file in random splits', (row) => {
    const f = fixture(row.file);
    const stream = bytesOf(f.batch.reply + f.batch.late);
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, stream.length - 1) }), { maxLength: 12 }),
        (cuts) => {
          const points = [0, ...cuts.filter((c) => c < stream.length).sort((a, b) => a - b), stream.length];
          const chunks = points.slice(1).map((end, i) => stream.subarray(points[i], end));
          const { facts, passthrough } = runChunks(f, row, chunks);
          expectFacts(facts, row);
          expect(passthrough).toBe(row.passthroughText ?? othersOf(f));
        },
      ),
      { numRuns: 25 },
    );
  });
});

/** Single-query recordings: what each one alone must say, given the terminal's row. */
const SINGLE: ReadonlyArray<readonly [query: string, check: (facts: ProbeFacts, row: Expected, text: string) => void]> =
  [
    ['XTVERSION', (facts, row) => expect(nameOf(facts.terminal)).toBe(row.terminal)],
    ['KITTY_GRAPHICS_QUERY', (facts, row) => expect(facts.kittyGraphics?.ok).toBe(row.kittyOk)],
    ['DECRQM_2026', (facts, row) => expect(facts.synchronizedOutput?.supported).toBe(row.sync)],
    [
      'XTWINOPS_16t_CELL_PX',
      (facts, row) =>
        expect(facts.cellPixels ? [facts.cellPixels.width, facts.cellPixels.height] : undefined).toEqual(row.cell),
    ],
    ['OSC11_BG', (facts, row) => expect(facts.background?.dark).toBe(row.dark)],
    ['XTSMGRAPHICS_SIXEL_COLORS', (facts, row) => expect(facts.sixelColors?.registers).toBe(row.registers)],
    [
      'DA1',
      (facts, row, text) => {
        expect(probeComplete(text)).toBe(facts.sentinel);
        if (row.protocol === 'sixel') expect(fromProbe(text)).toBe('sixel');
      },
    ],
  ];

const singleRows = EXPECTED.flatMap((row) =>
  SINGLE.map(([query, check]) => ({ file: row.file, query, row, check })),
).filter(({ file, query }) => fixture(file).results.some((r) => r.name === query));

describe('every single-query recording is classified', () => {
  it.each(singleRows)('$file $query', ({ file, query, row, check }) => {
    const result = fixture(file).results.find((r) => r.name === query)!;
    const text = result.reply + result.late;
    // `wrapped` promises tmux's own DA1 first: true of the `-wrapped` recordings (sentinel not
    // wrapped), not of `-wrapped-all` (query and sentinel wrapped together: only the outer answers).
    const context = row.multiplexer?.startsWith('screen')
      ? { multiplexer: 'screen' as const }
      : row.multiplexer || row.wrapped
        ? {
            multiplexer: 'tmux' as const,
            ...(file.endsWith('-wrapped-all.json') ? {} : { wrapped: row.wrapped === true }),
          }
        : { multiplexer: null };
    check(factsFromReplies(text, context), row, text);
  });
});

describe('the recordings are the repository’s own', () => {
  const listed = [
    ...readFileSync(path.join(REPLIES_DIR, 'README.md'), 'utf8').matchAll(/^\| `([^`]+\.json)` +\|/gm),
  ].map((m) => m[1]);
  it('lives inside the repository', () => {
    expect(path.relative(REPO_ROOT, REPLIES_DIR).startsWith('..')).toBe(false);
  });
  it('holds exactly the recordings its README lists, each with its terminal', () => {
    expect(listed.length).toBeGreaterThanOrEqual(15);
    expect(loadFixtures().map((f) => f.file)).toEqual([...listed].sort());
  });
});
