/**
 * Where an element sits in Ink's frame, from its Yoga layout, and the bytes that draw at that cell
 * from where Ink leaves the cursor (pure).
 */

/** The parts of Ink's DOM element read here (its Yoga node and its parent). */
export interface LaidOutNode {
  readonly parentNode?: LaidOutNode | undefined;
  readonly yogaNode?: {
    getComputedLeft(): number;
    getComputedTop(): number;
    getComputedHeight(): number;
  };
}

/** An element's cell in the frame, and the frame's height in rows. */
export interface FramePosition {
  readonly top: number;
  readonly left: number;
  readonly frameRows: number;
}

/**
 * The element's top-left cell, counted from the frame's top-left, and the frame's rows (the root's
 * height: Ink writes that many lines). Null while it is not laid out.
 *
 * @example framePosition(ref.current) // { top: 2, left: 4, frameRows: 12 }
 */
export function framePosition(node: LaidOutNode | null | undefined): FramePosition | null {
  if (!node?.yogaNode) return null;
  let top = 0;
  let left = 0;
  let at: LaidOutNode | undefined = node;
  let root: LaidOutNode = node;
  while (at?.yogaNode) {
    top += at.yogaNode.getComputedTop();
    left += at.yogaNode.getComputedLeft();
    root = at;
    at = at.parentNode;
  }
  const frameRows = root.yogaNode?.getComputedHeight() ?? 0;
  if (!Number.isFinite(top) || !Number.isFinite(left) || frameRows <= top) return null;
  return { top: Math.round(top), left: Math.round(left), frameRows: Math.round(frameRows) };
}

/**
 * The bytes that draw `sequences` at the element's cell, from the start of the line below Ink's
 * frame (where Ink leaves the cursor), and put the cursor back there: save, up, across, draw,
 * restore.
 *
 * @example drawAt({ top: 1, left: 4, frameRows: 5 }, apc) // '\x1b7\x1b[4A\r\x1b[4C' + apc + '\x1b8'
 */
export function drawAt(position: FramePosition, sequences: string): string {
  const up = position.frameRows - position.top;
  const across = position.left > 0 ? `\x1b[${position.left}C` : '';
  return `\x1b7${up > 0 ? `\x1b[${up}A` : ''}\r${across}${sequences}\x1b8`;
}
