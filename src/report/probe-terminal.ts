/**
 * The probe and the report in one call, for applications that draw to stdout: ask the terminal,
 * then resolve one answer per question. It lives in `report` because it combines the two layers
 * (the probe below never imports the report).
 */
import { processRuntime } from '../env/runtime.js';
import { type DriverOptions, probeTty } from '../probe/driver.js';
import { askTmux } from '../probe/tmux-client.js';
import { type ResolveOptions, resolveReport } from './resolve.js';
import type { Report } from './types.js';

/**
 * Probes the terminal (and, inside tmux, asks tmux with `askTmux`) and resolves the report:
 * `resolveReport(runtime, await probeTty(options), { tmux })`. By
 * default the report is for stdout (`stream: 'stdout'`): when stdout is not a terminal nothing is
 * written and the report says why.
 *
 * @example const report = await probeTerminal(); if (report.graphics === 'kitty') draw();
 */
export async function probeTerminal(options: DriverOptions = {}): Promise<Report> {
  const runtime = options.runtime ?? processRuntime();
  const stream = options.stream ?? 'stdout';
  // Inside tmux, tmux's own format answers (no escape traffic) beside the probe.
  const [facts, tmux] = await Promise.all([probeTty({ ...options, runtime, stream }), askTmux(runtime.env)]);
  const resolveOptions: ResolveOptions = { stream, tmux };
  return resolveReport(runtime, facts, resolveOptions);
}
