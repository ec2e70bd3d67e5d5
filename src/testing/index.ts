/**
 * `termsight/testing`: a scripted terminal for application tests (in-memory TTY-like streams that
 * answer the probe as a recorded real terminal did, or as a database row says where the repository
 * has no recording), and `drawn()`, which reads back what a picture's bytes drew. Loads nothing
 * beyond Node and termsight's own terminal database. See docs/probe.md, "termsight/testing".
 */
export { type Drawing, drawn, type KittyPlacement } from './drawn.js';
export { RECORDINGS, type Recording } from './recordings.js';
export {
  ASSUMED_CELL,
  SCRIPTED_TERMINALS,
  type ScriptedInput,
  type ScriptedOutput,
  type ScriptedTerminal,
  type ScriptedTerminalName,
  type ScriptedTerminalOptions,
  scriptedTerminal,
  type TerminalScript,
  terminalScript,
} from './terminal.js';
