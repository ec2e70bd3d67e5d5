/**
 * The driver in-process over plain streams (no pty): how keys reach an application that is already
 * reading, one that reads later, and one with `setEncoding`; that every listener and patched method
 * is gone afterwards; aborts; a stream ending mid-probe; two probes on one input; and, as a property,
 * that keys interleaved anywhere with replies come back exactly.
 */
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { type DriverOptions, probeTty } from '../../src/probe/driver.js';
import { restoreTerminal } from '../../src/probe/exit-guard.js';
import { foregroundFromStat } from '../../src/probe/foreground.js';
import type { TerminalOutput } from '../../src/probe/terminal-stream.js';
import { answerFor, escapeSequences, isSentinel, loadTerminal } from './harness.js';

/** kitty, named by its TERM (the fake terminals answer with its recorded replies): one round. */
const runtime: Runtime = { env: { TERM: 'xterm-kitty' }, isTTY: { stdin: true, stdout: true }, platform: 'linux' };
const kitty = loadTerminal('kitty');

/** A terminal made of two plain streams; `respond` is called with the batch once it is written. */
function fakeTerminal(respond: (queries: string[], input: PassThrough) => void) {
  const input = new PassThrough();
  const written: Buffer[] = [];
  const output = {
    write(chunk: Uint8Array) {
      written.push(Buffer.from(chunk));
      const queries = escapeSequences(Buffer.concat(written).toString('latin1'));
      if (queries.some(isSentinel)) setImmediate(() => respond(queries, input));
      return true;
    },
  } as unknown as TerminalOutput;
  return { input, output, written };
}

const kittyAnswer = (queries: string[]) => {
  const { replies } = answerFor(kitty, queries);
  return { replies, all: replies.join('') + kitty.da1 };
};

const probe = (t: ReturnType<typeof fakeTerminal>, options: DriverOptions = {}) =>
  probeTty({ runtime, input: t.input, output: t.output, budgetMs: 500, lateMs: 0, ...options });

const settle = (ms = 5) => new Promise((r) => setTimeout(r, ms));

describe('foregroundFromStat', () => {
  it.each([
    {
      name: 'the foreground group is its own',
      stat: '4242 (node) S 4200 4242 4200 34816 4242 4194304 0',
      expected: true,
    },
    {
      name: 'another group in the foreground',
      stat: '4242 (node) S 4200 4242 4200 34816 4300 4194304 0',
      expected: false,
    },
    {
      name: 'parentheses inside the command name',
      stat: '4242 (my (odd) name) S 1 4242 4242 34816 4300 0',
      expected: false,
    },
    { name: 'no controlling terminal (tpgid -1)', stat: '4242 (a b) R 1 77 77 0 -1 0', expected: true },
    { name: 'not a stat line', stat: 'garbage', expected: null },
    { name: 'cut short', stat: '4242 (x) S 1', expected: null },
  ])('$name -> $expected', ({ stat, expected }) => {
    expect(foregroundFromStat(stat)).toBe(expected);
  });
});

