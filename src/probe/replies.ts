/**
 * One reply, decoded: what a single answer from the terminal says, as a typed value. Pure; works on
 * the scanner's reply tokens (or on raw bytes of one sequence).
 */
import { decodeLoose, escapeBytes } from '../core/escape.js';
import { splitNameVersion } from '../core/name-version.js';
import type { ReplyKind } from './scanner.js';

/** A decoded reply. `text` is the whole reply escaped for display (`\e[?62;c`). */
export type Reply =
  /** XTVERSION (`DCS > | name ST`): `kitty(0.26.5)` → name kitty, version 0.26.5; `tmux 3.3a` → tmux, 3.3a. */
  | { readonly type: 'xtversion'; readonly name: string; readonly version: string | null; readonly text: string }
  /** DA1 (`CSI ? level ; attr ; … c`): the first parameter is the conformance level, the rest attributes. */
  | { readonly type: 'da1'; readonly level: number; readonly attributes: readonly number[]; readonly text: string }
  /** DA2 (`CSI > type ; version ; rom c`). */
  | {
      readonly type: 'da2';
      readonly terminalType: number;
      readonly version: number | null;
      readonly rom: number | null;
      readonly text: string;
    }
  /** The kitty graphics protocol's answer (`APC G i=31;OK ST`). */
  | {
      readonly type: 'kittyGraphics';
      readonly id: number | null;
      readonly ok: boolean;
      readonly message: string;
      readonly text: string;
    }
  /** DECRQM (`CSI ? mode ; value $ y`): 0 unknown mode, 1 set, 2 reset, 3 permanently set, 4 permanently reset. */
  | { readonly type: 'decrqm'; readonly mode: number; readonly value: number; readonly text: string }
  /** XTWINOPS reports (`CSI code ; a ; b t`): 4 window px (h;w), 6 cell px (h;w), 8 text cells (rows;cols). */
  | { readonly type: 'windowOps'; readonly code: number; readonly a: number; readonly b: number; readonly text: string }
  /** The background colour (`OSC 11 ; rgb:… ST`); `rgb` null when unparsable. */
  | {
      readonly type: 'background';
      readonly rgb: readonly [number, number, number] | null;
      readonly value: string;
      readonly text: string;
    }
  /** XTSMGRAPHICS (`CSI ? item ; status ; values… S`): status 0 success; item 1 colour registers, 2 sixel geometry. */
  | {
      readonly type: 'xtsmgraphics';
      readonly item: number;
      readonly status: number;
      readonly values: readonly number[];
      readonly text: string;
    };

/** Something `parseReply` takes: a scanner reply token, or the bytes of one whole sequence. */
export type ReplyInput = { readonly kind?: ReplyKind; readonly bytes: Uint8Array } | Uint8Array | string;

const ESC = 0x1b;

/**
 * Decodes one reply, or returns null when it is not a well-formed answer termsight understands.
 *
 * @example parseReply('\x1b[?62;4;22c') // { type: 'da1', level: 62, attributes: [4, 22], … }
 */
export function parseReply(input: ReplyInput): Reply | null {
  const raw = typeof input === 'string' ? input : latin1(input instanceof Uint8Array ? input : input.bytes);
  const text = escapeBytes(typeof input === 'string' ? input : input instanceof Uint8Array ? input : input.bytes);
  if (raw.length < 3 || raw.charCodeAt(0) !== ESC) return null;
  const intro = raw[1];
  if (intro === '[') return parseCsi(raw.slice(2), text);
  const body = stringBody(raw);
  if (body === null) return null;
  if (intro === 'P') return parseDcs(body, text, typeof input !== 'string');
  if (intro === '_') return parseApc(body, text);
  if (intro === ']') return parseOsc(body, text);
  return null;
}

/** Bytes as a string of one char per byte, so byte offsets and string offsets agree. */
function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

/** The content of a string sequence between its introducer and its terminator (ST or BEL). */
function stringBody(raw: string): string | null {
  if (raw.endsWith('\x1b\\')) return raw.slice(2, -2);
  if (raw.endsWith('\x07')) return raw.slice(2, -1);
  return null;
}

/** Parameters `1;2;;4` as numbers; empty parameters are left out; null when one is not a number. */
function numbers(params: string): number[] | null {
  const out: number[] = [];
  for (const part of params.split(';')) {
    if (part === '') continue;
    if (!/^\d{1,9}$/.test(part)) return null;
    out.push(Number(part));
  }
  return out;
}

