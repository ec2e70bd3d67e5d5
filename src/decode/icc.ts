/**
 * Reading an ICC profile (ICC.1:2022; v2 and v4): the header, the tag table, and the tags a
 * matrix/TRC or grey profile is made of. Bounded: the declared size is checked against the bytes,
 * every tag's offset and size against the profile, the tag count against what the table can hold
 * (and `MAX_TAGS`), curve tables against their tag; nothing is allocated from a number before that.
 * It never throws: a profile it cannot use gives a reason (`IccReading`), and the picture is then
 * drawn as sRGB. See docs/decode.md, "Colour".
 */
import { ascii, u16be, u32be } from '../core/bytes.js';
import { PARAMETRIC_COUNTS, type ToneCurve } from './icc-curve.js';

/** A 3x3 matrix, row-major. */
export type Matrix3 = readonly [number, number, number, number, number, number, number, number, number];

/** A CIE XYZ triple. */
export type Xyz = readonly [number, number, number];

/** What a profile converts, in the forms termsight converts. */
export type IccProfile =
  | {
      readonly kind: 'matrix-trc';
      readonly description: string;
      /** Columns: rXYZ, gXYZ, bXYZ (PCS XYZ, D50-adapted as ICC requires). */
      readonly colorants: Matrix3;
      readonly curves: readonly [ToneCurve, ToneCurve, ToneCurve];
      /** The media white point (wtpt), when present. */
      readonly whitePoint: Xyz | null;
      /** The chromatic adaptation the profile declares (chad), when present. */
      readonly adaptation: Matrix3 | null;
    }
  | {
      readonly kind: 'grey';
      readonly description: string;
      readonly curve: ToneCurve;
      /** 'Lab': the curve gives L* / 100 (a Lab connection space), not the luminance Y. */
      readonly pcs: 'XYZ' | 'Lab';
    };

/** The outcome of reading a profile: one termsight converts, or why not (one line). */
export type IccReading =
  | { readonly ok: true; readonly profile: IccProfile }
  | { readonly ok: false; readonly description: string; readonly why: string };

/** More tags than any real profile has (printer profiles have a few dozen). */
export const MAX_TAGS = 256;

/** The largest profile read: beyond any real one (large printer profiles are a few MB). */
export const MAX_PROFILE_BYTES = 16 << 20;

/** The largest sampled curve (`curv` entries); real ones have up to 4096. */
const MAX_CURVE_POINTS = 65536;

interface Tag {
  readonly offset: number;
  readonly size: number;
}

class Unusable extends Error {}

function unusable(why: string): never {
  throw new Unusable(why);
}

/** A signed 15.16 fixed-point number. */
function s15f16(bytes: Uint8Array, at: number): number {
  return (u32be(bytes, at) | 0) / 65536;
}

/**
 * Reads an ICC profile. The result is a profile termsight converts (matrix/TRC RGB, grey TRC) or
 * the reason it is not used: malformed (a size, an offset or a tag out of bounds), or a form it
 * does not convert (LUT-based, CMYK, Lab, …).
 *
 * @example readIccProfile(bytes) // { ok: true, profile: { kind: 'matrix-trc', description: 'Display P3', … } }
 */
