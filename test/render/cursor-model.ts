/**
 * Where the cursor and the pictures end up in a terminal whose cell size the renderer may not know.
 *
 * xterm.js (an independent parser) runs the text, the cursor moves, SC/RC and scrolling; it has
 * no sixel, kitty or iTerm2 graphics, so this model adds what the real terminals do with the
 * cursor when they draw one, given the real cell size:
 * - sixel (xterm 379, sixel scrolling on): the picture's top-left at the cursor; the cursor then
 *   goes to the text row holding the picture's last pixel row (scrolling if needed), same column.
 * - kitty `a=T`/`a=p` without `C=1` (and not virtual, `U=1`): the picture fills `c` x `r` cells;
 *   the cursor goes to its last row, just right of it.
 * - iTerm2 `File=inline=1` (or `MultipartFile` ... `FileEnd`): `height=Nc` rows (`Npx`: N pixels,
 *   over the rows they reach), the cursor just right of its last row.
 * - tmux passthrough (`ESC Ptmux; … ESC \`): the picture is recorded at the pane's cursor, and
 *   tmux does not see it: the pane's cursor does not move. Where the outer terminal really draws
 *   it is wherever the outer cursor is (tmux 3.3a), recorded as `landings`: every place the outer
 *   cursor may be, over all the ways tmux's reads may split the bytes. tmux moves the outer cursor
 *   to the pane's at the end of each read (so every place the pane's cursor passes through counts),
 *   at once on an erase of characters (`CSI X`, which it carries out at the cell), and home after
 *   each passed-through string (`tty_invalidate`).
 * Pictures are recorded in absolute pixel rows (scrollback included) so that a test can check
 * that the next text starts below the last pixel row.
 */
import xterm from '@xterm/headless';

/** A picture as drawn on the modelled screen. */
export interface Placed {
  readonly protocol: 'sixel' | 'kitty' | 'iterm2';
  /** Absolute text line (scrollback included) of its top. */
  readonly line: number;
  readonly column: number;
  /** Absolute pixel rows: first and one past the last. */
  readonly top: number;
  readonly bottom: number;
  /** Drawn through tmux passthrough. */
  readonly passthrough: boolean;
  /**
   * Passthrough only: every place (absolute line, column) where the outer terminal's cursor may be
   * when the picture's sequences arrive; one place when the bytes pin it down.
   */
  readonly landings?: readonly { readonly line: number; readonly column: number }[];
}

/** What the model saw. */
export interface ModelResult {
  readonly placed: readonly Placed[];
  /** Where the next text goes: absolute line and column. */
  readonly cursor: { readonly line: number; readonly column: number };
  /** Absolute line of the last line holding visible text or a coloured background, or -1. */
  readonly lastTextLine: number;
  /** The screen's text, scrollback included. */
  readonly text: string;
}

const ESC = '\x1b';
const IND = `${ESC}D`; // down one line, same column, scrolling at the bottom

function params(text: string, separator: RegExp): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of text.split(separator)) {
    const eq = part.indexOf('=');
    if (eq > 0) map.set(part.slice(0, eq), part.slice(eq + 1));
  }
  return map;
}

/** End (exclusive) of the string sequence starting at `start` (ESC P/_/]), honouring tmux's doubled ESCs. */
function stringEnd(output: string, start: number, doubled: boolean): number {
  for (let i = start + 2; i < output.length; i++) {
    const c = output[i];
    if (c === '\x07' && output[start + 1] === ']') return i + 1;
    if (c !== ESC) continue;
    const next = output[i + 1];
    if (doubled && next === ESC) {
      i++;
      continue;
    }
    if (next === '\\') return i + 2;
  }
  throw new Error(`unterminated sequence at ${start}: ${JSON.stringify(output.slice(start, start + 40))}`);
}

/** Every string sequence in `text` (the body of a passthrough, unescaped). */
function sequencesIn(text: string): string[] {
  const out: string[] = [];
  for (let i = text.indexOf(ESC); i >= 0 && i < text.length; i = text.indexOf(ESC, i)) {
    if ('P_]'.includes(text[i + 1] ?? '')) {
      const end = stringEnd(text, i, false);
      out.push(text.slice(i, end));
      i = end;
    } else i++;
  }
  return out;
}

