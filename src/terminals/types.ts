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
  /** The first version without it again (a regression fixed there); absent: every later version has it. */
  readonly until?: string;
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
   * `kittyQuery`: only when the kitty graphics query was answered OK (an embedder or a setting
   * decides, and the name says nothing: libghostty's embedders, herdr, VS Code's addon);
   * absent: whenever the row is identified.
   */
  readonly onlyIf?: 'da1' | 'kittyQuery';
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
  /**
   * kitty pictures survive only as Unicode placeholders: the layer drops direct placements when it
   * repaints (herdr), so the report asks for placeholders there (`Report.placeholders`).
   */
  readonly placeholdersOnly?: Fact;
  /** kitty's animation frames (`a=f`, `a=a`). */
  readonly animation?: Fact;
  /**
   * Reads an animation frame's (`a=f`) overwrite mode from `C` instead of the documented `X`
   * (kitty 0.45.0 to 0.48.x, kitty#10379): a frame that must replace must carry `C=1` too.
   */
  readonly frameOverwriteInC?: Fact;
  /** Takes `N=1`, the hint that an image is short-lived (redrawn frames, previews), and keeps it out of its disk cache. */
  readonly shortLivedHint?: Fact;
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
  'placeholdersOnly',
  'animation',
  'frameOverwriteInC',
  'shortLivedHint',
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
  /**
   * The largest escape sequence it takes in one piece: a longer one (a sixel, a wrapped picture) is
   * dropped whole (tmux: 1 MiB, its input buffer).
   */
  readonly maxSequenceBytes?: { readonly bytes: number; readonly source: string; readonly note?: string };
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

/** A row of one of the environment's tables as a sign carries it: the table's id, why it holds, where that is written. */
export interface EnvRuleText {
  readonly id: string;
  readonly note: string;
  readonly source: string;
  /** One of the founding table's rows (the rows termsight started from), kept exactly. */
  readonly founding?: true;
}

/**
 * One way the environment shows a row, chafa's env rule of a `term_def`: conditions that must all
 * hold, and a priority (lower first). Identification takes, of the signs that hold, the one with
 * the lowest priority, a sign on a variable other terminals' children inherit only after every
 * other; the environment's tables (`detect`, `placements`) are the signs that decide them, by the
 * same priority. A sign's answer is the row's own: `detect` takes the row's first protocol that
 * needs no reply, `placements` the row's placements fact.
 */
export interface EnvSign {
  readonly when: readonly Condition[];
  readonly priority: number;
  /** The variable holding the version where this sign names the row (default: the identity's `versionVariable`). */
  readonly versionVariable?: string;
  /**
   * `false`: a founding rule that names two terminals at once (`TERM` containing kitty or ghostty):
   * it decides `detect` and names no one row.
   */
  readonly names?: false;
  /** Which answers the report takes from this sign alone, as from an XTVERSION name (`XtversionName.byName`). */
  readonly byName?: readonly ByName[];
  /** Its row of the graphics table (`detect`): the answer is the row's first protocol that needs no reply. */
  readonly graphics?: EnvRuleText;
  /** Its row of the placements table (`placements`): the answer is the row's placements fact. */
  readonly placements?: EnvRuleText;
}

/** How a row shows itself: its one recogniser, from the environment and from its replies. */
export interface Identity {
  /** The signs in the environment, each with its priority (any one, all its conditions holding, names the row). */
  readonly env: readonly EnvSign[];
  /** The variable holding its version when the environment names it. */
  readonly versionVariable?: string;
  readonly xtversion?: XtversionName;
  readonly fingerprints?: readonly Fingerprint[];
  readonly source: string;
  readonly note?: string;
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
  /** What the row leaves out, and why. */
  readonly note?: string;
}
