/**
 * Asking tmux about itself and its client with two bounded subprocesses (`tmux display -p` and
 * `tmux show -Apv allow-passthrough`), when `TMUX` is set: no stdin, a short timeout, and any
 * failure is "no answer" (the report then falls back to probing passthrough with wrapped queries).
 * The only I/O of the tmux facts; tmux-formats.ts parses what comes back. On request only
 * (`allowTmuxPassthrough`), the one change termsight ever makes to tmux: passthrough on for the
 * current pane.
 */
import { type Env, envValue } from '../core/env-vars.js';
import { parseTmuxFormats, TMUX_DISPLAY_FORMAT, type TmuxFacts } from './tmux-formats.js';

/** How long each tmux subprocess may take before it is killed (tmux answers in a few ms). */
export const TMUX_ASK_TIMEOUT_MS = 500;

/** Output beyond this many bytes is a failure, not an answer. */
const MAX_OUTPUT_BYTES = 16 * 1024;

async function run(command: string, args: readonly string[], env: Env, timeoutMs: number): Promise<string | null> {
  // Loaded here, not at import: only a probe inside tmux starts a subprocess.
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    try {
      const child = execFile(
        command,
        args,
        {
          env: env as NodeJS.ProcessEnv,
          timeout: timeoutMs,
          killSignal: 'SIGKILL',
          maxBuffer: MAX_OUTPUT_BYTES,
          encoding: 'utf8',
          windowsHide: true,
        },
        (error, stdout) => resolve(error ? null : stdout),
      );
      // No stdin: tmux must never wait on the terminal's input.
      child.stdin?.end();
    } catch {
      resolve(null);
    }
  });
}

/** Options for `askTmux`. */
export interface AskTmuxOptions {
  /** The tmux executable (default `tmux`, found on the environment's PATH). */
  readonly command?: string;
  /** Per subprocess (default TMUX_ASK_TIMEOUT_MS). */
  readonly timeoutMs?: number;
}

/**
 * tmux's facts about itself and its client, or null when `TMUX` is not set in `env` or tmux did
 * not answer in time. Never rejects.
 *
 * @example const tmux = await askTmux(process.env); // { version: '3.5a', allowPassthrough: 'off', … }
 */
export async function askTmux(env: Env, options: AskTmuxOptions = {}): Promise<TmuxFacts | null> {
  if (envValue(env, 'TMUX') === undefined) return null;
  const command = options.command ?? 'tmux';
  const timeoutMs = options.timeoutMs ?? TMUX_ASK_TIMEOUT_MS;
  const [display, passthrough] = await Promise.all([
    run(command, ['display-message', '-p', TMUX_DISPLAY_FORMAT], env, timeoutMs),
    run(command, ['show-options', '-Apv', 'allow-passthrough'], env, timeoutMs),
  ]);
  return parseTmuxFormats(display, passthrough);
}

/**
 * Turns `allow-passthrough` on for the current pane only (`tmux set-option -p -t $TMUX_PANE
 * allow-passthrough on`, as chafa does), so pictures sent from it reach the outer terminal; the
 * session's and the server's settings and every other pane stay as they were. Only on request
 * (`--tmux-passthrough`, the `tmuxPassthrough` option), never by default: it changes the user's tmux.
 * False when `TMUX` is not set, tmux failed (older than 3.3, which has no such option) or timed
 * out. Never rejects.
 *
 * @example if (await allowTmuxPassthrough(process.env)) report = await probeTerminal();
 */
export async function allowTmuxPassthrough(env: Env, options: AskTmuxOptions = {}): Promise<boolean> {
  if (envValue(env, 'TMUX') === undefined) return false;
  const pane = envValue(env, 'TMUX_PANE');
  // Only a pane id (`%12`) is passed on as a target: the variable is the environment's, not ours.
  const target = pane !== undefined && /^%\d{1,9}$/.test(pane) ? ['-t', pane] : [];
  const done = await run(
    options.command ?? 'tmux',
    ['set-option', '-p', ...target, 'allow-passthrough', 'on'],
    env,
    options.timeoutMs ?? TMUX_ASK_TIMEOUT_MS,
  );
  return done !== null;
}
