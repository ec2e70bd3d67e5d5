/**
 * Record and replay (src/probe/recording.ts): a probe recorded live (the real driver against
 * @xterm/headless as the terminal) replays to the same facts and report; every recorded reply
 * fixture (test/fixtures/replies, read losslessly into the format) replays to the report the
 * suite has always resolved from it; the environment keeps only what termsight reads and nothing
 * personal; a broken recording is one clear error; `termsight replay` prints the same report.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { probeTty } from '../../src/probe/driver.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import {
  createRecorder,
  parseRecording,
  RECORDING_FORMAT,
  RECORDING_VERSION,
  type Recording,
  replay,
  SCRUBBED,
  scrubEnv,
} from '../../src/probe/recording.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { context } from '../cli/show-support.js';
import { type Fixture, loadFixtures } from './fixtures.js';

/** A report without the one answer that is a measurement (how long the probe took). */
const answers = (r: Report): Omit<Report, 'probeMs'> => {
  const { probeMs: _, ...rest } = r;
  return rest;
};
const withoutTime = (f: ProbeFacts): Omit<ProbeFacts, 'elapsedMs'> => {
  const { elapsedMs: _, ...rest } = f;
  return rest;
};

/** @xterm/headless as the terminal at the other end of two streams. */
function headlessTerminal(): { input: PassThrough; output: Writable; dispose: () => void } {
  const terminal = new xterm.Terminal({ allowProposedApi: true, cols: 80, rows: 24 });
  const input = new PassThrough();
  terminal.onData((data) => input.write(Buffer.from(data, 'latin1')));
  const output = new Writable({
    write(chunk: Buffer, _encoding, done) {
      terminal.write(new Uint8Array(chunk), () => done());
    },
  });
  return { input, output, dispose: () => terminal.dispose() };
}

describe('a live probe, recorded, replays to the same facts and report', () => {
  it.each<{ name: string; env: Record<string, string> }>([
    { name: 'xterm.js named by VS Code', env: { TERM: 'xterm-256color', TERM_PROGRAM: 'vscode' } },
    { name: 'xterm.js named by nothing (a guarded round)', env: { TERM: 'xterm-256color' } },
  ])('$name', async ({ env }) => {
    const runtime: Runtime = {
      env: { ...env, HOME: '/home/ann', USER: 'ann' },
      platform: 'linux',
      isTTY: { stdin: true, stdout: true },
    };
    const term = headlessTerminal();
    const recorder = createRecorder(runtime, '0.0.0-test');
    const facts = await probeTty({
      runtime,
      input: term.input as unknown as NodeJS.ReadStream,
      output: term.output as unknown as NodeJS.WriteStream,
      onTrace: recorder.onTrace,
      onTick: recorder.onTick,
      lateMs: 0,
      kittyLocal: false,
    });
    term.dispose();
    const recording = parseRecording(JSON.stringify(recorder.finish(facts, null)));
    expect(recording.events.some((e) => e.direction === 'in')).toBe(true);
    expect(recording.env).toEqual(env);
    const again = replay(recording);
    expect(withoutTime(again.facts)).toEqual(withoutTime(facts));
    const live = resolveReport(runtime, facts, { stream: 'tty' });
    expect(answers(resolveReport(again.runtime, again.facts, { stream: 'tty' }))).toEqual(answers(live));
  });
});

/**
 * The lossless reader of the founding recordings (test/fixtures/replies/README.md): the batch as
 * one reply after the query, at its recorded latency, the environment as recorded.
 */
function fromReplyFixture(f: Fixture & { batch: { totalLatencyMs?: number | null } }): Recording {
  return {
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    termsight: 'founding recorder',
    source: `test/fixtures/replies/${f.file}`,
    platform: 'linux',
    isTTY: { stdin: true, stdout: true, stderr: true },
    env: f.env ?? {},
    probe: { kittyLocal: false },
    events: [
      { atMs: 0, direction: 'out', bytes: '' },
      ...(f.batch.reply === ''
        ? []
        : [{ atMs: f.batch.totalLatencyMs ?? 1, direction: 'in' as const, bytes: f.batch.reply }]),
    ],
    tmux: null,
  };
}

describe('every recorded reply fixture replays to the report resolved from it', () => {
  // The founding recorder asked its own 22 queries, wrapped for tmux in the `-wrapped` files only:
  // behind a multiplexer the others replay as termsight reads an unwrapped stream (no outer round).
  it.each(loadFixtures().map((f) => ({ name: f.file, f })))('$name', ({ f }) => {
    const recording = fromReplyFixture(f);
    const wrapped = f.file.includes('wrapped');
    const mux = /tmux|screen/.test(f.file) && !wrapped;
    const { runtime, facts } = replay(
      mux ? { ...recording, probe: { ...recording.probe, askOuter: false } } : recording,
    );
    const direct = factsFromReplies(f.batch.reply, { sentinel: f.batch.sentinel, ...(wrapped ? { wrapped } : {}) });
    const tty = { stdin: true, stdout: true, stderr: true };
    const expected = resolveReport({ env: f.env ?? {}, isTTY: tty }, direct, { stream: 'tty' });
    const got = resolveReport({ ...runtime, env: f.env ?? {} }, facts, { stream: 'tty' });
    expect(got.graphics).toBe(expected.graphics);
    expect(got.terminal).toEqual(expected.terminal);
    expect(got.multiplexer?.name ?? null).toBe(expected.multiplexer?.name ?? null);
    expect(got.cellPixels).toEqual(expected.cellPixels);
    expect(got.background).toEqual(expected.background);
    expect(got.sixelColors).toBe(expected.sixelColors);
  });
});

