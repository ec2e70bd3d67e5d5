/**
 * Pictures through GNU screen (issue 15): the probe asks the outer terminal in screen's DCS packets
 * and the report draws what that terminal proves it draws — sixel (DA1 lists 4), kitty only with
 * Unicode placeholders (kitty 0.28+), iTerm2 — and text when nothing came back through screen.
 * Each row runs the pure probe against a scripted screen: it answers DA2 and DA1 itself, at once,
 * and hands the body of each of its packets to a scripted outer terminal, whose replies follow.
 * screen's answers are the recorded ones (test/fixtures/replies/xterm+screen.json); the outer
 * terminals' are recorded replies (test/fixtures/replies/, test/fixtures/screen/), and the whole
 * exchange is pinned against a real screen 4.09 in xterm as a VT340 (test/fixtures/screen/).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { QUERIES } from '../../src/probe/query.js';
import { createProbe, probeResult, stepProbe } from '../../src/probe/reducer.js';
import { flow } from '../../src/render/frame.js';
import { resolveReport } from '../../src/report/resolve.js';

/** Replies by query, as the recordings have them. */
type Terminal = Readonly<Partial<Record<keyof typeof QUERIES, string>>>;

/** screen 4.09's own answers (test/fixtures/replies/xterm+screen.json). */
const SCREEN_OWN: Terminal = { da2: '\x1b[>83;40900;0c', da1: '\x1b[?1;2c' };

/** xterm 379 as a VT340, as it answered through a real screen 4.09 (xterm-vt340+screen-4.09-probe.json). */
const XTERM_VT340: Terminal = {
  xtversion: '\x1bP>|XTerm(379)\x1b\\',
  da2: '\x1b[>19;379;0c',
  synchronizedOutput: '\x1b[?2026;0$y',
  sixelColors: '\x1b[?1;0;256S',
  background: '\x1b]11;rgb:ffff/ffff/ffff\x1b\\',
  da1: '\x1b[?63;1;2;4;6;9;15;16;22;28c',
};
/** The same xterm without the VT340 terminal id: no 4 in DA1 (test/fixtures/replies/xterm.json). */
const { sixelColors: _registers, ...XTERM_TEXT } = XTERM_VT340;
const XTERM: Terminal = { ...XTERM_TEXT, da1: '\x1b[?64;1;2;6;9;15;16;17;18;21;22;28c' };
/** kitty 0.26.5 (test/fixtures/replies/kitty.json): before Unicode placeholders. */
const KITTY_026: Terminal = {
  xtversion: '\x1bP>|kitty(0.26.5)\x1b\\',
  da2: '\x1b[>1;4000;26c',
  kittyGraphics: '\x1b_Gi=31;OK\x1b\\',
  cellPixels: '\x1b[6;19;10t',
  windowPixels: '\x1b[4;456;800t',
  windowCells: '\x1b[8;24;80t',
  synchronizedOutput: '\x1b[?2026;2$y',
  background: '\x1b]11;rgb:0000/0000/0000\x1b\\',
  da1: '\x1b[?62;c',
};
/** kitty 0.41.1 (Debian 13's; its XTVERSION name as tmux 3.5a reports it, test/probe/tmux-formats.test.ts): placeholders since 0.28. */
const KITTY_041: Terminal = { ...KITTY_026, xtversion: '\x1bP>|kitty(0.41.1)\x1b\\' };
/** iTerm2 3.5 (test/fixtures/replies/README.md: XTVERSION `iTerm2 3.5.0`). */
const ITERM2: Terminal = { xtversion: '\x1bP>|iTerm2 3.5.0\x1b\\', da1: '\x1b[?62;4c' };
/** A terminal no database row knows: only DA1 (VT420 level, sixel) and its background. */
const UNKNOWN: Terminal = { da1: '\x1b[?64;4c', background: '\x1b]11;rgb:0000/0000/0000\x1b\\' };
/** An outer terminal that answers nothing screen passes on (or a screen that passes nothing). */
const SILENT: Terminal = {};

const NAMES = Object.keys(QUERIES) as (keyof typeof QUERIES)[];

/** The queries in a stream, in order (each one of QUERIES, as the probe writes them). */
function queriesIn(stream: string): (keyof typeof QUERIES)[] {
  const found: (keyof typeof QUERIES)[] = [];
  for (let at = 0; at < stream.length; ) {
    const name = NAMES.find((n) => stream.startsWith(QUERIES[n], at));
    if (!name) throw new Error(`not a query at ${at}: ${escapeBytes(stream.slice(at))}`);
    found.push(name);
    at += QUERIES[name].length;
  }
  return found;
}

