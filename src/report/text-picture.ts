/**
 * Which picture to draw where no pixel protocol is usable: the text picture. Symbols (each cell a
 * block element and two colours fitted to the cell) in a terminal that shows colour, braille where
 * it shows none, with the glyph sets the terminal is known to draw; and what the user asked for
 * over both. Pure: the caller passes the colour, the terminal's glyph facts and the request.
 * Reasoning and measurements: docs/render.md, "Which text picture".
 */
import type { Env } from '../core/env-vars.js';
import { envValue } from '../core/env-vars.js';
import type { Protocol } from '../env/protocol.js';
import type { GlyphSet } from '../terminals/types.js';

/** The symbol sets a terminal's glyph facts can make safe (names of render's `SYMBOL_SETS`). */
export type TerminalSymbolSet = 'block' | 'sextant' | 'octant';

/** How many colours text can have: none, 16, 256 or 24-bit (the renderers' `ColorDepth`). */
export type TextColor = 'none' | '16' | '256' | 'truecolor';

/** What decides the picture. */
export interface PictureInput {
  /** The pixel protocol usable here (kitty, iTerm2, sixel), or null when none is. */
  readonly pixel: Protocol | null;
  /** The colour depth text is drawn at ('none': no colour). */
  readonly colorDepth: TextColor;
  /** The symbol sets safe on this terminal (`terminalSymbolSets` of its glyph facts; the report's `symbols`). */
  readonly terminalSymbols: readonly string[];
  /** Whether the terminal is known to draw no braille (zutty). */
  readonly noBraille?: boolean;
  /** A protocol the user asked for (`--protocol`, `TERMSIGHT_GRAPHICS`), which wins. */
  readonly asked?: Protocol;
  /** Symbol sets the user named (`--symbols`): they ask for a symbols picture where text is drawn. */
  readonly askedSymbols?: readonly string[];
}

/** The picture chosen, the symbol sets a symbols picture uses, and why, as a sentence. */
export interface PictureChoice {
  readonly protocol: Protocol;
  /** The sets for a symbols picture: the user's, else the terminal's safe ones (`terminalSymbolSets`). */
  readonly symbols: readonly string[];
  readonly detail: string;
}

/**
 * The symbol sets that are safe on a terminal drawing `glyphs`: block elements everywhere (half
 * blocks, quadrants, eighths: in every terminal font and drawn pixel-exact by most terminals), and
 * sextants or octants only where the terminal draws them itself (fonts that have them are rare).
 *
 * @example terminalSymbolSets(['blocks', 'sextants']) // ['block', 'sextant']
 */
export function terminalSymbolSets(glyphs: readonly GlyphSet[]): TerminalSymbolSet[] {
  const sets: TerminalSymbolSet[] = ['block'];
  if (glyphs.includes('sextants')) sets.push('sextant');
  if (glyphs.includes('octants')) sets.push('octant');
  return sets;
}

/**
 * The colour depth of text pictures from the environment and whether the terminal shows 24-bit
 * colour: none when `NO_COLOR` is set (https://no-color.org), `TERM=dumb`, or a monochrome
 * terminfo entry (`-m`/`-mono` suffix, term(7)); else 24-bit when the terminal has it, else 256.
 *
 * @example textColor({ NO_COLOR: '1' }, true) // 'none'
 */
export function textColor(env: Env, truecolor: boolean): TextColor {
  const term = envValue(env, 'TERM') ?? '';
  if (envValue(env, 'NO_COLOR') !== undefined || term === 'dumb' || /-(m|mono)$/.test(term)) return 'none';
  return truecolor ? 'truecolor' : '256';
}

const ASKED_TEXT: Readonly<Record<string, string>> = {
  braille: 'braille was asked for',
  blocks: 'half blocks were asked for',
  symbols: 'symbols were asked for',
};

/**
 * The picture to draw. A protocol the user asked for wins; then a usable pixel protocol; then the
 * text picture: symbols where text has colour (or where the user named symbol sets, or where the
 * terminal draws no braille), braille where it has none. The symbols use the user's sets, else
 * the terminal's safe ones.
 *
 * @example choosePicture({ pixel: null, colorDepth: '256', terminalSymbols: ['block'] }).protocol // 'symbols'
 */
export function choosePicture(input: PictureInput): PictureChoice {
  const symbols =
    input.askedSymbols && input.askedSymbols.length > 0
      ? input.askedSymbols
      : input.terminalSymbols.length > 0
        ? input.terminalSymbols
        : ['block'];
  const sets = `${input.askedSymbols?.length ? 'the sets asked for' : 'the sets safe on this terminal'}: ${symbols.join(', ')}`;
  if (input.asked) {
    const asked = ASKED_TEXT[input.asked] ?? `${input.asked} was asked for`;
    return { protocol: input.asked, symbols, detail: input.asked === 'symbols' ? `${asked}, with ${sets}` : asked };
  }
  if (input.pixel) return { protocol: input.pixel, symbols, detail: `${input.pixel} draws pixels here` };
  if (input.askedSymbols?.length) {
    return { protocol: 'symbols', symbols, detail: `no pixel protocol: symbols, with ${sets}` };
  }
  if (input.colorDepth !== 'none') {
    return {
      protocol: 'symbols',
      symbols,
      detail: `no pixel protocol; text has colour (${input.colorDepth}): symbols, with ${sets}`,
    };
  }
  if (input.noBraille) {
    return {
      protocol: 'symbols',
      symbols,
      detail: `no pixel protocol and no colour, and this terminal draws no braille: symbols, with ${sets}`,
    };
  }
  return { protocol: 'braille', symbols, detail: 'no pixel protocol and no colour: braille' };
}
