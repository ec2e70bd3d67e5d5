/**
 * The reply scanner: a streaming, resumable tokenizer that separates a terminal's answers to
 * termsight's queries from whatever else arrives on the same input (the user's keys, pasted text,
 * mouse reports). Pure: `scanReplies(state, chunk)` returns the next state and the tokens the chunk
 * completed. Which shapes are replies, why the set is wider than what termsight asks, and the
 * bounds: docs/probe.md, "The reply scanner".
 */

/** A completed piece of the input stream. */
export type ScanToken =
  /** An answer to one of termsight's queries, whole, introducer and terminator included. */
  | { readonly type: 'reply'; readonly kind: ReplyKind; readonly bytes: Uint8Array }
  /** Anything else: user input, unchanged. Adjacent input within one `scan` call comes as one token. */
  | { readonly type: 'input'; readonly bytes: Uint8Array };

/** A reply token. */
export type ReplyToken = Extract<ScanToken, { type: 'reply' }>;

/** The sequence families a reply can be. */
export type ReplyKind = 'csi' | 'dcs' | 'apc' | 'osc';

/** Where the scanner is inside the stream. */
type Mode = 'ground' | 'paste' | 'esc' | 'csi' | 'ss3' | 'string' | 'drop-csi' | 'drop-string';

/** The scanner's whole state: an immutable value. */
export interface ScannerState {
  /** Replies longer than this many bytes are dropped. */
  readonly maxReplyBytes: number;
  readonly mode: Mode;
  /** The bytes of the sequence in progress (empty in ground, paste and drop modes). */
  readonly held: Uint8Array;
  /** The string sequence in progress: DCS, APC or OSC. */
  readonly kind: 'dcs' | 'apc' | 'osc' | null;
  /** Whether the string in progress already has a reply's prefix (`yes`) or might still get one. */
  readonly verdict: 'maybe' | 'yes';
  /** Whether the last byte of a string in progress was ESC (the first half of ST). */
  readonly stringEsc: boolean;
  /** In paste mode, how many bytes of the end marker `CSI 201~` matched so far. */
  readonly pasteMatch: number;
}

/** Options of a new scanner. */
export interface ScannerOptions {
  /** The longest reply kept, in bytes (default 4096); longer ones are dropped. */
  readonly maxReplyBytes?: number;
}

/** The default reply cap: far above any real reply (kitty's XTGETTCAP answers are < 100 bytes). */
export const DEFAULT_MAX_REPLY_BYTES = 4096;

