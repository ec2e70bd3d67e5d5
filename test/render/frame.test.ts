import { describe, expect, it } from 'vitest';
import type { Raster } from '../../src/core/raster.js';
import { wrapTmux } from '../../src/core/wrap.js';
import type { Protocol } from '../../src/env/protocol.js';
import { draw, layout, MIN_CELL_HEIGHT, reachRows } from '../../src/render/backend.js';
import { clearFrame, endFrame, flow, frame, TMUX_ANCHOR } from '../../src/render/frame.js';
import { runModel } from './cursor-model.js';
import { decodeKittyTransmission, parseKittyApcs, solid } from './terminal-decoders.js';

const A = solid(40, 40, [255, 0, 0, 255]);
const B = solid(40, 40, [0, 0, 255, 255]);
const OPTS = { columns: 4, rows: 2, cellPixels: { width: 10, height: 20 } };

describe('frame', () => {
  it('first frame makes room, then draws between save and restore cursor', () => {
    const { output, handle } = frame(A, 'blocks', OPTS);
    expect(handle).toMatchObject({ protocol: 'blocks', columns: 4, rows: 2 });
    expect(output.startsWith('\r\n\n\x1b[2A\x1b7')).toBe(true);
    expect(output.endsWith('\x1b8')).toBe(true);
  });

  it('later frames draw in place without making room again', () => {
    const first = frame(A, 'braille', OPTS);
    const second = frame(B, 'braille', { ...OPTS, previous: first.handle });
    expect(second.output.startsWith('\x1b7')).toBe(true);
    // text rows after the first start again from the saved position, one row further down
    const rows = second.handle.rows;
    for (let r = 1; r < rows; r++) expect(second.output).toContain(`\x1b8\x1b[${r}B`);
    expect(second.output).not.toContain('\n');
  });

  it('wraps a frame in synchronized output when asked', () => {
    const { output } = frame(A, 'blocks', { ...OPTS, synchronizedOutput: true, reserve: false });
    expect(output.startsWith('\x1b[?2026h\x1b7')).toBe(true);
    expect(output.endsWith('\x1b8\x1b[?2026l')).toBe(true);
  });

  it('kitty with placements: store once, then only place; new pixels are sent again', () => {
    const opts = { ...OPTS, placements: true, imageId: 11, reserve: false };
    const f1 = frame(A, 'kitty', opts);
    const a1 = parseKittyApcs(f1.output);
    expect(a1[0].keys.get('a')).toBe('t');
    expect(a1.at(-1)!.keys.get('a')).toBe('p');
    expect(a1.at(-1)!.keys.get('p')).toBe('1');
    expect(a1.at(-1)!.keys.get('C')).toBe('1');
    const f2 = frame(A, 'kitty', { ...opts, previous: f1.handle });
    const a2 = parseKittyApcs(f2.output);
    expect(a2.map((a) => a.keys.get('a'))).toEqual(['p']);
    const f3 = frame(B, 'kitty', { ...opts, previous: f2.handle });
    const a3 = parseKittyApcs(f3.output);
    expect(a3[0].keys.get('a')).toBe('t');
    expect(a3[0].keys.get('i')).toBe('11');
    expect(decodeKittyTransmission(a3.slice(0, -1)).raster.data[2]).toBe(255);
  });

  it('kitty without placements: transmit and display under the same id each frame, cursor kept', () => {
    const f1 = frame(A, 'kitty', { ...OPTS, reserve: false });
    const f2 = frame(B, 'kitty', { ...OPTS, previous: f1.handle });
    const k1 = parseKittyApcs(f1.output)[0].keys;
    const k2 = parseKittyApcs(f2.output)[0].keys;
    expect(k1.get('a')).toBe('T');
    expect(k2.get('a')).toBe('T');
    expect(k2.get('i')).toBe(k1.get('i'));
    expect(k2.get('C')).toBe('1');
  });

  it('a change of size clears the previous picture first', () => {
    const f1 = frame(A, 'blocks', OPTS);
    const f2 = frame(solid(80, 80, [0, 0, 0, 255]), 'blocks', { ...OPTS, columns: 8, rows: 4, previous: f1.handle });
    expect(f2.handle.rows).toBe(4);
    expect(f2.output.startsWith(clearFrame(f1.handle))).toBe(true);
  });
});

