/**
 * The terminal database on its own: its invariants (unique ids, a source on every fact, versions
 * that parse), the founding tables pinned row by row, the views pinned, a table of questions with
 * their answers (boundary versions included), and a mutation test: changing any one boolean,
 * version or list entry of any row must change at least one answer of that table.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GRAPHICS_RULES } from '../../src/env/graphics-rules.js';
import { PLACEMENT_RULES } from '../../src/env/placement-rules.js';
import { DECISIVE_NAMES } from '../../src/probe/classify.js';
import { LINKING_TERMINALS } from '../../src/report/hyperlinks.js';
import { KITTY_PLACEHOLDERS_SINCE } from '../../src/report/resolve.js';
import {
  answer,
  graphicsRules,
  identify,
  placementNames,
  placementRules,
  QUESTIONS,
  type Question,
  type Sighting,
  TERMINALS,
  type TerminalRow,
  truecolorNames,
} from '../../src/terminals/index.js';
import { envProtocol } from '../../src/terminals/views.js';
import { PINNED_GRAPHICS_RULES, PINNED_PLACEMENT_RULES } from './pinned-rules.js';

const root = new URL('../../', import.meta.url).pathname;

/** Every `{ source }` anywhere in a row, with where it sits. */
function sourced(node: unknown, path: string, out: { path: string; source: unknown; since?: unknown }[] = []) {
  if (Array.isArray(node)) {
    node.forEach((item, i) => {
      sourced(item, `${path}[${i}]`, out);
    });
  } else if (node !== null && typeof node === 'object') {
    const record = node as Record<string, unknown>;
    if ('source' in record) out.push({ path, source: record.source, since: record.since });
    for (const [key, value] of Object.entries(record)) if (key !== 'when') sourced(value, `${path}.${key}`, out);
  }
  return out;
}

describe('the database', () => {
  it('has unique ids and unique XTVERSION names', () => {
    const ids = TERMINALS.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    const names = TERMINALS.flatMap((r) => r.identity.xtversion?.names.map((n) => n.toLowerCase()) ?? []);
    expect(new Set(names).size).toBe(names.length);
  });

  it.each(TERMINALS.map((row) => ({ name: row.id, row })))(
    '$name: every fact has a source a reader can open',
    ({ row }) => {
      const facts = sourced(row, row.id);
      expect(facts.length).toBeGreaterThan(0);
      for (const { path, source } of facts) {
        expect(typeof source, path).toBe('string');
        const text = source as string;
        if (text.startsWith('https://')) continue;
        // A repository file: the path before any note in brackets must exist.
        const file = text.split(' ')[0] as string;
        expect(existsSync(`${root}${file}`), `${path}: ${text}`).toBe(true);
      }
    },
  );

  it.each(TERMINALS.map((row) => ({ name: row.id, row })))('$name: every version parses', ({ row }) => {
    for (const { path, since } of sourced(row, row.id)) {
      if (since !== undefined) expect(since, path).toMatch(/^\d+(\.\d+)*$/);
    }
  });

  it.each(TERMINALS.map((row) => ({ name: row.id, row })))(
    '$name: fingerprints are anchored expressions',
    ({ row }) => {
      for (const f of row.identity.fingerprints ?? []) {
        for (const pattern of [f.da1, f.da2]) if (pattern !== undefined) expect(pattern.startsWith('^')).toBe(true);
        expect(f.da1 ?? f.da2).toBeDefined();
      }
    },
  );

  it.each([
    { name: 'graphics', texts: TERMINALS.flatMap((r) => r.identity.env.flatMap((s) => s.graphics ?? [])) },
    { name: 'placements', texts: TERMINALS.flatMap((r) => r.identity.env.flatMap((s) => s.placements ?? [])) },
  ])('$name rules: unique ids', ({ texts }) => {
    expect(new Set(texts.map((r) => r.id)).size).toBe(texts.length);
  });

  it('every sign has a priority of its own: the recogniser never has to break a tie', () => {
    const priorities = TERMINALS.flatMap((r) => r.identity.env.map((s) => s.priority));
    expect(new Set(priorities).size).toBe(priorities.length);
  });

  it.each(TERMINALS.map((row) => ({ name: row.id, row })))(
    '$name: a sign that decides an env table has an answer in its row',
    ({ row }) => {
      for (const sign of row.identity.env) {
        if (sign.graphics) expect(envProtocol(row)).toBeDefined();
        if (sign.placements) expect(row.facts.placements).toBeDefined();
        if (sign.names === false) expect(sign.graphics ?? sign.placements).toBeDefined();
      }
    },
  );
});

