/**
 * termsight: find out what a terminal can really do, then use it correctly.
 *
 * The front door: what an application needs — the runtime (`processRuntime`), the environment's
 * answer (`detect`, `placements`), asking the terminal (`probeTerminal`, `probeTty`), the report
 * (`resolveReport`), the drawing plan (`planDrawing`, `explainPlan`), drawing from it (`showImage`,
 * `toTerminal`, `flow`, `frame`) and capabilities (`supports`, `emit`).
 * Everything else lives at a subpath: `termsight/probe` (query, scanner, reducer),
 * `termsight/render` (encoders), `termsight/decode` (image files), `termsight/rules` (the rule
 * tables), `termsight/capability` (built-ins, sanitizers), `termsight/draw` (the plan whole) and
 * the drop-ins. Importing this entry
 * loads no image decoder and nothing beyond Node; the drawing calls and the probe's driver load on
 * their first call (docs/architecture.md, "Load cost", which also has the layers).
 */
export { capabilities, capability, emit, register, resetCapabilities, supports } from './capability/capability.js';
export type { Capability, CapabilityArgs } from './capability/types.js';
export type { When } from './capability/when.js';
export type { ColorDepth } from './core/primitives.js';
export { type Raster, validateRaster } from './core/raster.js';
export { explainPlan } from './draw/explain.js';
// Take a plan (or a protocol and options); the encoders load on the first call (render/front.ts).
export { type FlowResult, type FrameResult, flow, frame, toTerminal } from './draw/front.js';
export { planDrawing } from './draw/plan.js';
export { showImage } from './draw/show-image.js';
export type { DrawRequest, Plan } from './draw/types.js';
export { type Detection, detect, explainDetect, explainPlacements, placements } from './env/detect.js';
export { isGraphicsProtocol, isProtocol, PROTOCOLS, type Protocol } from './env/protocol.js';
export { type Env, processRuntime, type Runtime, type TTYState } from './env/runtime.js';
export { fromProbe, probeComplete } from './probe/classify.js';
export type { DriverOptions, TraceEvent } from './probe/driver.js';
export { restoreTerminal } from './probe/exit-guard.js';
export type { ProbeFacts } from './probe/facts.js';
// Loaded on the first call (probe/front.ts, report/front.ts).
export { probeTty } from './probe/front.js';
export type { Backend } from './render/backend.js';
export type { FrameHandle, FrameOptions } from './render/frame.js';
// Loaded on the first call in the built package (render/front.ts).
export { backend, clearFrame, endFrame, kittyDelete, renderedCells } from './render/front.js';
export type { RenderOptions } from './render/options.js';
export { probeTerminal } from './report/front.js';
export { type ResolveOptions, resolveReport } from './report/resolve.js';
export type { TerminalSymbolSet } from './report/text-picture.js';
export type { MultiplexerInfo, Report, ReportField, Why, WhySource } from './report/types.js';
