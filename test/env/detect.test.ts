import { describe, expect, it } from 'vitest';
import { detect, explainDetect, placements } from '../../src/env/detect.js';
import { GRAPHICS_RULES } from '../../src/env/graphics-rules.js';
import { graphicsOverride } from '../../src/env/override.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Env } from '../../src/env/runtime.js';

// The founding table, one row per line of it.
const FOUNDING_ROWS: ReadonlyArray<[string, Env, Protocol]> = [
  ['KITTY_WINDOW_ID set', { KITTY_WINDOW_ID: '1' }, 'kitty'],
  ['TERM contains kitty', { TERM: 'xterm-kitty' }, 'kitty'],
  ['TERM contains ghostty', { TERM: 'xterm-ghostty' }, 'kitty'],
  ['TERM_PROGRAM is WezTerm', { TERM_PROGRAM: 'WezTerm' }, 'kitty'],
  ['WEZTERM_PANE set', { WEZTERM_PANE: '0' }, 'kitty'],
  ['TERM_PROGRAM is iTerm.app', { TERM_PROGRAM: 'iTerm.app' }, 'iterm2'],
  ['LC_TERMINAL is iTerm2', { LC_TERMINAL: 'iTerm2' }, 'iterm2'],
  ['KONSOLE_VERSION set', { KONSOLE_VERSION: '230804' }, 'sixel'],
  ['TERM contains foot', { TERM: 'foot' }, 'sixel'],
  ['TERM contains foot (extra)', { TERM: 'foot-extra' }, 'sixel'],
  ['TERM contains mlterm', { TERM: 'mlterm' }, 'sixel'],
  ['anything else', { TERM: 'xterm-256color' }, 'braille'],
  ['nothing at all', {}, 'braille'],
];

