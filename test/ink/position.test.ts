/**
 * The pure parts of pixel pictures in Ink: an element's cell from its Yoga layout, the bytes that
 * draw there from below Ink's frame, and the overlay that draws after each frame.
 */
import { describe, expect, it } from 'vitest';
import { overlayFor } from '../../src/ink/overlay.js';
import { drawAt, framePosition, type LaidOutNode } from '../../src/ink/position.js';

/** A chain of laid-out nodes, root first: [left, top, height] each. */
function chain(...boxes: [number, number, number][]): LaidOutNode {
  let parent: LaidOutNode | undefined;
  for (const [left, top, height] of boxes) {
    parent = {
      parentNode: parent,
      yogaNode: { getComputedLeft: () => left, getComputedTop: () => top, getComputedHeight: () => height },
    };
  }
  return parent as LaidOutNode;
}

describe('framePosition', () => {
  const ROWS = [
    { name: 'the root itself', node: chain([0, 0, 5]), want: { top: 0, left: 0, frameRows: 5 } },
    { name: 'a child at the top-left', node: chain([0, 0, 10], [0, 0, 3]), want: { top: 0, left: 0, frameRows: 10 } },
    { name: 'offsets add up', node: chain([0, 0, 12], [2, 1, 8], [3, 4, 2]), want: { top: 5, left: 5, frameRows: 12 } },
    { name: 'not laid out', node: { parentNode: undefined } as LaidOutNode, want: null },
    { name: 'below the frame (zero-height root)', node: chain([0, 0, 0], [0, 0, 0]), want: null },
  ];
  it.each(ROWS)('$name', ({ node, want }) => {
    expect(framePosition(node)).toEqual(want);
  });
});

describe('drawAt', () => {
  const ROWS = [
    { name: 'top-left of a 5-row frame', at: { top: 0, left: 0, frameRows: 5 }, want: '\x1b7\x1b[5A\rX\x1b8' },
    { name: 'row 3, column 7', at: { top: 3, left: 7, frameRows: 5 }, want: '\x1b7\x1b[2A\r\x1b[7CX\x1b8' },
  ];
  it.each(ROWS)('$name', ({ at, want }) => {
    expect(drawAt(at, 'X')).toBe(want);
  });
});

