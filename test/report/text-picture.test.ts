/**
 * The text picture: which picture where no pixel protocol is usable, as a truth table of colour
 * depth x pixel protocol usable x the terminal's glyph sets x what the user asked for; the glyph
 * sets the report takes from the terminal database; and the founding `detect()`, which keeps
 * answering braille.
 */
import { describe, expect, it } from 'vitest';
import { detect } from '../../src/env/detect.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Runtime } from '../../src/env/runtime.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { SYMBOL_SET_NAMES } from '../../src/render/text/symbols-glyphs.js';
import { resolveReport } from '../../src/report/resolve.js';
import {
  choosePicture,
  type PictureInput,
  type TextColor,
  terminalSymbolSets,
  textColor,
} from '../../src/report/text-picture.js';
import type { GlyphSet } from '../../src/terminals/types.js';

describe('choosePicture: the truth table', () => {
  const colours: readonly TextColor[] = ['none', '16', '256', 'truecolor'];
  const pixels: readonly (Protocol | null)[] = [null, 'kitty', 'sixel', 'iterm2'];
  const glyphSets: readonly (readonly GlyphSet[])[] = [[], ['blocks'], ['blocks', 'sextants'], ['blocks', 'octants']];
  const asks: readonly { asked?: Protocol; askedSymbols?: readonly string[] }[] = [
    {},
    { asked: 'braille' },
    { asked: 'blocks' },
    { asked: 'symbols' },
    { asked: 'kitty' },
    { askedSymbols: ['sextant'] },
  ];

  /** The rule, written once more in plain words, to hold the function to every combination. */
  function expected(input: PictureInput): { protocol: Protocol; symbols: readonly string[] } {
    const safe = input.terminalSymbols;
    const symbols = input.askedSymbols ?? safe;
    if (input.asked) return { protocol: input.asked, symbols };
    if (input.pixel) return { protocol: input.pixel, symbols };
    if (input.askedSymbols) return { protocol: 'symbols', symbols };
    if (input.colorDepth !== 'none') return { protocol: 'symbols', symbols };
    return { protocol: input.noBraille ? 'symbols' : 'braille', symbols };
  }

  const cases: PictureInput[] = [];
  for (const color of colours)
    for (const pixel of pixels)
      for (const glyphs of glyphSets)
        for (const ask of asks)
          for (const noBraille of [false, true])
            cases.push({ pixel, colorDepth: color, terminalSymbols: terminalSymbolSets(glyphs), noBraille, ...ask });

  it(`every one of the ${cases.length} combinations`, () => {
    for (const input of cases) {
      const choice = choosePicture(input);
      expect({ protocol: choice.protocol, symbols: choice.symbols }, JSON.stringify(input)).toEqual(expected(input));
      expect(choice.detail.length).toBeGreaterThan(0);
    }
  });

  it.each<{ name: string; input: PictureInput; protocol: Protocol; detail: RegExp }>([
    {
      name: 'truecolour text, no pixels: symbols',
      input: { pixel: null, colorDepth: 'truecolor', terminalSymbols: ['block'] },
      protocol: 'symbols',
      detail: /text has colour \(truecolor\): symbols, with the sets safe on this terminal: block/,
    },
    {
      name: '16 colours, no pixels: symbols',
      input: { pixel: null, colorDepth: '16', terminalSymbols: ['block'] },
      protocol: 'symbols',
      detail: /colour \(16\)/,
    },
    {
      name: 'no colour: braille',
      input: { pixel: null, colorDepth: 'none', terminalSymbols: ['block'] },
      protocol: 'braille',
      detail: /no colour: braille/,
    },
    {
      name: 'no colour, no braille glyphs (zutty): symbols',
      input: { pixel: null, colorDepth: 'none', terminalSymbols: ['block'], noBraille: true },
      protocol: 'symbols',
      detail: /draws no braille/,
    },
    {
      name: 'pixels usable: the pixel protocol',
      input: { pixel: 'kitty', colorDepth: 'truecolor', terminalSymbols: ['block'] },
      protocol: 'kitty',
      detail: /kitty draws pixels/,
    },
    {
      name: 'braille asked for in colour: braille',
      input: { pixel: null, colorDepth: 'truecolor', terminalSymbols: ['block'], asked: 'braille' },
      protocol: 'braille',
      detail: /braille was asked for/,
    },
    {
      name: 'sets named without colour: symbols',
      input: { pixel: null, colorDepth: 'none', terminalSymbols: ['block'], askedSymbols: ['octant'] },
      protocol: 'symbols',
      detail: /the sets asked for: octant/,
    },
  ])('$name', ({ input, protocol, detail }) => {
    const choice = choosePicture(input);
    expect(choice.protocol).toBe(protocol);
    expect(choice.detail).toMatch(detail);
  });
});

