/**
 * A scripted terminal for the pty tests: it starts the fixture application in a real pty (node-pty),
 * watches what the application writes, recognises the probe's queries, and answers them with the
 * replies a real terminal gave (`test/fixtures/replies/*.json`), on a script: fast, late, in
 * pieces, out of order, not at all, or mixed with keystrokes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import type { ProbeFacts } from '../../src/probe/facts.js';
import type { Report } from '../../src/report/types.js';
import { ensureBuilt } from '../support/build.js';

const here = dirname(fileURLToPath(import.meta.url));
/** The repository root. */
export const repoRoot = resolve(here, '..', '..');
/** Where the recorded replies of real terminals are, next to the repository. */
export const repliesDir = resolve(repoRoot, 'test', 'fixtures', 'replies');
const appPath = join(here, 'fixtures', 'probe-app.mjs');

/** Builds dist/ once for the tests that run the built driver. */
export function buildDist(): void {
  ensureBuilt();
  if (!existsSync(join(repoRoot, 'dist', 'probe', 'driver.js'))) throw new Error('dist/probe/driver.js was not built');
}

/** One recorded terminal: its replies to each query alone, and the DA1 sentinel reply. */
export interface RecordedTerminal {
  readonly name: string;
  /** The DA1 reply, the probe's sentinel. */
  readonly da1: string;
  /** Query (as sent) to the reply that came before the sentinel. */
  readonly replies: ReadonlyMap<string, string>;
  /** Query to the reply that came after the sentinel (a multiplexer forwarding it late). */
  readonly late: ReadonlyMap<string, string>;
}

interface FixtureFile {
  readonly name: string;
  readonly results: readonly { name: string; query: string; reply: string; late: string }[];
}

/** Loads `<name>.json` from the recorded replies. */
export function loadTerminal(name: string): RecordedTerminal {
  const file = JSON.parse(readFileSync(join(repliesDir, `${name}.json`), 'utf8')) as FixtureFile;
  const da1Entry = file.results.find((r) => r.name === 'DA1');
  if (!da1Entry) throw new Error(`${name}: no DA1 entry`);
  // The DA1 query alone is answered twice: once for itself, once as the sentinel.
  const da1 = da1Entry.reply.slice(da1Entry.reply.length / 2);
  const replies = new Map<string, string>();
  const late = new Map<string, string>();
  for (const r of file.results) {
    const body = r.reply.endsWith(da1) ? r.reply.slice(0, -da1.length) : r.reply;
    replies.set(r.query, r.name === 'DA1' ? '' : body);
    if (r.late) late.set(r.query, r.late);
  }
  return { name: file.name, da1, replies, late };
}

/** The escape sequences in a stream of output, in order (text between them is left out). */
export function escapeSequences(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '\x1b') {
      i++;
      continue;
    }
    const kind = text[i + 1];
    let end = -1;
    if (kind === '[') {
      let j = i + 2;
      while (j < text.length && !(text.charCodeAt(j) >= 0x40 && text.charCodeAt(j) <= 0x7e)) j++;
      end = j < text.length ? j + 1 : -1;
    } else if (kind === ']' || kind === 'P' || kind === '_' || kind === '^') {
      // Strings end at ST (ESC \) or, for OSC, BEL. tmux passthrough doubles inner ESCs: skip pairs.
      let j = i + 2;
      while (j < text.length) {
        if (text[j] === '\x07' && kind === ']') {
          end = j + 1;
          break;
        }
        if (text[j] === '\x1b') {
          if (text[j + 1] === '\\') {
            end = j + 2;
            break;
          }
          if (text[j + 1] === '\x1b') {
            j += 2;
            continue;
          }
        }
        j++;
      }
    } else if (kind !== undefined) {
      end = i + 2;
    }
    if (end < 0) break;
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/** Whether a sequence is the DA1 sentinel query (`CSI c` or `CSI 0 c`). */
export const isSentinel = (sequence: string): boolean => sequence === '\x1b[c' || sequence === '\x1b[0c';

/** The replies a recorded terminal gives to these queries, in their order (DA1 last). */
export function answerFor(
  terminal: RecordedTerminal,
  queries: readonly string[],
): { replies: string[]; late: string[] } {
  const replies: string[] = [];
  const late: string[] = [];
  const alt = (q: string): string =>
    q.endsWith('\x07') ? `${q.slice(0, -1)}\x1b\\` : q.endsWith('\x1b\\') ? `${q.slice(0, -2)}\x07` : q;
  for (const q of queries) {
    if (isSentinel(q)) continue;
    const reply = terminal.replies.get(q) ?? terminal.replies.get(alt(q));
    if (reply) replies.push(reply);
    const l = terminal.late.get(q) ?? terminal.late.get(alt(q));
    if (l) late.push(l);
  }
  return { replies, late };
}

/** What the fixture application printed at the end. */
export interface AppResult {
  readonly before: string;
  readonly afterProbe: string;
  readonly after: string;
  readonly rawAfterProbe: boolean | null;
  readonly elapsedMs: number;
  /** The facts as JSON brought them back (Uint8Array fields arrive as plain objects). */
  readonly facts: ProbeFacts;
  readonly report: Report;
  readonly error: { name: string | null; message: string } | null;
  /** Hex of every byte the application read from its input after the probe. */
  readonly keys: string;
  /** Hex of the bytes the driver handed to `onKeys`. */
  readonly handedKeys: string;
  readonly trace: { out: number; in: number };
}

