/**
 * Sharing the terminal: answer keys of queries and replies as tables, the routing rule as a table,
 * the reducer carrying an application's asks in its batch (one DA1 for all, each reply to its asker,
 * nobody's replies on to the application, late ones swallowed), and the driver's `askTerminal` and
 * concurrent probes over plain streams.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { toBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import { OWN_KEYS, queryKey, replyKey, routeReply } from '../../src/probe/asks.js';
import { askTerminal, type DriverOptions, probeTty } from '../../src/probe/driver.js';
import type { ProbeAction } from '../../src/probe/events.js';
import { createProbe, type ProbeState, stepProbe } from '../../src/probe/reducer.js';
import { createScanner, scanReplies } from '../../src/probe/scanner.js';
import type { TerminalOutput } from '../../src/probe/terminal-stream.js';
import { answerFor, escapeSequences, isSentinel, loadTerminal } from '../pty/harness.js';

const latin1 = (bytes: Uint8Array | null): string | null =>
  bytes === null ? null : Buffer.from(bytes).toString('latin1');

/** The one reply token a whole sequence scans to (or null: not reply-shaped). */
function token(text: string) {
  const { tokens } = scanReplies(createScanner(), toBytes(text));
  return tokens.length === 1 && tokens[0].type === 'reply' ? tokens[0] : null;
}

describe('answer keys: a query and its reply share one', () => {
  it.each([
    { name: 'osc:11', query: '\x1b]11;?\x1b\\', reply: '\x1b]11;rgb:0000/0000/0000\x1b\\', key: 'osc:11' },
    { name: 'osc:10', query: '\x1b]10;?\x07', reply: '\x1b]10;rgb:dddd/dddd/dddd\x07', key: 'osc:10' },
    { name: 'osc:4:1', query: '\x1b]4;1;?\x1b\\', reply: '\x1b]4;1;rgb:cdcd/0000/0000\x1b\\', key: 'osc:4:1' },
    { name: 'kittyKeyboard', query: '\x1b[?u', reply: '\x1b[?1u', key: 'kittyKeyboard' },
    { name: 'dsr:5', query: '\x1b[5n', reply: '\x1b[0n', key: 'dsr:5' },
    { name: 'dsr:?996', query: '\x1b[?996n', reply: '\x1b[?997;1n', key: 'dsr:?996' },
    { name: 'decxcpr', query: '\x1b[?6n', reply: '\x1b[?12;40;1R', key: 'decxcpr' },
    { name: 'da1', query: '\x1b[c', reply: '\x1b[?62;22c', key: 'da1' },
    { name: 'da2', query: '\x1b[>c', reply: '\x1b[>1;4000;29c', key: 'da2' },
    { name: 'xtversion', query: '\x1b[>q', reply: '\x1bP>|kitty(0.26.5)\x1b\\', key: 'xtversion' },
    { name: 't:6', query: '\x1b[16t', reply: '\x1b[6;19;10t', key: 't:6' },
    { name: 't:4', query: '\x1b[14t', reply: '\x1b[4;456;800t', key: 't:4' },
    { name: 'decrqm:?2026', query: '\x1b[?2026$p', reply: '\x1b[?2026;2$y', key: 'decrqm:?2026' },
    { name: 'decrqm:?2027', query: '\x1b[?2027$p', reply: '\x1b[?2027;0$y', key: 'decrqm:?2027' },
    { name: 'xtsmgraphics:1', query: '\x1b[?1;1;0S', reply: '\x1b[?1;0;256S', key: 'xtsmgraphics:1' },
    { name: 'apc:7', query: '\x1b_Gi=7,a=q,s=1,v=1;AAAA\x1b\\', reply: '\x1b_Gi=7;OK\x1b\\', key: 'apc:7' },
    { name: 'xtgettcap', query: '\x1bP+q544e\x1b\\', reply: '\x1bP1+r544e=6b69747479\x1b\\', key: 'xtgettcap' },
    { name: 'decrqss', query: '\x1bP$qm\x1b\\', reply: '\x1bP1$r0m\x1b\\', key: 'decrqss' },
  ])('$name', ({ query, reply, key }) => {
    expect(queryKey(query)).toBe(key);
    const t = token(reply);
    expect(t, 'the scanner takes the reply as one').not.toBeNull();
    expect(replyKey(t as NonNullable<typeof t>)).toBe(key);
  });

  it.each([
    { name: 'plain CPR: its reply is also Shift+F3', query: '\x1b[6n' },
    { name: 'not a query', query: 'hello' },
    { name: 'an APC that only stores', query: '\x1b_Gi=7,a=t;AAAA\x1b\\' },
    { name: 'a mode set, not asked', query: '\x1b[?2026h' },
  ])('no key: $name', ({ query }) => {
    expect(queryKey(query)).toBeNull();
  });
});