describe('overlay', () => {
  function fakeOutput(rows = 24) {
    const writes: string[] = [];
    const output = {
      rows,
      write: (chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      },
    };
    return { output, writes };
  }

  /** A frame of Ink's `lines` tall as it writes it: the lines, each ending with a newline. */
  const frame = (lines: number) => 'x\n'.repeat(lines);

  type Step =
    | { readonly write: number }
    | { readonly text: string }
    | { readonly paint: true }
    | { readonly layout: { readonly top: number; readonly frameRows: number } }
    | { readonly resize: true };

  interface Row {
    readonly name: string;
    /** Cells pictures (iTerm2, sixel) are drawn after every frame; kitty's only when they change. */
    readonly everyFrame: boolean;
    readonly layout: { readonly top: number; readonly frameRows: number };
    readonly steps: readonly Step[];
    /** Where the picture was drawn, in order: `top/frameRows@n`, after the nth frame written (0: before any). */
    readonly want: readonly string[];
  }

  const ROWS: Row[] = [
    {
      name: 'cells pictures: after every frame of their layout',
      everyFrame: true,
      layout: { top: 1, frameRows: 4 },
      steps: [{ text: '\x1b[?25l' }, { write: 4 }, { write: 4 }],
      want: ['1/4@1', '1/4@2'],
    },
    {
      name: 'cells pictures between frames: drawn only when they moved (nothing wipes them there)',
      everyFrame: true,
      layout: { top: 0, frameRows: 3 },
      steps: [{ write: 3 }, { paint: true }, { layout: { top: 1, frameRows: 3 } }, { paint: true }, { paint: true }],
      want: ['0/3@1', '1/3@1'],
    },
    {
      name: 'a write ending a line that is not the frame (<Static> text, 1 line) draws nothing',
      everyFrame: true,
      layout: { top: 1, frameRows: 4 },
      steps: [{ write: 1 }],
      want: [],
    },
    {
      name: "the gallery's first picture: laid out in 22 rows while the screen has the 5-row frame: drawn with its frame",
      everyFrame: false,
      layout: { top: 2, frameRows: 22 },
      steps: [{ write: 5 }, { paint: true }, { write: 22 }],
      want: ['2/22@2'],
    },
    {
      name: 'kitty: placed again only when it moves, or after a resize',
      everyFrame: false,
      layout: { top: 0, frameRows: 3 },
      steps: [
        { write: 3 },
        { write: 3 },
        { layout: { top: 1, frameRows: 3 } },
        { write: 3 },
        { resize: true },
        { write: 3 },
        { write: 3 },
      ],
      want: ['0/3@1', '1/3@3', '1/3@4'],
    },
    {
      name: 'after a resize, a write that is not the frame (1 line) does not use up the redraw',
      everyFrame: false,
      layout: { top: 0, frameRows: 3 },
      steps: [{ write: 3 }, { resize: true }, { write: 1 }, { write: 3 }, { write: 3 }],
      want: ['0/3@1', '0/3@3'],
    },
    {
      name: 'drawn between frames where the frame on the screen is as tall, and again with the next frame',
      everyFrame: false,
      layout: { top: 0, frameRows: 3 },
      steps: [
        { write: 3 },
        { paint: true },
        { layout: { top: 1, frameRows: 3 } },
        { paint: true },
        { paint: true },
        { write: 3 },
        { write: 3 },
      ],
      want: ['0/3@1', '1/3@1', '1/3@2'],
    },
    {
      name: 'no frame seen (Ink in debug mode writes frames without a final newline): the layout decides',
      everyFrame: false,
      layout: { top: 0, frameRows: 3 },
      steps: [{ text: 'a\nb\nc' }, { paint: true }],
      want: ['0/3@0'],
    },
    {
      name: 'a frame as tall as the terminal (Ink writes it from the top, no final newline): not drawn',
      everyFrame: true,
      layout: { top: 0, frameRows: 24 },
      steps: [{ paint: true }, { write: 24 }],
      want: [],
    },
  ];

  it.each(ROWS)('$name', ({ everyFrame, layout, steps, want }) => {
    const { output, writes } = fakeOutput();
    const listeners: (() => void)[] = [];
    const stream = { ...output, on: (_event: 'resize', listener: () => void) => listeners.push(listener) };
    let now = layout;
    const remove = overlayFor(stream).add({
      position: () => ({ top: now.top, left: 0, frameRows: now.frameRows }),
      place: 'P',
      redrawEveryFrame: everyFrame,
    });
    for (const step of steps) {
      if ('write' in step) stream.write(frame(step.write));
      else if ('text' in step) stream.write(step.text);
      else if ('paint' in step) overlayFor(stream).paint();
      else if ('layout' in step) now = step.layout;
      else for (const listener of listeners) listener();
    }
    // Each draw, tagged with the number of frames written before it.
    let frames = 0;
    const drawn: string[] = [];
    for (const w of writes) {
      if (!w.includes('P')) {
        if (w.endsWith('\n')) frames += 1;
        continue;
      }
      const up = Number(/\x1b\[(\d+)A/.exec(w)?.[1] ?? 0);
      const at = want.find((x) => {
        const [top, rows] = x.split(/[/@]/).map(Number);
        return w === drawAt({ top: top ?? 0, left: 0, frameRows: rows ?? 0 }, 'P');
      });
      drawn.push(`${at?.split('@')[0] ?? `up ${up}`}@${frames}`);
    }
    expect(drawn).toEqual(want);
    remove();
  });

  it('stays on the stream: a picture added after the last one went knows the frame on the screen', () => {
    const { output, writes } = fakeOutput();
    const overlay = overlayFor(output);
    overlay.add({ position: () => ({ top: 0, left: 0, frameRows: 5 }), place: 'A', redrawEveryFrame: true })();
    // Ink writes the 5-row frame; the next picture is laid out in a 22-row frame not written yet.
    output.write(frame(5));
    const remove = overlayFor(output).add({
      position: () => ({ top: 2, left: 0, frameRows: 22 }),
      place: 'B',
      redrawEveryFrame: false,
    });
    overlayFor(output).paint();
    expect(writes.some((w) => w.includes('B'))).toBe(false);
    output.write(frame(22));
    expect(writes.filter((w) => w.includes('B'))).toEqual([drawAt({ top: 2, left: 0, frameRows: 22 }, 'B')]);
    remove();
  });
});
