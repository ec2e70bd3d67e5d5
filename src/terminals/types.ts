/**
 * The shape of one row of the terminal database: how a terminal (or multiplexer) shows itself,
 * what it draws, what it is known to do, and which queries it gets wrong. Every fact carries the
 * source it rests on; a fact whose first version could not be sourced has no `since` and says so
 * in its note. See docs/terminals.md.
 */
import type { Condition } from '../core/condition.js';

/** The pixel protocols a row can draw (the text protocols, braille and blocks, work anywhere). */
export type DrawnProtocol = 'kitty' | 'iterm2' | 'sixel';

/** One sourced yes/no fact, optionally from a first version on (in the row's own version scheme). */
export interface Fact {
  readonly value: boolean;
  /** The first version with it; absent when it holds in every version that matters or could not be sourced. */
  readonly since?: string;
  /** A URL, changelog entry, issue or `test/fixtures/replies/<file>` a reader can open. */
  readonly source: string;
  readonly note?: string;
}

/** A protocol the row draws, with what it takes. */
export interface Draws {
  readonly protocol: DrawnProtocol;
  readonly since?: string;
  /**
   * `da1`: only when DA1 lists attribute 4 (a build option, an addon, a VT340 mode decides);
   * absent: whenever the row is identified.
   */
  readonly onlyIf?: 'da1';
  readonly source: string;
  readonly note?: string;
}

/** The desktop-notification sequence a terminal reads: OSC 9 (iTerm2's), kitty's OSC 99, or OSC 777 `notify` (urxvt's). */
export type NotifyDialect = 'osc9' | 'osc99' | 'osc777';

/** Desktop notifications, with the sequence the terminal reads. */
export interface NotifyFact extends Fact {
  readonly dialect: NotifyDialect;
}

/** The facts of the report, per row. */
export interface Facts {
  /** Keeps kitty images under an id and places them again (`a=p`). */
  readonly placements?: Fact;
  /** kitty's Unicode placeholders (`U=1`, U+10EEEE). */
  readonly placeholders?: Fact;
  /** kitty's animation frames (`a=f`, `a=a`). */
  readonly animation?: Fact;
  /** OSC 8 hyperlinks. */
  readonly hyperlinks?: Fact;
  /** 24-bit SGR colour. */
  readonly truecolor?: Fact;
  /** Synchronized output (DECSET 2026). */
  readonly synchronizedOutput?: Fact;
  /** Whether replies may come in another order than the queries were sent. */
  readonly reorders?: Fact;
  /** Reports its size in band after every change while DECSET 2048 is on (`CSI 48 ; … t`). */
  readonly inBandResize?: Fact;
  /** Shows a desktop notification for its sequence (the `notify` capability). */
  readonly notify?: NotifyFact;
  /** Writes the system clipboard for OSC 52 without the user turning it on (the `clipboard` capability). */
  readonly clipboard?: Fact;
  /** Shows OSC 9;4 progress in its tab or taskbar (the `progress` capability). */
  readonly progress?: Fact;
  /**
   * Honours sixel's P2=1: pixels the picture leaves unset show what was under them. Where it is
   * false or unknown, a picture's transparent pixels are painted in the terminal's background.
   */
  readonly sixelTransparency?: Fact;
  /**
   * Draws a last sixel band of fewer than six pixel rows as only those rows, leaving what is below
   * them. Where it is false or unknown, sixel pictures are sized to whole bands (docs/render.md,
   * "No band"): Konsole paints the rest of the band with colour register 0, foot with black.
   */
  readonly sixelPartialBand?: Fact;
}

/** The fact names of `Facts`, in the order they are printed. */
export const FACT_NAMES = [
  'placements',
  'placeholders',
  'animation',
  'hyperlinks',
  'truecolor',
  'synchronizedOutput',
  'reorders',
  'inBandResize',
  'notify',
  'clipboard',
  'progress',
  'sixelTransparency',
  'sixelPartialBand',
] as const satisfies readonly (keyof Facts)[];

/** A fact's name. */
export type FactName = (typeof FACT_NAMES)[number];

/**
 * Glyph sets a terminal may draw itself, pixel-exact, instead of taking them from the font (a fact
 * with `value: false` records that it shows none of them: zutty and braille).
 */
export type GlyphSet = 'blocks' | 'sextants' | 'octants' | 'braille';

