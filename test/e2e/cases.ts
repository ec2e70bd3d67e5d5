/**
 * The table: terminal setup → what `termsight detect --json` must report there, and so what `show`
 * must draw. Every setup runs twice, with the environment the terminal gave and with a scrubbed one
 * (`env -i TERM=xterm-256color HOME PATH`, as over ssh), and the answer must be the same.
 * The replies quoted in the patterns are those recorded in test/fixtures/replies/.
 */
import type { Protocol } from '../../src/env/protocol.js';
import type { WhySource } from '../../src/report/types.js';
import type { Setup } from './harness/terminals.js';

/**
 * What termsight leaves behind today where it must leave nothing: each is asserted in the strict
 * suite (test/e2e/findings/, not part of `npm test` until termsight is fixed) and left out of the
 * main suite for the cells listed in `findings` below. Everything else about those cells is checked.
 */
export const FINDINGS: Readonly<Record<string, string>> = {};

/** One finding's id (a key of FINDINGS; none is left today: the last, tmux-sixel-aspect, is fixed). */
export type FindingId = string;

/**
 * The checks of a cell (suite.ts): the report, the picture (on screen, after a redraw, with the
 * pane moved), stray text after `show`, the screen after `detect`, the tmux pane title, the
 * window titles.
 */
export type Check = 'report' | 'picture' | 'stray' | 'screen' | 'pane-title' | 'window-title';

/** The checks each finding breaks: in the main suite those are left to the strict one. */
export const FINDING_BREAKS: Readonly<Record<FindingId, readonly Check[]>> = {};

/**
 * What a picture must be drawn with: a graphics protocol, or `text`: braille, blocks or symbols,
 * whichever the renderer thinks best for the terminal (that choice is the renderer's, issue 11).
 */
export type ExpectedGraphics = Exclude<Protocol, 'braille' | 'blocks' | 'symbols'> | 'text';

/** The protocols that draw with text cells. */
export const TEXT_PROTOCOLS: readonly Protocol[] = ['braille', 'blocks', 'symbols'];

/** Whether the protocol a report chose is the one expected. */
export function graphicsMatch(expected: ExpectedGraphics, chosen: unknown): boolean {
  return expected === 'text' ? TEXT_PROTOCOLS.includes(chosen as Protocol) : chosen === expected;
}

/** What one setup must produce. */
export interface Expectation {
  readonly setup: Setup;
  readonly graphics: ExpectedGraphics;
  /** The terminal's name (compared case-insensitively), or null where no reply can name it. */
  readonly terminal: string | null;
  /**
   * The multiplexer, and whether passthrough works (not checked when left out); `any`: not checked
   * (mosh sits between like a multiplexer, and the report may or may not name it).
   */
  readonly multiplexer: { readonly name: 'tmux' | 'screen'; readonly passthrough?: boolean } | null | 'any';
  /** What `why.graphics` must say: its allowed sources, and the reply (escaped text) it must quote. */
  readonly why: { readonly sources: readonly WhySource[]; readonly reply?: RegExp; readonly detail?: RegExp };
  /**
   * Inside tmux: whether the picture must survive a full redraw (`tmux refresh-client`). Text
   * (braille) and kitty's Unicode placeholders are cells tmux knows; a sixel passed through is not,
   * and tmux 3.3a paints over it (recorded in the table, not asserted).
   */
  readonly survivesRefresh?: boolean;
  /**
   * Inside tmux: the picture moves with its pane when another pane is split off beside it, and
   * disappears when its pane is killed (kitty's Unicode placeholders: the picture is cells).
   */
  readonly followsPane?: boolean;
  /** Known findings by environment (see FINDINGS). */
  readonly findings?: Partial<Record<'inherited' | 'scrubbed', readonly FindingId[]>>;
  /** What differs in the scrubbed environment, where no variable lets termsight ask the multiplexer. */
  readonly scrubbed?: Partial<Pick<Expectation, 'graphics' | 'why'>>;
}

