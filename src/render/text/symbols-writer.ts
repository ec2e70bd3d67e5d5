/**
 * Writing fitted cells as text: one glyph a cell, and an SGR sequence only where the
 * foreground or background must change. Each cell can be drawn two ways (the shape's glyph with
 * the inside colour as foreground, or the complement's glyph with the colours swapped; a uniform
 * cell as a space on the colour or a full block in it); the writer takes the way that changes
 * fewer colours. A line ends with an SGR reset only when it left a colour set.
 *
 * The line is built as UTF-16 code units in one growing buffer and made a string once at its
 * end (natively), not by concatenating a string per cell and per parameter: a 24-bit photo
 * changes colour in most cells (measured: docs/render.md, "Symbols"). Pure code.
 */
import { SGR_RESET } from './color.js';
import type { Shape } from './symbols-fit.js';
import type { SymbolColorDepth } from './symbols-palette.js';

/** The terminal's own colour (SGR 39 / 49): the state at the start of every line. */
const DEFAULT = -1;

const ESC = 0x1b;
const BRACKET = 0x5b; // [
const SEMI = 0x3b; // ;
const M = 0x6d; // m
const ZERO = 0x30;
const SPACE = 0x20;
const FULL_BLOCK = 0x2588;

/** Writes `v` (0..999) in decimal without leading zeros at `n`; returns the position after it. */
function decimal(units: Uint16Array, n: number, v: number): number {
  if (v >= 100) {
    units[n] = ZERO + ((v / 100) | 0);
    units[n + 1] = ZERO + (((v / 10) | 0) % 10);
    units[n + 2] = ZERO + (v % 10);
    return n + 3;
  }
  if (v >= 10) {
    units[n] = ZERO + ((v / 10) | 0);
    units[n + 1] = ZERO + (v % 10);
    return n + 2;
  }
  units[n] = ZERO + v;
  return n + 1;
}

/**
 * Builds one line of a symbols picture cell by cell.
 *
 * @example const w = new SymbolLineWriter('truecolor'); w.cell(shape, 0xff0000, 0x0000ff); w.end()
 */
export class SymbolLineWriter {
  private units = new Uint16Array(1024);
  private length = 0;
  private fg = DEFAULT;
  private bg = DEFAULT;

  constructor(private readonly depth: SymbolColorDepth) {}

  /** A cell with every pixel transparent: a space on the terminal's own background. */
  transparent(): void {
    this.room(8);
    if (this.bg !== DEFAULT) {
      // ESC [ 4 9 m
      this.codes5(ESC, BRACKET, 0x34, 0x39, M);
      this.bg = DEFAULT;
    }
    this.units[this.length++] = SPACE;
  }

  /** A fitted cell: `shape` with colour key `inside` under its mask and `outside` elsewhere. */
  cell(shape: Shape, inside: number, outside: number): void {
    if (shape.count === 0 || inside === outside) {
      // Uniform: a space on the colour, or a full block in it, whichever keeps the colours.
      if (this.bg === outside || this.fg !== outside) this.put(SPACE, 0, this.fg, outside);
      else this.put(FULL_BLOCK, 0, outside, this.bg);
      return;
    }
    const { glyph, inverse } = shape;
    if (glyph !== null && inverse !== null) {
      const direct = (this.fg !== inside ? 1 : 0) + (this.bg !== outside ? 1 : 0);
      const swapped = (this.fg !== outside ? 1 : 0) + (this.bg !== inside ? 1 : 0);
      if (swapped < direct) this.putChar(inverse, outside, inside);
      else this.putChar(glyph, inside, outside);
    } else if (glyph !== null) this.putChar(glyph, inside, outside);
    else if (inverse !== null) this.putChar(inverse, outside, inside);
  }

  /** The finished line (reset when a colour is still set); the writer starts a new line. */
  end(): string {
    if (this.fg !== DEFAULT || this.bg !== DEFAULT) {
      this.room(SGR_RESET.length);
      for (let i = 0; i < SGR_RESET.length; i++) this.units[this.length++] = SGR_RESET.charCodeAt(i);
    }
    const { units, length } = this;
    const line = Buffer.from(units.buffer, units.byteOffset, length * 2).toString('utf16le');
    this.length = 0;
    this.fg = DEFAULT;
    this.bg = DEFAULT;
    return line;
  }

  /** A glyph given as a string of one code point (one or two code units). */
  private putChar(char: string, fg: number, bg: number): void {
    this.put(char.charCodeAt(0), char.length > 1 ? char.charCodeAt(1) : 0, fg, bg);
  }

  /** Code unit `a` (and `b` after it when not 0) drawn with these colours, after the SGR that sets them. */
  private put(a: number, b: number, fg: number, bg: number): void {
    // The longest: ESC [ 38;2;255;255;255 ; 48;2;255;255;255 m and two code units.
    this.room(48);
    // The position in a local, written back once: fewer property loads and stores a unit, so
    // the code is smaller for V8 to compile and quicker before it is compiled.
    const units = this.units;
    let n = this.length;
    if (fg !== this.fg || bg !== this.bg) {
      units[n++] = ESC;
      units[n++] = BRACKET;
      const fgChanged = fg !== this.fg;
      if (fgChanged) n = this.params(units, n, fg, 3);
      if (bg !== this.bg) {
        if (fgChanged) units[n++] = SEMI;
        n = this.params(units, n, bg, 4);
      }
      units[n++] = M;
      this.fg = fg;
      this.bg = bg;
    }
    units[n++] = a;
    if (b !== 0) units[n++] = b;
    this.length = n;
  }

  /**
   * Writes at `n` the SGR parameters selecting colour `key` at the depth, for the foreground
   * (`ground` 3: `38;2;r;g;b`, `38;5;n`, `30`-`37`/`90`-`97`) or the background (4: `48;…`,
   * `40`-`47`/`100`-`107`); returns the position after them.
   */
  private params(units: Uint16Array, n: number, key: number, ground: 3 | 4): number {
    if (this.depth === 'truecolor') {
      units[n] = ZERO + ground;
      units[n + 1] = 0x38;
      units[n + 2] = SEMI;
      units[n + 3] = 0x32;
      units[n + 4] = SEMI;
      let at = decimal(units, n + 5, key >>> 16);
      units[at] = SEMI;
      at = decimal(units, at + 1, (key >>> 8) & 255);
      units[at] = SEMI;
      return decimal(units, at + 1, key & 255);
    }
    if (this.depth === '256') {
      units[n] = ZERO + ground;
      units[n + 1] = 0x38;
      units[n + 2] = SEMI;
      units[n + 3] = 0x35;
      units[n + 4] = SEMI;
      return decimal(units, n + 5, key);
    }
    return decimal(units, n, key < 8 ? ground * 10 + key : ground * 10 + 52 + key);
  }

  private codes5(a: number, b: number, c: number, d: number, e: number): void {
    const units = this.units;
    units[this.length++] = a;
    units[this.length++] = b;
    units[this.length++] = c;
    units[this.length++] = d;
    units[this.length++] = e;
  }

  /** Makes room for `n` more code units. */
  private room(n: number): void {
    if (this.length + n <= this.units.length) return;
    const grown = new Uint16Array(Math.max(this.units.length * 2, this.length + n));
    grown.set(this.units.subarray(0, this.length));
    this.units = grown;
  }
}
