/**
 * Where an element sits in Ink's frame, from its Yoga layout, and the bytes that draw at that cell
 * from where Ink leaves the cursor (pure).
 */

/** The parts of Ink's DOM element read here (its Yoga node, its parent, and its overflow style). */
export interface LaidOutNode {
  readonly parentNode?: LaidOutNode | undefined;
  readonly yogaNode?: {
    getComputedLeft(): number;
    getComputedTop(): number;
    getComputedHeight(): number;
    /** Yoga's border width at an edge (1 top, 3 bottom). */
    getComputedBorder?(edge: number): number;
  };
  /** Ink's Box style: `overflow`/`overflowY: 'hidden'` clips what lies outside the Box. */
  readonly style?: { readonly overflow?: string; readonly overflowY?: string };
}

/** An element's cell in the frame, and the frame's height in rows. */
export interface FramePosition {
  readonly top: number;
  readonly left: number;
  readonly frameRows: number;
  /**
   * The element's rows that an ancestor clipping its overflow (a viewport) still shows, counted
   * from the element's top; absent when nothing clips it.
   */
  readonly visible?: { readonly top: number; readonly rows: number };
}

const EDGE_TOP = 1;
const EDGE_BOTTOM = 3;

const clips = (node: LaidOutNode): boolean => node.style?.overflowY === 'hidden' || node.style?.overflow === 'hidden';

/**
 * The element's top-left cell, counted from the frame's top-left, and the frame's rows (the root's
 * height: Ink writes that many lines). Null while it is not laid out.
 *
 * @example framePosition(ref.current) // { top: 2, left: 4, frameRows: 12 }
 */
export function framePosition(node: LaidOutNode | null | undefined): FramePosition | null {
  if (!node?.yogaNode) return null;
  // Walk up once: each ancestor's top relative to the element, and the clipping ones' inner rows.
  let top = 0;
  let left = 0;
  let at: LaidOutNode | undefined = node;
  let root: LaidOutNode = node;
  const windows: { from: number; to: number }[] = [];
  while (at?.yogaNode) {
    const yoga = at.yogaNode;
    if (at !== node && clips(at)) {
      // Its top lies `top` rows above the element's (the offsets summed so far are from it down).
      const from = -top + (yoga.getComputedBorder?.(EDGE_TOP) ?? 0);
      const to = -top + yoga.getComputedHeight() - (yoga.getComputedBorder?.(EDGE_BOTTOM) ?? 0);
      windows.push({ from, to });
    }
    top += yoga.getComputedTop();
    left += yoga.getComputedLeft();
    root = at;
    at = at.parentNode;
  }
  const frameRows = root.yogaNode?.getComputedHeight() ?? 0;
  if (!Number.isFinite(top) || !Number.isFinite(left) || frameRows <= top) return null;
  const position = { top: Math.round(top), left: Math.round(left), frameRows: Math.round(frameRows) };
  if (windows.length === 0) return position;
  const height = Math.round(node.yogaNode.getComputedHeight());
  const from = Math.max(0, ...windows.map((w) => Math.round(w.from)));
  const to = Math.min(height, ...windows.map((w) => Math.round(w.to)));
  return { ...position, visible: { top: Math.min(from, height), rows: Math.max(0, to - from) } };
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
