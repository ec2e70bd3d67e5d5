/**
 * The test picture (four solid quadrants: red, green / blue, yellow) and the judgement of whether a
 * screenshot shows it: each colour in its place, in equal shares, below the marker row printed just
 * before `show` and above the one printed after it. Pure; the PNG is written by the caller.
 */
import { encode } from 'fast-png';
import type { Box, ColourClass, ColourExtent, RgbImage } from './pixels.js';
import { classAt, colourExtents, sizeOf, union } from './pixels.js';

/** The quadrants' colours, top-left, top-right, bottom-left, bottom-right. */
export const QUADRANTS = [
  { cls: 'red', rgb: [255, 0, 0] },
  { cls: 'green', rgb: [0, 255, 0] },
  { cls: 'blue', rgb: [0, 0, 255] },
  { cls: 'yellow', rgb: [255, 255, 0] },
] as const satisfies readonly { cls: ColourClass; rgb: readonly [number, number, number] }[];

/** The test picture as a PNG file's bytes: `size` x `size` pixels, four solid quadrants, opaque. */
export function quadrantPng(size: number): Uint8Array {
  if (size % 2 !== 0) throw new Error('quadrant picture size must be even');
  const data = new Uint8Array(size * size * 4);
  const half = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const q = QUADRANTS[(y < half ? 0 : 2) + (x < half ? 0 : 1)];
      const i = (y * size + x) * 4;
      data[i] = q.rgb[0];
      data[i + 1] = q.rgb[1];
      data[i + 2] = q.rgb[2];
      data[i + 3] = 255;
    }
  }
  return encode({ width: size, height: size, data, channels: 4, depth: 8 });
}

/** How a picture is expected to appear: solid pixels (kitty, sixel) or coloured text dots (braille). */
export type PictureKind = 'pixels' | 'dots';

/** What the judgement found: the problems (empty when the picture is right) and the measurements. */
export interface PictureVerdict {
  readonly problems: string[];
  /** The picture's bounding box on the screen, when any of its colours was found. */
  readonly box: Box | null;
  /** The marker rows' boxes, when found. */
  readonly before: Box | null;
  readonly after: Box | null;
  readonly extents: Record<ColourClass, ColourExtent>;
}

/**
 * Judges a screenshot. `area` is the terminal's text area; `cell` a cell's size in pixels (for the
 * tolerance of "just below the marker"). Solid pictures must fill their quadrants; braille dots
 * only need the right colours in the right places and in equal shares.
 */
