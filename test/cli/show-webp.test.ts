/**
 * WebP through the drawing paths that take any decoded picture: `termsight show` with each
 * protocol, `--animate` of an animated WebP (kitty's own animation where the terminal has it,
 * redrawn in place elsewhere), the terminal-image drop-in's `buffer`/`gifBuffer` and the Ink
 * `<Image>`'s source loader. The pixels themselves are test/decode/webp.test.ts's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MAX_LOOPS, runShowWith } from '../../src/cli/show.js';
import { createTerminalImage } from '../../src/compat/terminal-image.js';
import { loadSource } from '../../src/ink/source.js';
import { resolveReport } from '../../src/report/resolve.js';
import { context, report, scratchDir } from './show-support.js';

const DIR = join(import.meta.dirname, '..', 'fixtures', 'images', 'webp');
const still = join(DIR, 'lossless-alpha.webp');
const animated = join(DIR, 'anim-mux-1.webp'); // 7 frames, loop count 2

describe('show x.webp with each protocol', () => {
  const rows: { protocol: string; sequence: RegExp }[] = [
    { protocol: 'kitty', sequence: /\x1b_G[^\x1b]*a=[tT]/ },
    { protocol: 'iterm2', sequence: /\x1b\]1337;(File|MultipartFile)=/ },
    { protocol: 'sixel', sequence: /\x1bP[0-9;]*q"/ },
    { protocol: 'symbols', sequence: /\x1b\[[0-9;]*[34]8;2;/ },
    { protocol: 'braille', sequence: /[\u2801-\u28ff]/ },
  ];
  it.each(rows.map((row) => ({ name: row.protocol, ...row })))('$name', async ({ protocol, sequence }) => {
    const { ctx, stdout, stderr } = context();
    expect(await runShowWith([still, '--protocol', protocol], ctx, { report: report() })).toBe(0);
    expect(stderr.text).toBe('');
    expect(stdout.text).toMatch(sequence);
  });

  it('a broken WebP: one line naming the problem, exit 2', async () => {
    const { ctx, stderr } = context();
    const path = join(scratchDir(), 'cut.webp');
    writeFileSync(path, readFileSync(still).subarray(0, 200));
    expect(await runShowWith([path, '--protocol', 'sixel'], ctx, { report: report() })).toBe(2);
    expect(stderr.text).toMatch(
      /^termsight: .*cut\.webp: truncated WebP: the RIFF header declares \d+ bytes; the file has 200\n$/,
    );
  });
});

describe('show --animate x.webp', () => {
  it('sixel: every frame redrawn in place, loop after loop (as a GIF)', async () => {
    const { ctx, stdout } = context({ stdoutTTY: true });
    expect(await runShowWith([animated, '--animate', '--protocol', 'sixel'], ctx, { report: report() })).toBe(0);
    expect(stdout.text.match(/\x1bP[0-9;]*q"/g)).toHaveLength(7 * MAX_LOOPS);
  });

  it('kitty that animates: one upload of the frames, kitty plays them (a=f, a=a)', async () => {
    const { ctx, stdout } = context({ stdoutTTY: true });
    const r = report({ terminal: { name: 'kitty', version: '0.40.0' } });
    expect(await runShowWith([animated, '--animate', '--protocol', 'kitty'], ctx, { report: r })).toBe(0);
    expect(stdout.text.match(/\x1b_G[^;\x1b]*a=T/g)).toHaveLength(1);
    expect(stdout.text.match(/\x1b_G[^;\x1b]*a=f/g)).toHaveLength(6);
    expect(stdout.text).toMatch(/\x1b_G[^;\x1b]*a=a/);
  });

  it('without --animate: the first frame only', async () => {
    const { ctx, stdout } = context({ stdoutTTY: true });
    expect(await runShowWith([animated, '--protocol', 'sixel'], ctx, { report: report() })).toBe(0);
    expect(stdout.text.match(/\x1bP[0-9;]*q"/g)).toHaveLength(1);
  });
});

describe('the drop-ins take WebP through the same decode', () => {
  const sixel = {
    ...resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }),
    graphics: 'sixel' as const,
  };
  const ctx = { report: async () => sixel, size: () => ({ columns: 80, rows: 24 }), write: () => {} };

  it('terminal-image buffer(x.webp)', async () => {
    const out = await createTerminalImage(ctx).buffer(readFileSync(still), { width: 20 });
    expect(out.startsWith('\x1bP')).toBe(true);
  });

  it('terminal-image gifBuffer(animated webp): every frame, the file’s loop count', async () => {
    const frames: string[] = [];
    await new Promise<void>((done) => {
      const render = Object.assign((text: string) => frames.push(text), { done });
      createTerminalImage(ctx).gifBuffer(readFileSync(animated), {
        width: 16,
        maximumFrameRate: 1000,
        renderFrame: render,
      });
    });
    // Two plays of 7 frames (the frame-rate rule may drop none at 1000 a second).
    expect(frames.length).toBe(14);
  });

  it('Ink <Image> source: the frames and the loop count', () => {
    const loaded = loadSource(animated);
    expect('frames' in loaded && loaded.frames?.length).toBe(7);
    expect('loops' in loaded && loaded.loops).toBe(2);
    const one = loadSource(still);
    expect('raster' in one && one.raster.width).toBe(64);
  });
});