describe('the env tables are views that come out exactly as before', () => {
  it.each(PINNED_GRAPHICS_RULES.map((rule, i) => ({ name: `graphics ${i + 1}: ${rule.id}`, i, rule })))(
    '$name',
    ({ i, rule }) => {
      expect(GRAPHICS_RULES[i]).toStrictEqual(rule);
    },
  );
  it.each(PINNED_PLACEMENT_RULES.map((rule, i) => ({ name: `placements ${i + 1}: ${rule.id}`, i, rule })))(
    '$name',
    ({ i, rule }) => {
      expect(PLACEMENT_RULES[i]).toStrictEqual(rule);
    },
  );
  it('has no row more or less, and the founding rows first', () => {
    expect(GRAPHICS_RULES).toHaveLength(PINNED_GRAPHICS_RULES.length);
    expect(PLACEMENT_RULES).toHaveLength(PINNED_PLACEMENT_RULES.length);
    expect(graphicsRules().filter((r) => r.founding)).toStrictEqual(GRAPHICS_RULES.slice(0, 8));
    expect(placementRules()).toStrictEqual(PLACEMENT_RULES);
  });
});

describe('the name views', () => {
  it.each([
    {
      name: 'DECISIVE_NAMES',
      view: DECISIVE_NAMES,
      pinned: [
        ['kitty', 'kitty'],
        ['ghostty', 'kitty'],
        ['wezterm', 'kitty'],
        ['iterm2', 'iterm2'],
        ['foot', 'sixel'],
        ['contour', 'sixel'],
        ['mlterm', 'sixel'],
      ],
    },
    { name: 'placementNames()', view: placementNames(), pinned: ['kitty', 'ghostty'] },
    {
      name: 'LINKING_TERMINALS',
      view: LINKING_TERMINALS,
      pinned: [
        ['kitty', '0.19'],
        ['ghostty', '0'],
        ['wezterm', '0'],
        ['iterm2', '3.1'],
        ['foot', '1.7.0'],
      ],
    },
    {
      name: 'TRUECOLOR_NAMES',
      view: truecolorNames(),
      pinned: ['kitty', 'ghostty', 'wezterm', 'iterm2', 'konsole', 'foot', 'contour', 'xterm.js', 'alacritty'],
    },
    { name: 'KITTY_PLACEHOLDERS_SINCE', view: KITTY_PLACEHOLDERS_SINCE, pinned: '0.28' },
  ])('$name', ({ view, pinned }) => {
    expect(view).toStrictEqual(pinned);
  });
});

type How = 'env' | 'reply' | 'both' | 'scrubbed';

/** A terminal as seen, what should identify it, and every answer that is not false or empty. */
interface Case {
  readonly name: string;
  readonly terminal: string;
  readonly how: How;
  readonly seen: Sighting;
  /** A version known from elsewhere, where identification gives none. */
  readonly version?: string;
  readonly answers: Partial<Record<Question, boolean | string>>;
}

const SCRUBBED = { TERM: 'xterm-256color', HOME: '/root', PATH: '/usr/bin' };
const KITTY_FACTS = {
  notify: true,
  clipboard: true,
  placements: true,
  animation: true,
  truecolor: true,
  synchronizedOutput: true,
  inBandResize: true,
};
const TMUX_OWN = 'xtversion,da1,da2,windowCells';
const TMUX_34 = `${TMUX_OWN},oscColours,windowPixels,cellPixels`;
const SCREEN = { reorders: true, passthrough: true, quirks: 'dcs:prints,apc:prints', answers: 'da1,da2' };
const ZELLIJ_OWN = 'xtversion,da1,da2';

