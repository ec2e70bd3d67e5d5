/**
 * Local transfer end to end in a real pty: `termsight show` against a scripted kitty that, like
 * kitty, reads the `t=t` files named in the graphics commands and deletes them. Each row changes
 * one fact (the terminal reads or refuses the probe file, reads or ignores the picture's file,
 * the session is over ssh) and checks how the picture went and that no file is left behind.
 */
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as pty from 'node-pty';
import { beforeAll, describe, expect, it } from 'vitest';
import { escapeSequences, isSentinel } from '../pty/harness.js';
import { ensureBuilt } from '../support/build.js';
import { shellStatus } from '../support/exit-status.js';
import { scratchDir, writePng } from './show-support.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const main = join(root, 'dist', 'cli', 'main.js');
let picture = '';
const SIZE = { width: 64, height: 40 };

beforeAll(() => {
  ensureBuilt();
  if (!existsSync(main)) throw new Error('dist/cli/main.js was not built');
  picture = writePng(scratchDir(), 'p.png', SIZE.width, SIZE.height, 3);
}, 120_000);

/** How the scripted terminal behaves. */
interface Terminal {
  /** Reads (and deletes) the probe's file and answers OK, reads it and keeps it (OK), or answers an error without touching it. */
  readonly probeFile: 'read' | 'keep' | 'refuse';
  /** Reads (and deletes) a picture's file, or leaves it (a terminal that never got to it). */
  readonly pictureFile: 'read' | 'ignore';
  readonly env?: Record<string, string>;
  /** No variable of kitty's reaches the program (TERM=xterm-256color): the query goes in the guarded round. */
  readonly scrubbed?: boolean;
  /** A signal sent as soon as the picture's command is seen (show is then waiting for the file to go). */
  readonly signal?: 'SIGTERM' | 'SIGINT';
}

/** One graphics command the program sent: its keys, and for `t=t` the file's path and what was in it. */
interface Command {
  readonly keys: Record<string, string>;
  readonly path?: string;
  readonly bytes?: number;
  readonly existedAfterExit?: boolean;
}

interface Outcome {
  readonly exitCode: number;
  readonly queries: string[];
  /** How many probe rounds (batches ending with a DA1) the program sent. */
  readonly rounds: number;
  readonly commands: Command[];
  readonly probePath: string | null;
}

function keysOf(sequence: string): { keys: Record<string, string>; payload: string } {
  const body = sequence.slice(3, -2);
  const semi = body.indexOf(';');
  const keys: Record<string, string> = {};
  for (const pair of (semi < 0 ? body : body.slice(0, semi)).split(',')) {
    const [k, v] = pair.split('=');
    if (k) keys[k] = v ?? '';
  }
  return { keys, payload: semi < 0 ? '' : body.slice(semi + 1) };
}

function run(terminal: Terminal): Promise<Outcome> {
  return new Promise((done, fail) => {
    const proc = pty.spawn(process.execPath, [main, 'show', picture], {
      cols: 80,
      rows: 24,
      cwd: root,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/tmp',
        LANG: 'C.UTF-8',
        // Scrubbed: what `env -i`, sudo or a container leaves; kitty is then named by its replies alone.
        ...(terminal.scrubbed ? { TERM: 'xterm-256color' } : { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }),
        ...terminal.env,
      },
    });
    let screen = '';
    let seen = 0;
    const queries: string[] = [];
    let rounds = 0;
    let roundStart = 0;
    let answered = false;
    let probePath: string | null = null;
    const commands: Command[] = [];
    const timer = setTimeout(() => {
      proc.kill();
      fail(new Error(`no exit; screen: ${JSON.stringify(screen.slice(0, 400))}`));
    }, 20_000);
    proc.onData((data) => {
      screen += data;
      const sequences = escapeSequences(screen);
      for (; seen < sequences.length; seen++) {
        const sequence = sequences[seen] as string;
        if (!answered && isSentinel(sequence)) {
          // One probe round ends with its DA1: answered as kitty would, query by query.
          const round = sequences.slice(roundStart, seen + 1);
          roundStart = seen + 1;
          queries.push(...round);
          rounds += 1;
          let reply = '';
          if (round.includes('\x1b[>q')) reply += '\x1bP>|kitty(0.26.5)\x1b\\';
          if (round.some((q) => q.startsWith('\x1b_Gi=31,'))) reply += '\x1b_Gi=31;OK\x1b\\';
          const local = round.find((q) => q.startsWith('\x1b_Gi=32,'));
          if (local) {
            probePath = Buffer.from(keysOf(local).payload, 'base64').toString('utf8');
            if (terminal.probeFile !== 'refuse') {
              expect(readFileSync(probePath).length).toBe(3);
              if (terminal.probeFile === 'read') unlinkSync(probePath);
              reply += '\x1b_Gi=32;OK\x1b\\';
            } else {
              reply += '\x1b_Gi=32;EBADF:Failed to read from the file\x1b\\';
            }
          }
          if (round.includes('\x1b[16t')) reply += '\x1b[6;20;10t';
          proc.write(`${reply}\x1b[?62;c`);
          continue;
        }
        // The picture's commands come after the probe's rounds (its first APC that is not a query).
        if (sequence.startsWith('\x1b_G') && !/(^|,)a=q(,|;|$)/.test(sequence.slice(3))) answered = true;
        if (!sequence.startsWith('\x1b_G') || !answered) continue;
        const { keys, payload } = keysOf(sequence);
        if (keys.t !== 't') {
          commands.push({ keys });
          continue;
        }
        const path = Buffer.from(payload, 'base64').toString('utf8');
        const bytes = readFileSync(path).length;
        if (terminal.pictureFile === 'read') unlinkSync(path);
        commands.push({ keys, path, bytes });
        if (terminal.signal) proc.kill(terminal.signal);
      }
    });
    proc.onExit(({ exitCode, signal }) => {
      clearTimeout(timer);
      done({
        exitCode: shellStatus(exitCode, signal),
        queries,
        rounds,
        probePath,
        commands: commands.map((c) => (c.path ? { ...c, existedAfterExit: existsSync(c.path) } : c)),
      });
    });
  });
}

