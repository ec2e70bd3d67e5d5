/**
 * A real terminal engine, @xterm/headless, answering termsight's real query in-process; its replies
 * go through the reducer, which must end on the sentinel with the facts the recording
 * (fixtures/replies/xterm-headless.json) shows.
 */

import xterm from '@xterm/headless';
import { describe, expect, it } from 'vitest';
import type { Runtime } from '../../src/env/runtime.js';
import { factsFromReplies, protocolFromFacts } from '../../src/probe/classify.js';
import type { ProbeAction } from '../../src/probe/events.js';
import { probeQuery } from '../../src/probe/query.js';
import { createProbe, probeResult, stepProbe } from '../../src/probe/reducer.js';
import { loadFixtures } from './fixtures.js';

const { Terminal } = xterm;
/** xterm.js as VS Code runs it: TERM_PROGRAM=vscode names it, so the whole batch goes in one round. */
const RUNTIME: Runtime = {
  env: { TERM: 'xterm-256color', TERM_PROGRAM: 'vscode' },
  platform: 'linux',
  isTTY: { stdin: true, stdout: true },
};
/** xterm.js as ttyd or Wetty run it: TERM alone names nobody. */
const UNNAMED: Runtime = { env: { TERM: 'xterm-256color' }, platform: 'linux', isTTY: { stdin: true, stdout: true } };

/** The text on the engine's screen, rows joined, trailing blanks trimmed. */
function screenText(terminal: InstanceType<typeof Terminal>): string {
  const buffer = terminal.buffer.active;
  const rows: string[] = [];
  for (let y = 0; y < buffer.length; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? '');
  return rows.join('\n').trimEnd();
}

/** Writes bytes into the engine; resolves with everything it answered (its onData) once parsed. */
function answer(terminal: InstanceType<typeof Terminal>, bytes: Uint8Array): Promise<string[]> {
  const chunks: string[] = [];
  const listener = terminal.onData((data) => chunks.push(data));
  return new Promise((resolve) =>
    terminal.write(bytes, () => {
      listener.dispose();
      resolve(chunks);
    }),
  );
}

describe('@xterm/headless answers the real query', () => {
  it('the reducer ends on the sentinel with the recorded facts', async () => {
    const terminal = new Terminal({ allowProposedApi: true, cols: 80, rows: 24 });
    let [state, actions] = stepProbe(createProbe(RUNTIME, { nowMs: 0 }), { type: 'start' });
    const write = actions.find((a): a is Extract<ProbeAction, { type: 'write' }> => a.type === 'write');
    expect(write?.bytes).toEqual(probeQuery({ runtime: RUNTIME }));

    const chunks = await answer(terminal, write!.bytes);
    expect(chunks.length).toBeGreaterThan(0);
    let passthrough = '';
    let t = 1;
    const seen: ProbeAction[] = [];
    for (const chunk of chunks) {
      // As the driver does: each chunk, then a clock tick right away.
      [state, actions] = stepProbe(state, { type: 'input', bytes: Buffer.from(chunk, 'latin1') });
      seen.push(...actions);
      [state, actions] = stepProbe(state, { type: 'clock', nowMs: t++ });
      seen.push(...actions);
    }
    for (const a of seen) if (a.type === 'keys') passthrough += Buffer.from(a.bytes).toString('latin1');
    expect(seen.filter((a) => a.type === 'done')).toHaveLength(1);
    expect(t - 1).toBeLessThan(100); // ended by the sentinel, well before the deadline
    terminal.dispose();

    const facts = probeResult(state);
    expect(facts).not.toBeNull();
    expect(facts!.sentinel).toBe(true);
    expect(facts!.timedOut).toBe(false);
    expect(passthrough).toBe('');

    const recorded = loadFixtures().find((f) => f.file === 'xterm-headless.json')!;
    const expected = factsFromReplies(recorded.batch.reply);
    expect(facts!.da1).toEqual(expected.da1);
    expect(facts!.da2).toEqual(expected.da2);
    expect(facts!.synchronizedOutput).toEqual(expected.synchronizedOutput);
    expect(facts!.terminal).toBeUndefined();
    expect(facts!.cellPixels).toBeUndefined();
    expect(protocolFromFacts(facts!)).toBeNull();
    expect(facts!.da1).toMatchObject({ level: 1, attributes: [2] });
    expect(facts!.synchronizedOutput?.supported).toBe(true);
  });

  it('named by nothing but its replies: one round, nothing guarded sent, nothing drawn, the cursor where it was', async () => {
    const terminal = new Terminal({ allowProposedApi: true, cols: 80, rows: 24 });
    let [state, actions] = stepProbe(createProbe(UNNAMED, { nowMs: 0 }), { type: 'start' });
    const writes = actions.filter((a): a is Extract<ProbeAction, { type: 'write' }> => a.type === 'write');
    let t = 1;
    while (writes.length > 0) {
      const chunks = await answer(terminal, writes.shift()!.bytes);
      for (const chunk of chunks) {
        [state, actions] = stepProbe(state, { type: 'input', bytes: Buffer.from(chunk, 'latin1') });
        writes.push(...actions.filter((a): a is Extract<ProbeAction, { type: 'write' }> => a.type === 'write'));
        [state] = stepProbe(state, { type: 'clock', nowMs: t++ });
      }
    }
    // Its DA1 (?1;2c) and DA2 (>0;276;0c) name xterm.js: the database answers, no guarded round.
    expect(probeResult(state)).toMatchObject({ sentinel: true, timedOut: false, da1: { level: 1 } });
    expect(probeResult(state)?.kittyGraphics).toBeUndefined();
    expect(screenText(terminal)).toBe('');
    expect([terminal.buffer.active.cursorX, terminal.buffer.active.cursorY]).toEqual([0, 0]);
    terminal.dispose();
  });
});
