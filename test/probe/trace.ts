/**
 * The reducer's timing tables share one way to run a row: events written as steps ('start', a
 * clock time, ['in', text], ['end', time]) go through the pure reducer, and every step that
 * caused actions becomes one line of a readable trace. Each table says how it summarises actions.
 */
import { escapeBytes } from '../../src/core/escape.js';
import type { Runtime } from '../../src/env/runtime.js';
import type { ProbeAction, ProbeEvent } from '../../src/probe/events.js';
import { createProbe, type ProbeOptions, type ProbeState, stepProbe } from '../../src/probe/reducer.js';

/** An event as written in a row: 'start', a number (clock), ['in', text], or ['end', time]. */
export type Step = 'start' | number | readonly ['in', string] | readonly ['end', number];

/** One row of a timing table: the runtime, the steps, the trace lines expected. */
export interface TraceRow {
  readonly name: string;
  readonly runtime: Runtime;
  readonly options?: ProbeOptions;
  readonly steps: readonly Step[];
  readonly expected: readonly string[];
}

/** The reducer event a step stands for. */
export function event(s: Step): ProbeEvent {
  if (s === 'start') return { type: 'start' };
  if (typeof s === 'number') return { type: 'clock', nowMs: s };
  if (s[0] === 'end') return { type: 'end', nowMs: s[1] };
  return { type: 'input', bytes: Buffer.from(s[1], 'latin1') };
}

/** How a step is written in a trace line: `start`, `t100`, `end40`, `in \e[?62;c`. */
export function label(s: Step): string {
  if (s === 'start') return 'start';
  if (typeof s === 'number') return `t${s}`;
  return s[0] === 'end' ? `end${s[1]}` : `in ${escapeBytes(s[1])}`;
}

/** Runs the steps; returns the trace (`t100: done timeout 100ms`) of every step that did something. */
export function trace(
  runtime: Runtime,
  options: ProbeOptions,
  steps: readonly Step[],
  summary: (action: ProbeAction) => string,
): { lines: string[]; state: ProbeState } {
  let state = createProbe(runtime, options);
  const lines: string[] = [];
  for (const s of steps) {
    const [next, actions] = stepProbe(state, event(s));
    state = next;
    if (actions.length > 0) lines.push(`${label(s)}: ${actions.map(summary).join(', ')}`);
  }
  return { lines, state };
}
