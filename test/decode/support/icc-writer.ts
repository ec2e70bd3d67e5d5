/**
 * A tiny ICC profile writer for the tests (ICC.1:2022: header, tag table, desc/mluc, XYZ, curv,
 * para, sf32): matrix/TRC RGB and grey TRC profiles, v2 or v4, made from primaries or colorants.
 * The profiles it writes are read by lcms (transicc) as the reference and by termsight's reader.
 */
import { type Chromaticities, colorantsOf } from '../../../src/decode/colour-space.js';
import type { Matrix3, Xyz } from '../../../src/decode/icc.js';

/** A tone curve as written: `curv` with one gamma, `curv` sampled, or `para` of a type. */
export type CurveSpec =
  | { readonly gamma: number }
  | { readonly table: readonly number[] }
  | { readonly para: 0 | 1 | 2 | 3 | 4; readonly params: readonly number[] };

export interface ProfileSpec {
  readonly description: string;
  readonly version: 2 | 4;
  /** RGB: from primaries (colorants computed as lcms does) or given D50 colorants (columns r, g, b). */
  readonly space?: Chromaticities;
  readonly colorants?: Matrix3;
  /** One curve for all three channels, or one each; for grey, the kTRC. */
  readonly curves: CurveSpec | readonly [CurveSpec, CurveSpec, CurveSpec];
  readonly grey?: boolean;
  readonly whitePoint?: Xyz;
  readonly chad?: Matrix3;
  /** Extra tags as raw bodies (e.g. an A2B0 to make a LUT-based profile). */
  readonly extra?: Readonly<Record<string, Uint8Array>>;
  /** No colorant and curve tags (only `extra`'s, e.g. an A2B0): a LUT-based profile. */
  readonly lutOnly?: boolean;
  /** The colour space signature to write instead (e.g. 'CMYK'). */
  readonly spaceSignature?: string;
}

const D50: Xyz = [0.9642, 1, 0.8249];

class Writer {
  readonly bytes: number[] = [];
  ascii(s: string): this {
    for (const c of s) this.bytes.push(c.charCodeAt(0) & 0xff);
    return this;
  }
  u8(v: number): this {
    this.bytes.push(v & 0xff);
    return this;
  }
  u16(v: number): this {
    return this.u8(v >> 8).u8(v);
  }
  u32(v: number): this {
    return this.u16((v >>> 16) & 0xffff).u16(v & 0xffff);
  }
  s15f16(v: number): this {
    return this.u32(Math.round(v * 65536) | 0);
  }
  zeros(n: number): this {
    for (let i = 0; i < n; i++) this.u8(0);
    return this;
  }
}

function xyzTag(v: Xyz): Uint8Array {
  const w = new Writer().ascii('XYZ ').u32(0);
  for (const c of v) w.s15f16(c);
  return Uint8Array.from(w.bytes);
}

function curveTag(c: CurveSpec): Uint8Array {
  if ('gamma' in c)
    return Uint8Array.from(
      new Writer()
        .ascii('curv')
        .u32(0)
        .u32(1)
        .u16(Math.round(c.gamma * 256)).bytes,
    );
  if ('table' in c) {
    const w = new Writer().ascii('curv').u32(0).u32(c.table.length);
    for (const v of c.table) w.u16(Math.round(Math.min(1, Math.max(0, v)) * 65535));
    return Uint8Array.from(w.bytes);
  }
  const w = new Writer().ascii('para').u32(0).u16(c.para).u16(0);
  for (const p of c.params) w.s15f16(p);
  return Uint8Array.from(w.bytes);
}

function descTag(text: string, version: 2 | 4): Uint8Array {
  if (version === 4) {
    const w = new Writer()
      .ascii('mluc')
      .u32(0)
      .u32(1)
      .u32(12)
      .ascii('en')
      .ascii('US')
      .u32(text.length * 2)
      .u32(28);
    for (const c of text) w.u16(c.charCodeAt(0));
    return Uint8Array.from(w.bytes);
  }
  const w = new Writer()
    .ascii('desc')
    .u32(0)
    .u32(text.length + 1)
    .ascii(text)
    .u8(0);
  w.u32(0).u32(0).u16(0).u8(0).zeros(67);
  return Uint8Array.from(w.bytes);
}

function sf32Tag(m: Matrix3): Uint8Array {
  const w = new Writer().ascii('sf32').u32(0);
  for (const v of m) w.s15f16(v);
  return Uint8Array.from(w.bytes);
}

/** The profile's bytes. */
export function writeProfile(spec: ProfileSpec): Uint8Array {
  const tags: [string, Uint8Array][] = [['desc', descTag(spec.description, spec.version)]];
  tags.push(['wtpt', xyzTag(spec.whitePoint ?? D50)]);
  if (spec.lutOnly) {
    // Only the extra tags.
  } else if (spec.grey) {
    tags.push(['kTRC', curveTag(spec.curves as CurveSpec)]);
  } else {
    const m = spec.colorants ?? colorantsOf(spec.space as Chromaticities);
    if (!m) throw new Error('no colorants');
    tags.push(
      ['rXYZ', xyzTag([m[0], m[3], m[6]])],
      ['gXYZ', xyzTag([m[1], m[4], m[7]])],
      ['bXYZ', xyzTag([m[2], m[5], m[8]])],
    );
    const curves = Array.isArray(spec.curves) ? spec.curves : [spec.curves, spec.curves, spec.curves];
    tags.push(['rTRC', curveTag(curves[0])], ['gTRC', curveTag(curves[1])], ['bTRC', curveTag(curves[2])]);
  }
  if (spec.chad) tags.push(['chad', sf32Tag(spec.chad)]);
  tags.push(['cprt', descTag('No copyright, use freely', spec.version).slice(0)]);
  for (const [name, body] of Object.entries(spec.extra ?? {})) tags.push([name, body]);
  const tableEnd = 128 + 4 + tags.length * 12;
  const offsets: number[] = [];
  let at = tableEnd;
  for (const [, body] of tags) {
    offsets.push(at);
    at += (body.length + 3) & ~3;
  }
  const size = at;
  const h = new Writer()
    .u32(size)
    .ascii('tsgt')
    .u32(spec.version === 4 ? 0x04300000 : 0x02100000)
    .ascii('mntr')
    .ascii(spec.spaceSignature ?? (spec.grey ? 'GRAY' : 'RGB '))
    .ascii('XYZ ');
  h.u16(2026).u16(12).u16(3).u16(0).u16(0).u16(0);
  h.ascii('acsp').ascii('APPL').u32(0).u32(0).u32(0).u32(0).u32(0).u32(0);
  for (const c of D50) h.s15f16(c);
  h.ascii('tsgt').zeros(16).zeros(28);
  if (h.bytes.length !== 128) throw new Error(`header is ${h.bytes.length} bytes`);
  h.u32(tags.length);
  for (let i = 0; i < tags.length; i++) {
    const [name, body] = tags[i] as [string, Uint8Array];
    h.ascii(name).u32(offsets[i] as number);
    h.u32(body.length);
  }
  for (const [, body] of tags) {
    for (const b of body) h.u8(b);
    h.zeros(((body.length + 3) & ~3) - body.length);
  }
  return Uint8Array.from(h.bytes);
}
