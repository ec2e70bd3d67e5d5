/** kitty local transfer in the encoder (`t=t` by a file sink) and the files behind it. */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  GRAPHICS_FILE_MARK,
  graphicsFilesRead,
  pendingGraphicsFiles,
  removeGraphicsFiles,
  writeGraphicsFile,
} from '../../src/core/graphics-file.js';
import { toTerminal } from '../../src/render/backend.js';
import { frame } from '../../src/render/frame.js';
import { type KittyFileSink, kittyPayload, kittySequences } from '../../src/render/pixels/kitty.js';
import { randomRaster, solid } from './terminal-decoders.js';

const dir = mkdtempSync(join(tmpdir(), 'termsight-kitty-file-'));
afterAll(() => {
  removeGraphicsFiles();
  rmSync(dir, { recursive: true, force: true });
});

/** A sink that records what it was given and answers with a fixed path (or null: the write failed). */
function recording(path: string | null): { sink: KittyFileSink; written: Uint8Array[] } {
  const written: Uint8Array[] = [];
  const sink: KittyFileSink = (bytes) => {
    written.push(bytes);
    return path;
  };
  return { sink, written };
}

const keysOf = (sequence: string) =>
  Object.fromEntries(
    sequence
      .slice(3, sequence.indexOf(';'))
      .split(',')
      .map((pair) => pair.split('=')),
  );

describe('kittySequences with a file sink', () => {
  const path = `/dev/shm/termsight-picture-${GRAPHICS_FILE_MARK}-1-aa`;
  const ROWS = [
    { name: 'opaque: RGB', raster: randomRaster(30, 20, 1, true), format: '24', action: 'T' as const },
    { name: 'transparent: RGBA', raster: randomRaster(30, 20, 2), format: '32', action: 'T' as const },
    { name: 'stored (a=t)', raster: solid(50, 40, [9, 8, 7, 255]), format: '24', action: 't' as const },
  ];
  it.each(ROWS)('$name: one sequence, t=t, S= the file size, the path as payload, uncompressed', (row) => {
    const { sink, written } = recording(path);
    const [sequence, ...rest] = kittySequences(row.raster, { imageId: 5, file: sink }, row.action);
    expect(rest).toEqual([]);
    const keys = keysOf(sequence as string);
    expect(keys).toMatchObject({ a: row.action, t: 't', f: row.format, i: '5', q: '2' });
    expect(keys.o).toBeUndefined();
    expect(written).toHaveLength(1);
    expect(Buffer.from(written[0] as Uint8Array)).toEqual(Buffer.from(kittyPayload(row.raster, false).bytes));
    expect(Number(keys.S)).toBe(written[0]?.length);
    const payload = (sequence as string).slice((sequence as string).indexOf(';') + 1, -2);
    expect(Buffer.from(payload, 'base64').toString('utf8')).toBe(path);
  });

  it('falls back to inline (t=d, exactly as without a sink) when the file cannot be written', () => {
    const raster = randomRaster(200, 100, 3, true);
    const { sink, written } = recording(null);
    const withFailingSink = kittySequences(raster, { imageId: 9, file: sink, columns: 4, rows: 2 });
    expect(written).toHaveLength(1);
    expect(withFailingSink).toEqual(kittySequences(raster, { imageId: 9, columns: 4, rows: 2 }));
    expect(withFailingSink.join('')).not.toContain('t=t');
  });

  it('refuses a path with a control character (nothing raw inside a sequence)', () => {
    const { sink } = recording('/tmp/tty-graphics-protocol\x1b\\x');
    expect(() => kittySequences(solid(2, 2, [0, 0, 0, 255]), { file: sink })).toThrow(TypeError);
  });

  it('toTerminal and frame use RenderOptions.kittyFile', () => {
    const raster = solid(20, 20, [1, 2, 3, 255]);
    const a = recording(path);
    expect(toTerminal(raster, 'kitty', { kittyFile: a.sink, imageId: 3 })).toContain(',t=t,');
    expect(a.written).toHaveLength(1);
    const b = recording(path);
    expect(frame(raster, 'kitty', { kittyFile: b.sink, placements: true, imageId: 4 }).output).toContain(',t=t,');
    expect(b.written).toHaveLength(1);
    // Without it: inline.
    expect(toTerminal(raster, 'kitty', { imageId: 3 })).not.toContain('t=t');
  });
});

describe('graphics files', () => {
  it('are made exclusively, private, named for kitty, with the bytes given', () => {
    const bytes = Uint8Array.of(1, 2, 3, 4, 5);
    const path = writeGraphicsFile(bytes, 'termsight-test', dir) as string;
    expect(path.startsWith(dir)).toBe(true);
    expect(path).toContain(GRAPHICS_FILE_MARK);
    expect([...readFileSync(path)]).toEqual([1, 2, 3, 4, 5]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(pendingGraphicsFiles()).toContain(path);
    removeGraphicsFiles();
    expect(existsSync(path)).toBe(false);
    expect(pendingGraphicsFiles()).not.toContain(path);
  });

  it('give null where the folder cannot be written (the caller goes inline)', () => {
    expect(writeGraphicsFile(Uint8Array.of(1), 'termsight-test', join(dir, 'no-such-folder'))).toBeNull();
    expect(pendingGraphicsFiles()).toEqual([]);
  });

  it('graphicsFilesRead resolves once the terminal deleted them, or with what is left at its bound', async () => {
    const read = writeGraphicsFile(Uint8Array.of(1), 'termsight-test', dir) as string;
    setTimeout(() => unlinkSync(read), 30);
    expect(await graphicsFilesRead(5_000)).toEqual([]);
    const left = writeGraphicsFile(Uint8Array.of(1), 'termsight-test', dir) as string;
    expect(await graphicsFilesRead(20)).toEqual([left]);
    removeGraphicsFiles();
    expect(existsSync(left)).toBe(false);
  });
});
