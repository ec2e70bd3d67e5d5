/**
 * The drawing plan for every recorded real terminal (test/fixtures/replies, with their provenance
 * in the README there) under the requests its callers make: the CLI (`show`), the library (Ink,
 * the front door), the terminal-image drop-in, off a terminal, with NO_COLOR, a protocol asked
 * for, an animation. Each row is every decision of the plan in one line, so flipping any decision
 * (protocol, wrap, colour depth, synchronized output, animation, the encoder's options, the box)
 * fails its rows. The reasons are checked to be present and escaped.
 */
import { describe, expect, it } from 'vitest';
import { explainPlan } from '../../src/draw/explain.js';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { DrawRequest, Plan } from '../../src/draw/types.js';
import { multiplexerFromEnv } from '../../src/env/multiplexer.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { loadFixtures } from '../probe/fixtures.js';

/** The requests, by name: what each caller asks. */
const REQUESTS: Readonly<Record<string, (env: Record<string, string>) => DrawRequest>> = {
  library: (env) => ({ env, columns: 40, rows: 12 }),
  show: (env) => ({
    env,
    defaultBox: 'screen',
    terminalSize: { columns: 100, rows: 30 },
    textTakesBox: true,
    wrapUnproven: true,
  }),
  'show --animate': (env) => ({ env, columns: 40, animate: true, wrapUnproven: true }),
  'not a terminal': (env) => ({ env, columns: 40, terminal: false }),
  'not a terminal, NO_COLOR': (env) => ({ env: { ...env, NO_COLOR: '1' }, columns: 40, terminal: false }),
  'show --protocol kitty': (env) => ({ env, protocol: 'kitty', columns: 40, wrapUnproven: true }),
  'sixel asked for': (env) => ({ env, protocol: 'sixel', columns: { percent: 50 }, rows: { pixels: 200 } }),
  'terminal-image': (env) => ({ env, columns: 30, rows: 10, upscale: true, textPicture: 'blocks' }),
};

