/**
 * What a whole exchange of replies says: the facts (terminal, multiplexer, cell size, colours, …)
 * and the graphics protocol they imply. Pure. Behind tmux, two parties answer on one stream: tmux
 * itself (XTVERSION `tmux …`, DA1, DA2, `18 t`) and, through passthrough, the outer terminal; which
 * reply is whose is the one rule in attribution.ts (docs/probe.md, "Who answered what").
 */

import { escapeBytes, toBytes } from '../core/escape.js';
import type { Protocol } from '../env/protocol.js';
import { decisiveNames } from '../terminals/views.js';
import { isMultiplexerName, multiplexerOfDa2, partyOf, passthroughProven } from './attribution.js';
import type { ProbeFacts, ReplyRecord, TerminalName } from './facts.js';
import { KITTY_LOCAL_ID } from './kitty-local.js';
import { parseReply, type Reply } from './replies.js';
import { createScanner, flushScanner, type ReplyToken, scanReplies } from './scanner.js';

/** What the classifier should know about how the replies were asked for. */
export interface ClassifyContext {
  /**
   * The multiplexer in between. Default: inferred from the replies (a `tmux` XTVERSION or a DA2 of
   * type 84 means tmux, type 83 screen).
   */
  readonly multiplexer?: 'tmux' | 'screen' | null;
  /**
   * Whether queries were also sent wrapped for the multiplexer's passthrough (tmux's or screen's),
   * after one unwrapped DA1 that it answers (in the first round, or in a second round after it). It
   * answers in order, so every reply up to that DA1 is its own, and any reply after it is the outer
   * terminal's and proves passthrough.
   */
  readonly wrapped?: boolean;
  /** Probe bookkeeping copied into the facts (defaults: sentinel from the replies, not timed out, 0 ms). */
  readonly sentinel?: boolean;
  readonly timedOut?: boolean;
  readonly elapsedMs?: number;
}

/** Cells smaller or larger than this many pixels are taken as a bogus report. */
export const CELL_PIXELS_RANGE = { min: 2, max: 200 } as const;

/**
 * Relative luminance below which a background is dark: 0.1842 is CIE L* = 50, the perceptual middle
 * between black and white (plain 0.5 would call mid-grey `#808080`, luminance 0.216, "dark" only by accident).
 */
export const DARK_LUMINANCE = 0.1842;

/**
 * Every reply token in a string or byte stream of replies (non-reply bytes are ignored).
 *
 * @example replyTokens('\x1bP>|kitty(0.32.2)\x1b\\\x1b[?62;c').length === 2
 */
export function replyTokens(replies: string | Uint8Array): ReplyToken[] {
  const bytes = typeof replies === 'string' ? latin1Bytes(replies) : replies;
  const first = scanReplies(createScanner({ maxReplyBytes: Math.max(4096, bytes.length) }), bytes);
  const rest = flushScanner(first.state);
  return [...first.tokens, ...rest.tokens].filter((t): t is ReplyToken => t.type === 'reply');
}

/** A JS string of replies to bytes: code units below 256 are bytes (as the fixtures store them); others UTF-8. */
function latin1Bytes(text: string): Uint8Array {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0xff) return toBytes(text);
  const out = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
  return out;
}

/**
 * The multiplexer a single reply names, or null: an XTVERSION of `tmux …`, or a DA2 of type 84
 * (tmux) or 83 (GNU screen 4.09 answers `CSI > 83 ; 40900 ; 0 c`). How a multiplexer shows itself
 * when the environment that would name it (TMUX, STY) was scrubbed.
 *
 * @example multiplexerNamedBy(parseReply(replyTokens('\x1b[>83;40900;0c')[0])!) === 'screen'
 */
export function multiplexerNamedBy(reply: Reply): 'tmux' | 'screen' | null {
  if (reply.type === 'xtversion') {
    const lower = reply.name.toLowerCase();
    return lower === 'tmux' ? 'tmux' : lower === 'screen' ? 'screen' : null;
  }
  return reply.type === 'da2' ? multiplexerOfDa2(reply.terminalType) : null;
}

