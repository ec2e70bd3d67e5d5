/**
 * The multiplexers (and mosh, which also sits between the program and the terminal and answers
 * for it): what they answer themselves, what they pass through, from which version.
 */
import { MOSH_FUNCTIONS, REPLIES_README, TMUX_CHANGES, ZELLIJ_GRID, ZELLIJ_KITTY } from './sources.js';
import type { TerminalRow } from './types.js';

const TMUX_34 = `${TMUX_CHANGES} (CHANGES FROM 3.3a TO 3.4)`;
const TMUX_INPUT = 'https://github.com/tmux/tmux/blob/3.4/input.c (first tagged in 3.4)';

/** tmux, GNU screen, Zellij and mosh. */
export const MULTIPLEXERS: readonly TerminalRow[] = [
  {
    id: 'tmux',
    name: 'tmux',
    kind: 'multiplexer',
    identity: {
      env: [
        { when: [{ variable: 'TMUX', test: 'set' }], priority: 440 },
        { when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'tmux' }], priority: 441 },
        { when: [{ variable: 'TERM', test: 'prefix', value: 'tmux' }], priority: 443 },
      ],
      xtversion: { names: ['tmux'], example: 'tmux 3.3a', byName: [], source: 'test/fixtures/replies/kitty+tmux.json' },
      fingerprints: [{ da2: '^>84;', source: 'test/fixtures/replies/kitty+tmux.json (DA2 \\e[>84;0;0c)' }],
      source: 'https://github.com/tmux/tmux/wiki/FAQ',
      note: "floating panes (3.7, complete in 3.8; tmux#5135, tmux#5584) are panes: the same escape handling, passthrough and sixel as a tiled pane, so nothing changes in how termsight asks or draws; from 3.9 display-popup opens a modal floating pane (planned, tmux#5584), so a picture from a popup is then drawn as from any pane. A passthrough picture that is not in tmux's grid (iTerm2, raw sixel) can be drawn over a floating pane that covers it; kitty placeholders and tmux's own sixel are clipped by tmux",
    },
    draws: [
      {
        protocol: 'sixel',
        since: '3.4',
        onlyIf: 'da1',
        source: `${TMUX_34}: "Add basic support for SIXEL if built with --enable-sixel"`,
      },
    ],
    facts: {
      sixelTransparency: {
        value: false,
        source: 'test/e2e/findings/README.md (tmux-sixel-band)',
        note: 'the sixel tmux draws itself: it fills what the picture leaves with register 0 whatever P2 says (tmux 3.5a, tried with P2=1)',
      },
      hyperlinks: {
        value: true,
        since: '3.4',
        source: `${TMUX_34}: "Add support for OSC 8 hyperlinks"`,
        note: 'forwarded only with the hyperlinks terminal feature',
      },
      reorders: {
        value: true,
        source: REPLIES_README,
        note: "the outer terminal's wrapped replies come after tmux's own DA1",
      },
    },
    multiplexer: {
      passthrough: {
        value: true,
        since: '3.3',
        source: `${TMUX_CHANGES} (CHANGES FROM 3.2a TO 3.3: "Add an option (default off) to control the passthrough escape sequence")`,
        note: 'allow-passthrough, off by default',
      },
      passthroughHidden: {
        value: true,
        since: '3.4',
        source: `${TMUX_34}: 'Add a third state "all" to allow-passthrough to work even in invisible panes'`,
      },
      maxSequenceBytes: {
        bytes: 1048576,
        source:
          'https://github.com/tmux/tmux/issues/3726 ("The image is too big, the maximum is 1 MB") and https://github.com/hpjansson/chafa/issues/348 (chafa shows nothing in tmux 3.5a)',
        note: 'INPUT_BUF_LIMIT (input.c): a longer DCS, its own sixel or a wrapped picture, is dropped whole; tmux 3.6+ can raise it with input-buffer-size (default still 1 MiB), which termsight does not ask',
      },
      answers: [
        { query: 'xtversion', source: 'test/fixtures/replies/kitty+tmux.json (\\eP>|tmux 3.3a\\e\\)' },
        { query: 'da1', source: REPLIES_README },
        { query: 'da2', source: REPLIES_README },
        { query: 'windowCells', source: REPLIES_README, note: '3.3a swaps rows and columns' },
        {
          query: 'oscColours',
          since: '3.4',
          source: `${TMUX_34}: "Query the client terminal for foreground and background colours"`,
        },
        { query: 'windowPixels', since: '3.4', source: TMUX_INPUT },
        { query: 'cellPixels', since: '3.4', source: TMUX_INPUT },
      ],
    },
  },
  {
    id: 'screen',
    name: 'GNU screen',
    kind: 'multiplexer',
    identity: {
      env: [
        // STY before a TERM of tmux*: a program in screen in tmux sees screen first (multiplexerFromEnv).
        { when: [{ variable: 'STY', test: 'set' }], priority: 442 },
        { when: [{ variable: 'TERM', test: 'equals', value: 'screen' }], priority: 451 },
        { when: [{ variable: 'TERM', test: 'prefix', value: 'screen.' }], priority: 452 },
        { when: [{ variable: 'TERM', test: 'prefix', value: 'screen-' }], priority: 453 },
      ],
      fingerprints: [
        {
          da2: '^>83;',
          source: 'test/fixtures/replies/xterm+screen.json (DA2 \\e[>83;40900;0c)',
          note: 'the version is written 40900 for 4.09.00',
        },
      ],
      source: 'https://www.gnu.org/software/screen/manual/screen.html',
    },
    draws: [],
    facts: {
      hyperlinks: { value: false, source: 'https://ansicode.eversources.app/en/terminal/screen' },
      truecolor: {
        value: true,
        since: '5.0',
        source:
          'https://ansicode.eversources.app/en/terminal/screen ("screen 5.0.0 … the first release … to add 24-bit truecolor")',
      },
      reorders: { value: true, source: REPLIES_README, note: 'the forwarded OSC 11 reply comes after its own DA1' },
    },
    quirks: [
      { family: 'dcs', effect: 'prints', source: REPLIES_README },
      { family: 'apc', effect: 'prints', source: REPLIES_README },
    ],
    multiplexer: {
      passthrough: {
        value: true,
        source:
          'test/fixtures/screen/README.md (sixel wrapped in packets under 768 bytes drawn by xterm 379 as a VT340)',
        note: "4.09 measured: the probe asks the outer terminal in screen's packets (its replies follow screen's own DA1) and pictures go wrapped the same way, the outer terminal's cursor saved and restored inside them",
      },
      answers: [
        { query: 'da1', source: REPLIES_README },
        { query: 'da2', source: REPLIES_README },
      ],
      dcsPacketBytes: {
        bytes: 768,
        source: 'https://git.savannah.gnu.org/cgit/screen.git/tree/src/screen.h (MAXSTR)',
      },
    },
  },
  {
    id: 'herdr',
    name: 'herdr',
    kind: 'multiplexer',
    identity: {
      env: [
        { when: [{ variable: 'HERDR_ENV', test: 'set' }], priority: 5 },
        { when: [{ variable: 'HERDR_PANE_ID', test: 'set' }], priority: 6 },
      ],
      source:
        'https://github.com/XYenon/smart-suggestion/pull/15 (HERDR_ENV=1) and https://github.com/HazAT/pi-interactive-subagents/pull/57 (HERDR_PANE_ID)',
      note: "a multiplexer for coding agents built on libghostty: its panes answer as libghostty (XTVERSION libghostty, DA1 ?62;22c) and inherit the outer Ghostty's TERM_PROGRAM and GHOSTTY_RESOURCES_DIR, so its own variables come first; over ssh only its replies show it, as the libghostty row",
    },
    draws: [
      {
        protocol: 'kitty',
        onlyIf: 'kittyQuery',
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'it draws kitty itself, only with [experimental] kitty_graphics = true (off by default): then it answers the kitty query OK',
      },
    ],
    facts: {
      placements: {
        value: false,
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'direct placements are dropped when it repaints (also herdrdev/herdr#3697: t=d images answered OK, never painted)',
      },
      placeholders: {
        value: true,
        source: 'https://github.com/herdrdev/herdr/issues/111 and https://github.com/herdrdev/herdr/issues/732',
      },
      placeholdersOnly: {
        value: true,
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'Unicode placeholders survive its repaints, direct placements do not: inside herdr kitty pictures go as placeholders',
      },
    },
    multiplexer: {
      answers: [
        { query: 'xtversion', source: 'https://github.com/herdrdev/herdr/issues/3697 (libghostty)' },
        { query: 'kittyGraphics', source: 'https://github.com/herdrdev/herdr/issues/3697 (a=q answered OK)' },
      ],
    },
  },
  {
    id: 'zellij',
    name: 'Zellij',
    kind: 'multiplexer',
    identity: {
      env: [
        { when: [{ variable: 'ZELLIJ', test: 'set' }], priority: 460 },
        { when: [{ variable: 'ZELLIJ_SESSION_NAME', test: 'set' }], priority: 461 },
        { when: [{ variable: 'ZELLIJ_PANE_ID', test: 'set' }], priority: 462 },
      ],
      xtversion: {
        names: ['Zellij'],
        example: 'Zellij(4500)',
        encoding: 'hundreds',
        byName: [],
        source: ZELLIJ_GRID,
        note: '0.44.3 answers it too; the first version that does is not sourced here',
      },
      fingerprints: [
        { da1: '^\\?62;4;52c$', da2: '^>0;\\d+;1c$', source: ZELLIJ_GRID, note: 'with a sixel-capable host' },
        { da1: '^\\?62;52c$', da2: '^>0;\\d+;1c$', source: ZELLIJ_GRID },
      ],
      source: 'https://github.com/zellij-org/zellij/blob/v0.45.0/zellij-client/src/lib.rs (ZELLIJ)',
    },
    draws: [
      {
        protocol: 'kitty',
        since: '0.45',
        source: 'https://github.com/zellij-org/zellij/blob/main/CHANGELOG.md (0.45.0, #5428)',
        note: 'it draws kitty graphics itself',
      },
      { protocol: 'sixel', onlyIf: 'da1', source: ZELLIJ_GRID, note: 'DA1 lists 4 only with a sixel host (0.45)' },
    ],
    facts: {
      placements: { value: true, since: '0.45', source: `${ZELLIJ_KITTY} (a=p is Display)` },
      placeholders: { value: false, source: `${ZELLIJ_KITTY} ("unicode placeholders are not supported"; zellij#5530)` },
      animation: { value: false, source: `${ZELLIJ_KITTY} ("animation is not supported")` },
    },
    multiplexer: {
      answers: [
        { query: 'xtversion', source: ZELLIJ_GRID },
        { query: 'da1', source: ZELLIJ_GRID },
        { query: 'da2', source: ZELLIJ_GRID },
      ],
    },
  },
  {
    id: 'mosh',
    name: 'mosh',
    kind: 'multiplexer',
    identity: {
      env: [],
      fingerprints: [{ da1: '^\\?62c$', da2: '^>1;10;0c$', source: MOSH_FUNCTIONS }],
      source: MOSH_FUNCTIONS,
      note: 'sets no variable of its own (not sourced): only its replies show it',
    },
    draws: [],
    facts: {
      hyperlinks: { value: false, source: 'https://github.com/mobile-shell/mosh/issues/1245 (mosh 1.4.0)' },
    },
    multiplexer: {
      passthrough: {
        value: false,
        source:
          'https://github.com/mobile-shell/mosh/issues/1135 ("Mosh only passes on changes to the terminal state")',
      },
      answers: [
        { query: 'da1', source: MOSH_FUNCTIONS },
        { query: 'da2', source: MOSH_FUNCTIONS },
        { query: 'cpr', source: MOSH_FUNCTIONS },
      ],
    },
  },
];
