/**
 * The env layer's two tables as they were before they became views of the terminal database,
 * copied literally: every row (id, conditions, answer, note, source, founding mark) and the order.
 * The views must give exactly these.
 */
import type { GraphicsRule } from '../../src/env/graphics-rules.js';
import type { Rule } from '../../src/env/rule.js';

/** The graphics table, rows 1–8 the founding table. */
export const PINNED_GRAPHICS_RULES: readonly GraphicsRule[] = [
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

/** The placements table. */
export const PINNED_PLACEMENT_RULES: readonly Rule<boolean>[] = [
  {
    id: 'kitty-window-id',
    when: [{ variable: 'KITTY_WINDOW_ID', test: 'set' }],
    answer: true,
    note: 'kitty is the reference implementation: images are kept under ids and placed with a=p.',
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#controlling-displayed-images',
  },
  {
    id: 'term-kitty',
    when: [{ variable: 'TERM', test: 'contains', values: ['kitty'] }],
    answer: true,
    note: 'kitty is the reference implementation: images are kept under ids and placed with a=p.',
    source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#controlling-displayed-images',
  },
  {
    id: 'ghostty',
    when: [{ variable: 'TERM', test: 'contains', values: ['ghostty'] }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'term-program-ghostty',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'ghostty' }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'ghostty-resources-dir',
    when: [{ variable: 'GHOSTTY_RESOURCES_DIR', test: 'set' }],
    answer: true,
    note: 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.',
    source: 'https://ghostty.org/docs/features',
  },
  {
    id: 'wezterm-partial',
    when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WezTerm' }],
    answer: false,
    note: 'WezTerm maps kitty placements onto cells and lists placement options it lacks (wezterm issue 986).',
    source: 'https://github.com/wezterm/wezterm/issues/986',
  },
];
