/**
 * A PNM's header (PBM, PGM, PPM: magic, width, height, maxval; PAM: its lines up to ENDHDR), read
 * without a sample, in a module of its own so that a PNM's size is checked before its decoder
 * loads, and no other format loads it (header.ts).
 */
import { DecodeError } from './error.js';
import { isPnm, isPnmSpace } from './sniff.js';

/** What a PNM's header says. */
export interface PnmHeader {
  /** 1..7, the digit after `P`. */
  readonly kind: number;
  readonly width: number;
  readonly height: number;
  /** Samples a pixel: 1 grey, 2 grey and alpha, 3 RGB, 4 RGB and alpha. */
  readonly depth: number;
  readonly maxval: number;
  /** Where the samples start. */
  readonly dataStart: number;
}

export const cut = (where: string): DecodeError =>
  new DecodeError('truncated', `truncated PNM: the file ends ${where}`);
export const corrupt = (why: string): DecodeError => new DecodeError('corrupt', `corrupt PNM: ${why}`);

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Reads unsigned decimal numbers and skips whitespace and `#` comments, from `at`. */
export class Numbers {
  constructor(
    private readonly b: Uint8Array,
    public at: number,
  ) {}

  skip(): void {
    const { b } = this;
    while (this.at < b.length) {
      const c = b[this.at] as number;
      if (c === 0x23) while (this.at < b.length && b[this.at] !== 0x0a && b[this.at] !== 0x0d) this.at++;
      else if (isPnmSpace(c)) this.at++;
      else return;
    }
  }

  /** The next number; at most `limit`, else corrupt (what it is named in the message). */
  next(what: string, limit: number): number {
    this.skip();
    const { b } = this;
    if (this.at >= b.length) throw cut(`before its ${what}`);
    if (!isDigit(b[this.at] as number)) throw corrupt(`its ${what} is not a number`);
    let value = 0;
    while (this.at < b.length && isDigit(b[this.at] as number)) {
      value = value * 10 + ((b[this.at] as number) - 0x30);
      if (value > limit) throw corrupt(`its ${what} is over ${limit}`);
      this.at++;
    }
    return value;
  }
}

/** Past this a side is too large anyway (the limits then refuse it by name); keeps the number exact. */
const MOST_SIDE = 0x7fffffff;

function readPamHeader(b: Uint8Array): PnmHeader {
  // Lines of `NAME value` until ENDHDR (netpbm's pam(5)); unknown names are skipped.
  let at = 3;
  const fields = new Map<string, string>();
  for (let lines = 0; ; lines++) {
    if (lines > 1000) throw corrupt('its PAM header has no ENDHDR in 1000 lines');
    let end = at;
    while (end < b.length && b[end] !== 0x0a) end++;
    if (end >= b.length) throw cut('inside its PAM header');
    const line = String.fromCharCode(...b.subarray(at, Math.min(end, at + 200))).trim();
    at = end + 1;
    if (line === 'ENDHDR') break;
    if (line === '' || line.startsWith('#')) continue;
    const [name = '', value = ''] = line.split(/\s+/, 2);
    fields.set(name, value);
  }
  const number = (name: string, limit: number): number => {
    const text = fields.get(name);
    if (text === undefined) throw corrupt(`its PAM header has no ${name}`);
    if (!/^\d{1,10}$/.test(text) || Number(text) > limit)
      throw corrupt(`its PAM ${name} is ${JSON.stringify(text.slice(0, 12))}`);
    return Number(text);
  };
  const width = number('WIDTH', MOST_SIDE);
  const height = number('HEIGHT', MOST_SIDE);
  const depth = number('DEPTH', 4);
  const maxval = number('MAXVAL', 65535);
  if (depth < 1) throw corrupt('its PAM DEPTH is 0');
  if (maxval < 1) throw corrupt('its maxval is 0');
  return { kind: 7, width, height, depth, maxval, dataStart: at };
}

/** A PNM's header, checked; throws `DecodeError` when it is cut short or malformed. */
export function readPnmHeader(b: Uint8Array): PnmHeader {
  if (!isPnm(b)) throw cut('inside its magic number');
  const kind = (b[1] as number) - 0x30;
  if (kind === 7) return readPamHeader(b);
  const numbers = new Numbers(b, 2);
  const width = numbers.next('width', MOST_SIDE);
  const height = numbers.next('height', MOST_SIDE);
  const bitmap = kind === 1 || kind === 4;
  const maxval = bitmap ? 1 : numbers.next('maxval', 65535);
  if (maxval < 1) throw corrupt('its maxval is 0');
  // Binary samples start after exactly one whitespace byte; text ones wherever the next number is.
  if (kind >= 4) {
    if (numbers.at >= b.length) throw cut('inside its header');
    if (!isPnmSpace(b[numbers.at] as number)) throw corrupt('no whitespace after its header');
    numbers.at++;
  }
  const depth = kind === 3 || kind === 6 ? 3 : 1;
  return { kind, width, height, depth, maxval, dataStart: numbers.at };
}
