/**
 * The resolved report: one answer per question, each with the reason for it.
 */
import type { Protocol } from '../env/protocol.js';
import type { TerminalSymbolSet } from './text-picture.js';

/** What decided an answer. */
export type WhySource = 'override' | 'reply' | 'rule' | 'tty' | 'multiplexer' | 'default';

/** The reason for one answer: its source and a sentence a person can read. */
export interface Why {
  readonly source: WhySource;
  /** A sentence: "TERMSIGHT_GRAPHICS=sixel", "XTVERSION reply \\eP>|kitty(0.26.5)\\e\\ names kitty", … */
  readonly detail: string;
  /** The reply that decided it, as escaped text (`\e[?62;4c`), when a reply did. */
  readonly reply?: string;
  /** The rule id from the table, when a rule did. */
  readonly rule?: string;
  /** The terminal database's row the answer rests on (`kitty`, `tmux`), when one does. */
  readonly row?: string;
  /** The source of the database fact the answer rests on (a URL or `test/fixtures/replies/…`). */
  readonly reference?: string;
}

/** The multiplexers the report knows: tmux, GNU screen, Zellij, herdr, and mosh (which sits in between too). */
export type MultiplexerName = 'tmux' | 'screen' | 'zellij' | 'herdr' | 'mosh';

/** A multiplexer between the program and the terminal. */
export interface MultiplexerInfo {
  readonly name: MultiplexerName;
  readonly version: string | null;
  /** Whether wrapped sequences reach the outer terminal: true/false when probed, null when unknown. */
  readonly passthrough: boolean | null;
  /** How to turn passthrough on, when it is off. */
  readonly hint?: string;
  /**
   * The multiplexer draws the pictures itself (tmux 3.4+ sixel, Zellij, herdr): send them
   * unwrapped, to it. Absent when the pictures, if any, go to the outer terminal.
   */
  readonly drawsItself?: true;
  /**
   * The largest escape sequence it takes in one piece (tmux: 1 MiB): a longer picture sequence,
   * its own sixel or a wrapped one, is dropped whole. Absent where none is known.
   */
  readonly maxSequenceBytes?: number;
}

/** Everything termsight knows about one terminal. */
export interface Report {
  /**
   * The picture protocol to use, or null when no images should be drawn. Where no pixel protocol
   * is usable it is the text picture: `symbols` where text has colour, `braille` where it has none
   * (see `choosePicture`); `detect()`, from the environment alone, still answers `braille` there.
   */
  readonly graphics: Protocol | null;
  /** The symbol sets a symbols picture draws with here: `block`, and `sextant`/`octant` where the terminal draws them. */
  readonly symbols: readonly TerminalSymbolSet[];
  /** Whether the terminal keeps images under an id and places them again (kitty's `a=p`). */
  readonly placements: boolean;
  /**
   * Whether kitty pictures must go as Unicode placeholders (`U=1`, the render option
   * `placeholders`): inside tmux or screen, which know nothing of a picture at the cursor, and
   * where the layer drawing them drops direct placements when it repaints (herdr). False where
   * graphics is not kitty.
   */
  readonly placeholders: boolean;
  readonly hyperlinks: boolean;
  readonly truecolor: boolean;
  readonly synchronizedOutput: boolean;
  /** One cell's size in pixels, when known. */
  readonly cellPixels: { readonly width: number; readonly height: number } | null;
  /** Background brightness and colour, when the terminal said. */
  readonly background: { readonly dark: boolean; readonly rgb: readonly [number, number, number] } | null;
  /** Sixel colour registers, when the terminal said. */
  readonly sixelColors: number | null;
  /**
   * Whether what draws the sixel honours P2=1 (transparent pixels show what is under them), by
   * the terminal database. False (also when unknown): a sixel's transparent pixels are painted in
   * `background` (black when unknown), the render option `sixelTransparency: false`.
   */
  readonly sixelTransparency: boolean;
  /**
   * Whether sixel pictures must be whole bands of six pixel rows, because what draws them paints
   * the rest of a shorter last band (Konsole, foot: the database's `sixelPartialBand`). True also
   * when unknown; the render option `wholeBands`.
   */
  readonly sixelWholeBands: boolean;
  /** The terminal itself (the outer one when behind a multiplexer). */
  readonly terminal: { readonly name: string | null; readonly version: string | null };
  readonly multiplexer: MultiplexerInfo | null;
  /** Whether the session is remote (ssh). */
  readonly remote: boolean;
  /**
   * Whether kitty pictures may go by file (`t=t`: the terminal reads a temporary file and deletes
   * it) instead of base64 through the pty: only when the terminal read the probe's file.
   */
  readonly kittyLocalFile: boolean;
  /**
   * Whether what draws the kitty pictures takes kitty's short-lived hint (`N=1`: the image data
   * is kept out of the disk cache, or evicted first; kitty 0.48+, Ghostty after 1.3.1), by the
   * database's `shortLivedHint`. False where graphics is not kitty. Whether a picture is
   * short-lived is the caller's to say (the plan's `shortLived`, docs/draw.md).
   */
  readonly shortLivedHint: boolean;
  /** How long the probe took, or null when no probe ran. */
  readonly probeMs: number | null;
  /** The reason for every answer above. */
  readonly why: Readonly<Record<ReportField, Why>>;
}

/** The report's answers that carry a reason. */
export type ReportField =
  | 'graphics'
  | 'symbols'
  | 'placements'
  | 'placeholders'
  | 'hyperlinks'
  | 'truecolor'
  | 'synchronizedOutput'
  | 'cellPixels'
  | 'background'
  | 'sixelColors'
  | 'sixelTransparency'
  | 'sixelWholeBands'
  | 'terminal'
  | 'multiplexer'
  | 'remote'
  | 'kittyLocalFile'
  | 'shortLivedHint';