describe('keys and replies on plain streams', () => {
  const keyRows = [
    { name: 'an application already reading gets only its keys, as they come', listenBefore: true, encoding: null },
    {
      name: 'an application reading after the probe gets the keys first (unshift)',
      listenBefore: false,
      encoding: null,
    },
    { name: 'with setEncoding the keys come as strings', listenBefore: true, encoding: 'utf8' as const },
  ];
  it.each(keyRows)('$name', async ({ listenBefore, encoding }) => {
    const t = fakeTerminal((queries, input) => {
      const { replies } = kittyAnswer(queries);
      input.write(`a${replies.slice(0, 3).join('')}\x1b[A`);
      input.write(`${replies.slice(3).join('')}é${kitty.da1}z`);
    });
    if (encoding) t.input.setEncoding(encoding);
    const got: (string | Buffer)[] = [];
    const listener = (chunk: string | Buffer) => got.push(chunk);
    if (listenBefore) t.input.on('data', listener);
    const facts = await probe(t);
    await settle();
    if (!listenBefore) t.input.on('data', listener);
    await settle();
    expect(facts.terminal?.name).toBe('kitty');
    expect(Buffer.concat(got.map((c) => Buffer.from(c))).toString('utf8')).toBe('a\x1b[Aéz');
    if (encoding) for (const chunk of got) expect(typeof chunk).toBe('string');
  });

  it('an application that paused its stream stays paused; its keys wait in the stream', async () => {
    const t = fakeTerminal((queries, input) => input.write(`p${kittyAnswer(queries).all}q`));
    const got: Buffer[] = [];
    t.input.on('data', (c: Buffer) => got.push(c));
    t.input.pause();
    await probe(t);
    await settle();
    expect(got).toHaveLength(0);
    expect(t.input.isPaused()).toBe(true);
    t.input.resume();
    await settle();
    expect(Buffer.concat(got).toString('latin1')).toBe('pq');
  });

  it('leaves no listener, patched method or flowing state behind', async () => {
    const t = fakeTerminal((queries, input) => input.write(kittyAnswer(queries).all));
    const events = ['data', 'end', 'close', 'error', 'newListener'] as const;
    const before = events.map((e) => t.input.listenerCount(e));
    const exitBefore = process.listenerCount('exit');
    await probe(t, { lateMs: 20 });
    await settle(40);
    expect(events.map((e) => t.input.listenerCount(e))).toEqual(before);
    expect(process.listenerCount('exit')).toBe(exitBefore);
    for (const name of ['emit', 'destroy', 'setRawMode']) expect(Object.hasOwn(t.input, name)).toBe(false);
    expect(t.input.readableFlowing).toBeNull();
  });

  it('swallows replies that come after the result, within the late window', async () => {
    const t = fakeTerminal((queries, input) => {
      input.write(kitty.da1);
      setTimeout(() => input.write(`x${kittyAnswer(queries).replies.join('')}y`), 10);
    });
    const got: Buffer[] = [];
    t.input.on('data', (c: Buffer) => got.push(c));
    const facts = await probe(t, { lateMs: 100 });
    await settle(60);
    expect(facts.terminal).toBeUndefined();
    expect(Buffer.concat(got).toString('latin1')).toBe('xy');
  });
});

describe('the late window, on a fake clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });
  /** Lets the streams deliver what was written (they run on real microtasks and setImmediate). */
  const deliver = () => new Promise((r) => setImmediate(r));
  const attached = (input: PassThrough) => Object.hasOwn(input, 'emit');

  it.each([
    { name: 'answered: lateMs after the result', late: null, detachedAfter: 50 },
    { name: 'before the sentinel, which then comes: lateMs after it', late: 'sentinel', detachedAfter: 50 },
    {
      name: 'before the sentinel, which never comes: outstandingMs after the result',
      late: 'none',
      detachedAfter: 4000,
    },
  ] as const)('$name', async ({ late, detachedAfter }) => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    let input: PassThrough | null = null;
    const t = fakeTerminal((queries, i) => {
      input = i;
      if (late === null) i.write(kittyAnswer(queries).all);
    });
    const probing = probe(t, { budgetMs: 30, lateMs: 50, outstandingMs: 4000 });
    await deliver();
    await deliver();
    if (late !== null) await vi.advanceTimersByTimeAsync(30);
    const facts = await probing;
    expect(facts.timedOut).toBe(late !== null);
    if (late === 'sentinel') {
      (input as PassThrough | null)?.write(kittyAnswer([]).all);
      await deliver();
    }
    await vi.advanceTimersByTimeAsync(detachedAfter - 1);
    expect(attached(t.input)).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(attached(t.input)).toBe(false);
  });
});

describe('the exit and signal hooks', () => {
  /** A plain stream that plays a terminal in raw mode. */
  function rawTerminal(respond: (queries: string[], input: PassThrough) => void) {
    const t = fakeTerminal(respond);
    const modes: boolean[] = [];
    Object.assign(t.input, {
      isTTY: true,
      isRaw: false,
      setRawMode(this: { isRaw: boolean }, mode: boolean) {
        this.isRaw = mode;
        modes.push(mode);
      },
    });
    return { ...t, modes };
  }
  const HOOKED = ['exit', 'SIGHUP', 'SIGTERM', 'SIGQUIT'] as const;
  const counts = () => HOOKED.map((name) => process.listenerCount(name));

  it('exist only while a probe holds raw mode, and restoreTerminal() restores it at once', async () => {
    let input: PassThrough | null = null;
    const t = rawTerminal((_, i) => {
      input = i;
    });
    const before = counts();
    const probing = probe(t, { budgetMs: 5000 });
    await settle();
    expect(counts()).toEqual(before.map((n) => n + 1));
    expect(t.modes).toEqual([true]);
    restoreTerminal();
    expect(t.modes).toEqual([true, false]);
    expect(counts()).toEqual(before);
    (input as PassThrough | null)?.write(kitty.da1);
    await probing;
    await settle();
    expect(t.modes).toEqual([true, false]); // restored once, not again
    expect(counts()).toEqual(before);
  });

  it('an ordinary end restores the mode and removes the hooks', async () => {
    const t = rawTerminal((queries, input) => input.write(kittyAnswer(queries).all));
    const before = counts();
    const facts = await probe(t);
    await settle();
    expect(facts.terminal?.name).toBe('kitty');
    expect(t.modes).toEqual([true, false]);
    expect(counts()).toEqual(before);
  });
});

