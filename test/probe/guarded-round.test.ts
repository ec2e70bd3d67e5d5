/**
 * The guarded round and slow links, as timing tables with a synthetic clock. A terminal nobody
 * named (not its environment, not its replies) gets the queries some terminal prints (the kitty
 * graphics APC, DECRQM) only after its first replies showed it parses them; a browser or remote
 * editor terminal gets the long budget. Each row is the trace of what the reducer asked for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import type { ProbeAction } from '../../src/probe/events.js';
import { createProbe, probeNextTickAt, probeResult, stepProbe } from '../../src/probe/reducer.js';
import { summarize, type TraceRow, trace } from './trace.js';

const tty = (env: Record<string, string>, platform = 'linux'): Runtime => ({
  env,
  platform,
  isTTY: { stdin: true, stdout: true },
});
/** What an ssh session or `env -i` leaves: a TERM that names no terminal. */
const UNNAMED = tty({ TERM: 'xterm-256color', HOME: '/home/user', PATH: '/usr/bin:/bin' });
const KNOWN_TMUX = tty({ TERM: 'tmux-256color', TMUX: '/tmp/tmux-0/default,1,0' });
const WINDOWS_CONSOLE = tty({ TERM: 'xterm-256color' }, 'win32');

const DA1 = '\x1b[?62;c';
const KITTY_OK = '\x1b_Gi=31;OK\x1b\\';
const KITTY_NAME = '\x1bP>|kitty(0.26.5)\x1b\\';
const TMUX_ROUND = '\x1bP>|tmux 3.3a\x1b\\\x1b[>84;0;0c\x1b[8;80;23t\x1b[?1;2c';

/** The first round to a terminal nobody named: no APC, no DECRQM. */
const ROUND_1 = '\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?1;1;0S\\e]11;?\\e\\\\e[c';
/** The guarded round: the held-back queries and a DA1. */
const GUARDED = '\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\\\e[?2026$p\\e[c';
const wrap = (escaped: string) =>
  escaped
    .split(/(?=\\e(?:_|\[|\]))/)
    .map((q) => `\\ePtmux;${q.replaceAll('\\e', '\\e\\e')}\\e\\`)
    .join('');

const summary = (action: ProbeAction) => summarize(action, { write: 'bytes', owed: true });

