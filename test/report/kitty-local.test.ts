/** The report's `kittyLocalFile`: only on the terminal's own OK, only where kitty pictures go straight to it. */
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies } from '../../src/probe/classify.js';
import { resolveReport } from '../../src/report/resolve.js';

const KITTY_ENV = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };
const rt = (env: Record<string, string>): Runtime => ({ env, platform: 'linux', isTTY: { stdin: true, stdout: true } });
const NAME = '\x1bP>|kitty(0.26.5)\x1b\\';
const KITTY_OK = '\x1b_Gi=31;OK\x1b\\';
const LOCAL_OK = '\x1b_Gi=32;OK\x1b\\';
const LOCAL_ERR = '\x1b_Gi=32;EBADF:Failed to read\x1b\\';
const DA1 = '\x1b[?62;c';

const ROWS: readonly {
  name: string;
  env: Record<string, string>;
  replies: string | null;
  value: boolean;
  source: string;
}[] = [
  {
    name: 'kitty read the probe file',
    env: KITTY_ENV,
    replies: NAME + KITTY_OK + LOCAL_OK + DA1,
    value: true,
    source: 'reply',
  },
  {
    name: 'kitty could not read it',
    env: KITTY_ENV,
    replies: NAME + KITTY_OK + LOCAL_ERR + DA1,
    value: false,
    source: 'reply',
  },
  {
    name: 'no answer to the local query',
    env: KITTY_ENV,
    replies: NAME + KITTY_OK + DA1,
    value: false,
    source: 'default',
  },
  { name: 'no probe ran', env: KITTY_ENV, replies: null, value: false, source: 'default' },
  {
    name: 'an OK over ssh is not believed',
    env: { ...KITTY_ENV, SSH_CONNECTION: '1 2 3 4' },
    replies: NAME + KITTY_OK + LOCAL_OK + DA1,
    value: false,
    source: 'rule',
  },
  {
    name: 'pictures not kitty (TERMSIGHT_GRAPHICS=sixel)',
    env: { ...KITTY_ENV, TERMSIGHT_GRAPHICS: 'sixel' },
    replies: NAME + KITTY_OK + LOCAL_OK + DA1,
    value: false,
    source: 'default',
  },
];

describe('kittyLocalFile', () => {
  it.each(ROWS)('$name', ({ env, replies, value, source }) => {
    const report = resolveReport(rt(env), replies === null ? undefined : factsFromReplies(replies));
    expect(report.kittyLocalFile).toBe(value);
    expect(report.why.kittyLocalFile.source).toBe(source);
    if (value) expect(report.why.kittyLocalFile.reply).toBe('\\e_Gi=32;OK\\e\\');
  });

  it('an OK from a terminal that kept the probe file is not taken (its picture files would stay)', () => {
    const facts = factsFromReplies(NAME + KITTY_OK + LOCAL_OK + DA1);
    const kept = { ...facts, kittyLocal: { ok: true, reply: '\\e_Gi=32;OK\\e\\', deleted: false } };
    expect(resolveReport(rt(KITTY_ENV), kept).kittyLocalFile).toBe(false);
    const gone = { ...facts, kittyLocal: { ok: true, reply: '\\e_Gi=32;OK\\e\\', deleted: true } };
    expect(resolveReport(rt(KITTY_ENV), gone).kittyLocalFile).toBe(true);
  });

  it('behind tmux: no, whatever came back', () => {
    const env = { ...KITTY_ENV, TMUX: '/tmp/tmux-1/default,1,0', TERM: 'tmux-256color' };
    const report = resolveReport(
      rt(env),
      factsFromReplies(`\x1bP>|tmux 3.4\x1b\\${DA1}${NAME}${KITTY_OK}${LOCAL_OK}${DA1}`, {
        multiplexer: 'tmux',
        wrapped: true,
      }),
    );
    expect(report.kittyLocalFile).toBe(false);
    expect(report.why.kittyLocalFile.source).toBe('multiplexer');
  });
});