describe('ending early', () => {
  it('an aborted signal rejects before anything is written', async () => {
    const t = fakeTerminal(() => {});
    const controller = new AbortController();
    controller.abort();
    await expect(probe(t, { signal: controller.signal })).rejects.toThrow();
    expect(t.written).toHaveLength(0);
  });

  it('an abort mid-probe rejects with the reason and cleans up', async () => {
    const t = fakeTerminal(() => {});
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop')), 20);
    await expect(probe(t, { signal: controller.signal, budgetMs: 5000 })).rejects.toThrow('stop');
    await settle();
    expect(Object.hasOwn(t.input, 'emit')).toBe(false);
  });

  it('an exception in a callback rejects with it and cleans up', async () => {
    const t = fakeTerminal(() => {});
    const boom = new Error('trace failed');
    await expect(
      probe(t, {
        onTrace: () => {
          throw boom;
        },
      }),
    ).rejects.toBe(boom);
    expect(Object.hasOwn(t.input, 'emit')).toBe(false);
    expect(t.input.listenerCount('end')).toBe(0);
  });

  it('the input ending mid-probe resolves with what came', async () => {
    const t = fakeTerminal((queries, input) => {
      input.write(kittyAnswer(queries).replies[0]!);
      setTimeout(() => input.end(), 10);
    });
    const facts = await probe(t, { budgetMs: 5000 });
    expect(facts.sentinel).toBe(false);
    expect(facts.timedOut).toBe(true);
    expect(facts.terminal?.name).toBe('kitty');
  });

  it('a silent terminal gives up at the budget', async () => {
    const t = fakeTerminal(() => {});
    const facts = await probe(t, { budgetMs: 30 });
    expect(facts.timedOut).toBe(true);
    expect(facts.elapsedMs).toBeGreaterThanOrEqual(30);
  });

  it('a second probe on the same input waits for the first to end', async () => {
    let batches = 0;
    const t = fakeTerminal((queries, input) => {
      batches++;
      input.write(kittyAnswer(queries).all);
    });
    const first = probe(t, { lateMs: 50 });
    const second = first.then(() => probe(t));
    const [a, b] = await Promise.all([first, second]);
    expect(a.terminal?.name).toBe('kitty');
    expect(b.terminal?.name).toBe('kitty');
    expect(batches).toBe(2);
  });
});

describe('property: keys interleaved anywhere with replies come back exactly', () => {
  const key = fc.constantFrom('a', 'Z', ' ', '\r', '\x7f', 'é', '\x1b[A', '\x1bOB', '\x1b[1;5C', '\x1b[3~');
  it('for any keys and any chunking', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.nat(20), fc.array(key, { maxLength: 3 })), { maxLength: 6 }),
        fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
        async (insertions, cuts) => {
          let typed = '';
          const t = fakeTerminal((queries, input) => {
            const { replies } = kittyAnswer(queries);
            // Keys go between whole replies (a key inside a reply is not something a terminal does).
            const parts = [...replies, kitty.da1];
            const slots: string[][] = parts.map(() => []);
            for (const [at, keys] of insertions) slots[at % parts.length]!.push(...keys);
            let stream = '';
            parts.forEach((p, i) => {
              const keys = slots[i]!.join('');
              typed += keys;
              stream += keys + p;
            });
            const bytes = Buffer.from(stream, 'utf8');
            let at = 0;
            for (let i = 0; at < bytes.length; i++) {
              const size = cuts[i % cuts.length]!;
              input.write(bytes.subarray(at, at + size));
              at += size;
            }
          });
          const got: Buffer[] = [];
          t.input.on('data', (c: Buffer) => got.push(c));
          const facts = await probe(t, { budgetMs: 2000 });
          await settle(1);
          expect(facts.terminal?.name).toBe('kitty');
          expect(Buffer.concat(got).toString('utf8')).toBe(typed);
        },
      ),
      { numRuns: 60 },
    );
  });
});
