/**
 * The reducer's timing tables share one way to run a row: events written as steps ('start', a
 * clock time, ['in', text], ['end', time]) go through the pure reducer, and every step that
 * caused actions becomes one line of a readable trace, each action written by `summarize`.
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

/**
 * What a trace line shows beyond the action's kind. `write`: the bytes escaped, or only how many
 * queries went wrapped for tmux passthrough (enough to tell rounds apart where the bytes are not the
 * point). `owed`: whether `done` says the batch's sentinel is still outstanding.
 */
export interface TraceStyle {
  readonly write: 'bytes' | 'wrapped';
  readonly owed: boolean;
}

/**
 * One action as trace text: `write \e[c` (or `write +2 wrapped`), `pass a`, `drained \e[?62;c`,
 * `late sentinel`, `extend 1100`, `answer 0 \\e]11;…` (or `answer 0 none`), `done answered 3ms`, `done timeout 100ms owed`, `done skipped(dumb)`.
 */
export function summarize(action: ProbeAction, style: TraceStyle): string {
  switch (action.type) {
    case 'write': {
      if (style.write === 'bytes') return `write ${escapeBytes(action.bytes)}`;
      // How many queries went wrapped for tmux passthrough, or how many of GNU screen's DCS packets
      // (an inner ST splits a query across two): tells the rounds apart.
      const written = Buffer.from(action.bytes).toString('latin1');
      const wrapped = written.split('\x1bPtmux;').length - 1;
      const packets = written.split('\x1bP').length - 1 - wrapped;
      return wrapped > 0 ? `write +${wrapped} wrapped` : packets > 0 ? `write +${packets} screen packets` : 'write';
    }
    case 'keys':
      return `pass ${escapeBytes(action.bytes)}`;
    case 'swallowed':
      return `drained ${escapeBytes(action.bytes)}`;
    case 'lateSentinel':
      return 'late sentinel';
    case 'extendDeadline':
      return `extend ${action.deadlineMs}`;
    case 'answer':
      return `answer ${action.ask} ${action.bytes === null ? 'none' : escapeBytes(action.bytes)}`;
    case 'done': {
      const f = action.facts;
      if (f.skipped) return `done skipped(${f.skipped})`;
      const owed = style.owed && action.outstanding ? ' owed' : '';
      return `done ${f.timedOut ? 'timeout' : 'answered'} ${f.elapsedMs}ms${owed}`;
    }
  }
}