/**
 * A scripted screen in front of `outer`: what the probe writes outside packets screen answers
 * itself (`SCREEN_OWN`), the packets' bodies, joined, go to `outer`; screen's answers come first.
 */
function screenIn(outer: Terminal) {
  return (written: string): string => {
    const bodies: string[] = [];
    const raw = written.replace(/\x1bP([\s\S]*?)\x1b\\/g, (_, body: string) => {
      bodies.push(body);
      return '';
    });
    const own = queriesIn(raw).map((q) => SCREEN_OWN[q] ?? '');
    const forwarded = queriesIn(bodies.join('')).map((q) => outer[q] ?? '');
    return own.join('') + forwarded.join('');
  };
}

function probe(runtime: Runtime, answer: (written: string) => string): { facts: ProbeFacts; writes: number } {
  let state = createProbe(runtime);
  let pending = '';
  let writes = 0;
  const run = (event: Parameters<typeof stepProbe>[1]) => {
    const [next, actions] = stepProbe(state, event);
    state = next;
    for (const action of actions) {
      if (action.type !== 'write') continue;
      writes++;
      pending += answer(Buffer.from(action.bytes).toString('latin1'));
    }
  };
  run({ type: 'start' });
  for (let now = 1; now < 5000 && probeResult(state) === null; now++) {
    const replies = pending;
    pending = '';
    if (replies !== '') run({ type: 'input', bytes: Buffer.from(replies, 'latin1') });
    run({ type: 'clock', nowMs: now });
  }
  return { facts: probeResult(state) as ProbeFacts, writes };
}

const tty = (env: Record<string, string>): Runtime => ({
  env,
  platform: 'linux',
  isTTY: { stdin: true, stdout: true },
});
const SCREEN_ENV = { TERM: 'screen', STY: '4242.pts-1.host' };

const ROWS = [
  {
    name: 'xterm as a VT340 (XTERM_VERSION): sixel, its DA1 through the packets lists 4',
    env: { ...SCREEN_ENV, XTERM_VERSION: 'XTerm(379)' },
    outer: XTERM_VT340,
    graphics: 'sixel',
    why: /^XTVERSION XTerm names xterm 379 .*DA1 lists 4.*through GNU screen 4\.09\.00's passthrough/,
    writes: 1,
  },
  {
    name: "plain xterm: no 4 in its DA1, so text (screen's own DA1 is not the terminal's)",
    env: { ...SCREEN_ENV, XTERM_VERSION: 'XTerm(379)' },
    outer: XTERM,
    graphics: 'text',
    why: /only when DA1 lists 4.*through GNU screen/,
    writes: 1,
  },
  {
    name: 'xterm as a VT340, nobody named (scrubbed variables, STY kept): its XTVERSION through the packets names it',
    env: SCREEN_ENV,
    outer: XTERM_VT340,
    graphics: 'sixel',
    why: /DA1 lists 4.*through GNU screen 4\.09\.00's passthrough/,
    writes: 1,
  },
  {
    name: 'kitty 0.41 (KITTY_WINDOW_ID inherited): kitty, with Unicode placeholders',
    env: { ...SCREEN_ENV, KITTY_WINDOW_ID: '1' },
    outer: KITTY_041,
    graphics: 'kitty',
    why: /kitty 0\.41\.1 .*draws kitty.*through GNU screen/,
    writes: 1,
  },
  {
    name: 'kitty 0.26 (before placeholders): text, and why says so',
    env: { ...SCREEN_ENV, KITTY_WINDOW_ID: '1' },
    outer: KITTY_026,
    graphics: 'text',
    why: /without Unicode placeholders, which kitty images need inside screen/,
    writes: 1,
  },
  {
    name: 'iTerm2 3.5 (LC_TERMINAL inherited): iTerm2 inline images',
    env: { ...SCREEN_ENV, LC_TERMINAL: 'iTerm2' },
    outer: ITERM2,
    graphics: 'iterm2',
    why: /iTerm2 .*draws iterm2.*through GNU screen/,
    writes: 1,
  },
  {
    name: 'a terminal no row knows, nobody named: its level-64 DA1 with 4 calls the guarded round (in packets); sixel',
    env: SCREEN_ENV,
    outer: UNKNOWN,
    graphics: 'sixel',
    why: /^the outer terminal lists sixel in DA1, through GNU screen 4\.09\.00's passthrough/,
    writes: 2,
  },
  {
    name: 'nothing comes back through the packets: text, why names screen passthrough',
    env: { ...SCREEN_ENV, XTERM_VERSION: 'XTerm(379)' },
    outer: SILENT,
    graphics: 'text',
    why: /GNU screen 4\.09\.00 passes pictures on only in its DCS packets, and the terminal outside it did not answer/,
    writes: 1,
  },
] as const;