/** Runs `output` through the model with cells of `cell` pixels on a `columns` x `rows` screen. */
export async function runModel(
  output: string,
  options: {
    readonly cell: { readonly width: number; readonly height: number };
    readonly columns?: number;
    readonly rows?: number;
  },
): Promise<ModelResult> {
  const { cell } = options;
  const terminal = new xterm.Terminal({
    allowProposedApi: true,
    cols: options.columns ?? 80,
    rows: options.rows ?? 24,
    scrollback: 1000,
    convertEol: true,
  });
  const write = (text: string) => new Promise<void>((resolve) => terminal.write(text, resolve));
  const buffer = () => terminal.buffer.active;
  const at = () => ({ line: buffer().baseY + buffer().cursorY, column: buffer().cursorX });
  const placed: Placed[] = [];
  let multipart: Map<string, string> | null = null;
  let kittyKeys: Map<string, string> | null = null;
  // tmux's outer cursor: the screen places (row,column) it may be at; the pane's cursor at first.
  const viewport = () => `${buffer().cursorY},${buffer().cursorX}`;
  let outer = new Set<string>([viewport()]);
  // Where the sequences of the picture being passed through arrived (absolute line,column).
  let landings = new Set<string>();

  // Draws one graphics sequence at the cursor; returns the cursor movement the terminal makes.
  const draw = (sequence: string, passthrough: boolean): string => {
    const here = at();
    const place = (protocol: Placed['protocol'], heightPx: number) => {
      const landed = [...landings].map((key) => {
        const [line, column] = key.split(',').map(Number);
        return { line: line!, column: column! };
      });
      landings = new Set();
      placed.push({
        protocol,
        ...here,
        top: here.line * cell.height,
        bottom: here.line * cell.height + heightPx,
        passthrough,
        ...(passthrough ? { landings: landed } : {}),
      });
    };
    // A sequence that completes without drawing: what it passed through belongs to no picture.
    const none = () => {
      landings = new Set();
      return '';
    };
    if (sequence.startsWith(`${ESC}P`)) {
      const body = sequence.slice(2, -2);
      const q = body.search(/q/);
      if (q < 0 || !/^[0-9;]*$/.test(body.slice(0, q))) return none();
      const raster = /^"\d+;\d+;(\d+);(\d+)/.exec(body.slice(q + 1));
      const height = raster ? Number(raster[2]) : body.slice(q + 1).split('-').length * 6;
      place('sixel', height);
      return IND.repeat(Math.max(0, Math.ceil(height / cell.height) - 1));
    }
    if (sequence.startsWith(`${ESC}_G`)) {
      const semi = sequence.indexOf(';');
      const keys = params(sequence.slice(3, semi < 0 ? -2 : semi), /,/);
      const first = kittyKeys ?? keys;
      kittyKeys = keys.get('m') === '1' ? first : null;
      if (keys.get('m') === '1') return '';
      const action = first.get('a') ?? 't';
      if ((action !== 'T' && action !== 'p') || first.get('U') === '1') return none();
      const rows = Number(first.get('r') ?? Math.ceil(Number(first.get('v')) / cell.height));
      const columns = Number(first.get('c') ?? Math.ceil(Number(first.get('s')) / cell.width));
      // The first chunk's position: chunks go out back to back, so the cursor has not moved.
      place('kitty', rows * cell.height);
      return first.get('C') === '1' ? '' : `${IND.repeat(rows - 1)}${ESC}[${columns}C`;
    }
    if (sequence.startsWith(`${ESC}]1337;`)) {
      const body = sequence.slice(7, sequence.endsWith('\x07') ? -1 : -2);
      let args: Map<string, string> | null = null;
      if (body.startsWith('File=')) args = params(body.slice(5, body.indexOf(':')), /;/);
      else if (body.startsWith('MultipartFile=')) multipart = params(body.slice(14), /;/);
      else if (body === 'FileEnd') [args, multipart] = [multipart, null];
      if (body.startsWith('MultipartFile=') || body.startsWith('FilePart=')) return '';
      if (args?.get('inline') !== '1') return none();
      // `Npx`: drawn 1:1, over the cells its pixels reach; else N cells.
      const extent = (value: string | undefined, side: number): { cells: number; pixels: number } => {
        const px = /^(\d+)px$/.exec(value ?? '');
        if (px) return { cells: Math.ceil(Number(px[1]) / side), pixels: Number(px[1]) };
        const n = Number(/^(\d+)c?$/.exec(value ?? '')?.[1] ?? 1);
        return { cells: n, pixels: n * side };
      };
      const { cells: rows, pixels } = extent(args.get('height'), cell.height);
      const columns = extent(args.get('width'), cell.width).cells;
      place('iterm2', pixels);
      return `${IND.repeat(rows - 1)}${ESC}[${columns}C`;
    }
    return none();
  };

  // Text and control sequences. Behind tmux, one piece at a time, following the outer cursor: a
  // read may end after any piece (the outer cursor then goes to the pane's), and an erase of
  // characters puts it at the pane's cursor at once.
  const tmuxed = output.includes(`${ESC}Ptmux;`);
  const writeText = async (text: string) => {
    if (!tmuxed) return write(text);
    for (const piece of text.match(/\x1b\[[0-?]*[ -/]*[@-~]|\x1b[^[]|[^\x00-\x1f\x7f]+|[\s\S]/g) ?? []) {
      await write(piece);
      if (/^\x1b\[\d*X$/.test(piece)) outer = new Set([viewport()]);
      else outer.add(viewport());
    }
  };

  let i = 0;
  while (i < output.length) {
    let s = output.indexOf(ESC, i);
    while (s >= 0 && !'P_]'.includes(output[s + 1] ?? '')) s = output.indexOf(ESC, s + 1);
    if (s < 0) {
      await writeText(output.slice(i));
      break;
    }
    await writeText(output.slice(i, s));
    const tmux = output.startsWith(`${ESC}Ptmux;`, s);
    const end = stringEnd(output, s, tmux);
    const sequence = output.slice(s, end);
    if (tmux) {
      // tmux hands the unescaped body to the outer terminal at the outer cursor, keeps its own
      // cursor, and sends the outer cursor home.
      for (const place of outer) {
        const [row, column] = place.split(',').map(Number);
        landings.add(`${buffer().baseY + row!},${column}`);
      }
      for (const inner of sequencesIn(sequence.slice(7, -2).replaceAll(`${ESC}${ESC}`, ESC))) draw(inner, true);
      outer = new Set(['0,0']);
    } else {
      await write(draw(sequence, false));
    }
    i = end;
  }

  const lines: string[] = [];
  let lastTextLine = -1;
  for (let y = 0; y < buffer().length; y++) {
    const line = buffer().getLine(y);
    lines.push(line?.translateToString(true) ?? '');
    // Painted: a visible character, or a coloured background (blocks draw solid colour as spaces).
    for (let x = 0; line && x < line.length; x++) {
      const c = line.getCell(x);
      if (c && (c.getChars().trim() !== '' || !c.isBgDefault())) {
        lastTextLine = y;
        break;
      }
    }
  }
  const result = { placed, cursor: at(), lastTextLine, text: lines.join('\n') };
  terminal.dispose();
  return result;
}