export function judgePicture(
  image: RgbImage,
  area: Box,
  kind: PictureKind,
  cell: { width: number; height: number },
): PictureVerdict {
  const extents = colourExtents(image, area);
  const problems: string[] = [];
  const before = extents.magenta.box;
  const after = extents.cyan.box;
  if (before === null) problems.push('the marker row printed before show is not on the screen');
  if (after === null) problems.push('the marker row printed after show is not on the screen');
  let box: Box | null = null;
  for (const q of QUADRANTS) {
    const e = extents[q.cls];
    if (e.box === null) problems.push(`no ${q.cls} on the screen`);
    box = union(box, e.box);
  }
  if (problems.length > 0 || box === null) return { problems, box, before, after, extents };

  const [red, green, blue, yellow] = QUADRANTS.map((q) => extents[q.cls].box as Box);
  const { width, height } = sizeOf(box);
  // Place: each quadrant in its corner of the picture, within a tenth of the picture's size.
  const tolX = Math.max(3, width * 0.1);
  const tolY = Math.max(3, height * 0.1);
  const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;
  if (!near(red.left, box.left, tolX) || !near(red.top, box.top, tolY)) problems.push('red is not at the top left');
  if (!near(green.right, box.right, tolX) || !near(green.top, box.top, tolY))
    problems.push('green is not at the top right');
  if (!near(blue.left, box.left, tolX) || !near(blue.bottom, box.bottom, tolY))
    problems.push('blue is not at the bottom left');
  if (!near(yellow.right, box.right, tolX) || !near(yellow.bottom, box.bottom, tolY)) {
    problems.push('yellow is not at the bottom right');
  }
  if (red.right > green.left + tolX || blue.right > yellow.left + tolX) problems.push('left and right halves overlap');
  if (red.bottom > blue.top + tolY || green.bottom > yellow.top + tolY) problems.push('top and bottom halves overlap');
  // Proportion: four equal shares. Pixels are exact but for a row of rounding; braille dots are
  // anti-aliased glyphs, so their shares vary more.
  const counts = QUADRANTS.map((q) => extents[q.cls].count);
  const mean = counts.reduce((a, b) => a + b, 0) / 4;
  const shareTolerance = kind === 'pixels' ? 0.06 : 0.2;
  QUADRANTS.forEach((q, i) => {
    if (Math.abs(counts[i] - mean) > mean * shareTolerance) {
      problems.push(`${q.cls} covers ${counts[i]} pixels, the mean is ${mean.toFixed(0)}`);
    }
  });
  if (kind === 'pixels') {
    // A square picture drawn with pixels stays square (issue 24: within 1%, or a pixel of
    // measurement for a small one) and solid.
    const aspect = judgeAspect(width, height);
    if (aspect !== null) problems.push(aspect);
    const fill = counts.reduce((a, b) => a + b, 0) / (width * height);
    if (fill < 0.9) problems.push(`only ${(fill * 100).toFixed(0)}% of the picture's box holds its colours`);
  } else if (width / height < 0.5 || width / height > 2) {
    problems.push(`the braille picture is ${width}x${height}, far from square`);
  }
  // Where: just below the marker printed before it, at its left edge, and above the one after it.
  if (before !== null) {
    if (box.top < before.bottom - 1 || box.top > before.bottom + cell.height) {
      problems.push(`the picture's top (${box.top}) is not just below the first marker (bottom ${before.bottom})`);
    }
    if (Math.abs(box.left - before.left) > cell.width) {
      problems.push(`the picture's left (${box.left}) is not at the cursor's column (${before.left})`);
    }
  }
  if (after !== null && after.top < box.bottom - 1) {
    problems.push(
      `the marker printed after show (top ${after.top}) overlaps the picture (bottom ${box.bottom}): the cursor did not move past it`,
    );
  }
  if (kind === 'pixels') {
    const band = judgeBand(image, area, box, cell);
    if (band !== null) problems.push(band);
  }
  if (kind === 'pixels' && after !== null) {
    // Between a pixel picture and the marker after it there is only background: a band there (a
    // multiplexer padding the picture to whole cells with some colour) is not part of the picture.
    // The row just below the picture may blend into the background where a terminal scales it.
    const gap = { left: box.left, right: box.right, top: box.bottom + 1, bottom: after.top };
    const ink = notBackground(image, gap);
    if (ink > 0) problems.push(`${ink} pixels that are not background between the picture and the marker after it`);
  }
  return { problems, box, before, after, extents };
}

/**
 * Whether a picture that should be square is square: at most 1% (or one pixel, the measurement's
 * own rounding) between its sides. Null when it is; else the problem.
 */
export function judgeAspect(width: number, height: number): string | null {
  const off = Math.abs(width - height);
  if (off <= Math.max(1, 0.01 * Math.max(width, height))) return null;
  const stretch = ((width / height - 1) * 100).toFixed(1);
  return `the picture is ${width}x${height}, not square (${stretch}% wider than tall): squashed or stretched`;
}

/**
 * A band under or beside a pixel picture (issue 24): anything but the background in the cell's
 * height just below the picture (a sixel's last band painted with register 0 in Konsole, black in
 * foot, tmux's margin up to whole cells) or in the cell's width just right of it. Null when both
 * strips are background; else the problem, with where and what colour.
 */
export function judgeBand(
  image: RgbImage,
  area: Box,
  box: Box,
  cell: { width: number; height: number },
): string | null {
  const below = {
    left: box.left,
    right: box.right,
    top: box.bottom,
    bottom: Math.min(area.bottom, box.bottom + Math.ceil(cell.height)),
  };
  const beside = {
    left: box.right,
    right: Math.min(area.right, box.right + Math.ceil(cell.width)),
    top: box.top,
    bottom: box.bottom,
  };
  const found: string[] = [];
  for (const [where, strip] of [
    ['below', below],
    ['beside', beside],
  ] as const) {
    const ink = bandRows(image, strip, where === 'below');
    if (ink !== null) found.push(`${ink.rows} px ${where} the picture, ${ink.colour}`);
  }
  return found.length === 0 ? null : `a band ${found.join(' and ')}`;
}

/**
 * The lines of `strip` next to the picture (rows from its top when `below`, columns from its left
 * when beside) that are mostly not background, up to the first that is, and their colour. The
 * marker rows (magenta, cyan) are background here: the row printed after the picture may start
 * inside the strip below it. The first line may be a blend of picture and background (a scaled
 * picture): not a band by itself.
 */
