/**
 * `termsight/ink`: pictures in Ink apps. `<TerminalProvider>` probes the terminal once while Ink
 * owns stdin; `<Image>` draws at its place in the layout with the report's protocol. Importing
 * this entry loads `ink` and `react` (optional peer dependencies); `termsight` itself never does.
 */

export { type FollowOptions, followInsideInk, resizedReport } from './follow.js';
export { chooseProtocol, Image, type ImageProps, type ImageProtocol } from './image.js';
export {
  askInsideInk,
  type GuardedStdin,
  guardInput,
  type InkAskOptions,
  type InkProbeOptions,
  type InputGuard,
  probeInsideInk,
} from './input-guard.js';
export { type InkRoot, type Overlay, type OverlayEntry, type OverlayOutput, overlayFor } from './overlay.js';
export {
  inkPlan,
  type ObjectFit,
  type PictureBox,
  type PicturePlan,
  planPicture,
  renderOptionsFor,
} from './picture.js';
export { drawAt, type FramePosition, framePosition, type LaidOutNode } from './position.js';
export {
  TerminalProvider,
  type TerminalProviderProps,
  useTerminalAsk,
  useTerminalReport,
  useTerminalSize,
} from './provider.js';
export { frameDelay, type ImageSource, type LoadedSource, loadSource, type SourceFrame } from './source.js';
