/**
 * The report's behaviour from the terminal database, case by case: the terminal's own answers over
 * inherited variables, Unicode placeholders per terminal and version inside tmux, tmux 3.4+ drawing
 * sixel itself (from tmux's format answers), GNU screen before 5.0 capped at 256 colours, Zellij
 * and mosh as multiplexers. Each case is seen three ways where it applies: with the environment
 * the terminal gave (`inherited`), with it scrubbed (`scrubbed`, as over ssh or `env -i`), and
 * with both the environment and the replies (`both`). Replies are recorded ones
 * (test/fixtures/replies) or the documented ones listed in that folder's README.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { detect } from '../../src/env/detect.js';
import type { Env } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { parseTmuxFormats, type TmuxFacts } from '../../src/probe/tmux-formats.js';
import { pictureWrap } from '../../src/report/picture-wrap.js';
import { resolveReport } from '../../src/report/resolve.js';
import type { Report } from '../../src/report/types.js';
import { INHERITED_VARIABLES } from '../../src/terminals/inherited.js';
import { REPLIES_DIR } from '../probe/fixtures.js';

/** The batch reply of a recorded terminal (test/fixtures/replies/<name>.json). */
const recorded = (name: string): string =>
  (JSON.parse(readFileSync(path.join(REPLIES_DIR, `${name}.json`), 'utf8')) as { batch: { reply: string } }).batch
    .reply;

const ESC = '\x1b';
const xtversion = (body: string) => `${ESC}P>|${body}${ESC}\\`;
const csi = (body: string) => `${ESC}[${body}`;
const KITTY_OK = `${ESC}_Gi=31;OK${ESC}\\`;

const SCRUBBED: Env = { TERM: 'xterm-256color', HOME: '/root', PATH: '/usr/bin' };
const FROM_KITTY: Env = { TERM_PROGRAM: 'vscode', TERM: 'xterm-256color', KITTY_WINDOW_ID: '1', KITTY_PID: '4242' };
const FROM_ITERM: Env = {
  TERM_PROGRAM: 'vscode',
  TERM: 'xterm-256color',
  LC_TERMINAL: 'iTerm2',
  LC_TERMINAL_VERSION: '3.5.0',
  ITERM_SESSION_ID: 'w0t0p0:1',
};
const TMUX_ENV: Env = { TMUX: '/tmp/tmux-0/default,1,0', TERM: 'tmux-256color', TERM_PROGRAM: 'tmux' };

/** tmux's own answers (before its DA1), then what the outer terminal answered to wrapped queries. */
const inTmux = (own: string, outer = '') => ({
  replies: own + outer,
  context: { multiplexer: 'tmux' as const, wrapped: true },
});

/** What tmux says about itself (`tmux display -p …` and `tmux show -Apv allow-passthrough`). */
const tmuxSays = (version: string, termtype: string, features: string, sixel: string, passthrough: string) =>
  parseTmuxFormats(`${version}\n${termtype}\n${features}\n${sixel}\n`, `${passthrough}\n`) as TmuxFacts;

interface Case {
  readonly name: string;
  readonly how: 'inherited' | 'scrubbed' | 'both' | 'env';
  readonly env: Env;
  /** The reply stream (as recorded), or null when no probe ran. */
  readonly replies: string | null;
  readonly context?: Parameters<typeof factsFromReplies>[1];
  readonly tmux?: TmuxFacts;
  /** What the report must say; `wrap` is how show would wrap the picture. */
  readonly expect: Partial<Pick<Report, 'graphics' | 'placements' | 'hyperlinks' | 'truecolor'>> & {
    readonly terminal?: string | null;
    readonly multiplexer?: string | null;
    readonly wrap?: 'tmux' | 'screen' | null;
    /** The database row `why.graphics` names. */
    readonly row?: string;
  };
}

const XTERMJS = recorded('xtermjs');
const XTERMJS_IMAGE = recorded('xtermjs-image');
const TMUX_35A_OWN = xtversion('tmux 3.5a') + csi('>84;0;0c') + csi('?1;2;4c');
const TMUX_33A_OWN = xtversion('tmux 3.3a') + csi('>84;0;0c') + csi('?1;2c');