function bandRows(image: RgbImage, strip: Box, below: boolean): { rows: number; colour: string } | null {
  const across = strip.right - strip.left;
  const down = strip.bottom - strip.top;
  if (across <= 0 || down <= 0) return null;
  const lines = below ? down : across;
  const length = below ? across : down;
  let rows = 0;
  let colour = '';
  for (let k = 0; k < lines; k++) {
    let ink = 0;
    let blend = 0;
    let sample = -1;
    for (let j = 0; j < length; j++) {
      const x = below ? strip.left + j : strip.left + k;
      const y = below ? strip.top + k : strip.top + j;
      const cls = classAt(image, x, y);
      if (cls === 'light' || cls === 'cyan' || cls === 'magenta') continue;
      ink++;
      if (cls === 'other') blend++;
      if (sample < 0) sample = (y * image.width + x) * 3;
    }
    // The line right next to a picture a terminal scaled may blend it into the background.
    if (k === 0 && ink > 0 && blend === ink) continue;
    if (ink * 2 < length) break;
    rows++;
    if (colour === '') colour = `rgb(${image.data[sample]},${image.data[sample + 1]},${image.data[sample + 2]})`;
  }
  return rows === 0 ? null : { rows, colour };
}

/** How many pixels of `box` are not the light background. */
function notBackground(image: RgbImage, box: Box): number {
  let count = 0;
  for (let y = box.top; y < box.bottom; y++) {
    for (let x = box.left; x < box.right; x++) if (classAt(image, x, y) !== 'light') count++;
  }
  return count;
}

/** The striped picture's darker stripe: each quadrant's colour at 160/255, still the same hue class. */
const DARK = 160 / 255;

/**
 * The striped test picture as RGBA: the four quadrants, each in vertical stripes 2 px wide that
 * alternate the quadrant's full colour and a darker shade of it. Any resampling (a scale, a filter)
 * blends the stripes into colours the picture does not have; braille and blocks still see the four
 * quadrants (both shades are the same hue).
 */
export function stripedQuadrants(size: number): Uint8Array {
  if (size % 4 !== 0) throw new Error('striped picture size must be a multiple of 4');
  const data = new Uint8Array(size * size * 4);
  const half = size / 2;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const q = QUADRANTS[(y < half ? 0 : 2) + (x < half ? 0 : 1)];
      const k = x % 4 < 2 ? 1 : DARK;
      const i = (y * size + x) * 4;
      data[i] = Math.round(q.rgb[0] * k);
      data[i + 1] = Math.round(q.rgb[1] * k);
      data[i + 2] = Math.round(q.rgb[2] * k);
      data[i + 3] = 255;
    }
  }
  return data;
}

/** The striped test picture as a PNG file's bytes. */
export function stripedQuadrantPng(size: number): Uint8Array {
  return encode({ width: size, height: size, data: stripedQuadrants(size), channels: 4, depth: 8 });
}

/**
 * Whether a screenshot shows `expected` (RGBA, `size` x `size`) pixel for pixel: the box of the
 * picture's colours must be exactly `size` x `size`, and every pixel in it the picture's, each
 * channel within `tolerance` (0 for PNG; sixel colour registers are whole percentages, so a
 * channel may be off by up to 255/200, rounded up: 2). A resampled stripe is off by far more.
 */
export function judgeExact(image: RgbImage, area: Box, expected: Uint8Array, size: number, tolerance = 0): string[] {
  const extents = colourExtents(image, area);
  let box: Box | null = null;
  for (const q of QUADRANTS) box = union(box, extents[q.cls].box);
  if (box === null) return ['none of the picture’s colours is on the screen'];
  const { width, height } = sizeOf(box);
  if (width !== size || height !== size)
    return [`the picture is ${width}x${height} at ${JSON.stringify(box)}, not ${size}x${size}`];
  let wrong = 0;
  let first = '';
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const s = ((box.top + y) * image.width + box.left + x) * 3;
      const e = (y * size + x) * 4;
      const got = [image.data[s], image.data[s + 1], image.data[s + 2]];
      const want = [expected[e], expected[e + 1], expected[e + 2]];
      if (got.some((v, c) => Math.abs(v - want[c]) > tolerance)) {
        if (wrong === 0) first = ` (first at ${x},${y}: rgb(${got.join(',')}) instead of rgb(${want.join(',')}))`;
        wrong++;
      }
    }
  }
  return wrong === 0 ? [] : [`${wrong} of ${size * size} pixels differ from the picture${first}`];
}
