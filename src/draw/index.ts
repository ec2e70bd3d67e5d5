/**
 * `termsight/draw`: the drawing plan whole. `planDrawing(report, request)` decides every part of a
 * drawing (protocol, box, wrapping for a multiplexer, colour depth, synchronized output, who plays
 * an animation, the encoder's options) with a reason for each; `toTerminal`, `flow` and `frame`
 * draw from a plan; `showImage` is the common case in one call. The front door (`termsight`) has
 * `showImage`, `planDrawing`, `explainPlan` and the plan-taking drawing calls. See docs/draw.md.
 */
export type { CellSize, ColorDepth, Rgb, Wrap } from '../core/primitives.js';
export { explainPlan } from './explain.js';
export { flow, frame, type PlanFrameOptions, toTerminal } from './front.js';
export { type DrawOptions, renderOptionsOf } from './options.js';
export { ITERM2_GIF_LIMIT, lengthInCells, type PlannedReport, planDrawing, playedBy } from './plan.js';
export { type PictureOutput, type ShowImageOptions, type ShownImage, showImage } from './show-image.js';
export type {
  AnimationPlan,
  DrawRequest,
  EncoderPlan,
  Iterm2Plan,
  KittyPlan,
  Length,
  Plan,
  PlanField,
  PlanSource,
  PlanWhy,
  SixelPlan,
  SymbolsPlan,
  TextPlan,
} from './types.js';
