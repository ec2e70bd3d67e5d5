/**
 * termsight: find out what a terminal can really do, then use it correctly.
 *
 * Layers, each its own folder: `env` (rules over an explicit runtime), `probe` (ask the terminal),
 * `report` (one answer per question, with its reason), `render` (pictures), `capability`
 * (sequences as data), `decode` (image files). The drop-ins live at their own subpaths:
 * `termsight/supports-color`, `termsight/supports-hyperlinks`, `termsight/terminal-link`.
 */

// env: the runtime and the environment's rules
export { processRuntime, envValue, isRemote, type Env, type Runtime, type TTYState } from './env/runtime.js';
export { PROTOCOLS, isProtocol, isGraphicsProtocol, type Protocol } from './env/protocol.js';
export { detect, explainDetect, placements, explainPlacements, type Detection } from './env/detect.js';
export { GRAPHICS_RULES, GRAPHICS_DEFAULT, type GraphicsRule } from './env/graphics-rules.js';
export { PLACEMENT_RULES } from './env/placement-rules.js';
export { graphicsOverride, GRAPHICS_OVERRIDE, type GraphicsOverride } from './env/override.js';
export { multiplexerFromEnv, type MultiplexerHint } from './env/multiplexer.js';
export { matches, compareVersions, type Condition } from './env/condition.js';
export { firstMatch, describeRule, type Rule } from './env/rule.js';

// probe: ask the terminal
export { probeQuery, planQuery, QUERIES, type QueryOptions, type QueryPlan } from './probe/query.js';
export { createScanner, scan, flush, type ScanToken, type ScannerState } from './probe/scanner.js';
export { parseReply, type Reply } from './probe/replies.js';
export { fromProbe, probeComplete, factsFromReplies, protocolFromFacts } from './probe/classify.js';
export { createProbe, step, probeResult, probeWakeAt, defaultBudgetMs, type ProbeOptions, type ProbeState } from './probe/reducer.js';
export { runProbe, probeTerminal, type DriverOptions, type TraceEvent } from './probe/driver.js';
export { escapeBytes } from './probe/escape.js';
export type { ProbeEvent, ProbeAction } from './probe/events.js';
export type { ProbeFacts, ReplyRecord, TerminalName } from './probe/facts.js';

// report: one answer per question, with its reason
export { resolve, type ResolveOptions } from './report/resolve.js';
export type { Report, ReportField, Why, WhySource, MultiplexerInfo } from './report/types.js';

// render: pictures from an RGBA raster
export { validateRaster, isOpaque, type Raster } from './render/raster.js';
export type { RenderOptions, ColorDepth } from './render/options.js';
export { resize, fitPixels } from './render/resize.js';
export { toTerminal, renderedCells, reachRows, backend, MIN_CELL_HEIGHT, type Backend } from './render/backend.js';
export { flow, frame, clearFrame, endFrame, type FlowResult, type FrameHandle, type FrameOptions, type FrameResult } from './render/frame.js';
export { encodeKitty, kittyStore, kittyPlace, kittyDelete, kittyImageId } from './render/kitty.js';
export { encodeIterm2 } from './render/iterm2.js';
export { encodePng } from './render/png.js';
export { encodeSixel } from './render/sixel.js';
export { encodeBraille } from './render/braille.js';
export { encodeBlocks } from './render/blocks.js';
export { passthrough } from './render/passthrough.js';

// capability: sequences as data
export * from './capability/index.js';

// decode: image files into rasters
export { decodeImage, DecodeError, type DecodedImage } from './decode/index.js';