describe('terminalSymbolSets and textColor', () => {
  it.each<{ name: string; glyphs: readonly GlyphSet[]; sets: readonly string[] }>([
    { name: 'nothing known: block elements', glyphs: [], sets: ['block'] },
    { name: 'blocks drawn: block elements', glyphs: ['blocks'], sets: ['block'] },
    { name: 'sextants drawn', glyphs: ['blocks', 'sextants'], sets: ['block', 'sextant'] },
    { name: 'octants drawn', glyphs: ['blocks', 'octants'], sets: ['block', 'octant'] },
    { name: 'both', glyphs: ['blocks', 'sextants', 'octants'], sets: ['block', 'sextant', 'octant'] },
    { name: 'braille is not a symbols default', glyphs: ['braille'], sets: ['block'] },
  ])('$name', ({ glyphs, sets }) => {
    expect(terminalSymbolSets(glyphs)).toEqual(sets);
    for (const set of sets) expect(SYMBOL_SET_NAMES).toContain(set);
  });

  it.each<{ name: string; env: Record<string, string>; truecolor: boolean; color: TextColor }>([
    { name: '24-bit', env: { TERM: 'xterm-256color' }, truecolor: true, color: 'truecolor' },
    { name: '256', env: { TERM: 'xterm-256color' }, truecolor: false, color: '256' },
    { name: 'NO_COLOR', env: { TERM: 'xterm-256color', NO_COLOR: '1' }, truecolor: true, color: 'none' },
    { name: 'NO_COLOR exported empty is unset', env: { NO_COLOR: '' }, truecolor: true, color: 'truecolor' },
    { name: 'TERM=dumb', env: { TERM: 'dumb' }, truecolor: true, color: 'none' },
    { name: 'monochrome terminfo -mono', env: { TERM: 'xterm-mono' }, truecolor: false, color: 'none' },
    { name: 'monochrome terminfo -m', env: { TERM: 'vt100-m' }, truecolor: false, color: 'none' },
    { name: 'a name merely containing m', env: { TERM: 'screen-256color-m2' }, truecolor: false, color: '256' },
  ])('textColor: $name', ({ env, truecolor, color }) => {
    expect(textColor(env, truecolor)).toBe(color);
  });
});

const tty = (env: Record<string, string>): Runtime => ({ env, isTTY: { stdin: true, stdout: true } });
const named = (name: string, version: string | null): ProbeFacts => ({
  replies: [{ kind: 'dcs', text: `\\eP>|${name}\\e\\\\` }],
  sentinel: true,
  timedOut: false,
  elapsedMs: 5,
  terminal: { name, version, reply: `\\eP>|${name}${version ? ` ${version}` : ''}\\e\\\\` },
});

