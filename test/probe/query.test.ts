/** The batched query: what goes in for which runtime. */
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapTmuxBytes } from '../../src/core/wrap.js';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { planFollowUp, planGuarded, planQuery, probeQuery, QUERIES, queryBytes } from '../../src/probe/query.js';

const rt = (env: Record<string, string>, platform = 'linux'): Runtime => ({
  env,
  platform,
  isTTY: { stdin: true, stdout: true },
});
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

const DA1 = '\x1b[c';
const KITTY = QUERIES.kittyGraphics;
const WRAPPED_DA1 = text(wrapTmuxBytes(DA1));

describe('probeQuery', () => {
  // The whole batch per runtime, exactly: a query added, dropped or reordered changes a row.
  const BATCH =
    '\\e[>q\\e[>c\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\\\e[16t\\e[14t\\e[18t\\e[?2026$p\\e[?1;1;0S\\e]11;?\\e\\\\e[c';
  const NO_APC = '\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?2026$p\\e[?1;1;0S\\e]11;?\\e\\\\e[c';
  // Nobody named the terminal: what some terminal prints (the kitty APC: rxvt-unicode, screen;
  // DECRQM: zutty) waits for the guarded round.
  const UNNAMED = '\\e[>q\\e[>c\\e[16t\\e[14t\\e[18t\\e[?1;1;0S\\e]11;?\\e\\\\e[c';
  const wrapped = (query: string) => `\\ePtmux;${query.replaceAll('\\e', '\\e\\e')}\\e\\`;
  const ALL = [
    '\\e[>q',
    '\\e[>c',
    '\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\',
    '\\e[16t',
    '\\e[14t',
    '\\e[18t',
    '\\e[?2026$p',
    '\\e[?1;1;0S',
    '\\e]11;?\\e\\',
    '\\e[c',
  ];
  const TMUX_BATCH = `\\e[>q\\e[c${ALL.map(wrapped).join('')}`;
  const TMUX_UNNAMED = `\\e[>q\\e[c${ALL.filter((q) => !q.startsWith('\\e_') && !q.endsWith('$p'))
    .map(wrapped)
    .join('')}`;
  // Each pin changed deliberately when the gates became views of the terminal database: a TERM
  // alone (plain xterm, ssh, a Windows console) names no terminal, so the kitty APC and DECRQM
  // moved to the guarded round; inside tmux the same holds for the outer terminal unless its
  // variables are still there.
  it.each([
    { name: 'plain xterm (TERM alone names nobody)', runtime: rt({ TERM: 'xterm-256color' }), batch: UNNAMED },
    {
      name: 'xterm (XTERM_VERSION)',
      runtime: rt({ TERM: 'xterm-256color', XTERM_VERSION: 'XTerm(379)' }),
      batch: BATCH,
    },
    { name: 'kitty (environment)', runtime: rt({ TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }), batch: BATCH },
    {
      name: 'tmux, outer terminal unnamed',
      runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/tmux-1000/default,1,0' }),
      batch: TMUX_UNNAMED,
    },
    {
      // KITTY_WINDOW_ID is inherited (tmux may since be attached from another terminal): it names
      // no one on its own word, so the outer terminal's kitty APC and DECRQM wait as for an unnamed one.
      name: 'tmux started in kitty (KITTY_WINDOW_ID inherited)',
      runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/tmux-1000/default,1,0', KITTY_WINDOW_ID: '3' }),
      batch: TMUX_UNNAMED,
    },
    {
      name: 'tmux started in Ghostty (its TERM_PROGRAM is tmux now, GHOSTTY_RESOURCES_DIR inherited)',
      runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0', GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' }),
      batch: TMUX_UNNAMED,
    },
    {
      name: 'tmux in a terminal named on its own word (TERM_PROGRAM=WezTerm in the environment)',
      runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0', TERM_PROGRAM: 'WezTerm' }),
      batch: TMUX_BATCH,
    },
    { name: 'GNU screen', runtime: rt({ TERM: 'screen', STY: '1.pts-0.host' }), batch: NO_APC },
    { name: 'Apple Terminal', runtime: rt({ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }), batch: NO_APC },
    { name: 'a Windows console', runtime: rt({ TERM: 'xterm-256color' }, 'win32'), batch: UNNAMED },
    {
      // WT_SESSION reaches WSL and child terminals: it names no one on its own word, and the APC
      // stays out as Windows Terminal's row prints it; DECRQM waits for the guarded round.
      name: 'Windows Terminal (WT_SESSION, inherited)',
      runtime: rt({ TERM: 'xterm-256color', WT_SESSION: 'f00d' }),
      batch: UNNAMED,
    },
    {
      name: 'zutty started from kitty (TERM=xterm-256color, KITTY_WINDOW_ID inherited): no APC, no DECRQM',
      runtime: rt({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1', KITTY_PID: '4242' }),
      batch: UNNAMED,
    },
    {
      name: 'over ssh from iTerm2 (LC_TERMINAL forwarded): its replies name it',
      runtime: rt({ TERM: 'xterm-256color', LC_TERMINAL: 'iTerm2', SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' }),
      batch: UNNAMED,
    },
    {
      name: 'VS Code started from kitty (TERM_PROGRAM=vscode names xterm.js on its own word)',
      runtime: rt({ TERM: 'xterm-256color', TERM_PROGRAM: 'vscode', KITTY_WINDOW_ID: '1' }),
      batch: BATCH,
    },
    { name: 'rxvt-unicode', runtime: rt({ TERM: 'rxvt-unicode-256color' }), batch: NO_APC },
    {
      name: 'rxvt-unicode started from kitty: what any named row prints is left out',
      runtime: rt({ TERM: 'rxvt-unicode-256color', KITTY_WINDOW_ID: '1' }),
      batch: NO_APC,
    },
    { name: 'zutty (TERM=zutty)', runtime: rt({ TERM: 'zutty' }), batch: UNNAMED },
    { name: 'st (prints nothing termsight sends)', runtime: rt({ TERM: 'st-256color' }), batch: BATCH },
    {
      name: 'ssh',
      runtime: rt({ TERM: 'xterm-256color', SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' }),
      batch: UNNAMED,
    },
  ])('$name: the exact batch', ({ runtime, batch }) => {
    expect(escapeBytes(probeQuery({ runtime }))).toBe(batch);
  });

  it('holds the exact kitty graphics query', () => {
    expect(escapeBytes(KITTY)).toBe('\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\');
  });

  it.each([
    ['Apple Terminal: no DCS or APC', rt({ TERM_PROGRAM: 'Apple_Terminal', TERM: 'xterm-256color' }), false, false],
    ['Windows console: no APC', rt({ TERM: 'xterm-256color' }, 'win32'), true, false],
    ['Windows Terminal under WSL: no APC', rt({ TERM: 'xterm-256color', WT_SESSION: 'abc' }), true, false],
    ['GNU screen (STY): no DCS or APC', rt({ TERM: 'screen', STY: '1.pts-0.h' }), false, false],
    ['GNU screen (TERM=screen without TMUX)', rt({ TERM: 'screen-256color' }), false, false],
    ['kitty: everything', rt({ TERM: 'xterm-kitty' }), true, true],
    ['rxvt-unicode: no APC', rt({ TERM: 'rxvt-unicode' }), true, false],
  ])('%s', (_, runtime, dcs, apc) => {
    const q = text(probeQuery({ runtime }));
    expect(q.includes('\x1bP')).toBe(false); // termsight sends no DCS query outside tmux
    expect(q.includes('\x1b_')).toBe(apc);
    expect(planQuery({ runtime })).toMatchObject({ dcs, apc });
    expect(q.endsWith(DA1)).toBe(true);
  });

  it("inside tmux: tmux's own XTVERSION and DA1 first, then each query wrapped, a wrapped DA1 last", () => {
    const q = text(probeQuery({ runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0', TERM_PROGRAM: 'kitty' }) }));
    expect(q.startsWith('\x1b[>q\x1b[c\x1bPtmux;')).toBe(true);
    expect(q.endsWith(WRAPPED_DA1)).toBe(true);
    for (const part of ['\x1b[>q', KITTY, '\x1b[16t', '\x1b[14t', '\x1b[?2026$p', '\x1b]11;?\x1b\\'])
      expect(q).toContain(text(wrapTmuxBytes(part)));
    expect(q.split('\x1bPtmux;').length - 1).toBe(
      planQuery({ runtime: rt({ TMUX: '/tmp/x,1,0', TERM_PROGRAM: 'kitty' }) }).outer.length,
    );
  });

  it('inside tmux with passthrough: false: only what tmux answers', () => {
    expect(escapeBytes(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), askOuter: false }))).toBe('\\e[>q\\e[c');
  });

  it('explicit options win over the runtime', () => {
    expect(text(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), multiplexer: null })).includes('tmux;')).toBe(false);
    expect(text(probeQuery({ multiplexer: 'tmux' })).startsWith('\x1b[>q\x1b[c')).toBe(true);
    expect(text(probeQuery({ platform: 'win32' })).includes('\x1b_')).toBe(false);
  });

  it('with no options: nobody named, the kitty query held back for the guarded round', () => {
    expect(text(probeQuery())).not.toContain(KITTY);
    expect(planQuery().held).toEqual(['kittyGraphics', 'synchronizedOutput']);
  });

  it.each([
    ['rxvt-unicode', rt({ TERM: 'rxvt-unicode' }), 'rxvt-unicode prints apc queries: not sent'],
    ['zutty', rt({ TERM: 'zutty' }), 'zutty prints kittyGraphics, decrqm queries: not sent'],
    ['GNU screen', rt({ STY: '1.x' }), 'GNU screen prints dcs, apc queries: not sent'],
    [
      'nobody named',
      rt({ TERM: 'xterm-256color' }),
      'no terminal named by its own environment: kittyGraphics, synchronizedOutput held back until its replies show it parses them',
    ],
    [
      'only inherited variables',
      rt({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1' }),
      'only inherited variables name kitty: the terminal is not taken as named',
    ],
  ])('%s: the trace names the rule', (_, runtime, note) => {
    expect(planQuery({ runtime }).notes).toContain(note);
  });
});

describe('planFollowUp: a second round when the first one showed a multiplexer the environment hid', () => {
  const SCRUBBED = rt({ TERM: 'xterm-256color', HOME: '/root', PATH: '/usr/bin:/bin' });
  const TMUX_ENV = rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' });

  it.each([
    ['tmux shown in a scrubbed environment: the wrapped round', SCRUBBED, {}, 'tmux', true],
    ['tmux shown, the passthrough option false: none', SCRUBBED, { askOuter: false }, 'tmux', false],
    ['screen shown: none (screen prints DCS, and the tmux wrapper is one)', SCRUBBED, {}, 'screen', false],
    ['nothing shown: none', SCRUBBED, {}, null, false],
    ['tmux known from TMUX: already wrapped in the first round, none', TMUX_ENV, {}, 'tmux', false],
    [
      'Apple Terminal outside (no DCS may be sent): none',
      rt({ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }),
      {},
      'tmux',
      false,
    ],
  ] as const)('%s', (_, runtime, options, shown, expected) => {
    const first = planQuery({ runtime, ...options });
    const follow = planFollowUp(first, shown, { runtime, ...options });
    expect(follow !== null).toBe(expected);
    if (follow === null) return;
    // Exactly what a known tmux adds after its own XTVERSION and DA1.
    const known = planQuery({ runtime: TMUX_ENV, ...options });
    expect(follow).toMatchObject({ multiplexer: 'tmux', wrapped: true, direct: [], outer: known.outer });
    const bytes = text(queryBytes(follow));
    expect(bytes.startsWith('\x1bPtmux;')).toBe(true);
    expect(bytes.endsWith(WRAPPED_DA1)).toBe(true);
    expect(bytes.split('\x1bPtmux;').length - 1).toBe(follow.outer.length);
  });

  it('on Windows the second round holds no kitty graphics query either', () => {
    const runtime = rt({ TERM: 'xterm-256color' }, 'win32');
    const follow = planFollowUp(planQuery({ runtime }), 'tmux', { runtime });
    expect(follow?.outer).not.toContain('kittyGraphics');
    expect(text(queryBytes(follow!))).not.toContain('_G');
  });

  it('the first round in a scrubbed environment asks DA2, which names a hidden tmux (84) or screen (83), before DA1', () => {
    const q = text(probeQuery({ runtime: SCRUBBED }));
    expect(q.indexOf('\x1b[>c')).toBeGreaterThanOrEqual(0);
    expect(q.indexOf('\x1b[>c')).toBeLessThan(q.indexOf(DA1));
    // No DCS query: a screen without STY would print its payload; its one APC becomes screen's hardstatus.
    expect(q.includes('\x1bP')).toBe(false);
  });
});

describe('planGuarded: the held-back queries, once the replies show a terminal that parses them and name none', () => {
  const UNNAMED = rt({ TERM: 'xterm-256color', HOME: '/home/user' });
  const TMUX_UNNAMED = rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' });
  const GUARDED = ['kittyGraphics', 'synchronizedOutput', 'da1'];
  it.each([
    { name: 'DA1 level 62, nothing else', runtime: UNNAMED, replies: '\x1b[?62;c', direct: GUARDED },
    { name: 'DA1 level 65 (VT500)', runtime: UNNAMED, replies: '\x1b[?65;1;9c', direct: GUARDED },
    {
      name: 'DA1 level 61 (VT100-class, Windows ConPTY)',
      runtime: UNNAMED,
      replies: '\x1b[?61;4;6;7;22c',
      direct: null,
    },
    { name: 'DA1 level 1 (rxvt-unicode, tmux, screen)', runtime: UNNAMED, replies: '\x1b[?1;2c', direct: null },
    { name: 'DA1 level 6 (st)', runtime: UNNAMED, replies: '\x1b[?6c', direct: null },
    {
      name: 'an unknown XTVERSION with DA1 level 1',
      runtime: UNNAMED,
      replies: '\x1bP>|newterm(2)\x1b\\\x1b[?1;2c',
      direct: GUARDED,
    },
    { name: 'kitty by XTVERSION', runtime: UNNAMED, replies: '\x1bP>|kitty(0.26.5)\x1b\\\x1b[?62;c', direct: null },
    { name: 'XTerm by XTVERSION', runtime: UNNAMED, replies: '\x1bP>|XTerm(379)\x1b\\\x1b[?65;1;9c', direct: null },
    { name: 'mosh by fingerprint', runtime: UNNAMED, replies: '\x1b[>1;10;0c\x1b[?62c', direct: null },
    {
      name: 'Konsole by XTVERSION: draws kitty, decided by the query',
      runtime: UNNAMED,
      replies: '\x1bP>|Konsole 23.08.4\x1b\\\x1b[?62;4c',
      direct: GUARDED,
    },
    {
      name: 'Zellij 0.45 by XTVERSION: draws kitty itself',
      runtime: UNNAMED,
      replies: '\x1bP>|Zellij(4500)\x1b\\\x1b[?62;52c',
      direct: GUARDED,
    },
    {
      name: 'WezTerm by XTVERSION: its name decides',
      runtime: UNNAMED,
      replies: '\x1bP>|WezTerm 20240203\x1b\\\x1b[?65;4;6;18;22c',
      direct: null,
    },
    { name: 'zutty by fingerprint', runtime: UNNAMED, replies: '\x1b[>64;0;0c\x1b[?64;1;9;15;21;22c', direct: null },
    {
      name: 'zutty DA1 without its DA2: the fingerprint needs both, so unnamed',
      runtime: UNNAMED,
      replies: '\x1b[?64;1;9;15;21;22c',
      direct: GUARDED,
    },
    {
      name: 'a named terminal: nothing was held',
      runtime: rt({ TERM: 'xterm-kitty' }),
      replies: '\x1b[?62;c',
      direct: null,
    },
  ])('$name', ({ runtime, replies, direct }) => {
    const round = planGuarded(planQuery({ runtime }), factsFromReplies(replies));
    expect(round?.direct ?? null).toEqual(direct);
    if (round) {
      expect(round).toMatchObject({ outer: [], held: [] });
      expect(escapeBytes(queryBytes(round))).toBe('\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\\\e[?2026$p\\e[c');
    }
  });

  it("behind tmux the guarded round goes wrapped, read from the outer terminal's replies", () => {
    const plan = planQuery({ runtime: TMUX_UNNAMED });
    const facts = factsFromReplies('\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c\x1b[?62;c', {
      multiplexer: 'tmux',
      wrapped: true,
    });
    const round = planGuarded(plan, facts);
    expect(round).toMatchObject({ direct: [], outer: GUARDED, wrapped: true });
    expect(text(queryBytes(round!))).toBe(
      ['\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\', '\x1b[?2026$p', '\x1b[c']
        .map((q) => text(wrapTmuxBytes(q)))
        .join(''),
    );
    // tmux's own DA1 (level 1) alone, passthrough off: no guarded round.
    const off = factsFromReplies('\x1bP>|tmux 3.3a\x1b\\\x1b[?1;2c', { multiplexer: 'tmux', wrapped: true });
    expect(planGuarded(plan, off)).toBeNull();
  });
});
