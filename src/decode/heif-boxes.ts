/**
 * What a HEIF file (ISO/IEC 23008-12, an ISO BMFF `meta` box of items) says about its primary
 * picture, read from the boxes alone, before any decoder is loaded: the codec of its item (HEVC,
 * AV1, …, or a grid of tiles and their codec), its size (`ispe`) and the size of every item it is
 * built from, its colour (`colr`: nclx code points or an ICC profile). Pure, bounded: every box is
 * read inside its parent, counts are checked against the bytes that would hold them, and nothing
 * is allocated from a number the file declares. See docs/decode.md, "HEIC".
 */

/** The colour a HEIF item declares in its `colr` property. */
export type HeifColour =
  | { readonly kind: 'nclx'; primaries: number; transfer: number; matrix: number; fullRange: boolean }
  | { readonly kind: 'icc'; readonly profile: Uint8Array };

/** A HEIF file's primary picture, as its boxes describe it. */
export interface HeifPrimary {
  /** The primary item's type: `hvc1` (HEVC), `av01` (AV1), `grid`, `iovl`, `iden`, `jpeg`, `unci`, … */
  readonly itemType: string;
  /**
   * The codec of the coded pictures it is made of: its own for a coded item, its tiles' for a
   * derived one (`hevc` when any is HEVC); `other` when none is HEVC or AV1.
   */
  readonly codec: 'hevc' | 'av1' | 'other';
  /** Its `ispe` size, as stored (before `irot`); 0x0 when it has none. */
  readonly width: number;
  readonly height: number;
  /** Every `ispe` of the file (tiles, thumbnails, alpha), so that no item is decoded past the limits. */
  readonly itemSizes: readonly { readonly width: number; readonly height: number }[];
  /**
   * The pixels the decoder will decode for it: its own, or the sum of the items a derived picture
   * is made of (a grid's tiles, which may repeat one item many times): the work, bounded by the caller.
   */
  readonly codedPixels: number;
  /** Its `colr` property, when it has one. */
  readonly colour?: HeifColour;
}

/** Why a HEIF's boxes could not be read: one line. */
export class HeifBoxError extends Error {
  override readonly name = 'HeifBoxError';
}

/** At most this many items, properties and associations are read (an iPhone photo has about 50 items). */
const MAX_ENTRIES = 65536;

interface Box {
  readonly type: string;
  /** The box's body (after its header), inside the file. */
  readonly start: number;
  readonly end: number;
}

function u16(b: Uint8Array, at: number): number {
  return ((b[at] as number) << 8) | (b[at + 1] as number);
}

function u32(b: Uint8Array, at: number): number {
  return (
    (((b[at] as number) << 24) |
      ((b[at + 1] as number) << 16) |
      ((b[at + 2] as number) << 8) |
      (b[at + 3] as number)) >>>
    0
  );
}

function fourcc(b: Uint8Array, at: number): string {
  return String.fromCharCode(b[at] as number, b[at + 1] as number, b[at + 2] as number, b[at + 3] as number);
}

/** The boxes between `start` and `end`, each checked to lie inside them. */
function children(b: Uint8Array, start: number, end: number, where: string): Box[] {
  const boxes: Box[] = [];
  let at = start;
  while (at + 8 <= end) {
    let size = u32(b, at);
    const type = fourcc(b, at + 4);
    let header = 8;
    if (size === 1) {
      if (at + 16 > end) throw new HeifBoxError(`the ${type} box in ${where} is cut short`);
      const high = u32(b, at + 8);
      if (high !== 0) throw new HeifBoxError(`the ${type} box in ${where} is larger than the file`);
      size = u32(b, at + 12);
      header = 16;
    } else if (size === 0) size = end - at;
    if (size < header || at + size > end)
      throw new HeifBoxError(`the ${type} box in ${where} (${size} bytes) does not fit inside it`);
    boxes.push({ type, start: at + header, end: at + size });
    if (boxes.length > MAX_ENTRIES) throw new HeifBoxError(`more than ${MAX_ENTRIES} boxes in ${where}`);
    at += size;
  }
  return boxes;
}

