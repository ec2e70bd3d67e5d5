/**
 * Helpers for the signal tests in real ptys: a wrapper script that records the tty mode before
 * and after termsight and prints a marker once it has exited, a pty session that can stop reading
 * (a slow terminal) and send signals to termsight itself, and an independent terminal
 * (xterm.js headless) that renders everything and says what state it was left in.
 */
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import xterm from '@xterm/headless';
import * as pty from 'node-pty';
import { GifWriter } from 'omggif';

/** Printed by the wrapper after termsight exits: it must show as text on the screen. */
export const MARKER = 'TERMSIGHT-EXITED';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Writes the wrapper: the tty mode (`stty -g`) before and after, termsight started through
 * `exec` (so the pid it prints is termsight's), then `rc=N` and the marker.
 */
export function writeWrapper(dir: string, options: { readonly drainInput?: boolean } = {}): string {
  const path = join(dir, options.drainInput ? 'wrapper-drain.sh' : 'wrapper.sh');
  writeFileSync(
    path,
    [
      '#!/bin/sh',
      'out="$1"; shift',
      // Ctrl-C goes to the whole foreground group: the wrapper must outlive it to print the marker
      // (a trap, not an ignore: termsight must get the signal's default disposition).
      "trap ':' INT QUIT",
      // A SIGQUIT that lands after termsight's guard is gone would dump core: slowly, and not the point.
      'ulimit -c 0',
      'stty -g > "$out.before"',
      `sh -c 'echo "PID=$$"; exec "$@"' termsight "$@"`,
      'rc=$?',
      'stty -g > "$out.after"',
      // drainInput: what termsight left unread in the terminal's input (a reply it did not
      // consume), read without waiting and printed as hex: `left=[]` when nothing.
      ...(options.drainInput
        ? [
            'saved=$(stty -g); stty -icanon -echo min 0 time 0',
            `left=$(dd bs=65536 count=1 2>/dev/null | od -An -tx1 | tr -d ' \\n')`,
            'stty "$saved"',
            `printf 'left=[%s]\\n' "$left"`,
          ]
        : []),
      `printf 'rc=%s ${MARKER}\\n' "$rc"`,
      // Held open until the test has read the marker (finish() answers with a newline): node-pty
      // drops the last chunk of output when the child exits while that chunk is still unread, which
      // on a loaded machine lost the marker after a paused pty (1 run in 15).
      'read _done',
      '',
    ].join('\n'),
  );
  chmodSync(path, 0o755);
  return path;
}

/**
 * Whether process `pid` has a handler for signal number `signal` (Linux: the SigCgt mask of
 * /proc/PID/status): termsight has set its guard up, so a Ctrl-C is its to handle.
 */
export function catchesSignal(pid: number, signal: number): boolean {
  try {
    const mask = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return mask !== undefined && (BigInt(`0x${mask}`) >> BigInt(signal - 1)) % 2n === 1n;
  } catch {
    return false; // not started yet, or gone
  }
}

/** Writes an animated GIF: `frames` frames of moving stripes, `delayCs` hundredths of a second each. */
export function writeGif(dir: string, name: string, width: number, height: number, frames: number, delayCs: number) {
  const buffer = new Uint8Array(width * height * frames + 4096);
  const palette = [0x000000, 0xff0000, 0x00ff00, 0x0000ff];
  const gif = new GifWriter(buffer, width, height, { palette, loop: 0 });
  for (let f = 0; f < frames; f++) {
    const pixels = Array.from({ length: width * height }, (_, i) => (((i % width) + f * 4) >> 3) & 3);
    gif.addFrame(0, 0, width, height, pixels, { delay: delayCs });
  }
  const path = join(dir, name);
  writeFileSync(path, buffer.subarray(0, gif.end()));
  return path;
}

/** One run of termsight in a pty through the wrapper. */
export class PtySession {
  output = '';
  private readonly proc: pty.IPty;
  private readonly exited: Promise<number>;
  private waiters: (() => void)[] = [];
  private paused = false;
  readonly cols = 120;
  readonly rows = 40;

  constructor(
    wrapper: string,
    private readonly stateFile: string,
    args: readonly string[],
    cwd: string,
    /** More environment for the child (e.g. `TERM=xterm-kitty` to be taken for kitty without a probe). */
    env: Readonly<Record<string, string>> = {},
  ) {
    this.proc = pty.spawn(wrapper, [stateFile, ...args], {
      cols: this.cols,
      rows: this.rows,
      cwd,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        LANG: 'C.UTF-8',
        TERM: 'xterm-256color',
        ...env,
      },
    });
    this.proc.onData((d) => {
      this.output += d;
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    });
    this.exited = new Promise((r) => this.proc.onExit((e) => r(e.exitCode)));
  }

  /** Waits until `test(output)` holds. */
  async until(test: (output: string) => boolean, what: string, timeoutMs = 15_000): Promise<void> {
    const end = performance.now() + timeoutMs;
    while (!test(this.output)) {
      // Resumed means reading: asked again on every turn, as one resume right after a pause was
      // seen to be lost once in about fifty runs (the terminal then never read again).
      if (!this.paused) this.proc.resume();
      if (performance.now() > end)
        throw new Error(
          `timed out waiting for ${what}; ${this.output.length} chars so far, ending ${JSON.stringify(this.output.slice(-200))}`,
        );
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), sleep(20)]);
    }
  }

  /** termsight's pid, as the wrapper printed it. */
  async pid(): Promise<number> {
    await this.until((out) => /PID=\d+/.test(out), 'the pid');
    return Number(/PID=(\d+)/.exec(this.output)?.[1]);
  }

  /** Stops reading the pty: the terminal is slow, termsight's writes block once the buffer is full. */
  pause(): void {
    this.paused = true;
    this.proc.pause();
  }

  resume(): void {
    this.paused = false;
    this.proc.resume();
  }

  /** Types bytes at the terminal. */
  type(text: string): void {
    this.proc.write(text);
  }

  /** Waits for the wrapper's marker and its exit; returns termsight's exit code and the tty modes. */
  async finish(timeoutMs = 15_000): Promise<{ rc: number; before: string; after: string }> {
    await this.until((out) => new RegExp(`rc=\\d+ ${MARKER}`).test(out), 'the marker', timeoutMs);
    this.type('\n'); // the wrapper waits for it (see writeWrapper)
    await Promise.race([this.exited, sleep(5_000)]);
    const rc = Number(new RegExp(`rc=(\\d+) ${MARKER}`).exec(this.output)?.[1]);
    const read = (suffix: string) => readFileSync(`${this.stateFile}.${suffix}`, 'utf8').trim();
    return { rc, before: read('before'), after: read('after') };
  }

  kill(): void {
    try {
      this.proc.kill();
    } catch {
      // Already gone.
    }
  }
}