/** Query families termsight sends, as the database speaks of them. */
export type QueryFamily =
  | 'dcs'
  | 'apc'
  | 'kittyGraphics'
  | 'decrqm'
  | 'oscColours'
  | 'xtversion'
  | 'da1'
  | 'da2'
  | 'cpr'
  | 'xtsmgraphics'
  | 'windowCells'
  | 'windowPixels'
  | 'cellPixels';

/** Something a terminal does wrong with a query family. */
export interface Quirk {
  readonly family: QueryFamily;
  /** `prints`: shows the query (or part of it) as text; `bel`: ends its reply with BEL, not ST. */
  readonly effect: 'prints' | 'bel';
  readonly source: string;
  readonly note?: string;
}

/** A query a multiplexer answers itself (its own reply, not the outer terminal's). */
export interface Answer {
  readonly query: QueryFamily;
  readonly since?: string;
  readonly source: string;
  readonly note?: string;
}

/** What only multiplexers have. */
export interface MultiplexerFacts {
  /** Wrapped sequences reach the outer terminal (tmux `allow-passthrough`). */
  readonly passthrough?: Fact;
  /** Passthrough also from panes not visible (tmux `allow-passthrough all`). */
  readonly passthroughHidden?: Fact;
  /** Queries it answers itself. */
  readonly answers: readonly Answer[];
  /** DCS strings must be sent in packets shorter than this many bytes (GNU screen). */
  readonly dcsPacketBytes?: { readonly bytes: number; readonly source: string };
}

/** What the report takes from an XTVERSION name alone today (the name lists the views replace). */
export type ByName = 'graphics' | 'placements' | 'hyperlinks' | 'truecolor';

/** How a row names itself in its XTVERSION reply. */
export interface XtversionName {
  /** The names (compared case-insensitively), as the reply writes them: `kitty`, `iTerm2`. */
  readonly names: readonly string[];
  /** An example reply body: `kitty(0.26.5)`, `tmux 3.3a`, `VTE(7600)`. */
  readonly example: string;
  /** `hundreds`: the version is one number, major*10000 + minor*100 + patch (`7600` is 0.76.0). */
  readonly encoding?: 'hundreds';
  /** The first version that answers XTVERSION, when sourced. */
  readonly since?: string;
  /** Which answers the report takes from this name alone (graphics: the name decides the protocol). */
  readonly byName: readonly ByName[];
  readonly source: string;
  readonly note?: string;
}

/** A DA1/DA2 reply (anchored regular expressions on the reply body after `CSI`) that identifies a row. */
export interface Fingerprint {
  readonly da1?: string;
  readonly da2?: string;
  readonly source: string;
  readonly note?: string;
}

/** How a row shows itself. */
export interface Identity {
  /** Condition sets on the environment; any one set, all its conditions holding, names the row. */
  readonly env: readonly (readonly Condition[])[];
  /** The variable holding its version when the environment names it. */
  readonly versionVariable?: string;
  readonly xtversion?: XtversionName;
  readonly fingerprints?: readonly Fingerprint[];
  readonly source: string;
  readonly note?: string;
}

/** A rule of one of the environment's tables, with its place in that table (lower first). */
export interface RankedRule<A> {
  readonly priority: number;
  readonly id: string;
  readonly when: readonly Condition[];
  readonly answer: A;
  readonly note: string;
  readonly source: string;
  readonly founding?: true;
}

/** One terminal or multiplexer. */
export interface TerminalRow {
  /** A stable id: `kitty`, `tmux`. */
  readonly id: string;
  /** How people call it. */
  readonly name: string;
  readonly kind: 'terminal' | 'multiplexer';
  /** Terminals built on this one (xterm.js: VS Code, Tabby, …). */
  readonly hosts?: readonly string[];
  readonly identity: Identity;
  /** Pixel protocols, best first (empty: text only). */
  readonly draws: readonly Draws[];
  readonly facts: Facts;
  /** Glyph sets it draws itself, pixel-exact (false: known to show none of that set). */
  readonly glyphs?: Partial<Readonly<Record<GlyphSet, Fact>>>;
  readonly quirks?: readonly Quirk[];
  readonly multiplexer?: MultiplexerFacts;
  /** Its rows in the environment's graphics and placements tables. */
  readonly rules?: {
    readonly graphics?: readonly RankedRule<DrawnProtocol>[];
    readonly placements?: readonly RankedRule<boolean>[];
  };
  /** What the row leaves out, and why. */
  readonly note?: string;
}
