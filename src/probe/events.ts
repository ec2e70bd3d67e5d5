/**
 * The probe reducer's contract: the events it is fed and the actions it asks for. The reducer
 * (`reducer.ts`) is pure; the Node driver (`driver.ts`) turns I/O into events and actions into
 * I/O. See docs/probe.md for the timing rules.
 */
import type { ProbeFacts } from './facts.js';

/** Something that happened: the probe started, bytes arrived from the terminal, time passed, or the driver ends it. */
export type ProbeEvent =
  | { readonly type: 'start' }
  | { readonly type: 'input'; readonly bytes: Uint8Array }
  | { readonly type: 'clock'; readonly nowMs: number }
  /**
   * The driver ends the probe (an abort, the stream closing): before the result, finish at once
   * with what arrived, as if the deadline had passed with no extension left; after it, hand back a
   * held partial key (the driver stops listening).
   */
  | { readonly type: 'end'; readonly nowMs: number };

/** What the driver must do. */
export type ProbeAction =
  /** Write these bytes to the terminal. */
  | { readonly type: 'write'; readonly bytes: Uint8Array }
  /** The user's keys (anything that is not a reply): hand them back to the application, unchanged and in order. */
  | { readonly type: 'keys'; readonly bytes: Uint8Array }
  /** The deadline moved (once at most); the next clock tick is due by `probeNextTickAt` as always. */
  | { readonly type: 'extendDeadline'; readonly deadlineMs: number }
  /** Reply bytes that arrived after the result: swallowed, never reclassified, never handed on as keys. */
  | { readonly type: 'swallowed'; readonly bytes: Uint8Array }
  /**
   * The probe is over; here is what the terminal said. `outstanding`: it ended before the batch's
   * sentinel came, so its replies may still be on the way (a slow link): keep swallowing late
   * replies until `lateSentinel`, bounded.
   */
  | { readonly type: 'done'; readonly facts: ProbeFacts; readonly outstanding: boolean }
  /** The outstanding sentinel arrived after the result: the batch is answered, only stragglers may follow. */
  | { readonly type: 'lateSentinel' }
  /**
   * The answer to the application's ask number `ask` (`ProbeOptions.asks`): its reply, or null when
   * the batch's sentinel came first (not supported) or the probe ended without it. Once per ask.
   */
  | { readonly type: 'answer'; readonly ask: number; readonly bytes: Uint8Array | null };
