/**
 * The drawing plan's shapes: what a caller asks for (`DrawRequest`), what `planDrawing` decides
 * from it and the report (`Plan`), and why (`PlanWhy`, one per decision, as the report has one per
 * answer). See docs/draw.md.
 */
import type { CellSize, ColorDepth, Rgb, Wrap } from '../core/primitives.js';
import type { Protocol } from '../env/protocol.js';
import type { Env } from '../env/runtime.js';
import type { Align, FitMode } from '../render/geometry/fit.js';
import type { SymbolSetName } from '../render/text/symbols-glyphs.js';

/**
 * A length of the box along one side: cells (a number, or `{ cells }`), a percentage of the
 * terminal (`{ percent }`), or pixels (`{ pixels }`, whole cells of the measured or assumed cell).
 */
export type Length = number | { readonly cells: number } | { readonly percent: number } | { readonly pixels: number };

/** What a caller asks of a drawing. Every field is optional; the defaults are a library's. */
export interface DrawRequest {
  /** The box's width and height (`Length`). A side not given: see `defaultBox`. */
  readonly columns?: Length | undefined;
  readonly rows?: Length | undefined;
  /**
   * A side of the box not given: `'picture'` (default) leaves it unbounded (the picture's own size
   * in cells, as `toTerminal` does without a box); `'screen'` takes the terminal's (its columns, its
   * rows minus 2 for a name line and the prompt), as `termsight show` does.
   */
  readonly defaultBox?: 'picture' | 'screen';
  /** The terminal's size in cells, for percentages and `defaultBox: 'screen'` (else COLUMNS/LINES, else 80x24). */
  readonly terminalSize?: { readonly columns?: number | undefined; readonly rows?: number | undefined } | undefined;
  /** How the picture takes the box (render's `fit`). Default 'contain'. */
  readonly fit?: FitMode | undefined;
  /** Where a picture narrower than the box sits. Default 'left'. */
  readonly align?: Align | undefined;
  /** Enlarge a small picture to the box. Default false. */
  readonly upscale?: boolean | undefined;
  /**
   * A text picture takes the size asked for (`termsight show --width/--height`, docs/cli.md
   * "Sizes"): enlarged to it, and with only the width given the rows follow the aspect. Default false.
   */
  readonly textTakesBox?: boolean | undefined;
  /** A protocol the caller (or its user) asked for: it wins over everything. */
  readonly protocol?: Protocol | undefined;
  /** Symbol sets asked for: a symbols picture where text is drawn, with these sets. */
  readonly symbols?: readonly SymbolSetName[] | undefined;
  /**
   * The text picture where no pixel protocol is usable, when the caller keeps its own (the
   * terminal-image drop-in keeps the incumbent's half blocks). Default: the report's choice
   * (symbols where text has colour, braille where it has none).
   */
  readonly textPicture?: 'blocks' | undefined;
  /** Whether the output is a terminal (false: a file, a pipe, a CI log). Default true. */
  readonly terminal?: boolean | undefined;
  /** The picture may be animated (its frames played). Default false. */
  readonly animate?: boolean | undefined;
  /** The runtime's environment: `NO_COLOR`, `TERM=dumb`, `TERMSIGHT_GRAPHICS`, `COLUMNS`/`LINES`. Default: none. */
  readonly env?: Env | undefined;
  /**
   * Inside tmux or screen whose passthrough is unknown (not probed): wrap anyway. `termsight show`
   * does (a pixel picture asked for there has no other way out; a multiplexer that passes nothing
   * drops it); a library waits for proof (default false).
   */
  readonly wrapUnproven?: boolean | undefined;
  /**
   * The picture is short-lived: shown once and never placed again by its id (`termsight show`'s
   * preview), so kitty's short-lived hint (`N=1`) may go with it where the terminal takes it (the
   * report's `shortLivedHint`). A caller that places its picture again on every redraw (Ink) leaves
   * it unset: the terminal may evict a short-lived image first (docs/draw.md). Default false.
   */
  readonly shortLived?: boolean | undefined;
}

/** What decided one decision of the plan. */
export type PlanSource = 'request' | 'report' | 'environment' | 'default';

