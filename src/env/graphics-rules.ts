/**
 * Which picture protocol a terminal speaks, judged from its environment alone. The first eight rows
 * are the founding table (marked `founding`: the rows termsight started from), in its order; the rows after them add
 * identity variables it misses and never change its answer for a case it states. iTerm2 is never
 * `kitty`: it answers kitty's query but cannot delete kitty overlays, which then pile up.
 */
import type { Protocol } from './protocol.js';
import type { Rule } from './rule.js';

/** A row of the graphics table. */
export type GraphicsRule = Rule<Protocol>;

/** The graphics rule table, in priority order. `braille` when no row matches. */
export const GRAPHICS_RULES: readonly GraphicsRule[] = [
  {
    id: 'kitty-window-id',
    when: [{ variable: 'KITTY_WINDOW_ID', test: 'set' }],
    answer: 'kitty',
    note: 'kitty exports KITTY_WINDOW_ID to every child (kitty docs, "Environment variables").',
    founding: true,
    source: 'https://sw.kovidgoyal.net/kitty/glossary/#envvar-KITTY_WINDOW_ID',
  },
  {
    id: 'term-kitty-ghostty',
    when: [{ variable: 'TERM', test: 'contains', values: ['kitty', 'ghostty'] }],
    answer: 'kitty',
    note: 'kitty sets TERM=xterm-kitty and Ghostty TERM=xterm-ghostty; both implement the kitty graphics protocol.',
    founding: true,
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/ and https://ghostty.org/docs/help/terminfo',
  },
  {
    id: 'term-program-wezterm',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WezTerm' }],
    answer: 'kitty',
    note: 'WezTerm sets TERM_PROGRAM=WezTerm and implements kitty graphics (partly: see placements).',
    founding: true,
    source: 'https://wezterm.org/shell-integration.html (TERM_PROGRAM) and https://wezterm.org/imgcat.html',
  },
  {
    id: 'wezterm-pane',
    when: [{ variable: 'WEZTERM_PANE', test: 'set' }],
    answer: 'kitty',
    note: 'WezTerm exports WEZTERM_PANE; it survives where multiplexers drop TERM_PROGRAM.',
    founding: true,
    source: 'https://wezterm.org/shell-integration.html (WEZTERM_PANE)',
  },
  {
    id: 'term-program-iterm',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'iTerm.app' }],
    answer: 'iterm2',
    note: 'iTerm2 sets TERM_PROGRAM=iTerm.app; its own inline images are cells, unlike kitty overlays it cannot delete.',
    founding: true,
    source: 'https://iterm2.com/documentation-variables.html and https://iterm2.com/documentation-images.html',
  },
  {
    id: 'lc-terminal-iterm2',
    when: [{ variable: 'LC_TERMINAL', test: 'equals', value: 'iTerm2' }],
    answer: 'iterm2',
    note: 'iTerm2 sets LC_TERMINAL=iTerm2, which ssh forwards under the usual SendEnv LC_*.',
    founding: true,
    source: 'https://iterm2.com/documentation-variables.html (LC_TERMINAL)',
  },
  {
    id: 'konsole-version',
    when: [{ variable: 'KONSOLE_VERSION', test: 'set' }],
    answer: 'sixel',
    note: 'Konsole exports KONSOLE_VERSION and draws sixel since 22.04.',
    founding: true,
    source: 'https://konsole.kde.org/ (sixel since Konsole 22.04)',
  },
  {
    id: 'term-foot-mlterm',
    when: [{ variable: 'TERM', test: 'contains', values: ['foot', 'mlterm'] }],
    answer: 'sixel',
    note: 'foot (TERM=foot) and mlterm (TERM=mlterm) draw sixel.',
    founding: true,
    source: 'https://codeberg.org/dnkl/foot (sixel) and https://github.com/arakiken/mlterm',
  },
  // Rows beyond the founding table.
  {
    id: 'term-program-ghostty',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'ghostty' }],
    answer: 'kitty',
    note: 'Ghostty sets TERM_PROGRAM=ghostty (Ghostty docs, "Shell integration"); it implements kitty graphics.',
    source: 'https://ghostty.org/docs/help/terminfo',
  },
  {
    id: 'ghostty-resources-dir',
    when: [{ variable: 'GHOSTTY_RESOURCES_DIR', test: 'set' }],
    answer: 'kitty',
    note: 'Ghostty exports GHOSTTY_RESOURCES_DIR to its children, also when TERM is sanitized to xterm-256color.',
    source: 'https://ghostty.org/docs/config/reference#shell-integration',
  },
  {
    id: 'term-program-kitty',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'kitty' }],
    answer: 'kitty',
    note: 'Launchers and shell rcs that restore TERM_PROGRAM for kitty set TERM_PROGRAM=kitty.',
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/',
  },
  {
    id: 'term-wezterm',
    when: [{ variable: 'TERM', test: 'equals', value: 'wezterm' }],
    answer: 'kitty',
    note: 'WezTerm ships a terminfo named wezterm (config term = "wezterm").',
    source: 'https://wezfurlong.org/wezterm/config/lua/config/term.html',
  },
  {
    id: 'iterm-session-id',
    when: [{ variable: 'ITERM_SESSION_ID', test: 'set' }],
    answer: 'iterm2',
    note: 'iTerm2 exports ITERM_SESSION_ID to every session.',
    source: 'https://iterm2.com/documentation-variables.html',
  },
  {
    id: 'term-program-warp',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WarpTerminal' }],
    answer: 'kitty',
    note: 'Warp sets TERM_PROGRAM=WarpTerminal and displays kitty graphics (transmit and display).',
    source: 'https://docs.warp.dev/terminal/more-features/full-screen-apps#image-protocols',
  },
  {
    id: 'term-program-mintty',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'mintty' }],
    answer: 'sixel',
    note: 'mintty sets TERM_PROGRAM=mintty and draws sixel since 2.6.0.',
    source: 'https://github.com/mintty/mintty/wiki/CtrlSeqs#sixel-graphics-end-position',
  },
  {
    id: 'term-contour',
    when: [{ variable: 'TERM', test: 'prefix', value: 'contour' }],
    answer: 'sixel',
    note: 'Contour ships terminfo contour and draws sixel.',
    source: 'https://contour-terminal.org/vt-extensions/',
  },
];

/** What `detect` answers when no rule matches: braille needs no graphics support at all. */
export const GRAPHICS_DEFAULT: Protocol = 'braille';
