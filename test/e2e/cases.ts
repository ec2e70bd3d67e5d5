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
export const FINDINGS = {
  'pane-title':
    "tmux 3.3a, scrubbed environment: the first probe round sends the kitty graphics query unwrapped (`ESC _Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA ESC \\`); tmux takes an APC string as the pane's title, so `#{pane_title}` becomes `Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA` after `detect` and stays so",
  'window-title':
    "GNU screen 4.09 in xterm, scrubbed environment: the same unwrapped APC query sets the screen window's hardstatus, which screen writes to xterm's title: the X window's WM_NAME and _NET_WM_NAME become `Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA` (they were `screen`)",
  'printed-apc':
    'rxvt-unicode 9.31 (Debian 13), both environments: the first probe round sends the kitty graphics query to a terminal that has not shown it parses APC (no XTVERSION, DA1 `?1;2c`), and urxvt prints its payload `Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA` at the cursor: after `detect` on the top line, and again before the picture from `show`\u2019s own probe (so the picture starts a line low)',
  'tmux-sixel':
    "tmux 3.5a (Debian 13, built with sixel) without passthrough in xterm 398 as a VT340, both environments: tmux draws sixel itself for a client whose terminal has it (`#{client_termfeatures}` lists sixel) and keeps it across redraws, but the report says a text picture because passthrough is off (`why.graphics`: 'tmux drops wrapped sequences (allow-passthrough is off): braille')",
  'tmux-unnamed':
    'tmux 3.5a with passthrough in kitty 0.41 (Debian 13), scrubbed environment: the report names neither tmux nor kitty (`multiplexer` null, `terminal.name` null) and answers braille by default (`no rule matched`), so the picture is text where kitty placeholders would draw it',
} as const;

/** One finding's id. */
export type FindingId = keyof typeof FINDINGS;

/**
 * The checks of a cell (suite.ts): the report, the picture (on screen, after a redraw, with the
 * pane moved), stray text after `show`, the screen after `detect`, the tmux pane title, the
 * window titles.
 */
export type Check = 'report' | 'picture' | 'stray' | 'screen' | 'pane-title' | 'window-title';

/** The checks each finding breaks: in the main suite those are left to the strict one. */
export const FINDING_BREAKS: Readonly<Record<FindingId, readonly Check[]>> = {
  'pane-title': ['pane-title'],
  'window-title': ['window-title'],
  'printed-apc': ['screen', 'stray', 'picture'],
  'tmux-sixel': ['report', 'picture'],
  'tmux-unnamed': ['report', 'picture'],
};

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
}

/** DA1 from xterm as a VT340: attribute 4 (sixel) among the parameters. */
const DA1_WITH_SIXEL = /\[\?6\d(;\d+)*;4(;\d+)*c/;
/** DA1 from plain xterm: no attribute 4. */
const DA1_WITHOUT_SIXEL = /\[\?6\d(;\d+)*c/;
/** kitty names itself in XTVERSION and answers the graphics query with OK. */
const KITTY_REPLY = /kitty\(|_Gi=31;OK/;

/** Every setup of issue 6 and its expected answer. */
export const EXPECTATIONS: readonly Expectation[] = [
  {
    setup: { terminal: 'xterm', multiplexer: 'none' },
    graphics: 'text',
    terminal: 'xterm',
    multiplexer: null,
    why: { sources: ['reply'], reply: DA1_WITHOUT_SIXEL },
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
    findings: { scrubbed: ['pane-title'] },
  },
  {
    setup: { terminal: 'xterm-vt340', multiplexer: 'tmux-pt' },
    graphics: 'sixel',
    terminal: 'xterm',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: DA1_WITH_SIXEL },
    survivesRefresh: false,
    findings: { scrubbed: ['pane-title'] },
  },
  {
    setup: { terminal: 'kitty', multiplexer: 'tmux' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'tmux', passthrough: false },
    why: { sources: ['multiplexer'], detail: /passthrough/i },
    survivesRefresh: true,
    findings: { scrubbed: ['pane-title'] },
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
    findings: { scrubbed: ['pane-title'] },
  },
  {
    setup: { terminal: 'xterm', multiplexer: 'screen' },
    graphics: 'text',
    terminal: null,
    multiplexer: { name: 'screen' },
    // screen answers DA1 itself (`ESC [ ? 1 ; 2 c`) and shows DCS/APC payloads as text: braille,
    // decided by that reply or by the multiplexer rule.
    why: { sources: ['reply', 'multiplexer', 'rule'] },
    findings: { scrubbed: ['window-title'] },
  },
];

/**
 * The Debian 13 (trixie) cells (issue 14), each with the right behaviour as issue 15 states it:
 * the terminal's answers beat inherited variables, no APC or DCS reaches a layer that would show
 * it, kitty placeholders only where the terminal has them (kitty 0.28+), tmux 3.4+ draws sixel
 * itself. Versions: kitty 0.41.1, tmux 3.5a, xterm 398, rxvt-unicode 9.31, GNOME Terminal 3.56 on
 * VTE 0.80, mosh 1.4.0.
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
    findings: { scrubbed: ['pane-title', 'tmux-unnamed'] },
  },
  {
    // tmux 3.5a draws sixel itself when the outer terminal has it (its DA1 shows attribute 4):
    // no passthrough needed, and the picture is tmux's, so a full redraw keeps it.
    setup: { terminal: 'xterm-vt340', multiplexer: 'tmux', system: 'trixie' },
    graphics: 'sixel',
    terminal: null,
    multiplexer: { name: 'tmux' },
    why: { sources: ['reply', 'multiplexer', 'rule'] },
    survivesRefresh: true,
    findings: { inherited: ['tmux-sixel'], scrubbed: ['tmux-sixel', 'pane-title'] },
  },
  {
    // rxvt-unicode 9.31 draws no pictures and prints an APC it does not know: text, no query shown.
    setup: { terminal: 'urxvt', multiplexer: 'none', system: 'trixie' },
    graphics: 'text',
    terminal: null,
    multiplexer: null,
    why: { sources: ['reply', 'rule', 'default'] },
    findings: { inherited: ['printed-apc'], scrubbed: ['printed-apc'] },
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
    findings: { scrubbed: ['pane-title'] },
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