/** The reason for one decision: its source and a sentence. */
export interface PlanWhy {
  readonly source: PlanSource;
  readonly detail: string;
}

/** Who plays an animation: the terminal (kitty's own animation, iTerm2 playing a GIF file) or a redraw loop here. */
export type AnimationPlan = 'kitty' | 'iterm2' | 'redraw';

/** kitty's encoder options. */
export interface KittyPlan {
  readonly protocol: 'kitty';
  /** The terminal keeps images under an id and places them again (store once, place by id). */
  readonly placements: boolean;
  /** Unicode placeholders (`U=1`): inside a multiplexer, which knows nothing of pictures at the cursor. */
  readonly placeholders: boolean;
  /** The pixels go by a temporary file the terminal reads (`t=t`). */
  readonly byFile: boolean;
  /** The colours a placeholder's foreground names the image id in (256: ids 1..255). */
  readonly placeholderColors: '256' | 'truecolor';
  /** kitty's short-lived hint (`N=1`): asked for by the caller and taken by the terminal. */
  readonly shortLived: boolean;
}

/** iTerm2's encoder options. */
export interface Iterm2Plan {
  readonly protocol: 'iterm2';
}

/** sixel's encoder options. */
export interface SixelPlan {
  readonly protocol: 'sixel';
  /** Colour registers (null: the default 256). */
  readonly colors: number | null;
  /** What draws it honours P2=1 (false: transparent pixels are painted in `background`). */
  readonly transparency: boolean;
  /** Sized to whole cells (tmux 3.4+ drawing sixel itself). */
  readonly wholeCells: boolean;
  /** Sized to whole six-row bands: the terminal paints the rest of a short last band (the report's `sixelWholeBands`). */
  readonly wholeBands: boolean;
  readonly background: Rgb | null;
}

/** A text picture's encoder options (braille, half blocks). */
export interface TextPlan {
  readonly protocol: 'braille' | 'blocks';
  readonly colorDepth: ColorDepth;
  readonly background: Rgb | null;
}

/** A symbols picture's encoder options. */
export interface SymbolsPlan {
  readonly protocol: 'symbols';
  readonly colorDepth: ColorDepth;
  readonly symbols: readonly SymbolSetName[];
  readonly background: Rgb | null;
}

/** The options of the chosen protocol's encoder, and only those (braille is never offered an image id). */
export type EncoderPlan = KittyPlan | Iterm2Plan | SixelPlan | TextPlan | SymbolsPlan;

/** The decisions of a plan that carry a reason. */
export type PlanField =
  | 'protocol'
  | 'box'
  | 'wrap'
  | 'colorDepth'
  | 'synchronizedOutput'
  | 'animation'
  | 'cellPixels'
  | 'encoder';

/** How to draw one picture here: every decision `planDrawing` made, each with its reason. */
export interface Plan {
  readonly protocol: Protocol;
  /** The box the picture is fitted into, in cells (a side undefined: unbounded). */
  readonly columns: number | undefined;
  readonly rows: number | undefined;
  /**
   * The box asked for, in cells: `columns`/`rows` before a text picture given only a width lets
   * its rows follow the aspect (`textTakesBox`); what a grid of thumbnails divides.
   */
  readonly box: { readonly columns: number | undefined; readonly rows: number | undefined };
  readonly fit: FitMode;
  readonly align: Align;
  readonly upscale: boolean;
  /** The multiplexer to wrap escape sequences for, or null. */
  readonly wrap: Wrap;
  /** The colour depth text is drawn at (kitty's placeholders too). */
  readonly colorDepth: ColorDepth;
  /** Redraws in place go inside synchronized output (mode 2026). */
  readonly synchronizedOutput: boolean;
  /** Who plays an animation; null when none was asked for. */
  readonly animation: AnimationPlan | null;
  /** The cell size, when the terminal told (else 10x20 pixels is assumed). */
  readonly cellPixels: CellSize | null;
  /** The encoder's options, by protocol. */
  readonly encoder: EncoderPlan;
  readonly why: Readonly<Record<PlanField, PlanWhy>>;
}