/** What an independent terminal shows after all the output, and the state it was left in. */
export interface ScreenState {
  readonly text: string;
  /** The line with the marker, and whether its cells have default colours and attributes. */
  readonly markerLine: string | null;
  readonly markerPlain: boolean;
  /** DECTCEM as the terminal itself reports it (DECRQM 25). */
  readonly cursorVisible: boolean;
  readonly synchronizedOutput: boolean;
}

/** Feeds `output` to xterm.js headless and reads its state back through its public API. */
export async function screenState(output: string, cols: number, rows: number): Promise<ScreenState> {
  const terminal = new xterm.Terminal({ allowProposedApi: true, cols, rows, scrollback: 1000 });
  let reply = '';
  terminal.onData((d) => {
    reply += d;
  });
  await new Promise<void>((resolve) => terminal.write(output, resolve));
  // Ask the terminal itself: DECRQM for DECTCEM answers CSI ? 25 ; 1 $ y (set) or ; 2 (reset).
  await new Promise<void>((resolve) => terminal.write('\x1b[?25$p', resolve));
  const buffer = terminal.buffer.active;
  const lines: string[] = [];
  let markerLine: string | null = null;
  let markerPlain = false;
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    const text = line?.translateToString(true) ?? '';
    lines.push(text);
    const at = text.indexOf(MARKER);
    if (line && at >= 0) {
      markerLine = text;
      markerPlain = true;
      for (let x = at; x < at + MARKER.length; x++) {
        const cell = line.getCell(x);
        if (!cell?.isAttributeDefault() || cell.isBold() || cell.isInverse() || cell.isInvisible()) markerPlain = false;
      }
    }
  }
  const state = {
    text: lines.join('\n'),
    markerLine,
    markerPlain,
    cursorVisible: reply.includes('\x1b[?25;1$y'),
    synchronizedOutput: terminal.modes.synchronizedOutputMode,
  };
  terminal.dispose();
  return state;
}
