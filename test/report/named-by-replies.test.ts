/**
 * Terminals that only their replies name (the environment names none: ssh, `env -i`, a browser
 * terminal over ttyd). The probe holds DECRQM back from a terminal nobody named (zutty prints it)
 * and sends no guarded round once the replies name a row, so the row's synchronized-output fact
 * answers, with the row and the reply in `why`. Each row runs the pure probe against a scripted
 * terminal that answers only the queries it was sent, with the replies recorded in
 * test/fixtures/replies/ (kitty-scrubbed.json: kitty 0.26.5; xtermjs.json: xterm.js 6.0.0), then
 * resolves the report.
 */
import { describe, expect, it } from 'vitest';
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import type { ProbeFacts } from '../../src/probe/facts.js';
import { createProbe, probeResult, stepProbe } from '../../src/probe/reducer.js';
import { resolveReport } from '../../src/report/resolve.js';

/** Replies by query (escaped as `escapeBytes` writes it), as the recordings have them. */
type Terminal = Readonly<Record<string, string>>;

const KITTY: Terminal = {
  '\\e[>q': '\x1bP>|kitty(0.26.5)\x1b\\',
  '\\e[>c': '\x1b[>1;4000;26c',
  '\\e_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\\e\\': '\x1b_Gi=31;OK\x1b\\',
  '\\e[16t': '\x1b[6;19;10t',
  '\\e[14t': '\x1b[4;456;800t',
  '\\e[18t': '\x1b[8;24;80t',
  '\\e[?2026$p': '\x1b[?2026;2$y',
  '\\e]11;?\\e\\': '\x1b]11;rgb:0000/0000/0000\x1b\\',
  '\\e[c': '\x1b[?62;c',
};

const XTERMJS: Terminal = {
  '\\e[>c': '\x1b[>0;276;0c',
  '\\e[?2026$p': '\x1b[?2026;2$y',
  '\\e]11;?\\e\\': '\x1b]11;rgb:ffff/ffff/ffff\x1b\\',
  '\\e[c': '\x1b[?1;2c',
};

const QUERY = /\\e\[[^a-zA-Z]*[a-zA-Z]|\\e\][^\\]*\\e\\|\\e_[^\\]*\\e\\/g;

/** Runs the probe against `terminal`: every write is answered at the next millisecond, query by query. */
function probe(runtime: Runtime, terminal: Terminal): { facts: ProbeFacts; written: string[] } {
  let state = createProbe(runtime);
  const written: string[] = [];
  let pending: string[] = [];
  const run = (event: Parameters<typeof stepProbe>[1]) => {
    const [next, actions] = stepProbe(state, event);
    state = next;
    for (const action of actions) {
      if (action.type !== 'write') continue;
      const text = escapeBytes(action.bytes);
      written.push(text);
      pending = (text.match(QUERY) ?? []).map((q) => terminal[q] ?? '');
    }
  };
  run({ type: 'start' });
  for (let now = 1; now < 5000 && probeResult(state) === null; now++) {
    const replies = pending.join('');
    pending = [];
    if (replies !== '') run({ type: 'input', bytes: Buffer.from(replies, 'latin1') });
    run({ type: 'clock', nowMs: now });
  }
  return { facts: probeResult(state) as ProbeFacts, written };
}

const tty = (env: Record<string, string>): Runtime => ({
  env,
  platform: 'linux',
  isTTY: { stdin: true, stdout: true },
});

describe('synchronized output of terminals named only by their replies', () => {
  it.each([
    {
      name: 'kitty over ssh (TERM=xterm-256color): XTVERSION kitty(0.26.5)',
      env: { TERM: 'xterm-256color', HOME: '/home/user' },
      terminal: KITTY,
      row: 'kitty',
      reply: '\\eP>|kitty(0.26.5)\\e\\',
    },
    {
      name: 'xterm.js over ttyd (no variable): DA1 ?1;2c and DA2 >0;276;0c',
      env: { TERM: 'xterm-256color' },
      terminal: XTERMJS,
      row: 'xterm.js',
      reply: '\\e[?1;2c',
    },
  ])('$name: DECRQM 2026 is never sent, the row answers', ({ env, terminal, row, reply }) => {
    const { facts, written } = probe(tty(env), terminal);
    expect(written.join('')).not.toContain('2026$p');
    expect(facts.synchronizedOutput).toBeUndefined();
    const report = resolveReport(tty(env), facts);
    expect(report.synchronizedOutput).toBe(true);
    expect(report.why.synchronizedOutput).toMatchObject({ source: 'reply', row, reply });
    expect(report.why.synchronizedOutput.detail).toMatch(
      /DECRQM 2026 not asked.*database row says synchronized output/,
    );
  });

  it('a terminal its environment names is asked DECRQM, and its silence is no', () => {
    const env = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };
    const silent = { ...KITTY, '\\e[?2026$p': '' };
    const { facts, written } = probe(tty(env), silent);
    expect(written.join('')).toContain('\\e[?2026$p');
    const report = resolveReport(tty(env), facts);
    expect(report.synchronizedOutput).toBe(false);
    expect(report.why.synchronizedOutput.source).toBe('default');
  });

  it('the reply wins over the row: a named kitty that answers "not supported" has none', () => {
    const env = { TERM: 'xterm-kitty', KITTY_WINDOW_ID: '1' };
    const refusing = { ...KITTY, '\\e[?2026$p': '\x1b[?2026;0$y' };
    const report = resolveReport(tty(env), probe(tty(env), refusing).facts);
    expect(report.synchronizedOutput).toBe(false);
    expect(report.why.synchronizedOutput).toMatchObject({ source: 'reply', reply: '\\e[?2026;0$y' });
  });
});
