/**
 * The terminal emulators termsight knows, one row each, in the spirit of chafa's term-db. The
 * environment rules each row carries are the env layer's tables (ordered by `priority`); the
 * founding graphics rows keep their ids, conditions, answers and order exactly.
 */
import {
  E2E_BAND,
  E2E_FACTS,
  KITTY_028,
  KITTY_GRAPHICS,
  OSC8_ADOPTION,
  REPLIES_README,
  RESIZE_SPEC,
  SYNC_SPEC,
  XTERMJS_IMAGE,
  XTERMJS_INPUT,
} from './sources.js';
import type { TerminalRow } from './types.js';

const KITTY_PLACING = 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#controlling-displayed-images';
const GHOSTTY_FEATURES = 'https://ghostty.org/docs/features';
const GHOSTTY_PLACING = 'Ghostty implements storing, placing and deleting by id, and Unicode placeholders.';
const KITTY_PLACING_NOTE = 'kitty is the reference implementation: images are kept under ids and placed with a=p.';

/** The terminal emulators, kitty first (row order is the order of the name views). */
export const EMULATORS: readonly TerminalRow[] = [
  {
    id: 'kitty',
    name: 'kitty',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'KITTY_WINDOW_ID', test: 'set' }],
          priority: 10,
          graphics: {
            id: 'kitty-window-id',
            note: 'kitty exports KITTY_WINDOW_ID to every child (kitty docs, "Environment variables").',
            source: 'https://sw.kovidgoyal.net/kitty/glossary/#envvar-KITTY_WINDOW_ID',
            founding: true,
          },
          placements: {
            id: 'kitty-window-id',
            note: KITTY_PLACING_NOTE,
            source: KITTY_PLACING,
          },
        },
        {
          when: [{ variable: 'TERM', test: 'contains', values: ['kitty'] }],
          priority: 18,
          placements: {
            id: 'term-kitty',
            note: KITTY_PLACING_NOTE,
            source: KITTY_PLACING,
          },
        },
        {
          when: [{ variable: 'TERM', test: 'contains', values: ['kitty', 'ghostty'] }],
          priority: 20,
          names: false,
          graphics: {
            id: 'term-kitty-ghostty',
            note: 'kitty sets TERM=xterm-kitty and Ghostty TERM=xterm-ghostty; both implement the kitty graphics protocol.',
            source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/ and https://ghostty.org/docs/help/terminfo',
            founding: true,
          },
        },
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'kitty' }],
          priority: 110,
          graphics: {
            id: 'term-program-kitty',
            note: 'Launchers and shell rcs that restore TERM_PROGRAM for kitty set TERM_PROGRAM=kitty.',
            source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/',
          },
        },
      ],
      xtversion: {
        names: ['kitty'],
        example: 'kitty(0.26.5)',
        byName: ['graphics', 'placements', 'hyperlinks', 'truecolor'],
        source: 'test/fixtures/replies/kitty.json',
      },
      fingerprints: [{ da2: '^>1;4000;\\d+c$', source: 'test/fixtures/replies/kitty.json (DA2 \\e[>1;4000;26c)' }],
      source: 'https://sw.kovidgoyal.net/kitty/glossary/#envvar-KITTY_WINDOW_ID',
    },
    draws: [{ protocol: 'kitty', source: KITTY_GRAPHICS, note: 'the reference implementation' }],
    facts: {
      notify: {
        value: true,
        dialect: 'osc99',
        source: 'https://sw.kovidgoyal.net/kitty/desktop-notifications/',
        note: 'OSC 99, written with ST as its documentation does',
      },
      clipboard: {
        value: true,
        source: 'https://sw.kovidgoyal.net/kitty/conf/#opt-kitty.clipboard_control',
        note: 'write-clipboard is allowed by default',
      },
      placements: { value: true, source: KITTY_PLACING },
      placeholders: { value: true, since: '0.28', source: KITTY_028 },
      animation: {
        value: true,
        source: 'https://sw.kovidgoyal.net/kitty/graphics-protocol/#animation',
        note: 'the first version with animation is not sourced here',
      },
      frameOverwriteInC: {
        value: true,
        since: '0.45.0',
        until: '0.49.0',
        source: 'https://github.com/kovidgoyal/kitty/issues/10379',
        note: '0.45.0 to 0.48.x ignore X for a=f and replace only with C=1 (undocumented); fixed for 0.49',
      },
      shortLivedHint: {
        value: true,
        since: '0.48.0',
        source:
          'https://sw.kovidgoyal.net/kitty/graphics-protocol/#image-usage-hints (added for https://github.com/kovidgoyal/kitty/issues/10090)',
        note: 'the version is the one ghostty-org/ghostty#13389 names ("Kitty 0.48 added support for usage hints")',
      },
      hyperlinks: { value: true, since: '0.19', source: OSC8_ADOPTION },
      truecolor: { value: true, source: 'test/fixtures/replies/kitty.json (kitty exports COLORTERM=truecolor)' },
      synchronizedOutput: {
        value: true,
        source: 'test/fixtures/replies/kitty.json (DECRQM 2026 answered \\e[?2026;2$y by 0.26.5)',
        note: 'the first version is not sourced here',
      },
      reorders: { value: false, source: REPLIES_README },
      inBandResize: {
        value: true,
        source: 'https://gitlab.com/gnachman/iterm2/-/issues/11735',
        note: 'the iTerm2 request names kitty as implementing the specification (RESIZE_SPEC); the first version is not sourced here',
      },
    },
    glyphs: {
      blocks: {
        value: true,
        source: 'https://sw.kovidgoyal.net/kitty/conf/#opt-kitty.box_drawing_scale',
        note: 'kitty draws box drawing and block characters itself',
      },
      sextants: {
        value: true,
        since: '0.19.0',
        source: 'https://github.com/kovidgoyal/kitty/commit/a935c80adc68460f0df72169264cc84bb20f5839',
        note: `box drawing for sextants (kitty/fonts.c), first in the v0.19.0 tag; seen drawn by kitty 0.26.5 and 0.41.1 under Xvfb (${E2E_FACTS})`,
      },
      octants: {
        value: true,
        since: '0.40.0',
        source: 'https://github.com/kovidgoyal/kitty/commit/39dc31e02183801b5661b2bff2df705a85b7bd20',
        note: `octants (U+1CD00-U+1CDE5) drawn with box drawing, first in the v0.40.0 tag; seen drawn by kitty 0.41.1, and not by 0.26.5, under Xvfb (${E2E_FACTS})`,
      },
    },
  },
  {
    id: 'ghostty',
    name: 'Ghostty',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM', test: 'contains', values: ['ghostty'] }],
          priority: 19,
          placements: {
            id: 'ghostty',
            note: GHOSTTY_PLACING,
            source: GHOSTTY_FEATURES,
          },
        },
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'ghostty' }],
          priority: 90,
          graphics: {
            id: 'term-program-ghostty',
            note: 'Ghostty sets TERM_PROGRAM=ghostty (Ghostty docs, "Shell integration"); it implements kitty graphics.',
            source: 'https://ghostty.org/docs/help/terminfo',
          },
          placements: {
            id: 'term-program-ghostty',
            note: GHOSTTY_PLACING,
            source: GHOSTTY_FEATURES,
          },
        },
        {
          when: [{ variable: 'GHOSTTY_RESOURCES_DIR', test: 'set' }],
          priority: 100,
          graphics: {
            id: 'ghostty-resources-dir',
            note: 'Ghostty exports GHOSTTY_RESOURCES_DIR to its children, also when TERM is sanitized to xterm-256color.',
            source: 'https://ghostty.org/docs/config/reference#shell-integration',
          },
          placements: {
            id: 'ghostty-resources-dir',
            note: GHOSTTY_PLACING,
            source: GHOSTTY_FEATURES,
          },
        },
      ],
      versionVariable: 'TERM_PROGRAM_VERSION',
      xtversion: {
        names: ['ghostty'],
        example: 'ghostty 1.1.0',
        byName: ['graphics', 'placements', 'hyperlinks', 'truecolor'],
        source:
          'https://github.com/ghostty-org/ghostty/pull/502 ("Respond to this query with ghostty {version_string}")',
      },
      source: 'https://ghostty.org/docs/help/terminfo',
    },
    draws: [{ protocol: 'kitty', source: GHOSTTY_FEATURES }],
    facts: {
      notify: {
        value: true,
        dialect: 'osc9',
        source: 'https://ghostty.org/docs/config/reference#desktop-notifications',
      },
      clipboard: {
        value: true,
        source: 'https://ghostty.org/docs/config/reference#clipboard-write',
        note: 'clipboard-write is allow by default',
      },
      progress: {
        value: true,
        since: '1.2.0',
        source: 'https://ghostty.org/docs (OSC 9;4 progress since 1.2)',
      },
      placements: { value: true, source: GHOSTTY_FEATURES },
      placeholders: {
        value: true,
        source: 'https://github.com/ghostty-org/ghostty/pull/2015',
        note: 'merged July 2024, before the first public release (1.0), so every release has them',
      },
      animation: {
        value: true,
        since: '1.4.0',
        source: 'https://github.com/ghostty-org/ghostty/pull/13943 (merged 2026-08-21; fixes #5255)',
        note: 'merged after 1.3.1 (still the release on 2026-09-06, herdrdev/herdr#3697); that 1.4.0 is the first release with it is not verified here (no release notes found), so the gate is the next minor release: an older or unknown version gets redrawn frames',
      },
      shortLivedHint: {
        value: true,
        since: '1.4.0',
        source: 'https://github.com/ghostty-org/ghostty/pull/13389 (transient usage hints, merged 2026-07-20)',
        note: 'the first release with it is not verified here; gated like animation, on the next minor release after 1.3.1',
      },
      hyperlinks: { value: true, source: OSC8_ADOPTION, note: 'since PR #1928 (July 2024), before 1.0' },
      truecolor: { value: true, source: GHOSTTY_FEATURES },
      synchronizedOutput: { value: true, source: SYNC_SPEC },
      inBandResize: {
        value: true,
        source: 'https://gitlab.com/gnachman/iterm2/-/issues/11735',
        note: 'the iTerm2 request names Ghostty as implementing the specification (RESIZE_SPEC); the first version is not sourced here',
      },
    },
    glyphs: {
      blocks: {
        value: true,
        source: 'https://github.com/ghostty-org/ghostty/tree/main/src/font/sprite',
        note: 'its sprite font draws box drawing and block elements',
      },
      sextants: {
        value: true,
        source: 'https://github.com/ghostty-org/ghostty/commit/b34e336c5c5938bda5369fa1ad3153bec1ce70c1',
        note: 'its sprite font (src/font/sprite), before its first release (v1.0.0)',
      },
      octants: {
        value: true,
        since: '1.1.1',
        source: 'https://github.com/ghostty-org/ghostty/commit/8b2f9acfb45bc27f3e41d5eb8c33dee733088c90',
        note: 'draw_octant in its sprite font, first in the v1.1.1 tag',
      },
    },
  },
  {
    id: 'cmux',
    name: 'cmux',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'CMUX_WORKSPACE_ID', test: 'set' }], priority: 15 }],
      source:
        'https://github.com/manaflow-ai/cmux/issues/4714 (CMUX_WORKSPACE_ID, CMUX_SURFACE_ID, … exported to its shells beside GHOSTTY_*)',
      note: "a macOS terminal built on Ghostty (libghostty): its shells also carry Ghostty's variables, so its own sign comes first (priority 15, before TERM with ghostty); its XTVERSION is not sourced here: where its replies name Ghostty, the Ghostty row answers",
    },
    draws: [
      {
        protocol: 'kitty',
        onlyIf: 'kittyQuery',
        source: 'https://github.com/farion1231/cc-switch/issues/1949 ("powered by libghostty")',
        note: 'an embedder of libghostty: only its answer to the kitty query shows it draws kitty, never its name',
      },
    ],
    facts: {},
    note: 'placements and placeholders are not sourced for cmux itself: through its environment alone it gets what the founding rules say (TERM with ghostty: kitty)',
  },
  {
    id: 'libghostty',
    name: 'libghostty',
    kind: 'terminal',
    hosts: ['herdr', 'other libghostty embedders'],
    identity: {
      env: [],
      xtversion: {
        names: ['libghostty'],
        example: 'libghostty',
        byName: [],
        source:
          'https://github.com/herdrdev/herdr/issues/3697 ("\\e[>q inside Herdr → libghostty; outside → ghostty 1.3.1")',
        note: 'the library answers for any program embedding it, so the name says nothing of what the program draws',
      },
      source: 'https://github.com/herdrdev/herdr/issues/3697',
      note: "its DA1 ?62;22c is also Ghostty's own (mattn/longcat#47), so it is no fingerprint",
    },
    draws: [
      {
        protocol: 'kitty',
        onlyIf: 'kittyQuery',
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'trust the kitty query, never the name: herdr answers it only with kitty graphics turned on (off by default)',
      },
    ],
    facts: {
      placements: {
        value: false,
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'herdr, the embedder known to draw kitty, drops direct placements when it repaints',
      },
      placeholders: {
        value: true,
        source: 'https://github.com/herdrdev/herdr/issues/111 and https://github.com/herdrdev/herdr/issues/732',
        note: 'in herdr Unicode placeholders survive its repaints',
      },
      placeholdersOnly: {
        value: true,
        source: 'https://github.com/herdrdev/herdr/issues/111',
        note: 'taken from herdr, which answers as libghostty (over ssh its replies are all there is); an embedder that draws only direct placements would show nothing (elias8/libghostty#152: virtual placements not yet drawn there)',
      },
    },
  },
  {
    id: 'wezterm',
    name: 'WezTerm',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WezTerm' }],
          priority: 30,
          graphics: {
            id: 'term-program-wezterm',
            note: 'WezTerm sets TERM_PROGRAM=WezTerm and implements kitty graphics (partly: see placements).',
            source: 'https://wezterm.org/shell-integration.html (TERM_PROGRAM) and https://wezterm.org/imgcat.html',
            founding: true,
          },
          placements: {
            id: 'wezterm-partial',
            note: 'WezTerm maps kitty placements onto cells and lists placement options it lacks (wezterm issue 986).',
            source: 'https://github.com/wezterm/wezterm/issues/986',
          },
        },
        {
          when: [{ variable: 'WEZTERM_PANE', test: 'set' }],
          priority: 40,
          graphics: {
            id: 'wezterm-pane',
            note: 'WezTerm exports WEZTERM_PANE; it survives where multiplexers drop TERM_PROGRAM.',
            source: 'https://wezterm.org/shell-integration.html (WEZTERM_PANE)',
            founding: true,
          },
        },
        {
          when: [{ variable: 'TERM', test: 'equals', value: 'wezterm' }],
          priority: 120,
          graphics: {
            id: 'term-wezterm',
            note: 'WezTerm ships a terminfo named wezterm (config term = "wezterm").',
            source: 'https://wezfurlong.org/wezterm/config/lua/config/term.html',
          },
        },
      ],
      versionVariable: 'TERM_PROGRAM_VERSION',
      xtversion: {
        names: ['WezTerm'],
        example: 'WezTerm 20240203-110809-5046fc22',
        byName: ['graphics', 'placements', 'hyperlinks', 'truecolor'],
        source: 'https://wezterm.org/escape-sequences.html',
        note: 'versions are dates (20240203-110809-5046fc22)',
      },
      source: 'https://wezterm.org/shell-integration.html',
    },
    draws: [
      { protocol: 'kitty', source: 'https://github.com/wezterm/wezterm/issues/986', note: 'partly: see placements' },
      { protocol: 'iterm2', source: 'https://wezterm.org/imgcat.html' },
      { protocol: 'sixel', source: 'https://wezterm.org/escape-sequences.html' },
    ],
    facts: {
      sixelTransparency: {
        value: true,
        source:
          'https://github.com/wezterm/wezterm/blob/main/term/src/terminalstate/sixel.rs (background_is_transparent)',
        note: 'the first version that reads P2 is not sourced here',
      },
      notify: {
        value: true,
        dialect: 'osc9',
        source: 'https://wezterm.org/escape-sequences.html (OSC 9 and OSC 777 notifications)',
      },
      clipboard: { value: true, source: 'https://wezterm.org/escape-sequences.html (OSC 52)' },
      placements: { value: false, source: 'https://github.com/wezterm/wezterm/issues/986' },
      placeholders: {
        value: false,
        source:
          'https://github.com/junegunn/fzf/issues/3486 (kitty\'s author: "lack of support for unicode placeholders")',
        note: 'a pull request adding them (wezterm#7924) is open, not merged',
      },
      hyperlinks: { value: true, source: OSC8_ADOPTION, note: 'since early 2018; versions are dates' },
      truecolor: { value: true, source: 'https://wezterm.org/escape-sequences.html' },
      synchronizedOutput: { value: true, source: SYNC_SPEC },
    },
    glyphs: {
      blocks: { value: true, source: 'https://wezterm.org/config/lua/config/custom_block_glyphs.html' },
      sextants: {
        value: true,
        since: '20210814',
        source: 'https://wezterm.org/config/lua/config/custom_block_glyphs.html',
        note: 'since release 20210814-124438-54e29167 (versions are dates; the date part is compared); custom_block_glyphs draws them',
      },
      octants: {
        value: true,
        since: '20250208',
        source: 'https://github.com/wezterm/wezterm/commit/94610314e8f070a9513580e7dfd84ef2178a77e7',
        note: 'Unicode 16 octants (#6502, 2025-02-08): only nightly builds; no release tag has them (the latest, 20240203-110809-5046fc22, does not)',
      },
    },
  },
  {
    id: 'iterm2',
    name: 'iTerm2',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'iTerm.app' }],
          priority: 50,
          byName: ['truecolor'],
          graphics: {
            id: 'term-program-iterm',
            note: 'iTerm2 sets TERM_PROGRAM=iTerm.app; its own inline images are cells, unlike kitty overlays it cannot delete.',
            source: 'https://iterm2.com/documentation-variables.html and https://iterm2.com/documentation-images.html',
            founding: true,
          },
        },
        {
          when: [{ variable: 'LC_TERMINAL', test: 'equals', value: 'iTerm2' }],
          priority: 60,
          graphics: {
            id: 'lc-terminal-iterm2',
            note: 'iTerm2 sets LC_TERMINAL=iTerm2, which ssh forwards under the usual SendEnv LC_*.',
            source: 'https://iterm2.com/documentation-variables.html (LC_TERMINAL)',
            founding: true,
          },
          versionVariable: 'LC_TERMINAL_VERSION',
        },
        {
          when: [{ variable: 'ITERM_SESSION_ID', test: 'set' }],
          priority: 130,
          graphics: {
            id: 'iterm-session-id',
            note: 'iTerm2 exports ITERM_SESSION_ID to every session.',
            source: 'https://iterm2.com/documentation-variables.html',
          },
        },
      ],
      versionVariable: 'TERM_PROGRAM_VERSION',
      xtversion: {
        names: ['iTerm2'],
        example: 'iTerm2 3.5.0',
        byName: ['graphics', 'hyperlinks', 'truecolor'],
        source: 'https://iterm2.com/documentation-escape-codes.html',
      },
      source: 'https://iterm2.com/documentation-variables.html',
    },
    draws: [
      { protocol: 'iterm2', source: 'https://iterm2.com/documentation-images.html' },
      {
        protocol: 'sixel',
        source: 'https://iterm2.com/documentation-images.html',
        note: 'the first version with sixel is not sourced here',
      },
    ],
    facts: {
      notify: {
        value: true,
        dialect: 'osc9',
        source: 'https://iterm2.com/documentation-escape-codes.html (OSC 9 ; message ST: post a notification)',
      },
      clipboard: {
        value: false,
        source: 'https://iterm2.com/documentation-escape-codes.html (OSC 52)',
        note: 'off until "Applications in terminal may access clipboard" is ticked',
      },
      placements: {
        value: false,
        source: 'https://iterm2.com/documentation-images.html',
        note: 'it answers the kitty query (3.5, 3.6) but is never kitty: a kitty image is an overlay it cannot delete',
      },
      placeholders: {
        value: true,
        since: '3.7',
        source: 'https://github.com/sorokin-vladimir/tele/issues/259 (iTerm2 3.7.0beta10)',
        note: 'the 3.7 betas draw Unicode placeholders but read an absent third diacritic as -1 (an id of 1 is looked up as 0xff000001): termsight never gives iTerm2 kitty, and its placeholder writer always writes the third diacritic (render/pixels/kitty-placeholder.ts)',
      },
      hyperlinks: { value: true, since: '3.1', source: OSC8_ADOPTION },
      truecolor: {
        value: true,
        since: '3',
        source: 'https://iterm2.com/version3.html ("24-bit color": new in iTerm2 3)',
        note: 'the TERM_PROGRAM sign is trusted for it with TERM_PROGRAM_VERSION (byName)',
      },
      synchronizedOutput: { value: true, source: SYNC_SPEC, note: 'the first version is not sourced here' },
      inBandResize: {
        value: true,
        source: 'https://gitlab.com/gnachman/iterm2/-/issues/11735',
        note: 'the request for it in iTerm2; that it shipped, and in which version, is not sourced here (harmless if not: an unknown DECSET is ignored)',
      },
    },
    note: 'glyph facts are left out: no source was checked',
  },
  {
    id: 'konsole',
    name: 'Konsole',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'KONSOLE_VERSION', test: 'set' }],
          priority: 70,
          graphics: {
            id: 'konsole-version',
            note: 'Konsole exports KONSOLE_VERSION and draws sixel since 22.04.',
            source: 'https://konsole.kde.org/ (sixel since Konsole 22.04)',
            founding: true,
          },
        },
      ],
      versionVariable: 'KONSOLE_VERSION',
      xtversion: {
        names: ['Konsole'],
        example: 'Konsole 23.08.4',
        byName: ['truecolor'],
        source: 'https://invent.kde.org/utilities/konsole/-/blob/master/src/Vt102Emulation.cpp',
        note: 'the name the report already trusted for truecolor; the first version that answers is not sourced here',
      },
      source: 'https://konsole.kde.org/',
    },
    draws: [
      { protocol: 'sixel', since: '22.04', source: 'https://konsole.kde.org/ (sixel since Konsole 22.04)' },
      {
        protocol: 'kitty',
        source: 'https://github.com/ghostty-org/ghostty/discussions/14842',
        note: 'answers OK to a=q; the first version is not sourced here',
      },
    ],
    facts: {
      placeholders: {
        value: false,
        source:
          'https://github.com/ghostty-org/ghostty/discussions/14842 ("Konsole answers OK to a=q but ignores U=1")',
      },
      hyperlinks: { value: false, source: OSC8_ADOPTION, note: 'OSC 8 since July 2020, but off by default' },
      truecolor: { value: true, source: 'https://konsole.kde.org/' },
      sixelTransparency: {
        value: false,
        source:
          'https://invent.kde.org/utilities/konsole/-/blob/master/src/Vt102Emulation.cpp (SixelModeEnable takes no P2: pixels no sixel sets keep colour register 0)',
        note: `seen in Konsole 25.04.2 under Xvfb (${E2E_FACTS}): with P2=1 the untouched half is register 0's black, not the green under it`,
      },
      sixelPartialBand: {
        value: false,
        source: `${E2E_BAND} (measured in Konsole 25.04.2 under Xvfb)`,
        note: 'the rest of the last band below the picture is painted with colour register 0, with P2=0 and P2=1 alike (issue 24: also 22.12)',
      },
    },
    glyphs: {
      blocks: {
        value: true,
        source: 'https://invent.kde.org/utilities/konsole/-/blob/master/src/terminalDisplay/LineBlockCharacters.cpp',
      },
      sextants: {
        value: true,
        since: '22.04',
        source: 'https://invent.kde.org/utilities/konsole/-/commit/bcd83d81aa890026bafee09d6616e6d4bdb51a0c',
        note: `LineBlockCharacters draws U+1FB00-U+1FB3B, first in the v22.04.0 tag; all 60 seen drawn by Konsole 25.04.2 under Xvfb with no font that has them (${E2E_FACTS})`,
      },
      octants: {
        value: false,
        source: E2E_FACTS,
        note: 'Konsole 25.04.2 draws none of the 230 (replacement boxes; no font has them); its master has no octant code (2026-12)',
      },
    },
  },
  {
    id: 'foot',
    name: 'foot',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM', test: 'contains', values: ['foot', 'mlterm'] }],
          priority: 80,
          names: false,
          graphics: {
            id: 'term-foot-mlterm',
            note: 'foot (TERM=foot) and mlterm (TERM=mlterm) draw sixel.',
            source: 'https://codeberg.org/dnkl/foot (sixel) and https://github.com/arakiken/mlterm',
            founding: true,
          },
        },
        { when: [{ variable: 'TERM', test: 'prefix', value: 'foot' }], priority: 250 },
      ],
      xtversion: {
        names: ['foot'],
        example: 'foot(1.16.2)',
        byName: ['graphics', 'hyperlinks', 'truecolor'],
        source: 'https://codeberg.org/dnkl/foot/src/branch/master/CHANGELOG.md',
        note: 'it drew sixel (1.2.0) before it answered XTVERSION, so its name always means sixel',
      },
      source: 'https://codeberg.org/dnkl/foot',
    },
    draws: [
      { protocol: 'sixel', since: '1.2.0', source: 'https://codeberg.org/dnkl/foot/src/branch/master/CHANGELOG.md' },
    ],
    facts: {
      sixelTransparency: {
        value: true,
        since: '1.7.0',
        source: 'https://codeberg.org/dnkl/foot/commit/7d315d7bf9ab0376468929f0e41fbac98370e035',
        note: `"sixel: implement P2=1 - transparent pixels" (sixel_init: transparent_bg = p2 == 1), first in the 1.7.0 tag; seen in foot 1.21.0 under Xvfb (${E2E_FACTS})`,
      },
      sixelPartialBand: {
        value: false,
        source: `${E2E_BAND} (measured in foot 1.21.0 under Xvfb)`,
        note: 'with P2=0 (an opaque picture) the rest of the last band is painted black, whatever register 0 is; with P2=1 it is left',
      },
      notify: {
        value: true,
        dialect: 'osc777',
        source: 'https://codeberg.org/dnkl/foot (OSC 777;notify)',
      },
      hyperlinks: { value: true, since: '1.7.0', source: OSC8_ADOPTION },
      truecolor: { value: true, source: 'https://codeberg.org/dnkl/foot' },
      synchronizedOutput: { value: true, source: SYNC_SPEC },
      inBandResize: {
        value: true,
        source: 'https://gitlab.com/gnachman/iterm2/-/issues/11735',
        note: 'the iTerm2 request links a foot pull request for it; when it merged is not sourced here (harmless if not: an unknown DECSET is ignored)',
      },
    },
    glyphs: {
      blocks: {
        value: true,
        source: 'https://codeberg.org/dnkl/foot/src/branch/master/doc/foot.ini.5.scd (box-drawings-uses-font-glyphs)',
      },
      sextants: {
        value: true,
        since: '1.7.0',
        source: 'https://codeberg.org/dnkl/foot/commit/25d2b03a5cdde5b0aec496cf9eed04aa570a58ca',
        note: `"box-drawing: SEXTANTS, U+1fb00-1fb3b", first in the 1.7.0 tag; seen in foot 1.21.0 under Xvfb (${E2E_FACTS})`,
      },
      octants: {
        value: true,
        since: '1.20.0',
        source: 'https://codeberg.org/dnkl/foot/commit/9a1b59adaec22434473789953884c9b6db58e9a5',
        note: `"box-drawings: implement octants" (CHANGELOG 1.20.0: U+1CD00...U+1CDE5), first in the 1.20.0 tag; all 230 seen drawn by foot 1.21.0 under Xvfb (${E2E_FACTS})`,
      },
    },
  },
  {
    id: 'contour',
    name: 'Contour',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM', test: 'prefix', value: 'contour' }],
          priority: 160,
          graphics: {
            id: 'term-contour',
            note: 'Contour ships terminfo contour and draws sixel.',
            source: 'https://contour-terminal.org/vt-extensions/',
          },
        },
      ],
      xtversion: {
        names: ['contour'],
        example: 'contour 0.4.3',
        byName: ['graphics', 'truecolor'],
        source: 'https://contour-terminal.org/vt-extensions/',
      },
      source: 'https://contour-terminal.org/vt-extensions/',
    },
    draws: [{ protocol: 'sixel', source: 'https://contour-terminal.org/vt-extensions/' }],
    facts: {
      hyperlinks: { value: true, source: 'https://contour-terminal.org/vt-extensions/clickable-links/' },
      truecolor: { value: true, source: 'https://contour-terminal.org/vt-extensions/' },
      synchronizedOutput: { value: true, source: SYNC_SPEC, note: "the specification is Contour's author's" },
      inBandResize: {
        value: true,
        source: RESIZE_SPEC,
        note: 'listed in termsight issue 13; not confirmed by a Contour source read here (harmless if wrong: an unknown DECSET is ignored)',
      },
    },
    note: 'OSC 11 replies ended with BEL in 0.2.0 (contour#233, closed); left out as no fixed version is sourced',
  },
  {
    id: 'mlterm',
    name: 'mlterm',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'prefix', value: 'mlterm' }], priority: 270 }],
      xtversion: {
        names: ['mlterm'],
        example: 'mlterm(3.9.3)',
        byName: ['graphics'],
        source: 'https://github.com/arakiken/mlterm',
      },
      source: 'https://github.com/arakiken/mlterm',
    },
    draws: [{ protocol: 'sixel', source: 'https://github.com/arakiken/mlterm' }],
    facts: {
      sixelTransparency: {
        value: true,
        source: 'https://github.com/arakiken/mlterm/commit/5123203273ace07c26e3247bee7e36bd247d5873',
        note: `load_sixel_from_data reads P2=1 and draw_picture leaves the background, first in the 3.9.4 tag; before it no pixel a sixel leaves was ever filled, P2=0 or 1: seen in mlterm 3.9.0 under Xvfb (${E2E_FACTS})`,
      },
    },
    note: 'its environment rule is the founding row term-foot-mlterm, kept in the foot row',
  },
  {
    id: 'xterm',
    name: 'xterm',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'XTERM_VERSION', test: 'set' }], priority: 280 }],
      versionVariable: 'XTERM_VERSION',
      xtversion: { names: ['XTerm'], example: 'XTerm(379)', byName: [], source: 'test/fixtures/replies/xterm.json' },
      source: 'https://invisible-island.net/xterm/manpage/xterm.html#h3-Environment',
    },
    draws: [
      {
        protocol: 'sixel',
        onlyIf: 'da1',
        source: 'test/fixtures/replies/xterm-vt340.json',
        note: 'only as a VT340 (-ti vt340): DA1 then lists 4; the default xterm does not',
      },
    ],
    facts: {
      sixelTransparency: {
        value: true,
        source: 'https://vt100.net/docs/vt3xx-gp/chapter14.html (P2=1: pixels specified as 0 keep their colour)',
        note: `xterm's VT340 sixel follows the manual here: seen in xterm 379 and 398 as a VT340 under Xvfb (${E2E_FACTS}; P2=0 fills with register 0)`,
      },
      sixelPartialBand: {
        value: true,
        source: `${E2E_BAND} (measured in xterm 379 and 398 as a VT340 under Xvfb)`,
        note: 'nothing is painted below a last band of fewer than six rows, with P2=0 and P2=1 alike',
      },
      synchronizedOutput: {
        value: false,
        source: 'test/fixtures/replies/xterm.json (xterm 379 answers DECRQM 2026 with \\e[?2026;0$y)',
      },
      reorders: { value: false, source: REPLIES_README },
    },
  },
  {
    id: 'xterm.js',
    name: 'xterm.js',
    kind: 'terminal',
    hosts: ['VS Code', 'Tabby', 'Hyper', 'ttyd', 'JupyterLab'],
    identity: {
      env: [
        { when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'vscode' }], priority: 290 },
        { when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'Hyper' }], priority: 291 },
      ],
      // No versionVariable: TERM_PROGRAM_VERSION is the host's (VS Code 1.96, Hyper 3.4), not
      // xterm.js's, and facts with a `since` (hyperlinks 5.0.0) are xterm.js versions.
      xtversion: {
        names: ['xterm.js'],
        example: 'xterm.js(6.1.0)',
        byName: ['truecolor'],
        source: `${XTERMJS_INPUT} (commit d8a93b7 "Support reporting XTVERSION", 2025-12-26)`,
        note: '6.0.0 does not answer (test/fixtures/replies/xterm-headless.json); the first release that does is not sourced here',
      },
      fingerprints: [
        { da1: '^\\?1;2c$', da2: '^>0;276;0c$', source: 'test/fixtures/replies/xterm-headless.json' },
        {
          da1: '^\\?62;4;9;22c$',
          da2: '^>0;276;0c$',
          source: 'test/fixtures/replies/xtermjs-image.json',
          note: 'with the image addon',
        },
      ],
      source: XTERMJS_INPUT,
      note: "the environment is the host's: VS Code sets TERM_PROGRAM=vscode, Hyper TERM_PROGRAM=Hyper, and TERM_PROGRAM_VERSION is the host's version (VS Code 1.96.2), not xterm.js's: the row's version comes only from its XTVERSION reply",
    },
    draws: [
      {
        protocol: 'sixel',
        onlyIf: 'da1',
        source: 'https://github.com/microsoft/vscode/pull/182442',
        note: 'first: the end-to-end suite (test/e2e/xtermjs-suite.ts) sees its sixel pixel-exact, while iTerm2 images are resampled to the cells',
      },
      { protocol: 'iterm2', onlyIf: 'da1', source: XTERMJS_IMAGE, note: 'with the image addon (DA1 ?62;4;9;22c)' },
    ],
    facts: {
      sixelTransparency: {
        value: true,
        source:
          'https://github.com/xtermjs/xterm.js/blob/master/addons/addon-image/src/SixelHandler.ts (hook: P2=1 fills with colour 0, transparent)',
        note: 'the image addon, which draws its sixel',
      },
      placeholders: {
        value: false,
        source: 'https://github.com/xtermjs/xterm.js/issues/5711 (open: "Currently there is zero implementation")',
        note: 'the image addon draws kitty graphics where VS Code turns them on (microsoft/vscode#295701, xterm.js#5592), answering the kitty query: so kitty comes from that answer, never inside tmux or screen, where kitty needs placeholders; kitty is not one of its draws, so that a VS Code its replies named is not asked the kitty query in one more round trip (its sixel comes first anyway)',
      },
      animation: {
        value: false,
        source: 'https://github.com/xtermjs/xterm.js/issues/5713 (open: a=f, a=a, a=c answer EINVAL)',
      },
      hyperlinks: { value: true, since: '5.0.0', source: OSC8_ADOPTION },
      truecolor: { value: true, source: XTERMJS_INPUT },
      synchronizedOutput: {
        value: true,
        source: 'test/fixtures/replies/xterm-headless.json (6.0.0 answers \\e[?2026;2$y)',
      },
    },
    glyphs: {
      blocks: {
        value: true,
        source: 'https://xtermjs.org/docs/api/terminal/interfaces/iterminaloptions/#customglyphs',
      },
    },
  },
  {
    id: 'vte',
    name: 'VTE',
    hosts: ['GNOME Terminal', 'Tilix', 'Ptyxis', 'xfce4-terminal'],
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'VTE_VERSION', test: 'set' }], priority: 300 }],
      versionVariable: 'VTE_VERSION',
      xtversion: {
        names: ['VTE'],
        example: 'VTE(7600)',
        encoding: 'hundreds',
        byName: [],
        source: 'https://gitlab.gnome.org/GNOME/vte/-/blob/master/src/vteseq.cc',
        note: 'the first version that answers is not sourced here',
      },
      source: 'https://gitlab.gnome.org/GNOME/vte',
      note: 'VTE_VERSION is written like its XTVERSION: 7600 is 0.76.0',
    },
    draws: [
      {
        protocol: 'sixel',
        onlyIf: 'da1',
        source: 'https://gitlab.gnome.org/GNOME/vte/-/issues/253',
        note: 'only when built with -Dsixel=true, which DA1 attribute 4 shows',
      },
    ],
    facts: {
      notify: {
        value: true,
        dialect: 'osc777',
        source: 'https://src.fedoraproject.org/rpms/vte291 (the OSC 777 notify patch of VTE-based terminals)',
        note: "Fedora's and Debian's patched VTE; upstream VTE shows none",
      },
      clipboard: {
        value: false,
        source: 'https://gitlab.gnome.org/GNOME/vte/-/blob/master/src/vteseq.cc',
        note: 'no OSC 52 handler among its sequences',
      },
      hyperlinks: { value: true, since: '0.50', source: OSC8_ADOPTION },
      truecolor: { value: true, source: 'https://gitlab.gnome.org/GNOME/vte' },
    },
    glyphs: {
      blocks: { value: true, source: 'https://gitlab.gnome.org/GNOME/vte/-/blob/master/src/minifont.cc' },
      sextants: {
        value: true,
        since: '0.60.0',
        source: 'https://gitlab.gnome.org/GNOME/vte/-/commit/de627cebda608313f2b76d9f616a8c0c25c74554',
        note: `drawn by VTE itself (src/vtedraw.cc, now minifont.cc), first in the 0.60.0 tag; seen in VTE 0.80.1 under Xvfb (${E2E_FACTS})`,
      },
      octants: {
        value: true,
        since: '0.78.0',
        source: 'https://gitlab.gnome.org/GNOME/vte/-/commit/38064959254b6ecc68dbafd8f8f274be1fff35b7',
        note: `minifont: block octants, first in the 0.78.0 tag (0.76, as in Ubuntu 24.04, takes them from the font); seen in VTE 0.80.1 under Xvfb (${E2E_FACTS})`,
      },
    },
  },
  {
    id: 'alacritty',
    name: 'Alacritty',
    kind: 'terminal',
    identity: {
      env: [
        { when: [{ variable: 'ALACRITTY_WINDOW_ID', test: 'set' }], priority: 310 },
        { when: [{ variable: 'TERM', test: 'equals', value: 'alacritty' }], priority: 311 },
      ],
      xtversion: {
        names: ['alacritty'],
        example: 'alacritty',
        byName: ['truecolor'],
        source: 'https://github.com/alacritty/alacritty/pull/5274 (XTVERSION for Alacritty, closed unmerged)',
        note: 'Alacritty answers no XTVERSION (none in alacritty_terminal as of 2026-06); the name stays because the report trusted it for truecolor',
      },
      fingerprints: [
        {
          da1: '^\\?6c$',
          da2: '^>0;\\d+;1c$',
          source:
            'https://github.com/alacritty/alacritty/blob/master/alacritty_terminal/src/term/mod.rs (identify_terminal)',
          note: "DA2 carries a version as major*10000 + minor*100 + patch, but alacritty_terminal's (the library), not Alacritty's: 2500 is Alacritty 0.15.1 (library 0.25.0), 2300 Alacritty 0.13.2",
        },
      ],
      source: 'https://alacritty.org/config-alacritty.html',
    },
    draws: [],
    facts: {
      clipboard: {
        value: true,
        source: 'https://alacritty.org/config-alacritty.html (terminal.osc52 = OnlyCopy by default)',
      },
      hyperlinks: { value: true, since: '0.11', source: OSC8_ADOPTION },
      truecolor: { value: true, source: 'https://github.com/alacritty/alacritty/blob/master/docs/escape_support.md' },
      synchronizedOutput: { value: true, source: SYNC_SPEC, note: 'the first version is not sourced here' },
    },
    glyphs: {
      sextants: {
        value: true,
        since: '0.13.2',
        source: 'https://github.com/alacritty/alacritty/commit/b48ab148ff54c7e2e816765840568614d9e966f9',
        note: `"Use builtin font to draw sextants" (CHANGELOG 0.13.2); all 60 seen drawn by Alacritty 0.15.1 under Xvfb with no font that has them (${E2E_FACTS}). Its replies carry no version of Alacritty (DA2 carries alacritty_terminal's: 2300 and up from 0.13.2), so the report cannot prove this yet`,
      },
      octants: {
        value: false,
        source: E2E_FACTS,
        note: 'Alacritty 0.15.1 draws none of the 230 (replacement boxes); its builtin font has no octants (master, 2026-12)',
      },
    },
  },
  {
    id: 'rio',
    name: 'Rio',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'rio' }], priority: 320 }],
      source: 'https://rioterm.com/docs/',
      note: "not checked against Rio's documentation in this revision",
    },
    draws: [
      { protocol: 'iterm2', source: 'https://rioterm.com/docs/features' },
      { protocol: 'sixel', source: 'https://rioterm.com/docs/features' },
    ],
    facts: {},
  },
  {
    id: 'mintty',
    name: 'mintty',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'mintty' }],
          priority: 150,
          graphics: {
            id: 'term-program-mintty',
            note: 'mintty sets TERM_PROGRAM=mintty and draws sixel since 2.6.0.',
            source: 'https://github.com/mintty/mintty/wiki/CtrlSeqs#sixel-graphics-end-position',
          },
        },
      ],
      versionVariable: 'TERM_PROGRAM_VERSION',
      source: 'https://github.com/mintty/mintty/wiki/CtrlSeqs',
    },
    draws: [
      {
        protocol: 'sixel',
        since: '2.6.0',
        source: 'https://github.com/mintty/mintty/wiki/CtrlSeqs#sixel-graphics-end-position',
      },
    ],
    facts: {
      hyperlinks: { value: true, since: '2.9.7', source: OSC8_ADOPTION },
      truecolor: { value: true, source: 'https://github.com/mintty/mintty/wiki/CtrlSeqs' },
    },
  },
  {
    id: 'windows-terminal',
    name: 'Windows Terminal',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'WT_SESSION', test: 'set' }], priority: 340 }],
      source: 'https://github.com/microsoft/terminal/issues/3948',
      note: 'WT_SESSION reaches WSL (through WSLENV) and leaks into terminals started from it (PowerShell/PSReadLine#1511, microsoft/terminal#840); it answers no XTVERSION',
    },
    draws: [
      {
        protocol: 'sixel',
        since: '1.22',
        source: 'https://github.com/microsoft/terminal/releases (1.22: sixel)',
        note: 'DA1 then lists 4',
      },
    ],
    facts: {
      sixelTransparency: {
        value: true,
        since: '1.22',
        source:
          'https://github.com/microsoft/terminal/blob/main/src/terminal/adapter/SixelParser.cpp (_initRasterAttributes: no background fill when P2=1)',
        note: 'from its first sixel release; only its VT125 conformance level (not the default) always fills',
      },
      clipboard: {
        value: true,
        source: 'https://github.com/microsoft/terminal (OSC 52 write since 1.2)',
        note: "the first version (1.2) is in the project's release notes, not in its own version scheme here",
      },
      progress: {
        value: true,
        source: 'https://learn.microsoft.com/en-us/windows/terminal/tutorials/progress-bar-sequences',
      },
      hyperlinks: { value: true, since: '1.4', source: OSC8_ADOPTION },
      truecolor: {
        value: true,
        source: 'https://learn.microsoft.com/en-us/windows/console/console-virtual-terminal-sequences',
      },
    },
    quirks: [
      {
        family: 'apc',
        effect: 'prints',
        source: 'src/probe/query.ts (planQuery: "Windows consoles show APC queries as text")',
        note: "termsight's own probe rule, not re-checked against Windows Terminal in this revision",
      },
    ],
  },
  {
    id: 'conemu',
    name: 'ConEmu',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'ConEmuPID', test: 'set' }], priority: 350 }],
      source: 'https://conemu.github.io/en/AnsiEscapeCodes.html#ConEmu_specific_OSC (ConEmu; ConEmuPID)',
      note: 'a Windows console host; only its progress is recorded here',
    },
    draws: [],
    facts: {
      progress: {
        value: true,
        source: 'https://conemu.github.io/en/AnsiEscapeCodes.html#ConEmu_specific_OSC (OSC 9;4)',
        note: 'ConEmu defined OSC 9;4; Windows Terminal and Ghostty took it over',
      },
    },
  },
  {
    id: 'warp',
    name: 'Warp',
    kind: 'terminal',
    identity: {
      env: [
        {
          when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'WarpTerminal' }],
          priority: 140,
          graphics: {
            id: 'term-program-warp',
            note: 'Warp sets TERM_PROGRAM=WarpTerminal and displays kitty graphics (transmit and display).',
            source: 'https://docs.warp.dev/terminal/more-features/full-screen-apps#image-protocols',
          },
        },
      ],
      source: 'https://docs.warp.dev/terminal/more-features/full-screen-apps#image-protocols',
    },
    draws: [
      { protocol: 'kitty', source: 'https://docs.warp.dev/terminal/more-features/full-screen-apps#image-protocols' },
    ],
    facts: {
      placeholders: { value: false, source: 'https://github.com/warpdotdev/warp/issues/6210' },
    },
  },
  {
    id: 'rxvt-unicode',
    name: 'rxvt-unicode',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'prefix', value: 'rxvt-unicode' }], priority: 370 }],
      source: 'https://github.com/sxyazi/yazi/issues/1026 (TERM=rxvt-unicode-256color)',
    },
    draws: [],
    facts: {
      truecolor: {
        value: false,
        source: 'https://github.com/aristocratos/bpytop/issues/6 ("rxvt doesn\'t handle RGB color codes correctly")',
      },
    },
    quirks: [
      {
        family: 'apc',
        effect: 'prints',
        source: 'https://github.com/sxyazi/yazi/issues/1026',
        note: 'characters left on screen after an APC probe (urxvt 9.30)',
      },
    ],
  },
  {
    id: 'st',
    name: 'st',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'prefix', value: 'st-' }], priority: 380 }],
      source: 'https://st.suckless.org/',
    },
    draws: [],
    facts: {},
    quirks: [
      {
        family: 'oscColours',
        effect: 'bel',
        source: 'https://git.suckless.org/st/file/st.c.html (osc_color_response)',
        note: 'whatever the query ended with',
      },
    ],
  },
  {
    id: 'apple-terminal',
    name: 'Apple Terminal',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM_PROGRAM', test: 'equals', value: 'Apple_Terminal' }], priority: 390 }],
      versionVariable: 'TERM_PROGRAM_VERSION',
      source: 'https://support.apple.com/guide/terminal/welcome/mac',
    },
    draws: [],
    facts: {},
    quirks: [
      {
        family: 'dcs',
        effect: 'prints',
        source: 'src/probe/query.ts (planQuery: "Apple Terminal shows DCS/APC queries as text")',
        note: "termsight's own probe rule, not re-checked in this revision",
      },
      {
        family: 'apc',
        effect: 'prints',
        source: 'src/probe/query.ts (planQuery: "Apple Terminal shows DCS/APC queries as text")',
        note: "termsight's own probe rule, not re-checked in this revision",
      },
    ],
  },
  {
    id: 'linux-console',
    name: 'the Linux console',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'equals', value: 'linux' }], priority: 400 }],
      source: 'https://man7.org/linux/man-pages/man4/console_codes.4.html',
    },
    draws: [],
    facts: {},
    note: 'text only; no fact beyond its identity is sourced here',
  },
  {
    id: 'zutty',
    name: 'zutty',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'prefix', value: 'zutty' }], priority: 410 }],
      fingerprints: [
        {
          da1: '^\\?64;1;9;15;21;22c$',
          da2: '^>64;0;0c$',
          source:
            'https://github.com/tomscii/zutty/blob/1ff6da9/src/vterm.icc (DEVICE_ID "64;1;9;15;21;22c", csi_secDA "\\e[>64;0;0c")',
          note: 'zutty exports TERM=xterm-256color (src/main.cc), so its replies are what names it',
        },
      ],
      source: 'https://tomscii.sig7.se/zutty/',
    },
    draws: [],
    facts: {},
    glyphs: {
      braille: {
        value: false,
        source: 'https://github.com/tomscii/zutty',
        note: 'draws no braille glyphs, so its text picture uses blocks; from the project issue that asked for this database, not re-checked in this revision',
      },
    },
    quirks: [
      {
        family: 'kittyGraphics',
        effect: 'prints',
        source:
          'https://github.com/tomscii/zutty/blob/1ff6da9/src/vterm.cc (InputState::Escape has no case for `_`: ESC _ is dropped and the APC body drawn as text)',
        note: 'any APC, the kitty graphics query included',
      },
      {
        family: 'decrqm',
        effect: 'prints',
        source: 'https://github.com/tomscii/zutty',
        note: 'the final p of DECRQM shows; from the project issue, not re-checked in this revision',
      },
    ],
  },
  {
    id: 'libvterm',
    name: 'libvterm',
    hosts: ["Neovim's :terminal", 'Emacs vterm'],
    kind: 'terminal',
    identity: {
      env: [
        { when: [{ variable: 'NVIM', test: 'set' }], priority: 420 },
        { when: [{ variable: 'INSIDE_EMACS', test: 'contains', values: ['vterm'] }], priority: 421 },
      ],
      source: 'https://neovim.io/doc/user/terminal.html and https://github.com/akermu/emacs-libvterm',
    },
    draws: [],
    facts: {},
    quirks: [{ family: 'oscColours', effect: 'bel', source: 'https://github.com/neovim/neovim/issues/37018' }],
    note: 'libvterm draws no pictures',
  },
  {
    id: 'emacs-eat',
    name: 'Emacs eat',
    kind: 'terminal',
    identity: {
      env: [{ when: [{ variable: 'TERM', test: 'prefix', value: 'eat-' }], priority: 430 }],
      source: 'https://codeberg.org/akib/emacs-eat',
    },
    draws: [],
    facts: {},
    note: 'draws no pictures; no further fact is sourced here',
  },
];
