/**
 * HEIF files written box by box (ISO/IEC 23008-12 on ISO BMFF) for the tests of heif-boxes.ts,
 * the sniffing and the size checks: the meta box's items, their properties and references, with
 * no coded pixels (nothing here is decoded; the boxes are what is read). Real HEICs come from
 * ImageMagick (libheif, x265) at test time, or the committed chelsea.heic.
 */

const text = (s: string): number[] => [...s].map((c) => c.charCodeAt(0));
const u16 = (n: number): number[] => [(n >>> 8) & 255, n & 255];
const u32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];

/** A box: size, type, body. */
export function box(type: string, ...body: (Uint8Array | number[])[]): Uint8Array {
  const bytes = body.flatMap((part) => [...part]);
  return Uint8Array.from([...u32(8 + bytes.length), ...text(type), ...bytes]);
}

/** A full box: version and flags before the body. */
export function fullBox(type: string, version: number, flags: number, ...body: (Uint8Array | number[])[]): Uint8Array {
  return box(type, [version, (flags >>> 16) & 255, (flags >>> 8) & 255, flags & 255], ...body);
}

/** `ispe`: the item's size. */
export const ispe = (width: number, height: number): Uint8Array => fullBox('ispe', 0, 0, u32(width), u32(height));

/** `colr` with nclx code points. */
export const colrNclx = (primaries: number, transfer: number, matrix: number, fullRange: boolean): Uint8Array =>
  box('colr', text('nclx'), u16(primaries), u16(transfer), u16(matrix), [fullRange ? 0x80 : 0]);

/** `colr` with an ICC profile (`prof`). */
export const colrIcc = (profile: Uint8Array): Uint8Array => box('colr', text('prof'), profile);

/** An item: its ID, type and the properties associated with it (each listed once in ipco). */
export interface Item {
  readonly id: number;
  readonly type: string;
  readonly properties: readonly Uint8Array[];
}

/** A HEIF of `items` (the first is primary unless `primary` says), `dimg` references, and the brands. */
export function heifFile(options: {
  readonly brands: readonly string[];
  readonly items: readonly Item[];
  readonly primary?: number;
  readonly dimg?: { readonly from: number; readonly to: readonly number[] };
}): Uint8Array {
  const [major = 'mif1', ...compatible] = options.brands;
  const ftyp = box('ftyp', text(major), u32(0), ...compatible.map(text));
  const properties: Uint8Array[] = [];
  const associations: number[] = [];
  for (const item of options.items) {
    associations.push(...u16(item.id), item.properties.length);
    for (const property of item.properties) {
      properties.push(property);
      associations.push(0x80 | properties.length);
    }
  }
  const iinf = fullBox(
    'iinf',
    0,
    0,
    u16(options.items.length),
    ...options.items.map((item) => fullBox('infe', 2, 0, u16(item.id), u16(0), text(item.type), [0])),
  );
  const iprp = box('iprp', box('ipco', ...properties), fullBox('ipma', 0, 0, u32(options.items.length), associations));
  const dimg = options.dimg;
  const iref = dimg
    ? [fullBox('iref', 0, 0, box('dimg', u16(dimg.from), u16(dimg.to.length), dimg.to.flatMap(u16)))]
    : [];
  const meta = fullBox(
    'meta',
    0,
    0,
    fullBox('hdlr', 0, 0, u32(0), text('pict'), u32(0), u32(0), u32(0), [0]),
    fullBox('pitm', 0, 0, u16(options.primary ?? options.items[0]?.id ?? 1)),
    iinf,
    iprp,
    ...iref,
  );
  return Uint8Array.from([...ftyp, ...meta, ...box('mdat')]);
}

/** A copy of a real HEIF with every `ispe` rewritten to `width` x `height` (the same bytes otherwise). */
export function withIspe(file: Uint8Array, width: number, height: number): Uint8Array {
  const out = Uint8Array.from(file);
  for (let at = 4; at + 16 <= out.length; at++)
    if (out[at] === 0x69 && out[at + 1] === 0x73 && out[at + 2] === 0x70 && out[at + 3] === 0x65) {
      out.set(u32(width), at + 8);
      out.set(u32(height), at + 12);
    }
  return out;
}

/**
 * A copy of a real HEIF whose `pixi` property (16 bytes in libheif's files, associated with the
 * primary picture) is replaced by an `irot` of the same size: the picture turned `quarters` x 90°
 * anticlockwise (ISO/IEC 23008-12 6.5.10; the bytes after the angle are padding inside the box).
 */
export function withIrot(file: Uint8Array, quarters: number): Uint8Array {
  const out = Uint8Array.from(file);
  const at = Buffer.from(out).indexOf('pixi') - 4;
  if (at < 0 || u32(16).some((v, i) => out[at + i] !== v)) throw new Error('no 16-byte pixi box to replace');
  out.set([...u32(16), ...text('irot'), quarters & 3, 0, 0, 0, 0, 0, 0, 0], at);
  return out;
}
