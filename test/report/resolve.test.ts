import { describe, expect, it } from 'vitest';
import type { Env, Runtime } from '../../src/env/runtime.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { resolveReport } from '../../src/report/resolve.js';

const tty = (env: Env, stdout = true): Runtime => ({ env, isTTY: { stdin: true, stdout, stderr: true } });

const base: ProbeFacts = {
  replies: [{ kind: 'csi', text: '\\e[?62;c' }],
  sentinel: true,
  timedOut: false,
  elapsedMs: 4,
};
const kitty: ProbeFacts = {
  ...base,
  terminal: { name: 'kitty', version: '0.26.5', reply: '\\eP>|kitty(0.26.5)\\e\\' },
  kittyGraphics: { ok: true, reply: '\\e_Gi=31;OK\\e\\' },
  da1: { level: 62, attributes: [], reply: '\\e[?62;c' },
  synchronizedOutput: { supported: true, reply: '\\e[?2026;2$y' },
  cellPixels: { width: 10, height: 19, reply: '\\e[6;19;10t' },
  background: { rgb: [0, 0, 0], dark: true, reply: '\\e]11;rgb:0000/0000/0000\\e\\' },
};
const xterm: ProbeFacts = {
  ...base,
  terminal: { name: 'XTerm', version: '379', reply: '\\eP>|XTerm(379)\\e\\' },
  da1: {
    level: 64,
    attributes: [1, 2, 6, 9, 15, 16, 17, 18, 21, 22, 28],
    reply: '\\e[?64;1;2;6;9;15;16;17;18;21;22;28c',
  },
};
const vt340: ProbeFacts = {
  ...xterm,
  da1: { level: 63, attributes: [1, 2, 4, 6, 9, 15, 16, 22, 28], reply: '\\e[?63;1;2;4;6;9;15;16;22;28c' },
  sixelColors: { registers: 256, reply: '\\e[?1;0;256S' },
};
const iterm: ProbeFacts = {
  ...base,
  terminal: { name: 'iTerm2', version: '3.5.0', reply: '\\eP>|iTerm2 3.5.0\\e\\' },
  kittyGraphics: { ok: true, reply: '\\e_Gi=31;OK\\e\\' },
};
const tmux33a: NonNullable<ProbeFacts['multiplexer']> = {
  name: 'tmux',
  version: '3.3a',
  reply: '\\eP>|tmux 3.3a\\e\\',
};
const tmuxOff: ProbeFacts = {
  ...base,
  multiplexer: tmux33a,
  passthrough: false,
  da1: { level: 1, attributes: [2], reply: '\\e[?1;2c' },
};
const tmuxOn: ProbeFacts = {
  ...kitty,
  multiplexer: { name: 'tmux', version: '3.3a', reply: '\\eP>|tmux 3.3a\\e\\' },
  passthrough: true,
};
const kitty028InTmux: ProbeFacts = {
  ...tmuxOn,
  terminal: { name: 'kitty', version: '0.28.1', reply: '\\eP>|kitty(0.28.1)\\e\\' },
};
const ghosttyInTmux: ProbeFacts = {
  ...tmuxOn,
  terminal: { name: 'ghostty', version: '1.1.0', reply: '\\eP>|ghostty 1.1.0\\e\\' },
};
const vt340InTmux: ProbeFacts = { ...vt340, multiplexer: tmux33a, passthrough: true };
const unnamedSixel: ProbeFacts = { ...base, da1: { level: 62, attributes: [4, 22], reply: '\\e[?62;4;22c' } };
const silent: ProbeFacts = { replies: [], sentinel: false, timedOut: true, elapsedMs: 100 };

