/**
 * Every way out of a probe in a real pty: an abort, `process.exit()` inside a data handler,
 * Ctrl-C (mid-probe and in the late window), an uncaught exception, SIGTERM, SIGHUP and SIGQUIT,
 * each in the middle of the probe. A shell around the application records `stty -g` before and
 * after it, then reads whatever is left in the tty's input for 0.3 s: the mode must be back and
 * nothing of the probe left for the shell to read. Without the driver's exit and signal hooks the
 * SIGHUP and SIGQUIT rows fail (Node resets the mode itself at exit and on SIGTERM).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type AppConfig, answerFor, buildDist, loadTerminal, ScriptedTerminal, sleep } from './harness.js';

beforeAll(() => buildDist(), 120_000);

const BASE_ENV = { TERM: 'xterm-256color' };
const kitty = loadTerminal('kitty');

/** The shell around the application: the mode before and after, its exit status, the tty input left over. */
const shell = (app: string) =>
  [
    's=$(stty -g)',
    'echo "BEFORE $s"',
    app,
    'echo "EXIT $?"',
    'echo "AFTER $(stty -g)"',
    'stty -icanon -echo min 0 time 3',
    "p=$(head -c 4096 | od -An -tx1 | tr -d ' \\n')",
    'stty "$s"',
    'echo "PENDING [$p]"',
  ].join('; ');
/** The application on the standard streams, which are the tty. */
const STDIO = shell('$APP');
/** The same, with the shell ignoring SIGINT so it outlives an interrupted application (as an interactive shell does). */
const STDIO_SHELL_IGNORES_INT = shell("trap '' INT; $APP");
/**
 * The application with no standard stream on the tty, so it probes through /dev/tty: Node's own
 * reset of the standard streams' mode at exit cannot help, only the driver's hooks can.
 */
const DEV_TTY = shell('$APP </dev/null >/dev/null 2>&1 & pid=$!; echo "PID $pid"; wait $pid');

interface Row {
  readonly name: string;
  /** STDIO or DEV_TTY. */
  readonly shell: string;
  readonly config: AppConfig;
  /** What the terminal and the test do once the batch is out. */
  readonly script: (t: ScriptedTerminal, replies: readonly string[], pid: number | null) => Promise<void>;
  readonly exit: number;
}

const rows: Row[] = [
  {
    name: 'an AbortSignal mid-probe; the rest of the batch comes after the abort',
    shell: STDIO,
    config: { budgetMs: 5000, abortAfterMs: 150, readMs: 600 },
    script: async (t, replies) => {
      t.send(replies[0] ?? '');
      await sleep(300);
      t.send(replies.slice(1).join('') + kitty.da1);
    },
    exit: 0,
  },
  {
    name: 'process.exit() inside the application’s data handler mid-probe',
    shell: STDIO,
    config: { budgetMs: 5000, exitOnKey: 'x' },
    script: async (t, replies) => {
      t.send(`${replies[0] ?? ''}x`);
    },
    exit: 7,
  },
  {
    name: 'Ctrl-C mid-probe: raw mode is the probe’s, so the application is interrupted as in cooked mode',
    shell: STDIO_SHELL_IGNORES_INT,
    config: { budgetMs: 5000 },
    script: async (t, replies) => {
      t.send(replies[0] ?? '');
      await sleep(100);
      t.send('\x03');
    },
    exit: 128 + 2,
  },
  {
    name: 'Ctrl-C in the late window after a silent terminal’s deadline: interrupted as in cooked mode',
    shell: STDIO_SHELL_IGNORES_INT,
    config: { budgetMs: 100, readMs: 1800 },
    script: async (t) => {
      await sleep(400);
      t.send('\x03');
    },
    exit: 128 + 2,
  },
  {
    name: 'an uncaught exception mid-probe',
    shell: STDIO,
    config: { budgetMs: 5000, throwAfterMs: 200 },
    script: async (t, replies) => {
      t.send(replies[0] ?? '');
    },
    exit: 1,
  },
  {
    name: 'SIGTERM mid-probe',
    shell: STDIO,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGTERM');
    },
    exit: 128 + 15,
  },
  {
    name: 'SIGHUP mid-probe',
    shell: STDIO,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGHUP');
    },
    exit: 128 + 1,
  },
  {
    name: 'SIGQUIT mid-probe',
    shell: STDIO,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGQUIT');
    },
    exit: 128 + 3,
  },
  {
    name: 'an uncaught exception mid-probe (through /dev/tty)',
    shell: DEV_TTY,
    config: { budgetMs: 5000, throwAfterMs: 200 },
    script: async (t, replies) => {
      t.send(replies[0] ?? '');
    },
    exit: 1,
  },
  {
    name: 'SIGTERM mid-probe (through /dev/tty)',
    shell: DEV_TTY,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGTERM');
    },
    exit: 128 + 15,
  },
  {
    name: 'SIGHUP mid-probe (through /dev/tty)',
    shell: DEV_TTY,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGHUP');
    },
    exit: 128 + 1,
  },
  {
    name: 'SIGQUIT mid-probe (through /dev/tty)',
    shell: DEV_TTY,
    config: { budgetMs: 5000, printPid: true },
    script: async (t, replies, pid) => {
      t.send(replies[0] ?? '');
      await sleep(150);
      if (pid !== null) process.kill(pid, 'SIGQUIT');
    },
    exit: 128 + 3,
  },
];

describe('every way out of a probe restores the tty and leaves nothing pending', () => {
  it.each(rows)('$name', async (row) => {
    const t = new ScriptedTerminal(row.config, BASE_ENV, row.shell);
    try {
      const queries = await t.queries();
      const pid = Number(/PID (\d+)/.exec(t.screen)?.[1] ?? Number.NaN);
      const { replies } = answerFor(kitty, queries);
      await row.script(t, replies, Number.isNaN(pid) ? null : pid);
      const { screen } = await t.exit();
      const line = (name: string) => new RegExp(`${name} (\\S*)`).exec(screen)?.[1];
      expect(line('BEFORE')).toMatch(/^[0-9a-f]+(:[0-9a-f]+){10,}$/);
      expect(line('AFTER')).toBe(line('BEFORE'));
      expect(Number(line('EXIT'))).toBe(row.exit);
      expect(/PENDING \[([0-9a-f]*)\]/.exec(screen)?.[1]).toBe('');
      // No reply echoed onto the screen (without its ESC: an echoed reply shows as ^[ and the rest).
      for (const reply of [...replies, kitty.da1]) {
        expect(screen.includes(reply.slice(1)), `reply ${JSON.stringify(reply)} on the screen`).toBe(false);
      }
    } finally {
      t.kill();
    }
  });
});
