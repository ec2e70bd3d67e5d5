/**
 * The input guard on a real Readable (not Ink): an application's ask (`askInsideInk`) while a
 * reader pulls stdin as Ink's App does (`'readable'`, `read()`), with and without a `'data'`
 * listener that waits for the kitty keyboard answer as Ink 6.8 and 7 do (it takes every chunk it
 * sees, and on its answer stops listening and `unshift`s the rest: node_modules/ink7/build/ink.js,
 * `confirmKittySupport`). The pty test runs the same against real Ink 6, 7 and 8.
 */
import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { askInsideInk } from '../../src/ink/input-guard.js';
import type { TerminalOutput } from '../../src/probe/terminal-stream.js';
import { escapeSequences, isSentinel, loadTerminal } from '../pty/harness.js';

const runtime: Runtime = { env: { TERM: 'xterm-kitty' }, isTTY: { stdin: true, stdout: true }, platform: 'linux' };
const kitty = loadTerminal('kitty');
const OSC11 = '\x1b]11;?\x1b\\';
const BACKGROUND = kitty.replies.get(OSC11) ?? '';
const INK_ANSWER = kitty.replies.get('\x1b[?u') ?? '';

/** Ink 6.8's and 7's wait for their answer, as they do it: every 'data' chunk kept; on the answer, the rest unshifted. */
function inkDetector(stdin: PassThrough) {
  const seen: number[] = [];
  const detector = { seen: '', answered: false };
  const onData = (chunk: Buffer | string): void => {
    for (const byte of Buffer.from(chunk)) seen.push(byte);
    const text = Buffer.from(seen).toString('latin1');
    const answer = /\x1b\[\?\d+u/.exec(text);
    if (!answer) return;
    stdin.off('data', onData);
    detector.seen = text;
    detector.answered = true;
    const rest = text.slice(0, answer.index) + text.slice(answer.index + answer[0].length);
    if (rest.length > 0) stdin.unshift(Buffer.from(rest, 'latin1'));
  };
  stdin.on('data', onData);
  return detector;
}

interface Row {
  readonly name: string;
  /** Whether a `'data'` listener waits for Ink's answer (Ink 6.8, 7), or the App reads it with the keys (Ink 8). */
  readonly detector: boolean;
  /** Typed at once after the ask starts, before the driver listens. */
  readonly early: string;
  /** Typed right after the sentinel's reply, in the same read (the driver lets go meanwhile: lateMs 0). */
  readonly after?: string;
  /** What the reader (Ink's App) reads: the keys once each, in order, and Ink 8's answer with them. */
  readonly read: string;
}

const rows: Row[] = [
  {
    name: "Ink 6.8/7: the answer to the 'data' listener alone, the keys to read() once",
    detector: true,
    early: '',
    read: 'ab',
  },
  {
    name: 'Ink 8: the answer on to read() in its place among the keys',
    detector: false,
    early: '',
    read: `a${INK_ANSWER}b`,
  },
  {
    name: 'a key typed before the driver listens waits in stdin, then comes first',
    detector: true,
    early: 'k',
    read: 'kab',
  },
  { name: 'the same without the detector', detector: false, early: 'k', read: `ka${INK_ANSWER}b` },
  { name: 'a key right after the sentinel comes last', detector: true, early: '', after: 'z', read: 'abz' },
  { name: 'the same without the detector', detector: false, early: '', after: 'z', read: `a${INK_ANSWER}bz` },
];

describe('the input guard shares stdin with a reader and a data listener', () => {
  it.each(rows)('$name', async (row) => {
    const stdin = new PassThrough() as PassThrough & { isTTY: boolean };
    stdin.isTTY = true;
    let read = '';
    stdin.on('readable', () => {
      for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read())
        read += Buffer.from(chunk).toString('latin1');
    });
    const detector = row.detector ? inkDetector(stdin) : null;
    // The terminal answers Ink's query (asked at render, first), the ask, and the sentinel; the user types between.
    const stdout = {
      write(chunk: Uint8Array | string) {
        const sequences = escapeSequences(Buffer.from(chunk).toString('latin1'));
        if (sequences.some(isSentinel)) {
          expect(sequences).toContain(OSC11);
          setImmediate(() => stdin.write(`a${INK_ANSWER}${BACKGROUND}b${kitty.da1}${row.after ?? ''}`));
        }
        return true;
      },
    } as unknown as TerminalOutput;
    const asking = askInsideInk({ stdin, stdout, setRawMode: () => {}, queries: [OSC11], runtime, lateMs: 0 });
    if (row.early) stdin.write(row.early);
    const [background] = await asking;
    expect(Buffer.from(background ?? []).toString('latin1')).toBe(BACKGROUND);
    // The keys reach the reader after the driver lets go at the latest: wait for as many bytes, then a turn more.
    for (const end = performance.now() + 5000; read.length < row.read.length && performance.now() < end; )
      await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(read).toBe(row.read);
    if (detector) expect(detector).toEqual({ seen: INK_ANSWER, answered: true });
  });
});

/** A stdin that keeps its chunks apart (as ink-testing-library's does): `read()` returns one at a time. */
class ChunkedStdin extends EventEmitter {
  readonly isTTY = true;
  readonly readableEncoding = null;
  private readonly chunks: Buffer[] = [];
  send(...chunks: string[]): void {
    for (const c of chunks) this.chunks.push(Buffer.from(c, 'latin1'));
    this.emit('readable');
  }
  read(): Buffer | null {
    return this.chunks.shift() ?? null;
  }
  unshift(chunk: string | Uint8Array): void {
    this.chunks.unshift(Buffer.from(chunk));
    setImmediate(() => this.emit('readable'));
  }
}

describe('the input guard when the driver lets go while chunks are still to be handed on', () => {
  it('the chunk after the one that ended the ask goes to the reader, after the keys before it', async () => {
    const stdin = new ChunkedStdin();
    let read = '';
    stdin.on('readable', () => {
      for (let chunk = stdin.read(); chunk !== null; chunk = stdin.read()) read += chunk.toString('latin1');
    });
    const stdout = {
      write(chunk: Uint8Array | string) {
        if (escapeSequences(Buffer.from(chunk).toString('latin1')).some(isSentinel))
          setImmediate(() => stdin.send(`a${BACKGROUND}b${kitty.da1}`, 'z'));
        return true;
      },
    } as unknown as TerminalOutput;
    const [background] = await askInsideInk({
      stdin,
      stdout,
      setRawMode: () => {},
      queries: [OSC11],
      runtime,
      lateMs: 0,
    });
    expect(Buffer.from(background ?? []).toString('latin1')).toBe(BACKGROUND);
    for (const end = performance.now() + 5000; read.length < 3 && performance.now() < end; )
      await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    expect(read).toBe('abz');
  });
});
