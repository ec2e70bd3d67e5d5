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
 * - iTerm2 `File=inline=1` (or `MultipartFile` ... `FileEnd`): `height=Nc` rows, the cursor just
 *   right of its last row.
 * - tmux passthrough (`ESC Ptmux; … ESC \`): the outer terminal draws at the pane's cursor, but
 *   tmux does not see it: the pane's cursor does not move.
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
  options: { readonly cell: { readonly width: number; readonly height: number }; readonly columns?: number; readonly rows?: number },
): Promise<ModelResult> {
  const { cell } = options;
  const terminal = new xterm.Terminal({ allowProposedApi: true, cols: options.columns ?? 80, rows: options.rows ?? 24, scrollback: 1000, convertEol: true });
  const write = (text: string) => new Promise<void>((resolve) => terminal.write(text, resolve));
  const buffer = () => terminal.buffer.active;
  const at = () => ({ line: buffer().baseY + buffer().cursorY, column: buffer().cursorX });
  const placed: Placed[] = [];
  let multipart: Map<string, string> | null = null;
  let kittyKeys: Map<string, string> | null = null;

  // Draws one graphics sequence at the cursor; returns the cursor movement the terminal makes.
  const draw = (sequence: string, passthrough: boolean): string => {
    const here = at();
    const place = (protocol: Placed['protocol'], heightPx: number) => {
      placed.push({ protocol, ...here, top: here.line * cell.height, bottom: here.line * cell.height + heightPx, passthrough });
    };
    if (sequence.startsWith(`${ESC}P`)) {
      const body = sequence.slice(2, -2);
      const q = body.search(/q/);
      if (q < 0 || !/^[0-9;]*$/.test(body.slice(0, q))) return '';
      const raster = /^"\d+;\d+;(\d+);(\d+)/.exec(body.slice(q + 1));
      const height = raster ? Number(raster[2]) : (body.slice(q + 1).split('-').length) * 6;
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
      if ((action !== 'T' && action !== 'p') || first.get('U') === '1') return '';
      const rows = Number(first.get('r') ?? Math.ceil(Number(first.get('v')) / cell.height));
      const columns = Number(first.get('c') ?? Math.ceil(Number(first.get('s')) / cell.width));
      // The first chunk's position: chunks go out back to back, so the cursor has not moved.
      place('kitty', rows * cell.height);
      return first.get('C') === '1' ? '' : IND.repeat(rows - 1) + `${ESC}[${columns}C`;
    }
    if (sequence.startsWith(`${ESC}]1337;`)) {
      const body = sequence.slice(7, sequence.endsWith('\x07') ? -1 : -2);
      let args: Map<string, string> | null = null;
      if (body.startsWith('File=')) args = params(body.slice(5, body.indexOf(':')), /;/);
      else if (body.startsWith('MultipartFile=')) multipart = params(body.slice(14), /;/);
      else if (body === 'FileEnd') [args, multipart] = [multipart, null];
      if (!args || args.get('inline') !== '1') return '';
      const rows = Number(/^(\d+)c?$/.exec(args.get('height') ?? '')?.[1] ?? 1);
      const columns = Number(/^(\d+)c?$/.exec(args.get('width') ?? '')?.[1] ?? 1);
      place('iterm2', rows * cell.height);
      return IND.repeat(rows - 1) + `${ESC}[${columns}C`;
    }
    return '';
  };

  let i = 0;
  while (i < output.length) {
    let s = output.indexOf(ESC, i);
    while (s >= 0 && !'P_]'.includes(output[s + 1] ?? '')) s = output.indexOf(ESC, s + 1);
    if (s < 0) {
      await write(output.slice(i));
      break;
    }
    await write(output.slice(i, s));
    const tmux = output.startsWith(`${ESC}Ptmux;`, s);
    const end = stringEnd(output, s, tmux);
    const sequence = output.slice(s, end);
    if (tmux) {
      // tmux hands the unescaped body to the outer terminal and keeps its own cursor.
      for (const inner of sequencesIn(sequence.slice(7, -2).replaceAll(`${ESC}${ESC}`, ESC))) draw(inner, true);
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