const transmissions = (o: Outcome) => o.commands.filter((c) => c.keys.a === 'T' || c.keys.a === 't');

describe('kitty local transfer in a pty', () => {
  it('a terminal that reads the probe file gets the picture by file, and deletes it', async () => {
    const o = await run({ probeFile: 'read', pictureFile: 'read' });
    expect(o.exitCode).toBe(0);
    expect(o.probePath).toContain('tty-graphics-protocol');
    expect(existsSync(o.probePath as string)).toBe(false);
    const sent = transmissions(o);
    expect(sent).toHaveLength(1);
    const [t] = sent;
    expect(t?.keys.t).toBe('t');
    // Uncompressed RGB of the picture, its size in S=.
    expect(t?.keys.o).toBeUndefined();
    expect(t?.bytes).toBe(Number(t?.keys.s) * Number(t?.keys.v) * 3);
    expect(Number(t?.keys.S)).toBe(t?.bytes);
    expect(t?.path).toContain('tty-graphics-protocol');
    expect(t?.existedAfterExit).toBe(false);
  }, 30_000);

  it('a terminal that refuses the probe file gets the picture inline, and the probe file is deleted', async () => {
    const o = await run({ probeFile: 'refuse', pictureFile: 'read' });
    expect(o.exitCode).toBe(0);
    expect(o.probePath).not.toBeNull();
    expect(existsSync(o.probePath as string)).toBe(false);
    const sent = transmissions(o);
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) expect(c.keys.t).not.toBe('t');
  }, 30_000);

  it('a terminal that reads the probe file but keeps it gets the picture inline; termsight deletes the probe file', async () => {
    const o = await run({ probeFile: 'keep', pictureFile: 'read' });
    expect(o.exitCode).toBe(0);
    expect(existsSync(o.probePath as string)).toBe(false);
    const sent = transmissions(o);
    expect(sent.length).toBeGreaterThan(0);
    for (const c of sent) expect(c.keys.t).not.toBe('t');
  }, 30_000);

  it('a picture file the terminal never read is deleted when show exits', async () => {
    const o = await run({ probeFile: 'read', pictureFile: 'ignore' });
    expect(o.exitCode).toBe(0);
    const [t] = transmissions(o);
    expect(t?.keys.t).toBe('t');
    expect(t?.existedAfterExit).toBe(false);
  }, 30_000);

  const SIGNALLED = [
    { name: 'SIGTERM', signal: 'SIGTERM' as const, code: 143 },
    { name: 'SIGINT', signal: 'SIGINT' as const, code: 130 },
  ];
  it.each(SIGNALLED)(
    '$name while the picture file waits to be read: exit $code, the file deleted',
    async ({ signal, code }) => {
      const o = await run({ probeFile: 'read', pictureFile: 'ignore', signal });
      expect(o.exitCode).toBe(code);
      const [t] = transmissions(o);
      expect(t?.keys.t).toBe('t');
      expect(t?.existedAfterExit).toBe(false);
    },
    30_000,
  );

  it('over ssh the probe does not ask and makes no file', async () => {
    const o = await run({ probeFile: 'read', pictureFile: 'read', env: { SSH_CONNECTION: '10.0.0.1 22 10.0.0.2 22' } });
    expect(o.exitCode).toBe(0);
    expect(o.probePath).toBeNull();
    expect(o.queries.some((q) => q.includes('t=t'))).toBe(false);
    for (const c of transmissions(o)) expect(c.keys.t).not.toBe('t');
  }, 30_000);

  it('scrubbed (env -i): the query goes in the guarded round, and the picture by file', async () => {
    const o = await run({ probeFile: 'read', pictureFile: 'read', scrubbed: true });
    expect(o.exitCode).toBe(0);
    expect(o.rounds).toBe(2);
    expect(o.probePath).toContain('tty-graphics-protocol');
    expect(existsSync(o.probePath as string)).toBe(false);
    const [t] = transmissions(o);
    expect(t?.keys.t).toBe('t');
    expect(t?.existedAfterExit).toBe(false);
  }, 30_000);

  it('scrubbed, the probe file refused: the picture inline, the probe file deleted', async () => {
    const o = await run({ probeFile: 'refuse', pictureFile: 'read', scrubbed: true });
    expect(o.exitCode).toBe(0);
    expect(o.rounds).toBe(2);
    expect(existsSync(o.probePath as string)).toBe(false);
    for (const c of transmissions(o)) expect(c.keys.t).not.toBe('t');
  }, 30_000);

  it('scrubbed over ssh (SSH_CONNECTION kept): one round, no file, the picture inline', async () => {
    const o = await run({
      probeFile: 'read',
      pictureFile: 'read',
      scrubbed: true,
      env: { SSH_CONNECTION: '10.0.0.1 22 10.0.0.2 22' },
    });
    expect(o.exitCode).toBe(0);
    expect(o.rounds).toBe(1);
    expect(o.probePath).toBeNull();
    expect(o.queries.some((q) => q.includes('t=t'))).toBe(false);
    for (const c of transmissions(o)) expect(c.keys.t).not.toBe('t');
  }, 30_000);
});