const CASES: readonly Case[] = [
  // 1. The terminal's own answers over inherited variables: VS Code (xterm.js) started from kitty or iTerm2.
  ...(['inherited', 'scrubbed'] as const).flatMap((how) =>
    [
      { from: 'kitty', env: FROM_KITTY },
      { from: 'iTerm2', env: FROM_ITERM },
    ].flatMap(({ from, env }) => [
      {
        name: `VS Code from ${from}, no image addon (${how}): text, never kitty`,
        how,
        env: how === 'scrubbed' ? SCRUBBED : env,
        replies: XTERMJS,
        expect: { graphics: 'braille', terminal: 'xterm.js', row: 'xterm.js', placements: false },
      } satisfies Case,
      {
        name: `VS Code from ${from}, image addon (${how}): iTerm2 images`,
        how,
        env: how === 'scrubbed' ? SCRUBBED : env,
        replies: XTERMJS_IMAGE,
        expect: { graphics: 'iterm2', terminal: 'xterm.js', row: 'xterm.js', wrap: null },
      } satisfies Case,
    ]),
  ),
  {
    name: 'VS Code from kitty, unprobed (env): TERM_PROGRAM before the inherited KITTY_WINDOW_ID',
    how: 'env',
    env: FROM_KITTY,
    replies: null,
    expect: { graphics: 'braille', row: 'xterm.js' },
  },
  {
    name: 'VS Code from Ghostty, unprobed (env): GHOSTTY_RESOURCES_DIR under another TERM_PROGRAM',
    how: 'env',
    env: { TERM_PROGRAM: 'vscode', TERM: 'xterm-256color', GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' },
    replies: null,
    expect: { graphics: 'braille', row: 'xterm.js' },
  },
  {
    name: 'kitty itself, unprobed (env): its own variable still counts',
    how: 'env',
    env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' },
    replies: null,
    expect: { graphics: 'kitty', placements: true },
  },
  {
    name: 'kitty 0.26.5 (both): by its XTVERSION',
    how: 'both',
    env: { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' },
    replies: recorded('kitty'),
    expect: { graphics: 'kitty', placements: true, terminal: 'kitty', row: 'kitty' },
  },
  {
    name: 'xterm started from kitty (both): XTVERSION names xterm, no kitty',
    how: 'both',
    env: { TERM: 'xterm-256color', KITTY_WINDOW_ID: '1', XTERM_VERSION: 'XTerm(379)' },
    replies: recorded('xterm'),
    expect: { graphics: 'braille', terminal: 'XTerm', row: 'xterm' },
  },
  {
    name: 'xterm as a VT340 (scrubbed): sixel by DA1',
    how: 'scrubbed',
    env: SCRUBBED,
    replies: recorded('xterm-vt340'),
    expect: { graphics: 'sixel', row: 'xterm' },
  },
  {
    name: 'mosh (scrubbed): text, no links',
    how: 'scrubbed',
    env: SCRUBBED,
    replies: csi('>1;10;0c') + csi('?62c'),
    expect: { graphics: 'braille', hyperlinks: false, multiplexer: 'mosh', row: 'mosh', wrap: null },
  },
  {
    name: 'mosh from iTerm2 (inherited): LC_TERMINAL forwarded, still text',
    how: 'inherited',
    env: { ...SCRUBBED, LC_TERMINAL: 'iTerm2', COLORTERM: 'truecolor' },
    replies: csi('>1;10;0c') + csi('?62c'),
    expect: { graphics: 'braille', hyperlinks: false, multiplexer: 'mosh' },
  },
  // 2. Unicode placeholders per terminal and version inside tmux (passthrough on).
  {
    name: 'kitty 0.28 in tmux 3.3a, passthrough on: kitty with placeholders',
    how: 'both',
    env: { ...TMUX_ENV, KITTY_WINDOW_ID: '1' },
    ...inTmux(TMUX_33A_OWN, xtversion('kitty(0.28.0)') + KITTY_OK + csi('?62;c')),
    expect: { graphics: 'kitty', placements: true, terminal: 'kitty', wrap: 'tmux', row: 'kitty' },
  },
  {
    name: 'kitty 0.27 in tmux 3.3a, passthrough on: no placeholders, no sixel: text',
    how: 'both',
    env: { ...TMUX_ENV, KITTY_WINDOW_ID: '1' },
    ...inTmux(TMUX_33A_OWN, xtversion('kitty(0.27.1)') + KITTY_OK + csi('?62;c')),
    expect: { graphics: 'braille', terminal: 'kitty' },
  },
  {
    name: 'Konsole in tmux 3.3a, passthrough on: its sixel, never kitty placeholders',
    how: 'scrubbed',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN, xtversion('Konsole 23.08.4') + KITTY_OK + csi('?62;4;22c')),
    expect: { graphics: 'sixel', terminal: 'Konsole', wrap: 'tmux', row: 'konsole' },
  },
  {
    name: 'WezTerm in tmux 3.3a, passthrough on: iTerm2 images, never kitty placeholders',
    how: 'scrubbed',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN, xtversion('WezTerm 20240203-110809-5046fc22') + KITTY_OK + csi('?65;4;6;18;22c')),
    expect: { graphics: 'iterm2', wrap: 'tmux', row: 'wezterm' },
  },
  {
    name: 'Ghostty in tmux 3.3a, passthrough on: kitty with placeholders',
    how: 'scrubbed',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN, xtversion('ghostty 1.1.0') + KITTY_OK + csi('?62;22c')),
    expect: { graphics: 'kitty', placements: true, wrap: 'tmux', row: 'ghostty' },
  },
  {
    name: 'an unnamed kitty-speaking terminal in tmux: placeholders unproven, text',
    how: 'scrubbed',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN, KITTY_OK + csi('?62;c')),
    expect: { graphics: 'braille' },
  },
  // 3. tmux 3.4+ draws sixel itself; only #{client_termfeatures} says the client has sixel.
  {
    name: 'foot in tmux 3.5a, passthrough off: tmux draws sixel itself, unwrapped',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(TMUX_35A_OWN),
    tmux: tmuxSays('3.5a', 'foot(1.21.0)', '256,RGB,bpaste,clipboard,hyperlinks,sixel,sync,title', '1', 'off'),
    expect: { graphics: 'sixel', terminal: 'foot', multiplexer: 'tmux', wrap: null, row: 'tmux', hyperlinks: true },
  },
  {
    name: 'foot in tmux 3.5a, passthrough all: still tmux its own sixel (kept in its grid)',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(TMUX_35A_OWN, xtversion('foot(1.21.0)') + csi('?62;4;22c')),
    tmux: tmuxSays('3.5a', 'foot(1.21.0)', 'RGB,sixel,sync', '1', 'all'),
    expect: { graphics: 'sixel', wrap: null, row: 'tmux', hyperlinks: false },
  },
  {
    name: 'kitty in tmux 3.5a, passthrough off: tmux claims sixel (DA1 ?1;2;4c), kitty has none: text',
    how: 'both',
    env: { ...TMUX_ENV, KITTY_WINDOW_ID: '1' },
    ...inTmux(TMUX_35A_OWN),
    tmux: tmuxSays('3.5a', 'kitty(0.41.1)', '256,RGB,clipboard,hyperlinks,sync,title', '1', 'off'),
    expect: { graphics: 'braille', terminal: 'kitty', wrap: null },
  },
  {
    name: 'kitty 0.41 in tmux 3.5a, passthrough all: kitty with placeholders',
    how: 'both',
    env: { ...TMUX_ENV, KITTY_WINDOW_ID: '1' },
    ...inTmux(TMUX_35A_OWN, xtversion('kitty(0.41.1)') + KITTY_OK + csi('?62;c')),
    tmux: tmuxSays('3.5a', 'kitty(0.41.1)', 'RGB,sync', '1', 'all'),
    expect: { graphics: 'kitty', placements: true, wrap: 'tmux', row: 'kitty' },
  },
  {
    name: 'VTE in tmux 3.5a, passthrough on, unanswered wrapped queries: tmux DA1 claims sixel, not VTE',
    how: 'scrubbed',
    env: TMUX_ENV,
    ...inTmux(TMUX_35A_OWN),
    tmux: tmuxSays('3.5a', 'VTE(7600)', 'RGB,hyperlinks,sync', '1', 'on'),
    expect: { graphics: 'braille', terminal: 'VTE' },
  },
  {
    name: 'foot in tmux 3.3a, passthrough off: tmux 3.3 has no sixel of its own',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN),
    tmux: tmuxSays('3.3a', 'foot(1.21.0)', 'RGB,sixel,sync', '', 'off'),
    expect: { graphics: 'braille', wrap: null, hyperlinks: false },
  },
  {
    name: 'foot in tmux 3.4 built without sixel, passthrough off: text',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(xtversion('tmux 3.4') + csi('>84;0;0c') + csi('?1;2c')),
    tmux: tmuxSays('3.4', 'foot(1.21.0)', 'RGB,sixel,sync', '0', 'off'),
    expect: { graphics: 'braille', wrap: null },
  },
  {
    name: 'foot in tmux 3.4 with sixel, passthrough off: tmux draws it',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(xtversion('tmux 3.4') + csi('>84;0;0c') + csi('?1;2;4c')),
    tmux: tmuxSays('3.4', 'foot(1.21.0)', 'RGB,sixel,sync', '1', 'off'),
    expect: { graphics: 'sixel', wrap: null, row: 'tmux' },
  },
  {
    name: 'tmux says passthrough is on where the probe proved nothing: the outer sixel through it',
    how: 'both',
    env: TMUX_ENV,
    ...inTmux(TMUX_33A_OWN),
    tmux: tmuxSays('3.3a', 'foot(1.21.0)', 'RGB,sixel,sync', '', 'on'),
    expect: { graphics: 'sixel', terminal: 'foot', wrap: 'tmux', row: 'foot' },
  },
  // 4. GNU screen before 5.0: 256 colours at most, whatever COLORTERM says.
  {
    name: 'screen 4.09 in xterm (both), COLORTERM=truecolor: 256 colours',
    how: 'both',
    env: { STY: '1.pts-0.host', TERM: 'screen', COLORTERM: 'truecolor' },
    replies: recorded('xterm+screen'),
    context: { multiplexer: 'screen' },
    expect: { truecolor: false, graphics: 'braille', multiplexer: 'screen' },
  },
  {
    name: 'screen 4.09 (scrubbed), COLORTERM=truecolor: 256 colours',
    how: 'scrubbed',
    env: { ...SCRUBBED, COLORTERM: 'truecolor' },
    replies: recorded('xterm+screen'),
    expect: { truecolor: false, multiplexer: 'screen' },
  },
  {
    name: 'screen 5.0 (scrubbed), COLORTERM=truecolor: 24-bit',
    how: 'scrubbed',
    env: { ...SCRUBBED, COLORTERM: 'truecolor' },
    replies: csi('>83;50000;0c') + csi('?1;2c'),
    expect: { truecolor: true, multiplexer: 'screen' },
  },
  // 5. Zellij: a multiplexer with what it draws itself.
  {
    name: 'Zellij 0.45 in kitty (both): kitty drawn by Zellij, no placeholders needed',
    how: 'both',
    env: {
      ZELLIJ: '0',
      ZELLIJ_SESSION_NAME: 'main',
      ZELLIJ_PANE_ID: '1',
      KITTY_WINDOW_ID: '1',
      TERM: 'xterm-256color',
    },
    replies: xtversion('Zellij(4500)') + csi('>0;4500;1c') + csi('?62;52c'),
    expect: { graphics: 'kitty', placements: true, multiplexer: 'zellij', wrap: null, row: 'zellij' },
  },
  {
    name: 'Zellij 0.45.1 (scrubbed)',
    how: 'scrubbed',
    env: SCRUBBED,
    replies: xtversion('Zellij(4501)') + csi('>0;4501;1c') + csi('?62;4;52c'),
    expect: { graphics: 'kitty', multiplexer: 'zellij', wrap: null },
  },
  {
    name: 'Zellij 0.44 over a sixel host (both): sixel only',
    how: 'both',
    env: { ZELLIJ: '0', ZELLIJ_SESSION_NAME: 'main', KITTY_WINDOW_ID: '1' },
    replies: xtversion('Zellij(4403)') + csi('>0;4403;1c') + csi('?62;4;52c'),
    expect: { graphics: 'sixel', multiplexer: 'zellij', wrap: null, row: 'zellij' },
  },
  {
    name: 'Zellij 0.44 over kitty (inherited KITTY_WINDOW_ID): no sixel host, text',
    how: 'inherited',
    env: { ZELLIJ: '0', ZELLIJ_SESSION_NAME: 'main', KITTY_WINDOW_ID: '1' },
    replies: xtversion('Zellij(4403)') + csi('>0;4403;1c') + csi('?62;52c'),
    expect: { graphics: 'braille', multiplexer: 'zellij' },
  },
  {
    name: 'Zellij, unprobed (env): version unknown, text',
    how: 'env',
    env: { ZELLIJ: '0', ZELLIJ_SESSION_NAME: 'main', KITTY_WINDOW_ID: '1' },
    replies: null,
    expect: { graphics: 'braille', multiplexer: 'zellij' },
  },
  {
    name: 'Zellij 0.45 scrubbed, no XTVERSION seen: by DA1 and DA2',
    how: 'scrubbed',
    env: SCRUBBED,
    replies: csi('>0;4500;1c') + csi('?62;52c'),
    expect: { multiplexer: 'zellij' },
  },
];

