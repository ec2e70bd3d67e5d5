/**
 * Whose reply is this: the terminal answers every query on one input stream, so a reply is matched
 * to its question by its shape. A query and the replies it gets share an *answer key* (`osc:11`,
 * `t:6`, `da1`, …); termsight's own queries have the keys in `OWN_KEYS`, an application's asks
 * (`ProbeOptions.asks`, `askTerminal`) theirs, and a reply whose key nobody in the round asked is
 * someone else's (an application that wrote its own query): it goes on to the application as
 * input, unchanged and in order, as it would have without termsight. Pure. See docs/probe.md,
 * "Sharing the terminal".
 */
import type { ReplyToken } from './scanner.js';

/** The key shared by a query and its reply (e.g. `osc:11`, `t:6`, `decrqm:?2026`, `apc:31`). */
export type AnswerKey = string;

/**
 * The keys of the replies to termsight's own queries (every round: the batch, tmux's second round,
 * the guarded round, the local-transfer query). A reply with one of these keys is termsight's unless
 * an application's ask with the same key is waiting for it (see `routeReply`).
 */
export const OWN_KEYS: ReadonlySet<AnswerKey> = new Set([
  'da1',
  'da2',
  'xtversion',
  'apc:31',
  'apc:32',
  't:4',
  't:6',
  't:8',
  'decrqm:?2026',
  'xtsmgraphics:1',
  'osc:11',
]);

const ESC = 0x1b;

function latin1(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) out += String.fromCharCode(bytes[i]);
  return out;
}

/** A string sequence's body (after `ESC x`, before ST or BEL), or null when it is not one. */
function stringBody(text: string): string | null {
  if (text.endsWith('\x1b\\')) return text.slice(2, -2);
  if (text.endsWith('\x07')) return text.slice(2, -1);
  return null;
}

/** The rows of queries an application may ask: its pattern (the text after `ESC [`), and the key of its answer. */
const CSI_QUERIES: readonly { readonly pattern: RegExp; readonly key: (m: RegExpExecArray) => AnswerKey }[] = [
  // DA1, DA2, DA3.
  { pattern: /^0?c$/, key: () => 'da1' },
  { pattern: /^>0?c$/, key: () => 'da2' },
  { pattern: /^=0?c$/, key: () => 'da3' },
  // XTVERSION.
  { pattern: /^>0?q$/, key: () => 'xtversion' },
  // XTWINOPS reports: 13 position, 14 text area px, 15 screen px, 16 cell px, 18 cells, 19 screen cells.
  { pattern: /^(1[345689])t$/, key: (m) => `t:${Number(m[1]) - 10}` },
  // DECRQM, private and ANSI modes.
  { pattern: /^(\??)(\d+)\$p$/, key: (m) => `decrqm:${m[1]}${Number(m[2])}` },
  // XTSMGRAPHICS: the item.
  { pattern: /^\?(\d+);\d+(?:;\d+)*S$/, key: (m) => `xtsmgraphics:${Number(m[1])}` },
  // kitty keyboard flags.
  { pattern: /^\?u$/, key: () => 'kittyKeyboard' },
  // DSR: operating status (5 -> `CSI 0 n`), colour scheme (?996 -> `CSI ? 997 ; n n`), DECXCPR (?6 -> `CSI ? r ; c R`).
  { pattern: /^5n$/, key: () => 'dsr:5' },
  { pattern: /^\?996n$/, key: () => 'dsr:?996' },
  { pattern: /^\?6n$/, key: () => 'decxcpr' },
];

/**
 * The answer key of one query an application may send, or null when termsight cannot route its
 * reply: the query is not one whose reply has a shape of its own. Plain `CSI 6 n` (cursor position)
 * is such a query: its reply `CSI row ; col R` is also what Shift+F3 sends (`CSI 1 ; 2 R`); ask
 * DECXCPR `CSI ? 6 n` instead.
 *
 * @example queryKey('\x1b]11;?\x1b\\') // 'osc:11'
 */
export function queryKey(query: Uint8Array | string): AnswerKey | null {
  const text = typeof query === 'string' ? query : latin1(query);
  if (text.length < 3 || text.charCodeAt(0) !== ESC) return null;
  const intro = text[1];
  if (intro === '[') {
    const rest = text.slice(2);
    for (const row of CSI_QUERIES) {
      const m = row.pattern.exec(rest);
      if (m) return row.key(m);
    }
    return null;
  }
  const body = stringBody(text);
  if (body === null) return null;
  if (intro === ']') {
    const palette = /^4;(\d+);\?$/.exec(body);
    if (palette) return `osc:4:${Number(palette[1])}`;
    const dynamic = /^(1\d);\?$/.exec(body);
    return dynamic ? `osc:${Number(dynamic[1])}` : null;
  }
  if (intro === '_') {
    const id = /^G(?:[^;]*,)?i=(\d+)(?:[,;]|$)/.exec(body);
    return id && /(?:^G|,)a=q(?:[,;]|$)/.test(body) ? `apc:${Number(id[1])}` : null;
  }
  if (intro === 'P') {
    if (body.startsWith('+q')) return 'xtgettcap';
    if (body.startsWith('$q')) return 'decrqss';
  }
  return null;
}

/**
 * The answer key of one reply token, or null when its shape names no question (then it is
 * nobody's in the round: passed on).
 *
 * @example replyKey({ type: 'reply', kind: 'csi', bytes: toBytes('\x1b[6;20;10t') }) // 't:6'
 */
