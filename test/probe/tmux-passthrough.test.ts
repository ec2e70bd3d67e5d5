/**
 * Passthrough on request (`allowTmuxPassthrough`, `--tmux-passthrough`, `probeTerminal`'s
 * `tmuxPassthrough`) against a real tmux server on its own socket: `allow-passthrough` turns on for
 * the asking pane only (as chafa does), never for the session, the server or another pane, and
 * never without the request; the report then says passthrough is on.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { TMUX_PASSTHROUGH_HINT } from '../../src/env/multiplexer.js';
import { allowTmuxPassthrough } from '../../src/probe/tmux-client.js';
import { context } from '../cli/show-support.js';

const hasTmux = spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;

describe.skipIf(!hasTmux)('tmux passthrough on request, in a real tmux', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'termsight-tmux-pt-'));
  const socket = path.join(dir, 'socket');
  const tmux = (...args: string[]) => execFileSync('tmux', ['-S', socket, ...args], { encoding: 'utf8' }).trim();
  let panes: string[] = [];
  const envOf = (pane: string) => ({ TMUX: `${socket},0,0`, TMUX_PANE: pane, PATH: process.env.PATH ?? '' });
  /** A pane's own allow-passthrough (empty when unset: it inherits the window's, then the global one). */
  const paneOption = (pane: string) => tmux('show-options', '-p', '-t', pane, '-v', 'allow-passthrough');

  beforeAll(() => {
    tmux('-f', '/dev/null', 'new-session', '-d', '-s', 't', 'sleep 60');
    tmux('split-window', '-t', 't', 'sleep 60');
    panes = tmux('list-panes', '-t', 't', '-F', '#{pane_id}').split('\n');
  });
  afterAll(() => {
    spawnSync('tmux', ['-S', socket, 'kill-server'], { stdio: 'ignore' });
  });

  it('without the request nothing changes: the report says off and names the flag', async () => {
    const { ctx, stdout } = context({ env: envOf(panes[0] as string) });
    expect(await runCli(['detect', '--json', '--no-probe'], ctx)).toBe(0);
    const report = JSON.parse(stdout.text) as { multiplexer: { passthrough: boolean; hint?: string } };
    expect(report.multiplexer.passthrough).toBe(false);
    expect(report.multiplexer.hint).toContain('--tmux-passthrough');
    expect(TMUX_PASSTHROUGH_HINT).toContain('--tmux-passthrough');
    expect(paneOption(panes[0] as string)).toBe('');
  });

  it('turns it on for the asking pane only', async () => {
    const [first, second] = panes as [string, string];
    expect(await allowTmuxPassthrough(envOf(first))).toBe(true);
    expect(paneOption(first)).toBe('on');
    expect(paneOption(second)).toBe('');
    expect(tmux('show-options', '-g', '-v', 'allow-passthrough')).toBe('off');
    expect(tmux('show-options', '-w', '-t', first, '-v', 'allow-passthrough')).toBe('');
  });

  it('--tmux-passthrough: the report then says passthrough is on', async () => {
    const second = panes[1] as string;
    const { ctx, stdout } = context({ env: envOf(second) });
    expect(await runCli(['detect', '--json', '--no-probe', '--tmux-passthrough'], ctx)).toBe(0);
    const report = JSON.parse(stdout.text) as { multiplexer: { passthrough: boolean; hint?: string } };
    expect(report.multiplexer.passthrough).toBe(true);
    expect(report.multiplexer.hint).toBeUndefined();
    expect(paneOption(second)).toBe('on');
  });

  it('outside tmux, or with a tmux that fails, it is false and asks nothing', async () => {
    expect(await allowTmuxPassthrough({ PATH: process.env.PATH ?? '' })).toBe(false);
    expect(await allowTmuxPassthrough({ ...envOf('%1'), TMUX: `${dir}/no-such-socket,0,0` })).toBe(false);
  });
});
