/**
 * Following resizes (src/probe/resize.ts), as tables of events with a synthetic clock: what is
 * written, which keys come out, and which size is told. The terminal's answer wins over the
 * kernel's window pixels; in-band reports need no question; keys typed meanwhile come out in order
 * and no reply ever does (a property test over random chunking).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createResize,
  IN_BAND_OFF,
  IN_BAND_ON,
  parseSizeReport,
  type ResizeAction,
  type ResizeEvent,
  reportsSizeInBand,
  resizeNeedsInput,
  resizeNextTickAt,
  SIZE_QUERY,
  stepResize,
  type WindowSize,
} from '../../src/probe/resize.js';

const bytes = (text: string) => Buffer.from(text, 'latin1');

/** Events as short data: [at ms, what]. */
type Step =
  | [number, 'start', WindowSize, { width: number; height: number } | null, boolean]
  | [number, 'winch', WindowSize]
  | [number, 'input', string]
  | [number, 'clock']
  | [number, 'stop'];

/** Actions as comparable data. */
type Out = { write: string } | { keys: string } | { resize: [number, number, string | null, string] };

function run(steps: readonly Step[]): Out[] {
  let state = createResize();
  const out: Out[] = [];
  for (const s of steps) {
    const nowMs = s[0];
    const event: ResizeEvent =
      s[1] === 'start'
        ? { type: 'start', nowMs, window: s[2], cellPixels: s[3], inBand: s[4] }
        : s[1] === 'winch'
          ? { type: 'winch', nowMs, window: s[2] }
          : s[1] === 'input'
            ? { type: 'input', nowMs, bytes: bytes(s[2]) }
            : { type: s[1], nowMs };
    const [next, actions] = stepResize(state, event);
    state = next;
    out.push(...actions.map(simple));
  }
  return out;
}

function simple(action: ResizeAction): Out {
  if (action.type === 'write') return { write: action.bytes };
  if (action.type === 'keys') return { keys: Buffer.from(action.bytes).toString('latin1') };
  const { columns, rows, cellPixels, source } = action.size;
  return { resize: [columns, rows, cellPixels ? `${cellPixels.width}x${cellPixels.height}` : null, source] };
}

const CELL = { width: 10, height: 20 };
const W80 = { columns: 80, rows: 24 };
const W100 = { columns: 100, rows: 30 };
const START: Step = [0, 'start', W80, CELL, false];
const DA1 = '\x1b[?62;c';

