import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EscapeState, GROUND, scanEscapes } from '../../src/cli/escape-state.js';
import { splitPieces } from '../../src/cli/picture-writer.js';
import { displayName, failureLine, interruptTail } from '../../src/cli/show-plan.js';
import { renderOptionsOf } from '../../src/draw/options.js';
import { planDrawing } from '../../src/draw/plan.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Env } from '../../src/env/runtime.js';
import type { SymbolSetName } from '../../src/render/text/symbols-glyphs.js';
import type { Report } from '../../src/report/types.js';
import { report } from './show-support.js';

/** `show`'s protocol decision (the plan's, with show's request fields) and what decided it, in the words of the old rows. */
function chooseProtocol(input: {
  readonly flag?: Protocol;
  readonly env: Env;
  readonly stdoutIsTTY: boolean;
  readonly report: Pick<Report, 'graphics' | 'symbols' | 'truecolor'>;
  readonly symbols?: readonly SymbolSetName[];
}) {
  const plan = planDrawing(
    { ...report(), ...input.report },
    {
      ...(input.flag ? { protocol: input.flag } : {}),
      env: input.env,
      terminal: input.stdoutIsTTY,
      wrapUnproven: true,
      ...(input.symbols ? { symbols: input.symbols } : {}),
    },
  );
  const { source, detail } = plan.why.protocol;
  const because =
    source === 'request' && detail.endsWith('was asked for')
      ? 'flag'
      : source === 'environment'
        ? detail.startsWith('TERMSIGHT_GRAPHICS=off')
          ? 'off'
          : 'override'
        : detail.startsWith('the output is not a terminal')
          ? 'not-a-tty'
          : detail.startsWith('the report names no protocol')
            ? 'no-graphics'
            : 'report';
  return {
    protocol: plan.protocol,
    because,
    symbols: plan.encoder.protocol === 'symbols' ? plan.encoder.symbols : null,
  };
}

/** `show`'s box (the plan's with `defaultBox: 'screen'`). */
function pictureBox(input: {
  terminal?: { columns?: number; rows?: number };
  env: Env;
  width?: number;
  height?: number;
}) {
  const plan = planDrawing(report(), {
    defaultBox: 'screen',
    env: input.env,
    ...(input.terminal ? { terminalSize: input.terminal } : {}),
    ...(input.width ? { columns: input.width } : {}),
    ...(input.height ? { rows: input.height } : {}),
  });
  return { columns: plan.columns, rows: plan.rows };
}

/** `show`'s render options: the plan's (sixel, so every option a report gives a picture is set). */
function renderOptionsFor(r: Report, box: { columns: number; rows: number }, env: Env) {
  const plan = planDrawing(r, { protocol: 'sixel', columns: box.columns, rows: box.rows, env, wrapUnproven: true });
  const symbols = planDrawing(r, { protocol: 'symbols', env });
  return {
    ...renderOptionsOf(plan),
    multiplexer: renderOptionsOf(plan).wrap,
    colorDepth: plan.colorDepth,
    placements: r.placements,
    background: renderOptionsOf(symbols).background,
  };
}

