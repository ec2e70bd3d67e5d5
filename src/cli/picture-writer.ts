/**
 * Writing a picture in pieces so that Ctrl-C can stop it cleanly. A DCS (sixel), APC (kitty) or
 * OSC (iTerm2) left open makes the terminal swallow everything after it, so the writer tracks
 * where each piece leaves the escape-sequence parser and, when stopped, can say what closes it.
 */
import type { Output } from './context.js';
import { ESC, type EscapeState, GROUND, scanEscapes } from './escape-state.js';
import type { JobControl } from './job-control.js';

/**
 * Splits output into pieces of about `size` characters, cutting only where the parser is in text
 * or in the middle of a string's body (never inside a CSI, never right after an ESC, never inside
 * a surrogate pair), so that a stop between pieces needs at most one `ESC \` to close.
 */
export function splitPieces(text: string, size = 16384): string[] {
  if (text.length <= size) return text.length > 0 ? [text] : [];
  const pieces: string[] = [];
  let state: EscapeState = GROUND;
  let start = 0;
  let i = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + size);
    // Advance the state to the tentative cut, then move the cut forward to a safe place.
    state = scanEscapes(state, text.slice(i, end));
    i = end;
    while (end < text.length && !safeCut(state, text, end)) {
      state = scanEscapes(state, text.charAt(end));
      end++;
      i = end;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

function safeCut(state: EscapeState, text: string, at: number): boolean {
  if (state.mode !== 'ground' && state.mode !== 'string') return false;
  const c = text.charCodeAt(at - 1);
  return c !== ESC && !(c >= 0xd800 && c <= 0xdbff);
}

/** Resolves after the event loop has turned once, so a signal handler can run between pieces. */
function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * Resolves once a signal that arrived during synchronous work (decoding, encoding) has been
 * handled: node reads signals in the loop's poll phase, and only a second `setImmediate` is sure
 * to come after one (the first may run in the same iteration). See docs/cli.md.
 */
export async function signalsDelivered(): Promise<void> {
  await turn();
  await turn();
}

/**
 * Waits for `drain` when the stream asked for it (and can say so), or for it to close or fail, or
 * for `signal` to abort; whichever comes first removes all four listeners, so a slow or closed pipe
 * never piles them up (no MaxListenersExceededWarning).
 */
function drained(out: Output, ok: boolean, signal?: AbortSignal): Promise<void> {
  const stream = out as Output & {
    once?: (event: string, listener: () => void) => unknown;
    off?: (event: string, listener: () => void) => unknown;
  };
  if (ok || typeof stream.once !== 'function' || signal?.aborted) return turn();
  return new Promise((resolve) => {
    const events = ['drain', 'close', 'error'] as const;
    const done = (): void => {
      for (const event of events) stream.off?.(event, done);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    for (const event of events) stream.once?.(event, done);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * Writes escape-sequence output piece by piece, yielding between pieces; stops (leaving the rest
 * unwritten) once `signal` is aborted. `state` tells where the output stopped.
 */
export class PictureWriter {
  /** The parser state after everything written so far. */
  state: EscapeState = GROUND;

  constructor(
    private readonly out: Output,
    /** Stops the writer between pieces (and its wait for `drain`) when aborted. */
    readonly signal?: AbortSignal,
    private readonly pieceSize = 16384,
    /** Ctrl-Z and `fg` (job-control.ts): told what is open, so a stop closes it. */
    readonly jobs?: JobControl,
  ) {}

  /**
   * Writes `text`; resolves true when all of it went out, false when stopped by the signal.
   * Stopped (Ctrl-Z) and continued in the middle, the output was closed and the cursor moved to
   * a fresh line: a picture drawn at the cursor is written again from its start there; one that
   * moves from where the last frame was (`relative`, an animation's frame) is left, and the
   * caller, seeing `jobs.resumes` change, draws its next frame afresh.
   */
  async write(text: string, options: { readonly relative?: boolean } = {}): Promise<boolean> {
    // Ctrl-C during the decode came as SIGINT while the loop was blocked: honour it before drawing.
    if (this.signal) await signalsDelivered();
    const pieces = splitPieces(text, this.pieceSize);
    const jobs = this.jobs;
    let resumes = jobs?.resumes ?? 0;
    for (let i = 0; i < pieces.length; i++) {
      if (this.signal?.aborted) return false;
      if (jobs && jobs.resumes !== resumes) {
        this.state = GROUND; // the stop closed what was open
        if (options.relative) return true;
        resumes = jobs.resumes;
        i = 0;
      }
      const piece = pieces[i] as string;
      const ok = this.out.write(piece);
      this.state = scanEscapes(this.state, piece);
      if (jobs) jobs.writing = this.state;
      await drained(this.out, ok, this.signal);
    }
    if (jobs) jobs.writing = null;
    return !this.signal?.aborted;
  }
}