/**
 * Everything the replies say, as ProbeFacts. `replies` are the scanner's reply tokens in order of
 * arrival, or the raw reply stream as a string (as in the fixtures).
 *
 * Behind tmux: tmux's XTVERSION becomes `multiplexer`, the outer terminal's `terminal`; the first DA1
 * is tmux's. With `wrapped` (the plan sent tmux's DA1 unwrapped before the wrapped queries) every
 * reply up to tmux's DA1 is tmux's and any reply after it proves passthrough; without it, a reply
 * tmux never makes itself does. Sizes come only from the outer terminal, never from tmux. Behind
 * screen the same with `wrapped` (its wrapped queries answered after its own DA1); without it,
 * DA1 and DA2 are screen's. With no `multiplexer` given, the replies name it (tmux's
 * XTVERSION, DA2 type 84 tmux, 83 screen): how a multiplexer shows itself when TMUX/STY were scrubbed.
 *
 * @example factsFromReplies('\x1bP>|kitty(0.26.5)\x1b\\\x1b[6;19;10t\x1b[?62;c').cellPixels // { width: 10, height: 19, … }
 */
export function factsFromReplies(replies: readonly ReplyToken[] | string, context: ClassifyContext = {}): ProbeFacts {
  const tokens = typeof replies === 'string' ? replyTokens(replies) : replies;
  const records: ReplyRecord[] = tokens.map((t) => ({ kind: t.kind, text: escapeBytes(t.bytes) }));
  const parsed = tokens.map((t) => parseReply(t)).filter((r): r is Reply => r !== null);

  const multiplexer = context.multiplexer !== undefined ? context.multiplexer : inferMultiplexer(parsed);
  const da1Count = parsed.filter((r) => r.type === 'da1').length;
  const wrapped = multiplexer !== null && context.wrapped === true;
  const proven = (multiplexer === 'tmux' || wrapped) && passthroughProven(parsed, wrapped);
  // Absent when nothing was wrapped and nothing proved it; false only when wrapped queries went unanswered.
  const passthrough: boolean | undefined = wrapped
    ? proven
    : context.wrapped === undefined && proven
      ? true
      : undefined;

  // Who answered each reply: the one rule in attribution.ts (docs/probe.md, "Who answered what").
  const ownDa1 = parsed.findIndex((r) => r.type === 'da1');
  const mine: Reply[] = [];
  const theirs: Reply[] = [];
  parsed.forEach((reply, i) => {
    const place = { multiplexer, wrapped, afterOwnDa1: ownDa1 >= 0 && i > ownDa1, passthroughProven: proven };
    (partyOf(reply, place) === 'terminal' ? mine : theirs).push(reply);
  });

  let terminal: TerminalName | undefined;
  let mux: TerminalName | undefined;
  for (const r of parsed) {
    if (r.type !== 'xtversion') continue;
    const name: TerminalName = { name: r.name, version: r.version, reply: r.text };
    if (isMultiplexerName(r.name)) mux ??= name;
    else terminal ??= name;
  }
  if (!mux && multiplexer) {
    const da2 = parsed.find((r) => r.type === 'da2' && multiplexerOfDa2(r.terminalType) === multiplexer);
    if (da2 && da2.type === 'da2')
      mux = { name: multiplexer, version: muxVersion(multiplexer, da2.version), reply: da2.text };
  }

  const lastOf = <T extends Reply['type']>(
    list: readonly Reply[],
    type: T,
    ok: (r: Extract<Reply, { type: T }>) => boolean = () => true,
  ) => {
    for (let i = list.length - 1; i >= 0; i--) {
      const r = list[i];
      if (r.type === type && ok(r as Extract<Reply, { type: T }>)) return r as Extract<Reply, { type: T }>;
    }
    return undefined;
  };

  // The terminal's DA1: the outer terminal's when it answered, else the one that answered (tmux's, screen's).
  const da1 = lastOf(mine, 'da1') ?? lastOf(theirs, 'da1');
  const da2 = lastOf(mine, 'da2', (r) => multiplexerOfDa2(r.terminalType) === null || multiplexer === null);
  const kitty = lastOf(mine, 'kittyGraphics', (r) => r.id !== KITTY_LOCAL_ID);
  const local = lastOf(mine, 'kittyGraphics', (r) => r.id === KITTY_LOCAL_ID);
  const sync = lastOf(mine, 'decrqm', (r) => r.mode === 2026);
  // Colours: the terminal's own where it answered; else tmux's own answer (3.4+ answers OSC 11 with
  // the pane's style or its client's background: the background of the pane, which tmux's own
  // sixel is drawn on; docs/probe.md, "Who answered what"). Never screen's (it forwards OSC 11).
  const bg =
    lastOf(mine, 'background', (r) => r.rgb !== null) ??
    (wrapped && multiplexer !== 'tmux' ? undefined : lastOf(theirs, 'background', (r) => r.rgb !== null));
  const sixel = lastOf(mine, 'xtsmgraphics', (r) => r.item === 1 && r.status === 0 && r.values.length > 0);
  const cell = multiplexer === 'tmux' && passthrough !== true ? undefined : cellFrom(mine);

  return {
    replies: records,
    sentinel: context.sentinel ?? da1Count > 0,
    timedOut: context.timedOut ?? false,
    elapsedMs: context.elapsedMs ?? 0,
    ...(terminal ? { terminal } : {}),
    ...(mux ? { multiplexer: mux } : {}),
    ...(passthrough !== undefined ? { passthrough } : {}),
    ...(da1 ? { da1: { level: da1.level, attributes: da1.attributes, reply: da1.text } } : {}),
    ...(da2 ? { da2: { type: da2.terminalType, version: da2.version, rom: da2.rom, reply: da2.text } } : {}),
    ...(kitty ? { kittyGraphics: { ok: kitty.ok, reply: kitty.text } } : {}),
    ...(local ? { kittyLocal: { ok: local.ok, reply: local.text } } : {}),
    ...(sync ? { synchronizedOutput: { supported: syncSupported(sync.value), reply: sync.text } } : {}),
    ...(cell ? { cellPixels: cell } : {}),
    ...(bg?.rgb ? { background: { rgb: bg.rgb, dark: isDark(bg.rgb), reply: bg.text } } : {}),
    ...(sixel ? { sixelColors: { registers: sixel.values[0], reply: sixel.text } } : {}),
  };
}