const ROWS: { name: string; steps: Step[]; want: Out[] }[] = [
  {
    name: 'SIGWINCH asks CSI 16 t; the reply tells the new cell size',
    steps: [START, [5, 'winch', W100], [9, 'input', `\x1b[6;22;11t\x1b[4;660;1100t${DA1}`]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'a window dragged larger: the cells change, the cell size stays',
    steps: [START, [5, 'winch', W100], [9, 'input', `\x1b[6;20;10t${DA1}`]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '10x20', 'reply'] }],
  },
  {
    name: 'TIOCGWINSZ pixels disagree with CSI 16 t: the terminal wins',
    steps: [START, [5, 'winch', { ...W100, pixels: { width: 800, height: 600 } }], [9, 'input', `\x1b[6;22;11t${DA1}`]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'CSI 14 t over the cells when 16 t is not answered',
    steps: [START, [5, 'winch', W100], [9, 'input', `\x1b[4;660;1100t${DA1}`]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'no answer, kernel pixels plausible: the window gives the cell',
    steps: [START, [5, 'winch', { ...W100, pixels: { width: 1100, height: 660 } }], [9, 'input', DA1]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'window'] }],
  },
  {
    name: "Win32-OpenSSH's 640x480 for any window and no answer: not a measurement",
    steps: [START, [5, 'winch', { columns: 64, rows: 24, pixels: { width: 640, height: 480 } }], [9, 'input', DA1]],
    want: [{ write: SIZE_QUERY }, { resize: [64, 24, '10x20', 'unchanged'] }],
  },
  {
    name: 'an ssh server reporting 0 pixels and no answer: the cell size stays',
    steps: [START, [5, 'winch', { ...W100, pixels: { width: 0, height: 0 } }], [9, 'input', DA1]],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '10x20', 'unchanged'] }],
  },
  {
    name: 'nothing changed (a SIGWINCH for the same size): nothing told',
    steps: [START, [5, 'winch', W80], [9, 'input', `\x1b[6;20;10t${DA1}`]],
    want: [{ write: SIZE_QUERY }],
  },
  {
    name: 'no sentinel: after the budget, what came',
    steps: [START, [0, 'winch', W100], [10, 'input', '\x1b[6;22;11t'], [999, 'clock'], [1000, 'clock']],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'a storm of SIGWINCH: one query at a time, one more after the answer',
    steps: [
      START,
      [1, 'winch', { columns: 90, rows: 24 }],
      [2, 'winch', { columns: 95, rows: 24 }],
      [3, 'winch', W100],
      [9, 'input', `\x1b[6;20;10t${DA1}`],
      [15, 'input', `\x1b[6;20;10t${DA1}`],
    ],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '10x20', 'reply'] }, { write: SIZE_QUERY }],
  },
  {
    name: 'in band: DECSET 2048 at the start; its report needs no question; DECRST at the stop',
    steps: [
      [0, 'start', W80, CELL, true],
      [1, 'input', '\x1b[48;24;80;480;800t'],
      [5, 'winch', W100],
      [6, 'input', '\x1b[48;30;100;660;1100t'],
      [9, 'stop'],
    ],
    want: [{ write: IN_BAND_ON }, { resize: [100, 30, '11x22', 'in-band'] }, { write: IN_BAND_OFF }],
  },
  {
    name: 'in band, a font-size change: the same cells, new pixels',
    steps: [
      [0, 'start', W80, CELL, true],
      [1, 'input', '\x1b[48;24;80;480;800t'],
      [6, 'input', '\x1b[48;24;80;576;960t'],
    ],
    want: [{ write: IN_BAND_ON }, { resize: [80, 24, '12x24', 'in-band'] }],
  },
  {
    name: 'in band on, but no report seen yet: a SIGWINCH still asks',
    steps: [
      [0, 'start', W80, CELL, true],
      [5, 'winch', W100],
      [9, 'input', `\x1b[6;22;11t${DA1}`],
    ],
    want: [{ write: IN_BAND_ON }, { write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'keys typed between the replies come out in order; the replies do not',
    steps: [START, [5, 'winch', W100], [6, 'input', 'a\x1b[6;22;11tb'], [7, 'input', `\x1b[A${DA1}c`]],
    want: [
      { write: SIZE_QUERY },
      { keys: 'a' },
      { keys: 'b' },
      { keys: '\x1b[A' },
      { resize: [100, 30, '11x22', 'reply'] },
      { keys: 'c' },
    ],
  },
  {
    name: 'a reply split across reads is still a reply',
    steps: [START, [5, 'winch', W100], [6, 'input', '\x1b[6;2'], [7, 'input', '2;11t\x1b'], [8, 'input', '[?62;c']],
    want: [{ write: SIZE_QUERY }, { resize: [100, 30, '11x22', 'reply'] }],
  },
  {
    name: 'a lone ESC (the Escape key) is held for its rest, then handed on',
    steps: [START, [0, 'input', '\x1b'], [24, 'clock'], [25, 'clock']],
    want: [{ keys: '\x1b' }],
  },
  {
    name: 'a late reply, nothing asked: swallowed',
    steps: [START, [3, 'input', `\x1b[6;22;11t${DA1}x`]],
    want: [{ keys: 'x' }],
  },
  {
    name: 'stop hands on a held key',
    steps: [START, [0, 'input', 'q\x1b'], [1, 'stop']],
    want: [{ keys: 'q' }, { keys: '\x1b' }],
  },
];

describe('resize events', () => {
  it.each(ROWS)('$name', ({ steps, want }) => {
    expect(run(steps)).toEqual(want);
  });

  it('asks for a tick at the end of the budget and of the key hold, and none when idle', () => {
    let [state] = stepResize(createResize({ budgetMs: 500, holdMs: 30 }), {
      type: 'start',
      nowMs: 0,
      window: W80,
      cellPixels: CELL,
      inBand: false,
    });
    expect(resizeNextTickAt(state)).toBeNull();
    [state] = stepResize(state, { type: 'winch', nowMs: 10, window: W100 });
    expect(resizeNextTickAt(state)).toBe(510);
    [state] = stepResize(state, { type: 'input', nowMs: 20, bytes: bytes('\x1b') });
    expect(resizeNextTickAt(state)).toBe(50);
  });

  it('keys come out whole and in order whatever the chunking, replies never', () => {
    const key = fc.constantFrom('a', 'Z', ' ', '\r', '\x1b[A', '\x1b[15~', 'é', '\x1bOP');
    const reply = fc.constantFrom('\x1b[6;22;11t', '\x1b[4;660;1100t', '\x1b[48;30;100;660;1100t', DA1);
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            key.map((k) => ({ k })),
            reply.map((r) => ({ r })),
          ),
          { maxLength: 30 },
        ),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (parts, cuts) => {
          const stream = Buffer.from(parts.map((p) => ('k' in p ? p.k : p.r)).join(''), 'utf8');
          const typed = parts.map((p) => ('k' in p ? p.k : '')).join('');
          const steps: Step[] = [START, [0, 'winch', W100]];
          let at = 0;
          let i = 0;
          while (at < stream.length) {
            const n = cuts[i++ % cuts.length];
            steps.push([i, 'input', stream.subarray(at, at + n).toString('latin1')]);
            at += n;
          }
          steps.push([1000, 'stop']);
          const got = run(steps)
            .map((o) => ('keys' in o ? o.keys : ''))
            .join('');
          return got === Buffer.from(typed, 'utf8').toString('latin1');
        },
      ),
    );
  });
});