describe('resolve: graphics precedence', () => {
  it.each<{ name: string; runtime: Runtime; facts: ProbeFacts | undefined; graphics: string | null; source: string }>([
    {
      name: 'override beats the probe',
      runtime: tty({ TERMSIGHT_GRAPHICS: 'sixel' }),
      facts: kitty,
      graphics: 'sixel',
      source: 'override',
    },
    {
      name: 'override off draws nothing',
      runtime: tty({ TERMSIGHT_GRAPHICS: 'off', TERM: 'xterm-kitty' }),
      facts: kitty,
      graphics: null,
      source: 'override',
    },
    {
      name: 'override beats not-a-TTY',
      runtime: tty({ TERMSIGHT_GRAPHICS: 'kitty' }, false),
      facts: undefined,
      graphics: 'kitty',
      source: 'override',
    },
    {
      name: 'not a TTY: no images',
      runtime: tty({ TERM: 'xterm-kitty' }, false),
      facts: kitty,
      graphics: null,
      source: 'tty',
    },
    {
      name: 'tmux without passthrough: the text picture',
      runtime: tty({ TMUX: '/tmp/x,1,0', KITTY_WINDOW_ID: '1' }),
      facts: tmuxOff,
      graphics: 'symbols',
      source: 'multiplexer',
    },
    {
      name: 'tmux unprobed: passthrough unproven',
      runtime: tty({ TMUX: '/tmp/x,1,0', KITTY_WINDOW_ID: '1' }),
      facts: undefined,
      graphics: 'symbols',
      source: 'multiplexer',
    },
    {
      name: 'tmux with passthrough: kitty with placeholders',
      runtime: tty({ TMUX: '/tmp/x,1,0' }),
      facts: kitty028InTmux,
      graphics: 'kitty',
      source: 'reply',
    },
    {
      name: 'tmux with passthrough: kitty 0.26 has no placeholders',
      runtime: tty({ TMUX: '/tmp/x,1,0' }),
      facts: tmuxOn,
      graphics: 'symbols',
      source: 'reply',
    },
    {
      name: 'tmux with passthrough: ghostty',
      runtime: tty({ TMUX: '/tmp/x,1,0' }),
      facts: ghosttyInTmux,
      graphics: 'kitty',
      source: 'reply',
    },
    {
      name: 'tmux with passthrough: sixel',
      runtime: tty({ TMUX: '/tmp/x,1,0' }),
      facts: vt340InTmux,
      graphics: 'sixel',
      source: 'reply',
    },
    {
      name: 'screen: the text picture',
      runtime: tty({ STY: '1.pts', TERM: 'screen', KITTY_WINDOW_ID: '1' }),
      facts: undefined,
      graphics: 'symbols',
      source: 'multiplexer',
    },
    {
      name: 'probe: kitty by name over ssh',
      runtime: tty({ TERM: 'xterm-256color', SSH_CONNECTION: 'a b c d' }),
      facts: kitty,
      graphics: 'kitty',
      source: 'reply',
    },
    { name: 'probe: iTerm2 is never kitty', runtime: tty({}), facts: iterm, graphics: 'iterm2', source: 'reply' },
    {
      name: 'probe: sixel from DA1',
      runtime: tty({ TERM: 'xterm' }),
      facts: vt340,
      graphics: 'sixel',
      source: 'reply',
    },
    {
      name: 'probe: sixel from DA1 without a name',
      runtime: tty({}),
      facts: unnamedSixel,
      graphics: 'sixel',
      source: 'reply',
    },
    {
      name: 'probe: a named terminal without graphics beats a stale variable',
      runtime: tty({ KITTY_WINDOW_ID: '1' }),
      facts: xterm,
      graphics: 'symbols',
      source: 'reply',
    },
    {
      name: 'silent terminal: the environment',
      runtime: tty({ TERM: 'foot' }),
      facts: silent,
      graphics: 'sixel',
      source: 'rule',
    },
    {
      name: 'nothing known: the text picture by default',
      runtime: tty({ TERM: 'xterm-256color' }),
      facts: silent,
      graphics: 'symbols',
      source: 'default',
    },
    {
      name: 'nothing known, NO_COLOR: braille',
      runtime: tty({ TERM: 'xterm-256color', NO_COLOR: '1' }),
      facts: silent,
      graphics: 'braille',
      source: 'default',
    },
    {
      name: 'tmux without passthrough, NO_COLOR: braille',
      runtime: tty({ TMUX: '/tmp/x,1,0', NO_COLOR: '1' }),
      facts: tmuxOff,
      graphics: 'braille',
      source: 'multiplexer',
    },
    {
      name: 'asked for braille: braille',
      runtime: tty({ TERMSIGHT_GRAPHICS: 'braille' }),
      facts: silent,
      graphics: 'braille',
      source: 'override',
    },
  ])('$name', ({ runtime, facts, graphics, source }) => {
    const report = resolveReport(runtime, facts);
    expect(report.graphics).toBe(graphics);
    expect(report.why.graphics.source).toBe(source);
  });

  it('names the deciding reply', () => {
    const report = resolveReport(tty({}), kitty);
    expect(report.why.graphics.reply).toBe('\\eP>|kitty(0.26.5)\\e\\');
    expect(resolveReport(tty({}), vt340).why.graphics.reply).toBe('\\e[?63;1;2;4;6;9;15;16;22;28c');
  });

  it('reports an unknown override and goes on', () => {
    const report = resolveReport(tty({ TERMSIGHT_GRAPHICS: 'png', TERM: 'foot' }));
    expect(report.graphics).toBe('sixel');
    expect(report.why.graphics.detail).toContain('ignored');
  });

  it('describes the terminal itself with stream tty, even when stdout is a pipe', () => {
    expect(resolveReport(tty({ TERM: 'xterm-kitty' }, false), kitty, { stream: 'tty' }).graphics).toBe('kitty');
    expect(resolveReport(tty({ TERM: 'xterm-kitty' }, false), kitty, { stream: 'stderr' }).graphics).toBe('kitty');
  });
});

