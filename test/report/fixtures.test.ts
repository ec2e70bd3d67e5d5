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
// file, wrapped queries, scrub the env (ssh-like), graphics, terminal, multiplexer, passthrough
const ROWS: ReadonlyArray<[string, boolean, boolean, string, string | null, string | null, boolean | null]> = [
  ['kitty.json', false, false, 'kitty', 'kitty', null, null],
  ['kitty-scrubbed.json', false, false, 'kitty', 'kitty', null, null],
  ['xterm.json', false, false, 'symbols', 'XTerm', null, null],
  ['xterm-scrubbed.json', false, false, 'symbols', 'XTerm', null, null],
  ['xterm-vt340.json', false, false, 'sixel', 'XTerm', null, null],
  ['xterm-vt340.json', false, true, 'sixel', 'XTerm', null, null],
  ['kitty.json', false, true, 'kitty', 'kitty', null, null],
  ['kitty+tmux.json', false, false, 'symbols', 'kitty', 'tmux', null],
  ['xterm+tmux.json', false, false, 'symbols', 'XTerm', 'tmux', null],
  ['kitty+tmux-pt-wrapped.json', true, false, 'symbols', 'kitty', 'tmux', true], // kitty 0.26.5: no placeholders
  ['kitty+tmux-pt-wrapped-all.json', true, false, 'symbols', 'kitty', 'tmux', true],
  ['kitty+tmux-wrapped-all.json', true, false, 'symbols', 'kitty', 'tmux', null], // not even tmux answered: nothing proven,
  ['kitty+screen.json', false, false, 'symbols', 'kitty', 'screen', null],
  ['xterm+screen.json', false, false, 'symbols', 'XTerm', 'screen', null],
];

const fixtures = new Map(loadFixtures().map((f) => [f.file, f]));

describe('the report for each recorded terminal', () => {
  it.each(ROWS)(
    '%s (wrapped %s, scrubbed %s) -> %s',
    (file, wrapped, scrubbed, graphics, terminal, multiplexer, passthrough) => {
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
    },
  );
});
