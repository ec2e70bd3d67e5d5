/**
 * Pixel pictures over Ink's frames. Ink rewrites its whole frame (erase lines, write the text) on
 * every change, which wipes iTerm2 and sixel pictures and leaves kitty's where they were. So the
 * overlay wraps the output's `write`: after each write of Ink's that ends a frame (Ink ends every
 * frame but a full-screen one with a newline, leaving the cursor at the start of the line below),
 * it draws every registered picture at its element's cell, the cursor saved and restored around it.
 * One overlay per output stream, shared by every `<Image>` on it.
 */
import type { VisibleRows } from '../render/crop.js';
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
  on?(event: 'resize', listener: () => void): unknown;
  off?(event: 'resize', listener: () => void): unknown;
}

/** The overlay on one output. */
export interface Overlay {
  /** Adds a picture; returns its removal. */
  add(entry: OverlayEntry): () => void;
  /** Writes bytes that are not a frame (uploads, deletes) without triggering a redraw. */
  writeRaw(bytes: string): void;
  /** Draws every picture now (after a change the frame did not show, e.g. a new picture). */
  paint(force?: boolean): void;
}

const overlays = new WeakMap<object, Overlay>();

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
  const last = new Map<OverlayEntry, string>();
  const hadOwn = Object.getOwnPropertyDescriptor(output, 'write');
  const write = output.write.bind(output);
  let own = false;
  let forced = false;

  const raw = (bytes: string): void => {
    own = true;
    try {
      write(bytes);
    } finally {
      own = false;
    }
  };

  const paint = (force = false): void => {
    let out = '';
    for (const entry of entries) {
      const position = entry.position();
      if (position === null) continue;
      const visible = position.visible;
      const key = `${position.top},${position.left},${position.frameRows},${visible?.top},${visible?.rows},${entry.version?.() ?? 0}`;
      if (!force && !forced && !entry.redrawEveryFrame && last.get(entry) === key) continue;
      last.set(entry, key);
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
    forced = false;
    if (out !== '') raw(out);
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
      if (!own && entries.size > 0) {
        const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('latin1');
        if (text.endsWith('\n')) paint();
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
        if (entries.size === 0) {
          overlays.delete(output);
          output.off?.('resize', onResize);
          if (hadOwn) Object.defineProperty(output, 'write', hadOwn);
          else delete (output as unknown as Record<string, unknown>).write;
        }
      };
    },
    writeRaw: raw,
    paint,
  };
  overlays.set(output, overlay);
  return overlay;
}