describe('routeReply', () => {
  const pending = [
    { ask: 0, key: 'osc:10' },
    { ask: 1, key: 'kittyKeyboard' },
    { ask: 2, key: 'osc:10' },
  ];
  it.each([
    {
      name: 'an ask waiting for it, the first written',
      key: 'osc:10',
      shared: [],
      route: { to: 'ask', ask: 0, own: false },
    },
    { name: "termsight's own", key: 't:6', shared: [], route: { to: 'own' } },
    {
      name: 'shared with termsight: a copy',
      key: 'osc:11',
      shared: [{ ask: 3, key: 'osc:11' }],
      route: { to: 'ask', ask: 3, own: true },
    },
    { name: "nobody's in this round", key: 'dsr:?996', shared: [], route: { to: 'application' } },
    { name: 'no key at all', key: null, shared: [], route: { to: 'application' } },
  ])('$name', ({ key, shared, route }) => {
    expect(routeReply(key, pending, shared, OWN_KEYS)).toEqual(route);
  });
});

const runtime: Runtime = { env: { TERM: 'xterm-kitty' }, isTTY: { stdin: true, stdout: true }, platform: 'linux' };

/** Runs the reducer from start over these chunks, then clock ticks until done and 200 ms after. */
function run(options: Parameters<typeof createProbe>[1], chunks: readonly string[], late: readonly string[] = []) {
  let [state, actions]: [ProbeState, ProbeAction[]] = stepProbe(
    createProbe(runtime, { nowMs: 0, budgetMs: 100, tty: true, ...options }),
    {
      type: 'start',
    },
  );
  const all = [...actions];
  for (const chunk of chunks) {
    [state, actions] = stepProbe(state, { type: 'input', bytes: toBytes(chunk) });
    all.push(...actions);
  }
  for (let t = 1; state.phase !== 'done' && t < 1000; t += 10) {
    [state, actions] = stepProbe(state, { type: 'clock', nowMs: t });
    all.push(...actions);
  }
  for (const chunk of late) {
    [state, actions] = stepProbe(state, { type: 'input', bytes: toBytes(chunk) });
    all.push(...actions);
  }
  const written = all.filter((a) => a.type === 'write').map((a) => latin1(a.bytes));
  const keys = all
    .filter((a) => a.type === 'keys')
    .map((a) => latin1(a.bytes))
    .join('');
  const answers = all.filter((a) => a.type === 'answer').map((a) => [a.ask, latin1(a.bytes)]);
  const swallowed = all.filter((a) => a.type === 'swallowed').map((a) => latin1(a.bytes));
  const done = all.find((a) => a.type === 'done');
  return { written, keys, answers, swallowed, facts: done?.type === 'done' ? done.facts : null };
}

const kitty = loadTerminal('kitty');
const BG = '\x1b]11;rgb:0000/0000/0000\x1b\\';

describe('the reducer with asks', () => {
  it('writes the asks before the one DA1 of the batch and routes each reply to its asker', () => {
    const asks = ['\x1b]10;?\x1b\\', '\x1b[?996n'].map(toBytes);
    const r = run({ asks }, []);
    const sequences = escapeSequences(r.written[0] ?? '');
    expect(sequences.filter(isSentinel)).toHaveLength(1);
    expect(sequences.slice(-3)).toEqual(['\x1b]10;?\x1b\\', '\x1b[?996n', '\x1b[c']);
  });

  it("replies in the terminal's order: termsight's, the asks', a key typed between, nobody's passed on", () => {
    const asks = ['\x1b]10;?\x1b\\', '\x1b[?996n'].map(toBytes);
    const r = run({ asks }, [
      `${kitty.replies.get('\x1b[>q')}\x1b]10;rgb:dddd/dddd/dddd\x1b\\x\x1b[?1u\x1b[?997;1n${kitty.da1}`,
    ]);
    expect(r.answers).toEqual([
      [0, '\x1b]10;rgb:dddd/dddd/dddd\x1b\\'],
      [1, '\x1b[?997;1n'],
    ]);
    // The key and the answer to Ink's own `CSI ? u` (termsight did not send it) go on, in order.
    expect(r.keys).toBe('x\x1b[?1u');
    expect(r.facts?.terminal?.name).toBe('kitty');
  });

  it('an ask that shares a query of the batch (OSC 11) is not written twice and gets a copy', () => {
    const r = run({ asks: [toBytes('\x1b]11;?\x07')] }, [`${BG}${kitty.da1}`]);
    const sequences = escapeSequences(r.written[0] ?? '');
    expect(sequences.filter((q) => q.startsWith('\x1b]11;'))).toHaveLength(1);
    expect(r.answers).toEqual([[0, BG]]);
    expect(r.facts?.background?.dark).toBe(true);
  });

  it('an ask the terminal does not answer is null at the sentinel', () => {
    const r = run({ asks: [toBytes('\x1b[?996n')] }, [kitty.da1]);
    expect(r.answers).toEqual([[0, null]]);
  });

  it('an ask still open when the probe times out is null; its late reply is swallowed, a stranger is passed on', () => {
    const r = run({ asks: [toBytes('\x1b[?996n')] }, [], ['\x1b[?997;2n\x1b[?1u', kitty.da1]);
    expect(r.answers).toEqual([[0, null]]);
    expect(r.facts?.timedOut).toBe(true);
    expect(r.swallowed).toEqual(['\x1b[?997;2n', kitty.da1]);
    expect(r.keys).toBe('\x1b[?1u');
  });

  it('asksOnly: only the asks and a DA1 are written, and no further round follows', () => {
    const r = run({ asks: [toBytes('\x1b[5n')], asksOnly: true }, [`\x1b[0n${kitty.da1}`]);
    expect(r.written).toEqual(['\x1b[5n\x1b[c']);
    expect(r.answers).toEqual([[0, '\x1b[0n']]);
  });

  it('a query with no routable reply is a TypeError naming it', () => {
    expect(() => createProbe(runtime, { asks: [toBytes('\x1b[6n')] })).toThrow(/asks\[0\]/);
  });
});