function parseCsi(rest: string, text: string): Reply | null {
  const match = /^([<=>?]?)([0-9;:]*)([ -/]*)([@-~])$/.exec(rest);
  if (!match) return null;
  const [, marker, params, intermediates, final] = match;
  const values = numbers(params.replace(/:[0-9:]*/g, ''));
  if (values === null) return null;
  if (final === 'c' && intermediates === '') {
    if (marker === '?') {
      if (values.length === 0) return null;
      return { type: 'da1', level: values[0], attributes: values.slice(1), text };
    }
    if (marker === '>') {
      if (values.length === 0) return null;
      return { type: 'da2', terminalType: values[0], version: values[1] ?? null, rom: values[2] ?? null, text };
    }
    return null;
  }
  if (final === 't' && marker === '' && intermediates === '') {
    const parts = params.split(';');
    if (parts.length !== 3 || parts.some((p) => !/^\d{1,9}$/.test(p))) return null;
    return { type: 'windowOps', code: Number(parts[0]), a: Number(parts[1]), b: Number(parts[2]), text };
  }
  if (final === 'y' && intermediates === '$' && marker === '?') {
    if (values.length !== 2) return null;
    return { type: 'decrqm', mode: values[0], value: values[1], text };
  }
  if (final === 'S' && marker === '?' && intermediates === '') {
    if (values.length < 2) return null;
    return { type: 'xtsmgraphics', item: values[0], status: values[1], values: values.slice(2), text };
  }
  return null;
}

function parseDcs(body: string, text: string, fromBytes: boolean): Reply | null {
  if (body.startsWith('>|')) {
    // The terminal's name is text: from bytes, UTF-8 where valid (an invalid byte is kept, to be
    // shown escaped), not one char per byte, so it reads as `text` does.
    const reported = fromBytes ? decodeLoose(Uint8Array.from(body.slice(2), (c) => c.charCodeAt(0))) : body.slice(2);
    const { name, version } = splitNameVersion(reported);
    if (name === '') return null;
    return { type: 'xtversion', name, version, text };
  }
  return null;
}

function parseApc(body: string, text: string): Reply | null {
  if (!body.startsWith('G')) return null;
  const semi = body.indexOf(';');
  const keys = semi < 0 ? body.slice(1) : body.slice(1, semi);
  const message = semi < 0 ? '' : body.slice(semi + 1);
  let id: number | null = null;
  for (const pair of keys.split(',')) {
    const [key, value] = pair.split('=');
    if (key === 'i' && value !== undefined && /^\d+$/.test(value)) id = Number(value);
  }
  return { type: 'kittyGraphics', id, ok: message === 'OK', message, text };
}

function parseOsc(body: string, text: string): Reply | null {
  // Only the background colour is asked for (OSC 11); other OSC replies are not decoded.
  const match = /^11;(.*)$/s.exec(body);
  if (!match) return null;
  return { type: 'background', rgb: parseColor(match[1]), value: match[1], text };
}

/**
 * An X11 colour spec as 8-bit RGB: `rgb:R/G/B` with 1–4 hex digits a channel (each scaled from its
 * own width: `f` and `ffff` are both 255), `rgba:R/G/B/A` (alpha ignored), or `#RGB`/`#RRGGBB`.
 */
export function parseColor(spec: string): [number, number, number] | null {
  const rgb = /^rgba?:([0-9a-fA-F]{1,4})\/([0-9a-fA-F]{1,4})\/([0-9a-fA-F]{1,4})(?:\/[0-9a-fA-F]{1,4})?$/.exec(
    spec.trim(),
  );
  if (rgb) {
    if (spec.startsWith('rgb:') && rgb[0].split('/').length !== 3) return null;
    return [channel(rgb[1]), channel(rgb[2]), channel(rgb[3])];
  }
  const hash = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.exec(spec.trim());
  if (hash) {
    const h = hash[1];
    const w = h.length / 3;
    return [channel(h.slice(0, w)), channel(h.slice(w, 2 * w)), channel(h.slice(2 * w))];
  }
  return null;
}

function channel(hex: string): number {
  const max = 16 ** hex.length - 1;
  return Math.round((parseInt(hex, 16) / max) * 255);
}

export { splitNameVersion };