describe('chooseProtocol', () => {
  interface Row {
    readonly name: string;
    readonly flag?: Protocol;
    readonly env?: Record<string, string>;
    readonly tty?: boolean;
    readonly graphics: Protocol | null;
    readonly truecolor?: boolean;
    /** The report's safe sets (default block). */
    readonly terminal?: readonly SymbolSetName[];
    /** `--symbols`. */
    readonly symbols?: readonly SymbolSetName[];
    readonly protocol: Protocol;
    readonly because: string;
    readonly sets?: readonly SymbolSetName[];
  }
  const rows: readonly Row[] = [
    {
      name: 'flag wins over everything',
      flag: 'iterm2',
      env: { TERMSIGHT_GRAPHICS: 'sixel' },
      tty: false,
      graphics: 'kitty',
      protocol: 'iterm2',
      because: 'flag',
    },
    {
      name: 'flag braille in a colour terminal',
      flag: 'braille',
      graphics: 'symbols',
      protocol: 'braille',
      because: 'flag',
    },
    {
      name: 'override protocol',
      env: { TERMSIGHT_GRAPHICS: 'sixel' },
      tty: false,
      graphics: 'kitty',
      protocol: 'sixel',
      because: 'override',
    },
    {
      name: 'override is case-insensitive',
      env: { TERMSIGHT_GRAPHICS: ' Blocks ' },
      graphics: null,
      protocol: 'blocks',
      because: 'override',
    },
    {
      name: 'override braille is asked for',
      env: { TERMSIGHT_GRAPHICS: 'braille' },
      graphics: 'symbols',
      protocol: 'braille',
      because: 'override',
    },
    {
      name: 'off in colour: symbols',
      env: { TERMSIGHT_GRAPHICS: 'off' },
      graphics: null,
      protocol: 'symbols',
      because: 'off',
    },
    {
      name: 'off in 256 colours: symbols',
      env: { TERMSIGHT_GRAPHICS: 'off' },
      truecolor: false,
      graphics: null,
      protocol: 'symbols',
      because: 'off',
    },
    {
      name: 'off under NO_COLOR: braille',
      env: { TERMSIGHT_GRAPHICS: 'off', NO_COLOR: '1' },
      graphics: null,
      protocol: 'braille',
      because: 'off',
    },
    {
      name: 'off, TERM=dumb: braille',
      env: { TERMSIGHT_GRAPHICS: 'off', TERM: 'dumb' },
      graphics: null,
      protocol: 'braille',
      because: 'off',
    },
    {
      name: 'off, monochrome terminfo: braille',
      env: { TERMSIGHT_GRAPHICS: 'off', TERM: 'xterm-mono' },
      graphics: null,
      protocol: 'braille',
      because: 'off',
    },
    {
      name: 'off, no colour, --symbols: symbols',
      env: { TERMSIGHT_GRAPHICS: 'off', NO_COLOR: '1' },
      graphics: null,
      symbols: ['sextant'],
      protocol: 'symbols',
      because: 'off',
      sets: ['sextant'],
    },
    // Changed by the drawing plan: off a terminal the text picture is symbols (was braille).
    { name: 'not a tty: symbols', tty: false, graphics: 'kitty', protocol: 'symbols', because: 'not-a-tty' },
    {
      name: 'not a tty, NO_COLOR: symbols (glyphs only)',
      env: { NO_COLOR: '1' },
      tty: false,
      graphics: 'kitty',
      protocol: 'symbols',
      because: 'not-a-tty',
    },
    {
      name: 'not a tty, --symbols: symbols',
      tty: false,
      graphics: 'kitty',
      symbols: ['block'],
      protocol: 'symbols',
      because: 'not-a-tty',
      sets: ['block'],
    },
    { name: 'the report: a pixel protocol', graphics: 'sixel', protocol: 'sixel', because: 'report' },
    {
      name: 'a pixel protocol beats --symbols',
      graphics: 'kitty',
      symbols: ['octant'],
      protocol: 'kitty',
      because: 'report',
      sets: ['octant'],
    },
    {
      name: 'the report: symbols with its sets',
      graphics: 'symbols',
      terminal: ['block', 'sextant'],
      protocol: 'symbols',
      because: 'report',
      sets: ['block', 'sextant'],
    },
    {
      name: "--symbols beats the report's sets",
      graphics: 'symbols',
      terminal: ['block', 'sextant'],
      symbols: ['braille'],
      protocol: 'symbols',
      because: 'report',
      sets: ['braille'],
    },
    { name: 'the report: braille (no colour)', graphics: 'braille', protocol: 'braille', because: 'report' },
    {
      name: 'the report braille, --symbols: symbols',
      graphics: 'braille',
      symbols: ['half'],
      protocol: 'symbols',
      because: 'report',
      sets: ['half'],
    },
    { name: 'no graphics in colour: symbols', graphics: null, protocol: 'symbols', because: 'no-graphics' },
    {
      name: 'no graphics, NO_COLOR: braille',
      env: { NO_COLOR: '1' },
      graphics: null,
      protocol: 'braille',
      because: 'no-graphics',
    },
    {
      name: 'invalid override ignored',
      env: { TERMSIGHT_GRAPHICS: 'png' },
      graphics: 'kitty',
      protocol: 'kitty',
      because: 'report',
    },
    {
      name: 'empty override is unset',
      env: { TERMSIGHT_GRAPHICS: '' },
      graphics: 'iterm2',
      protocol: 'iterm2',
      because: 'report',
    },
  ];
  it.each(rows)('$name', (row) => {
    const choice = chooseProtocol({
      ...(row.flag ? { flag: row.flag } : {}),
      env: row.env ?? {},
      stdoutIsTTY: row.tty ?? true,
      report: {
        graphics: row.graphics,
        truecolor: row.truecolor ?? true,
        symbols: (row.terminal ?? ['block']) as never,
      },
      ...(row.symbols ? { symbols: row.symbols } : {}),
    });
    expect(choice).toEqual({
      protocol: row.protocol,
      because: row.because,
      symbols: row.protocol === 'symbols' ? (row.sets ?? row.terminal ?? ['block']) : null,
    });
  });
});

