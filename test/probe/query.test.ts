/** The batched query: what goes in for which runtime. */
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { escapeBytes } from '../../src/probe/escape.js';
import { planQuery, probeQuery, QUERIES } from '../../src/probe/query.js';
import { wrapTmux } from '../../src/probe/passthrough-wrap.js';

const rt = (env: Record<string, string>, platform = 'linux'): Runtime => ({ env, platform, isTTY: { stdin: true, stdout: true } });
const text = (b: Uint8Array) => Buffer.from(b).toString('latin1');

const DA1 = '\x1b[c';
const KITTY = QUERIES.kittyGraphics;
const WRAPPED_DA1 = text(wrapTmux(DA1));

describe('probeQuery', () => {
  it('holds every query for an ordinary terminal and ends with DA1', () => {
    const q = text(probeQuery({ runtime: rt({ TERM: 'xterm-256color' }) }));
    for (const part of ['\x1b[>q', KITTY, '\x1b[16t', '\x1b[14t', '\x1b[18t', '\x1b[?2026$p', '\x1b]11;?\x1b\\', '\x1b[?1;1;0S', '\x1b[>c']) {
      expect(q).toContain(part);
    }
    expect(q.endsWith(DA1)).toBe(true);
    expect(q.indexOf(DA1)).toBe(q.length - DA1.length); // one DA1: the sentinel
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
    for (const part of ['\x1b[>q', KITTY, '\x1b[16t', '\x1b[14t', '\x1b[?2026$p', '\x1b]11;?\x1b\\']) expect(q).toContain(text(wrapTmux(part)));
    expect(q.split('\x1bPtmux;').length - 1).toBe(planQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }) }).outer.length);
  });

  it('inside tmux with passthrough: false: only what tmux answers', () => {
    expect(escapeBytes(probeQuery({ runtime: rt({ TMUX: '/tmp/x,1,0' }), passthrough: false }))).toBe('\\e[>q\\e[c');
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
