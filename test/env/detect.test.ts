import { describe, expect, it } from 'vitest';
import { detect, explainDetect, placements } from '../../src/env/detect.js';
import { GRAPHICS_RULES } from '../../src/env/graphics-rules.js';
import { graphicsOverride } from '../../src/env/override.js';
import type { Protocol } from '../../src/env/protocol.js';
import type { Env } from '../../src/env/runtime.js';

// The founding table, one row per line of it.
/** A named environment and the protocol `detect` must answer for it. */
type Row = { name: string; env: Env; expected: Protocol };

const FOUNDING_ROWS: ReadonlyArray<Row> = [
  { name: 'KITTY_WINDOW_ID set', env: { KITTY_WINDOW_ID: '1' }, expected: 'kitty' },
  { name: 'TERM contains kitty', env: { TERM: 'xterm-kitty' }, expected: 'kitty' },
  { name: 'TERM contains ghostty', env: { TERM: 'xterm-ghostty' }, expected: 'kitty' },
  { name: 'TERM_PROGRAM is WezTerm', env: { TERM_PROGRAM: 'WezTerm' }, expected: 'kitty' },
  { name: 'WEZTERM_PANE set', env: { WEZTERM_PANE: '0' }, expected: 'kitty' },
  { name: 'TERM_PROGRAM is iTerm.app', env: { TERM_PROGRAM: 'iTerm.app' }, expected: 'iterm2' },
  { name: 'LC_TERMINAL is iTerm2', env: { LC_TERMINAL: 'iTerm2' }, expected: 'iterm2' },
  { name: 'KONSOLE_VERSION set', env: { KONSOLE_VERSION: '230804' }, expected: 'sixel' },
  { name: 'TERM contains foot', env: { TERM: 'foot' }, expected: 'sixel' },
  { name: 'TERM contains foot (extra)', env: { TERM: 'foot-extra' }, expected: 'sixel' },
  { name: 'TERM contains mlterm', env: { TERM: 'mlterm' }, expected: 'sixel' },
  { name: 'anything else', env: { TERM: 'xterm-256color' }, expected: 'braille' },
  { name: 'nothing at all', env: {}, expected: 'braille' },
];

