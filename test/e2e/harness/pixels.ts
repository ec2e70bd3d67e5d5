/**
 * Reading a screenshot: decode the PPM that `import` writes, sort pixels into named colours, and
 * find where each colour sits. Pure: bytes in, numbers out, so the analysis has its own unit tests.
 */

/** An RGB image, 3 bytes per pixel, row-major (what a PPM holds). */
export interface RgbImage {
  readonly width: number;
  readonly height: number;
  readonly data: Uint8Array;
}

/** An axis-aligned rectangle in pixels; `right` and `bottom` are exclusive. */
export interface Box {
  readonly left: number;
  readonly top: number;
  readonly right: number;
  readonly bottom: number;
}

/** The colour classes the suite cares about: the test image's four, the two marker rows, and the rest. */
export type ColourClass = 'red' | 'yellow' | 'green' | 'cyan' | 'blue' | 'magenta' | 'light' | 'dark' | 'other';

/** Where one colour class lies: how many pixels and their bounding box (null when none). */
export interface ColourExtent {
  readonly count: number;
  readonly box: Box | null;
}

/**
 * Decodes a binary PPM (P6, maxval 255), the format `import ... ppm:-` writes. Throws on anything
 * else so a broken screenshot fails loudly instead of being read as an empty screen.
 */
export function parsePpm(bytes: Uint8Array): RgbImage {
  let pos = 0;
  const token = (): string => {
    // Skip whitespace and `#` comments between header tokens.
    for (;;) {
      while (pos < bytes.length && isSpace(bytes[pos])) pos++;
      if (bytes[pos] === 0x23) {
        while (pos < bytes.length && bytes[pos] !== 0x0a) pos++;
        continue;
      }
      break;
    }
    const start = pos;
    while (pos < bytes.length && !isSpace(bytes[pos])) pos++;
    return String.fromCharCode(...bytes.subarray(start, pos));
  };
  const magic = token();
  if (magic !== 'P6') throw new Error(`not a binary PPM (magic ${JSON.stringify(magic)})`);
  const width = Number(token());
  const height = Number(token());
  const maxval = Number(token());
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0) {
    throw new Error(`bad PPM size ${width}x${height}`);
  }
  if (maxval !== 255) throw new Error(`unsupported PPM maxval ${maxval}`);
  pos++; // exactly one whitespace byte separates the header from the pixels
  const length = width * height * 3;
  if (bytes.length - pos < length) throw new Error(`PPM truncated: ${bytes.length - pos} of ${length} bytes`);
  return { width, height, data: bytes.subarray(pos, pos + length) };
}

function isSpace(byte: number | undefined): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/**
 * Names a colour by hue, tolerant enough that a terminal's own palette (xterm's `#cd0000` red, or a
 * 256-colour approximation a multiplexer chose) still counts as the colour the program asked for,
 * and strict enough that anti-aliased black text on white never does.
 */
export function classify(r: number, g: number, b: number): ColourClass {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  if (max >= 200 && chroma <= 40) return 'light';
  if (max <= 60) return 'dark';
  if (max < 90 || chroma / max < 0.5) return 'other';
  let hue: number;
  if (max === r) hue = (60 * ((g - b) / chroma) + 360) % 360;
  else if (max === g) hue = 60 * ((b - r) / chroma) + 120;
  else hue = 60 * ((r - g) / chroma) + 240;
  if (hue < 25 || hue >= 335) return 'red';
  if (hue >= 40 && hue < 75) return 'yellow';
  if (hue >= 95 && hue < 145) return 'green';
  if (hue >= 165 && hue < 195) return 'cyan';
  if (hue >= 215 && hue < 265) return 'blue';
  if (hue >= 285 && hue < 320) return 'magenta';
  return 'other';
}

/** The class of the pixel at (x, y). */
export function classAt(image: RgbImage, x: number, y: number): ColourClass {
  const i = (y * image.width + x) * 3;
  return classify(image.data[i], image.data[i + 1], image.data[i + 2]);
}

/** Counts and bounding boxes of every colour class inside `region` (the whole image by default). */
export function colourExtents(image: RgbImage, region?: Box): Record<ColourClass, ColourExtent> {
  const area = region ?? { left: 0, top: 0, right: image.width, bottom: image.height };
  const acc = new Map<ColourClass, { count: number; l: number; t: number; r: number; b: number }>();
  for (let y = area.top; y < area.bottom; y++) {
    for (let x = area.left; x < area.right; x++) {
      const cls = classAt(image, x, y);
      const e = acc.get(cls);
      if (e === undefined) acc.set(cls, { count: 1, l: x, t: y, r: x + 1, b: y + 1 });
      else {
        e.count++;
        if (x < e.l) e.l = x;
        if (x + 1 > e.r) e.r = x + 1;
        if (y + 1 > e.b) e.b = y + 1;
      }
    }
  }
  const classes: ColourClass[] = ['red', 'yellow', 'green', 'cyan', 'blue', 'magenta', 'light', 'dark', 'other'];
  const out = {} as Record<ColourClass, ColourExtent>;
  for (const cls of classes) {
    const e = acc.get(cls);
    out[cls] =
      e === undefined
        ? { count: 0, box: null }
        : { count: e.count, box: { left: e.l, top: e.t, right: e.r, bottom: e.b } };
  }
  return out;
}

/** The smallest box holding both (either may be null). */
export function union(a: Box | null, b: Box | null): Box | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    left: Math.min(a.left, b.left),
    top: Math.min(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
  };
}

/** A box grown by `by` pixels on every side. */
export function grow(box: Box, by: number): Box {
  return { left: box.left - by, top: box.top - by, right: box.right + by, bottom: box.bottom + by };
}

/** Width and height of a box. */
export function sizeOf(box: Box): { width: number; height: number } {
  return { width: box.right - box.left, height: box.bottom - box.top };
}

/**
 * Pixels inside `area` that are neither background (`light`) nor inside one of the `allowed` boxes:
 * stray text (an escape payload printed as characters, an echoed reply) shows up here as dark glyph
 * pixels. Returns how many, and their bounding box for the failure message.
 */
export function strayInk(image: RgbImage, area: Box, allowed: readonly Box[]): ColourExtent {
  let count = 0;
  let box: Box | null = null;
  for (let y = area.top; y < area.bottom; y++) {
    for (let x = area.left; x < area.right; x++) {
      if (classAt(image, x, y) === 'light') continue;
      if (allowed.some((a) => x >= a.left && x < a.right && y >= a.top && y < a.bottom)) continue;
      count++;
      box = union(box, { left: x, top: y, right: x + 1, bottom: y + 1 });
    }
  }
  return { count, box };
}

/**
 * The terminal's text area on the screenshot: the bounding box of its light background. Xvfb's root
 * window is black, and each terminal here is configured with a white background.
 */
export function terminalArea(image: RgbImage): Box | null {
  // Only the row and column sums matter, so scan once and keep the extremes of mostly-light lines.
  const rowLight = new Uint32Array(image.height);
  const colLight = new Uint32Array(image.width);
  for (let y = 0; y < image.height; y++) {
    for (let x = 0; x < image.width; x++) {
      if (classAt(image, x, y) === 'light') {
        rowLight[y]++;
        colLight[x]++;
      }
    }
  }
  const rows = [...rowLight.keys()].filter((y) => rowLight[y] >= 16);
  const cols = [...colLight.keys()].filter((x) => colLight[x] >= 16);
  if (rows.length === 0 || cols.length === 0) return null;
  return { left: cols[0], top: rows[0], right: cols[cols.length - 1] + 1, bottom: rows[rows.length - 1] + 1 };
}
