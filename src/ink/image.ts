/**
 * `<Image>`: a picture in an Ink layout. Ink lays out a Box of the picture's cell size. Text
 * pictures (braille, blocks, and kitty's Unicode placeholders inside tmux) are the Box's text, so
 * Ink draws, moves and clears them itself. Pixel pictures (kitty, iTerm2, sixel) are written after
 * Ink's frame at the Box's cell by the overlay (overlay.ts); kitty images carry one id per
 * component and are deleted on unmount and at exit. See docs/ink.md.
 */
import { Box, type DOMElement, Text, useStdout } from 'ink';
import { createElement, type ReactNode, useEffect, useMemo, useRef } from 'react';
import { wrapForMultiplexer } from '../core/wrap.js';
import { isProtocol, type Protocol } from '../env/protocol.js';
import { kittyDelete, kittyImageId } from '../render/kitty.js';
import { pictureWrap } from '../report/picture-wrap.js';
import type { Report } from '../report/types.js';
import { overlayFor } from './overlay.js';
import { type ObjectFit, type PicturePlan, planPicture } from './picture.js';
import { framePosition } from './position.js';
import { useTerminalReport } from './provider.js';
import { type ImageSource, loadSource } from './source.js';

/** `protocol` values: termsight's names, `auto` (the report's), and ink-picture's `halfBlock`. */
export type ImageProtocol = Protocol | 'auto' | 'halfBlock';

/** `<Image>`'s props (ink-picture's names where they fit). */
export interface ImageProps {
  /** A file path, the file's bytes (PNG, JPEG, GIF: the first frame), or an RGBA raster. */
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
 * The protocol an `<Image>` uses.
 *
 * @example chooseProtocol('halfBlock', report) // 'blocks'
 */
export function chooseProtocol(asked: ImageProtocol | undefined, report: Report | null): Protocol {
  if (asked === 'halfBlock') return 'blocks';
  if (asked !== undefined && asked !== 'auto' && isProtocol(asked)) return asked;
  return report?.graphics ?? 'braille';
}

/** How long after mounting to draw when no frame of Ink's has come since (Ink throttles at 32 ms). */
const FIRST_DRAW_MS = 50;

function usePixels(plan: PicturePlan | null, report: Report | null, ref: { current: DOMElement | null }): void {
  const { stdout } = useStdout();
  useEffect(() => {
    if (plan === null || (plan.place === '' && plan.upload === '')) return;
    const overlay = overlayFor(stdout as unknown as Parameters<typeof overlayFor>[0]);
    if (plan.upload !== '') overlay.writeRaw(plan.upload);
    const remove =
      plan.place === ''
        ? () => {}
        : overlay.add({
            position: () => framePosition(ref.current as unknown as Parameters<typeof framePosition>[0]),
            place: plan.place,
            redrawEveryFrame: plan.protocol !== 'kitty',
          });
    // Ink may have written this frame before the effect ran: draw unless a frame comes first.
    const timer = setTimeout(() => overlay.paint(false), FIRST_DRAW_MS);
    const mux = pictureWrap(report?.multiplexer, true);
    const deleteBytes = plan.imageId === undefined ? '' : wrapForMultiplexer(kittyDelete(plan.imageId), mux);
    const onExit = (): void => {
      if (deleteBytes !== '') overlay.writeRaw(deleteBytes);
    };
    process.once('exit', onExit);
    return () => {
      clearTimeout(timer);
      process.off('exit', onExit);
      remove();
      onExit();
    };
  }, [plan, report, stdout, ref]);
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
  const plan = useMemo(
    () =>
      report !== null && 'raster' in loaded
        ? planPicture(loaded.raster, protocol, { columns: width, rows: height, objectFit }, report, imageId)
        : null,
    [report, loaded, protocol, width, height, objectFit, imageId],
  );
  usePixels(plan, report, ref);
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
