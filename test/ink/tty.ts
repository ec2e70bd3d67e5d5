/**
 * Real Ink (not ink-testing-library's debug mode) on a stand-in terminal: a TTY-like output that
 * records every write, Ink's own throttled frames on a fake clock, and a real terminal engine
 * (@xterm/headless) that replays the bytes and notes the cursor where each kitty APC and each
 * iTerm2 file arrives (xterm.js has no APC hook). So a test decides exactly when Ink commits and
 * when its throttle lets a frame out.
 */
import { EventEmitter } from 'node:events';
import { Terminal } from '@xterm/headless';

/** A TTY-like output for Ink: `isTTY`, a size, `resize` events, and every write kept. */
export class TtyOutput extends EventEmitter {
  readonly isTTY = true;
  readonly writes: string[] = [];
  constructor(
    public columns = 80,
    public rows = 24,
  ) {
    super();
  }
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
    this.writes.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1'));
    const callback = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
    callback?.();
    return true;
  }
  /** Everything written so far. */
  text(): string {
    return this.writes.join('');
  }
  /** The terminal window changes size (Ink redraws on `resize`). */
  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

/** A stdin Ink accepts that never sends anything. */
export class QuietInput extends EventEmitter {
  readonly isTTY = false;
  setEncoding(): this {
    return this;
  }
  setRawMode(): this {
    return this;
  }
  read(): null {
    return null;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
  resume(): this {
    return this;
  }
  pause(): this {
    return this;
  }
}

/** A kitty APC (its body) or an iTerm2 file (`1337`) and the cursor when it arrived. */
export interface Arrival {
  readonly body: string;
  readonly x: number;
  readonly y: number;
  /** How many bytes of the output came before it (to order it against other things). */
  readonly at: number;
}

/** The screen after `text` and where each picture sequence landed. */
export interface Replayed {
  readonly apcs: readonly Arrival[];
  readonly iterm2: readonly Arrival[];
  readonly lines: readonly string[];
}

/**
 * Replays `text` into a real terminal engine `columns` x `rows`, noting the cursor at each kitty
 * APC and iTerm2 `OSC 1337;File=`.
 */
export async function replay(text: string, columns: number, rows: number): Promise<Replayed> {
  const term = new Terminal({ cols: columns, rows, allowProposedApi: true });
  // A terminal turns LF into CR LF (onlcr): Ink writes bare newlines.
  const bytes = text.replace(/\r?\n/g, '\r\n');
  const write = (s: string) => new Promise<void>((resolve) => term.write(s, resolve));
  const apcs: Arrival[] = [];
  const iterm2: Arrival[] = [];
  const starts = /\x1b_G|\x1b\]1337;File=/g;
  let fed = 0;
  for (let m = starts.exec(bytes); m !== null; m = starts.exec(bytes)) {
    await write(bytes.slice(fed, m.index));
    const kitty = m[0] === '\x1b_G';
    const end = kitty ? bytes.indexOf('\x1b\\', m.index) : bytes.indexOf('\x07', m.index);
    const stop = end < 0 ? bytes.length : end + (kitty ? 2 : 1);
    const buffer = term.buffer.active;
    const arrival = {
      body: bytes.slice(m.index + m[0].length, end < 0 ? stop : end),
      x: buffer.cursorX,
      y: buffer.cursorY,
      at: m.index,
    };
    (kitty ? apcs : iterm2).push(arrival);
    // The engine does not know these; they are skipped (a real terminal's cursor does not move for kitty's with C=1).
    fed = stop;
    starts.lastIndex = stop;
  }
  await write(bytes.slice(fed));
  const buffer = term.buffer.active;
  const lines = Array.from({ length: rows }, (_, y) => buffer.getLine(y)?.translateToString(true) ?? '');
  term.dispose();
  return { apcs, iterm2, lines };
}

/** The value of key `k` in a kitty APC body. */
export const keyOf = (body: string, k: string): string | undefined =>
  new RegExp(`(?:^|,)${k}=([^,;]*)`).exec(body)?.[1];
