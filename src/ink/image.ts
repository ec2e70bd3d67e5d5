/**
 * `<Image>`: a picture in an Ink layout. Ink lays out a Box of the picture's cell size. Text
 * pictures (braille, blocks, and kitty's Unicode placeholders inside tmux) are the Box's text, so
 * Ink draws, moves and clears them itself. Pixel pictures (kitty, iTerm2, sixel) are written after
 * Ink's frame at the Box's cell by the overlay (overlay.ts); kitty images carry one id per
 * component and are deleted on unmount and at exit. A GIF plays natively where the terminal can
 * (the CLI's `nativeAnimation`): one kitty upload the terminal runs, or iTerm2 given the file;
 * elsewhere its frames are redrawn. See docs/ink.md.
 */
import { Box, type DOMElement, Text, useStdout } from 'ink';
import { createElement, type ReactNode, useEffect, useMemo, useRef, useState } from 'react';
import { wrapForMultiplexer } from '../core/wrap.js';
import { planDrawing } from '../draw/plan.js';
import { isProtocol, type Protocol } from '../env/protocol.js';
import { kittyDelete, kittyImageId } from '../render/pixels/kitty.js';
import type { Report } from '../report/types.js';
import { type InkRoot, type OverlayOutput, overlayFor } from './overlay.js';
import { type ObjectFit, type PicturePlan, planAnimation, planPicture } from './picture.js';

/** The protocol asked for by `<Image protocol>`: a protocol, half blocks, or none (`auto`: the plan decides). */
function askedProtocol(asked: ImageProtocol | undefined): Protocol | undefined {
  if (asked === 'halfBlock') return 'blocks';
  return asked !== undefined && asked !== 'auto' && isProtocol(asked) ? asked : undefined;
}

import { framePosition } from './position.js';
import { useTerminalReport } from './provider.js';
import { type ImageSource, type LoadedSource, loadSource } from './source.js';

/** `protocol` values: termsight's names, `auto` (the report's), and ink-picture's `halfBlock`. */
export type ImageProtocol = Protocol | 'auto' | 'halfBlock';

/** `<Image>`'s props (ink-picture's names where they fit). */
export interface ImageProps {
  /** A file path, the file's bytes (PNG, JPEG, GIF: played with its frame delays), or an RGBA raster. */
  readonly src: ImageSource;
  /** The box in cells; with one of them the other follows the picture's aspect. */
  readonly width?: number;
  readonly height?: number;
  /** Shown instead when the picture cannot be read or decoded. */
  readonly alt?: string;
  /** `contain` (default: whole, aspect kept), `fill` (stretched), `cover` (cropped to fill). */
  readonly objectFit?: ObjectFit;
  /** Default `auto`: the terminal report's protocol (braille when it has none). */
  readonly protocol?: ImageProtocol;
}

/**
 * The protocol an `<Image>` uses: the one asked for, else its drawing plan's (braille before the
 * report is known).
 *
 * @example chooseProtocol('halfBlock', report) // 'blocks'
 */
export function chooseProtocol(asked: ImageProtocol | undefined, report: Report | null): Protocol {
  const protocol = askedProtocol(asked);
  if (protocol !== undefined) return protocol;
  return report === null ? 'braille' : planDrawing(report, { env: process.env }).protocol;
}

/** Ink's root DOM node above `node` (the overlay hooks its commits). */
function rootOf(node: DOMElement | null): InkRoot {
  let at: DOMElement | undefined = node ?? undefined;
  while (at?.parentNode) at = at.parentNode;
  return (at ?? {}) as InkRoot;
}

/**
 * Pixel pictures on the overlay. The entry lives as long as the picture has pixels (and its kitty
 * image is deleted when it goes, on unmount and at exit); each new plan (a new frame of a GIF, a
 * new cell size after a resize) uploads its pixels and is drawn again at once.
 */