export function readIccProfile(bytes: Uint8Array): IccReading {
  let description = '';
  try {
    if (bytes.length < 132) unusable(`the profile is ${bytes.length} bytes, shorter than its header`);
    const size = u32be(bytes, 0);
    if (size > bytes.length) unusable(`the profile declares ${size} bytes but holds ${bytes.length}`);
    if (size < 132) unusable(`the profile declares a size of ${size} bytes`);
    if (size > MAX_PROFILE_BYTES) unusable(`the profile is ${size} bytes, over the ${MAX_PROFILE_BYTES} read`);
    if (ascii(bytes, 36, 40) !== 'acsp') unusable('the profile has no acsp signature');
    const profile = bytes.subarray(0, size);
    const tags = readTagTable(profile);
    description = tags.has('desc') ? readDescription(profile, tags.get('desc')) : '';
    const space = ascii(profile, 16, 20);
    const pcs = ascii(profile, 20, 24);
    const deviceClass = ascii(profile, 12, 16);
    if (deviceClass === 'link' || deviceClass === 'abst' || deviceClass === 'nmcl')
      unusable(`${CLASS_NAMES[deviceClass]} profile, not one that describes a picture`);
    if (pcs !== 'XYZ ' && pcs !== 'Lab ') unusable(`a profile whose connection space is ${printable(pcs)}`);
    if (space === 'RGB ') {
      const names = ['rXYZ', 'gXYZ', 'bXYZ', 'rTRC', 'gTRC', 'bTRC'];
      if (names.every((n) => tags.has(n))) {
        if (pcs !== 'XYZ ') unusable('a matrix/TRC profile with a Lab connection space');
        const [r, g, b] = (['rXYZ', 'gXYZ', 'bXYZ'] as const).map((n) => readXyz(profile, tags.get(n) as Tag, n)) as [
          Xyz,
          Xyz,
          Xyz,
        ];
        const curves = (['rTRC', 'gTRC', 'bTRC'] as const).map((n) => readCurve(profile, tags.get(n) as Tag, n)) as [
          ToneCurve,
          ToneCurve,
          ToneCurve,
        ];
        const white = tags.get('wtpt');
        const chad = tags.get('chad');
        return {
          ok: true,
          profile: {
            kind: 'matrix-trc',
            description,
            colorants: [r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]],
            curves,
            whitePoint: white ? readXyz(profile, white, 'wtpt') : null,
            adaptation: chad ? readAdaptation(profile, chad) : null,
          },
        };
      }
      if (tags.has('A2B0') || tags.has('A2B1')) unusable('a LUT-based RGB profile (A2B0), which is not converted');
      unusable('an RGB profile without its colorant and curve tags');
    }
    if (space === 'GRAY') {
      const k = tags.get('kTRC');
      if (!k) unusable('a grey profile without a kTRC curve');
      const curve = readCurve(profile, k, 'kTRC');
      return { ok: true, profile: { kind: 'grey', description, curve, pcs: pcs === 'Lab ' ? 'Lab' : 'XYZ' } };
    }
    const names: Record<string, string> = { CMYK: 'CMYK', 'Lab ': 'Lab', YCbr: 'YCbCr', 'XYZ ': 'XYZ' };
    unusable(`${names[space] ? `a ${names[space]}` : `an ${printable(space)}`} profile, which is not converted`);
  } catch (error) {
    if (error instanceof Unusable) return { ok: false, description, why: error.message };
    throw error;
  }
}

/**
 * The tag table: each signature's offset and size. An entry outside the profile is kept as
 * `null`: it is an error only when that tag is read (as lcms reads tags when asked).
 */
function readTagTable(profile: Uint8Array): TagTable {
  const count = u32be(profile, 128);
  if (count > MAX_TAGS) unusable(`the profile declares ${count} tags (at most ${MAX_TAGS} read)`);
  if (132 + count * 12 > profile.length) unusable(`the profile's ${count} tag entries do not fit in it`);
  const entries = new Map<string, Tag | null>();
  for (let i = 0; i < count; i++) {
    const at = 132 + i * 12;
    const name = ascii(profile, at, at + 4);
    const offset = u32be(profile, at + 4);
    const size = u32be(profile, at + 8);
    const inside = offset >= 128 && size >= 8 && offset + size <= profile.length;
    if (!entries.has(name)) entries.set(name, inside ? { offset, size } : null);
  }
  return {
    has: (name) => entries.has(name),
    get: (name) => {
      const tag = entries.get(name);
      if (tag === null) unusable(`its ${printable(name)} tag lies outside the profile`);
      return tag;
    },
  };
}

/** A profile's tags by signature; `get` of an entry that lies outside the profile throws its reason. */
interface TagTable {
  has(name: string): boolean;
  get(name: string): Tag | undefined;
}