describe('pictures through GNU screen, against a scripted screen and outer terminal', () => {
  it.each(ROWS)('$name', ({ env, outer, graphics, why, writes }) => {
    const runtime = tty(env);
    const result = probe(runtime, screenIn(outer));
    expect(result.writes).toBe(writes);
    const report = resolveReport(runtime, result.facts);
    if (graphics === 'text') expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
    else expect(report.graphics).toBe(graphics);
    expect(report.why.graphics.detail).toMatch(why);
    expect(report.multiplexer).toMatchObject({ name: 'screen', passthrough: outer !== SILENT });
  });

  it('the probe writes nothing raw but the DA2 and DA1 screen answers itself', () => {
    const seen: string[] = [];
    probe(tty(SCREEN_ENV), (written) => {
      seen.push(written.replace(/\x1bP[\s\S]*?\x1b\\/g, ''));
      return screenIn(UNKNOWN)(written);
    });
    // The first round and the guarded one (the kitty query and DECRQM, in packets).
    expect(seen).toEqual(['\x1b[>c\x1b[c', '']);
  });

  it("a DA1 with 4 before screen's own DA1 would be screen's: it does not make the outer terminal sixel", () => {
    // screen answering DA1 with 4 itself (a build claiming sixel) and a plain xterm outside.
    const facts = factsFromReplies(`\x1b[>83;40900;0c\x1b[?1;2;4c${XTERM.xtversion}${XTERM.da1}`, {
      multiplexer: 'screen',
      wrapped: true,
    });
    const report = resolveReport(tty({ ...SCREEN_ENV, XTERM_VERSION: 'XTerm(379)' }), facts);
    expect(facts.da1?.reply).toBe(escapeBytes(XTERM.da1 ?? ''));
    expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
  });
});

describe('the picture through a real screen 4.09 in xterm as a VT340 (recorded)', () => {
  const FILE = path.resolve(
    path.dirname(fileURLToPath(import.meta.url)),
    '..',
    'fixtures',
    'screen',
    'xterm-vt340+screen-4.09-probe.json',
  );
  const REC = JSON.parse(readFileSync(FILE, 'utf8')) as { readonly sent: string; readonly replies: string };
  const runtime = tty({ ...SCREEN_ENV, XTERM_VERSION: 'XTerm(379)' });

  it('the probe sends exactly what was sent to the real screen', () => {
    let state = createProbe(runtime);
    const [next, actions] = stepProbe(state, { type: 'start' });
    state = next;
    const write = actions.find((a) => a.type === 'write');
    expect(write && Buffer.from(write.bytes).toString('latin1')).toBe(REC.sent);
  });

  it('its replies give sixel with 256 registers, the terminal named XTerm 379, passthrough proven', () => {
    const result = probe(runtime, () => REC.replies);
    expect(result.facts).toMatchObject({ passthrough: true, terminal: { name: 'XTerm', version: '379' } });
    const report = resolveReport(runtime, result.facts);
    expect(report).toMatchObject({
      graphics: 'sixel',
      sixelColors: 256,
      multiplexer: { name: 'screen', version: '4.09.00', passthrough: true },
      truecolor: false,
    });
  });

  it('the picture goes in packets under 768 bytes, with the outer cursor saved and restored inside them', () => {
    const report = resolveReport(runtime, probe(runtime, () => REC.replies).facts);
    const options = renderOptionsOf(
      planDrawing(report, { protocol: 'sixel', columns: 20, rows: 10, env: runtime.env, wrapUnproven: true }),
    );
    expect(options.wrap).toBe('screen');
    const raster = { width: 64, height: 64, data: new Uint8Array(64 * 64 * 4).fill(200) };
    const { output } = flow(raster, 'sixel', options);
    const packets = output.match(/\x1bP[\s\S]*?\x1b\\/g) ?? [];
    expect(packets.length).toBeGreaterThan(2);
    for (const packet of packets) expect(packet.length).toBeLessThan(768);
    const bodies = packets.map((p) => p.slice(2, -2)).join('');
    expect(bodies.startsWith('\x1b7\x1bP')).toBe(true); // DECSC for the outer terminal, then the sixel
    expect(bodies.endsWith('\x1b\\\x1b8')).toBe(true); // the sixel's ST, then DECRC
    // Outside the packets: only cursor moves screen carries out itself, no sixel data.
    expect(output.replace(/\x1bP[\s\S]*?\x1b\\/g, '')).not.toMatch(/[#~]/);
  });
});