describe('pictureBox', () => {
  it.each([
    { name: 'nothing known: 80x24, less two lines', input: {}, env: {}, expected: { columns: 80, rows: 22 } },
    {
      name: 'the terminal size, less two lines (the name line and the prompt)',
      input: { terminal: { columns: 120, rows: 40 } },
      env: {},
      expected: { columns: 120, rows: 38 },
    },
    {
      name: 'a width narrower than the terminal',
      input: { terminal: { columns: 120, rows: 40 }, width: 30 },
      env: {},
      expected: { columns: 30, rows: 38 },
    },
    {
      name: 'a height, COLUMNS for the width',
      input: { height: 5 },
      env: { COLUMNS: '100', LINES: '50' },
      expected: { columns: 100, rows: 5 },
    },
    {
      name: 'COLUMNS and LINES when the terminal size is unknown',
      input: {},
      env: { COLUMNS: '100', LINES: '50' },
      expected: { columns: 100, rows: 48 },
    },
    {
      name: 'COLUMNS and LINES that are not sizes are ignored',
      input: {},
      env: { COLUMNS: 'wide', LINES: '0' },
      expected: { columns: 80, rows: 22 },
    },
    {
      name: 'a two-line terminal still gets a row',
      input: { terminal: { columns: 10, rows: 2 } },
      env: {},
      expected: { columns: 10, rows: 1 },
    },
  ])('$name', ({ input, env, expected }) => {
    expect(pictureBox({ ...input, env })).toEqual(expected);
  });
});

describe('renderOptionsFor', () => {
  it.each([
    {
      name: 'truecolor report',
      r: report(),
      env: {},
      expected: { colorDepth: 'truecolor', multiplexer: null, cellPixels: { width: 10, height: 20 } },
    },
    { name: '256 colours', r: report({ truecolor: false }), env: {}, expected: { colorDepth: '256' } },
    { name: 'NO_COLOR', r: report(), env: { NO_COLOR: '1' }, expected: { colorDepth: 'none' } },
    { name: 'sixel registers', r: report({ sixelColors: 16 }), env: {}, expected: { sixelColors: 16 } },
    {
      name: 'tmux with passthrough',
      r: report({ multiplexer: { name: 'tmux', version: '3.4', passthrough: true } }),
      env: {},
      expected: { multiplexer: 'tmux' },
    },
    {
      name: 'tmux, passthrough unknown',
      r: report({ multiplexer: { name: 'tmux', version: null, passthrough: null } }),
      env: {},
      expected: { multiplexer: 'tmux' },
    },
    {
      name: 'tmux without passthrough',
      r: report({ multiplexer: { name: 'tmux', version: '3.4', passthrough: false } }),
      env: {},
      expected: { multiplexer: null },
    },
    {
      name: 'placements and sync',
      r: report({ placements: true, synchronizedOutput: true }),
      env: {},
      expected: { placements: true, synchronizedOutput: true },
    },
    {
      name: 'background',
      r: report({ background: { dark: false, rgb: [250, 250, 240] } }),
      env: {},
      expected: { background: [250, 250, 240] },
    },
  ] as const)('$name', ({ r, env, expected }) => {
    expect(renderOptionsFor(r, { columns: 50, rows: 20 }, env)).toMatchObject({ columns: 50, rows: 20, ...expected });
  });
});

