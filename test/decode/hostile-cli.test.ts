/**
 * The hostile corpus, end to end: each file (made by code in support/hostile-files.ts), device or
 * pipe is shown by the built CLI in a child process with a 256 MB heap, which must end with the
 * row's exit code and stderr (one line naming the problem, or nothing when the file is fine once
 * its bomb is skipped), under the row's peak RSS (measured by support/rss-wrapper.mjs). The bounds
 * are those of docs/decode.md#limits: Node itself takes about 50 MiB, reading at most the 64 MiB
 * budget, and a bomb costs what its declared size needs, never what it would inflate to.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  ftruncateSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellStatus } from '../support/exit-status.js';
import {
  ancillaryBomb,
  apngTinyFrames,
  gifFramesWithoutData,
  gifManyHonestFrames,
  gifTinyFrames,
  idatBomb,
  jpegEmptyRefinements,
  lyingJpeg,
  pngManyIdat,
} from './support/hostile-files.js';
import { bmpFile } from './support/simple-files.js';
import { chunk, losslessWebp, manyFrameWebp, riff, vp8l, vp8x } from './support/webp-files.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const WRAPPER = join(ROOT, 'test/decode/support/rss-wrapper.mjs');
const GIB = 1024 ** 3;
const MIB = 1024 ** 2;
/** Until the jpeg branch's decoder lands, jpeg-js decodes JPEGs here and allocates what a header declares. */
const JPEG_JS = readFileSync(join(ROOT, 'src/decode/jpeg.ts'), 'utf8').includes("from 'jpeg-js'");

interface Outcome {
  readonly code: number | null;
  readonly stderr: string;
  readonly rssMiB: number;
  /** Wall-clock seconds from spawn to exit (a bound, generous: the machine may be loaded). */
  readonly seconds: number;
}

/**
 * Node run by a small `sh` that waits for it, not exec'd from this process: Linux starts a
 * child's peak RSS (`maxRSS`) at its parent's RSS at the fork, so a child of this test process,
 * which holds the generated files, would report this process's size.
 */
const UNDER_SH = ['-c', '"$@"; exit $?', 'sh', process.execPath];

/** Every row ends within this, however hostile (docs/decode.md#limits). */
const MAX_SECONDS = 10;

let dir = '';