/** The configuration the fixture application reads from its argument. */
export interface AppConfig {
  readonly budgetMs?: number;
  readonly readMs?: number;
  readonly abortAfterMs?: number;
  /** The application's own input is closed this long after the probe read the first reply. */
  readonly destroyInputAfterMs?: number;
  readonly onKeys?: boolean;
  readonly appRaw?: boolean;
  readonly report?: boolean;
  readonly lateMs?: number;
  readonly stream?: 'stdout' | 'stderr' | 'tty';
  /** Do not read stdin after the probe (a background job would be stopped by SIGTTIN). */
  readonly noRead?: boolean;
  /** Print `PID <pid>` before probing, so a test can signal the application. */
  readonly printPid?: boolean;
  /** Read stdin from before the probe and call `process.exit(7)` in the data handler when this key arrives. */
  readonly exitOnKey?: string;
  /** Throw an uncaught exception from a timer this long after the probe starts. */
  readonly throwAfterMs?: number;
  /** Run probeTerminal twice and probeTty at once; `concurrent` in the result has each one's graphics. */
  readonly concurrent?: boolean;
  /** Use the terminal-image and supports-terminal-graphics drop-ins at once. */
  readonly dropIns?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A running application in a pty, and the terminal side of it. */
export class ScriptedTerminal {
  /** Everything the application wrote to the screen, as text. */
  screen = '';
  /** Time (ms since start) at which the sentinel query was seen. */
  sentinelAtMs: number | null = null;
  private readonly proc: pty.IPty;
  private readonly started = performance.now();
  private readonly exited: Promise<number>;
  private waiters: (() => void)[] = [];

  constructor(config: AppConfig, env: Record<string, string>, shell?: string) {
    const args =
      shell === undefined
        ? [appPath, JSON.stringify(config)]
        : ['-c', shell.replace('$APP', `node ${appPath} '${JSON.stringify(config)}'`)];
    this.proc = pty.spawn(shell === undefined ? process.execPath : '/bin/bash', args, {
      cols: 80,
      rows: 24,
      cwd: repoRoot,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8', ...env },
    });
    this.proc.onData((d) => {
      this.screen += d;
      if (this.sentinelAtMs === null && escapeSequences(this.screen).some(isSentinel)) this.sentinelAtMs = this.now();
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    });
    this.exited = new Promise((r) => this.proc.onExit((e) => r(e.exitCode)));
  }

  /** Milliseconds since the application was started. */
  now(): number {
    return performance.now() - this.started;
  }

  private async until(test: () => boolean, timeoutMs: number, what: string): Promise<void> {
    const end = performance.now() + timeoutMs;
    while (!test()) {
      if (performance.now() > end)
        throw new Error(`timed out waiting for ${what}; screen: ${JSON.stringify(this.screen)}`);
      await Promise.race([new Promise<void>((r) => this.waiters.push(r)), sleep(20)]);
    }
  }

  /** Waits for the probe's batch up to its sentinel and returns its queries (sentinel included). */
  async queries(timeoutMs = 10_000): Promise<string[]> {
    await this.until(() => this.sentinelAtMs !== null, timeoutMs, 'the sentinel query');
    const seqs = escapeSequences(this.screen);
    return seqs.slice(0, seqs.findIndex(isSentinel) + 1);
  }

  /**
   * Waits for the probe's `n`th batch (1: the first) up to its sentinel and returns its queries
   * (sentinel included): a later round, such as the guarded one, follows the previous sentinel.
   */
  async round(n: number, timeoutMs = 10_000): Promise<string[]> {
    const sentinels = () => escapeSequences(this.screen).filter(isSentinel).length;
    await this.until(() => sentinels() >= n, timeoutMs, `sentinel query ${n}`);
    const seqs = escapeSequences(this.screen);
    const ends = seqs.flatMap((q, i) => (isSentinel(q) ? [i] : []));
    return seqs.slice(n === 1 ? 0 : (ends[n - 2] as number) + 1, (ends[n - 1] as number) + 1);
  }

  /** Types or answers: the bytes go to the application's input, as from the terminal. */
  send(text: string): void {
    this.proc.write(text);
  }

  /** Sends bytes one at a time with a pause between them. */
  async trickle(text: string, gapMs: number): Promise<void> {
    for (const ch of text) {
      this.send(ch);
      await sleep(gapMs);
    }
  }

  /** Waits for the application's RESULT line and for it to exit on its own. */
  async result(timeoutMs = 15_000): Promise<{ result: AppResult; exitCode: number; screen: string }> {
    await this.until(() => /RESULT .*\r?\n/.test(this.screen), timeoutMs, 'the RESULT line');
    const exitCode = await Promise.race([this.exited, sleep(5_000).then(() => -999)]);
    if (exitCode === -999) this.proc.kill();
    const match = /RESULT (.*)\r?\n/.exec(this.screen);
    const result = JSON.parse(match![1]!) as AppResult;
    return { result, exitCode, screen: this.screen.slice(0, match!.index) };
  }

  /** Waits for the program to exit on its own; returns its exit code and everything it showed. */
  async exit(timeoutMs = 15_000): Promise<{ exitCode: number; screen: string }> {
    const exitCode = await Promise.race([this.exited, sleep(timeoutMs).then(() => -999)]);
    if (exitCode === -999) this.proc.kill();
    return { exitCode, screen: this.screen };
  }

  /** Ends the application if it is still running. */
  kill(): void {
    try {
      this.proc.kill();
    } catch {
      // Already gone.
    }
  }
}

/** Sleeps in a test script. */
export { sleep };

/** Hex of a string's bytes (UTF-8), for comparing with the application's key log. */
export const hexOf = (text: string): string => Buffer.from(text, 'utf8').toString('hex');