/** Two plain streams that answer every DA1-ended round as kitty would, plus `extra` replies after each sentinel query's own. */
function fakeTerminal(extra: Record<string, string> = {}) {
  const input = new PassThrough() as PassThrough & { isTTY: boolean; isRaw: boolean; setRawMode(m: boolean): void };
  input.isTTY = true;
  input.isRaw = false;
  const modes: boolean[] = [];
  input.setRawMode = (mode: boolean) => {
    modes.push(mode);
    input.isRaw = mode;
  };
  let rounds = 0;
  const output = {
    write(chunk: Uint8Array) {
      const queries = escapeSequences(Buffer.from(chunk).toString('latin1'));
      if (!queries.some(isSentinel)) return true;
      rounds += 1;
      const answers = queries.map((q) =>
        isSentinel(q) ? kitty.da1 : (extra[q] ?? answerFor(kitty, [q]).replies.join('')),
      );
      setImmediate(() => input.write(answers.join('')));
      return true;
    },
  } as unknown as TerminalOutput;
  return { input, output, modes, rounds: () => rounds };
}

describe('the driver: askTerminal and probes sharing one terminal', () => {
  const options = (t: ReturnType<typeof fakeTerminal>): DriverOptions => ({
    runtime,
    input: t.input,
    output: t.output,
    budgetMs: 500,
    lateMs: 0,
  });

  it('an ask made with a probe rides in its batch: one round, each answered', async () => {
    const t = fakeTerminal({ '\x1b[?996n': '\x1b[?997;1n' });
    const [facts, answers] = await Promise.all([
      probeTty(options(t)),
      askTerminal(['\x1b[?996n', '\x1b]11;?\x1b\\'], options(t)),
    ]);
    expect(t.rounds()).toBe(1);
    expect(facts.terminal?.name).toBe('kitty');
    expect(answers.map(latin1)).toEqual(['\x1b[?997;1n', kitty.replies.get('\x1b]11;?\x1b\\')]);
  });

  it('a probe called just after an ask joins it: one round, the probe answered too', async () => {
    const t = fakeTerminal({ '\x1b[5n': '\x1b[0n' });
    const asking = askTerminal(['\x1b[5n'], options(t));
    const facts = await probeTty(options(t));
    expect((await asking).map(latin1)).toEqual(['\x1b[0n']);
    expect(facts.terminal?.name).toBe('kitty');
    expect(t.rounds()).toBe(1);
  });

  it('an ask alone gets a round of its own (the query and a DA1)', async () => {
    const t = fakeTerminal({ '\x1b[5n': '\x1b[0n' });
    const answers = await askTerminal(['\x1b[5n'], options(t));
    expect(answers.map(latin1)).toEqual(['\x1b[0n']);
    expect(t.rounds()).toBe(1);
    expect(t.modes).toEqual([true, false]);
  });

  it('three probes at once: one round, one answer, raw mode set and restored once', async () => {
    const t = fakeTerminal();
    const all = await Promise.all([probeTty(options(t)), probeTty(options(t)), probeTty(options(t))]);
    expect(t.rounds()).toBe(1);
    expect(new Set(all).size).toBe(1);
    expect(t.modes).toEqual([true, false]);
  });

  it('a probe after one has answered is a new round, after the first let go', async () => {
    const t = fakeTerminal();
    await probeTty(options(t));
    await probeTty(options(t));
    expect(t.rounds()).toBe(2);
    expect(t.modes).toEqual([true, false, true, false]);
  });

  it('a budget past the timer range waits without a TimeoutOverflowWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const input = new PassThrough();
      const controller = new AbortController();
      const output = { write: () => true } as unknown as TerminalOutput;
      const probing = probeTty({ runtime, input, output, budgetMs: 1e12, lateMs: 0, signal: controller.signal });
      await new Promise((r) => setTimeout(r, 50));
      controller.abort();
      await expect(probing).rejects.toThrow();
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('TimeoutOverflowWarning');
    } finally {
      process.off('warning', onWarning);
    }
  });
});
