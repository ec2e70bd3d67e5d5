/**
 * tmux 3.5a drawing sixel itself (issue 14's `tmux-sixel` finding), from what tmux really said in
 * Debian 13 with xterm 398 as a VT340 and passthrough off (test/fixtures/tmux/README.md): its
 * format output, where `#{sixel_support}` is empty, and the replies the probe got in both
 * environments. Each changed row changes one fact of the recording.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Env } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { parseTmuxFormats } from '../../src/probe/tmux-formats.js';
import { resolveReport } from '../../src/report/resolve.js';

interface Recording {
  readonly display: string;
  readonly passthrough: string;
  readonly inherited: { readonly env: Env; readonly replies: string };
  readonly scrubbed: { readonly env: Env; readonly replies: string };
}

const FILE = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'tmux',
  'xterm-vt340+tmux-3.5a.json',
);
const REC = JSON.parse(readFileSync(FILE, 'utf8')) as Recording;

/** The display output with its `#{client_termfeatures}` (line 3) or `#{sixel_support}` (line 4) replaced. */
function displayWith(line: 2 | 3, value: string): string {
  const lines = REC.display.split('\n');
  lines[line] = value;
  return lines.join('\n');
}

interface Row {
  readonly name: string;
  readonly environment: 'inherited' | 'scrubbed';
  /** tmux's display output (null: not asked, as with TMUX scrubbed). */
  readonly display: string | null;
  readonly replies: string;
  readonly graphics: 'sixel' | 'text';
  /** What `why.graphics.detail` must say. */
  readonly detail: RegExp;
}

const ROWS: readonly Row[] = [
  {
    name: "as recorded, inherited: the client has sixel and tmux's own DA1 shows the sixel build",
    environment: 'inherited',
    display: REC.display,
    replies: REC.inherited.replies,
    graphics: 'sixel',
    detail: /draws sixel itself.*#\{sixel_support\} is empty and tmux's own DA1 lists 4/,
  },
  {
    // Nothing from the outer terminal comes back (wrapped queries are dropped) and tmux's DA1 and
    // XTSMGRAPHICS claim sixel whatever its client is: nothing proves the client draws it.
    name: 'as recorded, scrubbed: no tmux to ask',
    environment: 'scrubbed',
    display: null,
    replies: REC.scrubbed.replies,
    graphics: 'text',
    detail: /tmux drops wrapped sequences/,
  },
  {
    name: 'inherited, the client without sixel',
    environment: 'inherited',
    display: displayWith(2, '256,RGB,title'),
    replies: REC.inherited.replies,
    graphics: 'text',
    detail: /#\{client_termfeatures\} lists no sixel/,
  },
  {
    name: 'inherited, tmux built without sixel (its DA1 lists no 4)',
    environment: 'inherited',
    display: REC.display,
    replies: REC.inherited.replies.replace('?1;2;4c', '?1;2c'),
    graphics: 'text',
    detail: /nothing shows this tmux was built with sixel/,
  },
  {
    name: 'inherited, a newer tmux saying #{sixel_support} 0',
    environment: 'inherited',
    display: displayWith(3, '0'),
    replies: REC.inherited.replies,
    graphics: 'text',
    detail: /built without sixel/,
  },
  {
    name: 'inherited, a newer tmux saying #{sixel_support} 1 (its DA1 alone would do too)',
    environment: 'inherited',
    display: displayWith(3, '1'),
    replies: REC.inherited.replies,
    graphics: 'sixel',
    detail: /#\{sixel_support\} is 1 and #\{client_termfeatures\} lists sixel/,
  },
];

describe('tmux 3.5a drawing sixel itself (recorded in Debian 13, xterm 398 as a VT340)', () => {
  it.each(ROWS)('$name', (row) => {
    const env = REC[row.environment].env;
    const tmux = row.display === null ? null : parseTmuxFormats(row.display, REC.passthrough);
    const facts = factsFromReplies(row.replies, { wrapped: true, sentinel: true });
    const report = resolveReport({ env, isTTY: { stdin: true, stdout: true, stderr: true } }, facts, {
      stream: 'tty',
      tmux,
    });
    if (row.graphics === 'sixel') expect(report.graphics).toBe('sixel');
    else expect(['braille', 'blocks', 'symbols']).toContain(report.graphics);
    expect(report.multiplexer).toMatchObject({ name: 'tmux', version: '3.5a', passthrough: false });
    expect(report.why.graphics.detail).toMatch(row.detail);
  });

  it('tmux 3.5a prints nothing for #{sixel_support}', () => {
    expect(parseTmuxFormats(REC.display, REC.passthrough)).toMatchObject({
      version: '3.5a',
      clientTermtype: 'XTerm(398)',
      sixelSupport: null,
      allowPassthrough: 'off',
    });
    expect(parseTmuxFormats(REC.display, REC.passthrough)?.clientFeatures).toContain('sixel');
  });
});