function reportOf(c: Case & { context?: unknown }): Report {
  const facts: ProbeFacts | undefined =
    c.replies === null ? undefined : factsFromReplies(c.replies, (c.context ?? {}) as never);
  return resolveReport({ env: c.env, isTTY: { stdin: true, stdout: true, stderr: true } }, facts, {
    ...(c.tmux ? { tmux: c.tmux } : {}),
  });
}

describe('the report from the terminal database', () => {
  it.each(CASES)('$name', (c) => {
    const r = reportOf(c);
    const e = c.expect;
    for (const key of ['graphics', 'placements', 'hyperlinks', 'truecolor'] as const) {
      if (e[key] !== undefined) expect(r[key], key).toBe(e[key]);
    }
    if (e.terminal !== undefined) expect(r.terminal.name).toBe(e.terminal);
    if (e.multiplexer !== undefined) expect(r.multiplexer?.name ?? null).toBe(e.multiplexer);
    if (e.wrap !== undefined) expect(pictureWrap(r.multiplexer)).toBe(e.wrap);
    if (e.row !== undefined) expect(r.why.graphics.row).toBe(e.row);
    // Every answer the database decided names its row; nothing says kitty placeholders where there are none.
    if (r.graphics === 'kitty' && r.multiplexer?.name === 'tmux')
      expect(r.why.graphics.row).toMatch(/^(kitty|ghostty)$/);
  });
});

