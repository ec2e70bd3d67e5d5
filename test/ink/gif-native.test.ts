/**
 * `<Image>` with a GIF the terminal plays itself (the CLI's `nativeAnimation`), in
 * ink-testing-library: kitty gets one upload (`a=T`, `a=f` frames with their delays, `a=a` with
 * the loop count) at the Box's cell and no per-frame redraw, deleted by id on unmount, each
 * placing deleting the id first (so a move uploads it again); iTerm2 gets the GIF file itself; a terminal without kitty animation on
 * record still gets its frames redrawn.
 */
import { Box, Text } from 'ink';
import { cleanup, render } from 'ink-testing-library';
import { createElement as h } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Image, TerminalProvider } from '../../src/ink/index.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { parseIterm2 } from '../render/terminal-decoders.js';
import { makeGif } from '../support/gif.js';
import { kittyAnimationSummary } from '../support/kitty-animation-apcs.js';

afterEach(() => cleanup());

const written = (frames: readonly (string | Uint8Array)[]) =>
  frames.map((f) => (typeof f === 'string' ? f : Buffer.from(f).toString('latin1'))).join('');
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const KITTY = resolveReport({ env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }, isTTY: { stdout: true } });
const ITERM2 = resolveReport({
  env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
  isTTY: { stdout: true },
});
/** kitty's protocol, but a terminal (plain xterm's row) with no kitty animation on record. */
const KITTY_NO_ANIMATION: Report = {
  ...resolveReport({ env: { TERM: 'xterm-256color' }, isTTY: { stdout: true } }),
  graphics: 'kitty',
  placements: true,
};

function app(src: Uint8Array, report: Report, above = 'above') {
  return h(
    TerminalProvider,
    { report, follow: false },
    h(
      Box,
      { flexDirection: 'column' },
      h(Text, null, above),
      h(Image, { src, width: 4, height: 2 }),
      h(Text, null, 'below'),
    ),
  );
}

describe('GIFs the terminal plays itself in <Image>', () => {
  const KITTY_ROWS = [
    {
      name: 'three frames, loop 2 (3 plays: v=4)',
      gif: makeGif(8, 8, 3, { loop: 2, delayCs: 5 }),
      delays: [50, 50, 50],
      loop: 4,
    },
    {
      name: 'two frames, loop 0 (forever: v=1)',
      gif: makeGif(8, 8, 2, { loop: 0, delayCs: 4 }),
      delays: [40, 40],
      loop: 1,
    },
  ];
  it.each(KITTY_ROWS)(
    'kitty: one upload with its frames, delays and loop count, no redraw, deleted by id on unmount: $name',
    async (row) => {
      const { stdout, unmount } = render(app(row.gif, KITTY));
      await vi.waitFor(() => expect(kittyAnimationSummary(written(stdout.frames)).roots).toBe(1));
      // Several frames' delays pass: a redraw loop would upload or place again.
      await settle(300);
      const summary = kittyAnimationSummary(written(stdout.frames));
      expect(summary).toMatchObject({ roots: 1, delays: row.delays, loop: row.loop });
      expect(written(stdout.frames)).not.toMatch(/\x1b_Ga=[tp],/);
      const id = summary.ids[0];
      unmount();
      expect(kittyAnimationSummary(written(stdout.frames)).deleted.at(-1)).toBe(id);
    },
  );

  it('iTerm2: the GIF file itself', async () => {
    const gif = makeGif(8, 8, 3, { loop: 0, delayCs: 5 });
    const { stdout } = render(app(gif, ITERM2));
    await vi.waitFor(() => expect(parseIterm2(written(stdout.frames)).length).toBeGreaterThan(0));
    const files = parseIterm2(written(stdout.frames)).filter((o) => o.kind === 'File');
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(Buffer.from(file.payload, 'base64').equals(Buffer.from(gif))).toBe(true);
  });

  it('kitty without animation on record: frames redrawn, never an animation', async () => {
    const { stdout } = render(app(makeGif(8, 8, 2, { loop: 0, delayCs: 4 }), KITTY_NO_ANIMATION));
    // Two different frames uploaded (a=t) means the redraw loop runs.
    await vi.waitFor(() => expect(written(stdout.frames).match(/\x1b_Ga=t,/g)?.length ?? 0).toBeGreaterThan(2));
    const summary = kittyAnimationSummary(written(stdout.frames));
    expect(summary.roots).toBe(0);
    expect(summary.loop).toBeNull();
  });
});
