/**
 * `probeTerminal` as the front door (`termsight`) offers it: the probe's driver and the tmux
 * client are loaded on the first call, not at import (see probe/front.ts and docs/architecture.md,
 * "Load cost").
 */
import type { ProbeTerminalOptions } from './probe-terminal.js';
import type { Report } from './types.js';

/**
 * Probes the terminal (and, inside tmux, asks tmux with `askTmux`) and resolves the report:
 * `resolveReport(runtime, await probeTty(options), { tmux })`. By default the report is for
 * stdout (`stream: 'stdout'`): when stdout is not a terminal nothing is written and the report
 * says why. With `tmuxPassthrough`, inside tmux it first turns `allow-passthrough` on for this
 * pane only. (Loaded on the first call: see report/probe-terminal.ts.)
 *
 * @example const report = await probeTerminal(); if (report.graphics === 'kitty') draw();
 */
export async function probeTerminal(options: ProbeTerminalOptions = {}): Promise<Report> {
  const probe = await import('./probe-terminal.js');
  return probe.probeTerminal(options);
}
