/**
 * Pixel pictures over Ink's frames. Ink rewrites its whole frame (erase lines, write the text) on
 * every change, which wipes iTerm2 and sixel pictures and leaves kitty's where they were. So the
 * overlay wraps the output's `write`: after each write of Ink's that ends a frame (Ink ends every
 * frame but a full-screen one with a newline, leaving the cursor at the start of the line below),
 * it draws every registered picture at its element's cell, the cursor saved and restored around it.
 * One overlay per output stream, shared by every `<Image>` on it; it stays on the stream once made
 * (without pictures it only notes the height of Ink's last frame, which a picture added later needs).
 *
 * Ink computes its layout on every commit but writes frames throttled (32 ms), so between a commit
 * and its frame the layout is ahead of the screen. A picture is therefore drawn only where the frame
 * on the screen is the one its layout describes: at a frame's write, when that frame is as tall as
 * the layout (a write of `<Static>` or console text ends a line too, but is not this frame); at any
 * other time (a new picture, a new GIF frame) only while the last frame written is as tall as the
 * layout, and then once more at the next frame (the layout may have changed the same height).
 */
import type { VisibleRows } from '../render/geometry/visible.js';
import { drawAt, type FramePosition } from './position.js';

/** One picture on the overlay. */
export interface OverlayEntry {
  /** Where its element is now (null: not laid out; skip). */
  position(): FramePosition | null;
  /**
   * The bytes that draw it at the cursor: the whole picture, or a function of the rows a viewport
   * still shows (drawn at the first of them; '' draws nothing).
   */
  readonly place: string | ((visible: VisibleRows) => string);
  /** Whether to draw it again when nothing moved (cells pictures are wiped by Ink's erase; kitty's stay). */
  readonly redrawEveryFrame: boolean;
  /** Changes when the picture itself changes (a new frame of a GIF): it is drawn again even where it was. */
  version?(): number;
}

