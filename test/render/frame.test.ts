import { describe, expect, it } from 'vitest';
import { clearFrame, endFrame, frame } from '../../src/render/frame.js';
import { parseKittyApcs, solid, decodeKittyTransmission } from './terminal-decoders.js';

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
    expect(clearFrame(handle)).toBe('\x1bPtmux;\x1b\x1b_Ga=d,d=I,i=12,q=2\x1b\x1b\\\x1b\\' + '\x1b7\x1b[4X\x1b8\x1b[1B\x1b[4X\x1b8');
  });
  it.each(['iterm2', 'sixel', 'braille', 'blocks'] as const)('%s erases the cells row by row', (protocol) => {
    const { handle } = frame(solid(40, 80, [1, 1, 1, 255]), protocol, { columns: 4, rows: 4 });
    const rows = handle.rows;
    const expected = '\x1b7' + Array.from({ length: rows }, (_, r) => (r === 0 ? '' : `\x1b8\x1b[${r}B`) + `\x1b[${handle.columns}X`).join('') + '\x1b8';
    expect(clearFrame(handle)).toBe(expected);
  });
  it.each([[1, '\r\n'], [3, '\x1b[2B\r\n']])('endFrame for %i rows', (rows, out) => {
    expect(endFrame({ protocol: 'blocks', columns: 1, rows, placeholders: false, multiplexer: null })).toBe(out);
  });
});