/** The expectation of a setup in one environment (`scrubbed` overrides applied). */
export function expectationIn(expected: Expectation, environment: 'inherited' | 'scrubbed'): Expectation {
  return environment === 'scrubbed' && expected.scrubbed ? { ...expected, ...expected.scrubbed } : expected;
}

/** DA1 from xterm as a VT340: attribute 4 (sixel) among the parameters. */
const DA1_WITH_SIXEL = /\[\?6\d(;\d+)*;4(;\d+)*c/;
/** DA1 from plain xterm: no attribute 4. */
const DA1_WITHOUT_SIXEL = /\[\?6\d(;\d+)*c/;
/** kitty names itself in XTVERSION and answers the graphics query with OK. */
const KITTY_REPLY = /kitty\(|_Gi=31;OK/;
/** Konsole names itself in XTVERSION (`ESC P > | Konsole 25.04.2 ESC \`). */
const KONSOLE_REPLY = />\|Konsole \d/;
/** foot names itself in XTVERSION (`ESC P > | foot(1.21.0) ESC \`). */
const FOOT_REPLY = />\|foot\(\d/;

/** Every setup of issue 6 and its expected answer. */
export const EXPECTATIONS: readonly Expectation[] = [
  {
    setup: { terminal: 'xterm', multiplexer: 'none' },
    graphics: 'text',
    terminal: 'xterm',
    multiplexer: null,
    // DA1 without 4, or (since issue 15's report side) XTVERSION naming the database row with "DA1 lists no 4".
    why: { sources: ['reply'], reply: new RegExp(`${DA1_WITHOUT_SIXEL.source}|XTerm\\(\\d+\\)`) },
  },
  {
    setup: { terminal: 'xterm-vt340', multiplexer: 'none' },
    graphics: 'sixel',
    terminal: 'xterm',
    multiplexer: null,
    why: { sources: ['reply'], reply: DA1_WITH_SIXEL },
  },
  {
    setup: { terminal: 'kitty', multiplexer: 'none' },
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: null,
    why: { sources: ['reply'], reply: KITTY_REPLY },
  },
  {
    setup: { terminal: 'xterm-vt340', multiplexer: 'tmux' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'tmux', passthrough: false },
    why: { sources: ['multiplexer'], detail: /passthrough/i },
    survivesRefresh: true,
  },
  {
    setup: { terminal: 'xterm-vt340', multiplexer: 'tmux-pt' },
    graphics: 'sixel',
    terminal: 'xterm',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: DA1_WITH_SIXEL },
    survivesRefresh: false,
  },
  {
    setup: { terminal: 'kitty', multiplexer: 'tmux' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'tmux', passthrough: false },
    why: { sources: ['multiplexer'], detail: /passthrough/i },
    survivesRefresh: true,
  },
  {
    // Debian's kitty 0.26.5 predates Unicode placeholders (0.28), the only kitty images that move
    // and clear with a tmux pane: the report names kitty and says why it draws braille instead.
    setup: { terminal: 'kitty', multiplexer: 'tmux-pt' },
    graphics: 'text',
    terminal: 'kitty',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: KITTY_REPLY, detail: /placeholders/ },
    survivesRefresh: true,
  },
  {
    setup: { terminal: 'xterm', multiplexer: 'screen' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'screen' },
    // screen answers DA1 itself (`ESC [ ? 1 ; 2 c`) and shows DCS/APC payloads as text: braille,
    // decided by that reply or by the multiplexer rule.
    why: { sources: ['reply', 'multiplexer', 'rule'] },
  },
  {
    // Issue 15 (db): the outer xterm answers the queries sent in screen's DCS packets after screen's
    // own DA1, its DA1 lists 4, and the sixel goes through in packets under 768 bytes.
    setup: { terminal: 'xterm-vt340', multiplexer: 'screen' },
    graphics: 'sixel',
    terminal: 'xterm',
    multiplexer: { name: 'screen', passthrough: true },
    why: { sources: ['reply'], reply: DA1_WITH_SIXEL, detail: /GNU screen .*passthrough/ },
  },
];

/**
 * The Debian 13 (trixie) cells (issue 14), each with the right behaviour as issue 15 states it:
 * the terminal's answers beat inherited variables, no APC or DCS reaches a layer that would show
 * it, kitty placeholders only where the terminal has them (kitty 0.28+), tmux 3.4+ draws sixel
 * itself. Versions: kitty 0.41.1, tmux 3.5a, xterm 398, rxvt-unicode 9.31, GNOME Terminal 3.56 on
 * VTE 0.80, Konsole 25.04.2, foot 1.21.0 (weston 14.0.2), Alacritty 0.15.1, mosh 1.4.0.
 */
export const TRIXIE_EXPECTATIONS: readonly Expectation[] = [
  {
    setup: { terminal: 'kitty', multiplexer: 'none', system: 'trixie' },
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: null,
    why: { sources: ['reply'], reply: KITTY_REPLY },
  },
  {
    // kitty 0.41 has Unicode placeholders: the picture is cells of the pane, so tmux redraws it,
    // moves it with the pane and removes it with the pane.
    setup: { terminal: 'kitty', multiplexer: 'tmux-pt', system: 'trixie' },
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: KITTY_REPLY },
    survivesRefresh: true,
    followsPane: true,
  },
  {
    // tmux 3.5a draws sixel itself when its client has it (`#{client_termfeatures}` lists sixel) and
    // it was built with sixel (its own DA1 `?1;2;4c`; 3.5a prints nothing for `#{sixel_support}`):
    // no passthrough needed, and the picture is tmux's, so a full redraw keeps it. The picture is
    // whole cells of tmux's `#{client_cell_width}`x`#{client_cell_height}` (8x17 here), so tmux
    // fills no margin with register 0 (the finding tmux-sixel-band, fixed), padded with the
    // background tmux answers OSC 11 with (white), so it keeps its size and aspect (the finding
    // tmux-sixel-aspect, fixed: 104x102 before, 2% wide).
    setup: { terminal: 'xterm-vt340', multiplexer: 'tmux', system: 'trixie' },
    graphics: 'sixel',
    terminal: null,
    multiplexer: { name: 'tmux' },
    why: { sources: ['reply', 'multiplexer', 'rule'] },
    survivesRefresh: true,
    // Scrubbed (TMUX unset) there is no tmux to ask, wrapped queries come back unanswered and tmux's
    // own DA1 and XTSMGRAPHICS claim sixel whatever its client is: nothing proves the client draws
    // sixel (over kitty or VTE tmux would print a box of `+`), so a text picture is right
    // (test/report/tmux-sixel.test.ts, the recorded replies).
    scrubbed: { graphics: 'text', why: { sources: ['multiplexer'], detail: /tmux drops wrapped sequences/ } },
  },
  {
    // xterm 398 as a VT340 directly: leaves the rest of a short last sixel band alone (issue 24),
    // so the picture keeps its height.
    setup: { terminal: 'xterm-vt340', multiplexer: 'none', system: 'trixie' },
    graphics: 'sixel',
    terminal: 'xterm',
    multiplexer: null,
    why: { sources: ['reply'], reply: DA1_WITH_SIXEL },
  },
  {
    // tmux 3.5a drawing sixel itself over Konsole 25.04 (issue 24): the picture in whole cells of
    // tmux's client (8x15: 8 rows, 120 px, are whole bands where the 7 it reaches are not), padded
    // with tmux's OSC 11 background, so neither tmux's margin (register 0) nor a stretch;
    // scrubbed, nothing proves the client's sixel: text, as over xterm and foot.
    setup: { terminal: 'konsole', multiplexer: 'tmux', system: 'trixie' },
    graphics: 'sixel',
    terminal: null,
    multiplexer: { name: 'tmux' },
    why: { sources: ['reply', 'multiplexer', 'rule'] },
    survivesRefresh: true,
    scrubbed: { graphics: 'text', why: { sources: ['multiplexer'], detail: /tmux drops wrapped sequences/ } },
  },
  {
    // rxvt-unicode 9.31 draws no pictures and prints an APC it does not know: text, no query shown.
    setup: { terminal: 'urxvt', multiplexer: 'none', system: 'trixie' },
    graphics: 'text',
    terminal: null,
    multiplexer: null,
    why: { sources: ['reply', 'rule', 'default'] },
  },
  {
    setup: { terminal: 'vte', multiplexer: 'none', system: 'trixie' },
    graphics: 'text',
    terminal: null,
    multiplexer: null,
    why: { sources: ['reply', 'rule', 'default'] },
  },
  {
    setup: { terminal: 'vte', multiplexer: 'tmux', system: 'trixie' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'tmux' },
    why: { sources: ['reply', 'multiplexer', 'rule', 'default'] },
    survivesRefresh: true,
  },
  {
    // Konsole 25.04 names itself in XTVERSION and draws sixel; it answers kitty's query with OK but
    // ignores U=1, so kitty images would need its partial support of direct placements: sixel.
    setup: { terminal: 'konsole', multiplexer: 'none', system: 'trixie' },
    graphics: 'sixel',
    terminal: 'konsole',
    multiplexer: null,
    why: { sources: ['reply'], reply: KONSOLE_REPLY },
  },
  {
    // Through tmux with passthrough the wrapped XTVERSION still names Konsole: sixel passed through,
    // never kitty's Unicode placeholders (Konsole has none; they would show as empty cells).
    setup: { terminal: 'konsole', multiplexer: 'tmux-pt', system: 'trixie' },
    graphics: 'sixel',
    terminal: 'konsole',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: KONSOLE_REPLY },
    survivesRefresh: false,
  },
  {
    setup: { terminal: 'foot', multiplexer: 'none', system: 'trixie' },
    graphics: 'sixel',
    terminal: 'foot',
    multiplexer: null,
    why: { sources: ['reply'], reply: FOOT_REPLY },
  },
  {
    // tmux 3.5a's own sixel over foot 1.21 (foot's DA1 lists 4, so tmux's client has the sixel
    // feature), whole cells of tmux's client cell padded with tmux's OSC 11 background as over
    // xterm (no band, no stretch); scrubbed, nothing proves the client's sixel, as over xterm: text.
    setup: { terminal: 'foot', multiplexer: 'tmux', system: 'trixie' },
    graphics: 'sixel',
    terminal: null,
    multiplexer: { name: 'tmux' },
    why: { sources: ['multiplexer'], detail: /draws sixel itself/ },
    survivesRefresh: true,
    scrubbed: { graphics: 'text', why: { sources: ['multiplexer'], detail: /tmux drops wrapped sequences/ } },
  },
  {
    // Alacritty 0.15 draws no pictures and answers no XTVERSION; its DA2 (`>0;2500;1c`) names it: a
    // text picture, nothing shown of the probe.
    setup: { terminal: 'alacritty', multiplexer: 'none', system: 'trixie' },
    graphics: 'text',
    terminal: 'alacritty',
    multiplexer: null,
    why: { sources: ['reply'] },
  },
  {
    // mosh passes on only the screen's state: text pictures, and nothing of the probe may show.
    setup: { terminal: 'xterm', multiplexer: 'mosh', system: 'trixie' },
    graphics: 'text',
    terminal: null,
    multiplexer: 'any',
    why: { sources: ['reply', 'multiplexer', 'rule', 'default'] },
  },
];

/** The two environments each setup runs with. */
export const ENVIRONMENTS = ['inherited', 'scrubbed'] as const;

/** One environment. */
export type EnvironmentKind = (typeof ENVIRONMENTS)[number];

/** Whether a protocol draws pixels (judged as a solid picture) or text dots. */
export function pictureKind(graphics: ExpectedGraphics): 'pixels' | 'dots' {
  return graphics === 'text' ? 'dots' : 'pixels';
}