function usePixels(plan: PicturePlan | null, ref: { current: DOMElement | null }): void {
  const { stdout } = useStdout();
  const current = useRef(plan);
  current.current = plan;
  const version = useRef(0);
  const pixels = plan !== null && (plan.place !== '' || plan.upload !== '');
  const placed = pixels && plan.place !== '';
  const redrawEveryFrame = plan !== null && plan.protocol !== 'kitty';
  const imageId = plan?.imageId;
  const mux = plan?.wrap ?? null;
  const output = stdout as unknown as OverlayOutput;
  // Made while rendering, before Ink writes the frame this render leads to: the overlay must have
  // seen that frame to know when the picture's layout is on the screen.
  useState(() => overlayFor(output));

  useEffect(() => {
    if (!pixels) return;
    if (placed) overlayFor(output).watch(rootOf(ref.current));
    const remove = placed
      ? overlayFor(output).add({
          position: () => framePosition(ref.current as unknown as Parameters<typeof framePosition>[0]),
          place: (visible) => current.current?.placeVisible(visible) ?? '',
          redrawEveryFrame,
          version: () => version.current,
        })
      : () => {};
    const deleteBytes = imageId === undefined ? '' : wrapForMultiplexer(kittyDelete(imageId), mux);
    const onExit = (): void => {
      if (deleteBytes !== '') overlayFor(output).writeRaw(deleteBytes);
    };
    process.once('exit', onExit);
    return () => {
      process.off('exit', onExit);
      remove();
      onExit();
    };
    // The entry reads the plan through `current`: it is replaced only when its kind changes.
  }, [pixels, placed, redrawEveryFrame, imageId, mux, output, ref]);

  useEffect(() => {
    if (plan === null || !pixels) return;
    const o = overlayFor(output);
    if (plan.upload !== '') o.writeRaw(plan.upload);
    version.current += 1;
    // Ink may have written the frame with the new Box before this effect ran, or not yet (its
    // writes are throttled): the overlay draws now only if that frame is on the screen, and
    // otherwise with the frame when it comes.
    const timer = setTimeout(() => o.paint(false), 0);
    return () => clearTimeout(timer);
  }, [plan, pixels, output]);
}

/**
 * The frame of an animation to show now: advances after each frame's delay, for `loops` times
 * (then stays on the last frame), and stops on unmount. Not at all when the terminal plays it.
 */
function useFrame(loaded: LoadedSource, redraw: boolean): number {
  const [index, setIndex] = useState(0);
  const frames = redraw && 'frames' in loaded ? loaded.frames : undefined;
  const loops = 'loops' in loaded ? (loaded.loops ?? 1) : 1;
  useEffect(() => {
    setIndex(0);
    if (!frames || frames.length < 2) return;
    let at = 0;
    let loop = 0;
    let timer: NodeJS.Timeout;
    const next = (): void => {
      const delay = frames[at]?.delayMs ?? 100;
      timer = setTimeout(() => {
        if (at === frames.length - 1) {
          loop += 1;
          if (loop >= loops) return;
        }
        at = (at + 1) % frames.length;
        setIndex(at);
        next();
      }, delay);
    };
    next();
    return () => clearTimeout(timer);
  }, [frames, loops]);
  return frames && index < frames.length ? index : 0;
}

/**
 * A picture at its place in an Ink layout, with the best protocol the terminal has.
 *
 * @example createElement(Image, { src: 'photo.png', width: 40, alt: 'a photo' })
 */
export function Image(props: ImageProps): ReactNode {
  const report = useTerminalReport();
  const ref = useRef<DOMElement>(null);
  const imageId = useMemo(() => kittyImageId(), []);
  const loaded = useMemo(() => loadSource(props.src), [props.src]);
  const protocol = chooseProtocol(props.protocol, report);
  const { width, height, objectFit } = props;
  // A GIF the terminal plays itself (kitty's animation, iTerm2's file): one upload, no frame timer.
  const animation = useMemo(
    () =>
      report !== null && 'gif' in loaded && loaded.gif !== undefined && loaded.frames !== undefined
        ? planAnimation(
            loaded.frames,
            protocol,
            { columns: width, rows: height, objectFit },
            report,
            imageId,
            loaded.gif,
            loaded.loops ?? 1,
            process.env,
          )
        : null,
    [report, loaded, protocol, width, height, objectFit, imageId],
  );
  const frame = useFrame(loaded, animation === null);
  const raster = 'raster' in loaded ? (loaded.frames?.[frame]?.raster ?? loaded.raster) : null;
  const still = useMemo(
    () =>
      animation === null && report !== null && raster !== null
        ? planPicture(raster, protocol, { columns: width, rows: height, objectFit }, report, imageId, process.env)
        : null,
    [animation, report, raster, protocol, width, height, objectFit, imageId],
  );
  const plan = animation ?? still;
  usePixels(plan, ref);
  if ('error' in loaded) {
    return createElement(Box, { width, height }, createElement(Text, null, props.alt ?? ''));
  }
  if (plan === null) return createElement(Box, { width, height });
  return createElement(
    Box,
    { ref, width: plan.columns, height: plan.rows, flexDirection: 'column', flexShrink: 0 },
    ...plan.lines.map((line, row) => createElement(Text, { key: row, wrap: 'truncate' }, line)),
  );
}