function need(box: Box, bytes: number): void {
  if (box.end - box.start < bytes) throw new HeifBoxError(`the ${box.type} box is too short`);
}

/**
 * Reads the primary picture's description from a HEIF file's top-level `meta` box. Throws
 * `HeifBoxError` when the boxes are broken or the primary item is missing.
 */
export function readHeifPrimary(b: Uint8Array): HeifPrimary {
  const meta = children(b, 0, b.length, 'the file').find((box) => box.type === 'meta');
  if (!meta) throw new HeifBoxError('no meta box');
  need(meta, 4);
  const boxes = children(b, meta.start + 4, meta.end, 'meta');
  const find = (type: string): Box | undefined => boxes.find((box) => box.type === type);

  const pitm = find('pitm');
  if (!pitm) throw new HeifBoxError('no primary item (pitm)');
  const wideId = b[pitm.start] !== 0;
  need(pitm, wideId ? 8 : 6);
  const primaryId = wideId ? u32(b, pitm.start + 4) : u16(b, pitm.start + 4);

  const types = itemTypes(b, find('iinf'));
  const itemType = types.get(primaryId);
  if (itemType === undefined) throw new HeifBoxError(`the primary item ${primaryId} has no item info (infe)`);

  const iprp = find('iprp');
  const { properties, associations } = iprp
    ? itemProperties(b, iprp)
    : { properties: [], associations: new Map<number, number[]>() };
  const propertiesOf = (id: number): Box[] =>
    (associations.get(id) ?? []).map((index: number) => properties[index - 1]).filter((p): p is Box => p !== undefined);

  const primary = propertiesOf(primaryId);
  const ispe = primary.find((p) => p.type === 'ispe');
  const size = ispe ? sizeOf(b, ispe) : { width: 0, height: 0 };
  // An ICC profile says more than nclx code points; a file may carry both.
  const colours = primary.filter((p) => p.type === 'colr').map((p) => colourOf(b, p));
  const colour = colours.find((c) => c?.kind === 'icc') ?? colours.find((c) => c !== undefined);
  const iref = find('iref');
  const from = CODECS[itemType] || !iref ? [] : derivedFrom(b, iref, primaryId);
  let codedPixels = CODECS[itemType] ? size.width * size.height : 0;
  for (const id of from) {
    const tile = propertiesOf(id).find((p) => p.type === 'ispe');
    if (tile) {
      const s = sizeOf(b, tile);
      codedPixels += s.width * s.height;
    }
  }
  return {
    itemType,
    codec: codecOf(itemType, types, from),
    codedPixels,
    width: size.width,
    height: size.height,
    itemSizes: properties.filter((p) => p.type === 'ispe').map((p) => sizeOf(b, p)),
    ...(colour ? { colour } : {}),
  };
}

/** Item ID -> item type, from `iinf`'s `infe` boxes (versions 2 and 3, the ones that carry a type). */
function itemTypes(b: Uint8Array, iinf: Box | undefined): Map<number, string> {
  const types = new Map<number, string>();
  if (!iinf) return types;
  need(iinf, 6);
  const wide = b[iinf.start] !== 0;
  const first = iinf.start + (wide ? 8 : 6);
  for (const infe of children(b, first, iinf.end, 'iinf')) {
    if (infe.type !== 'infe') continue;
    need(infe, 4);
    const version = b[infe.start] as number;
    if (version < 2) continue;
    const idBytes = version === 2 ? 2 : 4;
    need(infe, 4 + idBytes + 2 + 4);
    const id = idBytes === 2 ? u16(b, infe.start + 4) : u32(b, infe.start + 4);
    types.set(id, fourcc(b, infe.start + 4 + idBytes + 2));
  }
  return types;
}