describe('resolve: the other answers', () => {
  it('takes what kitty said', () => {
    const r = resolveReport(tty({ TERM: 'xterm-256color' }), kitty);
    expect(r).toMatchObject({
      placements: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      cellPixels: { width: 10, height: 19 },
      background: { dark: true, rgb: [0, 0, 0] },
      terminal: { name: 'kitty', version: '0.26.5' },
      multiplexer: null,
      remote: false,
      probeMs: 4,
    });
  });

  it('tmux without passthrough says how to turn it on', () => {
    const r = resolveReport(tty({ TMUX: '/tmp/x,1,0' }), tmuxOff);
    expect(r.multiplexer).toMatchObject({ name: 'tmux', version: '3.3a', passthrough: false });
    // tmux 3.3a knows only `on`; 3.4+ (and an unknown version) is told `all`.
    expect(r.multiplexer?.hint).toContain('set -g allow-passthrough on');
    const newer = resolveReport(tty({ TMUX: '/tmp/x,1,0' }), {
      ...tmuxOff,
      multiplexer: { name: 'tmux', version: '3.5a', reply: '\\eP>|tmux 3.5a\\e\\' },
    });
    expect(newer.multiplexer?.hint).toContain('set -g allow-passthrough all');
    expect(r.hyperlinks).toBe(false);
  });

  it.each<{ name: string; env: Env; facts: ProbeFacts | undefined; expected: boolean }>([
    { name: 'kitty keeps and places', env: { TERM: 'xterm-kitty' }, facts: undefined, expected: true },
    { name: 'WezTerm is partial', env: { TERM_PROGRAM: 'WezTerm' }, facts: undefined, expected: false },
    { name: 'iTerm2 never places', env: { TERM_PROGRAM: 'iTerm.app' }, facts: undefined, expected: false },
    { name: 'the probe names kitty', env: {}, facts: kitty, expected: true },
    { name: 'sixel has no placements', env: { TERM: 'foot' }, facts: undefined, expected: false },
  ])('placements: $name', ({ env, facts, expected }) => {
    expect(resolveReport(tty(env), facts).placements).toBe(expected);
  });

  it.each<{ name: string; env: Env; facts: ProbeFacts | undefined; expected: boolean }>([
    { name: 'COLORTERM truecolor', env: { COLORTERM: 'truecolor' }, facts: undefined, expected: true },
    { name: 'COLORTERM 24bit', env: { COLORTERM: '24bit' }, facts: undefined, expected: true },
    { name: 'kitty by name', env: {}, facts: kitty, expected: true },
    { name: 'TERM -direct', env: { TERM: 'xterm-direct' }, facts: undefined, expected: true },
    { name: 'plain xterm', env: { TERM: 'xterm' }, facts: xterm, expected: false },
  ])('truecolor: $name', ({ env, facts, expected }) => {
    expect(resolveReport(tty(env), facts).truecolor).toBe(expected);
  });

  it('remote when an SSH_ variable is set', () => {
    expect(resolveReport(tty({ SSH_TTY: '/dev/pts/1' })).remote).toBe(true);
    expect(resolveReport(tty({ SSH_TTY: '' })).remote).toBe(false);
  });

  it('no probe: probeMs is null and every answer has a reason', () => {
    const r = resolveReport(tty({ TERM: 'xterm-kitty' }));
    expect(r.probeMs).toBeNull();
    for (const why of Object.values(r.why)) expect(why.detail.length).toBeGreaterThan(0);
  });
});