describe('the report: symbols and its sets from the terminal database', () => {
  it.each<{
    name: string;
    runtime: Runtime;
    facts?: ProbeFacts;
    graphics: Protocol | null;
    symbols: readonly string[];
    source: string;
  }>([
    {
      name: 'unknown terminal: block elements by default',
      runtime: tty({ TERM: 'xterm-256color' }),
      graphics: 'symbols',
      symbols: ['block'],
      source: 'default',
    },
    {
      name: 'WezTerm by its reply draws sextants (and kitty pixels)',
      runtime: tty({}),
      facts: {
        ...named('WezTerm', '20240203-110809-5046fc22'),
        kittyGraphics: { ok: true, reply: '\\e_Gi=31;OK\\e\\\\' },
      },
      graphics: 'kitty',
      symbols: ['block', 'sextant'],
      source: 'reply',
    },
    {
      name: 'WezTerm by the environment inside tmux without passthrough: symbols with sextants',
      runtime: tty({ TERM_PROGRAM: 'WezTerm', TERM_PROGRAM_VERSION: '20240203-110809-5046fc22', TMUX: '/tmp/x,1,0' }),
      graphics: 'symbols',
      symbols: ['block', 'sextant'],
      source: 'rule',
    },
    {
      name: 'WezTerm of no known version: its sextants (since 20210814) unproven, block elements only',
      runtime: tty({ TERM_PROGRAM: 'WezTerm', TMUX: '/tmp/x,1,0' }),
      graphics: 'symbols',
      symbols: ['block'],
      source: 'rule',
    },
    {
      name: 'VTE 0.76 by the environment: sextants, no octants (0.78)',
      runtime: tty({ VTE_VERSION: '7600', TERM: 'xterm-256color' }),
      graphics: 'symbols',
      symbols: ['block', 'sextant'],
      source: 'rule',
    },
    {
      name: 'VTE 0.80 by the environment: sextants and octants',
      runtime: tty({ VTE_VERSION: '8000', TERM: 'xterm-256color' }),
      graphics: 'symbols',
      symbols: ['block', 'sextant', 'octant'],
      source: 'rule',
    },
    {
      name: 'Ghostty 1.2 by its reply: sextants and octants',
      runtime: tty({}),
      facts: named('ghostty', '1.2.0'),
      graphics: 'kitty',
      symbols: ['block', 'sextant', 'octant'],
      source: 'reply',
    },
    {
      name: 'zutty without colour: symbols, as it draws no braille',
      runtime: tty({ TERM: 'zutty', NO_COLOR: '1' }),
      graphics: 'symbols',
      symbols: ['block'],
      source: 'rule',
    },
    {
      name: 'xterm without colour: braille',
      runtime: tty({ TERM: 'xterm', NO_COLOR: '1' }),
      graphics: 'braille',
      symbols: ['block'],
      source: 'default',
    },
  ])('$name', ({ runtime, facts, graphics, symbols, source }) => {
    const report = resolveReport(runtime, facts);
    expect(report.graphics).toBe(graphics);
    expect(report.symbols).toEqual(symbols);
    expect(report.why.symbols.source).toBe(source);
    expect(report.why.symbols.detail.length).toBeGreaterThan(0);
  });

  it.each([
    {
      name: 'WezTerm of no known version',
      runtime: tty({ TERM_PROGRAM: 'WezTerm', TMUX: '/tmp/x,1,0' }),
      detail:
        /WezTerm, which draws no sextants or octants itself at this version \(sextants only from WezTerm 20210814, its version unknown; octants only from WezTerm 20250208, its version unknown\): block/,
    },
    {
      name: 'VTE 0.76',
      runtime: tty({ VTE_VERSION: '7600', TERM: 'xterm-256color' }),
      detail: /VTE, which draws sextants itself \(octants only from VTE 0\.78\.0\): block, sextant/,
    },
    {
      name: 'VTE 0.80',
      runtime: tty({ VTE_VERSION: '8000', TERM: 'xterm-256color' }),
      detail: /VTE, which draws sextants and octants itself: block, sextant, octant$/,
    },
  ])('why.symbols names the sets $name draws only from a later version', ({ runtime, detail }) => {
    expect(resolveReport(runtime).why.symbols.detail).toMatch(detail);
  });

  it('why.graphics says why the text picture is symbols', () => {
    const report = resolveReport(tty({ TMUX: '/tmp/x,1,0', TERM: 'screen-256color' }));
    expect(report.graphics).toBe('symbols');
    expect(report.why.graphics.detail).toMatch(
      /passthrough is not proven: braille; no pixel protocol; text has colour \(256\): symbols/,
    );
  });
});

describe('detect(), the founding answer, keeps braille', () => {
  it.each<{ name: string; env: Record<string, string> }>([
    { name: 'no variable', env: {} },
    { name: 'a colour terminal', env: { TERM: 'xterm-256color', COLORTERM: 'truecolor' } },
    { name: 'VTE', env: { VTE_VERSION: '7600' } },
    { name: 'WezTerm inside tmux', env: { TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' } },
  ])('$name: braille', ({ env }) => {
    expect(detect(env)).toBe('braille');
  });
});