/** `ipco`'s properties (1-based in `ipma`) and `ipma`'s associations: item ID -> property indices. */
function itemProperties(b: Uint8Array, iprp: Box): { properties: Box[]; associations: Map<number, number[]> } {
  const inside = children(b, iprp.start, iprp.end, 'iprp');
  const ipco = inside.find((box) => box.type === 'ipco');
  const properties = ipco ? children(b, ipco.start, ipco.end, 'ipco') : [];
  const associations = new Map<number, number[]>();
  for (const ipma of inside.filter((box) => box.type === 'ipma')) {
    need(ipma, 8);
    const version = b[ipma.start] as number;
    const wideIndex = ((b[ipma.start + 3] as number) & 1) === 1;
    const count = u32(b, ipma.start + 4);
    const idBytes = version < 1 ? 2 : 4;
    // Each entry takes at least its ID and its count byte: a count the box cannot hold lies.
    if (count > (ipma.end - ipma.start - 8) / (idBytes + 1))
      throw new HeifBoxError('the ipma box lists more entries than it holds');
    let at = ipma.start + 8;
    for (let i = 0; i < count; i++) {
      if (at + idBytes + 1 > ipma.end) throw new HeifBoxError('the ipma box is cut short');
      const id = idBytes === 2 ? u16(b, at) : u32(b, at);
      at += idBytes;
      const n = b[at++] as number;
      const list = associations.get(id) ?? [];
      for (let j = 0; j < n; j++) {
        if (at + (wideIndex ? 2 : 1) > ipma.end) throw new HeifBoxError('the ipma box is cut short');
        list.push(wideIndex ? u16(b, at) & 0x7fff : (b[at] as number) & 0x7f);
        at += wideIndex ? 2 : 1;
      }
      associations.set(id, list);
    }
  }
  return { properties, associations };
}

function sizeOf(b: Uint8Array, ispe: Box): { width: number; height: number } {
  need(ispe, 12);
  return { width: u32(b, ispe.start + 4), height: u32(b, ispe.start + 8) };
}

function colourOf(b: Uint8Array, colr: Box): HeifColour | undefined {
  need(colr, 4);
  const kind = fourcc(b, colr.start);
  if (kind === 'nclx') {
    need(colr, 11);
    return {
      kind,
      primaries: u16(b, colr.start + 4),
      transfer: u16(b, colr.start + 6),
      matrix: u16(b, colr.start + 8),
      fullRange: ((b[colr.start + 10] as number) & 0x80) !== 0,
    };
  }
  if (kind === 'prof' || kind === 'rICC') return { kind: 'icc', profile: b.subarray(colr.start + 4, colr.end) };
  return undefined;
}

/** HEVC, AV1 or other: the item's own codec, or for a derived item (grid, overlay) that of the items it is made of. */
function codecOf(itemType: string, types: Map<number, string>, from: readonly number[]): HeifPrimary['codec'] {
  const own = CODECS[itemType];
  if (own) return own;
  const codecs = new Set(from.map((id) => CODECS[types.get(id) ?? ''] ?? 'other'));
  if (codecs.has('hevc')) return 'hevc';
  if (codecs.has('av1')) return 'av1';
  return 'other';
}

const CODECS: Readonly<Record<string, 'hevc' | 'av1'>> = { hvc1: 'hevc', hev1: 'hevc', av01: 'av1' };

/** The items `id` is derived from (`iref`'s `dimg` references). */
function derivedFrom(b: Uint8Array, iref: Box, id: number): number[] {
  need(iref, 4);
  const wide = b[iref.start] !== 0;
  const idBytes = wide ? 4 : 2;
  const read = (at: number): number => (wide ? u32(b, at) : u16(b, at));
  for (const ref of children(b, iref.start + 4, iref.end, 'iref')) {
    if (ref.type !== 'dimg' || ref.end - ref.start < idBytes + 2 || read(ref.start) !== id) continue;
    const count = u16(b, ref.start + idBytes);
    if (ref.start + idBytes + 2 + count * idBytes > ref.end) throw new HeifBoxError('the dimg reference is cut short');
    return Array.from({ length: count }, (_, i) => read(ref.start + idBytes + 2 + i * idBytes));
  }
  return [];
}
