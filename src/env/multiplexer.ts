/**
 * Whether a multiplexer sits between the program and the terminal, from the environment. tmux
 * exports TMUX (and TERM_PROGRAM=tmux since 3.2); GNU screen exports STY. A TERM of `screen*`
 * without either is taken as screen: tmux's own default TERM is `screen` too, but tmux always
 * exports TMUX to its panes.
 */
import { type Env, envValue } from './runtime.js';

/** A multiplexer seen in the environment, with the variable that showed it. */
export interface MultiplexerHint {
  readonly name: 'tmux' | 'screen';
  readonly because: string;
}

/** The multiplexer the environment shows, or null. */
export function multiplexerFromEnv(env: Env): MultiplexerHint | null {
  if (envValue(env, 'TMUX') !== undefined) return { name: 'tmux', because: 'TMUX is set' };
  if (envValue(env, 'TERM_PROGRAM') === 'tmux') return { name: 'tmux', because: 'TERM_PROGRAM is "tmux"' };
  if (envValue(env, 'STY') !== undefined) return { name: 'screen', because: 'STY is set' };
  const term = envValue(env, 'TERM') ?? '';
  if (term.startsWith('tmux')) return { name: 'tmux', because: `TERM is "${term}"` };
  if (term === 'screen' || term.startsWith('screen.') || term.startsWith('screen-')) {
    return { name: 'screen', because: `TERM is "${term}"` };
  }
  return null;
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