/** Runs `termsight show --no-probe --width 40 ...args` in a child with a 256 MB heap; stdout is dropped. */
function showChild(args: readonly string[], stdinFd?: number, env?: NodeJS.ProcessEnv): Promise<Outcome> {
  const rssFile = join(dir, `rss-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(
      'sh',
      [...UNDER_SH, '--max-old-space-size=256', WRAPPER, rssFile, 'show', '--no-probe', '--width', '40', ...args],
      { stdio: [stdinFd ?? 'ignore', 'ignore', 'pipe'], ...(env ? { env: { ...process.env, ...env } } : {}) },
    );
    // A row that runs away is killed at twice the bound, so the test fails instead of hanging.
    const killer = setTimeout(() => child.kill('SIGKILL'), 2 * MAX_SECONDS * 1000);
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const rss = existsSync(rssFile) ? Number(readFileSync(rssFile, 'utf8')) : Number.NaN;
      resolve({ code, stderr, rssMiB: rss / 1024, seconds: (performance.now() - started) / 1000 });
    });
  });
}

/** A FIFO fed 64 KiB of zeros every 20 ms, forever (until the reader goes away). */
function slowFifo(): { path: string; writer: ChildProcess } {
  const path = join(dir, 'slow.png');
  spawnSync('mkfifo', [path]);
  const writer = spawn('sh', ['-c', 'while :; do head -c 65536 /dev/zero || exit 0; sleep 0.02; done > "$0"', path], {
    stdio: 'ignore',
  });
  return { path, writer };
}

interface Row {
  readonly name: string;
  /** The file to show (a name in the scratch directory, or a path), or '-' for stdin from /dev/zero. */
  readonly file: () => string;
  readonly args?: readonly string[];
  readonly code: number;
  /** The one stderr line (after `termsight: NAME: `), or null for none. */
  readonly line: RegExp | null;
  readonly maxRssMiB: number;
  readonly skip?: string;
  /** Environment for the child (a kitty terminal for `--animate`). */
  readonly env?: NodeJS.ProcessEnv;
}

/** `--animate` with kitty, which plays the frames itself: every frame is decoded and uploaded. */
const KITTY_ANIMATE = ['--protocol', 'kitty', '--animate'];
const KITTY_ENV = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };

const write = (name: string, bytes: Uint8Array) => () => {
  const path = join(dir, name);
  if (!existsSync(path)) writeFileSync(path, bytes);
  return path;
};

/** `bytes` (a BMP with a 40-byte header) declaring another size. */
function withSize(bytes: Uint8Array, width: number, height: number): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setInt32(18, width, true);
  view.setInt32(22, height, true);
  return out;
}

/** An RLE8 BMP declaring width x height whose runs stop after 1 KB, before any end of line. */
function cutRle(width: number, height: number): Uint8Array {
  const base = bmpFile({ width: 4, height: 4, bits: 8, paletteSize: 2 });
  const offset = new DataView(base.buffer).getUint32(10, true);
  const runs = new Uint8Array(1024).fill(1);
  const out = withSize(new Uint8Array([...base.subarray(0, offset), ...runs]), width, height);
  new DataView(out.buffer).setUint32(30, 1, true);
  return out;
}

/** An RLE8 BMP declaring width x height whose data is the end of the picture alone. */
function rleEndAtOnce(width: number, height: number): Uint8Array {
  const base = bmpFile({ width: 4, height: 4, bits: 8, paletteSize: 2 });
  const offset = new DataView(base.buffer).getUint32(10, true);
  const out = withSize(new Uint8Array([...base.subarray(0, offset), 0, 1]), width, height);
  new DataView(out.buffer).setUint32(30, 1, true);
  return out;
}

/** A QOI header for width x height, then `data`. */
function qoiOf(width: number, height: number, data: readonly number[]): Uint8Array {
  const be = (v: number) => [(v >>> 24) & 255, (v >>> 16) & 255, (v >>> 8) & 255, v & 255];
  return new Uint8Array([0x71, 0x6f, 0x69, 0x66, ...be(width), ...be(height), 4, 0, ...data]);
}

const rows: Row[] = [
  {
    name: 'PNG 1x1 whose IDAT inflates to 1 GiB',
    file: () => write('idat-bomb.png', idatBomb(GIB))(),
    code: 2,
    line: /^corrupt PNG: the image data inflates to more than the 5 bytes its declared size needs$/,
    maxRssMiB: 120,
  },
  ...(['iCCP', 'zTXt', 'iTXt'] as const).map(
    (type): Row => ({
      name: `PNG 1x1 with a ${type} chunk that inflates to ${type === 'iCCP' ? '512 MiB (inflated to the 8 MiB profile budget, then drawn as sRGB)' : '1 GiB (skipped, never inflated)'}`,
      file: () => write(`${type}-bomb.png`, ancillaryBomb(type, type === 'iCCP' ? 512 * MIB : GIB))(),
      code: 0,
      line: null,
      maxRssMiB: 120,
    }),
  ),
  {
    name: 'JPEG of 1 KB declaring 7000x7000',
    file: () => write('lying.jpg', lyingJpeg())(),
    code: 2,
    line: /^(corrupt|truncated) JPEG: .*\b7000x7000\b/,
    maxRssMiB: 120,
    ...(JPEG_JS ? { skip: 'jpeg-js allocates what the header declares; the jpeg branch replaces it' } : {}),
  },
  {
    name: 'GIF of 1000 frames of 4000x3000 in 2 bytes of data each',
    file: () => write('no-data.gif', gifFramesWithoutData(4000, 3000, 1000))(),
    code: 2,
    line: /^corrupt GIF: a 4000x3000 frame with 2 bytes of image data, which can hold at most 15 pixels$/,
    maxRssMiB: 120,
  },
  {
    // 15 (47 MB): the generator made one frame until it was fixed; 300 would pass the read limit.
    name: 'GIF of 15 honest 4000x3000 frames (only the first is decoded)',
    file: () => write('many-frames.gif', gifManyHonestFrames(4000, 3000, 15))(),
    code: 0,
    line: null,
    // Node, the 3 MB file, the 48 MB canvas and the 48 MB frame, the resized copy.
    maxRssMiB: 230,
  },
  {
    name: 'WebP of 30 bytes declaring 16384x16384 (lossless)',
    file: () => write('huge.webp', losslessWebp(16384, 16384, 0xff000000))(),
    code: 2,
    line: /^WebP image too large to decode safely: 16384x16384 \(268 megapixels\)/,
    maxRssMiB: 120,
  },
  {
    name: 'WebP whose VP8X canvas is 16777216x16777216',
    file: () => write('canvas.webp', riff([vp8x(0, 16_777_216, 16_777_216), chunk('VP8L', vp8l(4, 4, 0))]))(),
    code: 2,
    line: /^WebP image too large to decode safely: 16777216x16777216/,
    maxRssMiB: 120,
  },
  {
    name: 'WebP whose RIFF header declares 4 GiB',
    file: () => write('riff-size.webp', riff([chunk('VP8L', vp8l(4, 4, 0))], 0xfffffff0))(),
    code: 2,
    line: /^truncated WebP: the RIFF header declares 4294967288 bytes; the file has \d+$/,
    maxRssMiB: 120,
  },
  {
    name: 'WebP 3000x2000 lossless whose pixels stop after 64 bytes',
    file: () => write('cut.webp', riff([chunk('VP8L', vp8l(3000, 2000, 0, { greens: [1, 2], pixelBytes: 64 }))]))(),
    code: 2,
    line: /^truncated WebP: the lossless data ends early$/,
    maxRssMiB: 120,
  },
  {
    name: 'animated WebP of 200000 frames (only the first is decoded)',
    file: () => write('many-frames.webp', manyFrameWebp(200_000))(),
    code: 0,
    line: null,
    maxRssMiB: 150,
  },
  {
    name: 'animated WebP, 4000x3000 canvas, 1000 frames (the first alone costs one canvas)',
    file: () => write('big-canvas.webp', manyFrameWebp(1000, 4000, 3000))(),
    code: 0,
    line: null,
    // Node, the 48 MB canvas, the resized copy (three canvases before the compositor kept one).
    maxRssMiB: 150,
  },
  // Issue 23: BMP, QOI and PNM. What the data can hold is checked before the picture is allocated.
  {
    name: 'BMP of 1 KB declaring 7000x7000 at 24 bits',
    file: () => write('lying.bmp', withSize(bmpFile({ width: 16, height: 16, bits: 24 }), 7000, 7000))(),
    code: 2,
    line: /^truncated BMP: the file ends inside its pixels: 7000x7000 at 24 bits needs 147000000 bytes, it has 768$/,
    maxRssMiB: 120,
  },
  {
    name: 'RLE8 BMP declaring 7000x7000 whose data stops after 1 KB',
    file: () => write('cut-rle.bmp', cutRle(7000, 7000))(),
    code: 2,
    line: /^truncated BMP: the file ends inside its RLE data$/,
    maxRssMiB: 120,
  },
  {
    name: 'QOI of 30 bytes declaring 7000x7000',
    file: () => write('lying.qoi', qoiOf(7000, 7000, [0xfd, 0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]))(),
    code: 2,
    line: /^truncated QOI: 7000x7000 needs at least 790323 bytes of data, the file has 16$/,
    maxRssMiB: 120,
  },
  {
    name: 'PPM of 30 bytes declaring 7000x7000 at 16 bits',
    file: () => write('lying.ppm', new Uint8Array(Buffer.from('P6\n7000 7000\n65535\n0123456789', 'latin1')))(),
    code: 2,
    line: /^truncated PNM: the file ends inside its samples: 7000x7000x3 needs at least 294000000 bytes, it has 10$/,
    maxRssMiB: 120,
  },
  {
    // Legal: RLE's end of picture leaves the rest in the first colour. Only the limits bound it.
    name: 'RLE8 BMP of 64 bytes that is 4000x3000 of one colour (end of picture at once), shown',
    file: () => write('tiny-rle.bmp', rleEndAtOnce(4000, 3000))(),
    code: 0,
    line: null,
    // Node, the 48 MB picture, the resized copy.
    maxRssMiB: 230,
  },
  {
    name: 'QOI 4000x3000 of one colour in 190 KB of runs, shown',
    file: () => write('runs.qoi', qoiOf(4000, 3000, [...new Array(193_549).fill(0xfd), 0, 0, 0, 0, 0, 0, 0, 1]))(),
    code: 0,
    line: null,
    maxRssMiB: 230,
  },
  {
    name: 'PAM whose header never ends (1 MB of lines)',
    file: () => write('endless.pam', new Uint8Array(Buffer.from(`P7\n${'WIDTH 1\n'.repeat(130_000)}`, 'latin1')))(),
    code: 2,
    line: /^corrupt PNM: its PAM header has no ENDHDR in 1000 lines$/,
    maxRssMiB: 120,
  },
  {
    name: '/dev/zero',
    file: () => '/dev/zero',
    code: 2,
    line: /^larger than the 64 MiB read limit \(--max-bytes, up to 2 GiB\)$/,
    maxRssMiB: 200,
  },
  {
    name: 'a symlink x.png to /dev/zero',
    file: () => {
      const path = join(dir, 'x.png');
      if (!existsSync(path)) symlinkSync('/dev/zero', path);
      return path;
    },
    code: 2,
    line: /^larger than the 64 MiB read limit \(--max-bytes, up to 2 GiB\)$/,
    maxRssMiB: 200,
  },
  {
    name: 'stdin from /dev/zero',
    file: () => '-',
    code: 2,
    line: /^larger than the 64 MiB read limit \(--max-bytes, up to 2 GiB\)$/,
    maxRssMiB: 200,
  },
  {
    name: 'a 512 KiB budget on the 1 MB file of the IDAT bomb',
    file: () => write('idat-bomb.png', idatBomb(GIB))(),
    args: ['--max-bytes', '512K'],
    code: 2,
    line: /^larger than the 512 KiB read limit \(--max-bytes, up to 2 GiB\)$/,
    maxRssMiB: 120,
  },
  // Round 3 (issue 25): frames counted in what they cost, empty scans, tiny chunks.
  {
    name: 'GIF of 5.5 million 0x0 frames (66 MB), --animate with kitty',
    file: () => write('zero-frames.gif', gifTinyFrames(5_500_000, 0))(),
    args: KITTY_ANIMATE,
    env: KITTY_ENV,
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'GIF of 4.4 million distinct 1x1 frames (66 MB), --animate with kitty',
    file: () => write('one-frames.gif', gifTinyFrames(4_400_000, 1))(),
    args: KITTY_ANIMATE,
    env: KITTY_ENV,
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'APNG of 600,000 1x1 frames (40 MB), --animate with kitty',
    file: () => write('tiny-frames.png', apngTinyFrames(600_000))(),
    args: KITTY_ANIMATE,
    env: KITTY_ENV,
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'GIF of 300 honest 1000x1000 frames (35 MB), --animate with kitty: 64 decoded, uploaded',
    file: () => write('honest-frames.gif', gifManyHonestFrames(1000, 1000, 300))(),
    args: KITTY_ANIMATE,
    env: KITTY_ENV,
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'progressive JPEG 5000x5000 of 150 KB with 255 empty DC refinement scans',
    file: () => write('empty-dc.jpg', jpegEmptyRefinements('dc'))(),
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'grey progressive JPEG 5000x5000 of 146 KB with 254 empty AC refinement scans',
    file: () => write('empty-ac.jpg', jpegEmptyRefinements('ac'))(),
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'PNG 1x1 of 8.3 million empty IDAT chunks (100 MB)',
    file: () => write('many-idat.png', pngManyIdat(8_300_000))(),
    args: ['--max-bytes', '100M'],
    code: 0,
    line: null,
    maxRssMiB: 400,
  },
  {
    name: 'an https:// URL',
    file: () => 'https://example.com/picture.png',
    code: 2,
    line: /^termsight does not fetch URLs; pipe one in: curl -s URL \| termsight show -$/,
    maxRssMiB: 120,
  },
];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'termsight-hostile-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(join(ROOT, 'dist/cli/main.js')))('hostile inputs through termsight show', () => {
  // Rows that cannot pass on this branch yet are reported as skipped, with the reason.
  it.skip.each(rows.filter((row) => row.skip))('$name: $skip', () => {});

  it.each(rows.filter((row) => !row.skip))('$name', async (row) => {
    const file = row.file();
    let stdinFd: number | undefined;
    if (file === '-') stdinFd = openSync('/dev/zero', 'r');
    let outcome: Outcome;
    try {
      outcome = await showChild([...(row.args ?? []), file], stdinFd, row.env);
    } finally {
      if (stdinFd !== undefined) closeSync(stdinFd);
    }
    const lines = outcome.stderr.split('\n').filter(Boolean);
    expect({ code: outcome.code, lines: lines.length }).toEqual({ code: row.code, lines: row.line ? 1 : 0 });
    if (row.line) {
      const shown = file === '-' ? '(stdin)' : file;
      expect(lines[0]?.startsWith(`termsight: ${shown}: `)).toBe(true);
      expect(lines[0]?.slice(`termsight: ${shown}: `.length)).toMatch(row.line);
    }
    expect(outcome.rssMiB).toBeLessThan(row.maxRssMiB);
    expect(outcome.seconds).toBeLessThan(MAX_SECONDS);
  });

  it('a slow FIFO that never ends stops at the budget', async () => {
    const { path, writer } = slowFifo();
    try {
      const outcome = await showChild(['--max-bytes', '1M', path]);
      expect(outcome.code).toBe(2);
      expect(outcome.stderr).toBe(`termsight: ${path}: larger than the 1 MiB read limit (--max-bytes, up to 2 GiB)\n`);
      expect(outcome.rssMiB).toBeLessThan(120);
    } finally {
      writer.kill();
    }
  });

  it('a FIFO nobody writes: the first Ctrl-C (SIGINT) ends it, exit 130', async () => {
    const path = join(dir, 'silent.png');
    spawnSync('mkfifo', [path]);
    const child = spawn(process.execPath, [join(ROOT, 'dist/cli/main.js'), 'show', '--no-probe', path], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 2 * MAX_SECONDS * 1000);
    const exited = new Promise<number>((resolve) =>
      child.on('close', (code, signal) => resolve(shellStatus(code, signal))),
    );
    // Once the CLI is waiting in the FIFO's open (it has loaded and started reading).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const sent = performance.now();
    child.kill('SIGINT');
    const code = await exited;
    clearTimeout(killer);
    expect(code).toBe(130);
    expect((performance.now() - sent) / 1000).toBeLessThan(MAX_SECONDS / 2);
  });

  // Sparse files (truncate -s): gigabytes on the file system that cost no disk.
  const sparse = (name: string, bytes: number): string => {
    const path = join(dir, name);
    if (!existsSync(path)) {
      const fd = openSync(path, 'w');
      ftruncateSync(fd, bytes);
      closeSync(fd);
    }
    return path;
  };
  it.each([
    // Past 2 GiB Node aborted with a native assertion (3G on 2 GiB) or ended with "Invalid typed array length" (8G on 5 GiB).
    {
      name: '--max-bytes 3G on a 2 GiB file',
      size: 2 * GIB,
      args: ['--max-bytes', '3G'],
      stderr: /^termsight: --max-bytes takes a size from 1 byte to 2 GiB \(e\.g\. 1048576, 64M or 1G\), got "3G"\n$/,
    },
    {
      name: '--max-bytes 8G on a 5 GiB file',
      size: 5 * GIB,
      args: ['--max-bytes', '8G'],
      stderr: /^termsight: --max-bytes takes a size from 1 byte to 2 GiB .*got "8G"\n$/,
    },
    {
      name: '--max-bytes 2G on a 3 GiB file (refused unread)',
      size: 3 * GIB,
      args: ['--max-bytes', '2G'],
      stderr: /^termsight: .*big\.png: larger than the 2 GiB read limit \(--max-bytes, up to 2 GiB\)\n$/,
    },
    {
      name: 'a 5 GiB file with the default budget',
      size: 5 * GIB,
      args: [],
      stderr: /^termsight: .*big\.png: larger than the 64 MiB read limit \(--max-bytes, up to 2 GiB\)\n$/,
    },
  ])('$name: exit 2 and one line', async ({ size, args, stderr }) => {
    const outcome = await showChild([...args, sparse(`${size}-big.png`, size)]);
    expect(outcome.code).toBe(2);
    expect(outcome.stderr).toMatch(stderr);
    expect(outcome.rssMiB).toBeLessThan(120);
  });
});

/** Runs the built library's decodeImage (every frame, default limits) on `file` in a child. */
function decodeChild(
  file: string,
  maxSize?: string,
): Promise<{ outcome: Record<string, unknown>; rssMiB: number; seconds: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const script = join(ROOT, 'test/decode/support/decode-child.mjs');
    const child = spawn('sh', [...UNDER_SH, script, file, ...(maxSize ? [maxSize] : [])], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 2 * MAX_SECONDS * 1000);
    let stdout = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      stdout += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(killer);
      const outcome = JSON.parse(stdout || '{}') as Record<string, unknown>;
      resolve({ outcome, rssMiB: Number(outcome.rssKiB) / 1024, seconds: (performance.now() - started) / 1000 });
    });
  });
}

describe.skipIf(!existsSync(join(ROOT, 'dist/decode/index.js')))(
  'hostile inputs through decodeImage (every frame)',
  () => {
    // Before: 2.5 GB and 16 s for the 100 MB GIF, 609 MB for the APNG, 6.8 s for the DC scans (issue 25).
    it.each([
      { name: 'GIF of 6.6 million 1x1 frames (100 MB)', make: () => gifTinyFrames(6_600_000, 1), frames: 10_000 },
      { name: 'GIF of 5.5 million 0x0 frames (66 MB)', make: () => gifTinyFrames(5_500_000, 0), frames: 10_000 },
      { name: 'APNG of 600,000 1x1 frames (40 MB)', make: () => apngTinyFrames(600_000), frames: 10_000 },
      // Drawn in a box, as show and the Ink component decode (the full 25 MP decode is honest work).
      {
        name: 'JPEG with 255 empty DC refinement scans, 1000x1000 box',
        make: () => jpegEmptyRefinements('dc'),
        frames: 1,
        box: '1000x1000',
      },
      {
        name: 'JPEG with 254 empty AC refinement scans, 1000x1000 box',
        make: () => jpegEmptyRefinements('ac'),
        frames: 1,
        box: '1000x1000',
      },
      { name: 'JPEG with 255 empty DC refinement scans, full size', make: () => jpegEmptyRefinements('dc'), frames: 1 },
      { name: 'PNG of 8.3 million empty IDAT chunks', make: () => pngManyIdat(8_300_000), frames: 1 },
    ] as { name: string; make: () => Uint8Array; frames: number; box?: string }[])(
      '$name: $frames frames kept, within the bounds',
      async ({ name, make, frames, box }) => {
        const file = join(dir, `lib-${name.replace(/\W+/g, '-')}`);
        if (!existsSync(file)) writeFileSync(file, make());
        const { outcome, rssMiB, seconds } = await decodeChild(file, box);
        expect(outcome).toMatchObject({ ok: true, frames });
        expect(rssMiB).toBeLessThan(400);
        expect(seconds).toBeLessThan(MAX_SECONDS);
      },
    );
  },
);