describe('detect(env) keeps the founding table', () => {
  it.each([
    { name: 'VS Code from kitty', env: FROM_KITTY, protocol: 'kitty' },
    { name: 'VS Code from iTerm2', env: FROM_ITERM, protocol: 'iterm2' },
  ])('$name: the founding rule still answers $protocol', ({ env, protocol }) => {
    expect(detect(env)).toBe(protocol);
  });
});

describe('inherited identity variables never beat the terminal', () => {
  // The list: each, set under VS Code's TERM_PROGRAM, leaves the xterm.js answer alone.
  const LISTED = [
    'KITTY_WINDOW_ID',
    'KITTY_PID',
    'LC_TERMINAL',
    'ITERM_SESSION_ID',
    'WEZTERM_PANE',
    'KONSOLE_VERSION',
    'GHOSTTY_RESOURCES_DIR',
  ];
  it('the database lists every one, each with a source a reader can open', () => {
    expect(INHERITED_VARIABLES.map((v) => v.variable)).toEqual(expect.arrayContaining(LISTED));
    for (const { variable, source } of INHERITED_VARIABLES) {
      const file = source.split(' ')[0] as string;
      expect(
        source.startsWith('https://') || existsSync(path.join(REPLIES_DIR, '..', '..', '..', file)),
        variable,
      ).toBe(true);
    }
  });
  const VALUES: Record<string, string> = { LC_TERMINAL: 'iTerm2', KONSOLE_VERSION: '230804' };
  it.each(LISTED.map((variable) => ({ name: variable, variable })))(
    '$name under TERM_PROGRAM=vscode: no probe → text, probed → the replies',
    ({ variable }) => {
      const env = { TERM_PROGRAM: 'vscode', TERM: 'xterm-256color', [variable]: VALUES[variable] ?? '1' };
      const unprobed = resolveReport({ env, isTTY: { stdout: true } });
      expect(unprobed.graphics).toBe('braille');
      // A rule on the variable matched (all but KITTY_PID, which no rule reads): the row overrules it.
      expect(unprobed.why.graphics.row).toBe(variable === 'KITTY_PID' ? undefined : 'xterm.js');
      const probed = resolveReport({ env, isTTY: { stdout: true } }, factsFromReplies(XTERMJS_IMAGE));
      expect(probed.graphics).toBe('iterm2');
    },
  );
});