const ESC = 0x1b;
const BEL = 0x07;
const BACKSLASH = 0x5c;
const EMPTY = new Uint8Array(0);
const PASTE_START = [ESC, 0x5b, 0x32, 0x30, 0x30, 0x7e]; // ESC [ 2 0 0 ~
const PASTE_END = [ESC, 0x5b, 0x32, 0x30, 0x31, 0x7e]; // ESC [ 2 0 1 ~
const DCS_REPLY_PREFIXES = ['>|', '1+r', '0+r', '1$r', '0$r', '!|'].map(ascii);
const APC_REPLY_PREFIXES = ['G'].map(ascii);
/** OSC numbers whose replies termsight asks for: 4 (palette), 10–19 (dynamic colours). */
const OSC_REPLY_NUMBERS: ReadonlySet<number> = new Set([4, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);

function ascii(text: string): number[] {
  return [...text].map((ch) => ch.charCodeAt(0));
}

/**
 * A new scanner in the ground state.
 *
 * @example let s = createScanner(); let r = scanReplies(s, bytes); s = r.state; r.tokens.forEach(...)
 */
export function createScanner(options: ScannerOptions = {}): ScannerState {
  const cap = options.maxReplyBytes ?? DEFAULT_MAX_REPLY_BYTES;
  return {
    maxReplyBytes: Number.isFinite(cap) && cap > 0 ? Math.floor(cap) : DEFAULT_MAX_REPLY_BYTES,
    mode: 'ground',
    held: EMPTY,
    kind: null,
    verdict: 'maybe',
    stringEsc: false,
    pasteMatch: 0,
  };
}

/**
 * Feeds one chunk: returns the next state and the tokens the chunk completed, in stream order.
 * A sequence cut by the chunk's end (a lone ESC included) is held until the next chunk or `flush`.
 */
export function scanReplies(state: ScannerState, chunk: Uint8Array): { state: ScannerState; tokens: ScanToken[] } {
  const machine = new Machine(state);
  for (let i = 0; i < chunk.length; i++) machine.byte(chunk[i]);
  return { state: machine.snapshot(), tokens: machine.finish() };
}

/**
 * Ends the stream: a held partial sequence comes out as input (it never completed, so it is not a
 * reply); a reply being dropped stays dropped. Returns a fresh ground state.
 */
export function flushScanner(state: ScannerState): { state: ScannerState; tokens: ScanToken[] } {
  const fresh = createScanner({ maxReplyBytes: state.maxReplyBytes });
  if (state.held.length === 0 || state.mode === 'drop-csi' || state.mode === 'drop-string') {
    return { state: fresh, tokens: [] };
  }
  return { state: fresh, tokens: [{ type: 'input', bytes: state.held.slice() }] };
}

/**
 * Whether the partial sequence held is on its way to being a reply: a string with a reply's prefix,
 * a CSI with a private marker (`?` or `>`: keys never have one), or a reply being dropped. A probe
 * that ends keeps such a partial to swallow its rest; anything else held (a lone ESC: the Escape key) is input.
 */
export function holdsReply(state: ScannerState): boolean {
  switch (state.mode) {
    case 'drop-csi':
    case 'drop-string':
      return true;
    case 'string':
      return state.verdict === 'yes';
    case 'csi':
      return state.held.length > 2 && (state.held[2] === 0x3f || state.held[2] === 0x3e);
    default:
      return false;
  }
}

/**
 * At the end of a probe: releases a held partial that is not on its way to being a reply (see
 * `holdsReply`) as input, and keeps one that is, so its rest can still be swallowed.
 */
export function releaseInput(state: ScannerState): { state: ScannerState; tokens: ScanToken[] } {
  if (holdsReply(state)) return { state, tokens: [] };
  if (state.mode === 'paste') return { state, tokens: [] };
  return flushScanner(state);
}

/** The mutable worker behind one `scan` call; the state value itself is never mutated. */
class Machine {
  private readonly cap: number;
  private mode: Mode;
  private held: number[];
  private kind: 'dcs' | 'apc' | 'osc' | null;
  private verdict: 'maybe' | 'yes';
  private stringEsc: boolean;
  private pasteMatch: number;
  private readonly tokens: ScanToken[] = [];
  private input: number[] = [];

  constructor(state: ScannerState) {
    this.cap = state.maxReplyBytes;
    this.mode = state.mode;
    this.held = Array.from(state.held);
    this.kind = state.kind;
    this.verdict = state.verdict;
    this.stringEsc = state.stringEsc;
    this.pasteMatch = state.pasteMatch;
  }

  snapshot(): ScannerState {
    return {
      maxReplyBytes: this.cap,
      mode: this.mode,
      held: this.held.length === 0 ? EMPTY : Uint8Array.from(this.held),
      kind: this.kind,
      verdict: this.verdict,
      stringEsc: this.stringEsc,
      pasteMatch: this.pasteMatch,
    };
  }

  finish(): ScanToken[] {
    this.flushInput();
    return this.tokens;
  }

  byte(b: number): void {
    switch (this.mode) {
      case 'ground':
        if (b === ESC) this.begin([ESC], 'esc');
        else this.input.push(b);
        return;
      case 'paste':
        this.pasteByte(b);
        return;
      case 'esc':
        this.escByte(b);
        return;
      case 'ss3':
        if (b === ESC) {
          this.releaseHeld();
          this.begin([ESC], 'esc');
        } else {
          this.held.push(b);
          this.releaseHeld();
        }
        return;
      case 'csi':
        this.csiByte(b);
        return;
      case 'string':
        this.stringByte(b);
        return;
      case 'drop-csi':
        if (b >= 0x20 && b <= 0x3f) return;
        this.mode = 'ground';
        if (b < 0x40 || b > 0x7e) this.byte(b); // not a final byte: the CSI was cut; read b afresh
        return;
      case 'drop-string':
        if (this.stringEsc) {
          this.stringEsc = false;
          this.mode = 'ground';
          if (b !== BACKSLASH) {
            this.begin([ESC], 'esc');
            this.byte(b);
          }
        } else if (b === ESC) this.stringEsc = true;
        else if (b === BEL) this.mode = 'ground';
        return;
    }
  }

  private begin(held: number[], mode: Mode): void {
    this.held = held;
    this.mode = mode;
  }

  private escByte(b: number): void {
    switch (b) {
      case 0x5b: // [
        this.held.push(b);
        this.mode = 'csi';
        return;
      case 0x50: // P
        this.startString(b, 'dcs');
        return;
      case 0x5f: // _
        this.startString(b, 'apc');
        return;
      case 0x5d: // ]
        this.startString(b, 'osc');
        return;
      case 0x4f: // O
        this.held.push(b);
        this.mode = 'ss3';
        return;
      case ESC: // ESC ESC: the first is a key of its own (Escape, or Alt+ prefix)
        this.releaseHeld();
        this.begin([ESC], 'esc');
        return;
      default: // Alt+key and the like
        this.held.push(b);
        this.releaseHeld();
    }
  }

  private startString(b: number, kind: 'dcs' | 'apc' | 'osc'): void {
    this.held.push(b);
    this.mode = 'string';
    this.kind = kind;
    this.verdict = 'maybe';
    this.stringEsc = false;
  }

  private csiByte(b: number): void {
    if (b >= 0x20 && b <= 0x3f) {
      this.held.push(b);
      if (this.held.length > this.cap) {
        this.held = [];
        this.mode = 'drop-csi';
      }
      return;
    }
    if (b >= 0x40 && b <= 0x7e) {
      this.held.push(b);
      const bytes = this.held;
      if (isReplyCsi(bytes)) this.emitReply('csi');
      else {
        const paste = sameBytes(bytes, PASTE_START);
        this.releaseHeld();
        if (paste) {
          this.mode = 'paste';
          this.pasteMatch = 0;
        }
      }
      return;
    }
    // A control or non-ASCII byte cuts the CSI: what was held is input; read b afresh.
    this.releaseHeld();
    this.byte(b);
  }

  private stringByte(b: number): void {
    if (this.stringEsc) {
      this.stringEsc = false;
      if (b === BACKSLASH) {
        this.held.push(b);
        this.endString();
        return;
      }
      // ESC then something else: the string was cut, it is not a reply. The ESC starts anew.
      this.held.pop();
      this.releaseHeld();
      this.begin([ESC], 'esc');
      this.byte(b);
      return;
    }
    this.held.push(b);
    if (b === ESC) {
      this.stringEsc = true;
      return;
    }
    if (b === BEL) {
      this.endString();
      return;
    }
    if (this.verdict === 'maybe') {
      const verdict = stringVerdict(this.kind ?? 'dcs', this.held);
      if (verdict === 'no') {
        this.releaseHeld(); // not a reply: hand it on now, the rest reads as ordinary input
        return;
      }
      this.verdict = verdict;
    }
    if (this.held.length > this.cap) {
      if (this.verdict === 'yes') {
        this.held = [];
        this.mode = 'drop-string';
      } else this.releaseHeld();
    }
  }

  private endString(): void {
    if (this.verdict === 'yes') this.emitReply(this.kind ?? 'dcs');
    else this.releaseHeld();
  }

  private pasteByte(b: number): void {
    this.input.push(b);
    if (b === PASTE_END[this.pasteMatch]) this.pasteMatch += 1;
    else this.pasteMatch = b === PASTE_END[0] ? 1 : 0;
    if (this.pasteMatch === PASTE_END.length) {
      this.pasteMatch = 0;
      this.mode = 'ground';
    }
  }

  /** The held bytes are input after all; back to ground. */
  private releaseHeld(): void {
    for (const b of this.held) this.input.push(b);
    this.reset();
  }

  private emitReply(kind: ReplyKind): void {
    this.flushInput();
    this.tokens.push({ type: 'reply', kind, bytes: Uint8Array.from(this.held) });
    this.reset();
  }

  private reset(): void {
    this.held = [];
    this.mode = 'ground';
    this.kind = null;
    this.verdict = 'maybe';
    this.stringEsc = false;
  }

  private flushInput(): void {
    if (this.input.length === 0) return;
    this.tokens.push({ type: 'input', bytes: Uint8Array.from(this.input) });
    this.input = [];
  }
}

function sameBytes(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether a complete CSI (`ESC [` … final) has the shape of an answer to one of termsight's queries. */
function isReplyCsi(bytes: readonly number[]): boolean {
  const final = bytes[bytes.length - 1];
  const marker = bytes.length > 3 && bytes[2] >= 0x3c && bytes[2] <= 0x3f ? bytes[2] : 0;
  let intermediate = 0;
  for (let i = 2; i < bytes.length - 1; i++) if (bytes[i] >= 0x20 && bytes[i] <= 0x2f) intermediate = bytes[i];
  const QUESTION = 0x3f;
  const GREATER = 0x3e;
  switch (final) {
    case 0x63: // c: DA1 (?) or DA2 (>)
      return intermediate === 0 && (marker === QUESTION || marker === GREATER);
    case 0x74: // t: XTWINOPS reports start with a digit and have no marker
      return marker === 0 && intermediate === 0 && bytes.length > 3 && bytes[2] >= 0x30 && bytes[2] <= 0x39;
    case 0x79: // y with $: DECRQM report (private or ANSI)
      return intermediate === 0x24 && (marker === QUESTION || marker === 0);
    case 0x53: // S: XTSMGRAPHICS report
      return marker === QUESTION && intermediate === 0;
    case 0x75: // u: kitty keyboard flags report (key events in that protocol have no marker)
      return marker === QUESTION && intermediate === 0;
    case 0x6e: // n: DSR reports, `CSI 0 n`/`CSI 3 n` (status) and `CSI ? 997 ; n n` (colour scheme); no key ends in n
      return intermediate === 0 && (marker === QUESTION || (marker === 0 && bytes.length > 3));
    case 0x52: // R: DECXCPR `CSI ? row ; col R` (plain CPR has a key's shape, Shift+F3 `CSI 1 ; 2 R`: not a reply)
      return marker === QUESTION && intermediate === 0;
    default:
      return false;
  }
}

/** Whether a string sequence (held bytes, introducer included) so far has, may get, or cannot have a reply's prefix. */
function stringVerdict(kind: 'dcs' | 'apc' | 'osc', held: readonly number[]): 'yes' | 'maybe' | 'no' {
  const content = held.slice(2);
  if (kind === 'osc') {
    let digits = 0;
    while (digits < content.length && content[digits] >= 0x30 && content[digits] <= 0x39) digits += 1;
    if (digits === content.length) return digits <= 4 ? 'maybe' : 'no';
    if (digits === 0 || content[digits] !== 0x3b) return 'no';
    const number = Number(String.fromCharCode(...content.slice(0, digits)));
    return OSC_REPLY_NUMBERS.has(number) ? 'yes' : 'no';
  }
  const prefixes = kind === 'dcs' ? DCS_REPLY_PREFIXES : APC_REPLY_PREFIXES;
  let maybe = false;
  for (const prefix of prefixes) {
    const n = Math.min(prefix.length, content.length);
    let match = true;
    for (let i = 0; i < n; i++) if (content[i] !== prefix[i]) match = false;
    if (!match) continue;
    if (content.length >= prefix.length) return 'yes';
    maybe = true;
  }
  return maybe ? 'maybe' : 'no';
}
