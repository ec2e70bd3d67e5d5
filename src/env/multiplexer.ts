/**
 * Whether tmux or GNU screen sits between the program and the terminal, from the environment: the
 * signs of their rows in the terminal database, by priority (tmux exports TMUX and
 * TERM_PROGRAM=tmux, screen STY; a TERM of `tmux*` or `screen*` alone names them too: tmux's own
 * default TERM is `screen` as well, but tmux always exports TMUX to its panes).
 */
import { TERMINALS } from '../terminals/database.js';
import { identify } from '../terminals/identify.js';
import type { Env } from './runtime.js';

/** A multiplexer seen in the environment, with the sign that showed it. */
export interface MultiplexerHint {
  readonly name: 'tmux' | 'screen';
  readonly because: string;
}

const CLASSIC = TERMINALS.filter((row) => row.id === 'tmux' || row.id === 'screen');

/**
 * The multiplexer the environment shows, or null.
 *
 * @example multiplexerFromEnv({ STY: '1.pts' })?.name // 'screen'
 */
export function multiplexerFromEnv(env: Env): MultiplexerHint | null {
  const found = identify({ env }, CLASSIC);
  return found ? { name: found.row.id as MultiplexerHint['name'], because: found.because } : null;
}

/**
 * The sentence the report shows when tmux drops wrapped sequences: `all`, since `on` drops
 * pictures sent to a pane that is not visible (tmux 3.4 CHANGES); 3.3 knows only `on`.
 */
export const TMUX_PASSTHROUGH_HINT =
  'tmux drops image sequences unless passthrough is on: run termsight with `--tmux-passthrough` (on for this pane only), or `tmux set -g allow-passthrough all` (tmux 3.4+; on 3.3 `on`), or add `set -g allow-passthrough all` to ~/.tmux.conf';

/** The same for tmux 3.3, which knows only `on`. */
export const TMUX_33_PASSTHROUGH_HINT =
  'tmux drops image sequences unless passthrough is on: run termsight with `--tmux-passthrough` (on for this pane only), or `tmux set -g allow-passthrough on`, or add `set -g allow-passthrough on` to ~/.tmux.conf (tmux 3.4+ also has `all`, which keeps pictures sent to a hidden pane)';