/** The device classes that describe no picture. */
const CLASS_NAMES: Readonly<Record<string, string>> = {
  link: 'a device link',
  abst: 'an abstract',
  nmcl: 'a named colour',
};

/** A signature safe to print (it comes from the file): quoted when it is letters, digits and spaces. */
function printable(name: string): string {
  return /^[A-Za-z0-9 ]{4}$/.test(name) ? `'${name.trim()}'` : 'unreadable';
}

function typeOf(profile: Uint8Array, tag: Tag): string {
  return ascii(profile, tag.offset, tag.offset + 4);
}

function readXyz(profile: Uint8Array, tag: Tag, name: string): Xyz {
  if (typeOf(profile, tag) !== 'XYZ ' || tag.size < 20) unusable(`its ${name} tag is not an XYZ value`);
  const at = tag.offset + 8;
  const xyz: Xyz = [s15f16(profile, at), s15f16(profile, at + 4), s15f16(profile, at + 8)];
  return xyz;
}

function readAdaptation(profile: Uint8Array, tag: Tag): Matrix3 {
  if (typeOf(profile, tag) !== 'sf32' || tag.size < 44) unusable('its chad tag is not a 3x3 matrix');
  const m: number[] = [];
  for (let i = 0; i < 9; i++) m.push(s15f16(profile, tag.offset + 8 + i * 4));
  return m as unknown as Matrix3;
}

/** A `curv` or `para` tag. */
function readCurve(profile: Uint8Array, tag: Tag, name: string): ToneCurve {
  const type = typeOf(profile, tag);
  const at = tag.offset;
  if (type === 'curv') {
    if (tag.size < 12) unusable(`its ${name} curve is cut short`);
    const count = u32be(profile, at + 8);
    if (count > MAX_CURVE_POINTS || 12 + count * 2 > tag.size)
      unusable(`its ${name} curve's ${count} points do not fit`);
    if (count === 0) return { kind: 'gamma', gamma: 1 };
    if (count === 1) return { kind: 'gamma', gamma: u16be(profile, at + 12) / 256 };
    const values = new Float64Array(count);
    for (let i = 0; i < count; i++) values[i] = u16be(profile, at + 12 + i * 2) / 65535;
    return { kind: 'table', values };
  }
  if (type === 'para') {
    if (tag.size < 12) unusable(`its ${name} curve is cut short`);
    const fn = u16be(profile, at + 8);
    const n = PARAMETRIC_COUNTS[fn];
    if (n === undefined) unusable(`its ${name} curve is of parametric type ${fn}, which does not exist`);
    if (12 + n * 4 > tag.size) unusable(`its ${name} curve's parameters do not fit`);
    const params: number[] = [];
    for (let i = 0; i < n; i++) params.push(s15f16(profile, at + 12 + i * 4));
    return { kind: 'parametric', type: fn as 0 | 1 | 2 | 3 | 4, params };
  }
  unusable(`its ${name} tag is not a curve (type ${printable(type)})`);
}

/** The profile's name: v2 `desc` (ASCII) or v4 `mluc` (the first record, UTF-16), made printable. */
function readDescription(profile: Uint8Array, tag: Tag | undefined): string {
  if (!tag) return '';
  const type = typeOf(profile, tag);
  const end = tag.offset + tag.size;
  let text = '';
  if (type === 'desc' && tag.size >= 12) {
    const count = u32be(profile, tag.offset + 8);
    const start = tag.offset + 12;
    text = ascii(profile, start, Math.min(end, start + Math.min(count, 200)));
  } else if (type === 'mluc' && tag.size >= 28) {
    const length = u32be(profile, tag.offset + 20);
    const start = tag.offset + u32be(profile, tag.offset + 24);
    for (let p = start; p + 1 < Math.min(end, start + length, start + 400); p += 2)
      text += String.fromCharCode(u16be(profile, p));
  }
  // eslint-disable-next-line no-control-regex
  return text
    .replace(/[^\x20-\x7e\u00a0-\u00ff]/g, '')
    .trim()
    .slice(0, 80);
}
