/** The batched query: what goes in for which runtime. */
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { wrapTmuxBytes } from '../../src/core/wrap.js';
import type { Runtime } from '../../src/env/runtime.js';
import { planFollowUp, planQuery, probeQuery, QUERIES, queryBytes } from '../../src/probe/query.js';

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
  const wrapped = (query: string) => `\\ePtmux;${query.replaceAll('\\e', '\\e\\e')}\\e\\`;
  const TMUX_BATCH = `\\e[>q\\e[c${[
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
  ]
    .map(wrapped)
    .join('')}`;
  it.each([
    { name: 'plain xterm', runtime: rt({ TERM: 'xterm-256color' }), batch: BATCH },
    { name: 'kitty (environment)', runtime: rt({ TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' }), batch: BATCH },
    { name: 'tmux', runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/tmux-1000/default,1,0' }), batch: TMUX_BATCH },
    { name: 'GNU screen', runtime: rt({ TERM: 'screen', STY: '1.pts-0.host' }), batch: NO_APC },
    { name: 'Apple Terminal', runtime: rt({ TERM: 'xterm-256color', TERM_PROGRAM: 'Apple_Terminal' }), batch: NO_APC },
    { name: 'Windows', runtime: rt({ TERM: 'xterm-256color' }, 'win32'), batch: NO_APC },
    {
      name: 'ssh',
      runtime: rt({ TERM: 'xterm-256color', SSH_CONNECTION: '10.0.0.1 50000 10.0.0.2 22' }),
      batch: BATCH,
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
  ])('%s', (_, runtime, dcs, apc) => {
    const q = text(probeQuery({ runtime }));
    expect(q.includes('\x1bP')).toBe(false); // termsight sends no DCS query outside tmux
    expect(q.includes('\x1b_')).toBe(apc);
    expect(planQuery({ runtime })).toMatchObject({ dcs, apc });
    expect(q.endsWith(DA1)).toBe(true);
  });

  it("inside tmux: tmux's own XTVERSION and DA1 first, then each query wrapped, a wrapped DA1 last", () => {
    const q = text(probeQuery({ runtime: rt({ TERM: 'tmux-256color', TMUX: '/tmp/x,1,0' }) }));
    expect(q.startsWith('\x1b[>q\x1b[c\x1bPtmux;')).toBe(true);
    expect(q.endsWith(WRAPPED_DA1)).toBe(true);
    for (const part of ['\x1b[>q', KITTY, '\x1b[16t', '\x1b[14t', '\x1b[?2026$p', '\x1b]11;?\x1b\\'])
      expect(q).toContain(text(wrapTmuxBytes(part)));
    expect(q.split('\x1bPtmux;').length - 1).toBe(planQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }) }).outer.length);
  });

  it('inside tmux with passthrough: false: only what tmux answers', () => {
    expect(escapeBytes(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), askOuter: false }))).toBe('\\e[>q\\e[c');
  });

  it('explicit options win over the runtime', () => {
    expect(text(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), multiplexer: null })).includes('tmux;')).toBe(false);
    expect(text(probeQuery({ multiplexer: 'tmux' })).startsWith('\x1b[>q\x1b[c')).toBe(true);
    expect(text(probeQuery({ platform: 'win32' })).includes('\x1b_')).toBe(false);
  });

  it('with no options: the full batch', () => {
    expect(text(probeQuery())).toContain(KITTY);
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