const GUARDED_ROWS: readonly TraceRow[] = [
  {
    name: 'a VT220-class DA1 (level 62) from a terminal nobody named: the guarded round goes at once, its DA1 ends the probe',
    runtime: UNNAMED,
    steps: ['start', 3, ['in', DA1], 4, ['in', `${KITTY_OK}\x1b[?2026;2$y${DA1}`], 5],
    expected: [`start: write ${ROUND_1}`, `in \\e[?62;c: write ${GUARDED}`, 't5: done answered 5ms'],
  },
  {
    name: 'a VT100-class DA1 (rxvt-unicode, st, tmux: level 1 or 6): no guarded round, done at the next clock',
    runtime: UNNAMED,
    steps: ['start', 3, ['in', '\x1b[?1;2c'], 4],
    expected: [`start: write ${ROUND_1}`, 't4: done answered 4ms'],
  },
  {
    name: 'an XTVERSION the database does not know shows DCS parsing: the guarded round, whatever the DA1 level',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1bP>|newterm(1.0)\x1b\\\x1b[?1;2c'], 1, ['in', DA1], 2],
    expected: [
      `start: write ${ROUND_1}`,
      `in \\eP>|newterm(1.0)\\e\\\\e[?1;2c: write ${GUARDED}`,
      't2: done answered 2ms',
    ],
  },
  {
    name: 'kitty named by its XTVERSION: no guarded round, the database answers',
    runtime: UNNAMED,
    steps: ['start', ['in', `${KITTY_NAME}\x1b[>1;4000;26c${DA1}`], 1],
    expected: [`start: write ${ROUND_1}`, 't1: done answered 1ms'],
  },
  {
    name: 'Konsole named by its XTVERSION: it draws kitty but its name does not decide, so the guarded round asks',
    runtime: UNNAMED,
    steps: ['start', ['in', `\x1bP>|Konsole 23.08.4\x1b\\\x1b[?62;4c`], 1, ['in', `${KITTY_OK}${DA1}`], 2],
    expected: [
      `start: write ${ROUND_1}`,
      `in \\eP>|Konsole 23.08.4\\e\\\\e[?62;4c: write ${GUARDED}`,
      't2: done answered 2ms',
    ],
  },
  {
    name: 'mosh named by its DA1 and DA2 (?62c, >1;10;0c): none',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1b[>1;10;0c\x1b[?62c'], 1],
    expected: [`start: write ${ROUND_1}`, 't1: done answered 1ms'],
  },
  {
    name: 'zutty named by its DA1 and DA2 (level 64, but it prints both held-back queries): none',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1b[>64;0;0c\x1b[?64;1;9;15;21;22c'], 1],
    expected: [`start: write ${ROUND_1}`, 't1: done answered 1ms'],
  },
  {
    name: 'xterm.js with its image addon, named by its fingerprint: none',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1b[>0;276;0c\x1b[?62;4;9;22c'], 1],
    expected: [`start: write ${ROUND_1}`, 't1: done answered 1ms'],
  },
  {
    name: 'a terminal the environment names (kitty): everything in the first round, nothing guarded',
    runtime: tty({ TERM: 'xterm-kitty' }),
    steps: ['start', ['in', DA1], 1],
    expected: [
      'start: write \\e[>q\\e[>c\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\\\e[16t\\e[14t\\e[18t\\e[?2026$p\\e[?1;1;0S\\e]11;?\\e\\\\e[c',
      't1: done answered 1ms',
    ],
  },
  {
    name: 'the guarded round unanswered: done when its window closes, the budget (100 ms, more than twice the 31 ms so far) after it opens; its DA1 owed',
    runtime: UNNAMED,
    steps: ['start', 30, ['in', DA1], 31, 130, 131, ['in', DA1]],
    expected: [
      `start: write ${ROUND_1}`,
      `in \\e[?62;c: write ${GUARDED}`,
      't131: done answered 131ms owed',
      'in \\e[?62;c: drained \\e[?62;c, late sentinel',
    ],
  },
  {
    name: 'a slow first round widens the guarded window to twice the time so far (2 x 81 ms), within budget plus extension',
    runtime: UNNAMED,
    steps: ['start', 80, ['in', DA1], 81, 242, 243],
    expected: [`start: write ${ROUND_1}`, `in \\e[?62;c: write ${GUARDED}`, 't243: done answered 243ms owed'],
  },
  {
    name: 'a very slow first round: the guarded window stops at budget plus extension (200 ms)',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1b[>0;1;0c'], 100, 150, ['in', DA1], 151, 350, 351],
    expected: [
      `start: write ${ROUND_1}`,
      't100: extend 200',
      `in \\e[?62;c: write ${GUARDED}`,
      't351: done answered 351ms owed',
    ],
  },
  {
    name: 'the guarded round answered in part: its DA1 is waited for until the deadline, extended once',
    runtime: UNNAMED,
    steps: ['start', 3, ['in', DA1], 4, ['in', KITTY_OK], 103, 104, ['in', DA1], 150],
    expected: [
      `start: write ${ROUND_1}`,
      `in \\e[?62;c: write ${GUARDED}`,
      't104: extend 200',
      't150: done answered 150ms',
    ],
  },
  {
    name: 'an end during the guarded round: answered with what came, its DA1 owed',
    runtime: UNNAMED,
    steps: ['start', ['in', DA1], 1, ['end', 20]],
    expected: [`start: write ${ROUND_1}`, `in \\e[?62;c: write ${GUARDED}`, 'end20: done answered 20ms owed'],
  },
  {
    // The wrapped round is the one extra round trip (issue 15's rule): no third round, whatever the
    // outer terminal is; its APC and DECRQM stay unasked (an unknown terminal may print them).
    name: 'behind a scrubbed tmux with passthrough on, an outer terminal nobody named: two rounds, no guarded third',
    runtime: UNNAMED,
    steps: ['start', ['in', TMUX_ROUND], 1, ['in', DA1], 2, 3],
    expected: [
      `start: write ${ROUND_1}`,
      `in ${escapeBytes(TMUX_ROUND)}: write ${wrap('\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?1;1;0S\\e]11;?\\e\\\\e[c')}`,
      't2: done answered 2ms',
    ],
  },
  {
    name: 'in a known tmux, an outer terminal nobody named: the guarded round goes wrapped after the outer DA1',
    runtime: KNOWN_TMUX,
    steps: ['start', ['in', '\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c'], 1, ['in', DA1], 2, ['in', DA1], 3],
    expected: [
      `start: write \\e[>q\\e]11;?\\e\\\\e[c${wrap('\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?1;1;0S\\e]11;?\\e\\\\e[c')}`,
      `in \\e[?62;c: write ${wrap(GUARDED)}`,
      't3: done answered 3ms',
    ],
  },
  {
    name: 'in a known tmux with passthrough off: no outer DA1, so no guarded round',
    runtime: KNOWN_TMUX,
    steps: ['start', ['in', '\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c'], 1, 50, 51],
    expected: [
      `start: write \\e[>q\\e]11;?\\e\\\\e[c${wrap('\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?1;1;0S\\e]11;?\\e\\\\e[c')}`,
      't51: done answered 51ms',
    ],
  },
  {
    name: 'a Windows console nobody named: never APC; DECRQM in the guarded round; the ConPTY window follows its DA1',
    runtime: WINDOWS_CONSOLE,
    steps: ['start', ['in', DA1], 1, ['in', DA1], 2, 51, 52],
    expected: [`start: write ${ROUND_1}`, 'in \\e[?62;c: write \\e[?2026$p\\e[c', 't52: done answered 52ms'],
  },
  {
    // As behind a scrubbed tmux: the round in screen's packets is the one extra round trip.
    name: 'a scrubbed GNU screen (DA2 83), an outer terminal nobody named: two rounds, the second in its packets, no guarded third',
    runtime: UNNAMED,
    steps: ['start', ['in', '\x1b[>83;40900;0c\x1b[?1;2c'], 1, ['in', DA1], 2, 3],
    expected: [
      `start: write ${ROUND_1}`,
      `in \\e[>83;40900;0c\\e[?1;2c: write ${['\\e[>q', '\\e[>c', '\\e[16t', '\\e[14t', '\\e[18t', '\\e[?1;1;0S']
        .map((q) => `\\eP${q}\\e\\`)
        .join('')}\\eP\\e]11;?\\e\\e\\\\eP\\\\e\\\\eP\\e[c\\e\\`,
      't2: done answered 2ms',
    ],
  },
];

describe('the guarded round', () => {
  it.each(GUARDED_ROWS)('$name', (row) => {
    expect(trace(row.runtime, row.options ?? {}, row.steps, summary).lines).toEqual(row.expected);
  });

  it('keeps the answers of both rounds: the terminal parses APC, its kitty OK and DECRQM count', () => {
    const { state } = trace(
      UNNAMED,
      {},
      ['start', ['in', `\x1b[6;19;10t${DA1}`], 1, ['in', `${KITTY_OK}\x1b[?2026;2$y${DA1}`], 2],
      summary,
    );
    expect(probeResult(state)).toMatchObject({
      sentinel: true,
      timedOut: false,
      kittyGraphics: { ok: true },
      synchronizedOutput: { supported: true },
      cellPixels: { width: 10, height: 19 },
    });
  });

  it('probeNextTickAt: at once to open the guarded window, then its end', () => {
    let { state } = trace(UNNAMED, {}, ['start', 20, ['in', DA1]], summary);
    expect(probeNextTickAt(state)).toBe(20);
    [state] = stepProbe(state, { type: 'clock', nowMs: 21 });
    expect(probeNextTickAt(state)).toBe(21 + 100);
  });
});

const SLOW_ROWS: readonly TraceRow[] = [
  ...(
    [
      ['GitHub Codespaces', { CODESPACES: 'true' }],
      ['VS Code Dev Containers', { REMOTE_CONTAINERS: 'true' }],
      ['code-server', { VSCODE_PROXY_URI: 'https://example.test/proxy/{{port}}' }],
      ['a Jupyter terminal', { JUPYTER_SERVER_URL: 'http://localhost:8888/' }],
    ] as const
  ).map(([name, env]) => ({
    name: `${name}: a silent terminal gets the 1 s budget`,
    runtime: tty({ TERM: 'xterm-256color', ...env }),
    steps: ['start', 100, 999, 1000] as const,
    expected: [`start: write ${ROUND_1}`, 't1000: done timeout 1000ms owed'],
  })),
  {
    name: 'CODESPACES other than true names nothing: 100 ms',
    runtime: tty({ TERM: 'xterm-256color', CODESPACES: 'false' }),
    steps: ['start', 100],
    expected: [`start: write ${ROUND_1}`, 't100: done timeout 100ms owed'],
  },
  {
    name: 'a slow link (code-server) answering at 250 ms: within the long budget, answered',
    runtime: tty({ TERM_PROGRAM: 'vscode', VSCODE_PROXY_URI: './proxy/{{port}}' }),
    steps: ['start', 250, ['in', '\x1b[>0;276;0c\x1b[?1;2c'], 251],
    expected: [
      'start: write \\e[>q\\e[>c\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\\\e[16t\\e[14t\\e[18t\\e[?2026$p\\e[?1;1;0S\\e]11;?\\e\\\\e[c',
      't251: done answered 251ms',
    ],
  },
  {
    name: 'a slow link nobody names, answering at 250 ms against 100 ms: done at 100 (owed), the batch swallowed when it comes',
    runtime: UNNAMED,
    steps: ['start', 100, ['in', `\x1b[>0;276;0c\x1b[6;18;9t${DA1}`], ['in', 'k']],
    expected: [
      `start: write ${ROUND_1}`,
      't100: done timeout 100ms owed',
      'in \\e[>0;276;0c\\e[6;18;9t\\e[?62;c: drained \\e[>0;276;0c, drained \\e[6;18;9t, drained \\e[?62;c, late sentinel',
      'in k: pass k',
    ],
  },
];

describe('slow links', () => {
  it.each(SLOW_ROWS)('$name', (row) => {
    expect(trace(row.runtime, row.options ?? {}, row.steps, summary).lines).toEqual(row.expected);
  });
});

describe('the guarded round never loses a key or leaks a reply (property)', () => {
  const replies = [
    DA1,
    '\x1b[?1;2c',
    KITTY_OK,
    '\x1b[?2026;2$y',
    KITTY_NAME,
    '\x1bP>|newterm(1)\x1b\\',
    '\x1b[6;19;10t',
  ];
  const keys = ['a', '\x1b[A', '\x1bOP', 'é', '\x1b[15~'];
  const piece = fc.oneof(
    fc.constantFrom(...replies).map((text) => ({ text, key: false })),
    fc.constantFrom(...keys).map((text) => ({ text, key: true })),
  );
  // Replies arrive whole (a terminal writes each in one go; the scanner's own properties cover
  // splits anywhere): chunks here are runs of whole pieces, with clock steps between them.
  it('every key comes back in order, every reply is kept or drained, whatever the grouping and clock', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(UNNAMED, KNOWN_TMUX, WINDOWS_CONSOLE),
        fc.array(fc.tuple(piece, fc.integer({ min: 0, max: 60 }), fc.boolean()), { maxLength: 25 }),
        (runtime, parts) => {
          let [state] = stepProbe(createProbe(runtime), { type: 'start' });
          let passed = '';
          let now = 0;
          let chunk = '';
          const take = (actions: readonly ProbeAction[]) => {
            for (const a of actions) if (a.type === 'keys') passed += Buffer.from(a.bytes).toString('latin1');
          };
          const flush = (advance: number) => {
            let actions: ProbeAction[];
            if (chunk.length > 0) {
              [state, actions] = stepProbe(state, { type: 'input', bytes: Buffer.from(chunk, 'latin1') });
              take(actions);
            }
            chunk = '';
            now += advance;
            [state, actions] = stepProbe(state, { type: 'clock', nowMs: now });
            take(actions);
          };
          for (const [p, advance, cut] of parts) {
            chunk += p.text;
            if (cut) flush(advance);
          }
          flush(1);
          let actions: ProbeAction[];
          [state, actions] = stepProbe(state, { type: 'end', nowMs: now + 1 });
          take(actions);
          [state, actions] = stepProbe(state, { type: 'end', nowMs: now + 2 });
          take(actions);
          const typed = parts
            .filter(([p]) => p.key)
            .map(([p]) => p.text)
            .join('');
          // Exactly the keys: none lost, none reordered, no reply among them.
          expect(passed).toBe(typed);
        },
      ),
      { numRuns: 300 },
    );
  });
});
