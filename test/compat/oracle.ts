/**
 * Talks to incumbents-oracle.mjs: a child process that answers each question with the incumbents
 * (supports-color 10.2.2, supports-hyperlinks 4.6.0, terminal-link 5.0.0) and termsight's built
 * drop-ins, each freshly imported under the question's process state.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The process state of one question. */
export interface Question {
  env: Record<string, string>;
  /** Full argv, as process.argv (node, script, flags…). */
  argv: string[];
  platform: string;
  osRelease: string;
  stdoutTTY: boolean;
  stderrTTY: boolean;
  /** The stream handed to createSupportsColor/createSupportsHyperlinks. */
  stream: 'none' | 'tty' | 'notty';
  sniffFlags?: boolean | undefined;
  link: { text: string; url: string; target?: string | undefined; fallback: 'default' | 'false' | 'true' | 'fn' };
}

/** What one implementation answered. */
export interface Answer {
  color: unknown;
  colorDefault: { stdout: unknown; stderr: unknown };
  hyperlinks: boolean;
  hyperlinksDefault: { stdout: boolean; stderr: boolean };
  link: string;
  linkStderr: string;
  linkSupported: { stdout: boolean; stderr: boolean };
}

/** The fallback function both sides get for `fallback: 'fn'`. */
export const FALLBACK_FN = (text: string, url: string): string => `<${text}|${url}>`;

/** A running oracle. */
export interface Oracle {
  ask(question: Question): Promise<{ incumbent: Answer; termsight: Answer }>;
  close(): void;
}

const DIST = fileURLToPath(new URL('../../dist/compat/terminal-link.js', import.meta.url));

/** Starts the oracle; the drop-ins must be built (`npx tsc -p tsconfig.build.json`). */
export async function startOracle(): Promise<Oracle> {
  if (!existsSync(DIST)) throw new Error(`build first: ${DIST} is missing (npx tsc -p tsconfig.build.json)`);
  const child: ChildProcess = fork(fileURLToPath(new URL('./incumbents-oracle.mjs', import.meta.url)), [], {
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    execArgv: [],
  });
  const pending = new Map<number, { resolve: (value: never) => void; reject: (error: Error) => void }>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('error', reject);
  });
  child.on('message', (message: { id: number; answer?: never; error?: string }) => {
    const waiter = pending.get(message.id);
    if (!waiter) return;
    pending.delete(message.id);
    if (message.error) waiter.reject(new Error(message.error));
    else waiter.resolve(message.answer as never);
  });
  return {
    ask(question) {
      next += 1;
      const id = next;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve: resolve as (value: never) => void, reject });
        child.send({ id, question });
      });
    },
    close() {
      child.disconnect();
    },
  };
}
