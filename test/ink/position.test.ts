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
  function fakeOutput() {
    const writes: string[] = [];
    const output = {
      write: (chunk: string | Uint8Array) => {
        writes.push(String(chunk));
        return true;
      },
    };
    return { output, writes };
  }

  it("draws after each of Ink's frames (writes ending a line), not after other writes, and lets go when empty", () => {
    const { output, writes } = fakeOutput();
    const original = output.write;
    const overlay = overlayFor(output);
    const remove = overlay.add({
      position: () => ({ top: 1, left: 2, frameRows: 4 }),
      place: 'P',
      redrawEveryFrame: true,
    });
    output.write('\x1b[?25l');
    output.write('frame 1\n');
    output.write('frame 2\n');
    expect(writes).toEqual([
      '\x1b[?25l',
      'frame 1\n',
      drawAt({ top: 1, left: 2, frameRows: 4 }, 'P'),
      'frame 2\n',
      drawAt({ top: 1, left: 2, frameRows: 4 }, 'P'),
    ]);
    remove();
    expect(output.write).toBe(original);
  });

  it('kitty pictures are placed again only when they move (or after a resize)', () => {
    const { output, writes } = fakeOutput();
    let top = 0;
    const overlay = overlayFor(output);
    const remove = overlay.add({
      position: () => ({ top, left: 0, frameRows: 3 }),
      place: 'K',
      redrawEveryFrame: false,
    });
    output.write('a\n');
    output.write('b\n');
    top = 1;
    output.write('c\n');
    expect(writes.filter((w) => w.includes('K'))).toEqual([
      drawAt({ top: 0, left: 0, frameRows: 3 }, 'K'),
      drawAt({ top: 1, left: 0, frameRows: 3 }, 'K'),
    ]);
    remove();
  });
});