describe('clearFrame and endFrame', () => {
  it('kitty deletes by id', () => {
    const { handle } = frame(A, 'kitty', { ...OPTS, imageId: 12 });
    expect(clearFrame(handle)).toBe('\x1b_Ga=d,d=I,i=12,q=2\x1b\\');
  });
  it('kitty inside tmux deletes through passthrough and erases the placeholder cells', () => {
    const { handle } = frame(A, 'kitty', { ...OPTS, imageId: 12, multiplexer: 'tmux' });
    expect(clearFrame(handle)).toBe(
      '\x1bPtmux;\x1b\x1b_Ga=d,d=I,i=12,q=2\x1b\x1b\\\x1b\\' + '\x1b7\x1b[4X\x1b8\x1b[1B\x1b[4X\x1b8',
    );
  });
  it.each([{ name: 'iterm2' }, { name: 'sixel' }, { name: 'braille' }, { name: 'blocks' }] as const)(
    '$name erases the cells row by row',
    ({ name: protocol }) => {
      const { handle } = frame(solid(40, 80, [1, 1, 1, 255]), protocol, { columns: 4, rows: 4 });
      const rows = handle.rows;
      const expected =
        '\x1b7' +
        Array.from({ length: rows }, (_, r) => `${r === 0 ? '' : `\x1b8\x1b[${r}B`}\x1b[${handle.columns}X`).join('') +
        '\x1b8';
      expect(clearFrame(handle)).toBe(expected);
    },
  );
  it.each([
    { name: 'endFrame for 1 rows', rows: 1, out: '\r\n' },
    { name: 'endFrame for 3 rows', rows: 3, out: '\x1b[2B\r\n' },
  ])('$name', ({ rows, out }) => {
    expect(endFrame({ protocol: 'blocks', columns: 1, rows, placeholders: false, multiplexer: null })).toBe(out);
  });
});

describe('flow: drawn once, the cursor ends at the start of the line below the last pixel row', () => {
  const PICTURE = solid(96, 96, [255, 0, 0, 255]);
  const BOX = { columns: 20, rows: 22 };
  const CELLS = [
    { width: 10, height: 20 }, // the assumed default
    { width: 9, height: 17 }, // xterm with DejaVu Sans Mono in the e2e suite
    { width: 7, height: 13 },
    { width: 6, height: 12 }, // MIN_CELL_HEIGHT
    { width: 16, height: 32 }, // HiDPI
  ];
  type Row = {
    protocol: Protocol;
    multiplexer: 'tmux' | null;
    known: boolean;
    cell: { width: number; height: number };
    start: 'top' | 'bottom';
  };
  const rows: Row[] = [];
  for (const protocol of ['sixel', 'kitty', 'iterm2', 'braille', 'blocks'] as const)
    for (const multiplexer of [null, 'tmux'] as const)
      for (const known of [false, true])
        for (const cell of CELLS)
          for (const start of ['top', 'bottom'] as const) rows.push({ protocol, multiplexer, known, cell, start });
  const name = (r: Row) =>
    `${r.protocol} ${r.multiplexer ?? 'direct'}, cell ${r.cell.width}x${r.cell.height} ${r.known ? 'known' : 'unknown'}, from the ${r.start}`;

  it.each(rows.map((r) => ({ name: name(r), r })))('$name', async ({ r }) => {
    const before = r.start === 'top' ? 'prompt$ show\n' : `${'\n'.repeat(30)}prompt$ show\n`;
    const options = { ...BOX, multiplexer: r.multiplexer, ...(r.known ? { cellPixels: r.cell } : {}), imageId: 5 };
    const drawn = flow(PICTURE, r.protocol, options);
    const start = (await runModel(before, { cell: r.cell })).cursor;
    const model = await runModel(before + drawn.output, { cell: r.cell });
    expect(model.cursor.column).toBe(0);
    const pictures = model.placed;
    if (pictures.length === 0) {
      // Text (braille, blocks, kitty's placeholders inside tmux): the next line follows the last one.
      expect(['braille', 'blocks', 'kitty']).toContain(r.protocol);
      expect(model.lastTextLine).toBeGreaterThanOrEqual(start.line);
      expect(model.cursor.line).toBe(model.lastTextLine + 1);
      return;
    }
    expect(pictures).toHaveLength(1);
    const picture = pictures[0]!;
    // Drawn at the cursor, where the prompt left it.
    expect({ line: picture.line, column: picture.column }).toEqual(start);
    // Behind tmux, the outer terminal's cursor is there too, however tmux's reads split the bytes.
    if (picture.passthrough) expect(picture.landings).toEqual([start]);
    // The next text starts below the picture's last pixel row.
    expect(model.cursor.line * r.cell.height).toBeGreaterThanOrEqual(picture.bottom);
    const below = Math.ceil(picture.bottom / r.cell.height);
    if (drawn.cursor === 'terminal' || r.known) expect(model.cursor.line).toBe(below);
    // Counting with an unknown cell may leave blank lines, no more than the MIN_CELL_HEIGHT bound gives.
    else expect(model.cursor.line - start.line).toBeLessThanOrEqual(Math.ceil(96 / MIN_CELL_HEIGHT));
    expect(drawn.cursor).toBe(r.multiplexer ? 'counted' : 'terminal');
  });

  it('the model catches the old way: rows counted from the assumed 10x20 cell on 17 px cells', async () => {
    // Drawn with save/restore and moved down by rows from a guessed cell: the next line starts
    // inside a sixel 96 px tall (5 rows of 17 px are 85 px).
    const old = frame(PICTURE, 'sixel', BOX);
    const guessed = old.output.replace(/\x1b\[\d+A/, `\x1b[5A`).replace(/^\r\n+/, `\r${'\n'.repeat(5)}`);
    const model = await runModel(`${guessed}\x1b[4B\r\n`, { cell: { width: 9, height: 17 } });
    expect(model.cursor.line * 17).toBeLessThan(model.placed[0]!.bottom);
  });

  it.each([
    {
      name: 'exact shape: sixel, multiplexer null',
      protocol: 'sixel',
      multiplexer: null,
      shape: /^\x1bP[0-9;]*q"[^\x1b]*\x1b\\\r\n$/,
    },
    {
      name: 'exact shape: kitty, multiplexer null',
      protocol: 'kitty',
      multiplexer: null,
      shape: /^(\x1b_G[^\x1b]*\x1b\\)+\r\n$/,
    },
    {
      name: 'exact shape: iterm2, multiplexer null',
      protocol: 'iterm2',
      multiplexer: null,
      shape: /^\x1b\]1337;File=inline=1;[^\x07\x1b]*(\x07|\x1b\\)\r\n$/,
    },
    {
      name: 'exact shape: sixel, multiplexer tmux',
      protocol: 'sixel',
      multiplexer: 'tmux',
      shape: /^\r\n{8}\x1b\[8A\x1b7\x1b\[49m\x1b\[1X\x1bPtmux;[\s\S]*\x1b\\\x1b8\x1b\[7B\r\n$/,
    },
    {
      name: 'exact shape: iterm2, multiplexer tmux',
      protocol: 'iterm2',
      multiplexer: 'tmux',
      shape: /^\r\n{5}\x1b\[5A\x1b7\x1b\[49m(\x1b\[1X\x1bPtmux;[\s\S]*?\x1b\\){3}\x1b8\x1b\[4B\r\n$/,
    },
  ] as const)('$name', ({ protocol, multiplexer, shape }) => {
    const { output } = flow(PICTURE, protocol, { ...BOX, multiplexer });
    expect(output).toMatch(shape);
    // No save/restore where the terminal moves the cursor itself, and kitty lets it move (no C=1).
    if (!multiplexer) expect(output).not.toMatch(/\x1b[78]|C=1/);
  });

  it('text lines end with a bare LF (a pipe or a file gets no CR)', () => {
    const { output, cursor } = flow(PICTURE, 'braille', BOX);
    expect(cursor).toBe('terminal');
    expect(output.endsWith('\n')).toBe(true);
    expect(output).not.toContain('\r');
  });
});

describe('frame then endFrame: after an animation the cursor is below every frame drawn', () => {
  const A96 = solid(96, 96, [255, 0, 0, 255]);
  const B96 = solid(96, 96, [0, 0, 255, 255]);
  const rows = (['sixel', 'kitty', 'iterm2', 'blocks'] as const).flatMap((protocol) =>
    ([null, 'tmux'] as const).flatMap((multiplexer) =>
      [
        { width: 10, height: 20 },
        { width: 9, height: 17 },
        { width: 6, height: 12 },
      ].map((cell) => ({
        name: `${protocol} ${multiplexer ?? 'direct'}, real cell ${cell.width}x${cell.height} (unknown to the renderer)`,
        protocol,
        multiplexer,
        cell,
      })),
    ),
  );
  it.each(rows)('$name', async ({ protocol, multiplexer, cell }) => {
    const options = { columns: 20, rows: 22, multiplexer, imageId: 9 };
    const first = frame(A96, protocol, options);
    const second = frame(B96, protocol, { ...options, previous: first.handle });
    const before = `${'\n'.repeat(30)}prompt$ show\n`;
    const start = (await runModel(before, { cell })).cursor;
    const model = await runModel(before + first.output + second.output + endFrame(second.handle), { cell });
    expect(model.cursor.column).toBe(0);
    const bottom = Math.max(model.lastTextLine + 1, ...model.placed.map((p) => Math.ceil(p.bottom / cell.height)));
    for (const p of model.placed) {
      expect(p.line).toBe(start.line);
      if (p.passthrough) expect(p.landings).toEqual([{ line: p.line, column: p.column }]);
    }
    expect(model.cursor.line).toBeGreaterThanOrEqual(bottom);
  });
});

describe('reachRows', () => {
  it.each([
    { name: 'sixel, the default cell', protocol: 'sixel', extra: {}, rows: 8 },
    {
      name: 'sixel, a 9x17 cell',
      protocol: 'sixel',
      extra: { cellPixels: { width: 9, height: 17 } },
      rows: 6,
    },
    { name: 'kitty', protocol: 'kitty', extra: {}, rows: 5 },
    { name: 'iterm2', protocol: 'iterm2', extra: {}, rows: 5 },
    { name: 'braille', protocol: 'braille', extra: {}, rows: 5 },
    { name: 'blocks', protocol: 'blocks', extra: {}, rows: 5 },
  ] as const)('$name', ({ protocol, extra, rows }) => {
    const options = { columns: 20, rows: 40, ...extra };
    expect(reachRows(layout({ width: 96, height: 96 }, protocol, options), protocol, options)).toBe(rows);
  });
});

describe('behind tmux: the outer cursor pinned to the pane cursor before each passed-through sequence', () => {
  // Noise, so kitty's zlib cannot shrink it below several 4096-byte chunks.
  const noise = (width: number, height: number): Raster => {
    const data = new Uint8Array(width * height * 4);
    let x = 12345;
    for (let i = 0; i < data.length; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      data[i] = x >>> 24;
    }
    for (let i = 3; i < data.length; i += 4) data[i] = 255;
    return { width, height, data };
  };
  const RED = solid(96, 96, [255, 0, 0, 255]);
  const KNOWN = {
    columns: 20,
    rows: 22,
    cellPixels: { width: 10, height: 20 },
    imageId: 7,
    multiplexer: 'tmux' as const,
  };
  /** The bytes `flow` must write: room, save, default background, (anchor + wrapped sequence)…, restore, down, new line. */
  const expected = (
    raster: Raster,
    protocol: Protocol,
    options: typeof KNOWN & { placeholders?: boolean },
    rows: number,
  ) =>
    '\r' +
    '\n'.repeat(rows) +
    `\x1b[${rows}A` +
    '\x1b7' +
    '\x1b[49m' +
    draw(raster, protocol, { ...options, keepCursor: true })
      .sequences.map((q) => `\x1b[1X${wrapTmux(q)}`)
      .join('') +
    '\x1b8' +
    (rows > 1 ? `\x1b[${rows - 1}B` : '') +
    '\r\n';

  it.each([
    { name: 'exact bytes: sixel', protocol: 'sixel', raster: RED, extra: {}, rows: 5, count: 1 },
    { name: 'exact bytes: iterm2', protocol: 'iterm2', raster: RED, extra: {}, rows: 5, count: 3 }, // MultipartFile, FilePart, FileEnd
    {
      name: 'exact bytes: kitty',
      protocol: 'kitty',
      raster: noise(64, 64),
      extra: { placeholders: false },
      rows: 4,
      count: 4,
    }, // a=T, 64x64 RGB in four 4096-byte chunks
  ] as const)('$name', ({ protocol, raster, extra, rows, count }) => {
    const options = { ...KNOWN, ...extra };
    const { output, cursor } = flow(raster, protocol, options);
    expect(cursor).toBe('counted');
    expect(output).toBe(expected(raster, protocol, options, rows));
    expect(output.split('\x1bPtmux;').length - 1).toBe(count);
  });

  it('exact bytes of the frame itself (sixel, 2 rows): only the picture between the anchor and the restore', () => {
    const raster = solid(20, 40, [0, 255, 0, 255]);
    const { output } = flow(raster, 'sixel', { ...KNOWN, columns: 2, rows: 2 });
    const [sixel] = draw(raster, 'sixel', { ...KNOWN, columns: 2, rows: 2, keepCursor: true }).sequences;
    expect(sixel).toMatch(/^\x1bP[0-9;]*q[^\x1b]*\x1b\\$/);
    expect(output).toBe(
      `\r\n\n\x1b[2A\x1b7\x1b[49m\x1b[1X\x1bPtmux;${sixel!.replaceAll('\x1b', '\x1b\x1b')}\x1b\\\x1b8\x1b[1B\r\n`,
    );
  });

  type Case = { readonly name: string; readonly make: () => string };
  const anchored: Case[] = [
    { name: 'frame sixel, first', make: () => frame(RED, 'sixel', KNOWN).output },
    {
      name: 'frame sixel, second',
      make: () => frame(RED, 'sixel', { ...KNOWN, previous: frame(RED, 'sixel', KNOWN).handle }).output,
    },
    {
      name: 'frame iterm2, synchronized',
      make: () => frame(RED, 'iterm2', { ...KNOWN, synchronizedOutput: true }).output,
    },
    {
      name: 'frame kitty, placements (store chunks, then place)',
      make: () => frame(noise(64, 64), 'kitty', { ...KNOWN, placeholders: false, placements: true }).output,
    },
    {
      name: 'frame kitty, transmit and display',
      make: () => frame(noise(64, 64), 'kitty', { ...KNOWN, placeholders: false }).output,
    },
  ];
  it.each(anchored)('$name: every passed-through sequence right after the anchor, inside save/restore', ({ make }) => {
    const output = make();
    const count = output.split('\x1bPtmux;').length - 1;
    expect(count).toBeGreaterThan(0);
    expect(output.split(`${TMUX_ANCHOR}\x1bPtmux;`).length - 1).toBe(count);
    expect(output.split(TMUX_ANCHOR).length - 1).toBe(count);
    const save = output.indexOf('\x1b7');
    expect(save).toBeGreaterThanOrEqual(0);
    expect(output.indexOf('\x1b[49m')).toBe(save + 2);
    expect(output.lastIndexOf('\x1b8')).toBeGreaterThan(output.lastIndexOf('\x1b\\'));
  });

  const plain: Case[] = [
    { name: 'sixel, no multiplexer', make: () => frame(RED, 'sixel', { ...KNOWN, multiplexer: null }).output },
    { name: 'sixel, screen', make: () => frame(RED, 'sixel', { ...KNOWN, multiplexer: 'screen' }).output },
    {
      name: 'kitty placeholders in tmux (placed by the cells)',
      make: () => flow(RED, 'kitty', KNOWN).output + frame(RED, 'kitty', KNOWN).output,
    },
    { name: 'braille in tmux', make: () => flow(RED, 'braille', KNOWN).output },
    {
      name: 'clearFrame of kitty in tmux (delete by id)',
      make: () => clearFrame(frame(RED, 'kitty', { ...KNOWN, placeholders: false }).handle),
    },
  ];
  it.each(plain)('$name: no anchor', ({ make }) => {
    const output = make();
    expect(output).not.toContain(TMUX_ANCHOR);
    expect(output).not.toContain('\x1b[49m');
  });

  it.each([{ name: 'sixel' }, { name: 'iterm2' }, { name: 'kitty' }] as const)(
    'the model catches $name without the anchor: where it lands depends on the reads',
    async ({ name: protocol }) => {
      const before = 'prompt$ show\n';
      const cell = { width: 10, height: 20 };
      const options = { ...KNOWN, placeholders: false };
      const good = flow(protocol === 'kitty' ? noise(64, 64) : RED, protocol, options).output;
      const start = (await runModel(before, { cell })).cursor;
      const pinned = (await runModel(before + good, { cell })).placed[0]!;
      expect(pinned.landings).toEqual([start]);
      const loose = (await runModel(before + good.replaceAll(TMUX_ANCHOR, ''), { cell })).placed[0]!;
      expect(loose.landings!.length).toBeGreaterThan(1);
      // Below the prompt, where the room made for it ends; and the chunks after the first at the screen's top-left.
      const rows = protocol === 'kitty' ? 4 : 5; // 64 or 96 px on 20 px cells
      expect(loose.landings).toContainEqual({ line: start.line + rows, column: 0 });
      if (protocol !== 'sixel') expect(loose.landings).toContainEqual({ line: 0, column: 0 });
    },
  );
});