export function replyKey(token: Pick<ReplyToken, 'kind' | 'bytes'>): AnswerKey | null {
  const text = latin1(token.bytes);
  if (token.kind === 'csi') {
    const m = /^\x1b\[([<=>?]?)([\d;:]*)(\$?)([\x40-\x7e])$/.exec(text);
    if (!m) return null;
    const [, marker, params, dollar, final] = m;
    const first = Number(params.split(';')[0] || '0');
    switch (final) {
      case 'c':
        return marker === '?' ? 'da1' : marker === '>' ? 'da2' : null;
      case 't':
        return marker === '' ? `t:${first}` : null;
      case 'y':
        return dollar === '$' ? `decrqm:${marker}${first}` : null;
      case 'S':
        return marker === '?' ? `xtsmgraphics:${first}` : null;
      case 'u':
        return marker === '?' ? 'kittyKeyboard' : null;
      case 'n':
        return marker === '?' ? (first === 997 ? 'dsr:?996' : null) : marker === '' ? 'dsr:5' : null;
      case 'R':
        return marker === '?' ? 'decxcpr' : null;
      default:
        return null;
    }
  }
  const body = stringBody(text);
  if (body === null) return null;
  if (token.kind === 'osc') {
    const m = /^(\d+);(?:(\d+);)?/.exec(body);
    if (!m) return null;
    return m[1] === '4' && m[2] !== undefined ? `osc:4:${Number(m[2])}` : `osc:${Number(m[1])}`;
  }
  if (token.kind === 'apc') {
    const id = /^G(?:[^;]*,)?i=(\d+)(?:[,;]|$)/.exec(body);
    return id ? `apc:${Number(id[1])}` : null;
  }
  if (body.startsWith('>|')) return 'xtversion';
  if (body.startsWith('1+r') || body.startsWith('0+r')) return 'xtgettcap';
  if (body.startsWith('1$r') || body.startsWith('0$r')) return 'decrqss';
  if (body.startsWith('!|')) return 'da3';
  return null;
}

/**
 * Splits written bytes into their escape sequences (CSI, and DCS/OSC/APC strings up to ST or BEL);
 * what is not one is left out. Used to read the keys of the queries a batch carries.
 */
export function splitQueries(bytes: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  let i = 0;
  while (i < bytes.length) {
    if (bytes[i] !== ESC || i + 1 >= bytes.length) {
      i++;
      continue;
    }
    const intro = bytes[i + 1];
    let j = i + 2;
    if (intro === 0x5b) {
      while (j < bytes.length && !(bytes[j] >= 0x40 && bytes[j] <= 0x7e)) j++;
      j += 1;
    } else if (intro === 0x50 || intro === 0x5d || intro === 0x5f) {
      // A string: ends at ST (a doubled ESC, as tmux's wrapper has inside, is not one) or BEL.
      while (j < bytes.length) {
        if (bytes[j] === 0x07) {
          j += 1;
          break;
        }
        if (bytes[j] === ESC && bytes[j + 1] === ESC) {
          j += 2;
          continue;
        }
        if (bytes[j] === ESC && bytes[j + 1] === 0x5c) {
          j += 2;
          break;
        }
        j++;
      }
    } else {
      i += 2;
      continue;
    }
    out.push(bytes.subarray(i, Math.min(j, bytes.length)));
    i = j;
  }
  return out;
}

/** The answer keys of the queries a batch writes straight to the terminal (wrapped ones have none: they are tmux's or screen's DCS). */
export function batchKeys(bytes: Uint8Array): AnswerKey[] {
  const keys: AnswerKey[] = [];
  for (const sequence of splitQueries(bytes)) {
    const key = queryKey(sequence);
    if (key !== null) keys.push(key);
  }
  return keys;
}

/** An application's ask in a round: its index among the round's asks and the key of the answer it waits for. */
export interface PendingAsk {
  readonly ask: number;
  readonly key: AnswerKey;
}

/** Where one reply goes: to an ask (and whether termsight keeps it too), to termsight, or on to the application. */
export type Route =
  | { readonly to: 'ask'; readonly ask: number; readonly own: boolean }
  | { readonly to: 'own' }
  | { readonly to: 'application' };

/**
 * The routing rule, one reply at a time. An ask waiting for this key gets it (the first in the
 * order written: terminals answer in order); an ask that shares termsight's own question (the same
 * key, which then was not written twice) gets a copy and termsight keeps it; a reply with one of
 * termsight's keys is termsight's; any other reply is nobody's in this round and goes on to the
 * application as input. `pending` holds the asks still waiting, in the order written; `shared`
 * those answered by a copy of termsight's reply.
 *
 * @example routeReply('osc:11', [{ ask: 0, key: 'osc:11' }], [], OWN_KEYS) // { to: 'ask', ask: 0, own: false }
 */
export function routeReply(
  key: AnswerKey | null,
  pending: readonly PendingAsk[],
  shared: readonly PendingAsk[],
  own: ReadonlySet<AnswerKey>,
): Route {
  if (key === null) return { to: 'application' };
  const asShared = shared.find((p) => p.key === key);
  if (asShared) return { to: 'ask', ask: asShared.ask, own: true };
  const waiting = pending.find((p) => p.key === key);
  if (waiting) return { to: 'ask', ask: waiting.ask, own: false };
  return own.has(key) ? { to: 'own' } : { to: 'application' };
}