function inferMultiplexer(parsed: readonly Reply[]): 'tmux' | 'screen' | null {
  for (const r of parsed) if (r.type === 'xtversion' && r.name.toLowerCase() === 'tmux') return 'tmux';
  for (const r of parsed)
    if (r.type === 'da2' && multiplexerOfDa2(r.terminalType)) return multiplexerOfDa2(r.terminalType);
  return null;
}

/** screen's DA2 version 40900 is 4.09.00; tmux 3.3a reports 0 (no version there). */
function muxVersion(multiplexer: 'tmux' | 'screen', version: number | null): string | null {
  if (multiplexer !== 'screen' || version === null || version <= 0) return null;
  const major = Math.floor(version / 10000);
  const minor = Math.floor(version / 100) % 100;
  const patch = version % 100;
  return `${major}.${String(minor).padStart(2, '0')}.${String(patch).padStart(2, '0')}`;
}

/** DECRQM values: 1 set, 2 reset (both: the terminal knows the mode), 3 permanently set; 0 unknown, 4 permanently reset. */
function syncSupported(value: number): boolean {
  return value === 1 || value === 2 || value === 3;
}

/** Cell size from `16 t`, else `14 t` / `18 t`; null when absent or outside CELL_PIXELS_RANGE. */
function cellFrom(replies: readonly Reply[]): { width: number; height: number; reply: string } | undefined {
  const ops = replies.filter((r): r is Extract<Reply, { type: 'windowOps' }> => r.type === 'windowOps');
  const cell = [...ops].reverse().find((r) => r.code === 6);
  if (cell && saneCell(cell.b, cell.a)) return { width: cell.b, height: cell.a, reply: cell.text };
  const px = [...ops].reverse().find((r) => r.code === 4);
  const cells = [...ops].reverse().find((r) => r.code === 8);
  if (px && cells && cells.a > 0 && cells.b > 0) {
    const width = Math.floor(px.b / cells.b);
    const height = Math.floor(px.a / cells.a);
    if (saneCell(width, height)) return { width, height, reply: `${px.text} ${cells.text}` };
  }
  return undefined;
}

