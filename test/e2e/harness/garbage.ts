/**
 * What a probe may leave behind, judged: a screen that is not what it was, window titles that
 * changed, a multiplexer's pane title that changed, text where the screen should be blank. Pure:
 * screenshots and program outputs in, findings out, so each judgement has its own unit tests.
 */
import type { Box, ColourExtent, RgbImage } from './pixels.js';
import { union } from './pixels.js';

/** Pixels inside `area` that differ between two screenshots of the same screen, and their bounding box. */
export function screenDiff(a: RgbImage, b: RgbImage, area: Box): ColourExtent {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`screenshots differ in size: ${a.width}x${a.height} and ${b.width}x${b.height}`);
  }
  let count = 0;
  let box: Box | null = null;
  for (let y = area.top; y < area.bottom; y++) {
    for (let x = area.left; x < area.right; x++) {
      const i = (y * a.width + x) * 3;
      if (a.data[i] === b.data[i] && a.data[i + 1] === b.data[i + 1] && a.data[i + 2] === b.data[i + 2]) continue;
      count++;
      box = union(box, { left: x, top: y, right: x + 1, bottom: y + 1 });
    }
  }
  return { count, box };
}

/** The window ids `xwininfo -root -children` lists (hex, as it prints them). */
export function childWindows(xwininfo: string): string[] {
  return [...xwininfo.matchAll(/^\s+(0x[0-9a-f]+)\s/gm)].map((m) => m[1]);
}

/**
 * The title properties in `xprop -id W WM_NAME _NET_WM_NAME` output, one line each
 * (`WM_NAME(STRING) = "xterm"`); properties the window does not have are left out.
 */
export function titleLines(xprop: string): string[] {
  return xprop
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => /^(WM_NAME|_NET_WM_NAME)\(/.test(line));
}

/** Lines of text that are not blank, with their 1-based numbers: what a cleared screen must not hold. */
export function inkedLines(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() !== '') out.push({ line: i + 1, text: line.trimEnd() });
  });
  return out;
}

/** Titles by window: `{ '0x200001': ['WM_NAME(STRING) = "xterm"'] }`; only windows that have a title. */
export type WindowTitles = Readonly<Record<string, readonly string[]>>;

/** What changed between two readings of the window titles, one sentence per change (empty: none). */
export function titleChanges(before: WindowTitles, after: WindowTitles): string[] {
  const out: string[] = [];
  for (const id of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = (before[id] ?? []).join('; ');
    const b = (after[id] ?? []).join('; ');
    if (a !== b) out.push(`window ${id}: ${a || '(no title)'} became ${b || '(no title)'}`);
  }
  return out;
}