// Order matters: the first matching row wins.
const PRIORITY_ROWS: ReadonlyArray<Row> = [
  { name: 'kitty window id beats iTerm', env: { KITTY_WINDOW_ID: '1', TERM_PROGRAM: 'iTerm.app' }, expected: 'kitty' },
  { name: 'WezTerm beats LC_TERMINAL', env: { TERM_PROGRAM: 'WezTerm', LC_TERMINAL: 'iTerm2' }, expected: 'kitty' },
  { name: 'iTerm beats Konsole', env: { LC_TERMINAL: 'iTerm2', KONSOLE_VERSION: '1' }, expected: 'iterm2' },
  { name: 'Konsole beats foot', env: { KONSOLE_VERSION: '1', TERM: 'foot' }, expected: 'sixel' },
  {
    name: 'iTerm answers kitty queries but is never kitty',
    env: { TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' },
    expected: 'iterm2',
  },
];

// A variable exported empty counts as unset.
const EMPTY_ROWS: ReadonlyArray<Row> = [
  { name: 'empty KITTY_WINDOW_ID', env: { KITTY_WINDOW_ID: '' }, expected: 'braille' },
  { name: 'empty WEZTERM_PANE', env: { WEZTERM_PANE: '' }, expected: 'braille' },
  { name: 'empty KONSOLE_VERSION', env: { KONSOLE_VERSION: '' }, expected: 'braille' },
  { name: 'empty KITTY_WINDOW_ID, TERM foot', env: { KITTY_WINDOW_ID: '', TERM: 'foot' }, expected: 'sixel' },
  { name: 'undefined value', env: { KITTY_WINDOW_ID: undefined }, expected: 'braille' },
];

// Rows beyond the founding table, each with the variable the terminal exports.
const ADDED_ROWS: ReadonlyArray<Row> = [
  { name: 'Ghostty TERM_PROGRAM', env: { TERM: 'xterm-256color', TERM_PROGRAM: 'ghostty' }, expected: 'kitty' },
  {
    name: 'Ghostty resources dir',
    env: { TERM: 'xterm-256color', GHOSTTY_RESOURCES_DIR: '/usr/share/ghostty' },
    expected: 'kitty',
  },
  { name: 'TERM_PROGRAM kitty', env: { TERM_PROGRAM: 'kitty' }, expected: 'kitty' },
  { name: 'TERM wezterm', env: { TERM: 'wezterm' }, expected: 'kitty' },
  { name: 'ITERM_SESSION_ID', env: { ITERM_SESSION_ID: 'w0t0p0:1234' }, expected: 'iterm2' },
  { name: 'Warp', env: { TERM_PROGRAM: 'WarpTerminal' }, expected: 'kitty' },
  { name: 'mintty', env: { TERM_PROGRAM: 'mintty' }, expected: 'sixel' },
  { name: 'contour', env: { TERM: 'contour' }, expected: 'sixel' },
];

const OVERRIDE_ROWS: ReadonlyArray<Row> = [
  { name: 'override sixel beats kitty', env: { TERMSIGHT_GRAPHICS: 'sixel', KITTY_WINDOW_ID: '1' }, expected: 'sixel' },
  {
    name: 'override kitty beats iTerm',
    env: { TERMSIGHT_GRAPHICS: 'kitty', TERM_PROGRAM: 'iTerm.app' },
    expected: 'kitty',
  },
  { name: 'override iterm2', env: { TERMSIGHT_GRAPHICS: 'iterm2' }, expected: 'iterm2' },
  { name: 'override braille', env: { TERMSIGHT_GRAPHICS: 'braille', TERM: 'xterm-kitty' }, expected: 'braille' },
  { name: 'override blocks', env: { TERMSIGHT_GRAPHICS: 'blocks' }, expected: 'blocks' },
  { name: 'override is case-insensitive', env: { TERMSIGHT_GRAPHICS: ' Kitty ' }, expected: 'kitty' },
  { name: 'off answers by the rules', env: { TERMSIGHT_GRAPHICS: 'off', TERM: 'xterm-kitty' }, expected: 'kitty' },
  { name: 'unknown value is ignored', env: { TERMSIGHT_GRAPHICS: 'png', TERM: 'foot' }, expected: 'sixel' },
  { name: 'empty value is unset', env: { TERMSIGHT_GRAPHICS: '', TERM: 'foot' }, expected: 'sixel' },
];

describe('detect(env)', () => {
  it.each([...FOUNDING_ROWS, ...PRIORITY_ROWS, ...EMPTY_ROWS, ...ADDED_ROWS, ...OVERRIDE_ROWS])(
    '$name',
    ({ env, expected }) => {
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
  it.each<{ name: string; env: Env; expected: boolean }>([
    { name: 'founding: xterm-kitty', env: { TERM: 'xterm-kitty' }, expected: true },
    { name: 'founding: iTerm.app', env: { TERM_PROGRAM: 'iTerm.app' }, expected: false },
    { name: 'founding: xterm-256color', env: { TERM: 'xterm-256color' }, expected: false },
    { name: 'kitty window id', env: { KITTY_WINDOW_ID: '3', TERM: 'xterm-256color' }, expected: true },
    { name: 'ghostty TERM', env: { TERM: 'xterm-ghostty' }, expected: true },
    { name: 'ghostty TERM_PROGRAM', env: { TERM_PROGRAM: 'ghostty' }, expected: true },
    { name: 'ghostty resources', env: { GHOSTTY_RESOURCES_DIR: '/x' }, expected: true },
    { name: 'WezTerm: partial kitty support', env: { TERM_PROGRAM: 'WezTerm' }, expected: false },
    { name: 'empty KITTY_WINDOW_ID', env: { KITTY_WINDOW_ID: '' }, expected: false },
  ])('$name', ({ env, expected }) => {
    expect(placements(env)).toBe(expected);
  });
});

describe('graphicsOverride', () => {
  it.each([
    { name: 'unset', env: {}, kind: 'none' },
    { name: 'off', env: { TERMSIGHT_GRAPHICS: 'off' }, kind: 'off' },
    { name: 'OFF, any case', env: { TERMSIGHT_GRAPHICS: 'OFF' }, kind: 'off' },
    { name: 'a protocol', env: { TERMSIGHT_GRAPHICS: 'sixel' }, kind: 'protocol' },
    { name: 'an unknown word', env: { TERMSIGHT_GRAPHICS: 'yes' }, kind: 'invalid' },
  ] as const)('$name -> $kind', ({ env, kind }) => {
    expect(graphicsOverride(env).kind).toBe(kind);
  });
});
