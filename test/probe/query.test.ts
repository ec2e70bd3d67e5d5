/** The batched query: what goes in for which runtime. */
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapScreen, wrapTmuxBytes } from '../../src/core/wrap.js';
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
  const TMUX_BATCH = `\\e[>q\\e]11;?\\e\\\\e[c${ALL.map(wrapped).join('')}`;
  const TMUX_UNNAMED = `\\e[>q\\e]11;?\\e\\\\e[c${ALL.filter((q) => !q.startsWith('\\e_') && !q.endsWith('$p'))
    .map(wrapped)
    .join('')}`;
  // screen's packets: `ESC P … ESC \`, an inner `ESC \` split across two (its ESC ends the first).
  const inScreen = (query: string) => `\\eP${query.replace(/\\e\\$/, '\\e\\e\\\\eP\\')}\\e\\`;
  const SCREEN_BATCH = `\\e[>c\\e[c${ALL.map(inScreen).join('')}`;
  const SCREEN_UNNAMED = `\\e[>c\\e[c${ALL.filter((q) => !q.startsWith('\\e_') && !q.endsWith('$p'))
    .map(inScreen)
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
    // Behind screen: its own DA2 and DA1 raw, then every query in screen's DCS packets for the
    // outer terminal, gated as that terminal (named on its own word or not).
    {
      name: 'GNU screen, outer terminal unnamed',
      runtime: rt({ TERM: 'screen', STY: '1.pts-0.host' }),
      batch: SCREEN_UNNAMED,
    },
    {
      name: 'GNU screen in xterm (XTERM_VERSION)',
      runtime: rt({ TERM: 'screen', STY: '1.pts-0.host', XTERM_VERSION: 'XTerm(379)' }),
      batch: SCREEN_BATCH,
    },
    {
      name: 'GNU screen in rxvt-unicode: no kitty query for the outer terminal either',
      runtime: rt({ TERM: 'screen', STY: '1.pts-0.host', COLORTERM: 'rxvt-xpm' }),
      batch: SCREEN_UNNAMED,
    },
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
    {
      name: 'Apple Terminal: no DCS or APC',
      runtime: rt({ TERM_PROGRAM: 'Apple_Terminal', TERM: 'xterm-256color' }),
      dcs: false,
      apc: false,
    },
    { name: 'Windows console: no APC', runtime: rt({ TERM: 'xterm-256color' }, 'win32'), dcs: true, apc: false },
    {
      name: 'Windows Terminal under WSL: no APC',
      runtime: rt({ TERM: 'xterm-256color', WT_SESSION: 'abc' }),
      dcs: true,
      apc: false,
    },
    { name: 'kitty: everything', runtime: rt({ TERM: 'xterm-kitty' }), dcs: true, apc: true },
    { name: 'rxvt-unicode: no APC', runtime: rt({ TERM: 'rxvt-unicode' }), dcs: true, apc: false },
  ])('$name', ({ runtime, dcs, apc }) => {
    const q = text(probeQuery({ runtime }));
    expect(q.includes('\x1bP')).toBe(false); // termsight sends no DCS query outside tmux
    expect(q.includes('\x1b_')).toBe(apc);
    expect(planQuery({ runtime })).toMatchObject({ dcs, apc });
    expect(q.endsWith(DA1)).toBe(true);
  });

  it("inside tmux: tmux's own XTVERSION, OSC 11 and DA1 first, then each query wrapped, a wrapped DA1 last", () => {
    const q = text(probeQuery({ runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0', TERM_PROGRAM: 'kitty' }) }));
    expect(q.startsWith('\x1b[>q\x1b]11;?\x1b\\\x1b[c\x1bPtmux;')).toBe(true);
    expect(q.endsWith(WRAPPED_DA1)).toBe(true);
    for (const part of ['\x1b[>q', KITTY, '\x1b[16t', '\x1b[14t', '\x1b[?2026$p', '\x1b]11;?\x1b\\'])
      expect(q).toContain(text(wrapTmuxBytes(part)));
    expect(q.split('\x1bPtmux;').length - 1).toBe(
      planQuery({ runtime: rt({ TMUX: '/tmp/x,1,0', TERM_PROGRAM: 'kitty' }) }).outer.length,
    );
  });

  it.each([
    { name: 'GNU screen (STY)', runtime: rt({ TERM: 'screen', STY: '1.pts-0.h', XTERM_VERSION: 'XTerm(379)' }) },
    {
      name: 'GNU screen (TERM=screen without TMUX)',
      runtime: rt({ TERM: 'screen-256color', XTERM_VERSION: 'XTerm(379)' }),
    },
  ])(
    '$name: no DCS or APC reaches screen raw; every query is in its packets but its own DA2 and DA1',
    ({ runtime }) => {
      const q = text(probeQuery({ runtime }));
      const plan = planQuery({ runtime });
      expect(plan).toMatchObject({ multiplexer: 'screen', wrapped: true, direct: ['da2', 'da1'] });
      // Outside the packets: only what screen answers itself.
      const raw = q.replace(/\x1bP[^\x1b]*(\x1b(?!\\)[^\x1b]*)*\x1b\\/g, '');
      expect(raw).toBe('\x1b[>c\x1b[c');
      expect(q).toBe(`\x1b[>c\x1b[c${plan.outer.map((name) => wrapScreen(QUERIES[name])).join('')}`);
      expect(q.endsWith(wrapScreen(DA1))).toBe(true);
      expect(plan.outer).toContain('kittyGraphics');
    },
  );

  it('GNU screen with askOuter: false: only what screen neither prints nor takes as its title', () => {
    const runtime = rt({ TERM: 'screen', STY: '1.pts-0.h', XTERM_VERSION: 'XTerm(379)' });
    const plan = planQuery({ runtime, askOuter: false });
    expect(plan).toMatchObject({ wrapped: false, dcs: false, apc: false, outer: [] });
    expect(plan.notes).toContain('GNU screen prints dcs, apc queries: not sent');
    const q = text(probeQuery({ runtime, askOuter: false }));
    expect(q.includes('\x1bP') || q.includes('\x1b_')).toBe(false);
    expect(q.endsWith(DA1)).toBe(true);
  });

  it('inside tmux with passthrough: false: only what tmux answers', () => {
    expect(escapeBytes(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), askOuter: false }))).toBe(
      '\\e[>q\\e]11;?\\e\\\\e[c',
    );
  });

  it('explicit options win over the runtime', () => {
    expect(text(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), multiplexer: null })).includes('tmux;')).toBe(false);
    expect(text(probeQuery({ multiplexer: 'tmux' })).startsWith('\x1b[>q\x1b]11;?\x1b\\\x1b[c')).toBe(true);
    expect(text(probeQuery({ platform: 'win32' })).includes('\x1b_')).toBe(false);
  });

  it('with no options: nobody named, the kitty query held back for the guarded round', () => {
    expect(text(probeQuery())).not.toContain(KITTY);
    expect(planQuery().held).toEqual(['kittyGraphics', 'synchronizedOutput']);
  });

  it.each([
    { name: 'rxvt-unicode', runtime: rt({ TERM: 'rxvt-unicode' }), note: 'rxvt-unicode prints apc queries: not sent' },
    { name: 'zutty', runtime: rt({ TERM: 'zutty' }), note: 'zutty prints kittyGraphics, decrqm queries: not sent' },
    {
      name: 'GNU screen, outer terminal unnamed',
      runtime: rt({ STY: '1.x' }),
      note: 'no terminal named by its own environment: kittyGraphics, synchronizedOutput held back until its replies show it parses them',
    },
    {
      name: 'nobody named',
      runtime: rt({ TERM: 'xterm-256color' }),
      note: 'no terminal named by its own environment: kittyGraphics, synchronizedOutput held back until its replies show it parses them',
    },
    {
      name: 'only inherited variables',
      runtime: rt({ TERM: 'xterm-256color', KITTY_WINDOW_ID: '1' }),
      note: 'only inherited variables name kitty: the terminal is not taken as named',
    },
  ])('$name: the trace names the rule', ({ runtime, note }) => {
    expect(planQuery({ runtime }).notes).toContain(note);
  });
});

describe('planFollowUp: a second round when the first one showed a multiplexer the environment hid', () => {
  const SCRUBBED = rt({ TERM: 'xterm-256color', HOME: '/root', PATH: '/usr/bin:/bin' });
  const TMUX_ENV = rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' });
  const SCREEN_ENV = rt({ TERM: 'screen', STY: '1.pts-0.host' });

  it.each([
    {
      name: 'tmux shown in a scrubbed environment: the wrapped round',
      runtime: SCRUBBED,
      options: {},
      shown: 'tmux',
      expected: true,
    },
    {
      name: 'tmux shown, the passthrough option false: none',
      runtime: SCRUBBED,
      options: { askOuter: false },
      shown: 'tmux',
      expected: false,
    },
    {
      name: 'screen shown in a scrubbed environment: the wrapped round, in its packets',
      runtime: SCRUBBED,
      options: {},
      shown: 'screen',
      expected: true,
    },
    {
      name: 'screen shown, the passthrough option false: none',
      runtime: SCRUBBED,
      options: { askOuter: false },
      shown: 'screen',
      expected: false,
    },
    {
      name: 'screen known from STY: already wrapped in the first round, none',
      runtime: SCREEN_ENV,
      options: {},
      shown: 'screen',
      expected: false,
    },
    { name: 'nothing shown: none', runtime: SCRUBBED, options: {}, shown: null, expected: false },
    {
      name: 'tmux known from TMUX: already wrapped in the first round, none',
      runtime: TMUX_ENV,
      options: {},
      shown: 'tmux',
      expected: false,
    },
    {
      name: 'Apple Terminal outside (no DCS may be sent): none',
      runtime: rt({ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }),
      options: {},
      shown: 'tmux',
      expected: false,
    },
  ] as const)('$name', ({ runtime, options, shown, expected }) => {
    const first = planQuery({ runtime, ...options });
    const follow = planFollowUp(first, shown, { runtime, ...options });
    expect(follow !== null).toBe(expected);
    if (follow === null) return;
    // Exactly what a known tmux (screen) adds after its own answers.
    const known = planQuery({ runtime: shown === 'screen' ? SCREEN_ENV : TMUX_ENV, ...options });
    expect(follow).toMatchObject({ multiplexer: shown, wrapped: true, direct: [], outer: known.outer });
    const bytes = text(queryBytes(follow));
    if (shown === 'screen') {
      expect(bytes).toBe(follow.outer.map((name) => wrapScreen(QUERIES[name])).join(''));
      return;
    }
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
