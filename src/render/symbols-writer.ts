/**
 * Writing fitted cells as text: one glyph a cell, and an SGR sequence only where the
 * foreground or background must change. Each cell can be drawn two ways (the shape's glyph with
 * the inside colour as foreground, or the complement's glyph with the colours swapped; a uniform
 * cell as a space on the colour or a full block in it); the writer takes the way that changes
 * fewer colours. A line ends with an SGR reset only when it left a colour set. Pure code.
 */
import { SGR_RESET } from './color.js';
import type { Shape } from './symbols-fit.js';
import type { SymbolColorDepth } from './symbols-palette.js';
import { backgroundParams, foregroundParams } from './symbols-palette.js';

/** The terminal's own colour (SGR 39 / 49): the state at the start of every line. */
const DEFAULT = -1;

/**
 * Builds one line of a symbols picture cell by cell.
 *
 * @example const w = new SymbolLineWriter('truecolor'); w.cell(shape, 0xff0000, 0x0000ff); w.end()
 */
export class SymbolLineWriter {
  private text = '';
  private fg = DEFAULT;
  private bg = DEFAULT;

  constructor(private readonly depth: SymbolColorDepth) {}

  /** A cell with every pixel transparent: a space on the terminal's own background. */
  transparent(): void {
    if (this.bg !== DEFAULT) {
      this.text += '\x1b[49m';
      this.bg = DEFAULT;
    }
    this.text += ' ';
  }

  /** A fitted cell: `shape` with colour key `inside` under its mask and `outside` elsewhere. */
  cell(shape: Shape, inside: number, outside: number): void {
    if (shape.count === 0 || inside === outside) {
      // Uniform: a space on the colour, or a full block in it, whichever keeps the colours.
      if (this.bg === outside || this.fg !== outside) this.put(' ', this.fg, outside);
      else this.put('\u2588', outside, this.bg);
      return;
    }
    const { glyph, inverse } = shape;
    if (glyph !== null && inverse !== null) {
      const direct = (this.fg !== inside ? 1 : 0) + (this.bg !== outside ? 1 : 0);
      const swapped = (this.fg !== outside ? 1 : 0) + (this.bg !== inside ? 1 : 0);
      if (swapped < direct) this.put(inverse, outside, inside);
      else this.put(glyph, inside, outside);
    } else if (glyph !== null) this.put(glyph, inside, outside);
    else if (inverse !== null) this.put(inverse, outside, inside);
  }

  private put(char: string, fg: number, bg: number): void {
    if (fg !== this.fg || bg !== this.bg) {
      let params = fg !== this.fg ? foregroundParams(fg, this.depth) : '';
      if (bg !== this.bg) params += `${params ? ';' : ''}${backgroundParams(bg, this.depth)}`;
      this.text += `\x1b[${params}m`;
      this.fg = fg;
      this.bg = bg;
    }
    this.text += char;
  }

  /** The finished line (reset when a colour is still set); the writer starts a new line. */
  end(): string {
    const line = this.fg !== DEFAULT || this.bg !== DEFAULT ? this.text + SGR_RESET : this.text;
    this.text = '';
    this.fg = DEFAULT;
    this.bg = DEFAULT;
    return line;
  }
}