/** Every decision of a plan in one line. */
function decisions(plan: Plan): string {
  const { protocol: _p, ...encoder } = plan.encoder;
  const enc = Object.entries(encoder)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v === null ? '-' : String(v)}`)
    .join(',');
  return [
    plan.protocol,
    `${plan.columns ?? '-'}x${plan.rows ?? '-'}${plan.upscale ? '+' : ''}`,
    `wrap=${plan.wrap ?? '-'}`,
    plan.colorDepth,
    plan.synchronizedOutput ? 'sync' : 'nosync',
    `anim=${plan.animation ?? '-'}`,
    `cell=${plan.cellPixels ? `${plan.cellPixels.width}x${plan.cellPixels.height}` : '-'}`,
    enc,
  ].join(' ');
}

/** The report `termsight detect` resolves from a recording (as test/report/fixtures.test.ts). */
function recordedReport(file: string): { report: Report; env: Record<string, string> } {
  const f = loadFixtures().find((x) => x.file === file);
  if (!f) throw new Error(`no recording ${file}`);
  const wrapped = file.includes('wrapped');
  const planned = multiplexerFromEnv(f.env)?.name ?? null;
  const facts = factsFromReplies(f.batch.reply + f.batch.late, {
    wrapped,
    multiplexer: planned,
    sentinel: f.batch.sentinel,
    timedOut: !f.batch.sentinel,
  });
  return { report: resolveReport({ env: f.env, isTTY: { stdin: true, stdout: true } }, facts), env: f.env };
}

// recording | request | every decision
const TABLE: ReadonlyArray<readonly [string, string, string]> = [
  [
    'kitty+screen.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'show --protocol kitty',
    'kitty 40x- wrap=screen 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256',
  ],
  [
    'kitty+screen.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,background=0+0+0',
  ],
  [
    'kitty+screen.json',
    'terminal-image',
    'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'library',
    'symbols 40x12 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'show',
    'symbols 100x28 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor sync anim=redraw cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux truecolor sync anim=- cell=10x19 placements=false,placeholders=true,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'sixel asked for',
    'sixel 40x10 wrap=tmux truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped-all.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'library',
    'symbols 40x12 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'show',
    'symbols 100x28 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor sync anim=redraw cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux truecolor sync anim=- cell=10x19 placements=false,placeholders=true,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'sixel asked for',
    'sixel 40x10 wrap=tmux truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,background=0+0+0',
  ],
  [
    'kitty+tmux-pt-wrapped.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,background=0+0+0',
  ],
  [
    'kitty+tmux-pt.json',
    'library',
    'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'show',
    'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty+tmux-pt.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,background=-',
  ],
  [
    'kitty+tmux-pt.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'library',
    'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'show',
    'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,background=-',
  ],
  [
    'kitty+tmux-wrapped-all.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  ],
  [
    'kitty+tmux.json',
    'library',
    'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux.json',
    'show',
    'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'kitty+tmux.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'kitty+tmux.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty+tmux.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,background=-',
  ],
  [
    'kitty+tmux.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  ],
  [
    'kitty-scrubbed.json',
    'library',
    'kitty 40x12 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty-scrubbed.json',
    'show',
    'kitty 100x28 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty-scrubbed.json',
    'show --animate',
    'kitty 40x- wrap=- truecolor sync anim=kitty cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty-scrubbed.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty-scrubbed.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty-scrubbed.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty-scrubbed.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,background=0+0+0',
  ],
  [
    'kitty-scrubbed.json',
    'terminal-image',
    'kitty 30x10+ wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty.json',
    'library',
    'kitty 40x12 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty.json',
    'show',
    'kitty 100x28 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty.json',
    'show --animate',
    'kitty 40x- wrap=- truecolor sync anim=kitty cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  ],
  [
    'kitty.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'kitty.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,background=0+0+0',
  ],
  [
    'kitty.json',
    'terminal-image',
    'kitty 30x10+ wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'xterm+screen.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'show --protocol kitty',
    'kitty 40x- wrap=screen 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256',
  ],
  [
    'xterm+screen.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm+screen.json',
    'terminal-image',
    'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  ],
  [
    'xterm+tmux-pt.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux-pt.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux-pt.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux-pt.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux-pt.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'xterm+tmux-pt.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256',
  ],
  [
    'xterm+tmux-pt.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=-',
  ],
  ['xterm+tmux-pt.json', 'terminal-image', 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=-'],
  [
    'xterm+tmux.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  ],
  [
    'xterm+tmux.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'xterm+tmux.json',
    'show --protocol kitty',
    'kitty 40x- wrap=tmux 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256',
  ],
  [
    'xterm+tmux.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=-',
  ],
  ['xterm+tmux.json', 'terminal-image', 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=-'],
  [
    'xterm-headless.json',
    'library',
    'symbols 40x12 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'xterm-headless.json',
    'show',
    'symbols 100x28 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'xterm-headless.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor sync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'xterm-headless.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  ],
  [
    'xterm-headless.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=- colorDepth=none,symbols=block,background=-',
  ],
  [
    'xterm-headless.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- truecolor sync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'xterm-headless.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor sync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=-',
  ],
  [
    'xterm-headless.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,background=-',
  ],
  [
    'xterm-scrubbed.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256',
  ],
  [
    'xterm-scrubbed.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm-scrubbed.json',
    'terminal-image',
    'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'library',
    'sixel 40x12 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'show',
    'sixel 100x28 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'show --animate',
    'sixel 40x- wrap=- 256 nosync anim=redraw cell=- colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256',
  ],
  [
    'xterm-vt340.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm-vt340.json',
    'terminal-image',
    'sixel 30x10+ wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm.json',
    'library',
    'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm.json',
    'show',
    'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm.json',
    'show --animate',
    'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm.json',
    'not a terminal',
    'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  ],
  [
    'xterm.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xterm.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256',
  ],
  [
    'xterm.json',
    'sixel asked for',
    'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xterm.json',
    'terminal-image',
    'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'library',
    'sixel 40x12 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'show',
    'sixel 100x28 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'show --animate',
    'sixel 40x- wrap=- truecolor sync anim=redraw cell=8x15 colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=8x15 colorDepth=truecolor,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=8x15 colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- truecolor sync anim=- cell=8x15 placements=false,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'xtermjs-image.json',
    'sixel asked for',
    'sixel 40x13 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs-image.json',
    'terminal-image',
    'sixel 30x10+ wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'library',
    'symbols 40x12 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'show',
    'symbols 100x28 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'show --animate',
    'symbols 40x- wrap=- truecolor sync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'not a terminal',
    'symbols 40x- wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'not a terminal, NO_COLOR',
    'symbols 40x- wrap=- none sync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'show --protocol kitty',
    'kitty 40x- wrap=- truecolor sync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=truecolor',
  ],
  [
    'xtermjs.json',
    'sixel asked for',
    'sixel 40x10 wrap=- truecolor sync anim=- cell=- colors=-,transparency=true,wholeCells=false,background=255+255+255',
  ],
  [
    'xtermjs.json',
    'terminal-image',
    'blocks 30x10+ wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,background=255+255+255',
  ],
];

describe('the plan for each recorded terminal and request', () => {
  it('covers every recording and every request', () => {
    const files = new Set(loadFixtures().map((f) => f.file));
    expect(new Set(TABLE.map((r) => r[0]))).toEqual(files);
    for (const file of files)
      expect(TABLE.filter((r) => r[0] === file).map((r) => r[1])).toEqual(Object.keys(REQUESTS));
  });
  it.each(TABLE)('%s, %s', (file, request, expected) => {
    const { report, env } = recordedReport(file);
    const plan = planDrawing(report, (REQUESTS[request] as (env: Record<string, string>) => DrawRequest)(env));
    expect(decisions(plan)).toBe(expected);
    // A reason for every decision, printable as it is: no control character reaches the terminal.
    for (const line of explainPlan(plan)) expect(line).not.toMatch(/[\x00-\x1f\x7f-\x9f]/);
    for (const why of Object.values(plan.why)) expect(why.detail.length).toBeGreaterThan(0);
    // The encoder's options are only its protocol's: braille and the other text pictures get no image id or wrap.
    const options = renderOptionsOf(plan);
    if (plan.protocol !== 'kitty') expect(options).not.toHaveProperty('placements');
    if (plan.protocol !== 'sixel') expect(options).not.toHaveProperty('sixelColors');
  });
});

export { decisions, REQUESTS, recordedReport };
