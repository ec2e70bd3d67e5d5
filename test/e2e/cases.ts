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
} as const;

/** One finding's id. */
export type FindingId = keyof typeof FINDINGS;

/** What one setup must produce. */
export interface Expectation {
  readonly setup: Setup;
  readonly graphics: Protocol;
  /** The terminal's name (compared case-insensitively), or null where no reply can name it. */
  readonly terminal: string | null;
  /** The multiplexer, and whether passthrough works (not checked when left out). */
  readonly multiplexer: { readonly name: 'tmux' | 'screen'; readonly passthrough?: boolean } | null;
  /** What `why.graphics` must say: its allowed sources, and the reply (escaped text) it must quote. */
  readonly why: { readonly sources: readonly WhySource[]; readonly reply?: RegExp; readonly detail?: RegExp };
  /**
   * Inside tmux: whether the picture must survive a full redraw (`tmux refresh-client`). Text
   * (braille) and kitty's Unicode placeholders are cells tmux knows; a sixel passed through is not,
   * and tmux 3.3a paints over it (recorded in the table, not asserted).
   */
  readonly survivesRefresh?: boolean;
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
    graphics: 'symbols',
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
    graphics: 'symbols',
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
    graphics: 'symbols',
    terminal: null,
    multiplexer: { name: 'tmux', passthrough: false },
    why: { sources: ['multiplexer'], detail: /passthrough/i },
    survivesRefresh: true,
    findings: { scrubbed: ['pane-title'] },
  },
  {
    // Debian's kitty 0.26.5 predates Unicode placeholders (0.28), the only kitty images that move
    // and clear with a tmux pane: the report names kitty and says why it draws text instead (symbols,
    // the text picture where text has colour).
    setup: { terminal: 'kitty', multiplexer: 'tmux-pt' },
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: { name: 'tmux', passthrough: true },
    why: { sources: ['reply'], reply: KITTY_REPLY, detail: /placeholders/ },
    survivesRefresh: true,
    findings: { scrubbed: ['pane-title'] },
  },
  {
    setup: { terminal: 'xterm', multiplexer: 'screen' },
    graphics: 'symbols',
    terminal: null,
    multiplexer: { name: 'screen' },
    // screen answers DA1 itself (`ESC [ ? 1 ; 2 c`) and shows DCS/APC payloads as text: the text
    // picture (symbols: text has colour), decided by that reply or by the multiplexer rule.
    why: { sources: ['reply', 'multiplexer', 'rule'] },
    findings: { scrubbed: ['window-title'] },
  },
];

/** The two environments each setup runs with. */
export const ENVIRONMENTS = ['inherited', 'scrubbed'] as const;

/** One environment. */
export type EnvironmentKind = (typeof ENVIRONMENTS)[number];

/** Whether a protocol draws pixels (judged as a solid picture) or text cells (braille, blocks, symbols). */
export function pictureKind(protocol: Protocol): 'pixels' | 'dots' {
  return protocol === 'braille' || protocol === 'blocks' || protocol === 'symbols' ? 'dots' : 'pixels';
}