describe('when the watch needs the input (raw mode, reading)', () => {
  const NEEDS: { name: string; steps: Step[]; want: boolean }[] = [
    { name: 'idle, no in-band reports: no', steps: [START], want: false },
    { name: 'in-band reports on: yes, until the stop', steps: [[0, 'start', W80, CELL, true]], want: true },
    {
      name: 'in-band reports, stopped: no',
      steps: [
        [0, 'start', W80, CELL, true],
        [1, 'stop'],
      ],
      want: false,
    },
    { name: 'a query out: yes', steps: [START, [1, 'winch', W100]], want: true },
    { name: 'the query answered: no', steps: [START, [1, 'winch', W100], [2, 'input', DA1]], want: false },
    {
      name: 'given up on before its sentinel: yes, its replies may still come',
      steps: [START, [0, 'winch', W100], [1000, 'clock']],
      want: true,
    },
    {
      name: 'given up on, then its sentinel came: no',
      steps: [START, [0, 'winch', W100], [1000, 'clock'], [1200, 'input', DA1]],
      want: false,
    },
    {
      name: 'given up on, and a budget more without it: no',
      steps: [START, [0, 'winch', W100], [1000, 'clock'], [2000, 'clock']],
      want: false,
    },
    { name: 'a lone ESC held: yes', steps: [START, [0, 'input', '\x1b']], want: true },
  ];
  it.each(NEEDS)('$name', ({ steps, want }) => {
    let state = createResize();
    for (const s of steps) {
      const nowMs = s[0];
      const event: ResizeEvent =
        s[1] === 'start'
          ? { type: 'start', nowMs, window: s[2], cellPixels: s[3], inBand: s[4] }
          : s[1] === 'winch'
            ? { type: 'winch', nowMs, window: s[2] }
            : s[1] === 'input'
              ? { type: 'input', nowMs, bytes: bytes(s[2]) }
              : { type: s[1], nowMs };
      [state] = stepResize(state, event);
    }
    expect(resizeNeedsInput(state)).toBe(want);
  });
});

describe('parseSizeReport', () => {
  it.each([
    {
      name: 'cells and pixels',
      text: '\x1b[48;24;80;480;800t',
      want: { rows: 24, columns: 80, pixels: { width: 800, height: 480 } },
    },
    {
      name: 'a sub-parameter on the rows is ignored',
      text: '\x1b[48;24:1;80;480;800t',
      want: { rows: 24, columns: 80, pixels: { width: 800, height: 480 } },
    },
    {
      name: 'pixels unknown (0x0)',
      text: '\x1b[48;24;80;0;0t',
      want: { rows: 24, columns: 80, pixels: { width: 0, height: 0 } },
    },
    { name: 'the text area report (CSI 8 t) is not the in-band report', text: '\x1b[8;24;80t', want: null },
    { name: 'without the pixels: not a report', text: '\x1b[48;24;80t', want: null },
  ])('$name', ({ text, want }) => {
    expect(parseSizeReport(text)).toEqual(want);
  });
});

describe('which terminals report their size in band (the database)', () => {
  it.each([
    { name: 'kitty 0.36', terminal: 'kitty', version: '0.36.0', want: true },
    { name: 'ghostty 1.1', terminal: 'ghostty', version: '1.1.0', want: true },
    { name: 'iTerm2 3.5', terminal: 'iTerm.app', version: '3.5.0', want: true },
    { name: 'foot 1.16', terminal: 'foot', version: '1.16.2', want: true },
    { name: 'contour 0.4', terminal: 'contour', version: '0.4.3', want: true },
    { name: 'xterm 390: no', terminal: 'XTerm', version: '390', want: false },
    { name: 'WezTerm 20240203: no', terminal: 'WezTerm', version: '20240203', want: false },
    { name: 'an unknown terminal: no', terminal: null, version: null, want: false },
  ])('$name', ({ terminal, version, want }) => {
    expect(reportsSizeInBand(terminal, version)).toBe(want);
  });
});