/** The output the overlay wraps. */
export interface OverlayOutput {
  write(chunk: string | Uint8Array, ...rest: unknown[]): boolean;
  /** The terminal's rows: a frame this tall or taller is drawn by Ink from the top, without a final newline. */
  readonly rows?: number;
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** The part of Ink's root DOM node the overlay hooks: what Ink calls after every commit. */
export interface InkRoot {
  onRender?: (() => void) | undefined;
}

/** The overlay on one output. */
export interface Overlay {
  /** Adds a picture; returns its removal. */
  add(entry: OverlayEntry): () => void;
  /** Writes bytes that are not a frame (uploads, deletes) without triggering a redraw. */
  writeRaw(bytes: string): void;
  /**
   * Draws the pictures after each of Ink's commits too (`root` is Ink's root DOM node, whose
   * `onRender` Ink calls after every commit): a commit that moves only blank cells (a Box of a
   * pixel picture) changes no text, so Ink writes no frame, yet the picture must follow.
   */
  watch(root: InkRoot): void;
  /**
   * Draws every picture whose frame is on the screen now (after a change the frame did not show,
   * e.g. a new picture); the others are drawn with the frame that shows them.
   */
  paint(force?: boolean): void;
}

const overlays = new WeakMap<object, Overlay>();
const watched = new WeakSet<InkRoot>();

/** Marks a picture drawn between frames: the next frame draws it again. */
const PROVISIONAL = '~';

/** The lines a write of Ink's frame holds (it ends each, the last one included, with a newline). */
function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Every row of a picture (clamped to its rows by whoever draws it). */
const ALL_ROWS: VisibleRows = { top: 0, rows: Number.MAX_SAFE_INTEGER };

/**
 * The overlay of `output`, created on first use.
 *
 * @example const remove = overlayFor(stdout).add({ position, place, redrawEveryFrame: true })
 */
export function overlayFor(output: OverlayOutput): Overlay {
  const existing = overlays.get(output);
  if (existing) return existing;
  const entries = new Set<OverlayEntry>();
  // What each picture was last drawn as: its place's key, with PROVISIONAL when drawn between frames.
  const last = new Map<OverlayEntry, string>();
  const write = output.write.bind(output);
  let own = false;
  let forced = false;
  // Rows of the last frame Ink wrote (the lines of its last write ending a line); null before one.
  let written: number | null = null;

  const raw = (bytes: string): void => {
    own = true;
    try {
      write(bytes);
    } finally {
      own = false;
    }
  };

  /** Draws the pictures laid out in a frame of `frameRows`; `atFrame` when that frame was just written. */
  const draw = (frameRows: number | null, atFrame: boolean, force: boolean): void => {
    let out = '';
    // Whether this was the frame of the pictures' layout (a resize's redraw is done only then).
    let theirs = false;
    for (const entry of entries) {
      const position = entry.position();
      if (position === null) continue;
      // Laid out for a frame not on the screen (yet): the write of that frame draws it.
      if (frameRows !== null && position.frameRows !== frameRows) continue;
      theirs = true;
      // As tall as the terminal: Ink draws it from the top without the newline the cursor math needs.
      if (output.rows !== undefined && output.rows > 0 && position.frameRows >= output.rows) continue;
      const visible = position.visible;
      const key = `${position.top},${position.left},${position.frameRows},${visible?.top},${visible?.rows},${entry.version?.() ?? 0}`;
      const before = last.get(entry);
      const same = before === key || (!atFrame && before === key + PROVISIONAL);
      // Ink's frame wipes cells pictures (its erase), and a resize may clear the screen: drawn
      // again at every frame then; between frames only what changed.
      const again = atFrame && (forced || entry.redrawEveryFrame);
      if (!force && !again && same) continue;
      last.set(entry, atFrame ? key : key + PROVISIONAL);
      if (typeof entry.place === 'string' || visible === undefined) {
        out += drawAt(position, typeof entry.place === 'string' ? entry.place : entry.place(ALL_ROWS));
        continue;
      }
      const bytes = entry.place(visible);
      if (bytes === '') continue;
      // At the first visible row; a picture scrolled out entirely may still send bytes (kitty's
      // hide), which go anywhere inside the frame.
      const row =
        visible.rows > 0 ? position.top + visible.top : Math.max(0, Math.min(position.top, position.frameRows - 1));
      out += drawAt({ ...position, top: row }, bytes);
    }
    if (atFrame && theirs) forced = false;
    if (out !== '') raw(out);
  };

  // After a commit, once its synchronous part (Ink's layout, and its frame unless throttled) is done.
  let queued = false;
  const afterCommit = (): void => {
    if (queued) return;
    queued = true;
    queueMicrotask(() => {
      queued = false;
      if (entries.size > 0) draw(written, false, false);
    });
  };

  const onResize = (): void => {
    // Ink redraws on resize; the next frame draws every picture again wherever it lands.
    forced = true;
  };

  Object.defineProperty(output, 'write', {
    configurable: true,
    writable: true,
    value(chunk: string | Uint8Array, ...rest: unknown[]): boolean {
      const ok = write(chunk, ...rest);
      if (!own) {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
        if (text.endsWith('\n')) {
          written = lineCount(text);
          if (entries.size > 0) draw(written, true, false);
        }
      }
      return ok;
    },
  });
  output.on?.('resize', onResize);

  const overlay: Overlay = {
    add(entry) {
      entries.add(entry);
      return () => {
        entries.delete(entry);
        last.delete(entry);
      };
    },
    watch(root) {
      const inner = root.onRender;
      if (watched.has(root) || typeof inner !== 'function') return;
      watched.add(root);
      root.onRender = () => {
        inner();
        afterCommit();
      };
    },
    writeRaw: raw,
    // Before any frame was seen (a stream Ink writes whole frames to without a final newline, as
    // in its debug mode) the layout is all there is to go by.
    paint: (force = false) => draw(written, false, force),
  };
  overlays.set(output, overlay);
  return overlay;
}
