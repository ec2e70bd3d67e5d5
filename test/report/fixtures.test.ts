/**
 * The report for every recorded real terminal: its environment and its replies, resolved. This is
 * what `termsight detect` says in that terminal, short of the live I/O.
 */
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import { multiplexerFromEnv } from '../../src/env/multiplexer.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { resolveReport } from '../../src/report/resolve.js';
import { loadFixtures } from '../probe/fixtures.js';

// Behind a multiplexer without passthrough the terminal's name can only come from the environment
// (KITTY_WINDOW_ID, XTERM_VERSION inherited by the pane).
// Where no pixel protocol is usable the report answers the text picture: symbols, as text has colour in each.
// file: the recording; wrapped: the query was sent wrapped for tmux; scrubbed: the environment
// replaced with a bare ssh-like one here; then what the report must say.
const ROWS: ReadonlyArray<{
  name: string;
  file: string;
  wrapped: boolean;
  scrubbed: boolean;
  graphics: string;
  terminal: string | null;
  multiplexer: string | null;
  passthrough: boolean | null;
}> = [
  {
    name: 'kitty',
    file: 'kitty.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'kitty, recorded with a scrubbed environment',
    file: 'kitty-scrubbed.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'xterm',
    file: 'xterm.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'XTerm',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'xterm, recorded with a scrubbed environment',
    file: 'xterm-scrubbed.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'XTerm',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'xterm as a VT340',
    file: 'xterm-vt340.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'sixel',
    terminal: 'XTerm',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'xterm as a VT340, environment scrubbed here',
    file: 'xterm-vt340.json',
    wrapped: false,
    scrubbed: true,
    graphics: 'sixel',
    terminal: 'XTerm',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'kitty, environment scrubbed here',
    file: 'kitty.json',
    wrapped: false,
    scrubbed: true,
    graphics: 'kitty',
    terminal: 'kitty',
    multiplexer: null,
    passthrough: null,
  },
  {
    name: 'tmux in kitty, passthrough off',
    file: 'kitty+tmux.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: 'tmux',
    passthrough: null,
  },
  {
    name: 'tmux in xterm, passthrough off',
    file: 'xterm+tmux.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'XTerm',
    multiplexer: 'tmux',
    passthrough: null,
  },
  // kitty 0.26.5: no placeholders
  {
    name: 'tmux in kitty, passthrough on, query wrapped',
    file: 'kitty+tmux-pt-wrapped.json',
    wrapped: true,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: 'tmux',
    passthrough: true,
  },
  {
    name: 'tmux in kitty, passthrough on, query and sentinel wrapped',
    file: 'kitty+tmux-pt-wrapped-all.json',
    wrapped: true,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: 'tmux',
    passthrough: true,
  },
  // not even tmux answered: nothing proven
  {
    name: 'tmux in kitty, passthrough off, query and sentinel wrapped',
    file: 'kitty+tmux-wrapped-all.json',
    wrapped: true,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: 'tmux',
    passthrough: null,
  },
  {
    name: 'GNU screen in kitty',
    file: 'kitty+screen.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'kitty',
    multiplexer: 'screen',
    passthrough: null,
  },
  {
    name: 'GNU screen in xterm',
    file: 'xterm+screen.json',
    wrapped: false,
    scrubbed: false,
    graphics: 'symbols',
    terminal: 'XTerm',
    multiplexer: 'screen',
    passthrough: null,
  },
];

const fixtures = new Map(loadFixtures().map((f) => [f.file, f]));

describe('the report for each recorded terminal', () => {
  it.each(ROWS)('$name → $graphics', ({ file, wrapped, scrubbed, graphics, terminal, multiplexer, passthrough }) => {
    const f = fixtures.get(file)!;
    const env = scrubbed ? { TERM: 'xterm-256color', HOME: '/root', PATH: '/usr/bin' } : f.env;
    // The reducer knows the multiplexer from the environment it planned the query for.
    const planned = multiplexerFromEnv(env)?.name ?? null;
    const facts = factsFromReplies(f.batch.reply + f.batch.late, {
      wrapped,
      multiplexer: planned,
      sentinel: f.batch.sentinel,
      timedOut: !f.batch.sentinel,
    });
    const report = resolveReport({ env, isTTY: { stdin: true, stdout: true } }, facts);
    expect(report.graphics).toBe(graphics);
    expect(report.terminal.name).toBe(terminal);
    expect(report.multiplexer?.name ?? null).toBe(multiplexer);
    expect(report.multiplexer?.passthrough ?? null).toBe(passthrough);
    if (report.why.graphics.source === 'reply')
      expect(escapeBytes(f.batch.reply + f.batch.late)).toContain(report.why.graphics.reply);
  });
});
