import { describe, expect, it } from 'vitest';
import { GROUND, scanEscapes } from '../../src/cli/escape-state.js';
import { closingFor, JobControl, SUSPEND_TAIL } from '../../src/cli/job-control.js';

/** A stand-in for `process`: the listeners, and a way to send a signal. */
function source() {
  const listeners = new Map<string, Set<() => void>>();
  return {
    on: (event: string, l: () => void) => listeners.set(event, (listeners.get(event) ?? new Set()).add(l)),
    off: (event: string, l: () => void) => listeners.get(event)?.delete(l),
    send: (event: string) => {
      for (const l of [...(listeners.get(event) ?? [])]) l();
    },
    count: (event: string) => listeners.get(event)?.size ?? 0,
  };
}

describe('JobControl', () => {
  it.each([
    { name: 'in text', state: GROUND, closing: '' },
    { name: 'inside a sixel DCS', state: scanEscapes(GROUND, '\x1bPq#0;2;0;0;0'), closing: '\x1b\\' },
    { name: 'inside a kitty APC, after an ESC', state: scanEscapes(GROUND, '\x1b_Ga=T;AAAA\x1b'), closing: '\x1b\\' },
  ])('a stop $name closes what is open, shows the cursor, moves below, then stops itself', ({ state, closing }) => {
    const src = source();
    const written: string[] = [];
    let stops = 0;
    const jobs = new JobControl(src, { write: (s) => written.push(s) }, () => {
      stops++;
      // The default action is back: our listener is gone when the process stops itself.
      expect(src.count('SIGTSTP')).toBe(0);
    });
    jobs.writing = state;
    jobs.below = '\x1b[9B\r\n';
    src.send('SIGTSTP');
    expect(written).toEqual([`${closing}${SUSPEND_TAIL}\x1b[9B\r\n`]);
    expect(closingFor(state)).toBe(closing);
    expect([stops, jobs.resumes, jobs.writing, jobs.below]).toEqual([1, 0, null, null]);
    src.send('SIGCONT');
    expect([jobs.resumes, src.count('SIGTSTP')]).toEqual([1, 1]);
    // Not below a picture: a fresh line where the cursor is.
    src.send('SIGTSTP');
    expect(written[1]).toBe(`${SUSPEND_TAIL}\r\n`);
    jobs.dispose();
    expect([src.count('SIGTSTP'), src.count('SIGCONT')]).toEqual([0, 0]);
  });

  it('a SIGCONT it did not stop for counts no resume', () => {
    const src = source();
    const jobs = new JobControl(src, { write: () => true }, () => {});
    src.send('SIGCONT');
    expect(jobs.resumes).toBe(0);
  });
});
