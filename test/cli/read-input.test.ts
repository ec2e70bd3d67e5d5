/**
 * Bounded reading (src/cli/read-input.ts): the budget is counted while reading, for regular files
 * (at, under and over it), devices, symlinks and streams; the flag's sizes; the messages.
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/context.js';
import {
  DEFAULT_MAX_BYTES,
  formatBytes,
  InputError,
  inputReader,
  MAX_READ_LIMIT,
  parseByteSize,
  readPathBounded,
  readStreamBounded,
} from '../../src/cli/read-input.js';
import { runShowWith } from '../../src/cli/show.js';
import { context, report, writePng } from './show-support.js';

let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'termsight-read-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseByteSize and formatBytes', () => {
  it.each([
    { name: 'bytes', text: '1048576', bytes: 1048576 },
    { name: 'K', text: '512K', bytes: 512 * 1024 },
    { name: 'lower-case m', text: '64m', bytes: 64 * 1024 ** 2 },
    { name: 'MiB', text: '3MiB', bytes: 3 * 1024 ** 2 },
    { name: 'GB means GiB', text: '1GB', bytes: 1024 ** 3 },
    { name: 'spaces', text: ' 2 K ', bytes: 2048 },
    { name: 'the largest: 2G', text: '2G', bytes: MAX_READ_LIMIT },
  ])('$name: $text is $bytes', ({ text, bytes }) => {
    expect(parseByteSize(text)).toBe(bytes);
  });

  it.each([
    { name: 'empty', text: '' },
    { name: 'zero', text: '0' },
    { name: 'negative', text: '-5' },
    { name: 'a fraction', text: '1.5M' },
    { name: 'an unknown unit', text: '5T' },
    { name: 'words', text: 'lots' },
    { name: 'past 2^53', text: '99999999999G' },
    // One buffer holds what is read: past 2 GiB Node aborted (3G on a 2 GiB file) or threw an internal error (8G).
    { name: 'past 2 GiB by a byte', text: String(2 * 1024 ** 3 + 1) },
    { name: '3G', text: '3G' },
    { name: '8G', text: '8G' },
  ])('$name ($text) is a usage error naming the flag and the bounds', ({ text }) => {
    expect(() => parseByteSize(text)).toThrow(UsageError);
    expect(() => parseByteSize(text)).toThrow(/^--max-bytes takes a size from 1 byte to 2 GiB \(e\.g\./);
  });

  it.each([
    { name: 'one byte', bytes: 1, text: '1 byte' },
    { name: 'under a KiB: bytes', bytes: 1023, text: '1023 bytes' },
    { name: 'a KiB', bytes: 1024, text: '1 KiB' },
    { name: 'a fraction of a KiB', bytes: 1536, text: '1.5 KiB' },
    { name: 'the default limit', bytes: DEFAULT_MAX_BYTES, text: '64 MiB' },
    { name: 'a GiB', bytes: 1024 ** 3, text: '1 GiB' },
  ])('formatBytes, $name: $bytes is $text', ({ bytes, text }) => {
    expect(formatBytes(bytes)).toBe(text);
  });
});

describe('readPathBounded', () => {
  const file = (n: number) => {
    const path = join(dir, `f${n}`);
    writeFileSync(path, Buffer.alloc(n, 7));
    return path;
  };
  it.each([
    { name: 'empty file', size: 0, max: 10, ok: true },
    { name: 'under the budget', size: 9, max: 10, ok: true },
    { name: 'exactly the budget', size: 10, max: 10, ok: true },
    { name: 'one byte over', size: 11, max: 10, ok: false },
    { name: 'several chunks, exactly the budget', size: 3 * 1024 * 1024 + 5, max: 3 * 1024 * 1024 + 5, ok: true },
  ])('$name ($size bytes, budget $max)', async ({ size, max, ok }) => {
    const read = readPathBounded(file(size), max);
    if (ok) {
      const bytes = await read;
      expect(bytes.length).toBe(size);
      expect(bytes.every((b) => b === 7)).toBe(true);
    } else
      await expect(read).rejects.toThrow(
        new InputError(`larger than the ${formatBytes(max)} read limit (--max-bytes, up to 2 GiB)`),
      );
  });

  it.each([
    { name: '/dev/zero (stat size 0)', path: () => '/dev/zero' },
    {
      name: 'a .png symlink to /dev/zero',
      path: () => {
        const link = join(dir, 'x.png');
        symlinkSync('/dev/zero', link);
        return link;
      },
    },
  ])('$name stops at the budget', async ({ path }) => {
    await expect(readPathBounded(path(), 3 * 1024 * 1024 + 1)).rejects.toThrow(/larger than the 3 MiB read limit/);
  });

  it('a directory is named as such', async () => {
    await expect(readPathBounded(dir, 10)).rejects.toThrow(new InputError('is a directory'));
  });

  it('a missing file gives the system error (ENOENT) for the CLI to word', async () => {
    await expect(readPathBounded(join(dir, 'nope'), 10)).rejects.toMatchObject({ code: 'ENOENT' });
  });
});

describe('readStreamBounded', () => {
  it.each([
    { name: 'under', chunks: [3, 4], max: 8, ok: true },
    { name: 'exactly', chunks: [4, 4], max: 8, ok: true },
    { name: 'over in the last chunk', chunks: [4, 5], max: 8, ok: false },
    { name: 'over in the first chunk', chunks: [9], max: 8, ok: false },
  ])('$name', async ({ chunks, max, ok }) => {
    const stream = Readable.from(chunks.map((n) => Buffer.alloc(n, 1)));
    const read = readStreamBounded(stream, max);
    if (ok) expect((await read).length).toBe(chunks.reduce((a, b) => a + b, 0));
    else await expect(read).rejects.toThrow(/larger than the 8 bytes read limit/);
  });

  it('an endless stream is stopped and destroyed', async () => {
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled++;
        this.push(Buffer.alloc(1024));
      },
    });
    await expect(readStreamBounded(endless, 10_000)).rejects.toThrow(InputError);
    expect(endless.destroyed).toBe(true);
    expect(pulled).toBeLessThan(64);
  });

  it('inputReader reads - from stdin and anything else as a path', async () => {
    const read = inputReader(100);
    const path = join(dir, 'hello');
    writeFileSync(path, 'from a file');
    expect(Buffer.from(await read(path, { stdin: Readable.from([]) })).toString()).toBe('from a file');
    expect(Buffer.from(await read('-', { stdin: Readable.from([Buffer.from('from stdin')]) })).toString()).toBe(
      'from stdin',
    );
  });
});

describe('show --max-bytes', () => {
  it.each([
    { name: 'default budget: a small PNG is shown', args: [], code: 0, line: null },
    {
      name: 'a budget below the file: one line, exit 2',
      args: ['--max-bytes', '100'],
      code: 2,
      line: ': larger than the 100 bytes read limit (--max-bytes, up to 2 GiB)',
    },
  ])('$name', async ({ args, code, line }) => {
    const png = writePng(dir, 'small.png', 20, 20);
    const { ctx, stderr } = context();
    expect(await runShowWith([png, '--protocol', 'blocks', ...args], ctx, { report: report() })).toBe(code);
    expect(stderr.text).toBe(line ? `termsight: ${png}${line}\n` : '');
  });

  it('a bad size is a usage error', async () => {
    const { ctx } = context();
    await expect(runShowWith(['x.png', '--max-bytes', '12Q'], ctx, { report: report() })).rejects.toThrow(
      /--max-bytes takes a size from 1 byte to 2 GiB/,
    );
  });
});
