/**
 * Drawing from a plan, as the front door (`termsight`) offers it: `toTerminal`, `flow` and `frame`
 * take a `Plan` (or, as `termsight/render` does, a protocol and options). The encoders load on the
 * first call: these go through render/front.ts, which the build loads lazily (docs/architecture.md,
 * "Load cost").
 */
import type { Raster } from '../core/raster.js';
import type { Protocol } from '../env/protocol.js';
import type { FlowResult, FrameOptions, FrameResult } from '../render/frame.js';

export type { FlowResult, FrameResult } from '../render/frame.js';

import * as drawing from '../render/front.js';
import type { RenderOptions } from '../render/options.js';
import { type DrawOptions, pictureFiles, renderOptionsOf } from './options.js';
import type { Plan } from './types.js';

/** What `frame` adds to a plan's options: the previous frame's handle, and whether to make room first. */
export type PlanFrameOptions = DrawOptions & Pick<FrameOptions, 'previous' | 'reserve'>;

function resolved(how: Plan | Protocol, options: RenderOptions | undefined): [Protocol, RenderOptions] {
  if (typeof how === 'string') return [how, options ?? {}];
  return [how.protocol, { ...renderOptionsOf(how, pictureFiles), ...options }];
}

/**
 * The bytes that show `raster` at the cursor as `plan` says (`planDrawing`), or with `protocol` and
 * render options (as `termsight/render`'s `toTerminal`): fitted into the box, resampled, encoded,
 * wrapped for the multiplexer.
 *
 * @example process.stdout.write(toTerminal(raster, planDrawing(report, { columns: 40 })) + '\n')
 */
export function toTerminal(raster: Raster, plan: Plan, options?: DrawOptions): string;
export function toTerminal(raster: Raster, protocol: Protocol, options?: RenderOptions): string;
export function toTerminal(raster: Raster, how: Plan | Protocol, options?: RenderOptions): string {
  const [protocol, all] = resolved(how, options);
  return drawing.toTerminal(raster, protocol, all);
}

/**
 * A picture drawn once at the cursor, the cursor left at the start of the line below it (render's
 * `flow`), as `plan` says or with a protocol and options.
 *
 * @example process.stdout.write(flow(raster, plan).output + 'next line')
 */
export function flow(raster: Raster, plan: Plan, options?: DrawOptions): FlowResult;
export function flow(raster: Raster, protocol: Protocol, options?: RenderOptions): FlowResult;
export function flow(raster: Raster, how: Plan | Protocol, options?: RenderOptions): FlowResult {
  const [protocol, all] = resolved(how, options);
  return drawing.flow(raster, protocol, all);
}

/**
 * One frame drawn in place (render's `frame`), as `plan` says (synchronized output where the
 * terminal has it) or with a protocol and options; pass the returned handle as `previous` next time.
 *
 * @example let f = frame(r, plan); f = frame(r2, plan, { previous: f.handle })
 */
export function frame(raster: Raster, plan: Plan, options?: PlanFrameOptions): FrameResult;
export function frame(raster: Raster, protocol: Protocol, options?: FrameOptions): FrameResult;
export function frame(raster: Raster, how: Plan | Protocol, options?: FrameOptions): FrameResult {
  const [protocol, all] = resolved(how, options);
  return drawing.frame(raster, protocol, all);
}
