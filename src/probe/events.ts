/**
 * The probe reducer's contract: the events it is fed and the actions it asks for. The reducer
 * (`reducer.ts`) is pure; the Node driver (`driver.ts`) turns actions into I/O and I/O into events.
 */
import type { ProbeFacts } from './facts.js';

/** Something that happened: the probe started, bytes arrived from the terminal, or time passed. */
export type ProbeEvent =
  | { readonly type: 'start' }
  | { readonly type: 'input'; readonly bytes: Uint8Array }
  | { readonly type: 'clock'; readonly nowMs: number };

/** What the driver must do. */
export type ProbeAction =
  /** Write these bytes to the terminal. */
  | { readonly type: 'write'; readonly bytes: Uint8Array }
  /** User input that is not a reply: hand it back to the application, unchanged and in order. */
  | { readonly type: 'passthrough'; readonly bytes: Uint8Array }
  /** The deadline moved (once at most): the driver should tick the clock again by `deadlineMs`. */
  | { readonly type: 'extendDeadline'; readonly deadlineMs: number }
  /** Reply bytes that arrived after the result and were swallowed (never passed on as keys). */
  | { readonly type: 'drained'; readonly bytes: Uint8Array }
  /** The probe is over; here is what the terminal said. */
  | { readonly type: 'done'; readonly facts: ProbeFacts };