describe('scrubEnv', () => {
  it.each<{ name: string; env: Record<string, string>; kept: Record<string, string> }>([
    {
      name: 'only what termsight reads',
      env: { TERM: 'xterm-kitty', HOME: '/home/ann', PATH: '/usr/bin', EDITOR: 'vi', KITTY_WINDOW_ID: '3' },
      kept: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '3' },
    },
    {
      name: 'identity values kept, paths and addresses replaced',
      env: {
        TERM_PROGRAM: 'iTerm.app',
        TERM_PROGRAM_VERSION: '3.5.0',
        TMUX: '/tmp/tmux-1000/default,123,0',
        SSH_CONNECTION: '10.0.0.2 5122 10.0.0.1 22',
        SSH_TTY: '/dev/pts/3',
      },
      kept: {
        TERM_PROGRAM: 'iTerm.app',
        TERM_PROGRAM_VERSION: '3.5.0',
        TMUX: SCRUBBED,
        SSH_CONNECTION: SCRUBBED,
        SSH_TTY: SCRUBBED,
      },
    },
    {
      name: "a value holding the user's name",
      env: { USER: 'annabel', LC_TERMINAL: 'annabel-term', TERM: 'xterm' },
      kept: { LC_TERMINAL: SCRUBBED, TERM: 'xterm' },
    },
  ])('$name', ({ env, kept }) => {
    expect(scrubEnv(env)).toEqual(kept);
  });
});

describe('parseRecording refuses what is not a recording, in one line', () => {
  const good = (): Record<string, unknown> => ({
    format: RECORDING_FORMAT,
    version: 1,
    env: {},
    events: [],
    probe: { kittyLocal: false },
    isTTY: { stdin: true, stdout: true },
    tmux: null,
  });
  it.each<{ name: string; text: string; error: RegExp }>([
    { name: 'not JSON', text: '{', error: /not JSON/ },
    { name: 'another format', text: JSON.stringify({ ...good(), format: 'x' }), error: /format/ },
    { name: 'a newer version', text: JSON.stringify({ ...good(), version: 2 }), error: /version 2/ },
    {
      name: 'an event without bytes',
      text: JSON.stringify({ ...good(), events: [{ atMs: 1, direction: 'in' }] }),
      error: /event/,
    },
    { name: 'env of numbers', text: JSON.stringify({ ...good(), env: { TERM: 1 } }), error: /env/ },
  ])('$name', ({ text, error }) => {
    expect(() => parseRecording(text)).toThrow(error);
  });
  it('a good one parses', () => {
    expect(parseRecording(JSON.stringify(good())).events).toEqual([]);
  });
});

describe('termsight replay', () => {
  it('prints the report the recording resolves to; a bad file is exit 2', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'termsight-replay-'));
    const vt340 = loadFixtures().find((f) => f.file === 'xterm-vt340.json') as Fixture;
    const file = path.join(dir, 'rec.json');
    writeFileSync(file, JSON.stringify(fromReplyFixture(vt340)));
    const { ctx, stdout } = context({ env: { TERM: 'dumb' } });
    expect(await runCli(['replay', file, '--json'], ctx)).toBe(0);
    const report = JSON.parse(stdout.text) as Report;
    expect(report.graphics).toBe('sixel');
    expect(report.terminal.name?.toLowerCase()).toBe('xterm');
    const bad = path.join(dir, 'bad.json');
    writeFileSync(bad, '{"format":"nope"}');
    const out = context({ env: {} });
    expect(await runCli(['replay', bad], out.ctx)).toBe(2);
    expect(out.stderr.text).toMatch(/^termsight: replay: not a termsight recording: format/);
  });
});

describe('recorded ticks replay a late timer as it fired', () => {
  const recording = (ticks: boolean): Recording => ({
    format: RECORDING_FORMAT,
    version: RECORDING_VERSION,
    termsight: 'test',
    source: 'test',
    platform: 'linux',
    isTTY: { stdin: true, stdout: true },
    env: { TERM: 'xterm-256color', TERM_PROGRAM: 'vscode' },
    probe: { budgetMs: 100, kittyLocal: false },
    // The deadline (100 ms) passed while the machine was busy: the reply was read at 105 ms,
    // before the timer fired at 106 ms, so the live probe had its answer.
    events: [
      { atMs: 0, direction: 'out', bytes: '\x1b[c' },
      { atMs: 105, direction: 'in', bytes: '\x1b[?62;4c' },
      ...(ticks ? [{ atMs: 106, direction: 'tick' as const, bytes: '' }] : []),
    ],
    tmux: null,
  });
  it('with its ticks: answered, as live', () => {
    const { facts } = replay(recording(true));
    expect(facts.sentinel).toBe(true);
    expect(facts.timedOut).toBe(false);
    expect(facts.da1?.attributes).toEqual([4]);
  });
  it('without them (ticks on time): the deadline came first', () => {
    expect(replay(recording(false)).facts.timedOut).toBe(true);
  });
});
