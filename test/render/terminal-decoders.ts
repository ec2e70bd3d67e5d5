// Test helpers: read back what the renderers wrote, independently of the encoders.
import { inflateSync } from 'node:zlib';
import { decode as decodePng } from 'fast-png';
import type { Raster } from '../../src/core/raster.js';

/** A deterministic pseudo-random raster. */
export function randomRaster(width: number, height: number, seed: number, opaque = false): Raster {
  let s = seed >>> 0 || 1;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i++) {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    data[i] = opaque && i % 4 === 3 ? 255 : s & 255;
  }
  return { width, height, data };
}

export function solid(width: number, height: number, rgba: readonly number[]): Raster {
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set(rgba, i);
  return { width, height, data };
}

export interface Apc {
  keys: Map<string, string>;
  keyOrder: string[];
  payload: string;
  raw: string;
}

/** Every kitty APC (`ESC _G keys ; payload ESC \`) in the text, in order. */
export function parseKittyApcs(text: string): Apc[] {
  const out: Apc[] = [];
  const re = /\x1b_G([^;\x1b]*)(?:;([^\x1b]*))?\x1b\\/g;
  for (const m of text.matchAll(re)) {
    const keys = new Map<string, string>();
    const keyOrder: string[] = [];
    for (const kv of m[1].split(',')) {
      const [k, v] = kv.split('=');
      keys.set(k, v);
      keyOrder.push(k);
    }
    out.push({ keys, keyOrder, payload: m[2] ?? '', raw: m[0] });
  }
  return out;
}

/** Checks the chunking rules and decodes a kitty transmission back to RGBA pixels. */
export function decodeKittyTransmission(apcs: Apc[]): {
  keys: Map<string, string>;
  raster: Raster;
  compressed: boolean;
  format: number;
} {
  if (apcs.length === 0) throw new Error('no APC');
  for (let i = 0; i < apcs.length; i++) {
    const a = apcs[i];
    const last = i === apcs.length - 1;
    if (a.payload.length > 4096) throw new Error(`chunk ${i} has ${a.payload.length} bytes`);
    if (!last && a.payload.length % 4 !== 0) throw new Error(`chunk ${i} not a multiple of 4`);
    if (apcs.length > 1 && a.keys.get('m') !== (last ? '0' : '1')) throw new Error(`chunk ${i} m=${a.keys.get('m')}`);
    if (a.keys.get('q') !== '2') throw new Error(`chunk ${i} without q=2`);
    if (i > 0 && [...a.keys.keys()].sort().join(',') !== 'm,q')
      throw new Error(`continuation chunk ${i} has keys ${a.keyOrder}`);
  }
  const keys = apcs[0].keys;
  const b64 = apcs.map((a) => a.payload).join('');
  let bytes: Uint8Array = Buffer.from(b64, 'base64');
  const compressed = keys.get('o') === 'z';
  if (compressed) bytes = inflateSync(bytes);
  const width = Number(keys.get('s'));
  const height = Number(keys.get('v'));
  const format = Number(keys.get('f'));
  const data = new Uint8Array(width * height * 4);
  if (format === 32) data.set(bytes.subarray(0, width * height * 4));
  else
    for (let i = 0; i < width * height; i++) data.set([bytes[i * 3], bytes[i * 3 + 1], bytes[i * 3 + 2], 255], i * 4);
  if (bytes.length !== width * height * (format / 8))
    throw new Error(`payload ${bytes.length} bytes for ${width}x${height} f=${format}`);
  return { keys, raster: { width, height, data }, compressed, format };
}

/** Decodes a PNG with fast-png to RGBA. */
export function pngToRaster(png: Uint8Array): Raster & { channels: number } {
  const d = decodePng(png);
  const n = d.width * d.height;
  const src = d.data as Uint8Array;
  const data = new Uint8Array(n * 4);
  if (d.channels === 4) data.set(src);
  else for (let i = 0; i < n; i++) data.set([src[i * 3], src[i * 3 + 1], src[i * 3 + 2], 255], i * 4);
  return { width: d.width, height: d.height, data, channels: d.channels };
}

export interface Osc1337 {
  kind: string;
  args: Map<string, string>;
  payload: string;
}

/** Every OSC 1337 (`ESC ] 1337 ; kind=args : payload BEL`) in the text. */
export function parseIterm2(text: string): Osc1337[] {
  const out: Osc1337[] = [];
  const re = /\x1b\]1337;([A-Za-z]+)(?:=([^:\x07]*))?(?::([^\x07]*))?\x07/g;
  for (const m of text.matchAll(re)) {
    const args = new Map<string, string>();
    const kind = m[1];
    if (kind === 'FilePart') out.push({ kind, args, payload: m[2] ?? '' });
    else {
      for (const kv of (m[2] ?? '').split(';').filter(Boolean)) {
        const [k, v] = kv.split('=');
        args.set(k, v);
      }
      out.push({ kind, args, payload: m[3] ?? '' });
    }
  }
  return out;
}

/** What GNU screen forwards for a string of `ESC P … ESC \` packets (its ESC handling inside a DCS). */
export function screenForward(text: string): { forwarded: string; packets: string[] } {
  let forwarded = '';
  const packets: string[] = [];
  let i = 0;
  while (i < text.length) {
    if (text[i] !== '\x1b' || text[i + 1] !== 'P') throw new Error(`packet does not start with ESC P at ${i}`);
    const start = i;
    i += 2;
    let body = '';
    for (;;) {
      if (i >= text.length) throw new Error('unterminated packet');
      const c = text[i];
      if (c === '\x1b') {
        // ESC then: '\' ends the string; ESC keeps one ESC and stays escaped; anything else keeps both.
        let j = i + 1;
        while (text[j] === '\x1b') {
          body += '\x1b';
          j++;
        }
        if (text[j] === '\\') {
          i = j + 1;
          break;
        }
        body += `\x1b${text[j]}`;
        i = j + 1;
        continue;
      }
      body += c;
      i++;
    }
    packets.push(text.slice(start, i));
    forwarded += body;
  }
  return { forwarded, packets };
}