describe('displayName and failureLine', () => {
  it.each([
    { name: 'a plain name, as is', file: 'photo.png', shown: 'photo.png' },
    { name: 'standard input', file: '-', shown: '(stdin)' },
    { name: 'an OSC title sequence: its controls dropped', file: 'a\x1b]0;title\x07b.png', shown: 'a]0;titleb.png' },
    { name: 'line breaks dropped', file: 'line\nbreak\r.png', shown: 'linebreak.png' },
    { name: 'a C1 CSI dropped', file: 'c1\u009b31m.png', shown: 'c131m.png' },
    { name: 'a right-to-left override dropped', file: 'bidi\u202egnp.exe', shown: 'bidignp.exe' },
    { name: 'nothing left but controls: (unnamed)', file: '\x1b\x07', shown: '(unnamed)' },
    { name: 'letters beyond ASCII kept', file: 'naïve 写真.png', shown: 'naïve 写真.png' },
  ])('$name', ({ file: name, shown }) => {
    expect(displayName(name)).toBe(shown);
    expect(failureLine(name, 'no such file')).toBe(`termsight: ${shown}: no such file\n`);
  });
});

describe('interruptTail', () => {
  const inDcs = scanEscapes(GROUND, '\x1bPq#0;2;0;0;0');
  const inTmux = scanEscapes(GROUND, '\x1bPtmux;\x1b\x1b_Gm=1;AAAA');
  const rows: { name: string; state: EscapeState; ctx: Parameters<typeof interruptTail>[1]; expected: RegExp }[] = [
    {
      name: 'sixel in DCS',
      state: inDcs,
      ctx: { protocol: 'sixel', wrap: null, synchronizedOutput: false },
      expected: /^\x1b\\\x1b\[0m\r\n\x1b\[\?25h$/,
    },
    {
      name: 'sixel between pieces',
      state: GROUND,
      ctx: { protocol: 'sixel', wrap: null, synchronizedOutput: true },
      expected: /^\x1b\[0m\x1b\[\?2026l\r\n\x1b\[\?25h$/,
    },
    {
      name: 'kitty inside tmux',
      state: inTmux,
      ctx: { protocol: 'kitty', wrap: 'tmux', synchronizedOutput: false },
      expected: /^\x1b\\\x1bPtmux;\x1b\x1b\\\x1b\\\x1bPtmux;\x1b\x1b_Gm=0,q=2;\x1b\x1b\\\x1b\\.*\x1b\[0m/,
    },
    {
      name: 'kitty with a frame handle: delete by id, back to the picture and below',
      state: GROUND,
      ctx: {
        protocol: 'kitty',
        wrap: null,
        synchronizedOutput: false,
        handle: { protocol: 'kitty', columns: 4, rows: 3, imageId: 77, placeholders: false, multiplexer: null },
      },
      expected: /\x1b_Gm=0,q=2;\x1b\\\x1b_Ga=d,d=I,i=77,q=2\x1b\\\x1b\[0m\x1b8\x1b\[2B\r\n\x1b\[\?25h$/,
    },
    {
      name: 'kitty drawn by flow (the terminal moves the cursor): upload ended, deleted by id, a new line',
      state: scanEscapes(GROUND, '\x1b_Ga=T,i=78,m=1,q=2;AAAA'),
      ctx: { protocol: 'kitty', wrap: null, synchronizedOutput: false, imageId: 78 },
      expected: /^\x1b\\\x1b_Gm=0,q=2;\x1b\\\x1b_Ga=d,d=I,i=78,q=2\x1b\\\x1b\[0m\r\n\x1b\[\?25h$/,
    },
    {
      name: 'braille mid-line',
      state: GROUND,
      ctx: { protocol: 'braille', wrap: 'tmux', synchronizedOutput: false },
      expected: /^\x1b\[0m\r\n\x1b\[\?25h$/,
    },
  ];
  it.each(rows)('$name', ({ state, ctx, expected }) => {
    expect(interruptTail(state, ctx)).toMatch(expected);
  });
});

describe('scanEscapes', () => {
  it.each([
    { name: 'plain', text: 'hello', mode: 'ground' },
    { name: 'CSI done', text: '\x1b[31m', mode: 'ground' },
    { name: 'CSI open', text: '\x1b[31', mode: 'csi' },
    { name: 'DCS open', text: '\x1bPq#0', mode: 'string' },
    { name: 'DCS closed', text: '\x1bPq#0\x1b\\', mode: 'ground' },
    { name: 'OSC closed by BEL', text: '\x1b]1337;File=x\x07', mode: 'ground' },
    { name: 'APC closed', text: '\x1b_Ga=T;AAAA\x1b\\', mode: 'ground' },
    { name: 'tmux: doubled ESC stays inside', text: '\x1bPtmux;\x1b\x1b_Gm=1\x1b\x1b\\', mode: 'string' },
    { name: 'tmux closed', text: '\x1bPtmux;\x1b\x1b_Gm=1\x1b\x1b\\\x1b\\', mode: 'ground' },
    { name: 'lone ESC', text: 'a\x1b', mode: 'esc' },
  ])('$name', ({ text, mode }) => {
    expect(scanEscapes(GROUND, text).mode).toBe(mode);
  });

  // The parser's states, one character at a time, as plainly as they can be written: scanEscapes
  // jumps over text and string bodies, and must land where this lands.
  function plainScan(state: EscapeState, text: string): EscapeState {
    let { mode, intro } = state;
    for (const ch of text) {
      for (let u = 0; u < ch.length; u++) {
        const c = ch.charCodeAt(u);
        if (mode === 'ground') mode = c === 0x1b ? 'esc' : mode;
        else if (mode === 'esc') {
          if (c === 0x5b) mode = 'csi';
          else if ([0x50, 0x5f, 0x5d, 0x5e, 0x58].includes(c)) [mode, intro] = ['string', String.fromCharCode(c)];
          else if (c !== 0x1b) mode = 'ground';
        } else if (mode === 'csi') mode = c >= 0x40 && c <= 0x7e ? 'ground' : c === 0x1b ? 'esc' : mode;
        else if (mode === 'string') {
          if (c === 0x1b) mode = 'string-esc';
          else if (c === 0x07 && intro.startsWith(']')) mode = 'ground';
          else if (intro.length < 6) intro += String.fromCharCode(c);
        } else if (c === 0x5c) [mode, intro] = ['ground', ''];
        else mode = 'string';
      }
    }
    return { mode, intro: mode === 'ground' ? '' : intro };
  }

  it('lands where a plain character-by-character parser lands (long bodies, BEL, tmux)', () => {
    const piece = fc.constantFrom(
      '\x1b',
      '[',
      'P',
      '_',
      ']',
      '\\',
      '\x07',
      'q',
      'm',
      '1',
      ';',
      'tmux;',
      'AAAAAAAAAAAA',
      '😀',
    );
    fc.assert(
      fc.property(
        fc.array(piece, { maxLength: 80 }).map((a) => a.join('')),
        fc.constantFrom<EscapeState>(GROUND, { mode: 'string', intro: ']1337' }, { mode: 'string', intro: 'Ptmux;' }),
        (text, from) => {
          expect(scanEscapes(from, text)).toEqual(plainScan(from, text));
        },
      ),
      { numRuns: 1000, seed: 13 },
    );
  });

  it('any split gives the same state as the whole', () => {
    const alphabet = fc.constantFrom('\x1b', '[', 'P', '_', ']', '\\', '\x07', 'q', 'm', '1', ';', 'a', 'G');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 60 }).map((a) => a.join('')),
        fc.nat(60),
        (text, cut) => {
          const at = Math.min(cut, text.length);
          expect(scanEscapes(scanEscapes(GROUND, text.slice(0, at)), text.slice(at))).toEqual(
            scanEscapes(GROUND, text),
          );
        },
      ),
      { numRuns: 400, seed: 11 },
    );
  });
});

describe('splitPieces', () => {
  it('pieces join to the text, and every cut is in text or a string body, never after an ESC', () => {
    const alphabet = fc.constantFrom('\x1b', '[', 'P', '_', '\\', 'q', 'm', '1', 'x', 'y', '😀');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 300 }).map((a) => a.join('')),
        fc.integer({ min: 1, max: 40 }),
        (text, size) => {
          const pieces = splitPieces(text, size);
          expect(pieces.join('')).toBe(text);
          let state = GROUND;
          for (const piece of pieces.slice(0, -1)) {
            state = scanEscapes(state, piece);
            expect(['ground', 'string']).toContain(state.mode);
            expect(piece.endsWith('\x1b')).toBe(false);
            const last = piece.charCodeAt(piece.length - 1);
            expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
          }
        },
      ),
      { numRuns: 300, seed: 12 },
    );
  });

  it.each([
    { name: 'nothing: no pieces', text: '', size: 10, count: 0 },
    { name: 'shorter than a piece: one', text: 'abc', size: 10, count: 1 },
    { name: 'ten times the piece size: ten', text: 'x'.repeat(100), size: 10, count: 10 },
  ])('$name', ({ text, size, count }) => {
    expect(splitPieces(text, size)).toHaveLength(count);
  });
});
