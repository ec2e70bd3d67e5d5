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
    shortLived: true,
  }),
  'show --animate': (env) => ({ env, columns: 40, animate: true, wrapUnproven: true, shortLived: true }),
  'not a terminal': (env) => ({ env, columns: 40, terminal: false }),
  'not a terminal, NO_COLOR': (env) => ({ env: { ...env, NO_COLOR: '1' }, columns: 40, terminal: false }),
  'show --protocol kitty': (env) => ({ env, protocol: 'kitty', columns: 40, wrapUnproven: true, shortLived: true }),
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

/** Each recording under each request: every decision of its plan (`decisions`). */
const TABLE: ReadonlyArray<{ name: string; recording: string; request: string; plan: string }> = [
  {
    name: 'kitty+screen.json, library',
    recording: 'kitty+screen.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, show',
    recording: 'kitty+screen.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, show --animate',
    recording: 'kitty+screen.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, not a terminal',
    recording: 'kitty+screen.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, not a terminal, NO_COLOR',
    recording: 'kitty+screen.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, show --protocol kitty',
    recording: 'kitty+screen.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=screen 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'kitty+screen.json, sixel asked for',
    recording: 'kitty+screen.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,wholeBands=true,background=0+0+0',
  },
  {
    name: 'kitty+screen.json, terminal-image',
    recording: 'kitty+screen.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, library',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, show',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, show --animate',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor sync anim=redraw cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, not a terminal',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, not a terminal, NO_COLOR',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, show --protocol kitty',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux truecolor sync anim=- cell=10x19 placements=false,placeholders=true,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, sixel asked for',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=tmux truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,wholeBands=true,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped-all.json, terminal-image',
    recording: 'kitty+tmux-pt-wrapped-all.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, library',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, show',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, show --animate',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor sync anim=redraw cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, not a terminal',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, not a terminal, NO_COLOR',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, show --protocol kitty',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux truecolor sync anim=- cell=10x19 placements=false,placeholders=true,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, sixel asked for',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=tmux truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,wholeBands=true,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt-wrapped.json, terminal-image',
    recording: 'kitty+tmux-pt-wrapped.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,background=0+0+0',
  },
  {
    name: 'kitty+tmux-pt.json, library',
    recording: 'kitty+tmux-pt.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, show',
    recording: 'kitty+tmux-pt.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, show --animate',
    recording: 'kitty+tmux-pt.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, not a terminal',
    recording: 'kitty+tmux-pt.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, not a terminal, NO_COLOR',
    recording: 'kitty+tmux-pt.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, show --protocol kitty',
    recording: 'kitty+tmux-pt.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty+tmux-pt.json, sixel asked for',
    recording: 'kitty+tmux-pt.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,wholeBands=true,background=-',
  },
  {
    name: 'kitty+tmux-pt.json, terminal-image',
    recording: 'kitty+tmux-pt.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, library',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, show',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, show --animate',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, not a terminal',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, not a terminal, NO_COLOR',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, show --protocol kitty',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, sixel asked for',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,wholeBands=true,background=-',
  },
  {
    name: 'kitty+tmux-wrapped-all.json, terminal-image',
    recording: 'kitty+tmux-wrapped-all.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  },
  {
    name: 'kitty+tmux.json, library',
    recording: 'kitty+tmux.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux.json, show',
    recording: 'kitty+tmux.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux.json, show --animate',
    recording: 'kitty+tmux.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux.json, not a terminal',
    recording: 'kitty+tmux.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux.json, not a terminal, NO_COLOR',
    recording: 'kitty+tmux.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'kitty+tmux.json, show --protocol kitty',
    recording: 'kitty+tmux.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux truecolor nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty+tmux.json, sixel asked for',
    recording: 'kitty+tmux.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor nosync anim=- cell=- colors=-,transparency=false,wholeCells=false,wholeBands=true,background=-',
  },
  {
    name: 'kitty+tmux.json, terminal-image',
    recording: 'kitty+tmux.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor nosync anim=- cell=- colorDepth=truecolor,background=-',
  },
  {
    name: 'kitty-scrubbed.json, library',
    recording: 'kitty-scrubbed.json',
    request: 'library',
    plan: 'kitty 40x12 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty-scrubbed.json, show',
    recording: 'kitty-scrubbed.json',
    request: 'show',
    plan: 'kitty 100x28 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty-scrubbed.json, show --animate',
    recording: 'kitty-scrubbed.json',
    request: 'show --animate',
    plan: 'kitty 40x- wrap=- truecolor sync anim=kitty cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty-scrubbed.json, not a terminal',
    recording: 'kitty-scrubbed.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty-scrubbed.json, not a terminal, NO_COLOR',
    recording: 'kitty-scrubbed.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty-scrubbed.json, show --protocol kitty',
    recording: 'kitty-scrubbed.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty-scrubbed.json, sixel asked for',
    recording: 'kitty-scrubbed.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,wholeBands=true,background=0+0+0',
  },
  {
    name: 'kitty-scrubbed.json, terminal-image',
    recording: 'kitty-scrubbed.json',
    request: 'terminal-image',
    plan: 'kitty 30x10+ wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty.json, library',
    recording: 'kitty.json',
    request: 'library',
    plan: 'kitty 40x12 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty.json, show',
    recording: 'kitty.json',
    request: 'show',
    plan: 'kitty 100x28 wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty.json, show --animate',
    recording: 'kitty.json',
    request: 'show --animate',
    plan: 'kitty 40x- wrap=- truecolor sync anim=kitty cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty.json, not a terminal',
    recording: 'kitty.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=10x19 colorDepth=truecolor,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty.json, not a terminal, NO_COLOR',
    recording: 'kitty.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=10x19 colorDepth=none,symbols=block+sextant,background=0+0+0',
  },
  {
    name: 'kitty.json, show --protocol kitty',
    recording: 'kitty.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'kitty.json, sixel asked for',
    recording: 'kitty.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor sync anim=- cell=10x19 colors=-,transparency=false,wholeCells=false,wholeBands=true,background=0+0+0',
  },
  {
    name: 'kitty.json, terminal-image',
    recording: 'kitty.json',
    request: 'terminal-image',
    plan: 'kitty 30x10+ wrap=- truecolor sync anim=- cell=10x19 placements=true,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'xterm+screen.json, library',
    recording: 'xterm+screen.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, show',
    recording: 'xterm+screen.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, show --animate',
    recording: 'xterm+screen.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, not a terminal',
    recording: 'xterm+screen.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, not a terminal, NO_COLOR',
    recording: 'xterm+screen.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, show --protocol kitty',
    recording: 'xterm+screen.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=screen 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm+screen.json, sixel asked for',
    recording: 'xterm+screen.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm+screen.json, terminal-image',
    recording: 'xterm+screen.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  },
  {
    name: 'xterm+tmux-pt.json, library',
    recording: 'xterm+tmux-pt.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, show',
    recording: 'xterm+tmux-pt.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, show --animate',
    recording: 'xterm+tmux-pt.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, not a terminal',
    recording: 'xterm+tmux-pt.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, not a terminal, NO_COLOR',
    recording: 'xterm+tmux-pt.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, show --protocol kitty',
    recording: 'xterm+tmux-pt.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm+tmux-pt.json, sixel asked for',
    recording: 'xterm+tmux-pt.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=false,background=-',
  },
  {
    name: 'xterm+tmux-pt.json, terminal-image',
    recording: 'xterm+tmux-pt.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=-',
  },
  {
    name: 'xterm+tmux.json, library',
    recording: 'xterm+tmux.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux.json, show',
    recording: 'xterm+tmux.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux.json, show --animate',
    recording: 'xterm+tmux.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux.json, not a terminal',
    recording: 'xterm+tmux.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux.json, not a terminal, NO_COLOR',
    recording: 'xterm+tmux.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'xterm+tmux.json, show --protocol kitty',
    recording: 'xterm+tmux.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=tmux 256 nosync anim=- cell=- placements=false,placeholders=true,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm+tmux.json, sixel asked for',
    recording: 'xterm+tmux.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=false,background=-',
  },
  {
    name: 'xterm+tmux.json, terminal-image',
    recording: 'xterm+tmux.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=-',
  },
  {
    name: 'xterm-headless.json, library',
    recording: 'xterm-headless.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'xterm-headless.json, show',
    recording: 'xterm-headless.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'xterm-headless.json, show --animate',
    recording: 'xterm-headless.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor sync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'xterm-headless.json, not a terminal',
    recording: 'xterm-headless.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=-',
  },
  {
    name: 'xterm-headless.json, not a terminal, NO_COLOR',
    recording: 'xterm-headless.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=- colorDepth=none,symbols=block,background=-',
  },
  {
    name: 'xterm-headless.json, show --protocol kitty',
    recording: 'xterm-headless.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- truecolor sync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'xterm-headless.json, sixel asked for',
    recording: 'xterm-headless.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor sync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=true,background=-',
  },
  {
    name: 'xterm-headless.json, terminal-image',
    recording: 'xterm-headless.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,background=-',
  },
  {
    name: 'xterm-scrubbed.json, library',
    recording: 'xterm-scrubbed.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, show',
    recording: 'xterm-scrubbed.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, show --animate',
    recording: 'xterm-scrubbed.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, not a terminal',
    recording: 'xterm-scrubbed.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, not a terminal, NO_COLOR',
    recording: 'xterm-scrubbed.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, show --protocol kitty',
    recording: 'xterm-scrubbed.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm-scrubbed.json, sixel asked for',
    recording: 'xterm-scrubbed.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm-scrubbed.json, terminal-image',
    recording: 'xterm-scrubbed.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, library',
    recording: 'xterm-vt340.json',
    request: 'library',
    plan: 'sixel 40x12 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, show',
    recording: 'xterm-vt340.json',
    request: 'show',
    plan: 'sixel 100x28 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, show --animate',
    recording: 'xterm-vt340.json',
    request: 'show --animate',
    plan: 'sixel 40x- wrap=- 256 nosync anim=redraw cell=- colors=256,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, not a terminal',
    recording: 'xterm-vt340.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, not a terminal, NO_COLOR',
    recording: 'xterm-vt340.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, show --protocol kitty',
    recording: 'xterm-vt340.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm-vt340.json, sixel asked for',
    recording: 'xterm-vt340.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm-vt340.json, terminal-image',
    recording: 'xterm-vt340.json',
    request: 'terminal-image',
    plan: 'sixel 30x10+ wrap=- 256 nosync anim=- cell=- colors=256,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm.json, library',
    recording: 'xterm.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm.json, show',
    recording: 'xterm.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm.json, show --animate',
    recording: 'xterm.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- 256 nosync anim=redraw cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm.json, not a terminal',
    recording: 'xterm.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- 256 nosync anim=- cell=- colorDepth=256,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm.json, not a terminal, NO_COLOR',
    recording: 'xterm.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none nosync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xterm.json, show --protocol kitty',
    recording: 'xterm.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- 256 nosync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=256,shortLived=false',
  },
  {
    name: 'xterm.json, sixel asked for',
    recording: 'xterm.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- 256 nosync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=false,background=255+255+255',
  },
  {
    name: 'xterm.json, terminal-image',
    recording: 'xterm.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- 256 nosync anim=- cell=- colorDepth=256,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, library',
    recording: 'xtermjs-image.json',
    request: 'library',
    plan: 'sixel 40x12 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, show',
    recording: 'xtermjs-image.json',
    request: 'show',
    plan: 'sixel 100x28 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, show --animate',
    recording: 'xtermjs-image.json',
    request: 'show --animate',
    plan: 'sixel 40x- wrap=- truecolor sync anim=redraw cell=8x15 colors=256,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, not a terminal',
    recording: 'xtermjs-image.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=8x15 colorDepth=truecolor,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, not a terminal, NO_COLOR',
    recording: 'xtermjs-image.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=8x15 colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, show --protocol kitty',
    recording: 'xtermjs-image.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- truecolor sync anim=- cell=8x15 placements=false,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'xtermjs-image.json, sixel asked for',
    recording: 'xtermjs-image.json',
    request: 'sixel asked for',
    plan: 'sixel 40x13 wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs-image.json, terminal-image',
    recording: 'xtermjs-image.json',
    request: 'terminal-image',
    plan: 'sixel 30x10+ wrap=- truecolor sync anim=- cell=8x15 colors=256,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs.json, library',
    recording: 'xtermjs.json',
    request: 'library',
    plan: 'symbols 40x12 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs.json, show',
    recording: 'xtermjs.json',
    request: 'show',
    plan: 'symbols 100x28 wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs.json, show --animate',
    recording: 'xtermjs.json',
    request: 'show --animate',
    plan: 'symbols 40x- wrap=- truecolor sync anim=redraw cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs.json, not a terminal',
    recording: 'xtermjs.json',
    request: 'not a terminal',
    plan: 'symbols 40x- wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs.json, not a terminal, NO_COLOR',
    recording: 'xtermjs.json',
    request: 'not a terminal, NO_COLOR',
    plan: 'symbols 40x- wrap=- none sync anim=- cell=- colorDepth=none,symbols=block,background=255+255+255',
  },
  {
    name: 'xtermjs.json, show --protocol kitty',
    recording: 'xtermjs.json',
    request: 'show --protocol kitty',
    plan: 'kitty 40x- wrap=- truecolor sync anim=- cell=- placements=false,placeholders=false,byFile=false,placeholderColors=truecolor,shortLived=false',
  },
  {
    name: 'xtermjs.json, sixel asked for',
    recording: 'xtermjs.json',
    request: 'sixel asked for',
    plan: 'sixel 40x10 wrap=- truecolor sync anim=- cell=- colors=-,transparency=true,wholeCells=false,wholeBands=true,background=255+255+255',
  },
  {
    name: 'xtermjs.json, terminal-image',
    recording: 'xtermjs.json',
    request: 'terminal-image',
    plan: 'blocks 30x10+ wrap=- truecolor sync anim=- cell=- colorDepth=truecolor,background=255+255+255',
  },
];

describe('the plan for each recorded terminal and request', () => {
  it('covers every recording and every request', () => {
    const files = new Set(loadFixtures().map((f) => f.file));
    expect(new Set(TABLE.map((r) => r.recording))).toEqual(files);
    for (const file of files)
      expect(TABLE.filter((r) => r.recording === file).map((r) => r.request)).toEqual(Object.keys(REQUESTS));
  });
  it.each(TABLE)('$name', ({ recording, request, plan: expected }) => {
    const { report, env } = recordedReport(recording);
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

/**
 * kitty's short-lived hint (`N=1`) is decided by two facts: the caller never places the picture
 * again (`show`: yes; the library, Ink: no) and the terminal takes the hint (the database's
 * `shortLivedHint`: kitty from 0.48.0, Ghostty after 1.3.1). No recording here has it (kitty
 * 0.26.5), so these reports are resolved from replies built from the database rows' XTVERSION
 * (marked as such), at versions either side of each row's gate.
 */
describe("the short-lived hint (N=1): the caller's lifetime and the terminal's row", () => {
  const rowBuilt = (xtversion: string): Report =>
    resolveReport(
      { env: { TERM: 'xterm-256color' }, isTTY: { stdin: true, stdout: true } },
      factsFromReplies(`\x1bP>|${xtversion}\x1b\\\x1b_Gi=31;OK\x1b\\\x1b[?62;22c`, { multiplexer: null }),
    );
  const CASES: ReadonlyArray<{ name: string; xtversion: string; request: string; hint: boolean; shortLived: boolean }> =
    (
      [
        { xtversion: 'kitty(0.48.0)', request: 'show', hint: true, shortLived: true },
        { xtversion: 'kitty(0.48.0)', request: 'show --protocol kitty', hint: true, shortLived: true },
        { xtversion: 'kitty(0.48.0)', request: 'library', hint: true, shortLived: false },
        { xtversion: 'kitty(0.48.0)', request: 'terminal-image', hint: true, shortLived: false },
        { xtversion: 'kitty(0.47.1)', request: 'show', hint: false, shortLived: false },
        { xtversion: 'kitty(0.46.2)', request: 'show --animate', hint: false, shortLived: false },
        { xtversion: 'ghostty 1.4.0', request: 'show', hint: true, shortLived: true },
        { xtversion: 'ghostty 1.4.0', request: 'library', hint: true, shortLived: false },
        { xtversion: 'ghostty 1.3.1', request: 'show', hint: false, shortLived: false },
      ] as const
    ).map((c) => ({ ...c, name: `${c.xtversion}, ${c.request}: N=1 ${c.shortLived ? 'set' : 'not set'}` }));
  it.each(CASES)('$name', ({ xtversion, request, hint, shortLived }) => {
    const report = rowBuilt(xtversion);
    expect(report.graphics).toBe('kitty');
    expect(report.shortLivedHint).toBe(hint);
    expect(report.why.shortLivedHint.reference).toMatch(/kitty|ghostty/);
    const plan = planDrawing(report, (REQUESTS[request] as (env: Record<string, string>) => DrawRequest)({}));
    expect(plan.encoder).toMatchObject({ protocol: 'kitty', shortLived });
    expect(renderOptionsOf(plan).kittyShortLived ?? false).toBe(shortLived);
    expect(plan.why.encoder.detail).toContain(shortLived ? 'short-lived (N=1' : 'not marked short-lived');
  });
  it('a report built before the field existed (no shortLivedHint) never marks a picture short-lived', () => {
    const { shortLivedHint: _, ...old } = rowBuilt('kitty(0.48.0)');
    expect(planDrawing(old, { shortLived: true }).encoder).toMatchObject({ shortLived: false });
  });
});
