/**
 * The probe and the report in one call, for applications that draw to stdout: ask the terminal,
 * then resolve one answer per question. It lives in `report` because it combines the two layers
 * (the probe below never imports the report).
 */
import { processRuntime } from '../env/runtime.js';
import { type DriverOptions, probeTty } from '../probe/driver.js';
import { allowTmuxPassthrough, askTmux } from '../probe/tmux-client.js';
import { type ResolveOptions, resolveReport } from './resolve.js';
import type { Report } from './types.js';

/** Options for `probeTerminal`: the driver's, and whether to turn tmux passthrough on first. */
export interface ProbeTerminalOptions extends DriverOptions {
  /**
   * Inside tmux, turn `allow-passthrough` on for the current pane only (`allowTmuxPassthrough`)
   * before probing, so pictures reach the outer terminal. Default false: termsight never changes
   * tmux unless asked.
   */
  readonly tmuxPassthrough?: boolean;
}

/**
 * Probes the terminal (and, inside tmux, asks tmux with `askTmux`) and resolves the report:
 * `resolveReport(runtime, await probeTty(options), { tmux })`. By
 * default the report is for stdout (`stream: 'stdout'`): when stdout is not a terminal nothing is
 * written and the report says why.
 *
 * @example const report = await probeTerminal(); if (report.graphics === 'kitty') draw();
 */
export async function probeTerminal(options: ProbeTerminalOptions = {}): Promise<Report> {
  const runtime = options.runtime ?? processRuntime();
  const stream = options.stream ?? 'stdout';
  // On request only: passthrough on for this pane, before the probe, so its wrapped queries pass.
  if (options.tmuxPassthrough) await allowTmuxPassthrough(runtime.env);
  // Inside tmux, tmux's own format answers (no escape traffic) beside the probe.
  const [facts, tmux] = await Promise.all([probeTty({ ...options, runtime, stream }), askTmux(runtime.env)]);
  const resolveOptions: ResolveOptions = { stream, tmux };
  return resolveReport(runtime, facts, resolveOptions);
}
