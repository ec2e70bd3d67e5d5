/**
 * What was drawn, read back from the bytes an application wrote: the protocol, the cell box, the
 * kitty placements and the image ids deleted. Pure. The probe's own queries (kitty's `a=q`) are
 * not pictures.
 */

/** One kitty placement (or transmit-and-display) written. */
export interface KittyPlacement {
  /** The image id (`i=`), when given. */
  readonly imageId: number | null;
  /** The placement id (`p=`), when given. */
  readonly placementId: number | null;
  readonly columns: number | null;
  readonly rows: number | null;
  /** Placed as Unicode placeholders (`U=1`), as inside tmux. */
  readonly placeholders: boolean;
}

/** What the bytes drew. */
export interface Drawing {
  /** The picture protocol, or `text` when only braille/block characters were written. */
  readonly protocol: 'kitty' | 'iterm2' | 'sixel' | 'text';
  /** The cell box of the last picture, when the bytes say it (kitty `c=`/`r=`, iTerm2 `width=`/`height=` in cells). */
  readonly columns: number | null;
  readonly rows: number | null;
  /** Sixel only: the raster's pixels (`"1;1;W;H`). */
  readonly pixels: { readonly width: number; readonly height: number } | null;
  readonly placements: readonly KittyPlacement[];
  /** Image ids deleted (`a=d` with `d=I`/`d=i` and `i=`). */
  readonly deleted: readonly number[];
  /** Whether the kitty commands went through tmux's passthrough (`ESC Ptmux;`). */
  readonly wrapped: boolean;
}

function keysOf(control: string): Map<string, string> {
  const keys = new Map<string, string>();
  for (const pair of control.split(',')) {
    const at = pair.indexOf('=');
    if (at > 0) keys.set(pair.slice(0, at), pair.slice(at + 1));
  }
  return keys;
}

const num = (value: string | undefined): number | null =>
  value !== undefined && /^\d+$/.test(value) ? Number(value) : null;

/**
 * Reads a picture back from the bytes written (a string of the output, or its bytes); null when
 * nothing was drawn.
 *
 * @example expect(drawn(terminal.written())).toMatchObject({ protocol: 'kitty', columns: 40 })
 */
export function drawn(output: string | Uint8Array): Drawing | null {
  const raw = typeof output === 'string' ? output : Buffer.from(output).toString('latin1');
  const wrapped = raw.includes('\x1bPtmux;');
  const text = wrapped ? raw.replaceAll('\x1b\x1b', '\x1b') : raw;
  const placements: KittyPlacement[] = [];
  const deleted: number[] = [];
  let protocol: Drawing['protocol'] | null = null;
  let columns: number | null = null;
  let rows: number | null = null;
  let pixels: Drawing['pixels'] = null;
  for (const m of text.matchAll(/\x1b_G([^;\x1b]*)(?:;[^\x1b]*)?\x1b\\/g)) {
    const keys = keysOf(m[1]);
    const action = keys.get('a') ?? 't';
    if (action === 'q') continue;
    if (action === 'd') {
      const id = num(keys.get('i'));
      if (id !== null) deleted.push(id);
      continue;
    }
    if (action === 'T' || action === 'p' || (keys.has('c') && action !== 'f' && action !== 'a')) {
      protocol = 'kitty';
      const placement: KittyPlacement = {
        imageId: num(keys.get('i')),
        placementId: num(keys.get('p')),
        columns: num(keys.get('c')),
        rows: num(keys.get('r')),
        placeholders: keys.get('U') === '1',
      };
      placements.push(placement);
      columns = placement.columns ?? columns;
      rows = placement.rows ?? rows;
    } else if (action === 't' || action === 'f') protocol ??= 'kitty';
  }
  for (const m of text.matchAll(/\x1b\]1337;(?:File|MultipartFile)=([^:\x07\x1b]*)/g)) {
    protocol = 'iterm2';
    const args = new Map(m[1].split(';').map((kv) => kv.split('=', 2) as [string, string]));
    const cells = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v) ? Number(v) : null);
    columns = cells(args.get('width')) ?? columns;
    rows = cells(args.get('height')) ?? rows;
  }
  for (const m of text.matchAll(/\x1bP[\d;]*q"\d+;\d+;(\d+);(\d+)/g)) {
    protocol = 'sixel';
    pixels = { width: Number(m[1]), height: Number(m[2]) };
  }
  if (protocol === null) {
    // Text pictures: lines of braille or block characters (bytes decoded as UTF-8; a string as it is).
    const decoded = typeof output === 'string' ? output : Buffer.from(output).toString('utf8');
    const plain = decoded.replace(/\x1b\[[\d;?]*[A-Za-z]/g, '');
    const lines = plain.split(/\r?\n/).filter((l) => /[\u2800-\u28ff\u2580-\u259f]/.test(l));
    if (lines.length === 0) return null;
    protocol = 'text';
    rows = lines.length;
    columns = Math.max(...lines.map((l) => [...l].length));
  }
  return { protocol, columns, rows, pixels, placements, deleted, wrapped };
}