// Order matters: the first matching row wins.
const PRIORITY_ROWS: ReadonlyArray<[string, Env, Protocol]> = [
  ['kitty window id beats iTerm', { KITTY_WINDOW_ID: '1', TERM_PROGRAM: 'iTerm.app' }, 'kitty'],
  ['WezTerm beats LC_TERMINAL', { TERM_PROGRAM: 'WezTerm', LC_TERMINAL: 'iTerm2' }, 'kitty'],
  ['iTerm beats Konsole', { LC_TERMINAL: 'iTerm2', KONSOLE_VERSION: '1' }, 'iterm2'],
  ['Konsole beats foot', { KONSOLE_VERSION: '1', TERM: 'foot' }, 'sixel'],
  ['iTerm answers kitty queries but is never kitty', { TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' }, 'iterm2'],
];

// A variable exported empty counts as unset.
const EMPTY_ROWS: ReadonlyArray<[string, Env, Protocol]> = [
  ['empty KITTY_WINDOW_ID', { KITTY_WINDOW_ID: '' }, 'braille'],
  ['empty WEZTERM_PANE', { WEZTERM_PANE: '' }, 'braille'],
  ['empty KONSOLE_VERSION', { KONSOLE_VERSION: '' }, 'braille'],
  ['empty KITTY_WINDOW_ID, TERM foot', { KITTY_WINDOW_ID: '', TERM: 'foot' }, 'sixel'],
  ['undefined value', { KITTY_WINDOW_ID: undefined }, 'braille'],
];

// Rows beyond the founding table, each with the variable the terminal exports.
const ADDED_ROWS: ReadonlyArray<[string, Env, Protocol]> = [
  ['Ghostty TERM_PROGRAM', { TERM: 'xterm-256color', TERM_PROGRAM: 'ghostty' }, 'kitty'],
  ['Ghostty resources dir', { TERM: 'xterm-256color', GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' }, 'kitty'],
  ['TERM_PROGRAM kitty', { TERM_PROGRAM: 'kitty' }, 'kitty'],
  ['TERM wezterm', { TERM: 'wezterm' }, 'kitty'],
  ['ITERM_SESSION_ID', { ITERM_SESSION_ID: 'w0t0p0:1234' }, 'iterm2'],
  ['Warp', { TERM_PROGRAM: 'WarpTerminal' }, 'kitty'],
  ['mintty', { TERM_PROGRAM: 'mintty' }, 'sixel'],
  ['contour', { TERM: 'contour' }, 'sixel'],
];

const OVERRIDE_ROWS: ReadonlyArray<[string, Env, Protocol]> = [
  ['override sixel beats kitty', { TERMSIGHT_GRAPHICS: 'sixel', KITTY_WINDOW_ID: '1' }, 'sixel'],
  ['override kitty beats iTerm', { TERMSIGHT_GRAPHICS: 'kitty', TERM_PROGRAM: 'iTerm.app' }, 'kitty'],
  ['override iterm2', { TERMSIGHT_GRAPHICS: 'iterm2' }, 'iterm2'],
  ['override braille', { TERMSIGHT_GRAPHICS: 'braille', TERM: 'xterm-kitty' }, 'braille'],
  ['override blocks', { TERMSIGHT_GRAPHICS: 'blocks' }, 'blocks'],
  ['override is case-insensitive', { TERMSIGHT_GRAPHICS: ' Kitty ' }, 'kitty'],
  ['off answers by the rules', { TERMSIGHT_GRAPHICS: 'off', TERM: 'xterm-kitty' }, 'kitty'],
  ['unknown value is ignored', { TERMSIGHT_GRAPHICS: 'png', TERM: 'foot' }, 'sixel'],
  ['empty value is unset', { TERMSIGHT_GRAPHICS: '', TERM: 'foot' }, 'sixel'],
];

describe('detect(env)', () => {
  it.each([...FOUNDING_ROWS, ...PRIORITY_ROWS, ...EMPTY_ROWS, ...ADDED_ROWS, ...OVERRIDE_ROWS])(
    '%s',
    (_name, env, expected) => {
      expect(detect(env)).toBe(expected);
    },
  );

  it('founding doctest: xterm-kitty is kitty', () => {
    expect(detect({ TERM: 'xterm-kitty' })).toBe('kitty');
  });

  it('explains the rule that decided', () => {
    const d = explainDetect({ LC_TERMINAL: 'iTerm2' });
    expect(d.rule?.id).toBe('lc-terminal-iterm2');
    expect(d.reason).toContain('lc-terminal-iterm2');
  });

  it('reports an unknown override without throwing', () => {
    const d = explainDetect({ TERMSIGHT_GRAPHICS: 'gif' });
    expect(d.override.kind).toBe('invalid');
    expect(d.protocol).toBe('braille');
  });

  it('with no argument reads process.env once and caches', () => {
    const saved = { ...process.env };
    try {
      for (const k of Object.keys(process.env)) delete process.env[k];
      process.env.TERM = 'foot';
      const first = detect();
      process.env.TERM = 'xterm-kitty';
      expect(detect()).toBe(first);
      expect(detect({ TERM: 'xterm-kitty' })).toBe('kitty');
    } finally {
      for (const k of Object.keys(process.env)) delete process.env[k];
      Object.assign(process.env, saved);
    }
  });
});

describe('the rule table', () => {
  it('keeps the founding rows first and in the founding order', () => {
    expect(GRAPHICS_RULES.filter((r) => r.founding).map((r) => r.id)).toEqual([
      'kitty-window-id',
      'term-kitty-ghostty',
      'term-program-wezterm',
      'wezterm-pane',
      'term-program-iterm',
      'lc-terminal-iterm2',
      'konsole-version',
      'term-foot-mlterm',
    ]);
    expect(GRAPHICS_RULES.slice(0, 8).every((r) => r.founding)).toBe(true);
    expect(GRAPHICS_RULES.every((r) => r.source.startsWith('https://'))).toBe(true);
  });
  it('has unique ids and a note on every row', () => {
    const ids = GRAPHICS_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of GRAPHICS_RULES) expect(r.note.length).toBeGreaterThan(10);
  });
  it('never answers kitty for an iTerm2 identity', () => {
    for (const r of GRAPHICS_RULES) {
      const names = r.when.map((c) => ('value' in c ? c.value : '')).join(' ');
      if (/iterm/i.test(names) || r.when.some((c) => c.variable === 'ITERM_SESSION_ID'))
        expect(r.answer).toBe('iterm2');
    }
  });
});

describe('placements(env)', () => {
  it.each<[string, Env, boolean]>([
    ['founding: xterm-kitty', { TERM: 'xterm-kitty' }, true],
    ['founding: iTerm.app', { TERM_PROGRAM: 'iTerm.app' }, false],
    ['founding: xterm-256color', { TERM: 'xterm-256color' }, false],
    ['kitty window id', { KITTY_WINDOW_ID: '3', TERM: 'xterm-256color' }, true],
    ['ghostty TERM', { TERM: 'xterm-ghostty' }, true],
    ['ghostty TERM_PROGRAM', { TERM_PROGRAM: 'ghostty' }, true],
    ['ghostty resources', { GHOSTTY_RESOURCES_DIR: '/x' }, true],
    ['WezTerm: partial kitty support', { TERM_PROGRAM: 'WezTerm' }, false],
    ['empty KITTY_WINDOW_ID', { KITTY_WINDOW_ID: '' }, false],
  ])('%s', (_name, env, expected) => {
    expect(placements(env)).toBe(expected);
  });
});

describe('graphicsOverride', () => {
  it.each([
    [{}, 'none'],
    [{ TERMSIGHT_GRAPHICS: 'off' }, 'off'],
    [{ TERMSIGHT_GRAPHICS: 'OFF' }, 'off'],
    [{ TERMSIGHT_GRAPHICS: 'sixel' }, 'protocol'],
    [{ TERMSIGHT_GRAPHICS: 'yes' }, 'invalid'],
  ] as const)('%j -> %s', (env, kind) => {
    expect(graphicsOverride(env).kind).toBe(kind);
  });
});
