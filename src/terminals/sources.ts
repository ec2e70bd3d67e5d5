/**
 * Sources several rows cite, named once so a row reads as data. Each is a page, changelog entry,
 * issue or recorded reply a reader can open.
 */

/** The kitty graphics protocol's specification. */
export const KITTY_GRAPHICS = 'https://sw.kovidgoyal.net/kitty/graphics-protocol/';
/** kitty's changelog, 0.28.0: images inside programs that do not speak the protocol (Unicode placeholders, #5664). */
export const KITTY_028 =
  'https://sw.kovidgoyal.net/kitty/changelog/ (0.28.0: "Graphics protocol: Add support for displaying images inside programs that do not support the protocol such as vim and tmux", #5664)';
/** The OSC 8 adoption list, with the first version per terminal. */
export const OSC8_ADOPTION = 'https://github.com/Alhadis/OSC8-Adoption/';
/** The synchronized output (mode 2026) specification and its list of terminals. */
export const SYNC_SPEC = 'https://gist.github.com/christianparpart/d8a62cc1ab659194337d73e399004036';
/**
 * The end-to-end cells that draw every sextant, every octant and sixel with P2=0 and P2=1 in real
 * terminals under Xvfb and judge the screenshots against the database (issue 11).
 */
export const E2E_FACTS = 'test/e2e/facts.test.ts';
/** Where the sixel band measurements are written down, and the end-to-end cells that judge them. */
export const E2E_BAND = 'test/e2e/harness/picture.ts (judgeBand; the measurements: docs/render.md, "No band")';
/** The recorded replies' notes (what was seen in real xterm, kitty, tmux and screen). */
export const REPLIES_README = 'test/fixtures/replies/README.md';
/** tmux's CHANGES file; sections are named "CHANGES FROM x TO y". */
export const TMUX_CHANGES = 'https://github.com/tmux/tmux/blob/master/CHANGES';
/** Zellij 0.45.0's terminal grid: its XTVERSION, DA1 and DA2 answers. */
export const ZELLIJ_GRID = 'https://github.com/zellij-org/zellij/blob/v0.45.0/zellij-server/src/panes/grid.rs';
/** Zellij 0.45.0's kitty graphics parser: what it refuses with ENOTSUPPORTED. */
export const ZELLIJ_KITTY =
  'https://github.com/zellij-org/zellij/blob/v0.45.0/zellij-server/src/panes/kitty_graphics/parser.rs';
/** xterm.js's input handler: its DA1, DA2 and XTVERSION answers. */
export const XTERMJS_INPUT = 'https://github.com/xtermjs/xterm.js/blob/master/src/common/InputHandler.ts';
/** xterm.js's image addon: sixel and iTerm2 inline images, and the DA1 it answers with. */
export const XTERMJS_IMAGE = 'https://github.com/xtermjs/xterm.js/blob/master/addons/addon-image/src/ImageAddon.ts';
/** mosh's terminal functions: the DA1, DA2 and CPR it answers itself. */
export const MOSH_FUNCTIONS = 'https://github.com/mobile-shell/mosh/blob/master/src/terminal/terminalfunctions.cc';
/**
 * In-band resize notifications (DECSET 2048: `CSI 48 ; rows ; columns ; height px ; width px t`).
 * The specification; its discussion and the iTerm2 request that links it name the terminals that implement it.
 */
export const RESIZE_SPEC = 'https://gist.github.com/rockorager/e695fb2924d36b2bcf1fff4a3704bd83';
