/**
 * Where a terminal's escape-sequence parser is after some output, followed piece by piece: what
 * the picture writer, job control and the interrupt path need to close an open sequence.
 */

/** Where a terminal's parser is after some output: the part of that state a writer must undo. */
export interface EscapeState {
  /** `ground` text; `esc` after ESC; `csi` inside a control sequence; `string` inside DCS/APC/OSC/PM/SOS; `string-esc` after an ESC inside one. */
  readonly mode: 'ground' | 'esc' | 'csi' | 'string' | 'string-esc';
  /** The first characters of the open string after its introducer (`Ptmux;` marks tmux passthrough). */
  readonly intro: string;
}

/** The parser's state before anything is written. */
export const GROUND: EscapeState = Object.freeze({ mode: 'ground', intro: '' });

export const ESC = 0x1b;

/** The state after `text` is written in `state`; pure, so it can follow output written in pieces. */
export function scanEscapes(state: EscapeState, text: string): EscapeState {
  let { mode, intro } = state;
  for (let i = 0; i < text.length; i++) {
    // In text, and in a string's body once its introducer is kept, only ESC (and BEL, which ends
    // an OSC) changes anything: jump to the next one natively instead of looking at every
    // character of a megabyte of base64 or sixel data.
    if (mode === 'ground' || (mode === 'string' && intro.length >= 6)) {
      const esc = text.indexOf('\x1b', i);
      const bel = mode === 'string' && intro.startsWith(']') ? text.indexOf('\x07', i) : -1;
      const next = bel >= 0 && (esc < 0 || bel < esc) ? bel : esc;
      if (next < 0) break;
      i = next;
    }
    const c = text.charCodeAt(i);
    switch (mode) {
      case 'ground':
        if (c === ESC) mode = 'esc';
        break;
      case 'esc':
        if (c === 0x5b) mode = 'csi';
        else if (c === 0x50 || c === 0x5f || c === 0x5d || c === 0x5e || c === 0x58) {
          mode = 'string';
          intro = String.fromCharCode(c);
        } else if (c !== ESC) mode = 'ground';
        break;
      case 'csi':
        if (c >= 0x40 && c <= 0x7e) mode = 'ground';
        else if (c === ESC) mode = 'esc';
        break;
      case 'string':
        if (c === ESC) mode = 'string-esc';
        else if (c === 0x07 && intro.startsWith(']')) mode = 'ground';
        else if (intro.length < 6) intro += String.fromCharCode(c);
        break;
      case 'string-esc':
        // `ESC \` ends the string; inside tmux passthrough `ESC ESC` is one literal ESC.
        if (c === 0x5c) {
          mode = 'ground';
          intro = '';
        } else mode = 'string';
        break;
    }
  }
  return { mode, intro: mode === 'ground' ? '' : intro };
}