const CASES: readonly Case[] = [
  {
    name: 'kitty 0.28 by reply',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.28.0)' },
    answers: { ...KITTY_FACTS, placeholders: true, hyperlinks: true, draws: 'kitty', glyphs: 'blocks,sextants' },
  },
  {
    name: 'kitty 0.40 by reply: octants',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.40.0)' },
    answers: {
      ...KITTY_FACTS,
      placeholders: true,
      hyperlinks: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'kitty 0.18 by reply: no sextants or hyperlinks yet',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.18.3)' },
    answers: { ...KITTY_FACTS, draws: 'kitty', glyphs: 'blocks' },
  },
  {
    name: 'kitty 0.27 by reply: no placeholders',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.27.1)' },
    answers: { ...KITTY_FACTS, hyperlinks: true, draws: 'kitty', glyphs: 'blocks,sextants' },
  },
  {
    name: 'kitty by env: versioned facts unproven',
    terminal: 'kitty',
    how: 'env',
    seen: { env: { KITTY_WINDOW_ID: '1' } },
    answers: { ...KITTY_FACTS, draws: 'kitty', glyphs: 'blocks' },
  },
  {
    name: 'kitty scrubbed, by its XTVERSION',
    terminal: 'kitty',
    how: 'scrubbed',
    seen: { env: SCRUBBED, xtversion: 'kitty(0.26.5)', da2: '>1;4000;26c' },
    answers: { ...KITTY_FACTS, hyperlinks: true, draws: 'kitty', glyphs: 'blocks,sextants' },
  },
  {
    name: 'kitty scrubbed, by its DA2 alone',
    terminal: 'kitty',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da2: '>1;4000;26c' },
    answers: { ...KITTY_FACTS, draws: 'kitty', glyphs: 'blocks' },
  },
  {
    name: 'Ghostty by reply',
    terminal: 'ghostty',
    how: 'reply',
    seen: { xtversion: 'ghostty 1.1.0' },
    answers: {
      notify: true,
      clipboard: true,
      placements: true,
      placeholders: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants',
    },
  },
  {
    name: 'Ghostty 1.2.0 by reply: progress',
    terminal: 'ghostty',
    how: 'reply',
    seen: { xtversion: 'ghostty 1.2.0' },
    answers: {
      notify: true,
      clipboard: true,
      progress: true,
      placements: true,
      placeholders: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'Ghostty by env',
    terminal: 'ghostty',
    how: 'env',
    seen: { env: { TERM: 'xterm-ghostty' } },
    answers: {
      notify: true,
      clipboard: true,
      placements: true,
      placeholders: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants',
    },
  },
  {
    name: 'WezTerm: kitty without placements or placeholders',
    terminal: 'wezterm',
    how: 'reply',
    seen: { xtversion: 'WezTerm 20240203-110809-5046fc22' },
    answers: {
      notify: true,
      clipboard: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      draws: 'kitty,iterm2,sixel',
      glyphs: 'blocks,sextants',
      sixelTransparency: true,
    },
  },
  {
    name: 'WezTerm nightly of 2025-03: octants',
    terminal: 'wezterm',
    how: 'reply',
    seen: { xtversion: 'WezTerm 20250301-084512-0a1b2c3d' },
    answers: {
      notify: true,
      clipboard: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      draws: 'kitty,iterm2,sixel',
      glyphs: 'blocks,sextants,octants',
      sixelTransparency: true,
    },
  },
  {
    name: 'WezTerm 20210502: no sextants yet',
    terminal: 'wezterm',
    how: 'reply',
    seen: { xtversion: 'WezTerm 20210502-154244-3f7122cb' },
    answers: {
      notify: true,
      clipboard: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      draws: 'kitty,iterm2,sixel',
      glyphs: 'blocks',
      sixelTransparency: true,
    },
  },
  {
    name: 'iTerm2 3.5: never kitty',
    terminal: 'iterm2',
    how: 'reply',
    seen: { xtversion: 'iTerm2 3.5.0' },
    answers: {
      notify: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'iterm2,sixel',
    },
  },
  {
    name: 'iTerm2 3.0: no hyperlinks yet',
    terminal: 'iterm2',
    how: 'reply',
    seen: { xtversion: 'iTerm2 3.0.15' },
    answers: { notify: true, truecolor: true, synchronizedOutput: true, inBandResize: true, draws: 'iterm2,sixel' },
  },
  {
    name: 'iTerm2 3.1 by env and reply: hyperlinks',
    terminal: 'iterm2',
    how: 'both',
    seen: { env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.1.0' }, xtversion: 'iTerm2 3.1.0' },
    answers: {
      notify: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'iterm2,sixel',
    },
  },
  {
    name: 'Konsole 23.08: sixel, then kitty without placeholders',
    terminal: 'konsole',
    how: 'env',
    seen: { env: { KONSOLE_VERSION: '230804' } },
    version: '23.08',
    answers: { truecolor: true, draws: 'sixel,kitty', glyphs: 'blocks,sextants' },
  },
  {
    name: 'Konsole 21.12: no sixel yet, no sextants yet (22.04)',
    terminal: 'konsole',
    how: 'env',
    seen: { env: { KONSOLE_VERSION: '211200' } },
    version: '21.12',
    answers: { truecolor: true, draws: 'kitty', glyphs: 'blocks' },
  },
  {
    name: 'foot by reply',
    terminal: 'foot',
    how: 'reply',
    seen: { xtversion: 'foot(1.16.2)' },
    answers: {
      notify: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'sixel',
      glyphs: 'blocks,sextants',
      sixelTransparency: true,
    },
  },
  {
    name: 'foot 1.21 by reply: octants (1.20.0)',
    terminal: 'foot',
    how: 'reply',
    seen: { xtversion: 'foot(1.21.0)' },
    answers: {
      notify: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'sixel',
      glyphs: 'blocks,sextants,octants',
      sixelTransparency: true,
    },
  },
  {
    name: 'Contour by reply',
    terminal: 'contour',
    how: 'reply',
    seen: { xtversion: 'contour 0.4.3' },
    answers: { hyperlinks: true, truecolor: true, synchronizedOutput: true, inBandResize: true, draws: 'sixel' },
  },
  {
    name: 'mlterm by env',
    terminal: 'mlterm',
    how: 'env',
    seen: { env: { TERM: 'mlterm' } },
    answers: { draws: 'sixel', sixelTransparency: true },
  },
  {
    name: 'xterm: sixel only as a VT340',
    terminal: 'xterm',
    how: 'reply',
    seen: { xtversion: 'XTerm(379)' },
    answers: { draws: 'sixel?', sixelTransparency: true, sixelPartialBand: true },
  },
  {
    name: 'xterm.js 6.1 by reply',
    terminal: 'xterm.js',
    how: 'reply',
    seen: { xtversion: 'xterm.js(6.1.0)' },
    answers: {
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      draws: 'sixel?,iterm2?',
      glyphs: 'blocks',
      sixelTransparency: true,
    },
  },
  {
    name: 'xterm.js scrubbed, no image addon',
    terminal: 'xterm.js',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?1;2c', da2: '>0;276;0c' },
    answers: {
      truecolor: true,
      synchronizedOutput: true,
      draws: 'sixel?,iterm2?',
      glyphs: 'blocks',
      sixelTransparency: true,
    },
  },
  {
    name: 'xterm.js scrubbed, image addon',
    terminal: 'xterm.js',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?62;4;9;22c', da2: '>0;276;0c' },
    answers: {
      truecolor: true,
      synchronizedOutput: true,
      draws: 'sixel?,iterm2?',
      glyphs: 'blocks',
      sixelTransparency: true,
    },
  },
  {
    name: 'VTE 0.76 by reply',
    terminal: 'vte',
    how: 'reply',
    seen: { xtversion: 'VTE(7600)' },
    answers: { notify: true, hyperlinks: true, truecolor: true, draws: 'sixel?', glyphs: 'blocks,sextants' },
  },
  {
    name: 'VTE 0.80 by reply: octants',
    terminal: 'vte',
    how: 'reply',
    seen: { xtversion: 'VTE(8000)' },
    answers: { notify: true, hyperlinks: true, truecolor: true, draws: 'sixel?', glyphs: 'blocks,sextants,octants' },
  },
  {
    name: 'VTE 0.49 by env: no hyperlinks yet',
    terminal: 'vte',
    how: 'env',
    seen: { env: { VTE_VERSION: '4900' } },
    answers: { notify: true, truecolor: true, draws: 'sixel?', glyphs: 'blocks' },
  },
  {
    name: 'Alacritty scrubbed, by DA1 and DA2',
    terminal: 'alacritty',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?6c', da2: '>0;1601;1c' },
    version: '0.16.1',
    answers: { clipboard: true, hyperlinks: true, truecolor: true, synchronizedOutput: true, glyphs: 'sextants' },
  },
  {
    name: 'ConEmu by env: progress',
    terminal: 'conemu',
    how: 'env',
    seen: { env: { ConEmuPID: '4242' } },
    answers: { progress: true },
  },
  {
    name: 'Rio by env',
    terminal: 'rio',
    how: 'env',
    seen: { env: { TERM_PROGRAM: 'rio' } },
    answers: { draws: 'iterm2,sixel' },
  },
  {
    name: 'mintty 3.7 by env',
    terminal: 'mintty',
    how: 'env',
    seen: { env: { TERM_PROGRAM: 'mintty', TERM_PROGRAM_VERSION: '3.7.0' } },
    answers: { hyperlinks: true, truecolor: true, draws: 'sixel' },
  },
  {
    name: 'Windows Terminal 1.22: sixel',
    terminal: 'windows-terminal',
    how: 'env',
    seen: { env: { WT_SESSION: 'e1d171d9' } },
    version: '1.22',
    answers: {
      clipboard: true,
      progress: true,
      hyperlinks: true,
      truecolor: true,
      draws: 'sixel',
      quirks: 'apc:prints',
      sixelTransparency: true,
    },
  },
  {
    name: 'Windows Terminal 1.21: no sixel',
    terminal: 'windows-terminal',
    how: 'env',
    seen: { env: { WT_SESSION: 'e1d171d9' } },
    version: '1.21',
    answers: { clipboard: true, progress: true, hyperlinks: true, truecolor: true, quirks: 'apc:prints' },
  },
  {
    name: 'Warp by env',
    terminal: 'warp',
    how: 'env',
    seen: { env: { TERM_PROGRAM: 'WarpTerminal' } },
    answers: { draws: 'kitty' },
  },
  {
    name: 'rxvt-unicode prints APC',
    terminal: 'rxvt-unicode',
    how: 'env',
    seen: { env: { TERM: 'rxvt-unicode-256color' } },
    answers: { quirks: 'apc:prints' },
  },
  {
    name: 'st ends colour replies with BEL',
    terminal: 'st',
    how: 'env',
    seen: { env: { TERM: 'st-256color' } },
    answers: { quirks: 'oscColours:bel' },
  },
  {
    name: 'Apple Terminal prints DCS and APC',
    terminal: 'apple-terminal',
    how: 'env',
    seen: { env: { TERM_PROGRAM: 'Apple_Terminal' } },
    answers: { quirks: 'dcs:prints,apc:prints' },
  },
  { name: 'Linux console', terminal: 'linux-console', how: 'env', seen: { env: { TERM: 'linux' } }, answers: {} },
  {
    name: 'zutty prints the kitty query and DECRQM',
    terminal: 'zutty',
    how: 'env',
    seen: { env: { TERM: 'zutty' } },
    answers: { quirks: 'kittyGraphics:prints,decrqm:prints' },
  },
  {
    name: "Neovim's :terminal",
    terminal: 'libvterm',
    how: 'env',
    seen: { env: { NVIM: '/run/user/0/nvim.1.0' } },
    answers: { quirks: 'oscColours:bel' },
  },
  { name: 'Emacs eat', terminal: 'emacs-eat', how: 'env', seen: { env: { TERM: 'eat-truecolor' } }, answers: {} },
  {
    name: 'tmux 3.4: sixel if built with it, passthrough all, answers colours and pixels',
    terminal: 'tmux',
    how: 'reply',
    seen: { xtversion: 'tmux 3.4' },
    answers: {
      hyperlinks: true,
      reorders: true,
      passthrough: true,
      passthroughHidden: true,
      draws: 'sixel?',
      answers: TMUX_34,
    },
  },
  {
    name: 'tmux 3.3a: passthrough, no sixel',
    terminal: 'tmux',
    how: 'reply',
    seen: { xtversion: 'tmux 3.3a' },
    answers: { reorders: true, passthrough: true, answers: TMUX_OWN },
  },
  {
    name: 'tmux by env, version unknown',
    terminal: 'tmux',
    how: 'env',
    seen: { env: { TMUX: '/tmp/tmux-0/default,1,0' } },
    answers: { reorders: true, answers: TMUX_OWN },
  },
  {
    name: 'tmux scrubbed, by its DA2',
    terminal: 'tmux',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?1;2c', da2: '>84;0;0c' },
    version: '3.3',
    answers: { reorders: true, passthrough: true, answers: TMUX_OWN },
  },
  {
    name: 'screen 4.09 scrubbed: no truecolor',
    terminal: 'screen',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?1;2c', da2: '>83;40900;0c' },
    version: '4.09',
    answers: SCREEN,
  },
  {
    name: 'screen 5.0 by env: truecolor',
    terminal: 'screen',
    how: 'env',
    seen: { env: { STY: '12.pts-0.host', TERM: 'screen' } },
    version: '5.0',
    answers: { ...SCREEN, truecolor: true },
  },
  {
    name: 'Zellij 0.45: kitty itself, no placeholders or animation',
    terminal: 'zellij',
    how: 'reply',
    seen: { xtversion: 'Zellij(4500)' },
    answers: { placements: true, draws: 'kitty,sixel?', answers: ZELLIJ_OWN },
  },
  {
    name: 'Zellij 0.44: no kitty graphics',
    terminal: 'zellij',
    how: 'reply',
    seen: { xtversion: 'Zellij(4400)' },
    answers: { draws: 'sixel?', answers: ZELLIJ_OWN },
  },
  {
    name: 'Zellij by env',
    terminal: 'zellij',
    how: 'env',
    seen: { env: { ZELLIJ: '0', ZELLIJ_SESSION_NAME: 'main' } },
    answers: { draws: 'sixel?', answers: ZELLIJ_OWN },
  },
  {
    name: 'Zellij scrubbed, by DA1 and DA2',
    terminal: 'zellij',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?62;52c', da2: '>0;4500;1c' },
    version: '0.45',
    answers: { placements: true, draws: 'kitty,sixel?', answers: ZELLIJ_OWN },
  },
  {
    name: 'kitty 0.46 by reply: a=f overwrite read from C (kitty#10379), no N=1 yet',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.46.2)' },
    answers: {
      ...KITTY_FACTS,
      placeholders: true,
      frameOverwriteInC: true,
      hyperlinks: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'kitty 0.48 by reply: overwrite from C, and N=1',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.48.1)' },
    answers: {
      ...KITTY_FACTS,
      placeholders: true,
      frameOverwriteInC: true,
      shortLivedHint: true,
      hyperlinks: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'kitty 0.49 by reply: overwrite from X again',
    terminal: 'kitty',
    how: 'reply',
    seen: { xtversion: 'kitty(0.49.0)' },
    answers: {
      ...KITTY_FACTS,
      placeholders: true,
      shortLivedHint: true,
      hyperlinks: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'Ghostty 1.3.1 by reply: no kitty animation yet',
    terminal: 'ghostty',
    how: 'reply',
    seen: { xtversion: 'ghostty 1.3.1' },
    answers: {
      notify: true,
      clipboard: true,
      progress: true,
      placements: true,
      placeholders: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'Ghostty 1.4.0 by reply: kitty animation (ghostty#13943) and N=1, gated on 1.4.0',
    terminal: 'ghostty',
    how: 'reply',
    seen: { xtversion: 'ghostty 1.4.0' },
    answers: {
      notify: true,
      clipboard: true,
      progress: true,
      placements: true,
      placeholders: true,
      animation: true,
      shortLivedHint: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'kitty',
      glyphs: 'blocks,sextants,octants',
    },
  },
  {
    name: 'iTerm2 3.7 beta by reply: draws placeholders (tele#259), still never kitty',
    terminal: 'iterm2',
    how: 'reply',
    seen: { xtversion: 'iTerm2 3.7.0' },
    answers: {
      notify: true,
      placeholders: true,
      hyperlinks: true,
      truecolor: true,
      synchronizedOutput: true,
      inBandResize: true,
      draws: 'iterm2,sixel',
    },
  },
  {
    name: 'cmux by env, before the Ghostty variables it also carries',
    terminal: 'cmux',
    how: 'env',
    seen: {
      env: { CMUX_WORKSPACE_ID: 'EF30', TERM: 'xterm-ghostty', TERM_PROGRAM: 'ghostty', GHOSTTY_RESOURCES_DIR: '/x' },
    },
    answers: { draws: 'kitty?k' },
  },
  {
    name: 'libghostty by reply (herdr over ssh): kitty only on the query, placeholders only',
    terminal: 'libghostty',
    how: 'scrubbed',
    seen: { env: SCRUBBED, xtversion: 'libghostty', da1: '?62;22c' },
    answers: { draws: 'kitty?k', placeholders: true, placeholdersOnly: true },
  },
  {
    name: 'herdr by env, before the outer Ghostty it inherits',
    terminal: 'herdr',
    how: 'env',
    seen: { env: { HERDR_ENV: '1', HERDR_PANE_ID: 'w1-1', TERM_PROGRAM: 'ghostty', GHOSTTY_RESOURCES_DIR: '/x' } },
    answers: { draws: 'kitty?k', placeholders: true, placeholdersOnly: true, answers: 'xtversion,kittyGraphics' },
  },
  {
    name: 'mosh scrubbed: answers DA1, DA2 and CPR itself',
    terminal: 'mosh',
    how: 'scrubbed',
    seen: { env: SCRUBBED, da1: '?62c', da2: '>1;10;0c' },
    answers: { answers: 'da1,da2,cpr' },
  },
];

/** Every question of every case, with its expected answer (unlisted: false, or empty for lists). */
const QUESTION_ROWS = CASES.flatMap((c) =>
  QUESTIONS.map((question) => ({
    ...c,
    name: `${c.name}: ${question}`,
    question,
    expected:
      c.answers[question] ?? (typeof answer(TERMINALS[0] as TerminalRow, question, null) === 'string' ? '' : false),
  })),
);

const BY: Record<How, readonly string[]> = {
  env: ['env'],
  reply: ['reply'],
  both: ['reply'],
  scrubbed: ['reply', 'fingerprint'],
};

/** What the database answers for one case and question, or null when the case is not identified as its terminal. */
function ask(db: readonly TerminalRow[], c: Case, question: Question): boolean | string | null {
  const found = identify(c.seen, db);
  if (found?.row.id !== c.terminal) return null;
  return answer(found.row, question, c.version ?? found.version);
}

describe('identification', () => {
  it.each(CASES)('$name', (c) => {
    const found = identify(c.seen);
    expect(found?.row.id).toBe(c.terminal);
    expect(BY[c.how]).toContain(found?.by);
  });
  it('names nothing it does not know', () => {
    expect(identify({ env: SCRUBBED, da1: '?1;2c' })).toBeNull();
  });
});

describe('the question table', () => {
  it.each(QUESTION_ROWS)('$name', (row) => {
    expect(ask(TERMINALS, row, row.question)).toBe(row.expected);
  });
});

/** One change of one fact: flip a boolean, move a version far up, or drop a list entry. */
interface Mutation {
  readonly name: string;
  readonly apply: (row: Record<string, unknown>) => void;
}

/** Every mutation of one row's facts, found by walking them, so a new row or fact is covered unasked. */
function mutationsOf(row: TerminalRow): Mutation[] {
  const out: Mutation[] = [];
  const at = (root: Record<string, unknown>, path: readonly (string | number)[]) =>
    path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
  const walk = (node: unknown, path: readonly (string | number)[]) => {
    if (Array.isArray(node)) {
      node.forEach((item, i) => {
        out.push({
          name: `drop ${[...path, i].join('.')}`,
          apply: (r) => {
            (at(r, path) as unknown[]).splice(i, 1);
          },
        });
        walk(item, [...path, i]);
      });
    } else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        const here = [...path, key];
        if (key === 'value' && typeof value === 'boolean') {
          out.push({
            name: `flip ${here.join('.')}`,
            apply: (r) => ((at(r, path) as { value: boolean }).value = !value),
          });
        } else if (key === 'until' && typeof value === 'string') {
          out.push({
            name: `move ${here.join('.')}`,
            apply: (r) => ((at(r, path) as { until: string }).until = '9999'),
          });
        } else if (key === 'since' && typeof value === 'string') {
          out.push({
            name: `move ${here.join('.')}`,
            apply: (r) => ((at(r, path) as { since: string }).since = '9999'),
          });
        } else walk(value, here);
      }
    }
  };
  for (const key of ['facts', 'glyphs', 'draws', 'quirks', 'multiplexer'] as const) walk(row[key], [key]);
  return out;
}

describe('a change of any single fact changes an answer', () => {
  const mutations = TERMINALS.flatMap((row, index) =>
    mutationsOf(row).map((m) => ({ name: `${row.id}: ${m.name}`, index, mutation: m })),
  );
  it('covers every row but the two that hold no fact beyond their identity', () => {
    const covered = new Set(mutations.map((m) => m.index));
    expect(TERMINALS.filter((_, i) => !covered.has(i)).map((r) => r.id)).toEqual(['linux-console', 'emacs-eat']);
  });
  it.each(mutations)('$name', ({ index, mutation }) => {
    const db = structuredClone(TERMINALS) as TerminalRow[];
    mutation.apply(db[index] as unknown as Record<string, unknown>);
    const changed = QUESTION_ROWS.filter((row) => ask(db, row, row.question) !== row.expected);
    expect(changed.length).toBeGreaterThan(0);
  });
});

describe("a row's version from the environment is its own, never its host's", () => {
  it.each([
    {
      name: "VS Code: TERM_PROGRAM_VERSION is VS Code's, not xterm.js's",
      env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.96.2' },
      row: 'xterm.js',
      version: null,
    },
    {
      name: "Hyper: TERM_PROGRAM_VERSION is Hyper's",
      env: { TERM_PROGRAM: 'Hyper', TERM_PROGRAM_VERSION: '3.4.1' },
      row: 'xterm.js',
      version: null,
    },
    {
      name: "iTerm2: TERM_PROGRAM_VERSION is iTerm2's own",
      env: { TERM_PROGRAM: 'iTerm.app', TERM_PROGRAM_VERSION: '3.5.0' },
      row: 'iterm2',
      version: '3.5.0',
    },
  ])('$name', ({ env, row, version }) => {
    const found = identify({ env });
    expect(found?.row.id).toBe(row);
    expect(found?.version ?? null).toBe(version);
  });

  it('xterm.js by its XTVERSION has its own version', () => {
    expect(
      identify({ env: { TERM_PROGRAM: 'vscode', TERM_PROGRAM_VERSION: '1.96.2' }, xtversion: 'xterm.js(6.1.0)' })
        ?.version,
    ).toBe('6.1.0');
  });
});
