/**
 * Ctrl-Z (SIGTSTP) and `fg` (SIGCONT) while a picture is drawn or an animation plays. Stopped
 * with the default action, the CLI would leave a sequence open (the shell's "Stopped" line and
 * prompt swallowed or drawn inside the picture) and the cursor hidden, and after `fg` an
 * animation's next frame would move up over the shell's text. So SIGTSTP is caught: what is open
 * is closed, the cursor shown and moved to a fresh line, and then the process stops itself with
 * the default action; SIGCONT counts a resume, which the writer and the animation loop read to
 * draw afresh below. See docs/cli.md, "Every way out".
 */
import type { EscapeState } from './escape-state.js';

/** The signals job control uses. */
export type JobSignal = 'SIGTSTP' | 'SIGCONT';

/** Where the signals come from (a `process`, or a stand-in in tests). */
export interface JobSignalSource {
  on(event: JobSignal, listener: () => void): unknown;
  off(event: JobSignal, listener: () => void): unknown;
}

/** What closes output left in `state` (the parser's state after the last piece written). */
export function closingFor(state: EscapeState): string {
  // A piece never ends inside a CSI or after a lone ESC (splitPieces); a string (DCS, APC, OSC)
  // is closed by ST. Inside tmux passthrough the ST closes the passthrough and the picture's
  // sequence is left to tmux, which drops an unfinished one.
  return state.mode === 'string' || state.mode === 'string-esc' ? '\x1b\\' : '';
}

/** SGR reset, synchronized output off, the cursor shown (then a fresh line below the picture). */
export const SUSPEND_TAIL = '\x1b[0m\x1b[?2026l\x1b[?25h';

/** Job control for one CLI run. */
export class JobControl {
  /** How many times the process was continued after a stop it made itself. */
  resumes = 0;
  /** The state of the output being written (set by the writer), closed on a stop. */
  writing: EscapeState | null = null;
  /**
   * What moves the cursor to the line below the picture on screen (an animation's `endFrame`: its
   * frames leave the cursor at the picture's top); null: a fresh line where the cursor is.
   */
  below: string | null = null;
  private readonly onStop = (): void => this.suspend();
  private readonly onContinue = (): void => this.resume();
  private stopped = false;

  constructor(
    private readonly source: JobSignalSource,
    private readonly out: { write(chunk: string): unknown },
    /** Stops the process with the default action of SIGTSTP (`process.kill(process.pid, 'SIGTSTP')`). */
    private readonly stopSelf: () => void,
  ) {
    source.on('SIGTSTP', this.onStop);
    source.on('SIGCONT', this.onContinue);
  }

  private suspend(): void {
    try {
      const closing = closingFor(this.writing ?? { mode: 'ground', intro: '' });
      this.out.write(closing + SUSPEND_TAIL + (this.below ?? '\r\n'));
    } catch {
      // The output is gone: nothing to close on it.
    }
    this.writing = null;
    this.below = null;
    this.stopped = true;
    // Without a listener SIGTSTP has its default action again: this stops the process here.
    this.source.off('SIGTSTP', this.onStop);
    this.stopSelf();
  }

  private resume(): void {
    if (!this.stopped) return; // a SIGCONT without our stop (sent by hand): nothing was closed
    this.stopped = false;
    this.source.on('SIGTSTP', this.onStop);
    this.resumes++;
  }

  /** Removes the listeners. */
  dispose(): void {
    this.source.off('SIGTSTP', this.onStop);
    this.source.off('SIGCONT', this.onContinue);
  }
}
