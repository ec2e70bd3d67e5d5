/**
 * The Node side of following resizes (src/probe/resize-watch.ts), on a stream: a window change
 * writes the query, the terminal's answer is told through `onResize`, the application's `data`
 * listener sees its keys and no reply, and `stop()` turns in-band reports off and lets go. (The
 * real SIGWINCH from a pty is in test/ink/ink-pty.test.ts.)
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { IN_BAND_OFF, IN_BAND_ON, SIZE_QUERY, type TerminalSize } from '../../src/probe/resize.js';
import { watchResize } from '../../src/probe/resize-watch.js';

function setup(inBand: boolean) {
  // A terminal as far as the watch can tell: it takes raw mode through `setRawMode` below.
  const input = Object.assign(new PassThrough(), { isTTY: true });
  const raw: boolean[] = [];
  const written: string[] = [];
  let window = { columns: 80, rows: 24 };
  let fire: () => void = () => {};
  const sizes: TerminalSize[] = [];
  const seen: string[] = [];
  input.on('data', (chunk: Buffer) => seen.push(chunk.toString('latin1')));
  const watch = watchResize({
    input,
    output: { write: (s: string) => written.push(s) },
    cellPixels: { width: 10, height: 20 },
    inBand,
    onResize: (size) => sizes.push(size),
    setRawMode: (mode) => raw.push(mode),
    window: () => window,
    onWindowChange: (listener) => {
      fire = listener;
      return () => {
        fire = () => {};
      };
    },
  });
  return {
    input,
    raw,
    written,
    sizes,
    seen,
    watch,
    resize(columns: number, rows: number) {
      window = { columns, rows };
      fire();
    },
  };
}

describe('watchResize', () => {
  it('asks on a window change, tells the answer, hands the keys on and swallows the replies', async () => {
    const s = setup(false);
    // Idle: the watch holds nothing.
    expect(s.raw).toEqual([]);
    s.resize(100, 30);
    expect(s.written).toEqual([SIZE_QUERY]);
    expect(s.raw).toEqual([true]);
    s.input.write('k\x1b[6;22;11t');
    s.input.write('\x1b[?62;c!');
    await vi.waitFor(() => expect(s.sizes).toHaveLength(1));
    expect(s.sizes[0]).toEqual({ columns: 100, rows: 30, cellPixels: { width: 11, height: 22 }, source: 'reply' });
    expect(s.watch.size).toEqual(s.sizes[0]);
    expect(s.seen.join('')).toBe('k!');
    // Answered: raw mode let go again.
    expect(s.raw).toEqual([true, false]);
    s.watch.stop();
    // After the stop the stream is the application's again: a reply now is its business.
    s.input.write('\x1b[6;1;1t');
    await vi.waitFor(() => expect(s.seen.join('')).toBe('k!\x1b[6;1;1t'));
    s.resize(50, 20);
    expect(s.written).toEqual([SIZE_QUERY]);
  });

  it('in band: DECSET 2048 first, the report is told, DECRST 2048 at the stop', async () => {
    const s = setup(true);
    expect(s.written).toEqual([IN_BAND_ON]);
    s.input.write('\x1b[48;30;100;660;1100t');
    await vi.waitFor(() => expect(s.sizes).toHaveLength(1));
    expect(s.sizes[0]).toEqual({ columns: 100, rows: 30, cellPixels: { width: 11, height: 22 }, source: 'in-band' });
    s.resize(100, 30);
    expect(s.written).toEqual([IN_BAND_ON]);
    s.watch.stop();
    expect(s.written).toEqual([IN_BAND_ON, IN_BAND_OFF]);
    expect(s.raw).toEqual([true, false]);
    expect(s.seen).toEqual([]);
  });
});