function saneCell(width: number, height: number): boolean {
  const { min, max } = CELL_PIXELS_RANGE;
  return width >= min && width <= max && height >= min && height <= max;
}

/** Relative luminance (WCAG / sRGB) of an 8-bit colour, 0 (black) to 1 (white). */
export function relativeLuminance(rgb: readonly [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
}

/** Whether a background colour is dark (relative luminance below DARK_LUMINANCE). */
export function isDark(rgb: readonly [number, number, number]): boolean {
  return relativeLuminance(rgb) < DARK_LUMINANCE;
}

/**
 * Terminal names (XTVERSION, compared case-insensitively) that decide the protocol on their own:
 * a view of the terminal database (the rows whose name the report trusts for graphics, with their
 * best protocol). iTerm2 maps to its own protocol: it answers kitty's query, but its kitty images
 * are overlays it never deletes.
 */
export const DECISIVE_NAMES: ReadonlyArray<readonly [name: string, protocol: Protocol]> = decisiveNames();

/** A protocol decision with what decided it. */
export interface ProtocolDecision {
  readonly protocol: Protocol;
  /** `name`: the terminal's XTVERSION; `kitty-graphics`: an OK to the kitty query; `da1-sixel`: attribute 4. */
  readonly rule: 'name' | 'kitty-graphics' | 'da1-sixel';
  /** The reply that decided it, escaped. */
  readonly reply: string;
}

/**
 * The protocol the facts imply: the terminal's own name first, then a kitty graphics OK, then DA1
 * attribute 4 (sixel); null when none of them says anything. A multiplexer's name decides nothing.
 */
export function protocolFromFacts(facts: ProbeFacts): ProtocolDecision | null {
  if (facts.terminal) {
    const lower = facts.terminal.name.toLowerCase();
    const hit = DECISIVE_NAMES.find(([name]) => lower === name);
    if (hit) return { protocol: hit[1], rule: 'name', reply: facts.terminal.reply };
  }
  if (facts.kittyGraphics?.ok) return { protocol: 'kitty', rule: 'kitty-graphics', reply: facts.kittyGraphics.reply };
  if (facts.da1?.attributes.includes(4)) return { protocol: 'sixel', rule: 'da1-sixel', reply: facts.da1.reply };
  return null;
}

/**
 * The protocol a stream of replies implies, or null when it names nothing usable (the founding `from_probe`: XTVERSION names, then DA1's sixel flag).
 *
 * @example fromProbe('\x1bP>|kitty(0.32.2)\x1b\\\x1b[?62;22c') === 'kitty'
 * @example fromProbe('\x1b[?62;4;6c') === 'sixel'
 * @example fromProbe('\x1b[?62;22c') === null
 */
export function fromProbe(replies: string): Protocol | null {
  return protocolFromFacts(factsFromReplies(replies))?.protocol ?? null;
}

/**
 * Whether the replies contain the DA1 answer that ends the exchange (DA1 is the sentinel: every terminal answers it, and last).
 *
 * @example probeComplete('\x1b[?62;4c') === true
 * @example probeComplete('\x1bP>|kitty(0.32.2)\x1b\\') === false
 */
export function probeComplete(replies: string): boolean {
  return replyTokens(replies).some((t) => parseReply(t)?.type === 'da1');
}
