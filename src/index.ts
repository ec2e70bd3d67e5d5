/**
 * termsight: find out what a terminal can really do, then use it correctly.
 *
 * Layers, each its own folder: `env` (rules over an explicit runtime), `probe` (ask the terminal),
 * `report` (one answer per question, with its reason), `render` (pictures), `capability`
 * (sequences as data), `decode` (image files). The drop-ins live at their own subpaths:
 * `termsight/supports-color`, `termsight/supports-hyperlinks`, `termsight/terminal-link`.
 */

// capability: sequences as data
export * from './capability/index.js';
// render: pictures from an RGBA raster
export { isOpaque, type Raster, validateRaster } from './core/raster.js';
// decode: image files into rasters
export { type DecodedImage, DecodeError, decodeImage } from './decode/index.js';
export { type Condition, compareVersions, matches } from './env/condition.js';
export { type Detection, detect, explainDetect, explainPlacements, placements } from './env/detect.js';
export { GRAPHICS_DEFAULT, GRAPHICS_RULES, type GraphicsRule } from './env/graphics-rules.js';
export { type MultiplexerHint, multiplexerFromEnv } from './env/multiplexer.js';
export { GRAPHICS_OVERRIDE, type GraphicsOverride, graphicsOverride } from './env/override.js';
export { PLACEMENT_RULES } from './env/placement-rules.js';
export { isGraphicsProtocol, isProtocol, PROTOCOLS, type Protocol } from './env/protocol.js';
export { describeRule, firstMatch, type Rule } from './env/rule.js';
// env: the runtime and the environment's rules
export { type Env, envValue, isRemote, processRuntime, type Runtime, type TTYState } from './env/runtime.js';
export { factsFromReplies, fromProbe, probeComplete, protocolFromFacts } from './probe/classify.js';
export { type DriverOptions, probeTty, runProbe, type TraceEvent } from './probe/driver.js';
export { escapeBytes } from './probe/escape.js';
export type { ProbeAction, ProbeEvent } from './probe/events.js';
export { restoreTerminal } from './probe/exit-guard.js';
export type { ProbeFacts, ReplyRecord, TerminalName } from './probe/facts.js';
// probe: ask the terminal
export { planQuery, probeQuery, QUERIES, type QueryOptions, type QueryPlan } from './probe/query.js';
export {
  createProbe,
  defaultBudgetMs,
  type ProbeOptions,
  type ProbeState,
  probeNextTickAt,
  probeResult,
  stepProbe,
} from './probe/reducer.js';
export { parseReply, type Reply } from './probe/replies.js';
export { createScanner, flushScanner, type ScannerState, type ScanToken, scanReplies } from './probe/scanner.js';
export { type Backend, backend, MIN_CELL_HEIGHT, reachRows, renderedCells, toTerminal } from './render/backend.js';
export { encodeBlocks } from './render/blocks.js';
export { encodeBraille } from './render/braille.js';
export {
  clearFrame,
  endFrame,
  type FlowResult,
  type FrameHandle,
  type FrameOptions,
  type FrameResult,
  flow,
  frame,
} from './render/frame.js';
export { encodeIterm2 } from './render/iterm2.js';
export { encodeKitty, kittyDelete, kittyImageId, kittyPlace, kittyStore } from './render/kitty.js';
export type { ColorDepth, RenderOptions } from './render/options.js';
export { passthrough } from './render/passthrough.js';
export { encodePng } from './render/png.js';
export { fitPixels, resize } from './render/resize.js';
export { encodeSixel } from './render/sixel.js';
// report: one answer per question, with its reason
export { probeTerminal } from './report/probe-terminal.js';
export { type ResolveOptions, resolve } from './report/resolve.js';
export type { MultiplexerInfo, Report, ReportField, Why, WhySource } from './report/types.js';
